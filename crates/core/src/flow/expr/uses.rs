//! What kind of value a FEEL expression treats a variable as, from the tokens around each of its
//! reads: the argument of a date, list, number or string function, an operand of arithmetic with a
//! number, a list filtered or iterated, text joined to a string, a whole condition or a `not(...)`.
//! Like the reader in `feel.rs`, this is no parser: any text yields the uses that can be seen, and a
//! use that cannot be told is left out.

use super::bounded;
use super::builtins::{DATE_FUNCTIONS, LIST_FUNCTIONS, NUMBER_FUNCTIONS, TEXT_FUNCTIONS, is_feel_keyword};
use super::lexer::{Kind, Tok, tokens};

/// How an expression uses a variable's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueUse {
    /// In arithmetic with a number, or as a number function's argument (`x * 1.2`, `abs(x)`).
    Number,
    /// As a date or duration function's argument (`date(x)`, `x + duration("P1D")`).
    Date,
    /// As a list: a list function's argument, filtered, indexed or iterated (`count(x)`, `x[1]`,
    /// `for i in x`).
    List,
    /// As text: a string function's argument (`upper case(x)`).
    Text,
    /// Joined into longer text (`"Summarise: " + x`): what a prompt or a message is written from.
    Prose,
    /// As a whole condition, or negated (`= approved`, `not(x)`, `x and y`).
    Boolean,
}

