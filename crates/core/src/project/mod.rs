//! The project around a process: the forms of its other steps and the decisions it calls.
//!
//! A Camunda 8 project keeps its `.bpmn`, `.form` and `.dmn` files together, and a process is only
//! understood with them: a step that binds a form (`zeebe:formDefinition formId`) writes that form's
//! keys, a business rule task (`zeebe:calledDecision decisionId`) reads its decision's inputs and
//! writes its result, and a variable a sibling form already asks for comes with a label, a type and
//! options worth reusing. This module gathers them into a [`Project`], looked up by form id and
//! decision id. It knows nothing of processes, HTTP or models; linking steps to forms and decisions
//! is the data-flow reader's job.
//!
//! **Sources.** The files of a project given in memory ([`from_files`]: an editor's open files, or
//! the files a folder holds, which the `formgen` crate lists and reads): `.form` files indexed by the
//! `id` inside them, `.dmn` files by the ids of their decisions; and the lists a request sends
//! ([`from_request`]): `forms` (form-js schemas) and `decisions` (DMN XML text), the ones the editor
//! has open. [`Project::overlay`] lays the request's over the folder's: what the editor holds is newer
//! than what is saved.
//!
//! **Bounds.** [`ProjectBounds`] caps the number of files, the bytes of each and the bytes of all;
//! beyond them the whole project is refused with a [`ProjectError`] whose sentence names the count or
//! size and the limit. One exception: among files (a folder's, an editor's), a single file over the
//! per-file size is skipped with a warning (a folder is shared by many processes; one oversized file
//! must not take the project from all of them), while the same in a request is refused.
//!
//! **Leniency.** A file that does not parse (not JSON, not a form, no DMN decision) is skipped with a
//! warning naming it, never an error; a DMN file that breaks halfway keeps the decisions before the
//! break, with a warning. Where two forms (or decisions) share an id, the first one by file name is
//! the one looked up, with a warning.

mod form;

use std::path::PathBuf;

use serde_json::Value;

pub use form::{FieldOption, FormField, ProjectForm};

use crate::dmn::{self, Decision};

/// The ceilings of one project; the caller takes them from the installation's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProjectBounds {
    /// Forms and decision files, together.
    pub max_files: usize,
    /// Bytes of all of them together.
    pub max_bytes_total: u64,
    /// Bytes of any one of them (a form in a request: its JSON text).
    pub max_file_bytes: u64,
    /// The time reading one file of a folder may take.
    pub read_timeout: std::time::Duration,
}

impl ProjectBounds {
    /// The bounds the installation's limits set for one project.
    pub fn from_limits(limits: &crate::Limits) -> ProjectBounds {
        ProjectBounds {
            max_files: limits.project_files,
            max_bytes_total: limits.project_bytes as u64,
            max_file_bytes: limits.project_file_bytes as u64,
            read_timeout: limits.file_read_timeout(),
        }
    }
}

impl Default for ProjectBounds {
    /// The installation's default limits.
    fn default() -> Self {
        ProjectBounds::from_limits(&crate::Limits::default())
    }
}

/// A project refused whole.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// A folder holds more project files than the limit (the walk stops there).
    #[error(
        "the project folder {} holds more than {limit} {kinds} files, this installation's limit for a \
         project (FORMGEN_LIMIT_PROJECT_FILES); point formgen at the process's own project folder or ask the \
         operator to raise the limit",
        dir.display()
    )]
    TooManyFiles {
        /// The folder.
        dir: PathBuf,
        /// The kinds of file counted (".form and .dmn", ".bpmn", ".bpmn, .form and .dmn").
        kinds: &'static str,
        /// The limit.
        limit: usize,
    },
    /// A request sends more forms and decisions than the limit.
    #[error(
        "the request sends {count} forms and decisions, over this installation's limit of {limit} for a \
         project; send only those of this process's project, or ask the operator to raise the limit"
    )]
    TooMany {
        /// Forms and decisions sent.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// One form or decision of a request is over the per-file size.
    #[error(
        "{what} is {size} bytes, over this installation's limit of {limit} bytes for one project file; \
         send a smaller one or ask the operator to raise the limit"
    )]
    TooLarge {
        /// Which one (`forms[2]`, `decisions[0]`).
        what: String,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// All of them together are over the total.
    #[error(
        "{place} comes to {size} bytes of forms and decisions, over this installation's limit of {limit} \
         bytes for a project; send fewer or ask the operator to raise the limit"
    )]
    TooLargeTotal {
        /// `the project folder DIR` or `the request's project`.
        place: String,
        /// Bytes together.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The folder itself cannot be listed (missing, not a folder, no permission).
    #[error("the project folder {} cannot be read: {source}", dir.display())]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What a project file holds, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `.form`: a form-js schema.
    Form,
    /// `.dmn`: DMN decisions.
    Decisions,
    /// `.bpmn`: processes (a project is its forms and decisions; processes are listed apart).
    Process,
}

