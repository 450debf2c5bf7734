//! The builtin drafter: a form drafted from the process outline and what a deterministic reader can
//! take from the brief, with no model.
//!
//! It is the embedded default, so formgen works on a fresh machine with no key and no network, and it
//! is the baseline every model must beat. The draft has one field per variable the target step reads or
//! writes or its downstream gateways decide on (for the start form: what the start event writes and the
//! decisions no later step answers), typed from how the process's conditions use each variable
//! (`field.rs`; with the step's data picture and project, `data.rs`). Values the step only reads are
//! shown read-only; fields a condition depends on are required; a field the process reads only past a
//! condition on other fields of the form is shown only once they choose that way (`conditional.rs`).
//! Labels are the variable names made
//! readable in their own language (`urlaubstage` → "Urlaubstage"), and a heading text carries the step's
//! name and documentation.
//!
//! Of the brief (`brief.rs`) it uses the first line as the heading, a list of fields as fields (keyed
//! to the process variable each means, where one does), and its language for the labels it makes up;
//! what it did not use, a warning says.
//!
//! The output is a plain form-js document; the gate normalises and checks it like any model's answer.

mod brief;
mod conditional;
mod data;
mod default_flow;
mod field;
pub mod refine;
mod said;
mod step;

use std::collections::HashSet;

use indexmap::{IndexMap, IndexSet};
use serde_json::{Map, Value, json};

use crate::bpmn::{Process, read_condition};
use crate::flow::contract::Contract;
use crate::flow::{Definition, Picture};
use crate::formjs::ComponentType;
use crate::formjs::bindable;
use crate::project::Project;

pub use brief::{Brief, Language, read as read_brief};
use field::field;
use said::{Evidence, Said};
pub use step::{Drafted, draft_step, gated};

/// A draft and what the author should know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The form-js document (the gate normalises it like any answer).
    pub form: Value,
    /// What the drafter left out and why.
    pub warnings: Vec<String>,
}

/// What the drafter knows about the step beyond the process: its data picture and the project.
#[derive(Debug, Clone, Copy)]
pub struct Around<'a> {
    /// The step's data picture.
    pub picture: &'a Picture,
    /// The forms and decisions around the process.
    pub project: &'a Project,
    /// The step's contract: what the form must supply.
    pub contract: &'a Contract,
}

/// What a field does with its variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// The step only reads it: shown, not edited.
    Read,
    /// The form captures it.
    Write,
}

/// Drafts a form for the element at index `target` of `process` (none: the start form), from the
/// process alone. See [`draft_in`].
pub fn draft(
    process: Option<&Process>,
    target: Option<usize>,
    description: &str,
    current: Option<&Value>,
) -> Value {
    draft_in(process, target, None, description, current).form
}

