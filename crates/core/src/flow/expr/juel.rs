//! The JUEL reader (Camunda 7, Flowable, Activiti): which variables the `${...}` / `#{...}`
//! expressions inside a text read. Text outside them is literal.
//!
//! Rules: an identifier not after `.` is a root variable, its path running over `.name` and
//! `['name']`; JUEL's operator words (`empty`, `eq`, `div`, ...) and literals are not variables;
//! an identifier followed by `(` (or `ns:fn(`) is a function; the engine's own objects
//! (`execution`, `task`, `authorization`, ... see [`super::builtins::is_engine_object`]) are not
//! variables, but `execution.getVariable("x")` reads `x`. Any other root read through a method
//! (`order.getTotal()`) is still a read of the root (a Spring bean there is indistinguishable from a
//! variable, and a missed variable costs more than a spurious one). Lambda parameters (`x -> ...`)
//! are bound for the rest of the expression.
//!
//! A text that names the code an element runs says which roots are beans ([`Beans`]): in a delegate
//! reference (`#{svnService}`, `${factory.get(kind)}`) every root outside brackets is the bean (but
//! what a `?` tests to choose one, `${vip ? fastLane : slowLane}`, is data), and in an expression
//! evaluated for its effect (`${orderService.check(order)}`) a root outside brackets that a method is
//! called on is. What such a call is passed is read as usual. It knows nothing of BPMN.

use super::builtins::{is_engine_object, is_juel_keyword, is_variable_getter};
use super::{Collector, Read, bounded};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ident,
    Str,
    Dot,
    LBracket,
    RBracket,
    LParen,
    Colon,
    Other,
}

#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    kind: Kind,
    text: &'a str,
    start: usize,
}

fn tokens(s: &str, base: usize) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let tok = |kind, end: usize| Tok { kind, text: &s[i..end], start: base + i };
        match c {
            _ if c.is_whitespace() => {}
            '\'' | '"' => {
                let mut escaped = false;
                let mut end = s.len();
                for (j, ch) in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if ch == '\\' {
                        escaped = true;
                    } else if ch == c {
                        end = j;
                        break;
                    }
                }
                let content = &s[(i + 1).min(end)..end];
                out.push(Tok { kind: Kind::Str, text: content, start: base + i + 1 });
            }
            _ if c.is_alphabetic() || c == '_' || c == '$' => {
                let mut end = s.len();
                while let Some(&(j, ch)) = chars.peek() {
                    if ch.is_alphanumeric() || ch == '_' || ch == '$' {
                        chars.next();
                    } else {
                        end = j;
                        break;
                    }
                }
                out.push(tok(Kind::Ident, end));
            }
            _ if c.is_ascii_digit() => {
                while chars.peek().is_some_and(|&(_, ch)| ch.is_ascii_alphanumeric() || ch == '.') {
                    chars.next();
                }
            }
            '.' => out.push(tok(Kind::Dot, i + 1)),
            '[' => out.push(tok(Kind::LBracket, i + 1)),
            ']' => out.push(tok(Kind::RBracket, i + 1)),
            '(' => out.push(tok(Kind::LParen, i + 1)),
            ':' => out.push(tok(Kind::Colon, i + 1)),
            _ => out.push(tok(Kind::Other, i + c.len_utf8())),
        }
    }
    out
}

/// The `${`/`#{` expressions of `text`: (byte offset of the body, the body).
fn expressions(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if !(matches!(bytes[i], b'$' | b'#') && bytes[i + 1] == b'{') {
            i += 1;
            continue;
        }
        let start = i + 2;
        let (mut depth, mut quote, mut escaped, mut end) = (0usize, None, false, text.len());
        for (j, &b) in bytes.iter().enumerate().skip(start) {
            match quote {
                Some(_) if escaped => escaped = false,
                Some(_) if b == b'\\' => escaped = true,
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None if b == b'\'' || b == b'"' => quote = Some(b),
                None if b == b'{' => depth += 1,
                None if b == b'}' && depth == 0 => {
                    end = j;
                    break;
                }
                None if b == b'}' => depth -= 1,
                None => {}
            }
        }
        out.push((start, &text[start..end]));
        i = end + 1;
    }
    out
}

/// Which roots of an expression name beans (code the engine resolves) rather than variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Beans {
    /// None: every root is a variable.
    None,
    /// Every root outside brackets: the text resolves to the code that runs (`delegateExpression`).
    Roots,
    /// A root outside brackets that a method is called on (`${orderService.check(order)}`): the text
    /// is evaluated for its effect (`camunda:expression`).
    Receivers,
}

/// Variables read by the JUEL expressions inside `text`, leaving out the roots `beans` says are beans.
pub fn reads(text: &str, beans: Beans) -> Vec<Read> {
    let text = bounded(text);
    let mut out = Collector::default();
    for (base, body) in expressions(text) {
        expression(&tokens(body, base), beans, &mut out);
    }
    out.finish()
}

