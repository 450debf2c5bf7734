//! Constraints that must be enforceable: a rule form-js would ignore, or could not apply, is refused
//! rather than passed on as a promise the form does not keep.
//!
//! Each check gets one component (already typed and keyed by the normaliser) and the sentence-start
//! naming it ("The field \"Start date\""); it records refusals and warnings in the [`Report`]. Repairs
//! are made only where the intent is unambiguous (`"required": "true"`, options written as plain
//! strings) and always with a warning.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::Report;
use super::Rule;
use crate::formjs::ComponentType;

/// Checks the constraints of a component of form-js type `kind`.
pub fn check(kind: &str, c: &mut Map<String, Value>, who: &str, report: &mut Report) {
    let kind = ComponentType::parse(kind);
    check_validate(kind, c, who, report);
    if kind.is_some_and(ComponentType::has_options) {
        check_options(c, who, report);
    }
    check_default(kind, c, who, report);
    check_feel(kind, c, who, report);
    check_layout(c, who, report);
    check_kind_specific(kind, c, who, report);
}

const VALIDATE_KEYS: &[&str] =
    &["required", "min", "max", "minLength", "maxLength", "pattern", "patternErrorMessage", "validationType"];

fn check_validate(kind: Option<ComponentType>, c: &mut Map<String, Value>, who: &str, report: &mut Report) {
    let Some(validate) = c.get_mut("validate") else {
        return;
    };
    let Some(v) = validate.as_object_mut() else {
        report.refuse(
            Rule::InvalidValidation,
            format!(
                "{who} has \"validate\" set to {}; it must be an object such as {{\"required\": true}}.",
                brief(validate)
            ),
        );
        return;
    };
    let unknown: Vec<String> = v.keys().filter(|k| !VALIDATE_KEYS.contains(&k.as_str())).cloned().collect();
    if !unknown.is_empty() {
        let hints: Vec<&str> = unknown.iter().filter_map(|k| hint(k)).collect();
        let hints = if hints.is_empty() { String::new() } else { format!(" ({})", hints.join("; ")) };
        report.refuse(
            Rule::InvalidValidation,
            format!(
                "{who} has validation rules form-js does not enforce ({}); use only {}{hints}.",
                quoted(&unknown),
                VALIDATE_KEYS.join(", ")
            ),
        );
    }
    match v.get("required") {
        None | Some(Value::Bool(_)) => {}
        Some(Value::String(s)) if s == "true" || s == "false" => {
            let b = s == "true";
            v.insert("required".into(), Value::Bool(b));
            report.warn(format!("{who} had \"required\" as the text \"{b}\"; it is now {b}."));
        }
        Some(other) => report.refuse(
            Rule::InvalidValidation,
            format!("{who} has \"required\" set to {}; it must be true or false.", brief(other)),
        ),
    }
    check_range(
        v,
        ("min", "max"),
        kind == Some(ComponentType::Number),
        bound,
        Range {
            elsewhere: "which form-js only enforces on number fields; make it a number field or use minLength/maxLength for text",
            nothing: "value",
            who,
        },
        report,
    );
    check_range(
        v,
        ("minLength", "maxLength"),
        kind == Some(ComponentType::Textfield) || kind == Some(ComponentType::Textarea),
        length,
        Range {
            elsewhere: "which form-js only enforces on text fields and text areas; remove it or change the field",
            nothing: "text",
            who,
        },
        report,
    );
    for text_only in ["pattern", "validationType", "patternErrorMessage"] {
        if v.contains_key(text_only) && kind != Some(ComponentType::Textfield) {
            report.refuse(Rule::InvalidValidation, format!("{who} has a {text_only}, which form-js only enforces on text fields; remove it or make the field a text field."));
        }
    }
    if kind == Some(ComponentType::Textfield) {
        match v.get("pattern") {
            None => {}
            Some(Value::String(p)) => {
                if let Some(problem) = report.patterns.judge(p) {
                    report.refuse(
                        Rule::InvalidPattern,
                        format!("{who} has the pattern {}, {problem}", short_quote(p)),
                    );
                }
            }
            Some(other) => report.refuse(
                Rule::InvalidPattern,
                format!(
                    "{who} has a pattern that is {}, not a text; write the regular expression as a string.",
                    brief(other)
                ),
            ),
        }
        match v.get("validationType") {
            None => {}
            Some(Value::String(t)) if ["", "email", "phone", "custom"].contains(&t.as_str()) => {}
            Some(other) => report.refuse(
                Rule::InvalidValidation,
                format!(
                    "{who} has validationType {}; form-js knows \"email\", \"phone\" or \"custom\".",
                    brief(other)
                ),
            ),
        }
    }
}

