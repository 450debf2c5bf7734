//! Whether conditions can hold at once: a form field hidden by `= not(approved)` and a read past the
//! flow `= approved` never meet; hidden by `= amount > 2` and read past `= amount > 10`, they may.
//!
//! Each condition is read into a small tree of FEEL's logic (`and`, `or`, `not`, comparisons with
//! literals, `in` a list of literals, bare names) and evaluated with FEEL's three values (null is
//! neither true nor false) over every combination of a few values per name: null, true, false, a
//! text and a number no condition names, each literal a condition compares the name with, and a
//! number between and beyond each two. Those are all the values a comparison with literals can tell
//! apart, so the answer is exact for what it reads. Anything else (a call, arithmetic, a path into
//! a list) is not read, and then there is no answer, never a guess.

use std::collections::BTreeMap;

use super::Operator;
use super::condition::{Token, strip_markers, tokenize};

/// Most names the conditions may read together.
const MOST_NAMES: usize = 6;

/// Most combinations of values tried.
const MOST_TRIES: usize = 4096;

/// Most node evaluations one answer may take: combinations tried times the conditions' sizes.
const MOST_WORK: usize = 1_000_000;

/// Longest condition read, in bytes.
const MOST_BYTES: usize = 2_000;

/// Deepest nesting of brackets and `not`s read.
const MOST_DEPTH: usize = 32;

/// A FEEL value.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Bool(bool),
    Number(f64),
    Text(Box<str>),
}

/// A condition as FEEL's logic reads it.
#[derive(Debug)]
enum Node {
    Any(Vec<Node>),
    All(Vec<Node>),
    Not(Box<Node>),
    Compare(Box<Node>, Operator, Box<Node>),
    OneOf(Box<Node>, Vec<Value>),
    Name(String),
    Literal(Value),
}

/// Whether some values of the names the `conditions` read make every one of them true. `None` when
/// one cannot be read or they read too many names to try.
pub(crate) fn may_hold_together(conditions: &[&str]) -> Option<bool> {
    let mut values: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut trees = Vec::new();
    let mut size = 0;
    for c in conditions {
        let (tree, nodes) = read(c, &mut values)?;
        trees.push(tree);
        size += nodes;
    }
    if values.len() > MOST_NAMES {
        return None;
    }
    let names: Vec<String> = values.keys().cloned().collect();
    let choices: Vec<Vec<Value>> = values.into_values().map(candidates).collect();
    let tries = choices.iter().try_fold(1usize, |n, c| n.checked_mul(c.len()))?;
    if tries > MOST_TRIES || tries.saturating_mul(size) > MOST_WORK {
        return None;
    }
    let mut at = vec![0usize; names.len()];
    loop {
        let env: BTreeMap<&str, &Value> =
            names.iter().zip(&at).zip(&choices).map(|((n, &i), c)| (n.as_str(), &c[i])).collect();
        if trees.iter().all(|t| eval(t, &env) == Value::Bool(true)) {
            return Some(true);
        }
        // the next combination, the last name fastest
        let Some(k) = (0..at.len()).rev().find(|&k| at[k] + 1 < choices[k].len()) else {
            return Some(false);
        };
        at[k] += 1;
        at[k + 1..].iter_mut().for_each(|i| *i = 0);
    }
}

/// The names a condition reads, when it can be read.
pub(crate) fn names_read(condition: &str) -> Option<Vec<String>> {
    let mut values = BTreeMap::new();
    read(condition, &mut values)?;
    Some(values.into_keys().collect())
}

/// Reads a condition, noting each name it reads with the literals it is compared with; with how many
/// tokens it has (what evaluating it once costs, at most).
fn read(condition: &str, values: &mut BTreeMap<String, Vec<Value>>) -> Option<(Node, usize)> {
    let trimmed = condition.trim();
    if trimmed.len() > MOST_BYTES {
        return None;
    }
    let feel = !trimmed.starts_with("${") && !trimmed.starts_with("#{");
    let tokens = tokenize(strip_markers(trimmed), feel)?;
    let size = tokens.len();
    let mut parser = Parser { tokens, pos: 0, depth: 0, values };
    let node = parser.any()?;
    (parser.pos == parser.tokens.len()).then_some((node, size))
}

