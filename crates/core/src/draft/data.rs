//! What the data flow adds to a builtin draft: a field for each variable the step must supply or the
//! gateways after it decide on, the values an earlier step collected shown read-only, a Camunda 7 or
//! Flowable step's declared fields converted faithfully, and types, labels and options taken from
//! where the project already defines a variable.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::field::option;
use super::said::Evidence;
use super::{Use, without_objects};
use crate::bpmn::{DeclaredField, Element, FieldKind};
use crate::flow::{Definition, Known, PathRoots, Picture};
use crate::formjs::{ComponentType, bindable};
use crate::words;

/// How many values known before a step its draft shows read-only, nearest first in the process's
/// order: a reviewing step needs what the earlier forms collected, but a long process would bury the
/// step's own fields. Chosen by `formgen eval` on the corpus pairs (see the README).
pub(crate) const KNOWN_SHOWN: usize = 7;

/// How many read-only fields a draft shows once objects are their paths: one object known before the
/// step (an e-mail, a policy) would otherwise fill the form with its internals, and authors show few
/// (of the corpus pairs' forms that show any, 21 of 23 show at most four). Chosen by `formgen eval`
/// on the corpus pairs, where it trades the least recall for precision (see ARCHITECTURE.md).
pub(crate) const READ_ONLY_SHOWN: usize = 4;

/// Of those, how many may be values an earlier step computed rather than a person entered.
pub(crate) const COMPUTED_SHOWN: usize = 2;

/// Adds the picture's variables to the fields chosen from the process: what the step supplies and
/// what is decided on (captured), then what is known before (shown, for a step; not for the start form).
pub(super) fn add_picture_fields(
    chosen: &mut Vec<(String, Use)>,
    picture: &Picture,
    needs: &[crate::flow::contract::Need],
    is_step: bool,
) {
    let mut seen: HashSet<String> = chosen.iter().map(|(n, _)| n.clone()).collect();
    let mut push = |name: &str, use_: Use, chosen: &mut Vec<(String, Use)>| {
        if bindable(name) && seen.insert(name.to_string()) {
            chosen.push((name.to_string(), use_));
        }
    };
    for s in &picture.to_supply {
        push(&s.name, Use::Write, chosen);
    }
    // what the process reads later and nothing else sets: without it a condition is null
    for need in needs {
        push(&need.path, Use::Write, chosen);
    }
    for d in &picture.decided_on {
        push(&d.name, Use::Write, chosen);
    }
    if is_step {
        for name in shown_known(picture) {
            push(name, Use::Read, chosen);
        }
    }
    // a variable read by path is an object: its paths are the fields, not the whole object
    *chosen = without_objects(std::mem::take(chosen));
}

/// The values known before a step that its draft shows, at most [`KNOWN_SHOWN`]: first those the
/// step or what follows it works on, those the sub-process it runs in hands it, those written with
/// the outcome the way into the step tests, and those the
/// project's authors put on several forms (a value on two forms is one each person in the process
/// gets to see), the latter first; then what earlier
/// forms collected (a reviewer checks what a person entered); then at most [`COMPUTED_SHOWN`] values
/// earlier steps computed, last written first. Not what [`hidden`] keeps from every draft; for an AI
/// agent's tool, only what the agent or the sub-process around the step hands it.
fn shown_known(picture: &Picture) -> Vec<&str> {
    let hidden = |k: &Known| hidden(picture, &k.name);
    // an agent's tool shows what the agent hands it, not what else the process holds
    let mut known: Vec<&Known> =
        picture.known_before.iter().filter(|k| !hidden(k) && (k.handed || !picture.agent_tool)).collect();
    // stable: the process's order within each rank
    known.sort_by_key(|k| std::cmp::Reverse(k.in_forms.min(2)));
    let shared = |k: &Known| k.used || k.handed || k.outcome || k.in_forms >= 2;
    let mut shown: Vec<&str> = known.iter().filter(|k| shared(k)).map(|k| k.name.as_str()).collect();
    let rest: Vec<&Known> = known.into_iter().filter(|k| !shared(k)).collect();
    shown.extend(rest.iter().filter(|k| k.entered).map(|k| k.name.as_str()));
    shown.extend(rest.iter().filter(|k| !k.entered).rev().map(|k| k.name.as_str()).take(COMPUTED_SHOWN));
    shown.truncate(KNOWN_SHOWN);
    shown
}

