//! Reading expressions for the variables they read: FEEL (Camunda 8), JUEL (Camunda 7, Flowable) and
//! Zeebe values (`=` FEEL, or static text with `{{ }}` template parts).
//!
//! STAND-IN: replaced by the feel branch. A crude identifier scanner with the real module's API, so
//! the data-flow stage can be built and tested before the real reader lands. It skips string
//! literals, keywords, function calls, path segments and context keys, and nothing more: built-in
//! names used as plain values, names bound by `for`/`some`/`every` and filter `item` are read as
//! variables.

/// One variable an expression reads: its name and the path it is read by (`order.total` reads
/// `order` by the path `order.total`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Read {
    /// The variable.
    pub name: String,
    /// The dotted path it is read by; the name itself when read whole.
    pub path: String,
}

const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "true",
    "false",
    "null",
    "if",
    "then",
    "else",
    "for",
    "in",
    "return",
    "some",
    "every",
    "satisfies",
    "between",
    "instance",
    "of",
    "function",
    "empty",
    "eq",
    "ne",
    "lt",
    "gt",
    "le",
    "ge",
    "div",
    "mod",
];

/// The variables a FEEL expression (without its leading `=`) reads, in order of first appearance.
pub fn feel_reads(expr: &str) -> Vec<Read> {
    scan(expr)
}

/// The variables the `${...}` / `#{...}` parts of a text read.
pub fn juel_reads(text: &str) -> Vec<Read> {
    let mut reads = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("${").or_else(|| rest.find("#{")) {
        let inner = &rest[at + 2..];
        let end = inner.find('}').unwrap_or(inner.len());
        extend(&mut reads, scan(&inner[..end]));
        rest = &inner[end..];
    }
    reads
}

/// The variables a Zeebe value reads: FEEL after a leading `=`, else the `{{ }}` template parts.
/// Connector secrets (`secrets.X`) are never variables.
pub fn zeebe_value_reads(value: &str) -> Vec<Read> {
    let mut reads = Vec::new();
    if let Some(feel) = value.strip_prefix('=') {
        extend(&mut reads, scan(feel));
    } else {
        let mut rest = value;
        while let Some(at) = rest.find("{{") {
            let inner = &rest[at + 2..];
            let end = inner.find("}}").unwrap_or(inner.len());
            extend(&mut reads, scan(&inner[..end]));
            rest = &inner[end..];
        }
    }
    reads.retain(|r| r.name != "secrets");
    reads
}

fn extend(into: &mut Vec<Read>, more: Vec<Read>) {
    for r in more {
        if !into.iter().any(|x| x.name == r.name) {
            into.push(r);
        }
    }
}

fn scan(expr: &str) -> Vec<Read> {
    let chars: Vec<char> = expr.chars().collect();
    let mut reads: Vec<Read> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            let before = chars[..start].iter().rev().find(|c| !c.is_whitespace());
            let after = chars[i..].iter().find(|c| !c.is_whitespace());
            let segment = before == Some(&'.');
            let call = after == Some(&'(');
            let key = after == Some(&':') && matches!(before, Some('{') | Some(','));
            if segment || call || key || KEYWORDS.contains(&name.as_str()) {
                continue;
            }
            let mut path = name.clone();
            let mut j = i;
            while j + 1 < chars.len()
                && chars[j] == '.'
                && (chars[j + 1].is_alphabetic() || chars[j + 1] == '_')
            {
                let s = j + 1;
                j = s;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                path.push('.');
                path.extend(&chars[s..j]);
            }
            if !reads.iter().any(|r| r.name == name) {
                reads.push(Read { name, path });
            }
            continue;
        }
        i += 1;
    }
    reads
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(reads: Vec<Read>) -> Vec<String> {
        reads.into_iter().map(|r| r.name).collect()
    }

    #[test]
    fn the_stand_in_finds_plain_names() {
        assert_eq!(names(feel_reads("order.total * 2 > limit")), ["order", "limit"]);
        assert_eq!(feel_reads("order.total")[0].path, "order.total");
        assert_eq!(names(feel_reads(r#"{a: x, b: "y"}"#)), ["x"]);
        assert_eq!(names(juel_reads("${amount > 10} and #{b}")), ["amount", "b"]);
        assert_eq!(names(zeebe_value_reads("Bearer {{secrets.TOKEN}} {{user}}")), ["user"]);
        assert_eq!(names(zeebe_value_reads("plain")), Vec::<String>::new());
    }
}