/// What to write instead of a validation rule form-js does not have.
fn hint(rule: &str) -> Option<&'static str> {
    Some(match rule {
        "email" => "for an e-mail address write \"validationType\": \"email\"",
        "phone" | "tel" => "for a phone number write \"validationType\": \"phone\"",
        "step" => "for a step between numbers give the number field an \"increment\"",
        "minimum" | "minValue" => "a lower limit is \"min\"",
        "maximum" | "maxValue" => "an upper limit is \"max\"",
        "regex" | "regexp" => "a regular expression is \"pattern\"",
        "minlength" | "min_length" => "a shortest length is \"minLength\"",
        "maxlength" | "max_length" => "a longest length is \"maxLength\"",
        _ => return None,
    })
}

/// The words of a range's refusals.
struct Range<'a> {
    /// Why it is refused on this field: "which form-js only enforces on ...; what to do".
    elsewhere: &'a str,
    /// What could not pass a crossed range ("value", "text").
    nothing: &'a str,
    /// The field.
    who: &'a str,
}

/// A lower and an upper limit (`min`/`max`, `minLength`/`maxLength`): only where form-js enforces them,
/// each readable by `read`, and not crossed.
fn check_range<T: PartialOrd + std::fmt::Display>(
    v: &Map<String, Value>,
    (low, high): (&str, &str),
    applies: bool,
    read: fn(&Option<Value>, &str, &str, &mut Report) -> Option<T>,
    words: Range<'_>,
    report: &mut Report,
) {
    let (lo, hi) = (v.get(low).cloned(), v.get(high).cloned());
    if lo.is_none() && hi.is_none() {
        return;
    }
    let who = words.who;
    if !applies {
        report.refuse(Rule::InvalidValidation, format!("{who} has a {low}/{high}, {}.", words.elsewhere));
        return;
    }
    let a = read(&lo, low, who, report);
    let b = read(&hi, high, who, report);
    if let (Some(a), Some(b)) = (a, b)
        && a > b
    {
        report.refuse(
            Rule::InvalidValidation,
            format!(
                "{who} has {low} {a} above {high} {b}, so no {} could pass; swap or correct them.",
                words.nothing
            ),
        );
    }
}

/// A `min`/`max`: a number, or FEEL (`=...`) that form-js evaluates.
fn bound(v: &Option<Value>, name: &str, who: &str, report: &mut Report) -> Option<f64> {
    match v {
        None => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) if s.starts_with('=') => None,
        Some(Value::String(s)) if s.trim().parse::<f64>().is_ok() => {
            report.refuse(
                Rule::InvalidValidation,
                format!("{who} has {name} written as the text \"{s}\"; write it as a number."),
            );
            None
        }
        Some(other) => {
            report.refuse(
                Rule::InvalidValidation,
                format!(
                    "{who} has {name} {}; it must be a number or a FEEL expression starting with \"=\".",
                    brief(other)
                ),
            );
            None
        }
    }
}

