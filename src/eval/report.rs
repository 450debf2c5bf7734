//! The results: one [`Row`] per pair, the [`Summary`], and their two renderings, a readable table
//! and JSON lines (one object per pair, then `{"summary": {...}}`), with fractions from 0 to 1.
//!
//! The headline `keyRecall` is over every pair: a pair that gave no form reproduced none of its
//! author's keys. The other figures are micro-averaged over keys (see [`super::score`]) across the
//! pairs that produced a proposal, and `keyRecallEvaluated` is the recall over those pairs alone;
//! failed pairs (no proposal) are counted in `failed` and listed with their sentence. `promptChars` in the summary is the mean over those pairs;
//! tokens are totals; `seconds` is the wall-clock time of the whole run (per pair, the time of its
//! generation).

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{Value, json};

use super::pairs::{Pair, Problem};
use super::score::{Counts, ratio};

/// One pair's outcome.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Row {
    /// The BPMN file, as named.
    pub bpmn: String,
    /// The step.
    pub element_id: String,
    /// The author's form file, as named (`""` when unknown).
    pub form: String,
    /// The author's keys (full binding paths).
    pub author_keys: Vec<String>,
    /// The proposal's input keys (full binding paths).
    pub proposal_keys: Vec<String>,
    /// The counts behind the figures (all zero for a failed pair).
    pub counts: Counts,
    /// Why there is no proposal, when there is none.
    pub error: Option<String>,
    /// Model calls (0 when it never got that far).
    pub attempts: u32,
    /// Input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Seconds the generation took.
    pub seconds: f64,
    /// Characters of the process text the model was shown.
    pub prompt_chars: usize,
    /// The proposal, when there is one.
    pub proposal: Option<Value>,
}

impl Row {
    /// A row naming `pair`, with nothing measured yet.
    pub fn of(pair: &Pair) -> Row {
        Row {
            bpmn: pair.bpmn.clone(),
            element_id: pair.element_id.clone(),
            form: pair.form.clone(),
            author_keys: pair.author_keys.clone(),
            ..Row::default()
        }
    }

    /// The row of a pair that could not be prepared.
    pub fn problem(p: Problem) -> Row {
        Row { bpmn: p.bpmn, element_id: p.element_id, error: Some(p.error), ..Row::default() }
    }

    /// Whether the pair produced a proposal.
    pub fn evaluated(&self) -> bool {
        self.error.is_none()
    }

    /// The JSON object of this row.
    pub fn json(&self) -> Value {
        let c = &self.counts;
        let f = |x: Option<f64>| if self.evaluated() { x.map(round) } else { None };
        let mut v = json!({
            "bpmn": self.bpmn,
            "elementId": self.element_id,
            "form": self.form,
            "authorKeys": self.author_keys,
            "proposalKeys": self.proposal_keys,
            "keyRecall": f(c.key_recall()),
            "keyPrecision": f(c.key_precision()),
            "typeAgreement": f(c.type_agreement()),
            "looseTypeAgreement": f(c.loose_type_agreement()),
            "labelAgreement": f(c.label_agreement()),
            "optionsAgreement": f(c.options_agreement()),
            "requiredAgreement": f(c.required_agreement()),
            "conditionalAgreement": f(c.conditional_agreement()),
            "promptKeyCoverage": f(c.prompt_key_coverage()),
            "promptChars": self.prompt_chars,
            "allKeysReproduced": self.evaluated() && c.all_reproduced == 1,
            "attempts": self.attempts,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "seconds": (self.seconds * 1000.0).round() / 1000.0,
        });
        if let Some(e) = &self.error {
            v["error"] = json!(e);
        }
        v
    }
}

/// Four decimals are plenty for a fraction.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The overall figures of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Pairs in all.
    pub pairs: usize,
    /// Pairs without a proposal.
    pub failed: usize,
    /// Author keys of the evaluated pairs.
    pub author_keys: usize,
    /// Proposal keys of the evaluated pairs.
    pub proposal_keys: usize,
    /// Key recall over every pair (micro): the author keys of failed pairs count as not reproduced.
    pub key_recall: Option<f64>,
    /// Key recall over the evaluated pairs only (micro).
    pub key_recall_evaluated: Option<f64>,
    /// Key precision (micro).
    pub key_precision: Option<f64>,
    /// Type agreement (micro over keys both have).
    pub type_agreement: Option<f64>,
    /// Type agreement with textfield/textarea and select/radio as one.
    pub loose_type_agreement: Option<f64>,
    /// Label agreement.
    pub label_agreement: Option<f64>,
    /// Options agreement (mean Jaccard over choice fields both have).
    pub options_agreement: Option<f64>,
    /// Required agreement.
    pub required_agreement: Option<f64>,
    /// Conditional fields: of the author's conditional fields both have, conditional in the proposal.
    pub conditional_agreement: Option<f64>,
    /// Prompt key coverage.
    pub prompt_key_coverage: Option<f64>,
    /// Mean prompt size, characters.
    pub prompt_chars: usize,
    /// Pairs whose author keys were all reproduced.
    pub all_keys_reproduced: usize,
    /// Input tokens, total.
    pub input_tokens: u64,
    /// Output tokens, total.
    pub output_tokens: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}

