//! Allowed values: the plain enumerations among FEEL unary tests (`"gold","silver"`, `1,2,3`).
//!
//! `inputValues` and `outputValues` hold unary tests, which may be anything FEEL allows (`[1..10]`,
//! `> 5`, `not("x")`). Only a comma-separated list of string or number literals is a set of options a
//! form can offer; anything else yields no values, never an error.

/// The values of a unary-tests text that is a list of string or number literals, in order, without
/// repeats: strings unquoted and unescaped, numbers as written. Empty for any other text.
pub fn allowed_values(text: &str) -> Vec<String> {
    let mut values: indexmap::IndexSet<String> = indexmap::IndexSet::new();
    let mut rest = text.trim();
    if rest.is_empty() {
        return Vec::new();
    }
    loop {
        let (value, after) = match literal(rest) {
            Some(found) => found,
            None => return Vec::new(),
        };
        values.insert(value);
        rest = after.trim_start();
        if rest.is_empty() {
            return values.into_iter().collect();
        }
        match rest.strip_prefix(',') {
            Some(after_comma) => rest = after_comma.trim_start(),
            None => return Vec::new(),
        }
    }
}

/// The texts of a unary-tests text that is a list of string literals only (`"a", "b"`), in order,
/// without repeats; none for any other text, a number among them.
pub(crate) fn string_values(text: &str) -> Option<Vec<String>> {
    let mut values: indexmap::IndexSet<String> = indexmap::IndexSet::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if !rest.starts_with('"') {
            return None;
        }
        let (value, after) = literal(rest)?;
        values.insert(value);
        rest = after.trim_start();
        if !rest.is_empty() {
            rest = rest.strip_prefix(',')?.trim_start();
        }
    }
    (!values.is_empty()).then(|| values.into_iter().collect())
}

/// The text of a FEEL expression that is exactly one string literal (`"REVIEW"`), unescaped.
pub(crate) fn string_literal(text: &str) -> Option<String> {
    let text = text.trim();
    if !text.starts_with('"') {
        return None;
    }
    let (value, rest) = literal(text)?;
    rest.trim().is_empty().then_some(value)
}

/// A string or number literal at the start of `text`, and the text after it.
fn literal(text: &str) -> Option<(String, &str)> {
    if let Some(body) = text.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Some((out, &body[i + 1..])),
                '\\' => match chars.next()?.1 {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    other => out.push(other), // `\"`, `\\`, `\'` and anything unknown: the character
                },
                c => out.push(c),
            }
        }
        return None; // unclosed
    }
    let bytes = text.as_bytes();
    let mut end = usize::from(bytes.first() == Some(&b'-'));
    let digits_start = end;
    while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
        end += 1;
    }
    let number = &text[digits_start..end];
    let well_formed = !number.is_empty()
        && number.bytes().filter(|&b| b == b'.').count() <= 1
        && number.bytes().any(|b| b.is_ascii_digit());
    // a number must end the item: `1..10` (a range) or `5x` is not a literal
    let next = text[end..].trim_start();
    (well_formed && (next.is_empty() || next.starts_with(',')))
        .then(|| (text[..end].to_string(), &text[end..]))
}

/// Whether a rule's input entry tests its input as a list: `list contains(?, "x")`, `"x" in ?`,
/// `"x" in purchases` (the input's own expression), `some p in ? satisfies ..`, `count(?) > 1`.
/// Quoted text is left out of the look.
pub(crate) fn tests_list(entry: &str, input: &str) -> bool {
    let mut plain = String::with_capacity(entry.len());
    let mut quoted = false;
    for c in entry.chars() {
        if c == '"' {
            quoted = !quoted;
            plain.push('"');
        } else if !quoted {
            plain.push(c);
        }
    }
    let input = input.trim();
    let is_input = |rest: &str| past_input(rest, input).is_some();
    let calls = ["list contains(", "count(", "sublist(", "index of("];
    let calls_on_input =
        calls.iter().any(|call| plain.match_indices(call).any(|(at, _)| is_input(&plain[at + call.len()..])));
    // `x in ?`: a value looked for in the input (a unary test `in` has nothing before it)
    let in_input = plain
        .match_indices(" in ")
        .any(|(at, _)| !plain[..at].trim().is_empty() && is_input(&plain[at + 4..]));
    calls_on_input || in_input
}

