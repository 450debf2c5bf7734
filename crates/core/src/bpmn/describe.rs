//! `describe`: the process outline as the paragraphs a model reads.
//!
//! A model writing a form for one step needs, in this order of importance: which step it is and what
//! it binds today; what leads to it and what follows; the decisions downstream (a gateway's conditions
//! say which answers matter); and the process's own variable names, so keys match them. The rest of the
//! process is context. The text must fit a character budget whatever the process size, so the required
//! parts are laid down first (every variable name at least by name, the target's neighbourhood), then
//! detail is added while it fits, and what was left out is said in a closing line.
//!
//! This module renders; it does not fence the text or tell the model how to treat it — that is the
//! prompt's job.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use indexmap::IndexSet;

use super::ElementKind;
use super::condition::{Comparison, read_condition};
use super::model::{Element, Process};
use super::trim;
use crate::words::printable;

/// Why a description could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DescribeError {
    /// The element id names nothing in the process.
    #[error(
        "the process \"{process_id}\" has no element \"{element_id}\"; pick a step of this process, or none for the start form"
    )]
    UnknownElement {
        /// The process searched.
        process_id: String,
        /// The id asked for.
        element_id: String,
    },
}

/// Most incoming or outgoing flows listed for the target.
const MAX_NEIGHBOURS: usize = 24;
/// How many places a variable's detail line names.
const MAX_ORIGINS: usize = 3;
/// How many comparisons a variable's detail line names.
const MAX_COMPARISONS: usize = 6;

/// Renders `process` for a form at the element with this id (empty: the start form) within `budget`
/// characters, for callers that hold an id (the CLI, tests); an id the process lacks is an error.
pub fn describe_step(process: &Process, element_id: &str, budget: usize) -> Result<String, DescribeError> {
    let target = if element_id.is_empty() {
        None
    } else {
        Some(process.element_index(element_id).ok_or_else(|| DescribeError::UnknownElement {
            process_id: process.id.clone(),
            element_id: element_id.to_string(),
        })?)
    };
    Ok(describe(process, target, budget))
}

/// Renders `process` for a form at the element with index `target` in [`Process::elements`] (none:
/// the start form) within `budget` characters. Returns `""` when the process says nothing at all.
///
/// # Panics
/// When `target` is not an index of `process.elements`: callers pass an index a resolver found.
pub fn describe(process: &Process, target: Option<usize>, budget: usize) -> String {
    if target.is_none()
        && process.elements.is_empty()
        && process.variable_uses.is_empty()
        && process.name.is_empty()
        && process.documentation.is_empty()
    {
        return String::new();
    }
    Describer::new(process, target, budget).render()
}

struct Describer<'p> {
    process: &'p Process,
    target: Option<usize>,
    budget: usize,
    /// Comparisons per variable, from every condition of the process.
    compared: HashMap<String, Vec<Comparison>>,
    /// Variables referenced by conditions, in order of first appearance.
    condition_variables: Vec<String>,
    /// Element index by id (the first element with an id wins, as in [`Process::element`]).
    by_id: HashMap<&'p str, usize>,
    /// Variable use indices by name.
    uses_by_name: HashMap<&'p str, Vec<usize>>,
}

/// A section made of items that are added while the budget allows.
struct Optional {
    heading: String,
    items: Vec<String>,
    /// How many were added.
    taken: usize,
    /// Words for the omission notice ("downstream decisions").
    what: &'static str,
}

