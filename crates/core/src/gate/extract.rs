//! Finding the form in a model's answer.
//!
//! Models wrap JSON in prose, fences and apologies, and small ones stop mid-object when they hit their
//! output limit. This accepts bare JSON, JSON in a fenced block (```` ```json ````), and JSON before or
//! after prose; a whole form-js document, a `{"schema": {...}}` / `{"form": {...}}` wrapper, or only the
//! `components` array. Anything else is an [`Unreadable`] whose sentence quotes what was wrong, briefly.

use serde_json::{Map, Value};

/// Why no form could be taken from an answer. The sentence is for the author (and for the model in the
/// repair round), quoting the offending part.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// No JSON object or array at all.
    #[error("the answer holds no JSON form; {}", if .0 == "empty" { "it is empty".to_string() } else { format!("it begins {}", .0) })]
    NoJson(String),
    /// JSON that starts but never ends.
    #[error("the JSON breaks off before it is complete (it ends {0})")]
    Truncated(String),
    /// A model's answer whose JSON never ends: the model most likely ran out of output tokens.
    #[error(
        "the answer's JSON breaks off before it is complete (it ends {0}); the model probably hit its output limit"
    )]
    CutOff(String),
    /// JSON with a syntax error.
    #[error("the answer's JSON is malformed: {reason} near {near}")]
    Malformed {
        /// serde_json's description of the error.
        reason: String,
        /// The text around the error.
        near: String,
    },
    /// Well-formed JSON that is not a form.
    #[error("the answer is JSON but not a form-js schema: {0}")]
    NotAForm(String),
    /// A hand-written form whose JSON has a mistake, where it is.
    #[error("the form's JSON has a mistake at line {line}, column {column}: {reason}")]
    FormSyntax {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// serde_json's description of the mistake.
        reason: String,
    },
    /// A hand-written file that holds no JSON form.
    #[error("the file holds no JSON form; {}", if .0 == "empty" { "it is empty".to_string() } else { format!("it begins {}", .0) })]
    FormNoJson(String),
    /// A hand-written file that is JSON but not a form.
    #[error("the file is JSON but not a form-js schema: {0}")]
    FormNotAForm(String),
}

/// The form object in a hand-written file. Text that starts as JSON is read as JSON alone, so a
/// mistake is reported at its line and column (not skipped over to some object inside); other text
/// (a model's answer pasted into a file) is searched as [`form_in`] does.
pub(crate) fn form_in_file(text: &str) -> Result<Map<String, Value>, Unreadable> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if !trimmed.starts_with(['{', '[']) {
        return form_in(text).map_err(Unreadable::of_form_file);
    }
    let value = serde_json::from_str::<Value>(trimmed).map_err(|e| {
        let start = text.len() - text.trim_start_matches('\u{feff}').trim_start().len();
        let lead_lines = text[..start].matches('\n').count();
        let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
        let lead_cols = if e.line() == 1 { text[line_start..start].chars().count() } else { 0 };
        let (line, column) = char_position(trimmed, e.line(), e.column());
        Unreadable::FormSyntax {
            line: line + lead_lines,
            column: column + lead_cols,
            reason: reason(&e.to_string()),
        }
    })?;
    as_form(value).map_err(Unreadable::of_form_file)
}

/// serde_json's line and byte column as a line and a column in characters (both 1-based).
fn char_position(s: &str, line: usize, column: usize) -> (usize, usize) {
    let Some(text) = s.split('\n').nth(line.saturating_sub(1)) else {
        return (line, column);
    };
    let mut end = column.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (line, text[..end].chars().count().max(1))
}

/// The form object in `answer`: a root object with a `components` array.
pub(crate) fn form_in(answer: &str) -> Result<Map<String, Value>, Unreadable> {
    let value = json_in(answer)?;
    as_form(value)
}

