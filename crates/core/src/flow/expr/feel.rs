//! The FEEL reader: which variables a FEEL expression reads, from its tokens and a stack of the
//! brackets it is inside — not a parser, so that any text, valid or not, yields its plausible reads.
//!
//! Rules (each has a test in `tests.rs`):
//! - a name is a run of words (`Current Vacation Status`), or a backtick name; a keyword ends it;
//! - a name followed by `(` is a call, never a read (built-ins, user functions, `bpmnError`); the
//!   Camunda built-ins are matched first, words and keywords alike, so `get or else(` and
//!   `date and time(` are calls; a built-in *name* used without `(` is a variable (unlike the
//!   reference resolver, whose quirk 4 drops `count`, `sum`, `date` even then);
//! - the path runs as long as `.name` follows; a name after `.` is a member, not a read;
//! - `{key: value}`: the key (a name, a string, or anything up to the `:`) is not read, and is bound
//!   for the entries after it; a named argument `f(name: value)` is not read;
//! - `for`/`some`/`every` names before `in`, and `function(x, y)` parameters, are bound until the
//!   bracket they appear in closes (or the end);
//! - a filter `list[...]`: `item` is the element; when the filter does not mention `item`, its bare
//!   names are the element's properties (`orders[amount > 10]` reads `orders`, not `amount`), as the
//!   reference resolver also reads them; when it does, its other names are variables
//!   (`list[item > limit]` reads `list` and `limit`);
//! - `instance of` skips the type; `?` (the unary-test input) is not a variable.
//!
//! It knows nothing of BPMN: it takes the text after the leading `=`.

use std::collections::HashSet;

use super::builtins::{builtin_words, is_feel_keyword};
use super::lexer::{Kind, Tok, tokens};
use super::{Collector, MAX_DEPTH, Read, bounded};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Root,
    Paren,
    Params,
    List,
    Filter,
    Context,
}

#[derive(Debug)]
struct Frame {
    kind: FrameKind,
    /// Names bound here: iteration variables, parameters, earlier context keys.
    bound: HashSet<String>,
    /// Inside a `for`/`some`/`every` header, before `return`/`satisfies`.
    quantifier: bool,
    /// A context's next token starts an entry (its key).
    entry_start: bool,
    /// The key of the context entry being read, bound once the entry ends.
    key: Option<String>,
    /// A filter's reads, kept until it is known whether they are the item's properties.
    held: Vec<(usize, Read)>,
    /// The filter mentions `item`.
    uses_item: bool,
    /// Inside a parameter list, after a `:` (a type annotation).
    in_type: bool,
}

impl Frame {
    fn new(kind: FrameKind) -> Self {
        Frame {
            kind,
            bound: HashSet::new(),
            quantifier: false,
            entry_start: kind == FrameKind::Context,
            key: None,
            held: Vec::new(),
            uses_item: false,
            in_type: false,
        }
    }
}

/// Variables a FEEL expression reads (text without the leading `=`).
pub fn reads(expr: &str) -> Vec<Read> {
    let expr = bounded(expr);
    if let Some(read) = plain_path(expr) {
        return vec![read];
    }
    Scanner::new(expr).run()
}

/// The commonest expression, a bare name or dotted path (`=customer.email`), read without the
/// scanner: what the scanner reads from it, at a fraction of the cost. Anything else is `None`.
fn plain_path(expr: &str) -> Option<Read> {
    let text = expr.trim();
    let mut segments = text.split('.');
    let first = segments.next()?;
    let is_identifier = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let member = |s: &str| is_identifier(s) && !is_feel_keyword(s);
    if !member(first) || !segments.all(member) {
        return None;
    }
    Some(Read { name: first.to_string(), path: text.to_string() })
}

struct Scanner<'a> {
    src: &'a str,
    toks: Vec<Tok<'a>>,
    stack: Vec<Frame>,
    out: Collector,
}

fn is_name_word(t: &Tok<'_>) -> bool {
    t.kind == Kind::Word && !is_feel_keyword(t.text)
}

impl<'a> Scanner<'a> {
    fn new(expr: &'a str) -> Self {
        Scanner {
            src: expr,
            toks: tokens(expr),
            stack: vec![Frame::new(FrameKind::Root)],
            out: Collector::default(),
        }
    }

    fn kind(&self, i: usize) -> Option<Kind> {
        self.toks.get(i).map(|t| t.kind)
    }

