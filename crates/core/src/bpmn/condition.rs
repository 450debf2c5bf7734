//! Reading sequence-flow conditions far enough to type form fields from them.
//!
//! A gateway's outgoing conditions say what the process decides on: `= amount > 1000` says `amount` is
//! a number and 1000 matters; `= approved` says `approved` is a yes/no; `= category = "travel"` says
//! `category` is a choice with "travel" among its options. This reader understands FEEL (Camunda 8,
//! `= ...`) and JUEL (Camunda 7, `${...}` / `#{...}`) well enough to list each variable referenced and
//! each comparison of a variable with a literal. It is not an evaluator: any part it cannot read (a
//! function call, a comparison of two variables, arithmetic) yields nothing, and a condition it cannot
//! read at all yields an empty [`Reading`], never an error.
//!
//! The parser recurses once per bracket and per `not`; a condition nested deeper than
//! [`nesting::EXPRESSION`] is left unread ([`Reading::unread`]) rather than followed down, and each
//! variable is noted once through a set beside the list, so any text reads in time and memory linear
//! in its length.

use std::fmt;
use std::hash::BuildHasher;

use crate::limits::nesting;

/// A comparison operator, as the variable sees it (`5 < x` reads as `x > 5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// `=`, `==`, `eq`
    Eq,
    /// `!=`, `<>`, `ne`
    Ne,
    /// `<`, `lt`
    Lt,
    /// `<=`, `le`
    Le,
    /// `>`, `gt`
    Gt,
    /// `>=`, `ge`
    Ge,
    /// `in [..]`: one of a list
    In,
}

impl Operator {
    fn flipped(self) -> Operator {
        match self {
            Operator::Lt => Operator::Gt,
            Operator::Le => Operator::Ge,
            Operator::Gt => Operator::Lt,
            Operator::Ge => Operator::Le,
            other => other,
        }
    }

    fn negated(self) -> Operator {
        match self {
            Operator::Eq => Operator::Ne,
            Operator::Ne => Operator::Eq,
            Operator::Lt => Operator::Ge,
            Operator::Le => Operator::Gt,
            Operator::Gt => Operator::Le,
            Operator::Ge => Operator::Lt,
            Operator::In => Operator::In,
        }
    }

    /// The symbol, for the prompt.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Operator::Eq => "=",
            Operator::Ne => "!=",
            Operator::Lt => "<",
            Operator::Le => "<=",
            Operator::Gt => ">",
            Operator::Ge => ">=",
            Operator::In => "in",
        }
    }
}

/// A literal a variable is compared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// `true` / `false`; a bare `= approved` is `approved = true`.
    Bool(bool),
    /// `null`
    Null,
    /// `[a, b, ...]` after `in`.
    List(Vec<Literal>),
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Number(n) => write!(f, "{n}"),
            Literal::Text(s) => write!(f, "{s:?}"),
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Null => f.write_str("null"),
            Literal::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// One comparison of a variable with a literal.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The variable or path (`order.total`).
    pub variable: String,
    /// How it is compared.
    pub operator: Operator,
    /// With what.
    pub literal: Literal,
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.variable, self.operator.symbol(), self.literal)
    }
}

/// What a condition says: the variables it references and the comparisons it makes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// Every variable (or path) referenced, deduplicated, in order of appearance.
    pub variables: Vec<String>,
    /// Every comparison of a variable with a literal that could be read.
    pub comparisons: Vec<Comparison>,
    /// The condition nests brackets or `not`s deeper than [`nesting::EXPRESSION`], so none of it was
    /// read: no variables, no comparisons.
    pub unread: bool,
}

/// Reads a FEEL or JUEL condition. Unreadable parts yield nothing; a condition nested too deeply is
/// left unread whole ([`Reading::unread`]).
pub fn read_condition(condition: &str) -> Reading {
    let trimmed = condition.trim();
    let body = strip_markers(trimmed);
    let feel = !trimmed.starts_with("${") && !trimmed.starts_with("#{");
    let Some(tokens) = tokenize(body, feel) else {
        return Reading::default();
    };
    let mut parser = Parser {
        tokens,
        pos: 0,
        depth: 0,
        seen: hashbrown::HashTable::new(),
        hasher: std::hash::RandomState::new(),
        reading: Reading::default(),
    };
    // Trailing tokens the grammar does not cover are left unread: what came before them stands.
    parser.reading.comparisons = parser.or();
    if parser.reading.unread {
        return Reading { unread: true, ..Reading::default() };
    }
    parser.reading
}