impl<'p> Describer<'p> {
    fn new(process: &'p Process, target: Option<usize>, budget: usize) -> Self {
        let mut compared: HashMap<String, Vec<Comparison>> = HashMap::new();
        // comparisons told apart by their text, which says variable, operator and literal
        let mut seen_comparisons: HashSet<String> = HashSet::new();
        let mut condition_variables = IndexSet::new();
        for flow in process.elements.iter().filter(|e| !e.condition.is_empty()) {
            let reading = read_condition(&flow.condition);
            condition_variables.extend(reading.variables);
            for c in reading.comparisons {
                if seen_comparisons.insert(c.to_string()) {
                    compared.entry(c.variable.clone()).or_default().push(c);
                }
            }
        }
        let condition_variables = condition_variables.into_iter().collect();
        let mut by_id = HashMap::new();
        for (i, e) in process.elements.iter().enumerate() {
            by_id.entry(e.id.as_str()).or_insert(i);
        }
        let mut uses_by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, u) in process.variable_uses.iter().enumerate() {
            uses_by_name.entry(u.name.as_str()).or_default().push(i);
        }
        Describer { process, target, budget, compared, condition_variables, by_id, uses_by_name }
    }

    fn element(&self, id: &str) -> Option<&'p Element> {
        self.by_id.get(id).map(|&i| &self.process.elements[i])
    }

    fn render(&self) -> String {
        let share = (self.budget / 8).max(200);
        let header = self.header(share);
        let focus = self.focus(share);
        let names = self.variable_names();
        let mut decisions = Optional {
            heading: "Decisions downstream (the answers that matter):\n".into(),
            items: self.decisions(),
            taken: 0,
            what: "downstream decisions",
        };
        let mut details = Optional {
            heading: String::new(),
            items: names.iter().map(|n| self.variable_detail(n)).collect(),
            taken: 0,
            what: "variable details",
        };
        let mut others = Optional {
            heading: "Other elements of the process:\n".into(),
            items: self.other_elements(),
            taken: 0,
            what: "other elements",
        };
        const NOTICE_RESERVE: usize = 160;
        let names_line = if names.is_empty() {
            String::new()
        } else {
            format!("Variables of the process: {}\n", names.join(", "))
        };
        let required = header.len() + focus.len() + names_line.len() + 2;
        let mut room = self.budget.saturating_sub(required + NOTICE_RESERVE);
        for section in [&mut decisions, &mut details, &mut others] {
            let mut heading_paid = section.heading.is_empty();
            for item in &section.items {
                let cost = item.len() + if heading_paid { 0 } else { section.heading.len() + 1 };
                if cost > room {
                    break;
                }
                room -= cost;
                heading_paid = true;
                section.taken += 1;
            }
        }

        let mut out = String::new();
        out.push_str(&header);
        out.push_str(&focus);
        for section in [&decisions] {
            if section.taken > 0 {
                out.push('\n');
                out.push_str(&section.heading);
                section.items[..section.taken].iter().for_each(|i| out.push_str(i));
            }
        }
        if !names.is_empty() {
            out.push('\n');
            if details.taken == names.len() {
                out.push_str("Variables of the process (name: where it occurs):\n");
                details.items.iter().for_each(|i| out.push_str(i));
            } else {
                out.push_str(&names_line);
                if details.taken > 0 {
                    details.items[..details.taken].iter().for_each(|i| out.push_str(i));
                }
            }
        }
        if others.taken > 0 {
            out.push('\n');
            out.push_str(&others.heading);
            others.items[..others.taken].iter().for_each(|i| out.push_str(i));
        }
        let left: Vec<String> = [&decisions, &details, &others]
            .iter()
            .filter(|s| s.taken < s.items.len())
            .map(|s| format!("{} {}", s.items.len() - s.taken, s.what))
            .collect();
        if !left.is_empty() {
            let _ = write!(out, "\n(Left out to stay within the prompt budget: {}.)\n", left.join(", "));
        }
        if out.len() > self.budget {
            // Only reachable when the required parts alone exceed a very small budget.
            let mut cut = self.budget.saturating_sub(60);
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str("\n(The rest was cut to stay within the prompt budget.)\n");
        }
        out
    }

    fn header(&self, share: usize) -> String {
        let p = self.process;
        let mut out = String::new();
        match (p.name.is_empty(), p.id.is_empty()) {
            (false, false) => {
                let _ = writeln!(out, "Process \"{}\" (id {}).", printable(&p.name), printable(&p.id));
            }
            (false, true) => {
                let _ = writeln!(out, "Process \"{}\".", printable(&p.name));
            }
            (true, false) => {
                let _ = writeln!(out, "Process {}.", printable(&p.id));
            }
            (true, true) => out.push_str("Process without a name or id.\n"),
        }
        if !p.documentation.is_empty() {
            let _ = writeln!(out, "Its documentation: {}", clip(&p.documentation, share));
        }
        if !p.lanes.is_empty() {
            let lanes: Vec<String> =
                p.lanes.iter().filter(|l| !l.name.is_empty()).map(|l| quote(&l.name)).collect();
            if !lanes.is_empty() {
                let _ = writeln!(out, "Lanes (roles): {}.", clip(&lanes.join(", "), share));
            }
        }
        out
    }

    /// The target step (or the start form) and its neighbourhood. Always included.
    fn focus(&self, share: usize) -> String {
        let p = self.process;
        let mut out = String::from("\n");
        let Some(index) = self.target else {
            out.push_str(
                "The form is the start form: it starts the process, so the whole process is its context.\n",
            );
            let starts: Vec<&Element> = p.elements.iter().filter(|e| e.is_top_level_start()).collect();
            for start in starts.iter().take(MAX_NEIGHBOURS) {
                let _ = writeln!(out, "Start event: {}.", Self::element_phrase(start));
                self.binding(&mut out, start);
                self.neighbours(&mut out, start, share);
            }
            return out;
        };
        let e = &p.elements[index];
        let _ = writeln!(out, "The form is for the step {}.", Self::element_phrase(e));
        if let Some(parent) = e.parent {
            let _ = writeln!(out, "It sits inside {}.", Self::element_phrase(&p.elements[parent]));
        }
        let lanes: Vec<String> =
            p.lanes_of(&e.id).filter(|l| !l.name.is_empty()).map(|l| quote(&l.name)).collect();
        if !lanes.is_empty() {
            let _ = writeln!(out, "Done by: {}.", lanes.join(", "));
        }
        if !e.documentation.is_empty() {
            let _ = writeln!(out, "Its documentation: {}", clip(&e.documentation, share));
        }
        self.binding(&mut out, e);
        let uses: Vec<String> = p
            .uses_of(index)
            .map(|u| format!("{} ({})", printable(&u.name), role_word(u.role.is_written())))
            .collect();
        if !uses.is_empty() {
            let _ = writeln!(out, "Variables this step maps: {}.", clip(&uses.join(", "), share));
        }
        self.neighbours(&mut out, e, share);
        out
    }

    fn binding(&self, out: &mut String, e: &Element) {
        if e.form_id.is_empty() {
            if e.kind.takes_a_form() {
                out.push_str("It binds no form yet: this is a first draft.\n");
            }
            return;
        }
        let _ = write!(
            out,
            "It currently binds the form \"{}\", so this form replaces it",
            printable(&e.form_id)
        );
        if let Some(linked) = self.process.linked_form(e) {
            let keys = form_keys(&linked.body);
            if !keys.is_empty() {
                let _ = write!(out, "; that form's keys are {}", printable(&keys.join(", ")));
            }
        }
        out.push_str(".\n");
    }

    fn neighbours(&self, out: &mut String, e: &Element, share: usize) {
        let p = self.process;
        let incoming: Vec<&Element> = p.incoming(&e.id).collect();
        if !incoming.is_empty() {
            out.push_str("What leads to it:\n");
            for flow in incoming.iter().take(MAX_NEIGHBOURS) {
                let from =
                    self.element(&flow.source).map_or_else(|| flow.source.to_string(), Self::element_phrase);
                let _ = writeln!(out, "- from {}{}", from, Self::flow_suffix(flow, share));
            }
            more(out, incoming.len());
        }
        let outgoing: Vec<&Element> = p.outgoing(&e.id).collect();
        if !outgoing.is_empty() {
            out.push_str("What follows:\n");
            for flow in outgoing.iter().take(MAX_NEIGHBOURS) {
                let to =
                    self.element(&flow.target).map_or_else(|| flow.target.to_string(), Self::element_phrase);
                let default = if e.default_flow == flow.id { " (the default)" } else { "" };
                let _ = writeln!(out, "- to {}{}{}", to, Self::flow_suffix(flow, share), default);
            }
            more(out, outgoing.len());
        }
        let boundary: Vec<&Element> = p
            .elements
            .iter()
            .filter(|b| b.kind == ElementKind::BoundaryEvent && b.attached_to == e.id)
            .collect();
        for b in boundary.iter().take(MAX_NEIGHBOURS) {
            let _ = writeln!(out, "Attached event: {}.", Self::element_phrase(b));
        }
    }

    fn flow_suffix(flow: &Element, share: usize) -> String {
        let mut s = String::new();
        if !flow.name.is_empty() {
            let _ = write!(s, " via \"{}\"", clip(&flow.name, share));
        }
        if !flow.condition.is_empty() {
            let _ = write!(s, " when `{}`", clip(&flow.condition, share));
        }
        s
    }

    /// Gateways reachable from the target (or the start events), nearest first, with their conditions.
    fn decisions(&self) -> Vec<String> {
        let mut items = Vec::new();
        for d in self.process.decisions_after(self.target) {
            let (node, distance, flows) = (d.gateway, d.distance, d.flows);
            {
                let mut item = format!(
                    "- {}, {} after this {}:\n",
                    Self::element_phrase(node),
                    steps(distance),
                    if self.target.is_some() { "step" } else { "start" }
                );
                for f in flows {
                    let to =
                        self.element(&f.target).map_or_else(|| f.target.to_string(), Self::element_phrase);
                    let when = if !f.condition.is_empty() {
                        format!("when `{}`", clip(&f.condition, 400))
                    } else if node.default_flow == f.id {
                        "otherwise (default flow)".to_string()
                    } else {
                        "unconditionally".to_string()
                    };
                    let name = if f.name.is_empty() {
                        String::new()
                    } else {
                        format!("\"{}\" ", printable(&f.name))
                    };
                    let _ = writeln!(item, "  - {name}{when} -> {to}");
                }
                items.push(item);
            }
        }
        items
    }

    /// Every variable name: the process's own, then those only its conditions mention.
    fn variable_names(&self) -> Vec<String> {
        let mut names: IndexSet<String> = self.process.variables().into_iter().map(str::to_string).collect();
        names.extend(self.condition_variables.iter().cloned());
        names.into_iter().collect()
    }

    fn variable_detail(&self, name: &str) -> String {
        let p = self.process;
        let mut places: Vec<String> = Vec::new();
        let uses = self.uses_by_name.get(name).map(Vec::as_slice).unwrap_or_default();
        for u in uses.iter().map(|&i| &p.variable_uses[i]) {
            let place = match u.element {
                Some(i) if u.role != super::VariableRole::DataObject => {
                    format!("{} {}", u.role.describe(), Self::element_phrase(&p.elements[i]))
                }
                _ => u.role.describe().to_string(),
            };
            if !places.contains(&place) {
                places.push(place);
                if places.len() > MAX_ORIGINS + 20 {
                    break;
                }
            }
        }
        let extra = places.len().saturating_sub(MAX_ORIGINS);
        places.truncate(MAX_ORIGINS);
        if extra > 0 {
            places.push(format!("{extra} more"));
        }
        if places.is_empty() {
            places.push("used only in conditions".into());
        }
        let mut line = format!("- {}: {}", printable(name), places.join("; "));
        if let Some(cs) = self.compared.get(name) {
            let shown: Vec<String> = cs.iter().take(MAX_COMPARISONS).map(|c| c.to_string()).collect();
            let _ = write!(line, "; compared: {}", printable(&shown.join(", ")));
        }
        line.push('\n');
        line
    }

    fn other_elements(&self) -> Vec<String> {
        let p = self.process;
        let target_id = self.target.map(|i| p.elements[i].id.as_str());
        p.elements
            .iter()
            .filter(|e| !e.is_flow() && Some(e.id.as_str()) != target_id)
            .map(|e| {
                let mut line = format!("- {}", Self::element_phrase(e));
                if !e.form_id.is_empty() {
                    let _ = write!(line, ", binds form \"{}\"", printable(&e.form_id));
                }
                if !e.documentation.is_empty() {
                    let _ = write!(line, ": {}", clip(&e.documentation, 200));
                }
                line.push('\n');
                line
            })
            .collect()
    }

    /// `"Check order" (userTask Task_1)`, or `userTask Task_1` without a name.
    fn element_phrase(e: &Element) -> String {
        if e.name.is_empty() {
            format!("{} {}", e.kind, printable(&e.id))
        } else {
            format!("\"{}\" ({} {})", clip(&e.name, 200), e.kind, printable(&e.id))
        }
    }
}

