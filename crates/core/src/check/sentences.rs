//! The findings in words: what will happen and what to do, one sentence each, naming the field by
//! its label and the element by its name, as a modeller reads them in the editor.

use super::ValueKind;
use crate::flow::contract::{
    Contract, Exhaustive, Expected, FalseTest, KnownValue, LiteralRead, Need, Outcome, Site, TypedRead,
};
use crate::project::FormField;

/// `the field "Amount"`, or `the field keyed `amount`` when it shows no label.
fn field_name(field: &FormField) -> String {
    if field.label.is_empty() {
        format!("the field keyed `{}`", field.key)
    } else {
        format!("the field \"{}\"", field.label)
    }
}

/// The sentence's first word capitalised (never a path's: the subject starts with "the").
fn sentence(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// `right after this step` or `after this step`.
fn when(site: &Site) -> &'static str {
    if site.next { "right after this step" } else { "after this step" }
}

/// What a read does without a usable value.
fn consequence(site: &Site) -> String {
    match &site.outcome {
        Outcome::NoFlow | Outcome::DefaultFlow => "the condition is null and no flow is taken".to_string(),
        Outcome::Null => "the expression reads null".to_string(),
        Outcome::Mapping(target) => format!("it sets `{target}` to null"),
        Outcome::Unresolved => {
            "the engine cannot resolve it (\"Unknown property used in expression\") and stops there"
                .to_string()
        }
    }
}

/// The component that holds a value of this kind.
fn component_for(expected: Option<Expected>, values: &[String]) -> String {
    match expected {
        Some(Expected::Boolean) => "a checkbox".to_string(),
        Some(Expected::Number) => "a number field".to_string(),
        Some(Expected::Text) if !values.is_empty() => {
            let shown: Vec<String> = values.iter().take(4).map(|v| format!("\"{v}\"")).collect();
            format!("a select offering {}", shown.join(", "))
        }
        _ => "a field".to_string(),
    }
}

/// The value kind of a field in words: `a text field, so its value is text`.
fn holds(field: &FormField, kind: ValueKind) -> String {
    use crate::formjs::ComponentType as T;
    let what = match field.component_type() {
        Some(T::Textfield) => "a text field",
        Some(T::Textarea) => "a text area",
        Some(T::Datetime) => "a date/time field",
        Some(T::Number) => "a number field",
        Some(T::Checkbox) => "a checkbox",
        Some(T::Checklist) => "a checklist",
        Some(T::Taglist) => "a tag list",
        Some(T::Select) => "a select",
        Some(T::Radio) => "a radio group",
        _ => "a field",
    };
    let value = match kind {
        ValueKind::Text => "text",
        ValueKind::Number => "a number",
        ValueKind::Boolean => "true or false",
        ValueKind::List => "a list",
    };
    format!("{what}, so its value is {value}")
}

pub(super) fn missing_supply(need: &Need, contract: &Contract, near: Option<&FormField>) -> String {
    let values: Vec<String> =
        contract.literals.iter().filter(|l| l.path == need.path).flat_map(|l| l.values.iter().cloned()).fold(
            Vec::new(),
            |mut acc, v| {
                if !acc.contains(&v) {
                    acc.push(v);
                }
                acc
            },
        );
    let when = match need.site.outcome {
        Outcome::Mapping(_) => format!("(`{}`)", need.site.expression),
        _ => when(&need.site).to_string(),
    };
    let mut text = format!(
        "{} reads `{}` {}, and nothing else sets it: without a field for it {}. Add {} keyed `{}`.",
        need.site.subject,
        need.path,
        when,
        consequence(&need.site),
        component_for(need.expected, &values),
        need.path
    );
    if let Some(near) = near {
        text.push_str(&format!(
            " The form has `{}`, which nothing reads: if it is the same data, rename it.",
            near.key
        ));
    }
    sentence(text)
}

pub(super) fn hidden_supply(need: &Need, field: &FormField, hide: &str) -> String {
    sentence(format!(
        "{} is hidden when `{}`, and form-js submits nothing for a hidden field; {} reads `{}` {} \
         on a way the field may be hidden on, and without it {}. Show the field whenever the process \
         reads it, or read the value only past a condition that shows the field.",
        field_name(field),
        hide,
        need.site.subject,
        need.path,
        when(&need.site),
        consequence(&need.site),
    ))
}

