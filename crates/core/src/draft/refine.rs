//! Refinement: the author's form goes in, the model's whole revised document comes back, and the
//! author's ids and keys survive the trip.
//!
//! Models drop or rewrite component ids freely; a user task's data mapping and the editor's selection
//! depend on them. So a revised component that binds the same key as one of the author's gets the
//! author's id back, and one that kept the author's id keeps it whatever else changed (the model
//! clearly meant that component). What was added, changed and removed is said in warnings, so the author
//! reviews a diff and not a whole new form.

use std::collections::HashMap;

use serde_json::Value;

use crate::limits::nesting;

/// One component as the diff sees it.
#[derive(Debug, Clone)]
struct Item {
    id: String,
    key: String,
    kind: String,
    label: String,
}

/// The components of a form in walk order, down to [`nesting::FORM`] levels ([`restore_ids`] walks the
/// same ones).
fn items(schema: &Value) -> Vec<Item> {
    fn walk(v: &Value, prefix: &str, depth: usize, out: &mut Vec<Item>) {
        if depth > nesting::FORM {
            return;
        }
        for c in v.get("components").and_then(Value::as_array).into_iter().flatten() {
            let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let key = s("key");
            let full =
                if key.is_empty() || prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
            let label = ["label", "dateLabel", "text"]
                .iter()
                .map(|k| s(k))
                .find(|l| !l.is_empty())
                .unwrap_or_default();
            out.push(Item { id: s("id"), key: full, kind: s("type"), label });
            let path = s("path");
            let inner = match (prefix.is_empty(), path.is_empty()) {
                (_, true) => prefix.to_string(),
                (true, false) => path,
                (false, false) => format!("{prefix}.{path}"),
            };
            walk(c, &inner, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    walk(schema, "", 0, &mut out);
    out
}

/// Gives revised components the author's ids back (matched by id, else by binding path) and returns one
/// warning per added, changed or removed component.
pub fn reconcile(current: &Value, revised: &mut Value) -> Vec<String> {
    let before = items(current);
    let after = items(revised);
    // decide, for each revised component (in walk order), which of the author's it is: the first of
    // the author's with its id if that one is not taken, else the first untaken one with its key
    let mut first_by_id: HashMap<&str, usize> = HashMap::new();
    let mut by_key: HashMap<&str, (usize, Vec<usize>)> = HashMap::new();
    for (i, b) in before.iter().enumerate() {
        if !b.id.is_empty() {
            first_by_id.entry(b.id.as_str()).or_insert(i);
        }
        if !b.key.is_empty() {
            by_key.entry(b.key.as_str()).or_default().1.push(i);
        }
    }
    let mut taken = vec![false; before.len()];
    let mut matches: Vec<Option<usize>> = Vec::with_capacity(after.len());
    for a in &after {
        let by_id = first_by_id.get(a.id.as_str()).copied().filter(|&i| !taken[i]);
        let m = by_id.or_else(|| {
            // each list's cursor only moves past taken entries, once: linear over the whole diff
            let (cursor, list) = by_key.get_mut(a.key.as_str())?;
            while list.get(*cursor).is_some_and(|&i| taken[i]) {
                *cursor += 1;
            }
            list.get(*cursor).copied()
        });
        if let Some(i) = m {
            taken[i] = true;
        }
        matches.push(m);
    }
    // restore ids
    let mut index = 0;
    restore_ids(revised, &before, &matches, &mut index, 0);

    let name = |i: &Item| {
        let what = if i.label.is_empty() { format!("the {}", i.kind) } else { format!("\"{}\"", i.label) };
        if i.key.is_empty() { what } else { format!("{what} ({})", i.key) }
    };
    let mut warnings = Vec::new();
    for (a, m) in after.iter().zip(&matches) {
        match m {
            None => warnings.push(format!("The revision added {}.", name(a))),
            Some(i) => {
                let b = &before[*i];
                let mut changes = Vec::new();
                if b.kind != a.kind {
                    changes.push(format!("type {} → {}", b.kind, a.kind));
                }
                if b.key != a.key {
                    changes.push(format!("key {} → {}", b.key, a.key));
                }
                if b.label != a.label && !b.label.is_empty() {
                    changes.push(format!("label \"{}\" → \"{}\"", b.label, a.label));
                }
                if !changes.is_empty() {
                    warnings.push(format!("The revision changed {}: {}.", name(b), changes.join(", ")));
                }
            }
        }
    }
    for (b, t) in before.iter().zip(&taken) {
        if !t {
            warnings.push(format!("The revision removed {}.", name(b)));
        }
    }
    warnings
}

fn restore_ids(v: &mut Value, before: &[Item], matches: &[Option<usize>], index: &mut usize, depth: usize) {
    if depth > nesting::FORM {
        return;
    }
    let Some(components) = v.get_mut("components").and_then(Value::as_array_mut) else {
        return;
    };
    for c in components {
        if let Some(Some(i)) = matches.get(*index)
            && !before[*i].id.is_empty()
            && let Some(obj) = c.as_object_mut()
        {
            obj.insert("id".into(), Value::String(before[*i].id.clone()));
        }
        *index += 1;
        restore_ids(c, before, matches, index, depth + 1);
    }
}

/// A refinement's proposal reconciled with the author's current form: the author's ids and order
/// restored where the revision keeps a component ([`reconcile`]); the restored form passes the gate
/// again (a restored id could meet a generated one); the warnings say what changed.
pub fn reconciled(
    mut proposal: crate::gate::Proposal,
    current: &Value,
    form_id: Option<&str>,
    process: Option<&crate::bpmn::Process>,
) -> crate::gate::Proposal {
    let mut revised = proposal.schema.clone();
    let diff = reconcile(current, &mut revised);
    if let Ok(again) = crate::gate::schema_from_value(revised, form_id, process) {
        let mut warnings = proposal.warnings;
        warnings.extend(again.warnings);
        proposal = crate::gate::Proposal { warnings, ..again };
    }
    proposal.warnings.extend(diff);
    proposal
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_come_back_and_the_diff_is_told() {
        let current = json!({"components": [
            {"type": "textfield", "key": "name", "label": "Name", "id": "Field_name"},
            {"type": "number", "key": "days", "label": "Days", "id": "Field_days"},
            {"type": "textarea", "key": "notes", "label": "Notes", "id": "Field_notes"}
        ]});
        let mut revised = json!({"components": [
            {"type": "textfield", "key": "name", "label": "Full name", "id": "Field_x1"},
            {"type": "number", "key": "vacationDays", "label": "Days", "id": "Field_days"},
            {"type": "checkbox", "key": "approved", "label": "Approved", "id": "Field_new"}
        ]});
        let warnings = reconcile(&current, &mut revised);
        assert_eq!(revised["components"][0]["id"], "Field_name", "matched by key");
        assert_eq!(revised["components"][1]["id"], "Field_days", "matched by id");
        assert_eq!(revised["components"][2]["id"], "Field_new");
        assert_eq!(
            warnings,
            [
                "The revision changed \"Name\" (name): label \"Name\" → \"Full name\".",
                "The revision changed \"Days\" (days): key days → vacationDays.",
                "The revision added \"Approved\" (approved).",
                "The revision removed \"Notes\" (notes)."
            ]
        );
    }
}
