//! Data leaving the form through the viewer.
//!
//! When the form renders, the viewer fetches an `image`'s `source`, the images a `text` or `html`
//! component's Markdown/HTML names, an `iframe`'s `url`, and a `documentPreview`'s documents. A URL
//! written as a constant is the author's choice of host and is fine. A URL computed by FEEL (`=…`) or a
//! template (`{{ … }}`) that reads what the user types into the form sends that to the host as it is
//! typed, so it is refused. One that reads only names no editable field of the form binds (process
//! variables the form at most shows read-only) is a warning: the host sees process data, which the
//! author should know, but the user's input does not leave.
//!
//! An iframe's `security` is refused when it grants `allowScripts` together with `allowSameOrigin`
//! (the embedded page can then lift its own sandbox) or with `allowTopNavigation` (its scripts can
//! navigate the task list away, e.g. to a look-alike login page); `allowTopNavigation` alone (links
//! only) is a warning.
//!
//! Collecting happens during the walk; judging after it, when every editable binding is known.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::Report;
use super::Rule;

/// A place where the viewer fetches a URL that is computed.
#[derive(Debug, Clone)]
pub struct Fetch {
    who: String,
    /// The fetching component's key or path, for the problem's location.
    at: Option<String>,
    what: &'static str,
    names: Vec<String>,
}

/// A document preview always reads its documents from process data (that is what it is for), so
/// only a typed value there is worth a sentence.
const DOCUMENTS: &str = "documents (dataSource)";

/// FEEL words that are not variable names.
const KEYWORDS: &[&str] = &[
    "if",
    "then",
    "else",
    "for",
    "in",
    "return",
    "and",
    "or",
    "not",
    "true",
    "false",
    "null",
    "some",
    "every",
    "satisfies",
    "instance",
    "of",
    "function",
    "between",
    "string",
    "number",
    "date",
    "time",
    "and",
    "substring",
    "upper",
    "lower",
    "case",
    "contains",
    "starts",
    "ends",
    "with",
    "matches",
    "replace",
    "split",
    "concatenate",
    "count",
    "sum",
    "min",
    "max",
    "get",
    "value",
    "now",
    "today",
    "item",
    "this",
    "parent",
    "encode",
    "for",
    "uri",
    "url",
    "length",
    "abs",
    "floor",
    "ceiling",
    "decimal",
];

/// Records what a component of type `kind` makes the viewer fetch, and refuses unsafe iframe grants.
pub fn collect(kind: &str, c: &Map<String, Value>, who: &str, fetches: &mut Vec<Fetch>, report: &mut Report) {
    let text = |p: &str| c.get(p).and_then(Value::as_str);
    let at = report.at.clone();
    let mut add = |what: &'static str, s: &str| {
        let names = computed_names(s);
        if let Some(names) = names {
            fetches.push(Fetch { who: who.to_string(), at: at.clone(), what, names });
        }
    };
    match kind {
        "image" => {
            if let Some(s) = text("source") {
                add("image source", s);
            }
        }
        "iframe" => {
            if let Some(s) = text("url") {
                add("page address (url)", s);
            }
            security(c, who, report);
        }
        "documentPreview" => {
            if let Some(s) = text("dataSource") {
                add(DOCUMENTS, s);
            }
        }
        "text" | "html" => {
            let prop = if kind == "text" { "text" } else { "content" };
            if let Some(s) = text(prop)
                && shows_an_image(s)
            {
                add("image", s);
            }
        }
        _ => {}
    }
}