/// What follows the input at the start of `rest` (after white space), if it is there: `?`, or the
/// input's own expression (`input`, trimmed) as a whole name (`purchases`, not `purchasesOld`).
fn past_input<'e>(rest: &'e str, input: &str) -> Option<&'e str> {
    let rest = rest.trim_start();
    if let Some(after) = rest.strip_prefix('?') {
        return Some(after);
    }
    let after = rest.strip_prefix(input).filter(|_| !input.is_empty())?;
    (!after.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')).then_some(after)
}

/// The texts a rule's input entry looks for in its input as a list: `"x"` in `list contains(?, "x")`
/// (or the input's own expression for `?`) and in `"x" in ?`, in order, without repeats. Text inside
/// another literal is no test.
pub(crate) fn looked_for(entry: &str, input: &str) -> Vec<String> {
    let input = input.trim();
    let is_input = |rest| past_input(rest, input);
    let mut found: indexmap::IndexSet<String> = indexmap::IndexSet::new();
    let mut rest = entry;
    while let Some(c) = rest.chars().next() {
        if c == '"' {
            let Some((value, after)) = literal(rest) else { break };
            if let Some(tail) = after.trim_start().strip_prefix("in ")
                && is_input(tail).is_some()
            {
                found.insert(value);
            }
            rest = after;
        } else if let Some(call) = rest.strip_prefix("list contains(") {
            if let Some(arg) = is_input(call).and_then(|a| a.trim_start().strip_prefix(','))
                && let Some((value, _)) =
                    arg.trim_start().starts_with('"').then(|| literal(arg.trim_start())).flatten()
            {
                found.insert(value);
            }
            rest = call;
        } else {
            rest = &rest[c.len_utf8()..];
        }
    }
    found.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_a_rule_looks_for_in_a_list() {
        let found = |entry: &str| looked_for(entry, "purchases");
        assert_eq!(found(r#"list contains(?, "Home")"#), ["Home"]);
        assert_eq!(found(r#"list contains( purchases , "a") or list contains(?,"b")"#), ["a", "b"]);
        assert_eq!(found(r#""x" in ? and "y" in purchases and "x" in ?"#), ["x", "y"], "no repeats");
        for entry in
            [r#""list contains(?, \"a\")""#, r#"list contains(other, "a")"#, r#""a" in purchasesOld"#, "-"]
        {
            assert!(found(entry).is_empty(), "{entry}");
        }
        assert_eq!(found(r#"not(list contains(?, "spam"))"#), ["spam"], "what the rule tells apart");
    }

    #[test]
    fn string_and_number_enumerations() {
        assert_eq!(allowed_values(r#""gold","silver", "bronze" "#), ["gold", "silver", "bronze"]);
        assert_eq!(allowed_values(r#""a, b","say \"hi\"""#), ["a, b", "say \"hi\""]);
        assert_eq!(allowed_values("1, 2.5,-3"), ["1", "2.5", "-3"]);
        assert_eq!(allowed_values(r#""x","x""#), ["x"], "no repeats");
    }

    #[test]
    fn anything_else_yields_nothing() {
        for text in
            ["", "[1..10]", "> 5", r#"not("x")"#, r#""a", b"#, r#""open"#, "1..2", r#""a" "b""#, "-", "."]
        {
            assert!(allowed_values(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn single_string_literals() {
        assert_eq!(string_literal(r#" "REVIEW" "#).as_deref(), Some("REVIEW"));
        assert_eq!(string_literal(r#""a","b""#), None);
        assert_eq!(string_literal("42"), None);
        assert_eq!(string_literal(r#""a" + x"#), None);
    }
}
