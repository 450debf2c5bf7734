//! The report of `formgen check`: what was checked and what was found, each finding placed in its
//! file, in one model ([`Run`]) that every format renders: `text` for people, `json` lines, `sarif`
//! for code scanning, `junit` for test reports and `github` for workflow annotations.
//!
//! A rule is a finding's code as a string, so a format renders any code the check has.

mod github;
mod json;
mod junit;
pub mod locate;
mod named;
mod sarif;
mod text;

use crate::check::{Code, Finding, Severity};

pub use locate::Position;
pub use named::{CheckError, NamedForm, Step, check_form};

/// How `formgen check` prints its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Format {
    /// A line per finding (`path:line:col  severity  message  code`) and a summary.
    #[default]
    Text,
    /// One JSON object per form.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// JUnit XML, for CI test reports.
    Junit,
    /// GitHub Actions workflow commands: an annotation per finding.
    Github,
}

/// The rule a message comes under: its id and what it checks, in one sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable id: a finding's code, or one of the gate's.
    pub id: &'static str,
    /// What the rule checks.
    pub summary: &'static str,
}

impl Rule {
    /// The gate accepted the form with a repair or a doubt.
    pub(crate) const GATE_WARNING: Rule = Rule {
        id: "gate_warning",
        summary: "The schema gate accepts the form but repairs something in it or finds something that looks wrong.",
    };

    /// The rule of a finding's code.
    pub fn of(code: Code) -> Rule {
        Rule { id: code.as_str(), summary: code.summary() }
    }
}

/// One message, placed in its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// The rule it comes under.
    pub rule: Rule,
    /// How much it matters.
    pub severity: Severity,
    /// What it says.
    pub message: String,
    /// The finding it says, when it is one (not a sentence of the gate's).
    pub finding: Option<Finding>,
    /// The file it is about, as the user names it (`/`-separated).
    pub file: String,
    /// Where in that file.
    pub at: Position,
}

impl Located {
    /// A finding about a form, at the component that binds its key in `text` (the text of `file`),
    /// else at the form's start.
    pub fn in_form(finding: Finding, file: &str, text: &str) -> Located {
        let at = finding.key.as_deref().map_or(Position::START, |key| locate::component(text, key));
        Located::of_finding(finding, file, at)
    }

    /// A finding at an element of a process: `element`, else the finding's own element, in `xml` (the
    /// text of the `.bpmn` file `file`).
    pub fn in_process(finding: Finding, file: &str, xml: &str, element: Option<&str>) -> Located {
        let id = element.or(finding.element_id.as_deref());
        let at = id.and_then(|id| locate::element(xml, id)).unwrap_or(Position::START);
        Located::of_finding(finding, file, at)
    }

    /// A sentence of the gate's about a form.
    pub fn sentence(rule: Rule, severity: Severity, message: String, file: &str, at: Position) -> Located {
        Located { rule, severity, message, finding: None, file: file.to_string(), at }
    }

    fn of_finding(finding: Finding, file: &str, at: Position) -> Located {
        Located {
            rule: Rule::of(finding.code),
            severity: finding.severity,
            message: finding.message.clone(),
            finding: Some(finding),
            file: file.to_string(),
            at,
        }
    }
}

/// A process that was read, with the findings about it that no form is tied to.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessReport {
    /// The `.bpmn` file as the user names it (`/`-separated).
    pub file: String,
    /// The file as the JSON lines name it: its path below the project folder, or as given.
    pub name: String,
    /// The process's id.
    pub id: String,
    /// What was found about the process itself.
    pub located: Vec<Located>,
}

/// One form checked at one step (a test case).
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// The form as the JSON lines name it: its path as given, its path below the project folder, or
    /// "the embedded form ID".
    pub form: String,
    /// The file the form is in (a `.form` file, or the `.bpmn` file of an embedded form).
    pub form_file: String,
    /// The form's `id` ("" when it has none or the file holds no form).
    pub form_id: String,
    /// The index of its process in [`Run::processes`], when it was checked against one.
    pub process: Option<usize>,
    /// The step it was checked at.
    pub element_id: Option<String>,
    /// The normalised schema, when the gate accepted the form.
    pub schema: Option<serde_json::Value>,
    /// What was found, in the order to say it.
    pub located: Vec<Located>,
}