impl FileKind {
    /// The kind of a file by its name's extension, in any case; `None` for any other file.
    pub fn of_name(name: &str) -> Option<FileKind> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".form") {
            Some(FileKind::Form)
        } else if lower.ends_with(".dmn") {
            Some(FileKind::Decisions)
        } else if lower.ends_with(".bpmn") {
            Some(FileKind::Process)
        } else {
            None
        }
    }
}

/// The forms and decisions of a process's project. Serialises (camelCase) for the outline's JSON and
/// the page's data panel (forms without their schemas).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    /// Every form read, by file name (a request's in its order).
    pub forms: Vec<ProjectForm>,
    /// Every decision read, file by file, document order within a file.
    pub decisions: Vec<Decision>,
    /// The files (or request entries, `decisions[0]`) that contributed, in reading order.
    pub files: Vec<String>,
    /// A sentence per file skipped or read only in part, per id used twice.
    pub warnings: Vec<String>,
    /// The `.form` files that are not what a step binding them needs: what the contract check reports
    /// as findings.
    #[serde(skip)]
    pub form_problems: Vec<FormFileProblem>,
}

/// A `.form` file of the project that a step cannot use as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormFileProblem {
    /// It could not be read as a form: too large, unreadable, not JSON, not a form-js schema.
    Unreadable {
        /// The file, as named in the project.
        file: String,
        /// The sentence that says why.
        why: String,
    },
    /// Its form id is one an earlier file has; the earlier one is the one linked.
    DuplicateId {
        /// The file, as named in the project.
        file: String,
        /// The id.
        id: String,
        /// The file that has it first.
        first: String,
    },
}

impl Project {
    /// The form with this id (the first, where several share it). A blank id finds nothing.
    pub fn form(&self, id: &str) -> Option<&ProjectForm> {
        let id = id.trim();
        (!id.is_empty()).then(|| self.forms.iter().find(|f| f.id == id)).flatten()
    }

    /// The decision with this id (the first, where several share it). A blank id finds nothing.
    pub fn decision(&self, id: &str) -> Option<&Decision> {
        let id = id.trim();
        (!id.is_empty()).then(|| self.decisions.iter().find(|d| d.id.trim() == id)).flatten()
    }

    /// The fields that bind `key` (a full binding path), form by form: where a sibling form already
    /// asks for a variable, with its label, type and options.
    pub fn fields(&self, key: &str) -> impl Iterator<Item = (&ProjectForm, &FormField)> {
        self.forms.iter().flat_map(move |form| {
            form.input_fields.iter().filter(move |f| f.key == key).map(move |f| (form, f))
        })
    }

    /// Whether there is nothing in it.
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty() && self.decisions.is_empty()
    }

    /// Lays `newer` (what the editor holds) over this project (what is saved): a form or decision of
    /// `newer` replaces the one with the same id here, the rest are added; warnings and files are kept
    /// from both.
    pub fn overlay(&mut self, newer: Project) {
        for form in newer.forms {
            match self.forms.iter_mut().find(|f| !form.id.is_empty() && f.id == form.id) {
                Some(old) => *old = form,
                None => self.forms.push(form),
            }
        }
        for decision in newer.decisions {
            match self.decisions.iter_mut().find(|d| !decision.id.is_empty() && d.id == decision.id) {
                Some(old) => *old = decision,
                None => self.decisions.push(decision),
            }
        }
        self.files.extend(newer.files);
        self.warnings.extend(newer.warnings);
    }

    fn add_form(&mut self, schema: Value, file: &str) {
        match form::read_form(schema, file.to_string()) {
            Ok(form) => {
                if let Some(first) = self.form(&form.id).map(|f| f.file.clone()) {
                    self.warnings.push(format!(
                        "{file} has the form id \"{}\" that {} has too; {} is the one linked.",
                        form.id, first, first
                    ));
                    self.form_problems.push(FormFileProblem::DuplicateId {
                        file: file.to_string(),
                        id: form.id.clone(),
                        first,
                    });
                }
                self.forms.push(form);
                self.files.push(file.to_string());
            }
            Err(why) => {
                let sentence = format!("{file} was skipped: {why}, so it is not a form-js form.");
                self.unreadable_form(file, sentence);
            }
        }
    }

    /// A project file skipped before it was read (too large, unreadable): a warning, and a problem for
    /// the check when it is a form.
    pub fn skip_file(&mut self, name: &str, kind: FileKind, sentence: String) {
        if kind == FileKind::Form {
            self.unreadable_form(name, sentence);
        } else {
            self.warnings.push(sentence);
        }
    }

    /// Reads one project file's bytes into the project: a form by its id, a DMN file's decisions. A
    /// file that does not parse is skipped with a warning (and, for a form, a problem for the check).
    pub fn add_file(&mut self, name: &str, kind: FileKind, bytes: &[u8]) {
        match kind {
            FileKind::Form => {
                let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
                match serde_json::from_slice::<Value>(text) {
                    Ok(schema) => self.add_form(schema, name),
                    Err(e) => {
                        self.unreadable_form(name, format!("{name} was skipped: it is not JSON ({e})."));
                    }
                }
            }
            FileKind::Decisions => self.add_decisions(dmn::read(bytes), name),
            // a process is read as a process, not as project context
            FileKind::Process => {}
        }
    }

    /// A `.form` file skipped: a warning, and a problem for the check.
    fn unreadable_form(&mut self, file: &str, sentence: String) {
        self.form_problems
            .push(FormFileProblem::Unreadable { file: file.to_string(), why: sentence.clone() });
        self.warnings.push(sentence);
    }

    fn add_decisions(&mut self, read: dmn::Decisions, file: &str) {
        if read.decisions.is_empty() {
            self.warnings.push(format!("{file} was skipped: it holds no DMN decision."));
            return;
        }
        if let Some(at) = read.break_at {
            self.warnings.push(format!(
                "{file} breaks off after {at} bytes; only the decisions before the break were read."
            ));
        }
        for decision in read.decisions {
            if self.decision(&decision.id).is_some() {
                self.warnings.push(format!(
                    "{file} has a decision with the id \"{}\", which was read before; the first one is used.",
                    decision.id
                ));
            }
            self.decisions.push(decision);
        }
        self.files.push(file.to_string());
    }
}