fn length(v: &Option<Value>, name: &str, who: &str, report: &mut Report) -> Option<u64> {
    match v {
        None => None,
        Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64(),
        Some(Value::String(s)) if s.starts_with('=') => None,
        Some(other) => {
            report.refuse(
                Rule::InvalidValidation,
                format!(
                    "{who} has {name} {}; it must be a whole number of characters, 0 or more.",
                    brief(other)
                ),
            );
            None
        }
    }
}

fn check_options(c: &mut Map<String, Value>, who: &str, report: &mut Report) {
    let sources: Vec<&str> =
        ["values", "valuesKey", "valuesExpression"].into_iter().filter(|s| c.contains_key(*s)).collect();
    match sources.len() {
        0 => {
            report.refuse(Rule::InvalidOptions, format!(
                "{who} offers no options; give it \"values\" (a list of {{\"label\", \"value\"}}), a \"valuesKey\" naming the process variable that holds them, or a \"valuesExpression\" (FEEL starting with \"=\") that computes them."
            ));
            return;
        }
        1 => {}
        _ => {
            report.refuse(
                Rule::InvalidOptions,
                format!(
                    "{who} takes its options from {} at once; form-js uses only one, so keep one of them.",
                    either(&sources.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "and")
                ),
            );
            return;
        }
    }
    if let Some(key) = c.get("valuesKey") {
        match key.as_str() {
            Some(k) if !k.is_empty() && !k.chars().any(char::is_whitespace) => {}
            _ => report.refuse(
                Rule::InvalidOptions,
                format!("{who} has the valuesKey {}; it must name a variable, without spaces.", brief(key)),
            ),
        }
    }
    if let Some(expr) = c.get("valuesExpression")
        && !expr.as_str().is_some_and(|e| e.starts_with('='))
    {
        report.refuse(
            Rule::InvalidOptions,
            format!(
                "{who} has the valuesExpression {}; it must be a FEEL expression starting with \"=\".",
                brief(expr)
            ),
        );
    }
    let Some(values) = c.get_mut("values") else {
        return;
    };
    let Some(items) = values.as_array_mut() else {
        report.refuse(
            Rule::InvalidOptions,
            format!(
                "{who} has \"values\" set to {}; it must be a list of {{\"label\", \"value\"}} options.",
                brief(values)
            ),
        );
        return;
    };
    if items.is_empty() {
        report.refuse(Rule::InvalidOptions, format!(
            "{who} has an empty list of options, so it can never be answered; give it at least one option in \"values\", or take them from a \"valuesKey\" (a process variable) or a \"valuesExpression\" (FEEL starting with \"=\") instead."
        ));
        return;
    }
    let mut converted = false;
    let mut seen: HashSet<String> = HashSet::new();
    let mut duplicates: Vec<String> = Vec::new();
    let mut reported: HashSet<String> = HashSet::new();
    for item in items.iter_mut() {
        let Some(value) = normalise_option(item, who, report, &mut converted) else {
            continue;
        };
        if !seen.insert(value.clone()) && reported.insert(value.clone()) {
            duplicates.push(value);
        }
    }
    if converted {
        report.warn(format!("{who} had options written as plain values; each is now a {{\"label\", \"value\"}} pair with text values."));
    }
    if !duplicates.is_empty() {
        report.refuse(
            Rule::InvalidOptions,
            format!(
                "{who} offers the value {} more than once; each option needs its own value.",
                quoted(&duplicates)
            ),
        );
    }
}