/// Takes a parsed value as a form: a document, a wrapper around one, or a bare components array.
pub(crate) fn as_form(value: Value) -> Result<Map<String, Value>, Unreadable> {
    match value {
        Value::Array(components) => {
            let mut form = Map::new();
            form.insert("components".into(), Value::Array(components));
            Ok(form)
        }
        Value::Object(mut map) => {
            if map.get("components").is_some_and(Value::is_array) {
                return Ok(map);
            }
            for wrapper in ["schema", "form", "formSchema", "document"] {
                if let Some(inner) = map.remove(wrapper)
                    && (inner.is_object() || inner.is_array())
                    && let Ok(form) = as_form(inner)
                {
                    return Ok(form);
                }
            }
            match map.get("components") {
                Some(other) => Err(Unreadable::NotAForm(format!(
                    "its \"components\" is {} where a list of fields belongs",
                    kind_of(other)
                ))),
                None => {
                    let keys: Vec<String> = map.keys().take(6).map(|k| format!("\"{k}\"")).collect();
                    Err(Unreadable::NotAForm(format!(
                        "it has no \"components\" list (its keys are {})",
                        if keys.is_empty() { "none".to_string() } else { keys.join(", ") }
                    )))
                }
            }
        }
        other => Err(Unreadable::NotAForm(format!("it is {}", kind_of(&other)))),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a true/false value",
        Value::Number(_) => "a number",
        Value::String(_) => "a text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The first JSON object or array in `answer`: the whole text, else a fenced block, else the first
/// `{`/`[` from which a complete value parses.
pub(crate) fn json_in(answer: &str) -> Result<Value, Unreadable> {
    let trimmed = answer.trim();
    if let Ok(v) = serde_json::from_str::<Value>(trimmed)
        && (v.is_object() || v.is_array())
    {
        return Ok(v);
    }
    for block in fenced_blocks(answer) {
        if let Ok(v) = serde_json::from_str::<Value>(block.trim())
            && (v.is_object() || v.is_array())
        {
            return Ok(v);
        }
    }
    // Each start is tried with serde_json, which reads until the value ends or breaks. So that
    // answers built to make every start read far (`[1,[1,[1,…`) stay linear, the bytes read are
    // counted against a budget of a few times the answer's length, and a start that runs into the
    // nesting limit skips every start inside its value: a part of a value nested too deeply is not
    // the form (and would nest deeper still, or be an inner group taken for the form).
    let mut budget = answer.len().saturating_mul(4).saturating_add(1 << 16);
    let mut resume = 0;
    let mut searched_to_end = false;
    let mut first_error: Option<Unreadable> = None;
    for (at, _) in answer.match_indices(['{', '[']) {
        if at < resume {
            continue;
        }
        let rest = &answer[at..];
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        let next = stream.next();
        let read = match &next {
            Some(Err(e)) => byte_offset(rest, e.line(), e.column()),
            _ => stream.byte_offset(),
        };
        budget = budget.saturating_sub(read + ATTEMPT);
        match next {
            Some(Ok(v)) if v.is_object() || v.is_array() => {
                // a lone `[` of prose (e.g. "[1]" footnote) is not the form; prefer objects and
                // arrays of objects
                let plausible = v.is_object() || v.as_array().is_some_and(|a| a.iter().any(Value::is_object));
                if plausible {
                    return Ok(v);
                }
                resume = at + read;
            }
            // The first JSON that starts and never ends is the answer, cut off; an object inside it
            // is only a part (a component), not the form.
            Some(Err(e)) if e.is_eof() && first_error.is_none() => {
                return Err(Unreadable::Truncated(quote_end(rest)));
            }
            Some(Err(e)) => {
                if e.to_string().starts_with("recursion limit exceeded") {
                    // A value that never closes is prose brackets: what follows the part read may
                    // still be the form. Closed values are skipped whole (each byte once); the
                    // search for a close runs to the end at most once, so the scans stay linear.
                    let end = if searched_to_end { None } else { value_end(rest) };
                    searched_to_end |= end.is_none();
                    resume = at + end.unwrap_or(read);
                }
                if first_error.is_none() {
                    first_error = Some(if e.is_eof() {
                        Unreadable::Truncated(quote_end(rest))
                    } else {
                        Unreadable::Malformed {
                            reason: reason(&e.to_string()),
                            near: quote_around(rest, read),
                        }
                    });
                }
            }
            _ => {}
        }
        if budget == 0 {
            break;
        }
    }
    Err(first_error.unwrap_or_else(|| Unreadable::NoJson(quote_start(answer))))
}

/// Where the JSON value that `s` starts with ends, by its brackets (outside strings); `None` when it
/// never closes.
fn value_end(s: &str) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, b) in s.bytes().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// What one attempt at a start costs beyond the bytes it reads, in bytes of the budget.
const ATTEMPT: usize = 8;

/// The contents of ```` ``` ```` fenced blocks, in order (an unclosed last fence runs to the end).
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let body_start = after.find('\n').map_or(after.len(), |n| n + 1);
        let body = &after[body_start..];
        match body.find("```") {
            Some(close) => {
                blocks.push(&body[..close]);
                rest = &body[close + 3..];
            }
            None => {
                blocks.push(body);
                break;
            }
        }
    }
    blocks
}