/// Refusals and warnings for the computed fetches, now that the editable bindings are known.
pub fn judge(fetches: &[Fetch], editable: &HashSet<String>, report: &mut Report) {
    for f in fetches {
        let typed: Vec<&str> = f.names.iter().map(String::as_str).filter(|n| editable.contains(*n)).collect();
        if let Some(first) = typed.first() {
            report.at(f.at.clone());
            report.refuse(Rule::DataLeak, format!(
                "{} builds its {} from what the user types (\"{first}\"), so rendering the form sends that to another server as it is typed; use a constant URL, or build it only from process data the form does not let the user change.",
                f.who, f.what
            ));
        } else if !f.names.is_empty() && f.what != DOCUMENTS {
            report.warn(format!(
                "{} builds its {} from process data ({}); the viewer fetches it when the form renders, so that host sees those values.",
                f.who,
                f.what,
                f.names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
            ));
        }
    }
}

/// The variable names a computed value reads: all of it when it is FEEL (`=…`), else what its
/// `{{ … }}` templates read. `None` when nothing is computed.
fn computed_names(s: &str) -> Option<Vec<String>> {
    let trimmed = s.trim_start();
    if let Some(feel) = trimmed.strip_prefix('=') {
        return Some(names(feel));
    }
    let mut found = Vec::new();
    let mut computed = false;
    let mut rest = s;
    while let Some(open) = rest.find("{{") {
        computed = true;
        let after = &rest[open + 2..];
        let close = after.find("}}").unwrap_or(after.len());
        found.extend(names(&after[..close]));
        rest = &after[close.min(after.len())..];
        if rest.len() < 2 {
            break;
        }
        rest = &rest[2..];
    }
    computed.then_some(found)
}

/// Markdown `![…](…)`, or an HTML `<img`, `src=`, `srcset=` or CSS `url(`.
fn shows_an_image(s: &str) -> bool {
    let lower = s.to_lowercase();
    lower.contains("![") || lower.contains("<img") || lower.contains("src=") || lower.contains("url(")
}

/// The heads of the variable names an expression reads (`order.total` reads `order` and
/// `order.total`), outside string literals, without FEEL's own words.
fn names(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '$' | '.')) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect::<String>().trim_end_matches('.').to_string();
            let head = word.split('.').next().unwrap_or("").to_string();
            let after_dot = start > 0 && chars[start - 1] == '.';
            if !after_dot && !KEYWORDS.contains(&head.as_str()) && !head.is_empty() {
                if word != head {
                    out.push(word.clone());
                }
                out.push(head);
            }
            continue;
        }
        i += 1;
    }
    out.dedup();
    out
}

fn security(c: &Map<String, Value>, who: &str, report: &mut Report) {
    let Some(sec) = c.get("security").and_then(Value::as_object) else {
        return;
    };
    let on = |p: &str| sec.get(p).is_some_and(|v| v == &Value::Bool(true));
    if on("allowScripts") && on("allowSameOrigin") {
        report.refuse(Rule::DataLeak, format!(
            "{who} lets its embedded page run scripts with its own origin (security allowScripts and allowSameOrigin together), which lets that page lift its own sandbox; grant at most one of the two."
        ));
    }
    match (on("allowTopNavigation"), on("allowScripts")) {
        (true, true) => report.refuse(Rule::DataLeak, format!(
            "{who} lets scripts in its embedded page navigate the whole window away (security allowScripts with allowTopNavigation), for example to a look-alike login page; remove allowTopNavigation."
        )),
        (true, false) => report.warn(format!(
            "{who} lets links in its embedded page replace the whole window (security allowTopNavigation); remove it unless the page is your own."
        )),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_by_expressions() {
        assert_eq!(names(r#""https://x.example/p.png?d=" + amount"#), ["amount"]);
        assert_eq!(names("if order.total > 5 then \"a\" else \"b\""), ["order.total", "order"]);
        assert_eq!(names(r#""constant" "#), Vec::<String>::new());
        assert_eq!(computed_names("https://x.example/logo.png"), None);
        assert_eq!(computed_names("https://x.example/{{ user }}.png"), Some(vec!["user".to_string()]));
        assert_eq!(computed_names("=\"https://x.example/logo.png\""), Some(vec![]));
    }
}