/// One option as a `{"label", "value"}` pair of texts (plain values and numbers converted, noted in
/// `converted`), and its value; `None` for an option that cannot be one, refused.
fn normalise_option(
    item: &mut Value,
    who: &str,
    report: &mut Report,
    converted: &mut bool,
) -> Option<String> {
    if let Some(s) = scalar_text(item) {
        *item = serde_json::json!({"label": s, "value": s});
        *converted = true;
    }
    let Some(option) = item.as_object_mut() else {
        report.refuse(
            Rule::InvalidOptions,
            format!("{who} has the option {}, which is not a {{\"label\", \"value\"}} pair.", brief(item)),
        );
        return None;
    };
    let value = match option.get("value") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if scalar_text(v).is_some() => {
            let s = scalar_text(v).expect("scalar");
            option.insert("value".into(), Value::String(s.clone()));
            *converted = true;
            s
        }
        Some(v) => {
            report.refuse(
                Rule::InvalidOptions,
                format!("{who} has an option whose value is {}; option values are texts.", brief(v)),
            );
            return None;
        }
        None => match option.get("label").and_then(Value::as_str) {
            Some(label) => {
                let label = label.to_string();
                option.insert("value".into(), Value::String(label.clone()));
                *converted = true;
                label
            }
            None => {
                report.refuse(
                    Rule::InvalidOptions,
                    format!("{who} has an option with neither a value nor a label."),
                );
                return None;
            }
        },
    };
    match option.get("label") {
        Some(Value::String(_)) => {}
        Some(v) if scalar_text(v).is_some() => {
            let s = scalar_text(v).expect("scalar");
            option.insert("label".into(), Value::String(s));
        }
        _ => {
            option.insert("label".into(), Value::String(value.clone()));
        }
    }
    Some(value)
}

/// A number or boolean (or string) as option text.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn check_default(kind: Option<ComponentType>, c: &mut Map<String, Value>, who: &str, report: &mut Report) {
    let Some(default) = c.get("defaultValue").cloned() else {
        return;
    };
    if default.is_null() {
        c.remove("defaultValue");
        return;
    }
    let options: Option<HashSet<String>> = c.get("values").and_then(Value::as_array).map(|items| {
        items.iter().filter_map(|i| i.get("value").and_then(Value::as_str).map(str::to_string)).collect()
    });
    if kind.is_some_and(ComponentType::has_options) && c.contains_key("valuesKey") {
        report.refuse(Rule::InvalidDefault, format!("{who} has a defaultValue but takes its options from a valuesKey; form-js ignores it there, so remove it."));
        return;
    }
    let wrong = |expected: &str, report: &mut Report| {
        report.refuse(
            Rule::InvalidDefault,
            format!("{who} has the defaultValue {}, but a {} holds {expected}.", brief(&default), name(kind)),
        );
    };
    match kind {
        Some(ComponentType::Checkbox) => match &default {
            Value::Bool(_) => {}
            Value::String(s) if s == "true" || s == "false" => {
                c.insert("defaultValue".into(), Value::Bool(s == "true"));
                report.warn(format!("{who} had the defaultValue as the text \"{s}\"; it is now {s}."));
            }
            _ => wrong("true or false", report),
        },
        Some(ComponentType::Textfield | ComponentType::Textarea | ComponentType::Datetime)
            if !default.is_string() =>
        {
            wrong("a text", report);
        }
        Some(ComponentType::Radio | ComponentType::Select) => match &default {
            Value::String(s) => {
                if let Some(opts) = &options
                    && !opts.contains(s)
                {
                    report.refuse(
                        Rule::InvalidDefault,
                        format!(
                            "{who} has the defaultValue \"{s}\", which is not one of its options ({}).",
                            quoted(&opts_in_order(c))
                        ),
                    );
                }
            }
            _ => wrong("one option's value (a text)", report),
        },
        Some(ComponentType::Number) => match &default {
            Value::Number(_) => {}
            Value::String(s) if s.trim().parse::<f64>().is_ok() => {}
            _ => wrong("a number", report),
        },
        Some(ComponentType::Checklist | ComponentType::Taglist) => match &default {
            Value::Array(items) if items.iter().all(Value::is_string) => {
                if let Some(opts) = &options {
                    let outside: Vec<String> = items
                        .iter()
                        .filter_map(Value::as_str)
                        .filter(|s| !opts.contains(*s))
                        .map(str::to_string)
                        .collect();
                    if !outside.is_empty() && kind == Some(ComponentType::Checklist) {
                        report.refuse(
                            Rule::InvalidDefault,
                            format!(
                                "{who} has default values that are not among its options: {}.",
                                quoted(&outside)
                            ),
                        );
                    }
                }
            }
            _ => wrong("a list of option values", report),
        },
        Some(ComponentType::Expression | ComponentType::Filepicker) => {
            report.refuse(
                Rule::InvalidDefault,
                format!("{who} has a defaultValue, which a {} cannot hold; remove it.", name(kind)),
            );
        }
        _ => {}
    }
}