    fn word_is(&self, i: usize, w: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Word && t.text == w)
    }

    fn top(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("the root frame is never popped")
    }

    fn run(mut self) -> Vec<Read> {
        let mut i = 0;
        while i < self.toks.len() {
            i = self.step(i);
        }
        while self.stack.len() > 1 {
            self.pop();
        }
        self.out.finish()
    }

    /// Handles the token at `i`; returns the index of the next one to look at.
    fn step(&mut self, i: usize) -> usize {
        let t = self.toks[i];
        if self.top().entry_start {
            self.top().entry_start = false;
            if let Some(after) = self.context_key(i) {
                return after;
            }
        }
        match t.kind {
            Kind::Word | Kind::Quoted => self.name(i),
            Kind::LParen => {
                self.push(FrameKind::Paren);
                i + 1
            }
            Kind::LBracket => {
                let filter = i > 0
                    && match self.toks[i - 1].kind {
                        Kind::Word => !is_feel_keyword(self.toks[i - 1].text),
                        Kind::Quoted | Kind::RBracket | Kind::RParen | Kind::RBrace | Kind::Str => true,
                        _ => false,
                    };
                self.push(if filter { FrameKind::Filter } else { FrameKind::List });
                i + 1
            }
            Kind::LBrace => {
                self.push(FrameKind::Context);
                i + 1
            }
            Kind::RParen => self.close(i, &[FrameKind::Paren, FrameKind::Params]),
            Kind::RBracket => self.close(i, &[FrameKind::List, FrameKind::Filter]),
            Kind::RBrace => self.close(i, &[FrameKind::Context]),
            Kind::Comma => {
                let top = self.top();
                match top.kind {
                    FrameKind::Context => {
                        self.end_entry();
                        self.top().entry_start = true;
                    }
                    FrameKind::Params => top.in_type = false,
                    _ => {}
                }
                i + 1
            }
            Kind::Colon => {
                if self.top().kind == FrameKind::Params {
                    self.top().in_type = true;
                }
                i + 1
            }
            _ => i + 1,
        }
    }

    /// At the start of a context entry: if a `:` follows before any bracket or `,`, the tokens up
    /// to it are the key; bind it and return the index after the `:`.
    fn context_key(&mut self, i: usize) -> Option<usize> {
        let colon = (i..self.toks.len()).find(|&j| {
            !matches!(
                self.toks[j].kind,
                Kind::Word | Kind::Quoted | Kind::Str | Kind::Num | Kind::Op | Kind::Dot
            )
        })?;
        if colon == i || self.toks[colon].kind != Kind::Colon {
            return None;
        }
        let key = if colon == i + 1 && matches!(self.toks[i].kind, Kind::Str | Kind::Quoted) {
            self.toks[i].text.to_string()
        } else {
            let words = self.src[self.toks[i].start..self.toks[colon].start].split_whitespace();
            words.collect::<Vec<_>>().join(" ")
        };
        self.top().key = Some(key);
        Some(colon + 1)
    }

    fn end_entry(&mut self) {
        let top = self.top();
        if let Some(key) = top.key.take() {
            top.bound.insert(key);
        }
    }

    fn push(&mut self, kind: FrameKind) {
        if self.stack.len() < MAX_DEPTH {
            self.stack.push(Frame::new(kind));
        }
    }

    /// A closing bracket: pops up to the nearest frame of one of `kinds`; ignored if there is none.
    fn close(&mut self, i: usize, kinds: &[FrameKind]) -> usize {
        if let Some(at) = self.stack.iter().rposition(|f| kinds.contains(&f.kind)) {
            while self.stack.len() > at {
                self.pop();
            }
        }
        i + 1
    }

    fn pop(&mut self) {
        let Some(frame) = self.stack.pop() else { return };
        if frame.kind == FrameKind::Filter && frame.uses_item {
            for (at, read) in frame.held {
                self.emit(at, read);
            }
        }
    }

    fn emit(&mut self, at: usize, read: Read) {
        match self.stack.iter_mut().rev().find(|f| f.kind == FrameKind::Filter) {
            Some(filter) => filter.held.push((at, read)),
            None => self.out.add(at, read),
        }
    }

    fn is_bound(&self, name: &str) -> bool {
        self.stack.iter().any(|f| f.bound.contains(name))
    }

    /// The words of a name starting at `i`: (its text, the index after it).
    fn name_run(&self, i: usize) -> (String, usize) {
        if self.toks[i].kind == Kind::Quoted {
            return (self.toks[i].text.to_string(), i + 1);
        }
        let mut j = i;
        while self.toks.get(j).is_some_and(is_name_word) {
            j += 1;
        }
        let words: Vec<&str> = self.toks[i..j].iter().map(|t| t.text).collect();
        (words.join(" "), j)
    }

    /// A word or backtick name at `i`.
    fn name(&mut self, i: usize) -> usize {
        let t = self.toks[i];
        let member = i > 0 && self.toks[i - 1].kind == Kind::Dot;
        if t.kind == Kind::Word {
            let words: Vec<&str> =
                self.toks[i..].iter().take(4).take_while(|t| t.kind == Kind::Word).map(|t| t.text).collect();
            let n = builtin_words(&words);
            if n > 0 && self.kind(i + n) == Some(Kind::LParen) {
                return i + n;
            }
            if is_feel_keyword(t.text) {
                return self.keyword(i);
            }
        }
        let (name, after) = self.name_run(i);
        let next = self.kind(after);
        if member || next == Some(Kind::LParen) || name == "?" || name.trim().is_empty() {
            return after;
        }
        let top = self.top();
        match top.kind {
            FrameKind::Params if !top.in_type => {
                let at = self.stack.len() - 2;
                self.stack[at].bound.insert(name);
                return after;
            }
            FrameKind::Params => return after,
            FrameKind::Paren if next == Some(Kind::Colon) => return after,
            _ => {}
        }
        let binder = self.word_is(after, "in");
        let top = self.top();
        if top.quantifier && binder {
            top.bound.insert(name);
            return after;
        }
        let mut path = name.clone();
        let mut j = after;
        while self.kind(j) == Some(Kind::Dot)
            && self.toks.get(j + 1).is_some_and(|t| is_name_word(t) || t.kind == Kind::Quoted)
        {
            let (segment, end) = self.name_run(j + 1);
            if self.kind(end) == Some(Kind::LParen) || segment.trim().is_empty() {
                break;
            }
            path.push('.');
            path.push_str(&segment);
            j = end;
        }
        if name == "item"
            && let Some(filter) = self.stack.iter_mut().rev().find(|f| f.kind == FrameKind::Filter)
        {
            filter.uses_item = true;
            return j;
        }
        if !self.is_bound(&name) {
            self.emit(t.start, Read { name, path });
        }
        j
    }

    /// A keyword at `i` (not a built-in call).
    fn keyword(&mut self, i: usize) -> usize {
        match self.toks[i].text {
            "for" | "some" | "every" => self.top().quantifier = true,
            "return" | "satisfies" => self.top().quantifier = false,
            "function" if self.kind(i + 1) == Some(Kind::LParen) => {
                self.push(FrameKind::Params);
                return i + 2;
            }
            "instance" if self.word_is(i + 1, "of") => return self.skip_type(i + 2),
            _ => {}
        }
        i + 1
    }

    /// Skips a type name (`date and time`, `list<context>`, `function<string>->number`).
    fn skip_type(&self, mut i: usize) -> usize {
        const MULTI_WORD: &[&[&str]] = &[
            &["date", "and", "time"],
            &["days", "and", "time", "duration"],
            &["years", "and", "months", "duration"],
        ];
        let words = MULTI_WORD.iter().find(|m| m.iter().enumerate().all(|(n, w)| self.word_is(i + n, w)));
        match words {
            Some(m) => i += m.len(),
            None if self.kind(i) == Some(Kind::Word) => i += 1,
            None => return i,
        }
        let mut angle = 0usize;
        while let Some(t) = self.toks.get(i) {
            match (t.kind, t.text) {
                (Kind::Op, "<") => angle += 1,
                (Kind::Op, ">") if angle > 0 => angle -= 1,
                _ if angle > 0 => {}
                _ => break,
            }
            i += 1;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn scanned(text: &str) -> Vec<Read> {
        Scanner::new(text).run()
    }

    #[test]
    fn a_plain_path_reads_as_the_scanner_reads_it() {
        for text in [
            "x",
            " order.total ",
            "a.b.c",
            "_x1.y_2",
            "count",
            "item",
            "true",
            "not",
            "a.",
            ".a",
            "a..b",
            "a b",
            "a.in",
            "a.then",
            "x.true",
            "a.item",
            "a.or.b",
            "for",
            "if",
        ] {
            assert_eq!(reads(text), scanned(text), "{text:?}");
        }
        assert!(plain_path("order.total").is_some() && plain_path("a + b").is_none());
    }

    proptest! {
        #[test]
        fn the_fast_path_agrees_with_the_scanner(text in "[a-z_ .]{0,12}") {
            prop_assert_eq!(reads(&text), scanned(&text));
        }

        #[test]
        fn paths_of_names_and_keywords_agree_with_the_scanner(
            words in proptest::collection::vec("(x|order|in|then|true|null|not|item|for|some|if|count|_a1)", 1..5)
        ) {
            let text = words.join(".");
            prop_assert_eq!(reads(&text), scanned(&text));
        }
    }
}