/// Whether a value known before the step is never shown: the step's own output mappings overwrite
/// it, the engine routes the step on it, the step's form shows it under another name, or it is a
/// connector's whole response whose parts are kept apart.
fn hidden(picture: &Picture, name: &str) -> bool {
    [&picture.set_by_step, &picture.routing, &picture.mapped_in, &picture.whole_responses]
        .iter()
        .any(|names| names.iter().any(|n| n == name))
}

/// Whether something that runs before the step sets `name` (a form, a step, the sub-process around
/// it), so that a field the brief or the step's documentation lists for it shows it rather than asks
/// for it. A value only a later form shows, with nothing setting it, is not: where a list names it,
/// this step is where it is entered.
pub(super) fn set_before(picture: &Picture, name: &str) -> bool {
    picture.known_before.iter().any(|k| k.name == name && !k.shown_later)
        && !picture.to_supply.iter().any(|s| s.name == name)
}

/// Makes the read-only fields the step's documentation lists (`documented`, as keys) editable when
/// nothing before the step sets their values ([`set_before`]).
pub(super) fn ask_documented(chosen: &mut [(String, Use)], picture: &Picture, documented: &[String]) {
    for (name, use_) in chosen.iter_mut() {
        if *use_ == Use::Read && documented.contains(name) && !set_before(picture, name) {
            *use_ = Use::Write;
        }
    }
}

/// Leaves out the read-only fields for what the step's input mappings pass in under another name
/// (an object's path among them): its form shows the mapping's target.
pub(super) fn without_mapped_in(chosen: &mut Vec<(String, Use)>, picture: &Picture) {
    chosen.retain(|(name, use_)| *use_ == Use::Write || !picture.mapped_in.contains(name));
}

/// Keeps at most [`READ_ONLY_SHOWN`] of the `chosen` fields the step only reads: over that, the paths
/// of objects leave first, the last first, then the last values.
pub(super) fn cap_read_only(chosen: &mut Vec<(String, Use)>) {
    let read_only = chosen.iter().filter(|(_, u)| *u == Use::Read).count();
    let mut over = read_only.saturating_sub(READ_ONLY_SHOWN);
    for i in (0..chosen.len()).rev() {
        if over == 0 {
            break;
        }
        if chosen[i].1 == Use::Read && chosen[i].0.contains('.') {
            chosen.remove(i);
            over -= 1;
        }
    }
    let mut kept = 0;
    chosen.retain(|(_, u)| {
        kept += usize::from(*u == Use::Read);
        *u == Use::Write || kept <= READ_ONLY_SHOWN
    });
}

/// The warning naming the values known before the step that the draft does not show, when there are
/// any: it shows at most [`KNOWN_SHOWN`] and [`READ_ONLY_SHOWN`] fields for them, those the step's work
/// points to first, and for an AI agent's tool only what the agent hands it. Not counted: what
/// [`hidden`] keeps from every draft.
pub(super) fn not_shown_warning(picture: &Picture, chosen: &[(String, Use)]) -> Option<String> {
    let covered = |name: &str| {
        chosen
            .iter()
            .any(|(c, _)| c == name || c.strip_prefix(name).is_some_and(|rest| rest.starts_with('.')))
    };
    let hidden = |k: &Known| hidden(picture, &k.name);
    let left: Vec<&str> = (picture.known_before.iter())
        .filter(|k| !hidden(k) && bindable(&k.name) && !covered(&k.name))
        .map(|k| k.name.as_str())
        .collect();
    let named: Vec<String> = left.iter().take(NAMED).map(|n| format!("`{n}`")).collect();
    let more = match left.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let why = if picture.agent_tool {
        "this step is an AI agent's tool: the draft shows what the agent hands it (`fromAi`), not the process's \
         other values"
            .to_string()
    } else {
        format!(
            "the draft shows at most {KNOWN_SHOWN} of the values known before this step and {READ_ONLY_SHOWN} \
             read-only fields, those the step and what follows it use and those on several forms first, then what \
             earlier forms collected, and an object's parts last"
        )
    };
    (!left.is_empty()).then(|| format!("{why}; not shown: {}{more}", named.join(", ")))
}

