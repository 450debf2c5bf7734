//! Completion of a model's answer from the builtin draft of the same step, which the prompt gave the
//! model as its starting point:
//!
//! - a field the process needs after the step (a `missing_supply` finding) that the answer lacks is
//!   added from the draft, with a warning that names what reads it;
//! - on a first generation, a draft field the answer dropped is added back (the prompt asks the model
//!   to keep every key of the draft and drop one only where the brief asks), with one warning that
//!   lists them;
//! - on a first generation, a field labelled by its key, with another field's label or otherwise than
//!   the project names its value gets the draft's label back (`labels`), with a warning that lists them.
//!
//! - on a first generation without a brief, a field the answer asks for as plain text where the draft
//!   has another control (a number, a date, a choice) gets the draft's control back (`controls`),
//!   with a warning that lists them.
//!
//! A field the brief asks to leave out ("without the discount", "ohne Nachlass") is never added.
//!
//! A first generation without a brief asks for the step's own data, which the draft holds: a field the
//! answer adds that binds a key the draft does not, and that nothing around the step uses (the
//! process neither reads nor names it, no other form binds it, no value is known for it), was asked
//! for by nobody; it is left out, with a warning that lists it. Small models invent such fields from
//! words of the process (`documentPreviewListList`, ten numbered copies of one question), and an
//! author who wants one more field says so in the brief, which keeps every field the model adds.
//!
//! The draft is made while the process is at hand, before the model is asked; the answer is completed
//! once it is final, and the completed form passes the gate again.

use serde_json::Value;

use super::{controls, labels};
use crate::check::{Code, Finding, StepCheck};
use crate::gate::{self, Proposal};

/// A JSON value held as its compact text, deflated, while a generation waits on its model: a form's
/// tree of values takes several times the bytes of its text, and thousands of generations may wait
/// at once. It is read back once, when the answer comes.
#[derive(Debug, Clone, Default)]
pub(super) struct Compact(crate::model::Packed);

impl Compact {
    /// The value's compact text.
    pub(super) fn of(value: &Value) -> Compact {
        Compact(crate::model::Packed::new(&value.to_string()))
    }

    /// The value again.
    pub(super) fn value(&self) -> Value {
        serde_json::from_str(&self.0.text()).unwrap_or(Value::Null)
    }
}

/// What a model's answer is checked against and completed from.
#[derive(Debug, Clone, Default)]
pub(super) struct AnswerCheck {
    /// The step's check.
    pub check: StepCheck,
    /// The builtin draft, gated, when there is one: its keyed fields complete the answer, and, when
    /// the answer must keep it, it answers instead of a model whose answers cannot be used, where the
    /// Worker says so.
    pub drafted: Option<Compact>,
    /// Whether the answer must keep every draft field (a first generation that started from the
    /// draft), or only what the process needs (a refinement: the author's form is the start).
    pub keep_draft: bool,
    /// The author's brief, when there is one (what it asks to leave out is not added).
    pub brief: Option<String>,
    /// The binding paths whose draft label is the one the project gives the value (a sibling form's,
    /// a decision's): an answer that keeps the draft gets those labels back.
    pub named: Vec<String>,
}

