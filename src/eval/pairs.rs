//! A pairs folder: `pairs.jsonl` with one (BPMN element, author's form) pair per line, as in
//! `corpus/pairs/` (see its README).
//!
//! Each line becomes a [`Pair`] ready to generate, or a [`Problem`] for that line alone: a malformed
//! line, a file that is missing or too large, an element that is not in its BPMN. A problem is reported
//! for its pair and counted as failed; it never stops the others. Only a folder that cannot be read
//! at all, or holds no pair, is an [`EvalError`]. Paths in a line are relative to the folder and may
//! not leave it. Fields other than `bpmn`, `elementId`, `form`, `inputKeys`, `project` and
//! `projectExclude` are ignored.
//!
//! A pair's project folder is its `project`, or, when the line names none, the folder the corpus's
//! layout keeps it in: `projects/<prefix>` for a BPMN file named `<prefix>__<name>.bpmn` (when that
//! folder exists). The generator sees the folder without the files `projectExclude` lists, or, when
//! the line lists none, without every copy of the pair's own form ([`same_form`]).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use super::embedded::hide_embedded_form;
use super::fields::{Field, input_fields};
use super::{EvalError, GenerationInput};
use crate::Limits;

/// Largest `pairs.jsonl` read.
pub const PAIRS_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Most files listed from one project folder.
pub const PROJECT_FILES: usize = 1_000;

/// One pair, ready to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The BPMN file, as the pairs file (or the project folder) names it.
    pub bpmn: String,
    /// The step.
    pub element_id: String,
    /// The author's form file, as named.
    pub form: String,
    /// The author's form's input fields.
    pub author: Vec<Field>,
    /// The author's keys: the pair's `inputKeys` when given, else the form's own input keys.
    pub author_keys: Vec<String>,
    /// The `inputKeys` the pairs file lists, when it does.
    pub listed_keys: Option<Vec<String>>,
    /// What the generator is given.
    pub input: GenerationInput,
}

impl Pair {
    /// Where the pair's listed `inputKeys` and the keys read from its form differ, one sentence each
    /// (empty when they agree or no keys are listed): the scores count the listed keys, so a pairs
    /// file that lists other keys than its form binds is scored against them, and `eval` says so.
    pub fn key_differences(&self) -> Vec<String> {
        let Some(listed) = &self.listed_keys else { return Vec::new() };
        let read: Vec<&str> = self.author.iter().map(|f| f.path.as_str()).collect();
        let mut out = Vec::new();
        for k in listed.iter().filter(|k| !read.contains(&k.as_str())) {
            out.push(format!("inputKeys lists \"{k}\", which the form does not bind"));
        }
        for k in read.iter().filter(|k| !listed.iter().any(|l| l == *k)) {
            out.push(format!("the form binds \"{k}\", which inputKeys does not list"));
        }
        if out.is_empty() && listed.iter().map(String::as_str).ne(read.iter().copied()) {
            out.push("inputKeys lists the form's keys in another order".to_string());
        }
        out
    }
}

/// A pair that cannot be evaluated, with the sentence saying why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The BPMN file as named (`""` when the line did not say).
    pub bpmn: String,
    /// The step (`""` when the line did not say).
    pub element_id: String,
    /// Why.
    pub error: String,
}

/// One line's outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum PairOrProblem {
    /// Ready to generate.
    Pair(Box<Pair>),
    /// Counted as failed.
    Problem(Problem),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Line {
    bpmn: String,
    element_id: String,
    form: String,
    #[serde(default)]
    input_keys: Option<Vec<String>>,
    #[serde(default)]
    project: Option<String>,
    #[serde(default)]
    project_exclude: Option<Vec<String>>,
}