const QUOTE: usize = 60;

/// `"…"` with at most [`QUOTE`] characters from the start, on one line.
pub(crate) fn quote_start(s: &str) -> String {
    let s = s.trim();
    if s.is_empty() {
        return "empty".to_string();
    }
    let flat: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).take(QUOTE).collect();
    let ell = if s.chars().count() > QUOTE { "…" } else { "" };
    format!("\"{flat}{ell}\"")
}

fn quote_end(s: &str) -> String {
    let s = s.trim_end();
    let n = s.chars().count();
    let tail: String =
        s.chars().skip(n.saturating_sub(QUOTE)).map(|c| if c.is_control() { ' ' } else { c }).collect();
    let ell = if n > QUOTE { "…" } else { "" };
    format!("\"{ell}{tail}\"")
}

fn quote_around(s: &str, offset: usize) -> String {
    let mut start = offset.saturating_sub(QUOTE / 2);
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let window: String =
        s[start..].chars().take(QUOTE).map(|c| if c.is_control() { ' ' } else { c }).collect();
    format!("\"{}{window}\"", if start > 0 { "…" } else { "" })
}

/// The byte offset of serde_json's 1-based line and column, reading only up to it.
fn byte_offset(s: &str, line: usize, column: usize) -> usize {
    let bytes = s.as_bytes();
    let mut offset = 0;
    for _ in 1..line {
        match bytes[offset..].iter().position(|&b| b == b'\n') {
            Some(n) => offset += n + 1,
            None => return s.len(),
        }
    }
    (offset + column.saturating_sub(1)).min(s.len())
}

/// serde_json's description of an error, for the author.
fn reason(message: &str) -> String {
    let reason = strip_position(message);
    if reason.starts_with("recursion limit exceeded") {
        return format!(
            "it nests arrays and objects more than {} levels deep (recursion limit exceeded)",
            crate::limits::nesting::JSON
        );
    }
    reason
}

/// serde_json appends " at line L column C"; the quote says where instead.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

impl Unreadable {
    /// The same reason, said of a model's answer: JSON that breaks off there means the model ran out
    /// of output tokens, which a hand-written file gives no reason to suppose.
    pub(crate) fn of_model_answer(self) -> Unreadable {
        match self {
            Unreadable::Truncated(end) => Unreadable::CutOff(end),
            other => other,
        }
    }

