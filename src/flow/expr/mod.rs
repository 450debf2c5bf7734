//! Which variables an expression reads: FEEL (Camunda 8, `=...` values and `{{ }}` templates) and
//! JUEL (`${...}` / `#{...}`, Camunda 7, Flowable, Activiti). Names and dotted paths only: no
//! evaluation, no types. A text that cannot be read yields the reads that can be found, or none;
//! never an error or a panic. It knows nothing of BPMN: callers pass the expression text.
//!
//! # Why not `dsntk-feel-parser`
//! The issue asks to use `dsntk-feel-parser` 0.3.0 (a DMN FEEL parser) if it reads the corpora.
//! Measured on every FEEL expression of `corpus/bpmn` and `corpus/pairs/bpmn` (attribute values and
//! element texts starting with `=`, 531 occurrences, 375 distinct per file, 254 distinct texts),
//! parsed with `parse_expression` after the `=`:
//! - as found: 324 of 375 parse (86.4%), 240 of 254 distinct texts; a leading space (`= approved`,
//!   45 of the failures) is already a syntax error;
//! - trimmed, with every variable name the reference resolver knows in the scope (a scope is what
//!   its lexer needs to see multi-word names): 326 of 375 (86.9%), 237 of 251 distinct texts;
//!   trimmed with an empty scope 324 of 375 (it then also fails `some risk in riskLevels
//!   satisfies ...` and `sidecarUrl + "/optimize"`);
//! - failing shapes: `if x != null then ...` (Camunda's `!=` after a name, 8), multi-word names with
//!   paths (`Vacation Approval Status.Approval`, `Current Vacation Status.name` inside long string
//!   concatenations, 32), `{"In-Reply-To": "<" + x + ">"}`, long prompt strings, `{}` values;
//! - names come back as `Name("x.y")` for a path, so paths must be re-split, and the crate brings
//!   98 crates with it (its evaluator, numbers, dates).
//!
//! Below the ~98% needed, so this module is a small lenient reader of its own: a tokenizer
//! ([`lexer`]) and a bracket-aware scanner ([`feel`], [`juel`]) with the built-in names in
//! [`builtins`]. On the same 375 expressions it reads every name the reference resolver's
//! `readsUsed` gives for the element the expression belongs to, except where the reference is
//! known to differ (see the report in `feel.rs`'s tests and the README's list).

mod builtins;
mod feel;
mod juel;
mod lexer;
#[cfg(test)]
mod tests;

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
pub const MAX_EXPRESSION_BYTES: usize = 64 * 1024;

/// Brackets nested deeper than this are read as if they were not there.
const MAX_DEPTH: usize = 64;

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
        let mut out: Vec<Read> = Vec::new();
        for (_, read) in self.found {
            if !out.iter().any(|r| r.path == read.path) {
                out.push(read);
            }
        }
        out
    }
}

/// Variables a FEEL expression reads (text WITHOUT the leading `=`), deduplicated by path, in order
/// of first appearance.
pub fn feel_reads(expr: &str) -> Vec<Read> {
    feel::reads(expr)
}

/// Variables read by the JUEL expressions `${...}` / `#{...}` inside a text (anything outside them
/// is literal).
pub fn juel_reads(text: &str) -> Vec<Read> {
    juel::reads(text)
}

/// Variables read by a Zeebe value that may be FEEL: FEEL when it starts with `=` (after
/// whitespace), else a template whose `{{ expr }}` parts are FEEL; otherwise nothing. Connector
/// secrets (`{{secrets.X}}`, `secrets.X`) are never variables.
pub fn zeebe_value_reads(value: &str) -> Vec<Read> {
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
