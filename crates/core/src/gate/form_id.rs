//! The form's id, owned here and only here: which id a new proposal will carry (the editor's, the
//! current form's, the one the step binds, or a new one of its own), and stamping it into the form.
//!
//! Camunda identifies a form by its id, so a generation must never rename a form a user task binds,
//! and a new form must never take an id another step of the process binds already.

use serde_json::{Map, Value};

use sha2::{Digest, Sha256};

use super::{Options, Report};
use crate::bpmn::Process;

/// The id a generation's form will carry: the id the editor holds it under, else the current form's
/// (a refinement), else the id the step already binds (when it is a plain form id, not a Camunda 7 key
/// or a linked form), else a new one derived from the process and step that no other step binds.
/// `requested` is the editor's id as the service's request holds it (trimmed; none when not given).
/// `target` is the process with the step's index (none: the start form). None: no process and no id
/// (the gate then derives one).
pub fn choose(
    requested: Option<&str>,
    current: Option<&Value>,
    target: Option<(&Process, Option<usize>)>,
) -> Option<String> {
    if let Some(requested) = requested {
        return Some(requested.to_string());
    }
    if let Some(current) = current {
        return current
            .get("id")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
    }
    let (p, element) = target?;
    let step = match element {
        Some(i) => Some(&p.elements[i]),
        None => p.elements.iter().find(|e| e.is_top_level_start()),
    };
    if let Some(e) = step
        && !e.form_id.is_empty()
        && !e.form_id.contains(':')
    {
        return Some(e.form_id.to_string());
    }
    let base = match (element, step) {
        (Some(_), Some(e)) => format!("{}-{}", p.id, e.id),
        _ => format!("{}-start", p.id),
    };
    let taken = |id: &str| p.elements.iter().any(|e| e.form_id == id);
    let mut id = base.clone();
    let mut n = 2;
    while taken(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    Some(id)
}

/// The form's id: the editor's (a generation can never rename a form a task binds), else the form's
/// own, else one derived from its content, so that two forms without ids never share one (Camunda 8
/// makes forms with the same id versions of one form).
pub(super) fn stamp(form: &Map<String, Value>, options: &Options<'_>, report: &mut Report) -> String {
    let own = form.get("id").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    if let Some(stamped) = options.form_id.map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(own) = own
            && own != stamped
        {
            report.warn(format!(
                "The form's id \"{own}\" was replaced by \"{stamped}\", the id the editor holds it under."
            ));
        }
        return stamped.to_string();
    }
    if let Some(own) = own {
        return own.to_string();
    }
    let mut hash = Sha256::new();
    if let Some(p) = options.process {
        hash.update(p.id.as_bytes());
    }
    hash.update([0]);
    hash.update(Value::Object(form.clone()).to_string().as_bytes());
    let id = format!("Form_{}", base36(&hash.finalize(), 7));
    report.warn(format!(
        "The form had no id; it is now \"{id}\", made from its content. Camunda 8 identifies a form by its id, so give it a lasting one of your own before you deploy it."
    ));
    id
}

/// `n` base-36 characters from a digest, as form-js's own generated ids look.
pub(crate) fn base36(digest: &[u8], n: usize) -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    digest.iter().take(n).map(|b| ALPHABET[(*b as usize) % 36] as char).collect()
}