impl AnswerCheck {
    /// The findings of `proposal`, after adding the fields it lacks and leaving out the ones nobody
    /// asked for; the warnings say what was added and left out.
    pub(super) fn complete(&self, proposal: &mut Proposal, form_id: Option<&str>) -> Vec<Finding> {
        let findings = self.check.of_schema(&proposal.schema);
        let draft = self.draft_fields();
        let field = |key: &str| draft.iter().find(|c| key_of(c) == key);
        let present: std::collections::HashSet<&str> =
            proposal.bindings.iter().map(|b| b.path.as_str()).collect();
        let mut needed = Vec::new();
        for f in findings.iter().filter(|f| f.code == Code::MissingSupply) {
            if let Some(field) = f.key.as_deref().and_then(field) {
                needed.push((field.clone(), f));
            }
        }
        let kept: Vec<Value> = if self.keep_draft {
            draft
                .iter()
                .filter(|c| {
                    let key = key_of(c);
                    !present.contains(key) && !needed.iter().any(|(n, _)| key_of(n) == key)
                })
                .filter(|c| !self.leaves_out(c))
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        needed.retain(|(c, _)| !self.leaves_out(c));
        let mut schema = proposal.schema.clone();
        let Some(components) = schema.get_mut("components").and_then(Value::as_array_mut) else {
            return findings;
        };
        let mut unasked = Vec::new();
        if self.holds_to_the_step() {
            let in_use = self.check.key_in_use();
            let asked_for = |path: &str| field(path).is_some() || in_use(path);
            without_fields(components, "", &asked_for, &mut unasked);
        }
        let mut warnings: Vec<String> = needed.iter().map(|(c, f)| needed_warning(c, f)).collect();
        warnings.extend(kept_warning(&kept));
        warnings.extend(unasked_warning(&unasked));
        for mut field in needed.into_iter().map(|(c, _)| c).chain(kept) {
            // the gate gives it an id of this form's
            field.as_object_mut().map(|o| o.remove("id"));
            components.push(field);
        }
        // the draft's controls are what the process says of each value, all such an answer was shown
        if self.holds_to_the_step() {
            let drafted = |path: &str| field(path).cloned();
            warnings.extend(controls::restored_warning(&controls::restore(components, &drafted)));
        }
        // on the form as completed: a field added back may be the one whose label the answer copied
        if self.keep_draft {
            let label = |path: &str| field(path).map(label_of).filter(|l| !l.is_empty()).map(str::to_string);
            let named = |path: &str| self.named.iter().any(|n| n == path);
            warnings.extend(labels::restored_warning(&labels::restore(components, &label, &named)));
        }
        if warnings.is_empty() {
            return findings;
        }
        match gate::check_value(schema, form_id, None) {
            Ok(completed) => {
                proposal.schema = completed.schema;
                proposal.bound = completed.bound;
                proposal.bindings = completed.bindings;
                proposal.warnings.extend(warnings);
                self.check.of_schema(&proposal.schema)
            }
            // the draft's fields pass the gate on their own; a form they do not fit in stays as answered
            Err(_) => findings,
        }
    }

    /// Whether the answer is held to the step's own data: a first generation that started from the
    /// draft, without a brief. Only such an answer loses the fields nobody asked for.
    fn holds_to_the_step(&self) -> bool {
        self.keep_draft && self.brief.is_none()
    }

    /// The keys an answer held to the step can keep, when it is: the draft's (at any depth), then the
    /// ones the process or its project uses, each once and each one form-js can bind. `None` when the
    /// answer is free, when there are none, or when there are more than `most` (an enum that long
    /// costs a grammar-constrained decoder more than it saves).
    pub(super) fn keys_kept(&self, most: usize) -> Option<Vec<String>> {
        if !self.holds_to_the_step() {
            return None;
        }
        let mut keys = Vec::new();
        let fallback = self.fallback();
        let draft = fallback.as_ref().and_then(|f| f.get("components")).and_then(Value::as_array);
        keys_at_any_depth(draft.map_or(&[][..], Vec::as_slice), &mut keys);
        keys.extend(self.check.keys_in_use());
        let mut seen = std::collections::HashSet::new();
        keys.retain(|k| crate::formjs::bindable(k) && seen.insert(k.clone()));
        (!keys.is_empty() && keys.len() <= most).then_some(keys)
    }

    /// Whether the brief asks to leave `field` out.
    fn leaves_out(&self, field: &Value) -> bool {
        self.brief.as_deref().is_some_and(|brief| leaves_out(brief, key_of(field), label_of(field)))
    }

    /// The builtin draft, gated, when the answer must keep it: what answers instead of a model whose
    /// answers cannot be used.
    pub(super) fn fallback(&self) -> Option<Value> {
        self.drafted.as_ref().filter(|_| self.keep_draft).map(Compact::value)
    }

    /// The builtin draft's fields (keyed inputs), in draft order, read back.
    fn draft_fields(&self) -> Vec<Value> {
        let mut drafted = self.drafted.as_ref().map(Compact::value).unwrap_or_default();
        match drafted.get_mut("components").map(Value::take) {
            Some(Value::Array(mut fields)) => {
                fields.retain(|c| c.get("key").is_some());
                fields
            }
            _ => Vec::new(),
        }
    }
}

/// The keys the components bind, in order, inside groups and lists too.
fn keys_at_any_depth(components: &[Value], out: &mut Vec<String>) {
    for c in components {
        if let Some(key) = c.get("key").and_then(Value::as_str) {
            out.push(key.to_string());
        }
        if let Some(inner) = c.get("components").and_then(Value::as_array) {
            keys_at_any_depth(inner, out);
        }
    }
}

fn key_of(field: &Value) -> &str {
    field.get("key").and_then(Value::as_str).unwrap_or_default()
}

/// `name` inside `prefix` (a group's path), as a binding path.
pub(super) fn path_in(prefix: &str, name: &str) -> String {
    if prefix.is_empty() { name.to_string() } else { format!("{prefix}.{name}") }
}

/// The binding path a group inside `prefix` gives its fields.
pub(super) fn group_path(prefix: &str, group: &Value) -> String {
    path_in(prefix, group.get("path").and_then(Value::as_str).unwrap_or_default())
        .trim_end_matches('.')
        .to_string()
}

pub(super) fn label_of(field: &Value) -> &str {
    field.get("label").and_then(Value::as_str).unwrap_or_default()
}

/// Leaves out of `components` (and the groups among them, at any depth) every keyed field whose whole
/// binding path `asked_for` refuses, and says which in `out`. A dynamic list's fields bind keys of its
/// items, which the process does not name one by one: they are kept with their list.
fn without_fields(
    components: &mut Vec<Value>,
    prefix: &str,
    asked_for: &dyn Fn(&str) -> bool,
    out: &mut Vec<String>,
) {
    components.retain_mut(|c| {
        let at = |name: &str| path_in(prefix, name);
        let kind = c.get("type").and_then(Value::as_str).unwrap_or_default();
        if kind == "group" {
            let inner = group_path(prefix, c);
            if let Some(children) = c.get_mut("components").and_then(Value::as_array_mut) {
                without_fields(children, &inner, asked_for, out);
            }
            return true;
        }
        match c.get("key").and_then(Value::as_str) {
            Some(key) if kind != "dynamiclist" && !asked_for(&at(key)) => {
                out.push(at(key));
                false
            }
            _ => true,
        }
    });
}

/// The sentence for the fields nobody asked for, left out, if any.
fn unasked_warning(left_out: &[String]) -> Option<String> {
    if left_out.is_empty() {
        return None;
    }
    let keys: Vec<String> = left_out.iter().map(|k| format!("`{k}`")).collect();
    Some(format!(
        "The model's form added {} that no brief asked for and nothing in the process or its project uses; \
         formgen left {} out: {}. Ask for a field in the brief to keep it.",
        if left_out.len() == 1 { "a field" } else { "fields" },
        if left_out.len() == 1 { "it" } else { "them" },
        keys.join(", ")
    ))
}

/// The sentence for a field the process needs, added to the model's answer.
fn needed_warning(field: &Value, finding: &Finding) -> String {
    let kind = field.get("type").and_then(Value::as_str).unwrap_or("field");
    let read_by = match (&finding.element_id, &finding.expression) {
        (Some(e), Some(x)) => format!(" (`{x}` on {e})"),
        _ => String::new(),
    };
    format!(
        "The model's form had no field for `{}`, which the process reads after this step{read_by} and nothing \
         else sets; formgen added the {kind} \"{}\" from its own draft.",
        key_of(field),
        label_of(field)
    )
}

/// The sentence for the draft's fields added back, if any.
fn kept_warning(kept: &[Value]) -> Option<String> {
    if kept.is_empty() {
        return None;
    }
    let keys: Vec<String> = kept.iter().map(|c| format!("`{}`", key_of(c))).collect();
    Some(format!(
        "The model's form left out {} of formgen's draft, which the brief did not ask to drop; formgen added {} \
         back: {}.",
        if kept.len() == 1 { "a field" } else { "fields" },
        if kept.len() == 1 { "it" } else { "them" },
        keys.join(", ")
    ))
}

/// Whether a line of the brief asks to leave this field out: it names the key or the label, and says
/// so ("without", "no", "remove", "ohne", "kein", "entfernen", "sans", "sin", "zonder", …).
fn leaves_out(brief: &str, key: &str, label: &str) -> bool {
    const LEAVE_OUT: &[&str] = &[
        "without",
        "no",
        "not",
        "don't",
        "omit",
        "remove",
        "drop",
        "delete",
        "ohne",
        "kein",
        "keine",
        "nicht",
        "entfernen",
        "weglassen",
        "löschen",
        "sans",
        "supprimer",
        "sin",
        "quitar",
        "zonder",
        "geen",
        "verwijderen",
    ];
    brief.lines().any(|line| {
        let lower = line.to_lowercase();
        let names = (!key.is_empty() && lower.contains(&key.to_lowercase()))
            || (!label.is_empty() && lower.contains(&label.to_lowercase()));
        names && lower.split(|c: char| !c.is_alphanumeric() && c != '\'').any(|w| LEAVE_OUT.contains(&w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_names_the_field_and_says_without_leaves_it_out() {
        assert!(leaves_out("Review the claim.\nWithout a discount field.", "discount", "Nachlass"));
        assert!(leaves_out("bitte ohne Nachlass", "discount", "Nachlass"));
        assert!(leaves_out("Remove the comment", "comment", ""));
        assert!(!leaves_out("Ask for the discount.", "discount", "Nachlass"));
        assert!(!leaves_out("No rush.\nAsk for the discount.", "discount", "Nachlass"), "another line's no");
        assert!(!leaves_out("nothing about it", "discount", ""), "\"nothing\" is not \"no\"");
    }
}
