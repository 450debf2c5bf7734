//! Where a finding stands in its file: the line and column of a form component (by its `key`) in a
//! `.form` text, and of a BPMN element (by its `id` attribute) in the XML.
//!
//! Lines and columns count from 1. A column counts UTF-16 code units, as JavaScript editors, ESLint
//! and SARIF's `utf16CodeUnits` column kind do: a character outside the Basic Multilingual Plane
//! (most emoji) counts two. A line ends at `\n`; the `\r` of a `\r\n` is not counted.

/// A place in a text: 1-based line and column (UTF-16 code units).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in UTF-16 code units.
    pub column: usize,
}

impl Position {
    /// The first character of a text: where a finding about the whole file stands.
    pub(crate) const START: Position = Position { line: 1, column: 1 };
}

/// The position of each character of `text`, a leading byte order mark not counted.
fn positions(text: &str) -> impl Iterator<Item = (usize, char, Position)> + '_ {
    let skip = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let mut at = Position::START;
    let mut chars = text[skip..].char_indices().peekable();
    std::iter::from_fn(move || {
        let (i, c) = chars.next()?;
        let here = at;
        match c {
            '\n' => at = Position { line: at.line + 1, column: 1 },
            '\r' if chars.peek().is_some_and(|(_, next)| *next == '\n') => {}
            _ => at.column += c.len_utf16(),
        }
        Some((i + skip, c, here))
    })
}

/// The position of the `"key"` member of the component that binds `key` in a form's text; the
/// form's start when no component writes it. For a key that is a path (`address.street`, a field
/// inside a group with a `path`), the component's own key may be any tail of it: the longest one a
/// component writes is taken.
pub fn component(text: &str, key: &str) -> Position {
    let tails = std::iter::once(key).chain(key.match_indices('.').map(|(i, _)| &key[i + 1..]));
    let members = key_members(text);
    tails
        .filter(|tail| !tail.is_empty())
        .find_map(|tail| members.iter().find(|(value, _)| value == tail).map(|(_, at)| *at))
        .unwrap_or(Position::START)
}

/// Every `"key": "<value>"` member of a JSON text, with the position of its name: the value
/// decoded, the name's opening quote as position. Strings are read whole, so a `"key"` inside
/// another string (a label, a description) is never taken for a member.
fn key_members(text: &str) -> Vec<(String, Position)> {
    let mut out = Vec::new();
    let mut previous: Option<(String, Position, usize)> = None;
    for (value, at, start, end) in json_strings(text) {
        if let Some((name, name_at, name_end)) = previous.take()
            && name == "key"
            && is_colon_between(&text[name_end..start])
        {
            out.push((value, name_at));
            continue;
        }
        previous = Some((value, at, end));
    }
    out
}

/// Whether the text between two strings is a member's `:` (and white space).
fn is_colon_between(between: &str) -> bool {
    between.trim() == ":"
}

/// The JSON strings of a text in order: decoded value, position of the opening quote, and the byte
/// range of the whole string literal. Text outside strings is passed over.
fn json_strings(text: &str) -> impl Iterator<Item = (String, Position, usize, usize)> + '_ {
    let mut chars = positions(text);
    std::iter::from_fn(move || {
        let (start, at) = chars.by_ref().find(|(_, c, _)| *c == '"').map(|(i, _, at)| (i, at))?;
        let mut raw = String::from('"');
        let mut escaped = false;
        for (i, c, _) in chars.by_ref() {
            raw.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                let value = serde_json::from_str::<String>(&raw).unwrap_or_default();
                return Some((value, at, start, i + 1));
            }
        }
        None
    })
}

/// The position of the start tag (its `<`) of the element whose `id` attribute is `id` in an XML
/// text; `None` when no element has it.
pub fn element(xml: &str, id: &str) -> Option<Position> {
    let want = escape_attribute(id);
    let found = xml.match_indices("id").find(|(i, _)| is_id_attribute(xml, *i, &want))?.0;
    let tag = xml[..found].rfind('<')?;
    positions(xml).find(|(i, _, _)| *i == tag).map(|(_, _, at)| at)
}