/// The bracket depth before each token: `(`, `[` and `{` open, `)`, `]` and `}` close.
fn depths(toks: &[Tok<'_>]) -> Vec<usize> {
    let mut depth = 0usize;
    toks.iter()
        .map(|t| {
            let before = depth;
            match (t.kind, t.text) {
                (Kind::LParen | Kind::LBracket, _) | (Kind::Other, "{") => depth += 1,
                (Kind::RBracket, _) | (Kind::Other, ")" | "}") => depth = depth.saturating_sub(1),
                _ => {}
            }
            before
        })
        .collect()
}

fn expression(toks: &[Tok<'_>], beans: Beans, out: &mut Collector) {
    let kind = |i: usize| toks.get(i).map(|t| t.kind);
    let text = |i: usize| toks.get(i).map_or("", |t| t.text);
    let depths = if beans == Beans::None { Vec::new() } else { depths(toks) };
    let outside = |i: usize| depths.get(i) == Some(&0);
    // what a delegate reference tests to choose its bean (`${vip ? fastLane : slowLane}`) is data
    let choice =
        toks.iter().enumerate().position(|(j, t)| t.text == "?" && outside(j) && t.kind == Kind::Other);
    let is_bean_root = |i: usize| beans == Beans::Roots && outside(i) && choice.is_none_or(|q| i > q);
    let mut bound: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        let at = i;
        i += 1;
        if t.kind != Kind::Ident || is_juel_keyword(t.text) || (i > 1 && toks[i - 2].kind == Kind::Dot) {
            continue;
        }
        if kind(i) == Some(Kind::LParen) {
            continue;
        }
        if kind(i) == Some(Kind::Colon)
            && kind(i + 1) == Some(Kind::Ident)
            && kind(i + 2) == Some(Kind::LParen)
        {
            i += 2;
            continue;
        }
        if text(i) == "-" && text(i + 1) == ">" {
            bound.insert(t.text);
            continue;
        }
        if is_engine_object(t.text) {
            let getter = kind(i) == Some(Kind::Dot)
                && is_variable_getter(text(i + 1))
                && kind(i + 2) == Some(Kind::LParen)
                && kind(i + 3) == Some(Kind::Str);
            if getter && !toks[i + 3].text.is_empty() {
                let name = toks[i + 3].text.to_string();
                out.add(toks[i + 3].start, Read { path: name.clone(), name });
            }
            continue;
        }
        if bound.contains(&t.text) || is_bean_root(at) {
            continue;
        }
        let mut path = t.text.to_string();
        loop {
            if kind(i) == Some(Kind::Dot)
                && kind(i + 1) == Some(Kind::Ident)
                && kind(i + 2) != Some(Kind::LParen)
            {
                path.push('.');
                path.push_str(text(i + 1));
                i += 2;
            } else if kind(i) == Some(Kind::LBracket)
                && kind(i + 1) == Some(Kind::Str)
                && kind(i + 2) == Some(Kind::RBracket)
                && is_plain_name(text(i + 1))
            {
                path.push('.');
                path.push_str(text(i + 1));
                i += 3;
            } else {
                break;
            }
        }
        let called = kind(i) == Some(Kind::Dot)
            && kind(i + 1) == Some(Kind::Ident)
            && kind(i + 2) == Some(Kind::LParen);
        if beans == Beans::Receivers && called && outside(at) {
            continue;
        }
        out.add(t.start, Read { name: t.text.to_string(), path });
    }
}

fn is_plain_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_expression_and_skips_strings_with_braces() {
        let found: Vec<&str> =
            expressions("a ${x} b #{y == '}'} ${open").into_iter().map(|(_, e)| e).collect();
        assert_eq!(found, vec!["x", "y == '}'", "open"]);
    }

    fn paths(text: &str, beans: Beans) -> Vec<String> {
        reads(text, beans).into_iter().map(|r| r.path).collect()
    }

    #[test]
    fn a_delegate_reference_names_beans_and_reads_what_it_passes() {
        let table: &[(&str, &[&str])] = &[
            ("#{svnService}", &[]),
            ("${myDelegate}", &[]),
            ("${beans.mailer}", &[]),
            ("${factory.get(kind)}", &["kind"]),
            ("${registry.find(order.type, execution.getVariable('region'))}", &["order.type", "region"]),
            ("${vip ? fastLane : slowLane}", &["vip"]),
            ("${execution}", &[]),
        ];
        for (text, want) in table {
            assert_eq!(paths(text, Beans::Roots), *want, "{text:?}");
        }
    }

    #[test]
    fn an_expression_run_for_its_effect_names_the_bean_it_calls() {
        let table: &[(&str, &[&str])] = &[
            ("${orderService.check(order)}", &["order"]),
            ("#{ledger.book(amount, customer.id)}", &["amount", "customer.id"]),
            ("${mail.templates.send(to, order.getTotal())}", &["to", "order"]),
            ("${approved}", &["approved"]),
            ("${order.total}", &["order.total"]),
            ("${execution.setVariable('status', next)}", &["next"]),
            ("${x > 0 && svc.run(y)}", &["x", "y"]),
        ];
        for (text, want) in table {
            assert_eq!(paths(text, Beans::Receivers), *want, "{text:?}");
        }
        assert_eq!(paths("${orderService.check(order)}", Beans::None), ["orderService", "order"]);
    }
}
