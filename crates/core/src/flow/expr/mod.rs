//! Which variables an expression reads: FEEL (Camunda 8, `=...` values and `{{ }}` templates) and
//! JUEL (`${...}` / `#{...}`, Camunda 7, Flowable, Activiti). Names and dotted paths only: no
//! evaluation, no types. A text that cannot be read yields the reads that can be found, or none;
//! never an error or a panic. It knows nothing of BPMN: callers pass the expression text.
//!
//! # Why not `dsntk-feel-parser`
//! The issue asks to use `dsntk-feel-parser` 0.3.0 (a DMN FEEL parser) if it reads the corpora.
//! Measured on every FEEL expression of `corpus/bpmn` and `corpus/pairs/bpmn` (attribute values and
//! element texts starting with `=`, 531 occurrences, 375 distinct per file, 254 distinct texts),
//! parsed with `parse_expression` after the `=` (trimming changes nothing):
//! - with an empty scope: 324 of 375 parse (86.4%), 240 of 254 distinct texts. Failing shapes:
//!   multi-word names (`Vacation Approval Status.Approval`, 20), `if x != null then ...` (8), long
//!   string concatenations (6), and names its lexer cannot place without a scope
//!   (`some risk in riskLevels satisfies ...`, `ibmqStatus in [...]`, `sidecarUrl + "/optimize"`, 9);
//! - with every name the reference resolver knows for the file in the scope (what its lexer needs for
//!   multi-word names, and what formgen would not have): 326 of 375 (86.9%), 237 of 251 distinct
//!   trimmed texts; left failing: multi-word names (40, now also `"Hi " + Current Vacation Status.name`
//!   concatenations), `!=` in `if` (5), `{"In-Reply-To": "<" + x + ">"}`, a `{converged: ...}` context;
//! - a path comes back as one `Name("x.y")`, to be re-split, and the crate brings 98 crates with it
//!   (its evaluator, numbers, dates).
//!
//! Below the ~98% needed, so this module is a small lenient reader of its own: a tokenizer
//! (`lexer.rs`) and a bracket-aware scanner (`feel.rs`, `juel.rs`) with the built-in names in
//! `builtins.rs`. Every rule is in the doc of `feel.rs` and `juel.rs`.
//!
//! # Against the reference
//! Over the same corpora, for the 189 Camunda 8 elements whose reference `readsUsed` is not empty
//! (438 names), the union of this reader's reads of the element's own FEEL values (with the message,
//! error, escalation and signal it refers to) covers 423 names (96.6%, 184 elements whole); adding
//! the expressions of a sub-process's descendants (the resolver's quirk 3) 436 (99.5%, 188 whole).
//! The two names left are a known difference: `{"options": [...], "filteredOptions":
//! options[item != null]}` reads the earlier context entries `options` and `filteredOptions` for
//! the resolver, which does not bind context keys; here they are bound, as FEEL evaluates them.
//! Other differences by design: `order.items[1].price` reads `order` (the resolver's quirk 5 gives
//! `price`) and a built-in name used without `(` is a variable (quirk 4). Multi-word names are read
//! whole, as the resolver does (`Current Vacation Status.name` reads `Current Vacation Status`).
//! JUEL: 343 texts with `${`/`#{` in the corpora (91 distinct), 335 with reads (the others are
//! literals, `${true}`, `${dateTime()...}`).

mod builtins;
mod feel;
mod juel;
mod lexer;
#[cfg(test)]
mod tests;
mod uses;

pub use uses::ValueUse;
pub(crate) use uses::value_uses;

/// One variable an expression reads: `name` is the root variable, `path` the dotted path as far as
/// it is a plain chain of names (`order.items[1].price` -> name "order", path "order.items";
/// `a.b.c` -> "a.b.c").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Read {
    /// The root variable.
    pub name: String,
    /// The dotted path from the root, as far as it is a plain chain of names.
    pub path: String,
}

/// The longest expression text read; the rest of a longer one is ignored.
pub(crate) const MAX_EXPRESSION_BYTES: usize = 64 * 1024;

/// Brackets nested deeper than this are read as if they were not there (the scanner keeps a stack of
/// them, not a recursion, so this bounds its memory, not its stack).
const MAX_DEPTH: usize = crate::limits::nesting::EXPRESSION;