/// Drafts a form for the element at index `target` of `process` (none: the start form), with the
/// step's data picture and the project when there are (`around`). With a `current` form (a
/// refinement), its components are kept and fields are added for variables it does not bind yet.
pub fn draft_in(
    process: Option<&Process>,
    target: Option<usize>,
    around: Option<Around<'_>>,
    description: &str,
    current: Option<&Value>,
) -> Draft {
    let brief = brief::read(description);
    let mut unused = brief.unused.clone();
    let existing = current.and_then(|c| c.get("components")).and_then(Value::as_array);
    if existing.is_some()
        && let Some(h) = &brief.heading
    {
        unused.insert(0, h.clone());
    }
    let Some(process) = process else {
        let (form, unusable) = without_process(&brief, current);
        unused.extend(unusable);
        return Draft { form, warnings: unused_warning(&unused).into_iter().collect() };
    };
    let mut warnings = Vec::new();
    let said = Said::new(process, around.map(|a| a.contract));
    let mut components: Vec<Value> = match existing {
        Some(existing) => existing.clone(),
        None => vec![heading(process, target, brief.heading.as_deref())],
    };
    let mut bound = Paths::default();
    components.iter().filter_map(|c| c.get("key")?.as_str()).for_each(|k| bound.insert(k));
    if current.is_none()
        && let Some(i) = target
    {
        for c in data::declared(&process.elements[i]) {
            let key = c.get("key").and_then(Value::as_str).unwrap_or_default().to_string();
            let label =
                c.get("label").or_else(|| c.get("dateLabel")).and_then(Value::as_str).unwrap_or_default();
            if let Some(asked) =
                crate::words::secrets::secret_in(&key).or_else(|| crate::words::secrets::secret_in(label))
            {
                warnings.push(secret_skipped(&key, &asked));
                continue;
            }
            bound.insert(&key);
            components.push(c);
        }
    }
    let siblings = around.map(|_| crate::flow::embedded_siblings(process, target)).unwrap_or_default();
    let definitions = around.map(|a| crate::flow::Definitions::new(process, a.project, &siblings));
    let documented = if current.is_none() { documented_fields(process, target) } else { Vec::new() };
    // only a list of fields (the brief's, the documentation's) is keyed to the names in use
    let listed = !brief.fields.is_empty() || !documented.is_empty();
    let variables = if listed { names_in_use(process, definitions.as_ref()) } else { Vec::new() };
    let variables: Vec<&str> = variables.iter().map(String::as_str).collect();
    let mut chosen = fields(process, target, around.is_none());
    if let Some(around) = around {
        // an output mapping that sets a value from something else is the engine's to write
        let engine_written: HashSet<&str> = around.picture.set_by_step.iter().map(String::as_str).collect();
        chosen.retain(|(n, _)| !engine_written.contains(n.as_str()));
        data::add_picture_fields(&mut chosen, around.picture, &around.contract.must_supply, target.is_some());
        data::expand_objects(&mut chosen, process, around.project);
        data::without_mapped_in(&mut chosen, around.picture);
        data::cap_read_only(&mut chosen);
        let keys: Vec<String> = documented.iter().filter_map(|l| brief::key_for(l, &variables)).collect();
        data::ask_documented(&mut chosen, around.picture, &keys);
        if target.is_some() && current.is_none() {
            warnings.extend(data::not_shown_warning(around.picture, &chosen));
        }
        if current.is_none() {
            warnings.extend(data::named_writers_warning(around.picture, &chosen));
        }
    }
    let first_drafted = components.len();
    for (name, use_) in chosen {
        if bound.clashes(&name) {
            continue;
        }
        if let Some(asked) = crate::words::secrets::secret_in(&name) {
            warnings.push(secret_skipped(&name, &asked));
            continue;
        }
        bound.insert(&name);
        components.push(drafted_field(&name, use_, &said, definitions.as_ref()));
    }
    field::distinct_labels(&mut components, first_drafted);
    if current.is_none() {
        conditional::hide_until_chosen(&mut components, process, target);
    }
    let drafted = components.len();
    // a value something before the step sets is shown; any other listed one is asked for
    let make = |k: &str| {
        let set_before = around.is_some_and(|a| data::set_before(a.picture, k));
        drafted_field(k, if set_before { Use::Read } else { Use::Write }, &said, definitions.as_ref())
    };
    unused.extend(brief::merge(&brief.fields, &mut components, &variables, make));
    warnings.extend(documented_warning(&brief::merge(&documented, &mut components, &variables, make)));
    if existing.is_none() && drafted == 1 && components.len() == 1 {
        warnings.push(thin(process, target));
    }
    warnings.extend(unused_warning(&unused));
    let mut form = Map::new();
    form.insert("type".into(), json!("default"));
    if let Some(id) = current.and_then(|c| c.get("id")).and_then(Value::as_str) {
        form.insert("id".into(), json!(id));
    }
    form.insert("components".into(), Value::Array(components));
    Draft { form: Value::Object(form), warnings }
}

/// A field for `name` drafted as the project defines it, when it does, else as the process uses it.
fn drafted_field(
    name: &str,
    use_: Use,
    said: &Said,
    definitions: Option<&crate::flow::Definitions>,
) -> Value {
    let evidence = said.of(name);
    let definition: Option<Definition> = definitions.and_then(|d| match use_ {
        Use::Write => d.get_edited(name),
        Use::Read => d.get(name).map(shown_definition),
    });
    match &definition {
        Some(d) if evidence.comparisons.is_empty() || d.kind != ComponentType::Textfield.as_str() => {
            data::defined_field(name, use_, d, evidence)
        }
        // typed by what the process compares it with, called as the project calls it
        Some(d) => field::called(field(name, use_, evidence), &d.label),
        None => field(name, use_, evidence),
    }
}

/// A definition as a field that shows its value takes it: without a label that asks a question ("What
/// do you want to say?"), which is put to the person who gives the value. None of the 152 read-only
/// fields of the corpus's real forms is labelled with a question; 23 of 325 editable ones are.
fn shown_definition(mut definition: Definition) -> Definition {
    if definition.label.trim_end().ends_with('?') {
        definition.label.clear();
    }
    definition
}

/// The fields the documentation of the form's own elements lists ("Capture the offering: Base CUSIP,
/// Issuer Name, Closing Date", or one per bulleted line), read as a brief's list is: the process
/// author's own words for what the form holds. The rest of the documentation is prose the heading
/// carries.
fn documented_fields(process: &Process, target: Option<usize>) -> Vec<String> {
    let mut listed: Vec<String> = Vec::new();
    for i in own_elements(process, target) {
        for label in brief::read(&process.elements[i].documentation).fields {
            if !listed.iter().any(|l| l.eq_ignore_ascii_case(&label)) {
                listed.push(label);
            }
        }
    }
    listed
}