/// The project held by files in memory (an editor's open files), each named by its path in the
/// project: `.form` files by their ids, `.dmn` files by their decisions' ids; other files are passed
/// over. Read in the order of their names, as a folder is, so the first of two forms with one id is
/// the same whatever order the files came in. The same bounds as a folder's, refused whole past the count or the total, a file over the
/// per-file size skipped with a warning.
pub fn from_files<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    bounds: &ProjectBounds,
) -> Result<Project, ProjectError> {
    let mut files: Vec<(&str, &[u8], FileKind)> =
        files.into_iter().filter_map(|(name, bytes)| Some((name, bytes, FileKind::of_name(name)?))).collect();
    files.sort_by(|a, b| a.0.cmp(b.0));
    let count = files.iter().filter(|f| f.2 != FileKind::Process).count();
    if count > bounds.max_files {
        return Err(ProjectError::TooMany { count, limit: bounds.max_files });
    }
    let mut project = Project::default();
    let mut total = 0u64;
    for (name, bytes, kind) in files {
        if kind == FileKind::Process {
            continue;
        }
        if bytes.len() as u64 > bounds.max_file_bytes {
            let sentence = format!(
                "{name} is {} bytes, over this installation's limit of {} bytes for one project file; it was skipped.",
                bytes.len(),
                bounds.max_file_bytes
            );
            project.skip_file(name, kind, sentence);
            continue;
        }
        total += bytes.len() as u64;
        if total > bounds.max_bytes_total {
            return Err(ProjectError::TooLargeTotal {
                place: "the project".to_string(),
                size: total,
                limit: bounds.max_bytes_total,
            });
        }
        project.add_file(name, kind, bytes);
    }
    Ok(project)
}

/// The project a request sends: `forms` (form-js schemas) and `decisions` (DMN XML text, each a
/// document that may hold several decisions), named `forms[i]` and `decisions[i]` in warnings.
pub fn from_request(
    forms: &[Value],
    decisions: &[String],
    bounds: &ProjectBounds,
) -> Result<Project, ProjectError> {
    let count = forms.len() + decisions.len();
    if count > bounds.max_files {
        return Err(ProjectError::TooMany { count, limit: bounds.max_files });
    }
    let mut total = 0u64;
    let mut check = |what: String, size: u64| {
        if size > bounds.max_file_bytes {
            return Err(ProjectError::TooLarge { what, size, limit: bounds.max_file_bytes });
        }
        total += size;
        if total > bounds.max_bytes_total {
            return Err(ProjectError::TooLargeTotal {
                place: "the request's project".to_string(),
                size: total,
                limit: bounds.max_bytes_total,
            });
        }
        Ok(())
    };
    for (i, form) in forms.iter().enumerate() {
        check(format!("forms[{i}]"), json_len(form))?;
    }
    for (i, xml) in decisions.iter().enumerate() {
        check(format!("decisions[{i}]"), xml.len() as u64)?;
    }
    let mut project = Project::default();
    for (i, form) in forms.iter().enumerate() {
        project.add_form(form.clone(), &format!("forms[{i}]"));
    }
    for (i, xml) in decisions.iter().enumerate() {
        project.add_decisions(dmn::read_str(xml), &format!("decisions[{i}]"));
    }
    Ok(project)
}

/// The length of a value's compact JSON text, without building it.
fn json_len(value: &Value) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}
