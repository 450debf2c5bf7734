//! `--project DIR`: the operator's own folder, as a Camunda 8 project keeps it (BPMN files with the
//! `.form` files their steps bind), turned into pairs leave-one-out.
//!
//! Every step whose `zeebe:formDefinition formId` names the top-level `id` of a `.form` file in the
//! folder becomes a pair: the author's form is that file (when several carry the id, the one named
//! `<id>.form`, else the first in path order), and while it is generated the project shows
//! every other `.form` and `.dmn` file of the folder but no copy of the form: none carrying that id,
//! and none with the same components or the same input keys ([`super::pairs::same_form`]). Steps
//! linking an embedded form or a form kept elsewhere are not pairs here. A BPMN or form file that
//! cannot be read is skipped as a source of pairs (a broken form binds no step); the folder is
//! refused only when it cannot be listed or holds no BPMN file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::embedded::hide_embedded_form;
use super::fields::input_fields;
use super::pairs::{Pair, PairOrProblem, Problem, list_files, read_form, read_text, same_form};
use super::{EvalError, GenerationInput};
use crate::Limits;

/// The pairs of a project folder, in file order then document order.
pub fn load_project(dir: &Path, limits: &Limits) -> Result<Vec<PairOrProblem>, EvalError> {
    let meta =
        std::fs::metadata(dir).map_err(|error| EvalError::Unreadable { path: dir.to_path_buf(), error })?;
    if !meta.is_dir() {
        return Err(EvalError::NotAFolder(dir.to_path_buf()));
    }
    let files = list_files(dir, limits)?;
    let has = |f: &PathBuf, ext: &str| f.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext));
    let bpmn_files: Vec<&PathBuf> = files.iter().filter(|f| has(f, "bpmn")).collect();
    if bpmn_files.is_empty() {
        return Err(EvalError::NoBpmn(dir.to_path_buf()));
    }
    // form id -> (file, schema) of every readable form; and every readable form with its id
    let mut forms: BTreeMap<String, (PathBuf, Value)> = BTreeMap::new();
    let mut carriers: Vec<(String, PathBuf, Value)> = Vec::new();
    for f in files.iter().filter(|f| has(f, "form")) {
        let Ok(schema) = read_form(f, "", limits.schema_bytes) else { continue };
        let Some(id) = schema.get("id").and_then(Value::as_str).map(str::to_string) else { continue };
        carriers.push((id.clone(), f.clone(), schema.clone()));
        // the file named after the id, else the first in path order
        let named = f.file_stem().is_some_and(|s| s.to_string_lossy() == id);
        match forms.get(&id) {
            Some((held, _)) if !named || held.file_stem().is_some_and(|s| s.to_string_lossy() == id) => {}
            _ => {
                forms.insert(id, (f.clone(), schema));
            }
        }
    }
    let context: Vec<&PathBuf> = files.iter().filter(|f| has(f, "form") || has(f, "dmn")).collect();
    let relative = |p: &Path| p.strip_prefix(dir).unwrap_or(p).display().to_string();
    let mut out = Vec::new();
    for path in bpmn_files {
        let bpmn = relative(path);
        let text = match read_text(path, &bpmn, limits.bpmn_bytes) {
            Ok(t) => t,
            Err(error) => {
                out.push(PairOrProblem::Problem(Problem { bpmn, element_id: String::new(), error }));
                continue;
            }
        };
        for process in crate::bpmn::read_str(&text).processes {
            for element in process.elements.iter().filter(|e| forms.contains_key(e.form_id.as_str())) {
                let (form_path, schema) = &forms[element.form_id.as_str()];
                let hidden: Vec<&PathBuf> = (carriers.iter())
                    .filter(|(id, _, form)| *id == element.form_id || same_form(form, schema))
                    .map(|(_, p, _)| p)
                    .collect();
                let project_files =
                    context.iter().filter(|f| !hidden.contains(f)).map(|f| (*f).clone()).collect();
                let item = match hide_embedded_form(&text, &element.id) {
                    Ok(bpmn_text) => {
                        let author = input_fields(schema);
                        PairOrProblem::Pair(Box::new(Pair {
                            bpmn: bpmn.clone(),
                            element_id: element.id.to_string(),
                            form: relative(form_path),
                            author_keys: author.iter().map(|f| f.path.clone()).collect(),
                            author,
                            listed_keys: None,
                            input: GenerationInput {
                                bpmn_text,
                                element_id: element.id.to_string(),
                                project_files,
                            },
                        }))
                    }
                    Err(error) => PairOrProblem::Problem(Problem {
                        bpmn: bpmn.clone(),
                        element_id: element.id.to_string(),
                        error,
                    }),
                };
                out.push(item);
            }
        }
    }
    Ok(out)
}