/// The warning naming what the step's documentation lists that the draft has no field for.
fn documented_warning(unusable: &[String]) -> Option<String> {
    let named: Vec<String> = unusable.iter().map(|l| format!("\"{l}\"")).collect();
    (!named.is_empty()).then(|| {
        format!(
            "the step's documentation lists {}, which the draft has no field for: a form is no place for a \
             secret, and a label with no letters or digits gives no key",
            named.join(", ")
        )
    })
}

/// The warning for a variable the draft has no field for because its name asks for a secret.
fn secret_skipped(name: &str, asked: &str) -> String {
    format!(
        "The process variable `{name}` asks for a secret ({asked}), so the draft has no field for it; keep credentials in a vault and let the process reference them by name."
    )
}

/// Without a process there is nothing to draft from but the brief: its heading and its fields, or a
/// free-text field when it lists none. Returns the labels that gave no usable key.
fn without_process(brief: &Brief, current: Option<&Value>) -> (Value, Vec<String>) {
    if let Some(current) = current {
        let mut form = current.clone();
        let mut components = form.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
        let unusable =
            brief::merge(&brief.fields, &mut components, &[], |k| field(k, Use::Write, Evidence::default()));
        form["components"] = Value::Array(components);
        return (form, unusable);
    }
    let title = brief.heading.as_deref().unwrap_or(brief.language.form());
    let title: String = title.chars().take(80).collect();
    let mut components = vec![json!({"type": "text", "text": format!("# {}", escape_markdown(&title))})];
    let unusable =
        brief::merge(&brief.fields, &mut components, &[], |k| field(k, Use::Write, Evidence::default()));
    if components.len() == 1 {
        components.push(json!({"type": "textarea", "key": "notes", "label": brief.language.notes()}));
    }
    (json!({"type": "default", "components": components}), unusable)
}

/// Every variable the process names, then every key the project's forms bind: what a listed field's
/// label is keyed to.
fn names_in_use(process: &Process, definitions: Option<&crate::flow::Definitions>) -> Vec<String> {
    let mut names = variables(process);
    names.extend(definitions.iter().flat_map(|d| d.keys()).map(str::to_string));
    names
}

/// Every variable the process names: those its elements read or write, and those its conditions read.
fn variables(process: &Process) -> Vec<String> {
    let mut names: IndexSet<String> = process.variables().into_iter().map(str::to_string).collect();
    for e in crate::stop::until_stopped(process.elements.iter().filter(|e| !e.condition.is_empty())) {
        names.extend(read_condition(&e.condition).variables);
    }
    names.into_iter().filter(|n| bindable(n)).collect()
}

/// Why a form has only its heading.
fn thin(process: &Process, target: Option<usize>) -> String {
    let what = match target {
        Some(i) => {
            format!("the step \"{}\" reads and writes no process variables", process.elements[i].label())
        }
        None => "the start event writes no process variables".to_string(),
    };
    format!(
        "{what} and no decision after it depends on one, so the form has only its heading; list its fields \
         in the brief (\"Name, E-Mail, Amount\") or map the step's inputs and outputs in the process"
    )
}

/// The warning naming what of the brief the drafter did not use.
fn unused_warning(unused: &[String]) -> Option<String> {
    let first = unused.first()?;
    let shown: String = first.chars().take(60).collect();
    let ellipsis = if shown.len() < first.len() { "…" } else { "" };
    let more = match unused.len() {
        1 => String::new(),
        2 => " and 1 more line".to_string(),
        n => format!(" and {} more lines", n - 1),
    };
    Some(format!(
        "the builtin Worker drafts from the process and takes two things from the brief: a short title line \
         (the heading, in place of the step's name) and a list of fields; it did not use the brief's \
         \"{shown}{ellipsis}\"{more}; a model Worker reads all of it"
    ))
}

