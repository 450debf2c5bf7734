//! Fields a condition hides. form-js neither submits nor validates a hidden field, so a field shown
//! only when `= approved` supplies its value only then: enough where the process reads the value
//! only past the flow `= approved`, too little where it reads it whichever way the process goes.
//!
//! Told only where the form decides: every name the hide condition reads is the key of a field of
//! the same form that the person edits, and every condition the read is reached through that reads
//! one of those names can be read ([`crate::bpmn::may_hold_together`]). Otherwise (a hide condition
//! on a value the process gives, a read formgen cannot place) the field counts as shown.

use std::collections::HashSet;

use crate::flow::contract::Need;
use crate::project::FormField;

/// The hide condition under which `field` may be hidden where the process reads `need`, if there is
/// one the form decides. `editable` holds the root names of the form's edited fields.
pub(super) fn hidden_where_read<'f>(
    field: &'f FormField,
    need: &Need,
    editable: &HashSet<&str>,
) -> Option<&'f str> {
    let guards = need.only_when.as_ref()?;
    field.hidden_when.iter().map(String::as_str).find(|hide| {
        let Some(names) = crate::bpmn::names_read(hide) else { return false };
        if !names.iter().all(|n| editable.contains(root(n))) {
            return false;
        }
        let mut together = vec![*hide];
        for g in guards {
            match crate::bpmn::names_read(&g.condition) {
                Some(read) if read.iter().any(|r| names.contains(r)) => together.push(&g.condition),
                Some(_) => {}
                // a condition that may say when the field shows, unread: nothing to tell
                None => return false,
            }
        }
        crate::bpmn::may_hold_together(&together) == Some(true)
    })
}

/// The root names of the fields a person edits on the form: what its hide conditions may depend on
/// for the form to decide them.
pub(super) fn editable<'f>(fields: &[&'f FormField]) -> HashSet<&'f str> {
    fields.iter().filter(|f| !f.readonly && !f.disabled && !f.in_list).map(|f| root(&f.key)).collect()
}

fn root(path: &str) -> &str {
    path.split('.').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::contract::{Guard, Outcome, Site};

    fn field(key: &str, hidden_when: &[&str]) -> FormField {
        let schema = serde_json::json!({"components": [{"type": "checkbox", "key": key}]});
        let mut f = crate::project::ProjectForm::read(schema, String::new()).unwrap().input_fields.remove(0);
        f.hidden_when = hidden_when.iter().map(|h| h.to_string()).collect();
        f
    }

    fn need(name: &str, only_when: Option<&[&str]>) -> Need {
        let site = Site {
            element_id: "task".into(),
            subject: "the task \"Explain\"".into(),
            expression: "=reason".into(),
            next: false,
            outcome: Outcome::Null,
        };
        let guards = only_when
            .map(|c| c.iter().map(|c| Guard { flow_id: "flow".into(), condition: (*c).into() }).collect());
        Need { path: name.into(), name: name.into(), site, expected: None, only_when: guards }
    }

    #[test]
    fn a_field_shown_on_the_branch_that_reads_it_is_not_hidden_there() {
        let approved = field("approved", &[]);
        let reason = field("reason", &["=not(approved)"]);
        let editable = editable(&[&approved, &reason]);
        assert_eq!(hidden_where_read(&reason, &need("reason", Some(&["=approved"])), &editable), None);
        assert_eq!(
            hidden_where_read(&reason, &need("reason", Some(&[])), &editable),
            Some("=not(approved)"),
            "read whichever way"
        );
        assert_eq!(
            hidden_where_read(&reason, &need("reason", Some(&["=not(approved)"])), &editable),
            Some("=not(approved)"),
            "read on the other branch"
        );
    }

    #[test]
    fn what_the_form_does_not_decide_counts_as_shown() {
        let reason = field("reason", &["=ask_user = null"]);
        let editable = editable(&[&reason]);
        assert_eq!(hidden_where_read(&reason, &need("reason", Some(&[])), &editable), None);
        let approved = field("approved", &[]);
        let reason = field("reason", &["=not(approved)"]);
        let editable = super::editable(&[&approved, &reason]);
        assert_eq!(hidden_where_read(&reason, &need("reason", None), &editable), None, "a mapping");
        let unread = need("reason", Some(&["=count(approved) > 0"]));
        assert_eq!(hidden_where_read(&reason, &unread, &editable), None);
    }
}