pub(super) fn type_conflict(field: &FormField, kind: ValueKind, read: &TypedRead) -> String {
    let (compares, fix) = match read.expected {
        Expected::Number => {
            (format!("compares `{}` with the number {}", read.path, read.with), "a number field")
        }
        Expected::Text => {
            (format!("compares `{}` with the text {}", read.path, read.with), "a text field or a select")
        }
        Expected::Boolean => (format!("reads `{}` as true or false", read.path), "a checkbox"),
    };
    let compares = if read.with.starts_with("typeRef") {
        format!("reads `{}` as {} ({})", read.path, read.expected.phrase(), read.with)
    } else {
        compares
    };
    let outcome = match read.site.outcome {
        Outcome::Null | Outcome::Mapping(_) | Outcome::Unresolved => "the decision cannot use it".to_string(),
        _ => "FEEL compares values of different kinds as null, so no flow is taken".to_string(),
    };
    sentence(format!(
        "{} {} (`{}`), but {} is {}: {outcome}. Make it {fix}, or change the expression.",
        read.site.subject,
        compares,
        read.site.expression,
        field_name(field),
        holds(field, kind)
    ))
}

/// Lists option values for a sentence: `"yes", "no"`.
fn listed(values: &[&str]) -> String {
    let shown: Vec<String> = values.iter().take(6).map(|v| format!("\"{v}\"")).collect();
    let more = if values.len() > 6 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

pub(super) fn ticked_only(field: &FormField, test: &FalseTest) -> String {
    let flow = if test.by_default {
        format!(
            "takes its default flow when `{}` is false (its other flow is `{}`)",
            test.path, test.site.expression
        )
    } else {
        format!("has a flow for `{}` false (`{}`)", test.path, test.site.expression)
    };
    sentence(format!(
        "{} is a required checkbox, and form-js submits a required checkbox only ticked (true); {} {flow}, \
         so that flow is never taken. Leave the checkbox optional: unticked is an answer.",
        field_name(field),
        test.site.subject,
    ))
}

pub(super) fn never_taken(field: &FormField, values: &[&str], read: &LiteralRead) -> String {
    let wanted: Vec<&str> = read.values.iter().map(String::as_str).collect();
    let hint = read
        .values
        .iter()
        .find_map(|v| {
            field.options.iter().find(|o| {
                o.label.eq_ignore_ascii_case(v)
                    || o.value.as_str().is_some_and(|ov| ov.eq_ignore_ascii_case(v))
            })
        })
        .map(|o| format!(" (the option \"{}\" has the value {})", o.label, o.value))
        .unwrap_or_default();
    sentence(format!(
        "{} compares `{}` with {} (`{}`), but no option of {} has that value{hint}: its values are {}, so that branch can never be taken. Give an option that value, or change the condition.",
        read.site.subject,
        read.path,
        listed(&wanted),
        read.site.expression,
        field_name(field),
        listed(values)
    ))
}

pub(super) fn no_option_matches(field: &FormField, values: &[&str], reads: &[&LiteralRead]) -> String {
    let mut tested: Vec<&str> = Vec::new();
    for v in reads.iter().flat_map(|r| r.values.iter()) {
        if !tested.contains(&v.as_str()) {
            tested.push(v);
        }
    }
    let first = reads[0];
    sentence(format!(
        "None of the options of {} ({}) is a value {} compares `{}` with ({}, in `{}`), so no branch that tests for them can be taken. Give the options those values, or change the conditions.",
        field_name(field),
        listed(values),
        first.site.subject,
        first.path,
        listed(&tested),
        first.site.expression
    ))
}

pub(super) fn no_flow_for(field: &FormField, value: &str, gateway: &Exhaustive) -> String {
    let tested: Vec<&str> = gateway.values.iter().map(String::as_str).collect();
    sentence(format!(
        "The option \"{value}\" of {} matches no flow of {}, whose conditions test for {} and which has no default flow: choosing it stops the process there. Add a flow or a default flow for it, or remove the option.",
        field_name(field),
        gateway.site.subject,
        listed(&tested)
    ))
}

pub(super) fn optional_but_read(field: &FormField, read: &TypedRead) -> String {
    sentence(format!(
        "{} is optional, but {} reads `{}` without checking that it is set (`{}`): left empty it is null, and so is the comparison: no flow is taken. Make the field required, or check for null in the condition.",
        field_name(field),
        read.site.subject,
        read.path,
        read.site.expression
    ))
}

pub(super) fn overwrites_known(field: &FormField, known: &KnownValue, site: &Site) -> String {
    sentence(format!(
        "{} is editable, but `{}` is already set before this step ({}) and {} reads it again: what is entered here replaces it. Make the field read-only if it is only shown.",
        field_name(field),
        known.name,
        known.from,
        site.subject
    ))
}

pub(super) fn unused_key(field: &FormField, close: &str) -> String {
    format!(
        "{} binds `{}`, which nothing in this process uses; the process has `{close}`. Use that key if it is the same data.",
        sentence(field_name(field)),
        field.key
    )
}