fn check_feel(kind: Option<ComponentType>, c: &mut Map<String, Value>, who: &str, report: &mut Report) {
    if let Some(conditional) = c.get("conditional") {
        match conditional.as_object().map(|o| o.get("hide")) {
            None => report.refuse(Rule::InvalidExpression, format!("{who} has \"conditional\" set to {}; it must be an object like {{\"hide\": \"=expression\"}}.", brief(conditional))),
            Some(None) => {}
            Some(Some(Value::String(s))) if s.trim_start().starts_with('=') => {}
            Some(Some(Value::String(s))) => report.refuse(Rule::InvalidExpression, format!(
                "{who} hides itself when {}, but form-js ignores a condition without a leading \"=\" and would always show it; write \"={}\".",
                short_quote(s),
                s.trim()
            )),
            Some(Some(other)) => report.refuse(Rule::InvalidExpression, format!(
                "{who} has conditional.hide {}, which form-js ignores; write a FEEL expression starting with \"=\" (for example \"=true\").",
                brief(other)
            )),
        }
    }
    for prop in ["readonly", "disabled"] {
        match c.get(prop) {
            None | Some(Value::Bool(_)) => {}
            Some(Value::String(s)) if s.trim_start().starts_with('=') => {}
            Some(other) => report.refuse(
                Rule::InvalidExpression,
                format!(
                    "{who} has {prop} {}; it must be true, false or a FEEL expression starting with \"=\".",
                    brief(other)
                ),
            ),
        }
    }
    let required_feel: &[&str] = match kind {
        Some(ComponentType::Expression) => &["expression"],
        Some(ComponentType::Table | ComponentType::DocumentPreview) => &["dataSource"],
        _ => &[],
    };
    for prop in required_feel {
        match c.get(*prop) {
            Some(Value::String(s)) if s.trim_start().starts_with('=') => {}
            Some(other) => report.refuse(
                Rule::InvalidExpression,
                format!(
                    "{who} has the {prop} {}; it must be a FEEL expression starting with \"=\".",
                    brief(other)
                ),
            ),
            None => report.refuse(
                Rule::InvalidExpression,
                format!(
                    "{who} has no {prop}; {} needs one, as a FEEL expression starting with \"=\".",
                    a_kind(kind)
                ),
            ),
        }
    }
}

fn check_layout(c: &mut Map<String, Value>, who: &str, report: &mut Report) {
    let Some(layout) = c.get("layout") else {
        return;
    };
    let Some(l) = layout.as_object() else {
        report.refuse(
            Rule::InvalidLayout,
            format!(
                "{who} has \"layout\" set to {}; it must be an object like {{\"columns\": 8}}.",
                brief(layout)
            ),
        );
        return;
    };
    match l.get("columns") {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| (2..=16).contains(&n)) => {}
        Some(other) => report.refuse(Rule::InvalidLayout, format!(
            "{who} has layout.columns {}; a field spans 2 to 16 of form-js's 16 columns (or leave it out for automatic width).",
            brief(other)
        )),
    }
    match l.get("row") {
        None | Some(Value::Null) | Some(Value::String(_)) => {}
        Some(other) => report.refuse(
            Rule::InvalidLayout,
            format!("{who} has the layout row {}; it must be a text naming the row.", brief(other)),
        ),
    }
}