/// What one `formgen check` checked and found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Run {
    /// Whether the forms were found through the processes of a folder (`--project DIR` with no
    /// files), rather than named.
    pub project: bool,
    /// Every process read.
    pub processes: Vec<ProcessReport>,
    /// Every form checked.
    pub units: Vec<Unit>,
    /// The folder relative paths start from (the command line's current folder), `/`-separated: a
    /// SARIF location that climbs out of it with `..` is resolved from here. Empty: the root.
    pub base: String,
}

/// A rendered report: what goes to stdout and to stderr.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rendered {
    /// What goes to stdout.
    pub out: String,
    /// What goes to stderr.
    pub err: String,
}

impl Run {
    /// Every message: the processes' own, then each form's.
    pub fn located(&self) -> impl Iterator<Item = &Located> {
        let own = self.processes.iter().flat_map(|p| &p.located);
        own.chain(self.units.iter().flat_map(|u| &u.located))
    }

    /// How many messages have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.located().filter(|l| l.severity == severity).count()
    }

    /// Whether the run fails a gate: anything is an error, or there are more than `max_warnings`
    /// warnings.
    pub fn fails(&self, max_warnings: Option<usize>) -> bool {
        let too_many = max_warnings.is_some_and(|max| self.count(Severity::Warning) > max);
        self.count(Severity::Error) > 0 || too_many
    }

    /// The process a unit was checked against.
    pub(crate) fn process_of(&self, unit: &Unit) -> Option<&ProcessReport> {
        unit.process.and_then(|i| self.processes.get(i))
    }

    /// One line: how many forms at how many steps of how many processes, and what was found.
    pub fn summary(&self) -> String {
        let mut forms: Vec<(&str, &str)> =
            self.units.iter().map(|u| (u.form_file.as_str(), u.form.as_str())).collect();
        forms.sort_unstable();
        forms.dedup();
        let mut steps: Vec<(Option<usize>, &str)> =
            self.units.iter().filter_map(|u| Some((u.process, u.element_id.as_deref()?))).collect();
        steps.sort_unstable();
        steps.dedup();
        let mut out = counted(forms.len(), "form", "forms");
        let processes = counted(self.processes.len(), "process", "processes");
        if !steps.is_empty() {
            out += &format!(" at {} of {processes}", counted(steps.len(), "step", "steps"));
        } else if !self.processes.is_empty() {
            out += &format!(" against {processes}");
        }
        out += &format!(
            ": {}, {}",
            counted(self.count(Severity::Error), "error", "errors"),
            counted(self.count(Severity::Warning), "warning", "warnings")
        );
        match self.count(Severity::Info) {
            0 => out,
            n => out + &format!(", {n} info"),
        }
    }

    /// The report in `format`.
    pub fn render(&self, format: Format) -> Rendered {
        let out = match format {
            Format::Text => text::render(self),
            Format::Json => return json::render(self),
            Format::Sarif => sarif::render(self),
            Format::Junit => junit::render(self),
            Format::Github => github::render(self),
        };
        Rendered { out, err: String::new() }
    }
}

/// `n` and the noun, singular for one.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The word for a severity.
pub fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// A path as a report names it: `/`-separated, without a leading `./`.
pub fn display_path(path: &std::path::Path) -> String {
    let shown = path.to_string_lossy();
    let shown = if cfg!(windows) { shown.replace('\\', "/") } else { shown.into_owned() };
    let mut rest = shown.as_str();
    while let Some(after) = rest.strip_prefix("./") {
        rest = after.trim_start_matches('/');
    }
    if rest.is_empty() { ".".to_string() } else { rest.to_string() }
}

#[cfg(test)]
pub(crate) mod tests;