fn role_word(written: bool) -> &'static str {
    if written { "written" } else { "read" }
}

fn steps(n: usize) -> String {
    if n == 1 { "1 step".into() } else { format!("{n} steps") }
}

fn more(out: &mut String, total: usize) {
    if total > MAX_NEIGHBOURS {
        let _ = writeln!(out, "- and {} more", total - MAX_NEIGHBOURS);
    }
}

fn quote(s: &str) -> String {
    format!("\"{}\"", printable(s))
}

/// At most `max` bytes of `s` (on a char boundary), single-lined, with an ellipsis when cut.
fn clip(s: &str, max: usize) -> String {
    let s = trim(s);
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    // the text is a prompt and `formgen outline`'s output: no control character of a name goes in it
    let flat = printable(&flat).into_owned();
    if flat.len() <= max {
        return flat;
    }
    let mut cut = max.saturating_sub(3);
    while !flat.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &flat[..cut])
}

/// The keys of a form-js JSON body (for an embedded form), in document order.
/// Containers nested deeper than [`nesting::FORM`](crate::limits::nesting::FORM) are not walked.
fn form_keys(body: &str) -> Vec<String> {
    fn walk(v: &serde_json::Value, depth: usize, out: &mut Vec<String>) {
        if let Some(key) = v.get("key").and_then(|k| k.as_str()) {
            out.push(key.to_string());
        }
        if depth > crate::limits::nesting::FORM {
            return;
        }
        if let Some(children) = v.get("components").and_then(|c| c.as_array()) {
            children.iter().for_each(|c| walk(c, depth + 1, out));
        }
    }
    let mut keys = Vec::new();
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(body) {
        walk(&v, 0, &mut keys);
    }
    keys
}