/// `s` cut to [`MAX_EXPRESSION_BYTES`] at a character boundary.
fn bounded(s: &str) -> &str {
    if s.len() <= MAX_EXPRESSION_BYTES {
        return s;
    }
    let mut end = MAX_EXPRESSION_BYTES;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Reads found at byte offsets, in any order; [`Collector::finish`] orders and deduplicates them.
#[derive(Debug, Default)]
struct Collector {
    found: Vec<(usize, Read)>,
}

impl Collector {
    fn add(&mut self, at: usize, read: Read) {
        self.found.push((at, read));
    }

    /// By order of appearance, the first of each path.
    fn finish(mut self) -> Vec<Read> {
        self.found.sort_by_key(|(at, _)| *at);
        let mut paths = std::collections::HashSet::new();
        let mut out: Vec<Read> = Vec::new();
        for (_, read) in self.found {
            if paths.insert(read.path.clone()) {
                out.push(read);
            }
        }
        out
    }
}

/// The variables an expression treats as optional: the argument of `is defined(x)` and the first of
/// `get or else(x, default)`, by their root. A process that reads a variable only where it checks
/// for it first does not need a person to give it. Lenient like the rest: it looks at the text.
pub(crate) fn optional_names(text: &str) -> Vec<String> {
    let text = bounded(text);
    let mut out = indexmap::IndexSet::new();
    for call in ["is defined", "get or else"] {
        let mut rest = text;
        while let Some(at) = rest.find(call) {
            let after = rest[at + call.len()..].trim_start();
            rest = &rest[at + call.len()..];
            let Some(args) = after.strip_prefix('(') else { continue };
            // the first argument: up to the first `,` or `)` outside brackets
            let mut depth = 0usize;
            let end = args
                .char_indices()
                .find(|&(_, c)| match c {
                    '(' | '[' | '{' => {
                        depth += 1;
                        false
                    }
                    ')' | ']' | '}' if depth > 0 => {
                        depth -= 1;
                        false
                    }
                    ')' | ',' => depth == 0,
                    _ => false,
                })
                .map_or(args.len(), |(i, _)| i);
            if let [read] = feel_reads(&args[..end]).as_slice() {
                out.insert(read.name.clone());
            }
        }
    }
    out.into_iter().collect()
}

/// The variables a FEEL expression reads only in the branches of an `if … then … else …`, never
/// in its test or outside it, by their root: read only when a test lets them be, so a process that
/// reads them there may never need them. Lenient like the rest: the branches run from `then` to
/// where the `if` ends (a closing bracket or a `,` at its depth, or the end of the text).
pub(crate) fn conditional_names(text: &str) -> Vec<String> {
    use lexer::Kind;
    let text = bounded(text.trim_start().strip_prefix('=').unwrap_or(text));
    let toks = lexer::tokens(text);
    let word = |i: usize, w: &str| toks[i].kind == Kind::Word && toks[i].text == w;
    let mut depth = 0usize;
    let depths: Vec<usize> = toks
        .iter()
        .map(|t| {
            match t.kind {
                Kind::LParen | Kind::LBracket | Kind::LBrace => depth += 1,
                Kind::RParen | Kind::RBracket | Kind::RBrace => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth
        })
        .collect();
    // the byte ranges of every `if`'s branches
    let mut branches: Vec<(usize, usize)> = Vec::new();
    for i in (0..toks.len()).filter(|&i| word(i, "if")) {
        let d = depths[i];
        let Some(then) = (i + 1..toks.len()).find(|&j| word(j, "then") && depths[j] == d) else { continue };
        let end = (then + 1..toks.len())
            .find(|&j| depths[j] < d || (toks[j].kind == Kind::Comma && depths[j] == d))
            .map_or(text.len(), |j| toks[j].start);
        branches.push((toks[then].start, end));
    }
    if branches.is_empty() {
        return Vec::new();
    }
    // what is read with the branches blanked out is read whatever the tests say
    let mut outside: Vec<u8> = text.as_bytes().to_vec();
    for &(from, to) in &branches {
        outside[from..to].iter_mut().filter(|b| b.is_ascii()).for_each(|b| *b = b' ');
    }
    let outside = String::from_utf8_lossy(&outside);
    let always: indexmap::IndexSet<String> = feel_reads(&outside).into_iter().map(|r| r.name).collect();
    let mut out = indexmap::IndexSet::new();
    for read in feel_reads(text) {
        if !always.contains(&read.name) {
            out.insert(read.name);
        }
    }
    out.into_iter().collect()
}

/// Variables a FEEL expression reads (text WITHOUT the leading `=`), deduplicated by path, in order
/// of first appearance.
pub(crate) fn feel_reads(expr: &str) -> Vec<Read> {
    feel::reads(expr)
}

/// Variables read by the JUEL expressions `${...}` / `#{...}` inside a text (anything outside them
/// is literal).
pub(crate) fn juel_reads(text: &str) -> Vec<Read> {
    juel::reads(text, juel::Beans::None)
}

/// Variables read by a JUEL text that names the code an element runs (a `delegateExpression`): each
/// root outside brackets is the bean, not data (`#{svnService}` reads nothing); what a call on it is
/// passed is read (`${factory.get(kind)}` reads `kind`).
pub(crate) fn juel_delegate_reads(text: &str) -> Vec<Read> {
    juel::reads(text, juel::Beans::Roots)
}

/// Variables read by a JUEL text an element evaluates for its effect (a service task's or listener's
/// `expression`): a root outside brackets that a method is called on is a bean, not data
/// (`${orderService.check(order)}` reads `order`); any other root is read (`${approved}`).
pub(crate) fn juel_call_reads(text: &str) -> Vec<Read> {
    juel::reads(text, juel::Beans::Receivers)
}

/// Variables read by a Zeebe value that may be FEEL: FEEL when it starts with `=` (after
/// whitespace), else a template whose `{{ expr }}` parts are FEEL; otherwise nothing. Connector
/// secrets (`{{secrets.X}}`, `secrets.X`) are never variables.
pub(crate) fn zeebe_value_reads(value: &str) -> Vec<Read> {
    let value = bounded(value);
    let trimmed = value.trim_start();
    let mut reads = if let Some(expr) = trimmed.strip_prefix('=') {
        feel_reads(expr)
    } else {
        let mut collector = Collector::default();
        let mut rest = value;
        let mut offset = 0;
        while let Some(open) = rest.find("{{") {
            let body_start = open + 2;
            let Some(len) = rest[body_start..].find("}}") else { break };
            for (n, read) in feel_reads(&rest[body_start..body_start + len]).into_iter().enumerate() {
                collector.add(offset + body_start + n, read);
            }
            offset += body_start + len + 2;
            rest = &rest[body_start + len + 2..];
        }
        collector.finish()
    };
    reads.retain(|r| r.name != "secrets");
    reads
}