/// Longest expression [`read_literal`] reads: a value stored that long is no option of a choice.
const MOST_LITERAL_BYTES: usize = 1024;

/// The literal a FEEL or JUEL expression is when it is one number, text or yes-or-no and nothing else
/// (`= 0`, `= -1.5`, `="email"`, `${false}`): what a mapping or a script that stores it says of the
/// variable. Not `null`.
pub fn read_literal(expression: &str) -> Option<Literal> {
    let trimmed = expression.trim();
    if trimmed.len() > MOST_LITERAL_BYTES {
        return None;
    }
    match tokenize(strip_markers(trimmed), false)?.as_slice() {
        [Token::Number(n)] => Some(Literal::Number(*n)),
        [Token::Minus, Token::Number(n)] => Some(Literal::Number(-n)),
        [Token::Text(t)] => Some(Literal::Text(t.to_string())),
        [Token::True] => Some(Literal::Bool(true)),
        [Token::False] => Some(Literal::Bool(false)),
        _ => None,
    }
}

/// Whether [`read_condition`] leaves this condition unread for its nesting, told without reading it
/// when it cannot be so: a text with fewer brackets and `not`s than the bound cannot nest past it.
pub fn nests_too_deeply(condition: &str) -> bool {
    let marks =
        condition.bytes().filter(|b| matches!(b, b'(' | b'!')).count() + condition.matches("not").count();
    marks > nesting::EXPRESSION && read_condition(condition).unread
}

/// `= expr` (FEEL), `${expr}` / `#{expr}` (JUEL), else the text itself.
pub(super) fn strip_markers(s: &str) -> &str {
    if let Some(rest) = s.strip_prefix('=') {
        return rest;
    }
    for open in ["${", "#{"] {
        if let Some(rest) = s.strip_prefix(open) {
            return rest.strip_suffix('}').unwrap_or(rest);
        }
    }
    s
}

/// Whether `token` continues the name that ends `tokens`, and is joined to it: FEEL names may hold
/// spaces (`Current Vacation Status.name`, the built-in `lower case(x)`), and two names never stand
/// side by side otherwise, so adjacent name tokens are one name. JUEL is not joined. Joined as the
/// tokens are read: a condition may hold hundreds of thousands of them, and a second list would
/// double what reading it takes.
fn joined(tokens: &mut [Token], token: &Token) -> bool {
    match (tokens.last_mut(), token) {
        (Some(Token::Ident(prev)), Token::Ident(word)) => {
            *prev = format!("{prev} {word}").into_boxed_str();
            true
        }
        _ => false,
    }
}

/// Names and texts are boxed: a token is 24 bytes, and a condition may hold hundreds of thousands.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token {
    Ident(Box<str>),
    Number(f64),
    Text(Box<str>),
    Op(Operator),
    And,
    Or,
    Not,
    In,
    True,
    False,
    Null,
    Open,
    Close,
    ListOpen,
    ListClose,
    Comma,
    Range,
    Minus,
    /// `+`, `*`, `/`, `%`: arithmetic (`-` is [`Token::Minus`], which may start a number).
    Arith,
    Other,
}