fn check_kind_specific(
    kind: Option<ComponentType>,
    c: &mut Map<String, Value>,
    who: &str,
    report: &mut Report,
) {
    let one_of = |prop: &str, allowed: &[&str], c: &Map<String, Value>, report: &mut Report| match c.get(prop)
    {
        None => {}
        Some(Value::String(s)) if allowed.contains(&s.as_str()) => {}
        Some(other) => report.refuse(
            Rule::InvalidProperty,
            format!(
                "{who} has the {prop} {}; form-js knows {}.",
                brief(other),
                either(&allowed.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "or")
            ),
        ),
    };
    match kind {
        Some(ComponentType::Datetime) => {
            one_of("subtype", &["date", "time", "datetime"], c, report);
            one_of("timeSerializingFormat", &["utc_offset", "utc_normalized", "no_timezone"], c, report);
            if let Some(t) = c.get("timeInterval")
                && !t.as_u64().is_some_and(|n| (1..=60).contains(&n))
            {
                report.refuse(
                    Rule::InvalidProperty,
                    format!("{who} has the timeInterval {}; it must be 1 to 60 minutes.", brief(t)),
                );
            }
        }
        Some(ComponentType::Expression) => {
            if !c.contains_key("computeOn") {
                c.insert("computeOn".into(), Value::String("change".into()));
            }
            one_of("computeOn", &["change", "presubmit"], c, report);
        }
        Some(ComponentType::Number) => {
            if let Some(d) = c.get("decimalDigits")
                && d.as_u64().is_none()
            {
                report.refuse(
                    Rule::InvalidProperty,
                    format!("{who} has decimalDigits {}; it must be a whole number, 0 or more.", brief(d)),
                );
            }
        }
        Some(ComponentType::Button) => one_of("action", &["submit", "reset"], c, report),
        Some(ComponentType::Group) => one_of("verticalAlignment", &["start", "center", "end"], c, report),
        Some(ComponentType::Table) if c.contains_key("columns") && c.contains_key("columnsExpression") => {
            report.refuse(
                Rule::InvalidProperty,
                format!("{who} has both columns and columnsExpression; form-js uses one, so keep one."),
            );
        }
        _ => {}
    }
}

/// A short rendering of a JSON value for a sentence.
pub fn brief(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 { format!("{}…", s.chars().take(40).collect::<String>()) } else { s }
}

fn short_quote(s: &str) -> String {
    brief(&Value::String(s.to_string()))
}

/// `"a", "b" or "c"` (or `and`).
fn either(items: &[String], conjunction: &str) -> String {
    let q: Vec<String> = items.iter().map(|s| format!("\"{s}\"")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{} {conjunction} {last}", rest.join(", "))
        }
        _ => q.join(""),
    }
}

/// A type's name in a sentence; "component" for a type form-js does not know.
fn name(kind: Option<ComponentType>) -> &'static str {
    kind.map_or("component", ComponentType::as_str)
}

/// "a table", "an expression field".
fn a_kind(kind: Option<ComponentType>) -> String {
    let noun = match kind {
        Some(ComponentType::Expression) => "expression field",
        Some(ComponentType::DocumentPreview) => "document preview",
        other => name(other),
    };
    let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {noun}")
}

/// `"a", "b", "c"`; past [`QUOTED`] items, "and N more".
fn quoted(items: &[String]) -> String {
    let shown: Vec<String> = items.iter().take(QUOTED).map(|s| format!("\"{s}\"")).collect();
    match items.len().saturating_sub(QUOTED) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// How many items a sentence lists before it says "and N more".
const QUOTED: usize = 8;

/// The option values of a field, in order, for a sentence.
fn opts_in_order(c: &Map<String, Value>) -> Vec<String> {
    c.get("values")
        .and_then(Value::as_array)
        .map(|items| {
            items.iter().filter_map(|i| i.get("value").and_then(Value::as_str).map(str::to_string)).collect()
        })
        .unwrap_or_default()
}