/// The uses each variable (by its dotted path) gets in `expr`, the FEEL text after its `=`; a
/// variable used twice alike is listed once. `condition`: the text is a whole condition, where a
/// name standing alone is a boolean.
pub(crate) fn value_uses(expr: &str, condition: bool) -> Vec<(String, ValueUse)> {
    let toks = tokens(bounded(expr));
    let mut calls: Vec<Option<String>> = Vec::new();
    // the brackets open around a token, each whether it filters a list (`items[price > 10]`), whose
    // names are the items' members, not variables
    let mut brackets: Vec<bool> = Vec::new();
    let mut out: Vec<(String, ValueUse)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        match t.kind {
            Kind::LParen => calls.push(call_name(&toks, i)),
            Kind::RParen => drop(calls.pop()),
            Kind::LBracket => brackets.push(i.checked_sub(1).is_some_and(|b| filters(toks[b]))),
            Kind::RBracket => drop(brackets.pop()),
            Kind::Word if is_name_start(&toks, i) => {
                let (path, end) = path_at(&toks, i);
                let member = brackets.iter().any(|&filter| filter);
                if !member && toks.get(end).map(|t| t.kind) != Some(Kind::LParen) {
                    let innermost = calls.last().cloned().flatten();
                    if let Some(u) = use_of(&toks, i, end, innermost.as_deref(), condition) {
                        let entry = (path, u);
                        if !out.contains(&entry) {
                            out.push(entry);
                        }
                    }
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Whether the word at `i` starts a variable's name: not a keyword, not a member after `.`, not a
/// context key before `:`, not the continuation of a multi-word name.
fn is_name_start(toks: &[Tok<'_>], i: usize) -> bool {
    let name_word = |t: Option<&Tok<'_>>| t.is_some_and(|t| t.kind == Kind::Word && !is_feel_keyword(t.text));
    let before = i.checked_sub(1).map(|b| &toks[b]);
    !is_feel_keyword(toks[i].text)
        && before.is_none_or(|b| b.kind != Kind::Dot)
        && !name_word(before)
        && !name_word(toks.get(i + 1))
        && toks.get(i + 1).map(|t| t.kind) != Some(Kind::Colon)
}

/// The dotted path that starts at `i` and the index after it.
fn path_at(toks: &[Tok<'_>], i: usize) -> (String, usize) {
    let mut path = toks[i].text.to_string();
    let mut j = i + 1;
    while toks.get(j).map(|t| t.kind) == Some(Kind::Dot)
        && toks.get(j + 1).map(|t| t.kind) == Some(Kind::Word)
    {
        path.push('.');
        path.push_str(toks[j + 1].text);
        j += 2;
    }
    (path, j)
}

/// The name of the function whose `(` is at `open`, its words joined (`date and time`); none for a
/// bracket that calls nothing.
fn call_name(toks: &[Tok<'_>], open: usize) -> Option<String> {
    let mut words = Vec::new();
    let mut j = open;
    while j > 0 && toks[j - 1].kind == Kind::Word {
        words.push(toks[j - 1].text);
        j -= 1;
    }
    words.reverse();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The use of the name at `start..end`, from the function it is an argument of and its neighbours.
fn use_of(
    toks: &[Tok<'_>],
    start: usize,
    end: usize,
    call: Option<&str>,
    condition: bool,
) -> Option<ValueUse> {
    let before = start.checked_sub(1).map(|b| toks[b]);
    let after = toks.get(end).copied();
    // the function's first argument: what follows its `(` directly
    let first_argument = before.is_some_and(|b| b.kind == Kind::LParen);
    match call {
        Some(f) if DATE_FUNCTIONS.contains(&f) && first_argument => return Some(ValueUse::Date),
        Some(f) if LIST_FUNCTIONS.contains(&f) && first_argument => return Some(ValueUse::List),
        Some(f) if NUMBER_FUNCTIONS.contains(&f) && first_argument => return Some(ValueUse::Number),
        Some(f) if TEXT_FUNCTIONS.contains(&f) && first_argument => return Some(ValueUse::Text),
        Some("not") if first_argument && after.is_some_and(|a| a.kind == Kind::RParen) => {
            return Some(ValueUse::Boolean);
        }
        _ => {}
    }
    if after.is_some_and(|a| a.kind == Kind::LBracket) {
        return Some(ValueUse::List);
    }
    if before.is_some_and(|b| b.text == "in") && iterated(toks, start) {
        return Some(ValueUse::List);
    }
    let other_side = [
        (arithmetic(before), start.checked_sub(2).map(|b| toks[b])),
        (arithmetic(after), toks.get(end + 1).copied()),
    ];
    for (op, operand) in other_side {
        let (Some(op), Some(operand)) = (op, operand) else { continue };
        match operand.kind {
            Kind::Num => return Some(ValueUse::Number),
            // multiplied or divided: a number whatever the other side is (a duration times a count)
            kind if kind != Kind::Str && matches!(op.text, "*" | "/") => return Some(ValueUse::Number),
            Kind::Str if op.text == "+" => return Some(ValueUse::Prose),
            Kind::Word if matches!(operand.text, "duration" | "date") => return Some(ValueUse::Date),
            _ => {}
        }
    }
    if let Some(u) = compared_with(toks, start, end) {
        return Some(u);
    }
    let logical = |t: Option<Tok<'_>>| t.is_none_or(|t| matches!(t.text, "and" | "or"));
    (condition && logical(before) && logical(after)).then_some(ValueUse::Boolean)
}

/// Whether a `[` after `t` filters or indexes what `t` ends (a name, a call, another filter), rather
/// than opening a list written out (after `in`, an operator, a comma).
fn filters(t: Tok<'_>) -> bool {
    (t.kind == Kind::Word && !is_feel_keyword(t.text)) || matches!(t.kind, Kind::RParen | Kind::RBracket)
}

/// What the name at `start..end` is compared with, on either side (`rating > 3`, `3 <= rating`,
/// `due < today()`): a number makes it a number, a date or time a date. FEEL writes `>=` as two
/// operator tokens, and a negative number as `-` before it.
fn compared_with(toks: &[Tok<'_>], start: usize, end: usize) -> Option<ValueUse> {
    let comparison = |t: &Tok<'_>| t.kind == Kind::Op && matches!(t.text, "<" | ">" | "=" | "!");
    let after: Vec<Tok<'_>> = toks[end..].iter().copied().take_while(comparison).take(2).collect();
    let before: Vec<Tok<'_>> = toks[..start].iter().rev().copied().take_while(comparison).take(2).collect();
    let operand = |ops: usize, at: Option<usize>, forward: bool| -> Option<ValueUse> {
        if ops == 0 {
            return None;
        }
        let mut i = at?;
        if forward && toks.get(i).is_some_and(|t| t.kind == Kind::Op && t.text == "-") {
            i += 1;
        }
        let t = toks.get(i)?;
        match t.kind {
            Kind::Num => Some(ValueUse::Number),
            Kind::Word if forward && is_date_call(toks, i) => Some(ValueUse::Date),
            _ => None,
        }
    };
    operand(after.len(), Some(end + after.len()), true)
        .or_else(|| operand(before.len(), start.checked_sub(before.len() + 1), false))
}

/// Whether a date or time function's call starts at `i` (`today()`, `date("2024-01-01")`).
fn is_date_call(toks: &[Tok<'_>], i: usize) -> bool {
    let next_open = |j: usize| toks.get(j).is_some_and(|t| t.kind == Kind::LParen);
    match toks[i].text {
        "today" | "now" | "date" | "time" => next_open(i + 1),
        _ => false,
    }
}

/// `t` when it is an arithmetic operator.
fn arithmetic(t: Option<Tok<'_>>) -> Option<Tok<'_>> {
    t.filter(|t| t.kind == Kind::Op && matches!(t.text, "+" | "-" | "*" | "/" | "**"))
}

/// Whether the `in` before `start` is a `for`/`some`/`every` header's, not a comparison's: the
/// header's keyword comes two words before it (`for item in items`).
fn iterated(toks: &[Tok<'_>], start: usize) -> bool {
    start.checked_sub(3).is_some_and(|k| matches!(toks[k].text, "for" | "some" | "every"))
}

#[cfg(test)]
mod tests {
    use super::ValueUse::*;
    use super::*;

    fn uses(expr: &str) -> Vec<(String, ValueUse)> {
        value_uses(expr, false)
    }

    #[test]
    fn function_arguments_say_the_kind() {
        assert_eq!(uses("date(start) + duration(\"P1D\")"), [("start".into(), Date)]);
        assert_eq!(uses("count(order.items) > 0"), [("order.items".into(), List)]);
        assert_eq!(uses("upper case(name)"), [("name".into(), Text)]);
        assert_eq!(uses("abs(delta)"), [("delta".into(), Number)]);
        // a later argument is not told by the function
        assert_eq!(uses("substring(name, start)"), [("name".into(), Text)]);
    }

    #[test]
    fn arithmetic_with_a_number_is_a_number_and_text_joined_is_prose() {
        assert_eq!(uses("amount * 1.19"), [("amount".into(), Number)]);
        assert_eq!(uses("100 - discount"), [("discount".into(), Number)]);
        assert_eq!(uses("\"Summarise: \" + question"), [("question".into(), Prose)]);
        // two variables added tell nothing; multiplied, both are numbers
        assert!(uses("a + b").is_empty());
        assert_eq!(uses("quantity * price"), [("quantity".into(), Number), ("price".into(), Number)]);
        assert_eq!(uses("duration(\"P1D\") * days"), [("days".into(), Number)]);
    }

    #[test]
    fn compared_with_a_number_is_a_number_and_with_a_date_a_date() {
        assert_eq!(uses("if rating > 3 then \"good\" else \"bad\""), [("rating".into(), Number)]);
        assert_eq!(uses("3 <= level"), [("level".into(), Number)]);
        assert_eq!(uses("balance >= -10"), [("balance".into(), Number)]);
        assert_eq!(uses("code = 404 or code != 200"), [("code".into(), Number)]);
        assert_eq!(uses("due < today()"), [("due".into(), Date)]);
        assert_eq!(uses("start >= date(\"2024-01-01\")"), [("start".into(), Date)]);
        // with a text, another variable or a call that is no date: nothing told
        assert!(uses("status = \"open\"").is_empty());
        assert!(uses("weight < maxWeight").is_empty());
        assert!(uses("limit > count(items)").iter().all(|(n, _)| n != "limit"));
    }

    #[test]
    fn lists_are_filtered_indexed_and_iterated() {
        assert_eq!(uses("items[price > 10]"), [("items".into(), List)]);
        // a filter's names are the items' members
        assert_eq!(uses("items[price * 2 > limit]"), [("items".into(), List)]);
        // a list written out holds variables
        assert_eq!(uses("x in [base * 2, 5]"), [("base".into(), Number)]);
        assert_eq!(uses("for i in lines return i.total"), [("lines".into(), List)]);
        assert_eq!(uses("some r in risks satisfies r = \"high\""), [("risks".into(), List)]);
        // a comparison's `in` is not a list of the variable
        assert!(uses("status in [\"a\", \"b\"]").is_empty());
    }

    #[test]
    fn a_condition_of_names_alone_reads_booleans() {
        assert_eq!(value_uses("approved", true), [("approved".into(), Boolean)]);
        assert_eq!(value_uses("not(taking_full_control)", true), [("taking_full_control".into(), Boolean)]);
        assert_eq!(
            value_uses("urgent and approved", true),
            [("urgent".into(), Boolean), ("approved".into(), Boolean)]
        );
        assert!(value_uses("approved", false).is_empty());
        assert_eq!(value_uses("amount > 10", true), [("amount".into(), Number)]);
    }

    #[test]
    fn calls_members_and_keys_are_no_reads() {
        assert!(uses("{total: sum(x)}").iter().all(|(n, _)| n != "total"));
        assert_eq!(uses("count(order.items)")[0].0, "order.items");
        assert!(uses("now() > date(\"2024-01-01\")").is_empty());
    }
}