/// A whole run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// One row per pair, in pair order.
    pub rows: Vec<Row>,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}

impl Report {
    /// The counts of the evaluated pairs, summed.
    pub fn totals(&self) -> Counts {
        let mut total = Counts::default();
        for r in self.rows.iter().filter(|r| r.evaluated()) {
            total += r.counts;
        }
        total
    }

    /// The overall figures, fractions rounded to four decimals.
    pub fn summary(&self) -> Summary {
        self.figures(round)
    }

    /// The overall figures, each fraction passed through `round` once: the table prints them exact,
    /// since a percentage taken from an already rounded fraction can round the other way (33 of 67
    /// is 49.25…%, and 0.4925 prints as 49.2%).
    fn figures(&self, round: fn(f64) -> f64) -> Summary {
        let t = self.totals();
        let evaluated: Vec<&Row> = self.rows.iter().filter(|r| r.evaluated()).collect();
        let lost: usize = self.rows.iter().filter(|r| !r.evaluated()).map(|r| r.author_keys.len()).sum();
        let chars: usize = evaluated.iter().map(|r| r.prompt_chars).sum();
        Summary {
            pairs: self.rows.len(),
            failed: self.rows.len() - evaluated.len(),
            author_keys: t.author_keys,
            proposal_keys: t.proposal_keys,
            key_recall: ratio(t.matched as f64, t.author_keys + lost).map(round),
            key_recall_evaluated: t.key_recall().map(round),
            key_precision: t.key_precision().map(round),
            type_agreement: t.type_agreement().map(round),
            loose_type_agreement: t.loose_type_agreement().map(round),
            label_agreement: t.label_agreement().map(round),
            options_agreement: t.options_agreement().map(round),
            required_agreement: t.required_agreement().map(round),
            conditional_agreement: t.conditional_agreement().map(round),
            prompt_key_coverage: t.prompt_key_coverage().map(round),
            prompt_chars: chars.checked_div(evaluated.len()).unwrap_or(0),
            all_keys_reproduced: t.all_reproduced,
            input_tokens: self.rows.iter().map(|r| r.input_tokens).sum(),
            output_tokens: self.rows.iter().map(|r| r.output_tokens).sum(),
            seconds: (self.seconds * 1000.0).round() / 1000.0,
        }
    }

    /// 0 when at least one pair was evaluated, else 1.
    pub fn exit_code(&self) -> u8 {
        if self.rows.iter().any(Row::evaluated) { 0 } else { 1 }
    }

    /// One JSON object per pair, then `{"summary": {...}}`, each on its own line.
    pub fn json_lines(&self) -> String {
        let mut out = String::new();
        for r in &self.rows {
            out.push_str(&r.json().to_string());
            out.push('\n');
        }
        out.push_str(&json!({ "summary": self.summary() }).to_string());
        out.push('\n');
        out
    }

    /// Each proposal as a `.form` file's name and text: the pair's number in the run (from 1, so the
    /// names sort in pair order) and its step, `07-Task_review.form`. A step id's characters other
    /// than letters, digits, `-` and `_` become `_`.
    pub fn proposal_files(&self) -> Vec<(String, String)> {
        let width = self.rows.len().to_string().len().max(2);
        let safe = |id: &str| -> String {
            id.chars()
                .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
                .collect()
        };
        let text = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
        (self.rows.iter().enumerate())
            .filter_map(|(i, r)| {
                let name = format!("{:0width$}-{}.form", i + 1, safe(&r.element_id));
                r.proposal.as_ref().map(|p| (name, text(p)))
            })
            .collect()
    }

    /// The readable table: one row per pair, then the summary.
    pub fn table(&self) -> String {
        let width = self.rows.iter().map(|r| pair_name(r).chars().count()).max().unwrap_or(4).clamp(4, 60);
        let mut out = header(width);
        for r in &self.rows {
            out.push_str(&table_row(r, width));
        }
        out.push_str(&self.summary_lines());
        out
    }

