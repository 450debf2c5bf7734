//! The data picture in words, as a model reads it: what is known before the step, what its form
//! supplies, what is decided on after it, and how the project already defines those variables (label,
//! type, options), so a model reuses them. Within a character budget: lines are added while they fit
//! and what was left out is said in a closing line.

use std::fmt::Write as _;

use super::{Definitions, PathRoots, Picture, paths_below};
use crate::bpmn::Process;
use crate::project::{Project, ProjectForm};

/// Most options named for one defined variable.
const MAX_OPTIONS: usize = 12;

/// Most paths named below one object variable.
const MAX_PATHS: usize = 8;

/// `"; its fields: order.total, order.currency"` for a variable the process or project uses paths
/// below (an object a form shows or asks for field by field); `""` otherwise.
fn fields_of(name: &str, process: &Process, project: &Project, roots: &PathRoots) -> String {
    if !roots.may_have_paths_below(name) {
        return String::new();
    }
    let paths = paths_below(name, process, project, MAX_PATHS);
    if paths.is_empty() { String::new() } else { format!("; its fields: {}", paths.join(", ")) }
}

/// Which words the lines say between spaces (` key `), looked up in a set rather than by searching
/// every line for every key.
struct Mentioned<'l> {
    lines: &'l [String],
    words: std::collections::HashSet<&'l str>,
}

impl<'l> Mentioned<'l> {
    fn new(lines: &'l [String]) -> Self {
        let mut words = std::collections::HashSet::new();
        for line in lines {
            let parts: Vec<&str> = line.split(' ').collect();
            // the parts with a space on both sides
            words.extend(parts.iter().skip(1).take(parts.len().saturating_sub(2)).copied());
        }
        Mentioned { lines, words }
    }

    /// Whether some line holds ` key `.
    fn has(&self, key: &str) -> bool {
        if key.contains(' ') {
            return self.lines.iter().any(|l| l.contains(&format!(" {key} ")));
        }
        self.words.contains(key)
    }
}

/// What the rendered picture says of the project's definitions of the step's variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defined {
    /// Their key, label, type and options, to reuse.
    Shown,
    /// Nothing: the prompt shows the builtin draft, whose fields carry them.
    InTheDraft,
}

/// Renders `picture` within `budget` characters; `""` when it says nothing. `embedded` are the forms
/// embedded in the same BPMN document for other steps (`zeebe:userTaskForm`), which belong to the
/// project's vocabulary as much as its `.form` files.
pub fn describe_picture(
    picture: &Picture,
    (process, project): (&Process, &Project),
    embedded: &[ProjectForm],
    budget: usize,
    defined: Defined,
) -> String {
    if picture.known_before.is_empty()
        && picture.to_supply.is_empty()
        && picture.decided_on.is_empty()
        && project.forms.is_empty()
        && embedded.is_empty()
    {
        return String::new();
    }
    // a variable, why it is listed, and the paths below it when it is an object
    let roots = PathRoots::new(process, project);
    let item =
        |name: &str, note: &str| format!("  - {name} ({note}){}", fields_of(name, process, project, &roots));
    let mut lines: Vec<String> = Vec::new();
    lines.push("The data at this step:".to_string());
    if !picture.to_supply.is_empty() {
        lines.push("- The form supplies (read later, written by nothing before it):".into());
        lines.extend(picture.to_supply.iter().map(|s| item(&s.name, &s.why)));
    }
    if !picture.decided_on.is_empty() {
        lines.push("- Decided on after it:".into());
        lines.extend(
            picture.decided_on.iter().map(|d| format!("  - {}: {}", d.name, d.conditions.join(" | "))),
        );
    }
    if !picture.known_before.is_empty() {
        lines.push("- Known before it (show what the step needs; do not ask for it again):".into());
        lines.extend(picture.known_before.iter().map(|k| item(&k.name, &k.from)));
    }
    // what the form asks for, defined as a form that edits it has it; then what it shows
    let names = (picture.to_supply.iter().map(|s| (s.name.as_str(), true)))
        .chain(picture.decided_on.iter().map(|d| (d.name.as_str(), true)))
        .chain(picture.known_before.iter().map(|k| (k.name.as_str(), false)));
    let mut shown = Vec::new();
    let definitions = Definitions::new(process, project, embedded);
    let mut looked_up = std::collections::HashSet::new();
    for (name, edited) in names {
        if !looked_up.insert(name) {
            continue;
        }
        let definition = if edited { definitions.get_edited(name) } else { definitions.get(name) };
        if let Some(d) = definition {
            let mut line = format!("  - {}: {} \"{}\"", d.name, d.kind, d.label);
            if !d.options.is_empty() {
                let options: Vec<&str> =
                    d.options.iter().take(MAX_OPTIONS).map(|(v, _)| v.as_str()).collect();
                let _ = write!(line, ", options {}", options.join(" | "));
            }
            if d.required {
                line.push_str(", required");
            }
            let _ = write!(line, " (in {})", d.source);
            shown.push((d.name, line));
        }
    }
    if defined == Defined::Shown && !shown.is_empty() {
        lines.push("- Already defined in the project (reuse the key, label, type and options):".into());
        lines.extend(shown.into_iter().map(|(_, l)| l));
    }
    // the project's vocabulary: how its other forms name their data (a step often shows or asks for
    // what a sibling form does, under the same key)
    let mentioned = Mentioned::new(&lines);
    let mut vocabulary: Vec<String> = Vec::new();
    for form in project.forms.iter().chain(embedded) {
        let fields: Vec<String> = form
            .input_fields
            .iter()
            .filter(|f| !mentioned.has(&f.key))
            .map(|f| if f.label.is_empty() { f.key.clone() } else { format!("{} \"{}\"", f.key, f.label) })
            .collect();
        if !fields.is_empty() {
            let name = if form.id.is_empty() { form.file.as_str() } else { form.id.as_str() };
            vocabulary.push(format!("  - {name}: {}", fields.join(", ")));
        }
    }
    if !vocabulary.is_empty() {
        lines.push("- The project's other forms ask for (reuse their keys for the same data):".into());
        lines.extend(vocabulary);
    }
    let mut out = String::new();
    let mut left = 0;
    for (i, line) in lines.iter().enumerate() {
        if out.len() + line.len() + 1 + 60 > budget {
            left = lines.len() - i;
            break;
        }
        // a line of the picture is one line, whatever the names in it hold
        out.push_str(&crate::words::printable(line));
        out.push('\n');
    }
    if left > 0 {
        let _ = writeln!(out, "({left} more lines of the data picture left out for length.)");
    }
    out
}