/// Whether the `id` at byte `i` of `xml` is an attribute named `id` whose value is `want`.
fn is_id_attribute(xml: &str, i: usize, want: &str) -> bool {
    if !xml[..i].ends_with(|c: char| c.is_ascii_whitespace()) {
        return false;
    }
    let rest = xml[i + 2..].trim_start();
    let Some(rest) = rest.strip_prefix('=') else { return false };
    let rest = rest.trim_start();
    let Some(quote) = rest.chars().next().filter(|q| *q == '"' || *q == '\'') else { return false };
    rest[1..].strip_prefix(want).is_some_and(|after| after.starts_with(quote))
}

/// An attribute value as XML writes it.
fn escape_attribute(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Position {
        Position { line, column }
    }

    #[test]
    fn a_component_is_found_at_its_key_member() {
        let form = "{\n  \"components\": [\n    {\"type\": \"textfield\", \"key\": \"name\"},\n    {\"key\": \"age\"}\n  ]\n}";
        assert_eq!(component(form, "name"), at(3, 27));
        assert_eq!(component(form, "age"), at(4, 6));
        assert_eq!(component(form, "missing"), Position::START);
    }

    #[test]
    fn a_key_written_as_a_value_elsewhere_is_not_taken() {
        let form = r#"{"components": [{"label": "key", "description": "\"key\": \"x\"", "key": "y"}, {"key": "x"}]}"#;
        let x = form.rfind(r#""key": "x""#).unwrap();
        assert_eq!(component(form, "x"), at(1, x + 1));
        // a "key" that is a value, followed by a colon-like text, is no member
        let form = r#"{"label": "key", "a": ":", "key": "label"}"#;
        assert_eq!(component(form, "label"), at(1, form.rfind(r#""key""#).unwrap() + 1));
    }

    #[test]
    fn escapes_in_keys_are_decoded() {
        let form = r#"{"components": [{"key": "a\u0062c"}, {"key": "q\"uote"}]}"#;
        assert_eq!(component(form, "abc"), at(1, 18));
        assert_eq!(component(form, "q\"uote"), at(1, form.rfind(r#""key""#).unwrap() + 1));
    }

    #[test]
    fn a_path_is_found_by_the_components_own_key() {
        let form = "{\"components\": [{\"type\": \"group\", \"path\": \"address\", \"components\": [\n{\"key\": \"street\"}]}]}";
        assert_eq!(component(form, "address.street"), at(2, 2));
        let dotted = "{\"components\": [\n  {\"key\": \"a.b\"}]}";
        assert_eq!(component(dotted, "x.a.b"), at(2, 4));
    }

    #[test]
    fn crlf_counts_one_line_end_and_a_bom_no_column() {
        let form = "\u{feff}{\r\n  \"components\": [\r\n    {\"key\": \"a\"}\r\n  ]\r\n}";
        assert_eq!(component(form, "a"), at(3, 6));
    }

    #[test]
    fn columns_count_utf16_code_units() {
        let form = "{\"label\": \"Schadenshöhe 😀\", \"key\": \"a\"}";
        // `ö` is one unit, the emoji two: 28 characters before `"key"`, 29 units
        let before = form.find("\"key\"").unwrap();
        assert_eq!(form[..before].chars().count(), 28);
        assert_eq!(component(form, "a"), at(1, 30));
    }

    #[test]
    fn an_element_is_found_at_its_start_tag() {
        let xml = "<definitions>\r\n  <process id=\"p\">\n    <sequenceFlow id=\"f\" sourceRef=\"Task_a\" />\n    <bpmn:userTask name=\"Prüfen\" id = 'Task_a'>\n";
        assert_eq!(element(xml, "p"), Some(at(2, 3)));
        assert_eq!(element(xml, "Task_a"), Some(at(4, 5)));
        assert_eq!(element(xml, "Task"), None);
        assert_eq!(element(xml, "nothing"), None);
    }

    #[test]
    fn an_element_id_is_matched_as_xml_writes_it() {
        let xml = "<a formId=\"x\" />\n<b bpmnElement=\"x\" />\n<c id=\"x&amp;y\" />\n<d id=\"x\" />";
        assert_eq!(element(xml, "x&y"), Some(at(3, 1)));
        assert_eq!(element(xml, "x"), Some(at(4, 1)));
    }
}