/// The warning naming what the process reads later that the draft does not ask for, because an
/// element whose writes formgen cannot see names it (`flow::named`), unless the draft shows it anyway
/// (`chosen`: a loop's element, known inside it).
pub(super) fn named_writers_warning(picture: &Picture, chosen: &[(String, Use)]) -> Option<String> {
    let left: Vec<&(String, String)> =
        picture.named_writers.iter().filter(|(name, _)| !chosen.iter().any(|(c, _)| c == name)).collect();
    let named: Vec<String> =
        left.iter().take(NAMED).map(|(name, writer)| format!("`{name}` ({writer} names it)")).collect();
    let more = match left.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    (!named.is_empty()).then(|| {
        format!(
            "not asked for, though the process reads it later: {}{more}; the step that names a value \
             probably sets it where formgen cannot see (its job worker, message or form). Add a field if this \
             form must supply it",
            named.join(", ")
        )
    })
}

/// How many left-out values a warning names.
const NAMED: usize = 5;

/// Most fields one object variable becomes.
const MOST_PATHS: usize = 8;

/// A variable that is an object (the process or a project form uses paths below it) becomes fields
/// for the paths one level below it: a form cannot ask for a whole object in one field. One shown
/// read-only leaves out what only its looping writer reads back ([`crate::flow::own_state_paths`]),
/// and goes when nothing else is left.
pub(super) fn expand_objects(
    chosen: &mut Vec<(String, Use)>,
    process: &crate::bpmn::Process,
    project: &crate::project::Project,
) {
    let mut out: IndexMap<String, Use> = IndexMap::new();
    let roots = PathRoots::new(process, project);
    for (name, use_) in chosen.drain(..) {
        // the values one level down: of 500 keys in 130 real forms one binds a deeper path; deeper
        // ones name an object's internals (an AI agent's `agent.context.metrics.*`), not what a
        // person reads, and a path with paths below it is an object again
        let mut paths = if name.contains('.') || !roots.may_have_paths_below(&name) {
            Vec::new()
        } else {
            let mut paths = crate::flow::paths_below(&name, process, project, 8 * MOST_PATHS);
            let all = paths.clone();
            paths.retain(|p| p.matches('.').count() == 1 && !all.iter().any(|q| super::overlaps(p, q)));
            paths
        };
        let object = !paths.is_empty();
        if use_ == Use::Read && object {
            let state = crate::flow::own_state_paths(&name, process);
            paths.retain(|p| !state.contains(p));
        }
        paths.truncate(MOST_PATHS);
        if object && paths.is_empty() {
            continue;
        }
        if paths.is_empty() {
            out.entry(name).or_insert(use_);
            continue;
        }
        for p in paths.into_iter().filter(|p| bindable(p)) {
            out.entry(p).or_insert(use_);
        }
    }
    *chosen = out.into_iter().collect();
}

/// A field for a variable the project already defines: its type, label and options from there. A
/// type the field cannot be without what the definition brings (an expression field) is made as the
/// definition says when it can be, else as the comparisons type a plain field, under the definition's
/// label.
pub(super) fn defined_field(name: &str, use_: Use, d: &Definition, said: Evidence<'_>) -> Value {
    if d.kind == "expression" {
        return computed_field(name, use_, d).unwrap_or_else(|| plain_field(name, use_, d, said));
    }
    let label =
        if d.label.trim().is_empty() { super::field::leaf_label(name) } else { d.label.trim().to_string() };
    let mut c = Map::new();
    let choice = matches!(d.kind.as_str(), "select" | "radio" | "checklist" | "taglist");
    let kind = if choice && d.options.is_empty() || !crate::formjs::INPUTS.contains(&d.kind.as_str()) {
        "textfield"
    } else {
        d.kind.as_str()
    };
    c.insert("type".into(), json!(kind));
    c.insert("key".into(), json!(name));
    if kind == "datetime" {
        c.insert("subtype".into(), json!("date"));
        c.insert("dateLabel".into(), json!(label));
    } else {
        c.insert("label".into(), json!(label));
    }
    if choice && !d.options.is_empty() {
        let values: Vec<Value> = d.options.iter().map(|(v, l)| option(v, l)).collect();
        c.insert("values".into(), Value::Array(values));
    }
    match use_ {
        Use::Read => {
            c.insert("readonly".into(), json!(true));
        }
        Use::Write if d.required => {
            c.insert("validate".into(), json!({"required": true}));
        }
        Use::Write => {}
    }
    Value::Object(c)
}