struct Parser<'a> {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    values: &'a mut BTreeMap<String, Vec<Value>>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn eat(&mut self, token: &Token) -> bool {
        let found = self.peek() == Some(token);
        self.pos += usize::from(found);
        found
    }

    fn any(&mut self) -> Option<Node> {
        let mut parts = vec![self.all()?];
        while self.eat(&Token::Or) {
            parts.push(self.all()?);
        }
        Some(if parts.len() == 1 { parts.remove(0) } else { Node::Any(parts) })
    }

    fn all(&mut self) -> Option<Node> {
        let mut parts = vec![self.not()?];
        while self.eat(&Token::And) {
            parts.push(self.not()?);
        }
        Some(if parts.len() == 1 { parts.remove(0) } else { Node::All(parts) })
    }

    fn not(&mut self) -> Option<Node> {
        if self.eat(&Token::Not) {
            self.deeper()?;
            let inner = self.not()?;
            self.depth -= 1;
            return Some(Node::Not(Box::new(inner)));
        }
        self.comparison()
    }

    fn deeper(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MOST_DEPTH).then_some(())
    }

    fn comparison(&mut self) -> Option<Node> {
        let left = self.operand()?;
        match self.peek() {
            Some(Token::Op(op)) => {
                let op = *op;
                self.pos += 1;
                let right = self.operand()?;
                self.note(&left, &right);
                Some(Node::Compare(Box::new(left), op, Box::new(right)))
            }
            Some(Token::In) => {
                self.pos += 1;
                let list = self.list()?;
                if let Node::Name(n) = &left {
                    self.values.entry(n.clone()).or_default().extend(list.iter().cloned());
                }
                Some(Node::OneOf(Box::new(left), list))
            }
            _ => Some(left),
        }
    }

    /// Notes the literal a name is compared with.
    fn note(&mut self, left: &Node, right: &Node) {
        if let (Node::Name(n), Node::Literal(v)) | (Node::Literal(v), Node::Name(n)) = (left, right) {
            self.values.entry(n.clone()).or_default().push(v.clone());
        }
    }

    /// `[a, b, ...]` of literals.
    fn list(&mut self) -> Option<Vec<Value>> {
        if !self.eat(&Token::ListOpen) {
            return None;
        }
        let mut items = Vec::new();
        loop {
            match self.operand()? {
                Node::Literal(v) => items.push(v),
                _ => return None,
            }
            if self.eat(&Token::ListClose) {
                return Some(items);
            }
            if !self.eat(&Token::Comma) {
                return None;
            }
        }
    }

    fn operand(&mut self) -> Option<Node> {
        let token = self.peek()?.clone();
        self.pos += 1;
        Some(match token {
            Token::Open => {
                self.deeper()?;
                let inner = self.any()?;
                self.depth -= 1;
                if !self.eat(&Token::Close) {
                    return None;
                }
                inner
            }
            Token::Number(n) => Node::Literal(Value::Number(n)),
            Token::Minus => match self.peek() {
                Some(Token::Number(n)) => {
                    let n = *n;
                    self.pos += 1;
                    Node::Literal(Value::Number(-n))
                }
                _ => return None,
            },
            Token::Text(t) => Node::Literal(Value::Text(t)),
            Token::True => Node::Literal(Value::Bool(true)),
            Token::False => Node::Literal(Value::Bool(false)),
            Token::Null => Node::Literal(Value::Null),
            // a call is not read
            Token::Ident(_) if self.peek() == Some(&Token::Open) => return None,
            Token::Ident(name) => {
                self.values.entry(name.to_string()).or_default();
                Node::Name(name.into())
            }
            _ => return None,
        })
    }
}

/// The values worth trying for a name compared with `literals`: every value they tell apart.
fn candidates(literals: Vec<Value>) -> Vec<Value> {
    let mut out = vec![Value::Null, Value::Bool(true), Value::Bool(false), Value::Text("\u{1}".into())];
    let mut numbers: Vec<f64> = Vec::new();
    for v in literals {
        match v {
            Value::Number(n) => numbers.push(n),
            other if !out.contains(&other) => out.push(other),
            _ => {}
        }
    }
    numbers.sort_by(f64::total_cmp);
    numbers.dedup();
    match (numbers.first(), numbers.last()) {
        (Some(&low), Some(&high)) => {
            out.push(Value::Number(low - 1.0));
            out.push(Value::Number(high + 1.0));
        }
        _ => out.push(Value::Number(0.0)),
    }
    for pair in numbers.windows(2) {
        out.push(Value::Number((pair[0] + pair[1]) / 2.0));
    }
    out.extend(numbers.into_iter().map(Value::Number));
    out
}

/// A node's value, FEEL's way: `and`, `or` and `not` are three-valued; comparing values of different
/// kinds is null, and so is ordering null; `null = null` is true.
fn eval(node: &Node, env: &BTreeMap<&str, &Value>) -> Value {
    match node {
        Node::Any(parts) => junction(parts, env, true),
        Node::All(parts) => junction(parts, env, false),
        Node::Not(inner) => match eval(inner, env) {
            Value::Bool(b) => Value::Bool(!b),
            _ => Value::Null,
        },
        Node::Compare(left, op, right) => compare(&eval(left, env), *op, &eval(right, env)),
        Node::OneOf(left, list) => {
            let v = eval(left, env);
            Value::Bool(list.iter().any(|item| equal(&v, item) == Some(true)))
        }
        Node::Name(n) => env.get(n.as_str()).map_or(Value::Null, |v| (*v).clone()),
        Node::Literal(v) => v.clone(),
    }
}