/// The tokens of `s`, adjacent names joined when `join_names` (FEEL: see [`joined`]).
pub(super) fn tokenize(s: &str, join_names: bool) -> Option<Vec<Token>> {
    let chars: Vec<char> = s.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            c if c.is_whitespace() => i += 1,
            '"' | '\'' => {
                let mut text = String::new();
                i += 1;
                while i < chars.len() && chars[i] != c {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    text.push(chars[i]);
                    i += 1;
                }
                if i >= chars.len() {
                    return None; // unclosed string
                }
                i += 1;
                tokens.push(Token::Text(text.into_boxed_str()));
            }
            '0'..='9' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_digit()
                        || (chars[i] == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())))
                {
                    i += 1;
                }
                let text: String = chars[start..i].iter().collect();
                tokens.push(Token::Number(text.parse().ok()?));
            }
            c if c.is_alphabetic() || c == '_' || c == '$' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric()
                        || chars[i] == '_'
                        || chars[i] == '$'
                        || (chars[i] == '.'
                            && chars.get(i + 1).is_some_and(|n| n.is_alphabetic() || *n == '_')))
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let token = match word.as_str() {
                    "and" => Token::And,
                    "or" => Token::Or,
                    "not" => Token::Not,
                    "in" => Token::In,
                    "true" => Token::True,
                    "false" => Token::False,
                    "null" => Token::Null,
                    "eq" => Token::Op(Operator::Eq),
                    "ne" => Token::Op(Operator::Ne),
                    "lt" => Token::Op(Operator::Lt),
                    "le" => Token::Op(Operator::Le),
                    "gt" => Token::Op(Operator::Gt),
                    "ge" => Token::Op(Operator::Ge),
                    _ => Token::Ident(word.into_boxed_str()),
                };
                if !(join_names && joined(&mut tokens, &token)) {
                    tokens.push(token);
                }
            }
            _ => {
                let (token, len) = match (c, next) {
                    ('&', Some('&')) => (Token::And, 2),
                    ('|', Some('|')) => (Token::Or, 2),
                    ('=', Some('=')) => (Token::Op(Operator::Eq), 2),
                    ('!', Some('=')) => (Token::Op(Operator::Ne), 2),
                    ('<', Some('>')) => (Token::Op(Operator::Ne), 2),
                    ('<', Some('=')) => (Token::Op(Operator::Le), 2),
                    ('>', Some('=')) => (Token::Op(Operator::Ge), 2),
                    ('.', Some('.')) => (Token::Range, 2),
                    ('=', _) => (Token::Op(Operator::Eq), 1),
                    ('<', _) => (Token::Op(Operator::Lt), 1),
                    ('>', _) => (Token::Op(Operator::Gt), 1),
                    ('!', _) => (Token::Not, 1),
                    ('(', _) => (Token::Open, 1),
                    (')', _) => (Token::Close, 1),
                    ('[', _) => (Token::ListOpen, 1),
                    (']', _) => (Token::ListClose, 1),
                    (',', _) => (Token::Comma, 1),
                    ('-', _) => (Token::Minus, 1),
                    ('+' | '*' | '/' | '%', _) => (Token::Arith, 1),
                    _ => (Token::Other, 1),
                };
                tokens.push(token);
                i += len;
            }
        }
    }
    Some(tokens)
}