/// An expression field computing `name` as the defining form does: only where the step supplies the
/// value and the definition has its FEEL expression. A value known before the step is shown instead;
/// an expression field shows nothing and would compute it again.
fn computed_field(name: &str, use_: Use, d: &Definition) -> Option<Value> {
    let expression = d.properties.get("expression").and_then(Value::as_str)?;
    if use_ == Use::Read || !expression.trim_start().starts_with('=') {
        return None;
    }
    let mut c = Map::new();
    c.insert("type".into(), json!("expression"));
    c.insert("key".into(), json!(name));
    c.insert("expression".into(), json!(expression));
    if let Some(on) = d.properties.get("computeOn").and_then(Value::as_str)
        && matches!(on, "change" | "presubmit")
    {
        c.insert("computeOn".into(), json!(on));
    }
    Some(Value::Object(c))
}

/// The field the process's evidence makes for `name`, under the definition's label when it has one.
fn plain_field(name: &str, use_: Use, d: &Definition, said: Evidence<'_>) -> Value {
    let mut c = super::field::field(name, use_, said);
    let label = d.label.trim();
    if let Some(slot) = ["label", "dateLabel", "timeLabel"].into_iter().find(|k| c.get(*k).is_some())
        && !label.is_empty()
    {
        c[slot] = json!(label);
    }
    c
}

/// The fields a Camunda 7 (`camunda:formData`) or Flowable (`formProperty`) step declares, as form-js
/// components: types, options, required, read-only and defaults carried over.
pub(super) fn declared(element: &Element) -> Vec<Value> {
    element.declared().fields.iter().filter(|f| bindable(key_of(f))).map(declared_field).collect()
}

fn key_of(f: &DeclaredField) -> &str {
    if f.variable.trim().is_empty() { f.id.trim() } else { f.variable.trim() }
}