/// `or` (`decisive` true) or `and` (false): the decisive value wins, then null, then the other.
fn junction(parts: &[Node], env: &BTreeMap<&str, &Value>, decisive: bool) -> Value {
    let mut unknown = false;
    for p in parts {
        match eval(p, env) {
            Value::Bool(b) if b == decisive => return Value::Bool(decisive),
            Value::Bool(_) => {}
            _ => unknown = true,
        }
    }
    if unknown { Value::Null } else { Value::Bool(!decisive) }
}

/// Whether two values are equal; `None` for values of different kinds.
fn equal(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Null, Value::Null) => Some(true),
        (Value::Null, _) | (_, Value::Null) => Some(false),
        (Value::Bool(x), Value::Bool(y)) => Some(x == y),
        (Value::Number(x), Value::Number(y)) => Some(x == y),
        (Value::Text(x), Value::Text(y)) => Some(x == y),
        _ => None,
    }
}

fn compare(a: &Value, op: Operator, b: &Value) -> Value {
    use std::cmp::Ordering;
    let order = match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.partial_cmp(y),
        (Value::Text(x), Value::Text(y)) => Some(x.cmp(y)),
        _ => None,
    };
    let result = match op {
        Operator::Eq => equal(a, b),
        Operator::Ne => equal(a, b).map(|e| !e),
        Operator::Lt => order.map(|o| o == Ordering::Less),
        Operator::Le => order.map(|o| o != Ordering::Greater),
        Operator::Gt => order.map(|o| o == Ordering::Greater),
        Operator::Ge => order.map(|o| o != Ordering::Less),
        Operator::In => None,
    };
    result.map_or(Value::Null, Value::Bool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_and_its_negation_never_hold_together() {
        assert_eq!(may_hold_together(&["=not(approved)", "=approved"]), Some(false));
        assert_eq!(may_hold_together(&["=translate != true", "=translate"]), Some(false));
        assert_eq!(
            may_hold_together(&["=not(decision = \"reject\")", "=decision = \"reject\""]),
            Some(false)
        );
        assert_eq!(may_hold_together(&["${!approved}", "${approved}"]), Some(false));
    }

    #[test]
    fn conditions_that_leave_room_hold_together() {
        assert_eq!(may_hold_together(&["=amount > 2", "=amount > 10"]), Some(true));
        assert_eq!(may_hold_together(&["=amount <= 10", "=amount > 2"]), Some(true));
        assert_eq!(may_hold_together(&["=amount <= 2", "=amount > 2"]), Some(false));
        assert_eq!(may_hold_together(&["=amount < 2.5", "=amount > 2.4"]), Some(true));
        // a name the other does not read may be anything
        assert_eq!(may_hold_together(&["=not(approved)", "=amount > 10"]), Some(true));
        assert_eq!(may_hold_together(&["=kind in [\"a\", \"b\"]", "=kind = \"b\""]), Some(true));
        assert_eq!(may_hold_together(&["=kind in [\"a\", \"b\"]", "=kind = \"c\""]), Some(false));
    }

    #[test]
    fn null_is_neither_true_nor_false() {
        // `not(x)` with x unset is null: not true
        assert_eq!(may_hold_together(&["=not(x)", "=x = null"]), Some(false));
        // but `x != true` with x unset is true
        assert_eq!(may_hold_together(&["=x != true", "=x = null"]), Some(true));
        assert_eq!(may_hold_together(&["=a or b", "=not(a)", "=not(b)"]), Some(false));
        assert_eq!(may_hold_together(&["=a and b", "=not(a) or not(b)"]), Some(false));
    }

    #[test]
    fn what_cannot_be_read_has_no_answer() {
        assert_eq!(may_hold_together(&["=count(items) > 2", "=x"]), None);
        assert_eq!(may_hold_together(&["=a + 1 > 2", "=x"]), None);
        assert_eq!(may_hold_together(&["=a b c", "=x"]), Some(true), "FEEL names may hold spaces");
        assert_eq!(may_hold_together(&["=(a", "=x"]), None);
        let deep = format!("={}a{}", "not(".repeat(40), ")".repeat(40));
        assert_eq!(may_hold_together(&[deep.as_str()]), None);
        assert_eq!(may_hold_together(&["=a and b and c and d and e and f and g"]), None);
        // too much work: long conditions over many values of one name
        let long = format!("={}", (0..150).map(|i| format!("b = {i}")).collect::<Vec<_>>().join(" or "));
        assert_eq!(may_hold_together(&[long.as_str(), long.as_str()]), Some(true));
        assert_eq!(may_hold_together(&[long.as_str(); 6]), None);
    }

    #[test]
    fn the_names_read() {
        assert_eq!(names_read("=a = \"x\" or not(b)"), Some(vec!["a".to_string(), "b".to_string()]));
        assert_eq!(names_read("=f(a)"), None);
    }
}