    /// The same reason, said of a hand-written file rather than of a model's answer.
    pub(crate) fn of_form_file(self) -> Unreadable {
        match self {
            Unreadable::NoJson(start) => Unreadable::FormNoJson(start),
            Unreadable::NotAForm(why) => Unreadable::FormNotAForm(why),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_json_mistake_is_told_by_its_line_and_column() {
        let text = "\u{feff}\n  {\"components\": [\n    {\"type\": \"textfield\", \"label\": \"Ä\",, \"key\": \"a\"}]}";
        let e = form_in_file(text).unwrap_err();
        assert_eq!(e.to_string(), "the form's JSON has a mistake at line 3, column 40: key must be a string");
        let e = form_in_file("{\"components\": 3}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the file is JSON but not a form-js schema: its \"components\" is a number where a list of fields belongs"
        );
        // an inner object that parses is not taken for the form
        let e = form_in_file("{\"id\": \"x\" \"components\": [{\"type\": \"text\"}]}").unwrap_err();
        assert!(e.to_string().contains("line 1, column 12"), "{e}");
        // a model's answer pasted into a file is still found
        assert!(form_in_file("Here: {\"components\": []}").is_ok());
    }

    #[test]
    fn shapes_of_answers() {
        let form = r#"{"components":[{"type":"textfield","key":"a","label":"A"}]}"#;
        for answer in [
            form.to_string(),
            format!("Here is the form:\n```json\n{form}\n```\nLet me know!"),
            format!("Sure! {form} Hope this helps."),
            format!("{form}\n\nI added one field."),
            r#"[{"type":"textfield","key":"a","label":"A"}]"#.to_string(),
            format!(r#"{{"schema": {form}}}"#),
        ] {
            let form = form_in(&answer).unwrap_or_else(|e| panic!("{answer}: {e}"));
            assert_eq!(form["components"][0]["key"], "a", "{answer}");
        }
    }

    #[test]
    fn nested_brackets_are_linear() {
        for unit in ["[1,", "[", "{\"a\":", "[{", "{[", "x{\"components\":[1,"] {
            let answer = unit.repeat((1 << 20) / unit.len());
            let start = std::time::Instant::now();
            assert!(form_in(&answer).is_err(), "{unit}");
            let took = start.elapsed();
            // a guard against a quadratic search (minutes), not a speed figure: the speed is measured
            // by `cargo bench --bench gate`
            assert!(took.as_secs() < 30, "1 MiB of {unit:?} took {took:?}");
        }
        let padded = format!("{} {}", "[x] [1] ".repeat(20_000), r#"{"components": []}"#);
        assert!(form_in(&padded).is_ok(), "a form after prose brackets is still found");
    }

    #[test]
    fn a_form_nested_past_jsons_limit_is_refused_whole_not_read_from_inside() {
        let group = r#"{"type": "group", "label": "G", "components": ["#;
        let depth = crate::limits::nesting::JSON;
        let form = format!(
            r#"{{"components": [{}{{"type": "textfield", "key": "x", "label": "X"}}{}]}}"#,
            group.repeat(depth),
            "]}".repeat(depth)
        );
        let e = form_in(&form).unwrap_err();
        assert!(e.to_string().contains("nests arrays and objects more than 128 levels deep"), "{e}");
        let after = format!("{} and then {}", "[".repeat(4 * depth), r#"{"components": []}"#);
        assert!(form_in(&after).is_ok(), "a form after a deep prose bracket is found");
        let closed =
            format!("{}{} {}", "[".repeat(4 * depth), "]".repeat(4 * depth), r#"{"components": []}"#);
        assert!(form_in(&closed).is_ok());
    }

    #[test]
    fn prose_brackets_before_the_form_are_skipped() {
        let answer = r#"As noted [1], here it is: {"components": []}"#;
        assert!(form_in(answer).is_ok());
    }

    #[test]
    fn refusals_quote_what_was_wrong() {
        let e = form_in("I cannot help with that.").unwrap_err();
        assert_eq!(e.to_string(), "the answer holds no JSON form; it begins \"I cannot help with that.\"");
        assert_eq!(form_in("  ").unwrap_err().to_string(), "the answer holds no JSON form; it is empty");
        let e = form_in(r#"{"components":[{"type":"textfield","key":"a","lab"#).unwrap_err();
        assert!(matches!(e, Unreadable::Truncated(_)), "{e}");
        assert!(e.to_string().contains("\"key\":\"a\",\"lab\""), "{e}");
        let e = form_in(r#"{"components":[{"type":"textfield" "key":"a"}]}"#).unwrap_err();
        assert!(matches!(e, Unreadable::Malformed { .. }), "{e}");
        let e = form_in(r#"{"fields":[]}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the answer is JSON but not a form-js schema: it has no \"components\" list (its keys are \"fields\")"
        );
    }
}