    /// The summary under the table.
    fn summary_lines(&self) -> String {
        let s = self.figures(|x| x);
        let t = self.totals();
        let evaluated = s.pairs - s.failed;
        let all_keys: usize = self.rows.iter().map(|r| r.author_keys.len()).sum();
        let mut out = String::new();
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "{} pairs, {} evaluated, {} failed; key recall over every pair, the other figures \
             micro-averaged over the keys of the evaluated pairs",
            s.pairs, evaluated, s.failed
        );
        let lines = [
            ("key recall", s.key_recall, format!("{} of {all_keys} author keys reproduced", t.matched)),
            (
                "  of evaluated pairs",
                s.key_recall_evaluated,
                format!("{} of {} author keys of the pairs that gave a form", t.matched, t.author_keys),
            ),
            (
                "key precision",
                s.key_precision,
                format!("{} of {} proposal keys are the author's", t.proposal_matched, t.proposal_keys),
            ),
            ("type agreement", s.type_agreement, format!("of {} keys both have", t.compared)),
            ("  loose", s.loose_type_agreement, "textfield/textarea and select/radio as one".to_string()),
            (
                "label agreement",
                s.label_agreement,
                format!("{} of {} keys both have, case and white space folded", t.label_equal, t.compared),
            ),
            (
                "options agreement",
                s.options_agreement,
                format!("mean Jaccard over {} choice fields both have", t.options_compared),
            ),
            ("required agreement", s.required_agreement, String::new()),
            (
                "conditional fields",
                s.conditional_agreement,
                format!(
                    "{} of {} fields both have that the author shows under a condition",
                    t.conditional_both, t.conditional_author
                ),
            ),
            (
                "prompt key coverage",
                s.prompt_key_coverage,
                format!("{} of {} author keys appear in the prompt", t.prompt_covered, t.author_keys),
            ),
        ];
        for (label, value, note) in lines {
            let line = format!("  {label:<20} {:>6}  {note}", pct(value));
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let _ =
            writeln!(out, "  all author keys reproduced in {} of {evaluated} pairs", s.all_keys_reproduced);
        let _ = writeln!(
            out,
            "  prompt {} characters on average; tokens {} in / {} out; {:.1} s",
            s.prompt_chars, s.input_tokens, s.output_tokens, s.seconds
        );
        out
    }
}

/// `file#element`, with `?` for what is unknown.
fn pair_name(r: &Row) -> String {
    let file = r.bpmn.rsplit('/').next().unwrap_or(&r.bpmn);
    let or_unknown = |s: &str| if s.is_empty() { "?".to_string() } else { s.to_string() };
    format!("{}#{}", or_unknown(file), or_unknown(&r.element_id))
}

/// The table's heading line.
fn header(width: usize) -> String {
    let names = [
        "keys", "gen", "recall", "prec", "type", "loose", "label", "opts", "req", "cover", "chars", "att",
        "tokens", "s",
    ];
    let widths = [4, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 3, 8, 6];
    let mut out = format!("{:<width$} ", "pair");
    for (n, w) in names.iter().zip(widths) {
        let _ = write!(out, " {n:>w$}");
    }
    out.push('\n');
    out
}

/// One pair's line: its figures, or why it failed.
fn table_row(r: &Row, width: usize) -> String {
    let mut n = pair_name(r);
    if n.chars().count() > width {
        let tail: Vec<char> = n.chars().rev().take(width - 1).collect();
        n = format!("…{}", tail.into_iter().rev().collect::<String>());
    }
    if let Some(e) = &r.error {
        return format!("{n:<width$}  {:>4}    failed: {e}\n", r.author_keys.len());
    }
    let c = &r.counts;
    format!(
        "{n:<width$}  {:>4} {:>4} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>3} {:>8} {:>6.1}\n",
        c.author_keys,
        c.proposal_keys,
        pct(c.key_recall()),
        pct(c.key_precision()),
        pct(c.type_agreement()),
        pct(c.loose_type_agreement()),
        pct(c.label_agreement()),
        pct(c.options_agreement()),
        pct(c.required_agreement()),
        pct(c.prompt_key_coverage()),
        r.prompt_chars,
        r.attempts,
        r.input_tokens + r.output_tokens,
        r.seconds,
    )
}

/// A fraction as a percentage with one decimal; `-` when there is none.
fn pct(x: Option<f64>) -> String {
    x.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_else(|| "-".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(compared: usize, label_equal: usize) -> Report {
        let counts = Counts {
            author_keys: compared,
            proposal_keys: compared,
            matched: compared,
            proposal_matched: compared,
            compared,
            label_equal,
            ..Counts::default()
        };
        Report {
            rows: vec![Row { author_keys: vec![String::new(); compared], counts, ..Row::default() }],
            seconds: 0.0,
        }
    }

    #[test]
    fn the_table_prints_percentages_from_the_counts_and_the_json_its_rounded_fractions() {
        let r = report(67, 33);
        let table = r.table();
        assert!(
            table.contains("label agreement       49.3%  33 of 67 keys both have"),
            "33 of 67 is 49.25…%, printed 49.3% and with its counts: {table}"
        );
        assert_eq!(r.summary().label_agreement, Some(0.4925), "the JSON keeps four decimals");
    }
}