/// An operand of a comparison.
enum Operand {
    Path(String),
    Value(Literal),
    /// Anything else (a call, arithmetic, a parenthesised expression).
    Opaque,
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    /// Brackets and `not`s open around the current position.
    depth: usize,
    /// The variables noted so far, as their indexes in `reading.variables`: a linear
    /// de-duplication that keeps each name once (a condition may name hundreds of thousands).
    seen: hashbrown::HashTable<usize>,
    hasher: std::hash::RandomState,
    reading: Reading,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, token: &Token) -> bool {
        if self.peek() == Some(token) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Notes a variable, once.
    fn note(&mut self, name: String) {
        let Parser { seen, hasher, reading, .. } = self;
        let variables = &mut reading.variables;
        let hash = hasher.hash_one(name.as_str());
        if seen.find(hash, |&k| variables[k] == name).is_none() {
            seen.insert_unique(hash, variables.len(), |&k| hasher.hash_one(variables[k].as_str()));
            variables.push(name);
        }
    }

    /// Goes one bracket or `not` deeper; false (and the condition unread) past the bound.
    fn descend(&mut self) -> bool {
        self.depth += 1;
        if self.depth > nesting::EXPRESSION {
            self.reading.unread = true;
        }
        !self.reading.unread
    }

    fn or(&mut self) -> Vec<Comparison> {
        let mut out = self.and();
        while !self.reading.unread && self.eat(&Token::Or) {
            out.extend(self.and());
        }
        out
    }

    fn and(&mut self) -> Vec<Comparison> {
        let mut out = self.unary();
        while !self.reading.unread && self.eat(&Token::And) {
            out.extend(self.unary());
        }
        out
    }

    fn unary(&mut self) -> Vec<Comparison> {
        if self.eat(&Token::Not) {
            if !self.descend() {
                return Vec::new();
            }
            let inner = self.unary();
            self.depth -= 1;
            return inner.into_iter().map(negate).collect();
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Vec<Comparison> {
        if self.eat(&Token::Open) {
            // `( expr )`: its comparisons count, as in `not(x > 5)` or `(a and b) or c`
            if !self.descend() {
                return Vec::new();
            }
            let inner = self.or();
            self.depth -= 1;
            self.eat(&Token::Close);
            return inner;
        }
        if let Some(equals) = self.method_equals() {
            return equals;
        }
        let left = self.operand();
        let left = self.computed(left);
        match self.peek().cloned() {
            Some(Token::Op(op)) => {
                self.pos += 1;
                let right = self.operand();
                let right = self.computed(right);
                match (left, right) {
                    (Operand::Path(variable), Operand::Value(literal)) => {
                        vec![Comparison { variable, operator: op, literal }]
                    }
                    (Operand::Value(literal), Operand::Path(variable)) => {
                        vec![Comparison { variable, operator: op.flipped(), literal }]
                    }
                    _ => Vec::new(),
                }
            }
            Some(Token::In) => {
                self.pos += 1;
                let list = self.list();
                match (left, list) {
                    (Operand::Path(variable), Some(list)) => list
                        .into_iter()
                        .map(|(operator, literal)| Comparison {
                            variable: variable.clone(),
                            operator,
                            literal,
                        })
                        .collect(),
                    _ => Vec::new(),
                }
            }
            _ => match left {
                Operand::Path(variable) => {
                    vec![Comparison { variable, operator: Operator::Eq, literal: Literal::Bool(true) }]
                }
                _ => Vec::new(),
            },
        }
    }

    /// `[a, b]` gives one `In` comparison; a range `[1..10]` gives `>= 1` and `<= 10`.
    fn list(&mut self) -> Option<Vec<(Operator, Literal)>> {
        let open = self.peek().cloned();
        if !matches!(open, Some(Token::ListOpen | Token::Open)) {
            return None;
        }
        self.pos += 1;
        let mut items = Vec::new();
        let mut range = false;
        loop {
            match self.operand() {
                Operand::Value(v) => items.push(v),
                _ => return None,
            }
            match self.peek() {
                Some(Token::Comma) => self.pos += 1,
                Some(Token::Range) => {
                    self.pos += 1;
                    range = true;
                }
                Some(Token::ListClose | Token::Close) => {
                    self.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
        if range && items.len() == 2 {
            let (low, high) = (items[0].clone(), items[1].clone());
            let closed_low = open == Some(Token::ListOpen);
            let low_op = if closed_low { Operator::Ge } else { Operator::Gt };
            return Some(vec![(low_op, low), (Operator::Le, high)]);
        }
        (!range).then(|| vec![(Operator::In, Literal::List(items))])
    }

    fn operand(&mut self) -> Operand {
        let Some(token) = self.peek().cloned() else {
            return Operand::Opaque;
        };
        self.pos += 1;
        match token {
            Token::Number(n) => Operand::Value(Literal::Number(n)),
            Token::Minus => match self.peek().cloned() {
                Some(Token::Number(n)) => {
                    self.pos += 1;
                    Operand::Value(Literal::Number(-n))
                }
                _ => Operand::Opaque,
            },
            Token::Text(s) => Operand::Value(Literal::Text(s.into())),
            Token::True => Operand::Value(Literal::Bool(true)),
            Token::False => Operand::Value(Literal::Bool(false)),
            Token::Null => Operand::Value(Literal::Null),
            Token::Ident(name) => {
                if let Some(variable) = self.got_variable(&name) {
                    self.note(variable.clone());
                    Operand::Path(variable)
                } else if self.peek() == Some(&Token::Open) {
                    self.skip_group(); // a function call: its arguments may reference variables
                    Operand::Opaque
                } else {
                    let name = String::from(name);
                    self.note(name.clone());
                    Operand::Path(name)
                }
            }
            _ => Operand::Opaque,
        }
    }

    /// The literal of `( literal )` at `tokens[at..at + 3]`.
    fn argument(&self, at: usize) -> Option<Literal> {
        match self.tokens.get(at..at + 3)? {
            [Token::Open, Token::Text(t), Token::Close] => Some(Literal::Text(t.to_string())),
            [Token::Open, Token::Number(n), Token::Close] => Some(Literal::Number(*n)),
            [Token::Open, Token::True, Token::Close] => Some(Literal::Bool(true)),
            [Token::Open, Token::False, Token::Close] => Some(Literal::Bool(false)),
            _ => None,
        }
    }

    /// JUEL's `x.equals("a")`, the way Java compares texts: `x = "a"`, when nothing compares its answer
    /// further (`x.equals("a") == false` is left to the general rule). `x.equalsIgnoreCase("a")` reads
    /// `x` and compares it with no one value ("A" passes too).
    fn method_equals(&mut self) -> Option<Vec<Comparison>> {
        let Some(Token::Ident(name)) = self.peek() else { return None };
        let (variable, exact) = [(".equals", true), (".equalsIgnoreCase", false)]
            .iter()
            .find_map(|(method, exact)| name.strip_suffix(method).map(|v| (v, *exact)))
            .filter(|(v, _)| !v.is_empty() && !v.ends_with('.'))?;
        let variable = variable.to_string();
        let literal = self.argument(self.pos + 1)?;
        if matches!(self.tokens.get(self.pos + 4), Some(Token::Op(_) | Token::Arith | Token::Minus)) {
            return None;
        }
        self.pos += 4;
        self.note(variable.clone());
        Some(if exact { vec![Comparison { variable, operator: Operator::Eq, literal }] } else { Vec::new() })
    }

    /// The variable a Camunda 7 engine-object getter names (`execution.getVariable("amount")` reads
    /// `amount`), the call consumed; the ident `name` is already taken.
    fn got_variable(&mut self, name: &str) -> Option<String> {
        // the reader sits below `flow`, so the getters that answer a value are named here rather than
        // taken from `flow::expr`'s lists (which also hold `hasVariable`, a yes or no)
        let (object, method) = name.rsplit_once('.')?;
        let getter = matches!(method, "getVariable" | "getVariableLocal");
        if !getter || !matches!(object, "execution" | "task" | "variableScope") {
            return None;
        }
        let Literal::Text(variable) = self.argument(self.pos)? else { return None };
        self.pos += 3;
        Some(variable).filter(|v| !v.is_empty())
    }

    /// `operand`, unless arithmetic follows it (`quantity * price < 50`, `limit - 10`): then what it
    /// starts is computed, compared with nothing and no yes-or-no of its own, and its variables
    /// are noted.
    fn computed(&mut self, operand: Operand) -> Operand {
        let mut operand = operand;
        while matches!(self.peek(), Some(Token::Arith | Token::Minus)) {
            self.pos += 1;
            if self.peek() == Some(&Token::Open) {
                self.skip_group();
            } else {
                self.operand();
            }
            operand = Operand::Opaque;
        }
        operand
    }

    /// Skips a balanced `( ... )`, noting the variables inside.
    fn skip_group(&mut self) {
        let mut depth = 0usize;
        while let Some(token) = self.peek().cloned() {
            self.pos += 1;
            match token {
                Token::Open => depth += 1,
                Token::Close => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                Token::Ident(name) if self.peek() != Some(&Token::Open) => self.note(name.into()),
                _ => {}
            }
        }
    }
}

fn negate(c: Comparison) -> Comparison {
    match (c.operator, c.literal) {
        (Operator::Eq, Literal::Bool(b)) => Comparison { literal: Literal::Bool(!b), ..c },
        (op, literal) => Comparison { operator: op.negated(), literal, ..c },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Vec<String> {
        read_condition(s).comparisons.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn feel() {
        assert_eq!(read("= amount > 1000"), ["amount > 1000"]);
        assert_eq!(read("= approved"), ["approved = true"]);
        assert_eq!(read("= not(approved)"), ["approved = false"]);
        assert_eq!(read("=category = \"travel\""), ["category = \"travel\""]);
        assert_eq!(read("= x in [\"a\",\"b\"]"), ["x in [\"a\", \"b\"]"]);
        assert_eq!(read("= order.total >= 5"), ["order.total >= 5"]);
        assert_eq!(read("= 5 < days and days <= 30"), ["days > 5", "days <= 30"]);
        assert_eq!(read("= score in [1..10]"), ["score >= 1", "score <= 10"]);
        assert_eq!(read("= not(amount > 10)"), ["amount <= 10"]);
        assert_eq!(read("= status != null"), ["status != null"]);
        assert_eq!(read("= (a or b) and c = -2.5"), ["a = true", "b = true", "c = -2.5"]);
    }

    #[test]
    fn feel_names_with_spaces() {
        // a multi-word built-in is a call, not the variable `lower`
        assert_eq!(read_condition("=lower case(answer) = lower case(guess)").variables, ["answer", "guess"]);
        assert_eq!(
            read("= Vacation Approval.Status = \"Approved\""),
            ["Vacation Approval.Status = \"Approved\""]
        );
        assert_eq!(read("= is defined(x) and x > 2"), ["x > 2"]);
    }

    #[test]
    fn juel() {
        assert_eq!(read("${amount > 1000 && vip}"), ["amount > 1000", "vip = true"]);
        assert_eq!(read("#{!approved}"), ["approved = false"]);
        assert_eq!(
            read("${category eq 'travel' || category == 'hotel'}"),
            ["category = \"travel\"", "category = \"hotel\""]
        );
        assert_eq!(read("${approved == true}"), ["approved = true"]);
    }

    #[test]
    fn juel_compares_texts_with_equals_and_reads_the_engines_getter() {
        assert_eq!(read("${clarified.equals('yes')}"), ["clarified = \"yes\""]);
        assert_eq!(read("${!clarified.equals('yes')}"), ["clarified != \"yes\""]);
        assert_eq!(
            read("${order.status.equals(\"open\") && vip}"),
            ["order.status = \"open\"", "vip = true"]
        );
        // case folded: no one value
        assert_eq!(read("${status.equalsIgnoreCase('open') && vip}"), ["vip = true"]);
        assert_eq!(read_condition("${status.equalsIgnoreCase('open')}").variables, ["status"]);
        assert_eq!(read_condition("${clarified.equals('yes')}").variables, ["clarified"]);
        assert_eq!(read("${execution.getVariable(\"x\") > 5}"), ["x > 5"]);
        assert_eq!(read("${execution.getVariableLocal('status') == 'done'}"), ["status = \"done\""]);
        assert_eq!(read_condition("${execution.getVariable(\"x\") > 5}").variables, ["x"]);
        // compared with a variable, or its answer compared again: not a comparison with a literal
        for other in [
            "${a.equals(b)}",
            "${a.equals('x') == false}",
            "${.equals('x')}",
            "${execution.getVariable(name) > 5}",
        ] {
            assert_eq!(read(other), Vec::<String>::new(), "{other}");
        }
    }

    #[test]
    fn a_lone_literal_is_read_and_anything_more_is_not() {
        assert_eq!(read_literal("= 0"), Some(Literal::Number(0.0)));
        assert_eq!(read_literal("=-1.5"), Some(Literal::Number(-1.5)));
        assert_eq!(read_literal(r#"= "email""#), Some(Literal::Text("email".into())));
        assert_eq!(read_literal("${false}"), Some(Literal::Bool(false)));
        for other in ["= 1 + 1", "=null", "=x", r#"= "a" + b"#, "= [1]", "", "=\"open"] {
            assert_eq!(read_literal(other), None, "{other}");
        }
        assert_eq!(read_literal(&format!("=\"{}\"", "a".repeat(MOST_LITERAL_BYTES))), None);
    }

    #[test]
    fn arithmetic_is_compared_not_a_yes_or_no() {
        assert_eq!(read("=quantity * price < 50"), Vec::<String>::new());
        assert_eq!(read_condition("=quantity * price < 50").variables, ["quantity", "price"]);
        // what follows it is still read
        assert_eq!(read("=total + fee > 10 and count >= 2"), ["count >= 2"]);
        assert_eq!(read("${amount * (1 + rate) > limit - 10 || vip}"), ["vip = true"]);
        assert_eq!(read("=score > 100 * weight"), Vec::<String>::new());
        assert_eq!(read("=x > -5"), ["x > -5"]);
    }

    #[test]
    fn unreadable_parts_yield_nothing() {
        assert_eq!(read("= count(items) > 3"), Vec::<String>::new());
        assert_eq!(read_condition("= count(items) > 3").variables, ["items"]);
        assert_eq!(read("= a > b"), Vec::<String>::new());
        assert_eq!(read("= \"unclosed"), Vec::<String>::new());
        assert_eq!(read(""), Vec::<String>::new());
        assert_eq!(read("))((]]"), Vec::<String>::new());
    }

    fn nested(open: &str, inner: &str, close: &str, depth: usize) -> String {
        format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
    }

    #[test]
    fn nesting_up_to_the_bound_is_read() {
        let at = nesting::EXPRESSION;
        assert_eq!(read(&format!("= {}", nested("(", "amount > 5", ")", at))), ["amount > 5"]);
        // a `not` and its bracket are two levels
        assert_eq!(read(&format!("= {}", nested("not(", "approved", ")", at / 2))), ["approved = true"]);
        assert_eq!(read(&format!("${{{}approved}}", "!".repeat(at - 1))), ["approved = false"]);
    }

    #[test]
    fn nesting_past_the_bound_is_left_unread() {
        for depth in [nesting::EXPRESSION + 1, 10 * nesting::EXPRESSION, 30_000] {
            for text in [
                format!("= {}", nested("(", "amount > 5", ")", depth)),
                format!("= {}", nested("not(", "approved", ")", depth)),
                format!("${{{}}}", nested("(", "amount > 5", ")", depth)),
                format!("${{{}approved}}", "!".repeat(depth)),
                format!("= {}", nested("not ", "approved", "", depth)),
                // after a readable part, the whole condition is still unread
                format!("= x > 1 and {}", nested("(", "y", ")", depth)),
            ] {
                let reading = read_condition(&text);
                assert!(reading.unread, "{}", &text[..40]);
                assert_eq!(reading, Reading { unread: true, ..Reading::default() });
                assert!(nests_too_deeply(&text));
            }
        }
        assert!(!nests_too_deeply("= (a > 1) and not(b)"));
        let wide = (0..1000).map(|i| format!("(v{i} > 1)")).collect::<Vec<_>>().join(" or ");
        assert!(!read_condition(&wide).unread && !nests_too_deeply(&wide), "many brackets side by side");
    }

    #[test]
    fn variables_keep_their_first_order_without_repeats() {
        let text = "= b > 1 or a > 2 or b < 0 or count(c, a, d) > 1 or c";
        assert_eq!(read_condition(text).variables, ["b", "a", "c", "d"]);
        let many: Vec<String> = (0..5000).map(|i| format!("v{i}")).collect();
        let text = format!("= {} or {}", many.join(" or "), many.join(" or "));
        assert_eq!(read_condition(&text).variables, many);
    }

    proptest::proptest! {
        #[test]
        fn a_stored_number_or_text_reads_as_itself(
            whole in 0u32..1_000_000,
            fraction in 0u32..1000,
            negative: bool,
            text in r#"[^"\\]{0,40}"#,
        ) {
            let sign = if negative { "-" } else { "" };
            let number = format!("{sign}{whole}.{fraction}");
            let expected: f64 = number.parse().unwrap();
            proptest::prop_assert_eq!(read_literal(&format!("= {number}")), Some(Literal::Number(expected)));
            proptest::prop_assert_eq!(read_literal(&format!("=\"{text}\"")), Some(Literal::Text(text.clone())));
            // followed by anything more, it is no literal
            proptest::prop_assert_eq!(read_literal(&format!("=\"{text}\" + x")), None);
        }
    }
}