/// The variables a form for `target` has fields for, in order: the step's own, then the decisions
/// downstream that nothing else answers.
fn fields(process: &Process, target: Option<usize>, with_decisions: bool) -> Vec<(String, Use)> {
    let mut out: IndexMap<String, Use> = IndexMap::new();
    let mut push = |name: &str, use_: Use| {
        if bindable(name) && !out.contains_key(name) {
            out.insert(name.to_string(), use_);
        }
    };
    let own = own_elements(process, target);
    for &i in &own {
        // what the step's output mappings pass on is what its form submits (`translate` from
        // `=translate`, though an input mapping gave it a default first)
        let passed_on: HashSet<String> = process.elements[i]
            .output_mappings()
            .flat_map(|(source, _)| crate::flow::expr::zeebe_value_reads(source))
            .map(|r| r.name)
            .collect();
        for u in process.uses_of(i) {
            let written = target.is_none() || u.role.is_written() || passed_on.contains(&u.name);
            push(&u.name, if written { Use::Write } else { Use::Read });
        }
    }
    // Variables some other element writes are not this form's to capture.
    let own: HashSet<usize> = own.into_iter().collect();
    let written_elsewhere: HashSet<&str> = process
        .variable_uses
        .iter()
        .filter(|u| u.role.is_written() && u.element.is_some_and(|e| !own.contains(&e)))
        .map(|u| u.name.as_str())
        .collect();
    for decision in process.decisions_after(target).into_iter().filter(|_| with_decisions) {
        for flow in &decision.flows {
            for v in read_condition(&flow.condition).variables {
                if !written_elsewhere.contains(v.as_str()) {
                    push(&v, Use::Write);
                }
            }
        }
    }
    // A variable the process reads by path (`order.total`) is an object: its fields are the paths, and a
    // field for the whole object would both clash with them and ask for something no one can type.
    without_objects(out.into_iter().collect())
}

/// `fields` without the names another of them extends (`order` when `order.total` is there).
fn without_objects(mut fields: Vec<(String, Use)>) -> Vec<(String, Use)> {
    let mut all = Paths::default();
    fields.iter().for_each(|(n, _)| all.insert(n));
    fields.retain(|(n, _)| !all.is_extended(n));
    fields
}

/// Binding paths held as sets, so that whether a path equals, extends or is extended by one held is
/// looked up rather than compared with each: the drafter's fields for a process with many variables
/// stay linear. Of a path past the gate's bounds only the prefixes within them are held; every path
/// asked about is within them (the drafter's keys pass [`bindable`]), so no answer changes.
#[derive(Default)]
struct Paths {
    held: HashSet<String>,
    /// The proper prefixes of the held paths.
    below: HashSet<String>,
}

impl Paths {
    fn insert(&mut self, path: &str) {
        let dots = path.match_indices('.').take(crate::formjs::MAX_PATH_SEGMENTS);
        for (i, _) in dots.take_while(|(i, _)| *i <= crate::formjs::MAX_PATH_BYTES) {
            self.below.insert(path[..i].to_string());
        }
        if crate::formjs::within_path_bounds(path) {
            self.held.insert(path.to_string());
        }
    }

    /// Whether a held path equals `path`, extends it or is a proper prefix of it.
    fn clashes(&self, path: &str) -> bool {
        self.held.contains(path)
            || self.below.contains(path)
            || path.match_indices('.').any(|(i, _)| self.held.contains(&path[..i]))
    }

    /// Whether a held path extends `path`.
    fn is_extended(&self, path: &str) -> bool {
        self.below.contains(path)
    }
}

/// The elements whose data a form for `target` is: the step, or the process's top-level start events.
fn own_elements(process: &Process, target: Option<usize>) -> Vec<usize> {
    match target {
        Some(i) => vec![i],
        None => process
            .elements
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_top_level_start())
            .map(|(i, _)| i)
            .collect(),
    }
}

/// Whether one binding path is a proper prefix of the other (`a` and `a.b`).
fn overlaps(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long.len() > short.len() && long.starts_with(short) && long.as_bytes()[short.len()] == b'.'
}

/// The heading text: the brief's title when it has one, else the step's (or process's) name; then
/// the documentation. An unnamed step is headed by the name of the sub-process it runs in or of its
/// process, an unnamed start event's form by the process's name or id: the element's own id
/// (`Event_1q5v0sf`) means nothing to a person.
fn heading(process: &Process, target: Option<usize>, brief_title: Option<&str>) -> Value {
    let (title, documentation) = match target {
        Some(i) => {
            let e = &process.elements[i];
            let named = |e: &&crate::bpmn::Element| !e.name.trim().is_empty();
            let around = std::iter::successors(Some(i), |&a| process.elements[a].parent)
                .map(|a| &process.elements[a])
                .find(named);
            let title = match around {
                Some(named) => named.label().to_string(),
                None if e.is_top_level_start() || process.human_name().is_some() => {
                    process.label().to_string()
                }
                None => e.label().to_string(),
            };
            (title, e.documentation.to_string())
        }
        None => (process.label().to_string(), process.documentation.clone()),
    };
    let title = brief_title.map_or(title, str::to_string);
    let mut text = format!("# {}", escape_markdown(&title));
    if !documentation.is_empty() {
        text.push_str("\n\n");
        text.push_str(&escape_markdown(&documentation));
    }
    json!({"type": "text", "text": text})
}

/// Keeps a modeller's text literal in Markdown (and out of form-js's `{{ }}` templating).
fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_[]#<>{}|".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