/// Reads a pairs folder. Per-line problems are in the list; only an unreadable or empty folder is an
/// error.
pub fn load_pairs(dir: &Path, limits: &Limits) -> Result<Vec<PairOrProblem>, EvalError> {
    let meta =
        std::fs::metadata(dir).map_err(|error| EvalError::Unreadable { path: dir.to_path_buf(), error })?;
    if !meta.is_dir() {
        return Err(EvalError::NotAFolder(dir.to_path_buf()));
    }
    let file = dir.join("pairs.jsonl");
    if !file.is_file() {
        return Err(EvalError::NoPairsFile(dir.to_path_buf()));
    }
    let unreadable = |error| EvalError::Unreadable { path: file.clone(), error };
    let mut bytes = Vec::new();
    crate::files::open(&file, limits.file_read_timeout())
        .map_err(unreadable)?
        .take(PAIRS_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > PAIRS_FILE_BYTES {
        return Err(EvalError::TooLarge { path: file, size: bytes.len() as u64, limit: PAIRS_FILE_BYTES });
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty()).collect();
    if lines.is_empty() {
        return Err(EvalError::NoPairs(file));
    }
    Ok(lines.into_iter().map(|(n, line)| pair_of_line(dir, n, line, limits)).collect())
}

fn pair_of_line(dir: &Path, n: usize, line: &str, limits: &Limits) -> PairOrProblem {
    let parsed: Result<Line, _> = serde_json::from_str(line);
    let l = match parsed {
        Ok(l) => l,
        Err(e) => {
            // name the pair if the line says enough to
            let loose: Value = serde_json::from_str(line).unwrap_or(Value::Null);
            let field = |k: &str| loose.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            return PairOrProblem::Problem(Problem {
                bpmn: field("bpmn"),
                element_id: field("elementId"),
                error: format!(
                    "line {n} of pairs.jsonl is not a pair (bpmn, elementId and form are needed): {e}"
                ),
            });
        }
    };
    match prepare(dir, &l, limits) {
        Ok(pair) => PairOrProblem::Pair(Box::new(pair)),
        Err(error) => PairOrProblem::Problem(Problem {
            bpmn: l.bpmn,
            element_id: l.element_id,
            error: format!("line {n}: {error}"),
        }),
    }
}

fn prepare(dir: &Path, l: &Line, limits: &Limits) -> Result<Pair, String> {
    let bpmn_text = read_text(&inside(dir, &l.bpmn)?, &l.bpmn, limits.bpmn_bytes)?;
    let schema = read_form(&inside(dir, &l.form)?, &l.form, limits.schema_bytes)?;
    let hidden = hide_embedded_form(&bpmn_text, &l.element_id).map_err(|e| format!("{e} ({})", l.bpmn))?;
    let project_files = match project_folder(dir, l)? {
        Some((folder, shown)) => {
            let files = list_files(&folder, limits)
                .map_err(|e| format!("cannot list the project folder {shown}: {e}"))?;
            match &l.project_exclude {
                Some(names) => {
                    let exclude: Vec<PathBuf> = names.iter().map(|x| folder.join(x)).collect();
                    files.into_iter().filter(|f| !exclude.contains(f)).collect()
                }
                None => files.into_iter().filter(|f| !is_copy_of(f, &schema, limits)).collect(),
            }
        }
        None => Vec::new(),
    };
    let author = input_fields(&schema);
    let author_keys = l.input_keys.clone().unwrap_or_else(|| author.iter().map(|f| f.path.clone()).collect());
    Ok(Pair {
        bpmn: l.bpmn.clone(),
        element_id: l.element_id.clone(),
        form: l.form.clone(),
        author,
        author_keys,
        listed_keys: l.input_keys.clone(),
        input: GenerationInput { bpmn_text: hidden, element_id: l.element_id.clone(), project_files },
    })
}

/// The pair's project folder and its name as shown in errors: the line's `project`, else
/// `projects/<prefix>` for a BPMN file named `<prefix>__<name>` when that folder exists, else none.
fn project_folder(dir: &Path, l: &Line) -> Result<Option<(PathBuf, String)>, String> {
    if let Some(p) = l.project.as_deref().filter(|p| !p.trim().is_empty()) {
        return Ok(Some((inside(dir, p)?, p.to_string())));
    }
    let name = Path::new(&l.bpmn).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some((prefix, _)) = name.split_once("__").filter(|(prefix, _)| !prefix.is_empty()) else {
        return Ok(None);
    };
    let shown = format!("projects/{prefix}");
    let folder = inside(dir, &shown)?;
    Ok(folder.is_dir().then_some((folder, shown)))
}

/// Whether the project file at `path` is a copy of the pair's form `author` ([`same_form`]); a
/// file that is no readable form is not.
fn is_copy_of(path: &Path, author: &Value, limits: &Limits) -> bool {
    let is_form = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("form"));
    is_form && read_form(path, "", limits.schema_bytes).is_ok_and(|schema| same_form(&schema, author))
}

/// Whether two form-js schemas are one form, by the rule the corpus hides a pair's own form with: the
/// same top-level `id`, the same `components`, or the same input keys (at least one).
pub fn same_form(a: &Value, b: &Value) -> bool {
    let id = |s: &Value| s.get("id").and_then(Value::as_str).filter(|id| !id.is_empty()).map(str::to_string);
    let keys =
        |s: &Value| input_fields(s).into_iter().map(|f| f.path).collect::<std::collections::BTreeSet<_>>();
    let (id_a, keys_a) = (id(a), keys(a));
    (id_a.is_some() && id_a == id(b))
        || a.get("components").is_some_and(|c| Some(c) == b.get("components"))
        || (!keys_a.is_empty() && keys_a == keys(b))
}

/// `dir/rel`, refused when `rel` is absolute or climbs out of `dir`.
fn inside(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    let p = Path::new(rel);
    if rel.trim().is_empty() || p.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!("the path \"{rel}\" is not a path inside the pairs folder"));
    }
    Ok(dir.join(p))
}

/// A text file of at most `limit` bytes (decoded as BPMN text is: BOM and declared encoding honoured);
/// errors name it as `shown`.
pub(crate) fn read_text(path: &Path, shown: &str, limit: usize) -> Result<String, String> {
    let file = crate::files::open(path, crate::files::default_timeout())
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let bytes = crate::bpmn::read_capped(file, limit).map_err(|e| format!("{shown}: {e}"))?;
    Ok(crate::bpmn::decode_text(&bytes).into_owned())
}

/// A form file: JSON of at most `limit` bytes; errors name it as `shown`.
pub(crate) fn read_form(path: &Path, shown: &str, limit: usize) -> Result<Value, String> {
    let file = crate::files::open(path, crate::files::default_timeout())
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() > limit {
        return Err(format!("{shown} is over the {limit}-byte limit for a form"));
    }
    serde_json::from_slice(&bytes).map_err(|e| format!("{shown} is not a form-js JSON document: {e}"))
}

/// The `.bpmn`, `.form` and `.dmn` files below `dir`, sorted, as the project walker lists them
/// ([`crate::project::list_all`]), with room for [`PROJECT_FILES`] of them.
pub(crate) fn list_files(dir: &Path, limits: &Limits) -> Result<Vec<PathBuf>, crate::project::ProjectError> {
    let mut bounds = crate::project::ProjectBounds::from_limits(limits);
    bounds.max_files = bounds.max_files.max(PROJECT_FILES);
    Ok(crate::project::list_all(dir, &bounds)?.files.into_iter().map(|f| f.path).collect())
}
