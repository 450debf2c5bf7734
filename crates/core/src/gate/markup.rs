//! A `text` or `html` component's markup: nothing a browser would run. form-js renders a text's
//! Markdown and an HTML component's content as HTML in the page that shows the form (the author's
//! editor, the tasklist), so a `<script>` element, an event-handler attribute (`onerror=`, `onload=`)
//! or a `javascript:` link there runs with that page's rights. A model's answer with one is refused;
//! a hand-written form gets the finding. The markup is read as the browser reads it: character
//! references and entities decoded (`jav&#x61;script&colon;`), the tabs and line breaks a browser
//! drops from a URL removed (`java\tscript:`), in either case.

use serde_json::{Map, Value};

use super::{Report, Rule};

/// How many times references are decoded over (`&amp;#106;` is `j` twice read).
const LEVELS: usize = 3;

/// URL schemes that run code when followed.
const SCHEMES: &[&str] = &["javascript:", "vbscript:"];

/// Refuses markup a browser would run in a `text` or `html` component.
pub fn check(kind: &str, c: &Map<String, Value>, who: &str, report: &mut Report) {
    let prop = match kind {
        "text" => "text",
        "html" => "content",
        _ => return,
    };
    let Some(text) = c.get(prop).and_then(Value::as_str) else { return };
    if let Some(what) = runs(text) {
        report.refuse(
            Rule::UnsafeMarkup,
            format!(
                "{who} holds markup a browser would run ({what}). Its {prop} is rendered as HTML wherever the form is shown, so it would run with the rights of the page that shows it: remove it, and use plain Markdown links and text."
            ),
        );
    }
}

/// What in `text` a browser would run, if anything.
fn runs(text: &str) -> Option<String> {
    // a tag is markup only as written (`&lt;script&gt;` shows as text); a URL is read decoded
    let tags = text.to_lowercase();
    if tags.contains("<script") {
        return Some("a <script> element".to_string());
    }
    if let Some(handler) = handler(&tags) {
        return Some(format!("the event handler {handler}="));
    }
    let read: String = crate::html::references(text, LEVELS)
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .flat_map(char::to_lowercase)
        .collect();
    for scheme in SCHEMES {
        for (at, _) in read.match_indices(scheme) {
            // where a URL starts: an attribute's value, a Markdown link's target, an autolink
            let before = read[..at].trim_end_matches([' ', '"', '\'', '\u{c}']);
            if before.ends_with(['=', '(', '<']) {
                return Some(format!("a {scheme} link"));
            }
        }
    }
    None
}

/// An event-handler attribute inside a tag (`<img src=x onerror=…>`, `<svg/onload=…>`): its name.
fn handler(text: &str) -> Option<&str> {
    for (start, _) in text.match_indices('<') {
        let tag = &text[start + 1..];
        if !tag.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        let bytes = tag.as_bytes();
        for (i, _) in tag.match_indices("on") {
            let after_separator =
                i > 0 && matches!(bytes[i - 1], b' ' | b'/' | b'"' | b'\'' | b'\x0c' | b'\t' | b'\n' | b'\r');
            let name_len = tag[i..].bytes().take_while(u8::is_ascii_alphabetic).count();
            let rest = tag[i + name_len..].trim_start_matches(' ');
            if after_separator && name_len > 2 && rest.starts_with('=') {
                return Some(&tag[i..i + name_len]);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_handlers_and_script_links_are_found_however_spelled() {
        for text in [
            "<script>alert(1)</script>",
            "Hi <SCRIPT src=//x.example></SCRIPT>",
            "<img src=x onerror=alert(1)>",
            "<svg/onload=alert(1)>",
            "<a href=\"#\" onClick = \"steal()\">x</a>",
            "[Open](javascript:alert(1))",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<a href='jav&#x61;script&colon;alert(1)'>x</a>",
            "<a href=\"java\tscript:alert(1)\">x</a>",
            "<a href=\"&amp;#106;avascript:alert(1)\">x</a>",
            "<a href=vbscript:msgbox>x</a>",
            "<javascript:alert(1)>",
        ] {
            assert!(runs(text).is_some(), "{text}");
        }
    }

    #[test]
    fn ordinary_markup_passes() {
        for text in [
            "# Welcome\n\nPlease fill in **all** fields. See [the guide](https://example.com/guide).",
            "<p>Contact <a href=\"mailto:hr@example.com\">HR</a> online.</p>",
            "Write &lt;script&gt; as text",
            "Turn the ignition on = start the engine",
            "<div class=\"notice\">Only one option</div>",
            "No javascript: needed here",
            "{{ applicant.name }} applied on {{ date }}",
        ] {
            assert_eq!(runs(text), None, "{text}");
        }
    }

    #[test]
    fn a_model_answer_is_refused_and_a_hand_written_form_gets_the_finding() {
        use crate::gate::{Options, Origin, Rule, review_value, run_value};
        let form = serde_json::json!({"components": [
            {"type": "text", "text": "Hello <img src=x onerror=alert(1)>"},
            {"type": "html", "content": "<a href=\"javascript&colon;alert(1)\">x</a>"},
            {"type": "textfield", "key": "name", "label": "Name"}
        ]});
        let refused = run_value(form.clone(), &Options { origin: Origin::Model, ..Options::default() })
            .expect_err("refused");
        assert!(refused.problems().iter().any(|p| p.contains("onerror=")), "{refused}");
        let reviewed = review_value(form, &Options::default()).expect("reviewed");
        let rules: Vec<Rule> = reviewed.problems.iter().map(|p| p.rule).collect();
        assert_eq!(rules, [Rule::UnsafeMarkup, Rule::UnsafeMarkup], "{:?}", reviewed.problems);
    }
}