fn declared_field(f: &DeclaredField) -> Value {
    let key = key_of(f);
    let label = if f.label.trim().is_empty() { words::humanise(key) } else { f.label.trim().to_string() };
    let mut c = Map::new();
    let (kind, extra): (&str, Option<(&str, Value)>) = match &f.kind {
        FieldKind::Long => ("number", Some(("decimalDigits", json!(0)))),
        FieldKind::Double => ("number", None),
        FieldKind::Boolean => ("checkbox", None),
        FieldKind::Date => ("datetime", Some(("subtype", json!("date")))),
        FieldKind::Enum if !f.options.is_empty() => ("select", None),
        _ => ("textfield", None),
    };
    c.insert("type".into(), json!(kind));
    c.insert("key".into(), json!(key));
    if kind == "datetime" {
        c.insert("dateLabel".into(), json!(label));
    } else {
        c.insert("label".into(), json!(label));
    }
    if let Some((k, v)) = extra {
        c.insert(k.into(), v);
    }
    if kind == "select" {
        let values: Vec<Value> = f.options.iter().map(|o| option(&o.id, &o.name)).collect();
        c.insert("values".into(), Value::Array(values));
    }
    let default = f.default.trim();
    if !default.is_empty() && !default.contains("${") && !default.contains("#{") {
        let value = match kind {
            "number" => default.parse::<f64>().map(|n| json!(n)).unwrap_or(json!(default)),
            "checkbox" => json!(default.eq_ignore_ascii_case("true")),
            _ => json!(default),
        };
        c.insert("defaultValue".into(), value);
    }
    if f.readonly {
        c.insert("readonly".into(), json!(true));
    }
    let mut validate = Map::new();
    // the engine's required asks for an answer, which unticked is too (form-js's, for a tick)
    let answered = f.required || f.constraints.iter().any(|k| k.name == "required");
    if answered && !ComponentType::parse(kind).is_some_and(ComponentType::required_means_chosen) {
        validate.insert("required".into(), json!(true));
    }
    for k in &f.constraints {
        let Ok(n) = k.config.trim().parse::<f64>() else { continue };
        let slot = match (k.name.as_str(), kind) {
            ("min", "number") => "min",
            ("max", "number") => "max",
            ("minlength", _) => "minLength",
            ("maxlength", _) => "maxLength",
            _ => continue,
        };
        let value = if slot.ends_with("Length") { json!(n.max(0.0) as u64) } else { json!(n) };
        validate.insert(slot.into(), value);
    }
    if !validate.is_empty() {
        c.insert("validate".into(), Value::Object(validate));
    }
    Value::Object(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpmn::read_condition;

    #[test]
    fn an_objects_parts_leave_the_read_only_fields_first() {
        let names = ["decision", "mail.subject", "mail.from", "mail.body", "score"];
        let mut chosen: Vec<(String, Use)> = names.iter().map(|n| (n.to_string(), Use::Read)).collect();
        chosen.insert(1, ("answer".into(), Use::Write));
        cap_read_only(&mut chosen);
        let kept: Vec<&str> = chosen.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(kept, ["decision", "answer", "mail.subject", "mail.from", "score"], "the last path first");
        let mut flat: Vec<(String, Use)> = (0..9).map(|i| (format!("v{i}"), Use::Read)).collect();
        cap_read_only(&mut flat);
        assert_eq!(flat.len(), READ_ONLY_SHOWN, "the last values leave when no object is left");
        assert_eq!(flat.last().map(|(n, _)| n.as_str()), Some("v3"));
    }

    fn expression_definition(properties: Value) -> Definition {
        Definition {
            name: "total".into(),
            source: "the form \"entry\"".into(),
            label: String::new(),
            kind: "expression".into(),
            options: Vec::new(),
            required: false,
            properties: properties.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn an_expression_definition_is_computed_where_the_step_supplies_it() {
        let d = expression_definition(json!({"expression": "=a + b", "computeOn": "presubmit"}));
        assert_eq!(
            defined_field("total", Use::Write, &d, Evidence::default()),
            json!({"type": "expression", "key": "total", "expression": "=a + b", "computeOn": "presubmit"})
        );
    }

    #[test]
    fn an_expression_definition_without_what_it_needs_is_a_plain_field() {
        let compared = read_condition("= total > 100").comparisons;
        let known = defined_field(
            "total",
            Use::Read,
            &expression_definition(json!({"expression": "=a + b"})),
            Evidence { comparisons: &compared, ..Evidence::default() },
        );
        assert_eq!((&known["type"], &known["readonly"]), (&json!("number"), &json!(true)), "shown: {known}");
        for properties in [json!({}), json!({"expression": "a + b"}), json!({"expression": 3})] {
            let c = defined_field(
                "total",
                Use::Write,
                &expression_definition(properties.clone()),
                Evidence::default(),
            );
            // typed as the name says, as any field the project does not define
            let plain = json!({"type": "number", "key": "total", "label": "Total", "validate": {"min": 0}});
            assert_eq!(c, plain, "{properties}");
        }
    }

    #[test]
    fn the_named_writers_warning_leaves_out_what_the_draft_shows() {
        let writer = r#"the service task "Check credit score""#.to_string();
        let picture = Picture {
            named_writers: vec![("creditScores".into(), writer.clone()), ("score".into(), writer)],
            ..Picture::default()
        };
        let warning = named_writers_warning(&picture, &[]).expect("a warning");
        assert!(warning.contains("`creditScores`") && warning.contains("`score`"), "{warning}");
        // the loop's element is known inside the loop and shown: only the list is named
        let warning = named_writers_warning(&picture, &[("score".into(), Use::Read)]).expect("a warning");
        assert!(warning.contains("`creditScores`") && !warning.contains("`score`"), "{warning}");
        let shown = [("creditScores".into(), Use::Read), ("score".into(), Use::Read)];
        assert_eq!(named_writers_warning(&picture, &shown), None);
    }
}
