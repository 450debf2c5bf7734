//! The measures: how close one proposal comes to the author's form, as counts that add up over pairs.
//!
//! Every figure is a ratio of two counts kept in [`Counts`], so the overall figures are
//! **micro-averaged over keys** (sums of numerators over sums of denominators across pairs), not means
//! of per-pair ratios: a pair with twelve keys weighs twelve times a pair with one.
//!
//! - key recall: author keys the proposal binds at exactly the same full path / author keys.
//! - key precision: proposal keys the author's form has / proposal keys.
//! - type agreement: of the keys both have, same component type; *loose* type agreement counts
//!   `textfield`/`textarea` as one type and `select`/`radio` as one.
//! - label agreement: of the keys both have, labels equal after folding case and white space.
//! - required agreement: of the keys both have, same `validate.required` (absent is `false`).
//! - conditional fields: of the keys both have whose author field is shown only under a condition
//!   (`conditional.hide`), those the proposal shows under a condition too.
//! - options agreement: of the keys both have where both are choice fields, the mean Jaccard index of
//!   the option sources. Inline `values` compare by their `value`s (as text). A field whose options come
//!   from `valuesKey` or `valuesExpression` agrees (1) with a field reading the same key or expression
//!   and not at all (0) with anything else, inline options included: there is nothing to intersect, and
//!   a proposal that writes options inline where the author reads them from the process did not
//!   reproduce the form. Two empty inline lists agree.
//! - prompt key coverage: author keys that occur *as a word* in the prompt text / author keys. A key
//!   occurs as a word when its exact text (case-sensitive, dots included) appears with no word
//!   character (Unicode letter, digit or `_`) right before or after it. A dot is not a word character,
//!   so `amount` occurs in `order.amount`, and a dotted key `order.amount` occurs only as that whole
//!   dotted text. It is the ceiling for any model reading that prompt: a key it was never shown it can
//!   only guess.
//!
//! This module knows fields and text; it does not know where they came from.

use std::collections::{HashMap, HashSet};

use super::fields::{Field, Options};

/// The additive counts behind every figure of one pair (or, summed, of a whole run).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Counts {
    /// Author keys.
    pub author_keys: usize,
    /// Proposal keys.
    pub proposal_keys: usize,
    /// Author keys the proposal binds exactly (the keys both have).
    pub matched: usize,
    /// Proposal keys the author's form has (equals `matched` unless the author's list has duplicates).
    pub proposal_matched: usize,
    /// Keys both have whose author field was found in the form (the denominator of the agreements).
    pub compared: usize,
    /// Of those, same type.
    pub type_exact: usize,
    /// Of those, same type with textfield/textarea and select/radio counted as one.
    pub type_loose: usize,
    /// Of those, equal labels after folding.
    pub label_equal: usize,
    /// Of those, equal `validate.required`.
    pub required_equal: usize,
    /// Of those, the ones the author shows only under a condition.
    pub conditional_author: usize,
    /// Of those, the ones the proposal shows under a condition too.
    pub conditional_both: usize,
    /// Of those, the ones where both are choice fields.
    pub options_compared: usize,
    /// The sum of their Jaccard indices.
    pub options_jaccard: f64,
    /// Author keys that occur as a word in the prompt.
    pub prompt_covered: usize,
    /// 1 when every author key was reproduced (and there was at least one), else 0.
    pub all_reproduced: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.author_keys += o.author_keys;
        self.proposal_keys += o.proposal_keys;
        self.matched += o.matched;
        self.proposal_matched += o.proposal_matched;
        self.compared += o.compared;
        self.type_exact += o.type_exact;
        self.type_loose += o.type_loose;
        self.label_equal += o.label_equal;
        self.required_equal += o.required_equal;
        self.conditional_author += o.conditional_author;
        self.conditional_both += o.conditional_both;
        self.options_compared += o.options_compared;
        self.options_jaccard += o.options_jaccard;
        self.prompt_covered += o.prompt_covered;
        self.all_reproduced += o.all_reproduced;
    }
}

/// `n / d`, or `None` when there is nothing to divide (a figure with no case is no figure).
pub fn ratio(n: f64, d: usize) -> Option<f64> {
    (d > 0).then(|| n / d as f64)
}

impl Counts {
    /// Key recall.
    pub fn key_recall(&self) -> Option<f64> {
        ratio(self.matched as f64, self.author_keys)
    }
    /// Key precision.
    pub fn key_precision(&self) -> Option<f64> {
        ratio(self.proposal_matched as f64, self.proposal_keys)
    }
    /// Type agreement (exact).
    pub fn type_agreement(&self) -> Option<f64> {
        ratio(self.type_exact as f64, self.compared)
    }
    /// Type agreement with textfield/textarea and select/radio as one.
    pub fn loose_type_agreement(&self) -> Option<f64> {
        ratio(self.type_loose as f64, self.compared)
    }
    /// Label agreement.
    pub fn label_agreement(&self) -> Option<f64> {
        ratio(self.label_equal as f64, self.compared)
    }
    /// Required agreement.
    pub fn required_agreement(&self) -> Option<f64> {
        ratio(self.required_equal as f64, self.compared)
    }
    /// Conditional fields: the author's conditional fields the proposal makes conditional too.
    pub fn conditional_agreement(&self) -> Option<f64> {
        ratio(self.conditional_both as f64, self.conditional_author)
    }
    /// Options agreement.
    pub fn options_agreement(&self) -> Option<f64> {
        ratio(self.options_jaccard, self.options_compared)
    }
    /// Prompt key coverage.
    pub fn prompt_key_coverage(&self) -> Option<f64> {
        ratio(self.prompt_covered as f64, self.author_keys)
    }
}

/// Scores one proposal. `author_keys` are the keys the author's form asks for (the pair's
/// `inputKeys`, or the form's own input keys); `author` the form's fields, for types and labels;
/// `prompt` the text the model was shown.
pub fn score(author_keys: &[String], author: &[Field], proposal: &[Field], prompt: &str) -> Counts {
    let mut seen = HashSet::new();
    let author_keys: Vec<&str> = author_keys.iter().map(String::as_str).filter(|k| seen.insert(*k)).collect();
    let author_by_path: HashMap<&str, &Field> = author.iter().map(|f| (f.path.as_str(), f)).collect();
    let proposal_by_path: HashMap<&str, &Field> = proposal.iter().map(|f| (f.path.as_str(), f)).collect();
    let mut c =
        Counts { author_keys: author_keys.len(), proposal_keys: proposal_by_path.len(), ..Counts::default() };
    let wanted: HashSet<&str> = author_keys.iter().copied().collect();
    c.proposal_matched = proposal_by_path.keys().filter(|k| wanted.contains(*k)).count();
    for key in &author_keys {
        if appears_as_word(prompt, key) {
            c.prompt_covered += 1;
        }
        let Some(p) = proposal_by_path.get(key) else { continue };
        c.matched += 1;
        let Some(a) = author_by_path.get(key) else { continue };
        c.compared += 1;
        c.type_exact += usize::from(a.kind == p.kind);
        c.type_loose += usize::from(loose(&a.kind) == loose(&p.kind));
        c.label_equal += usize::from(fold(&a.label) == fold(&p.label));
        c.required_equal += usize::from(a.required == p.required);
        c.conditional_author += usize::from(a.conditional);
        c.conditional_both += usize::from(a.conditional && p.conditional);
        if a.is_choice() && p.is_choice() {
            c.options_compared += 1;
            c.options_jaccard += jaccard(&a.options, &p.options);
        }
    }
    c.all_reproduced = usize::from(c.author_keys > 0 && c.matched == c.author_keys);
    c
}

/// The type with textfield/textarea and select/radio merged.
fn loose(kind: &str) -> &str {
    match kind {
        "textarea" => "textfield",
        "radio" => "select",
        other => other,
    }
}

/// Lower case, runs of white space as one space, trimmed.
pub fn fold(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The agreement of two option sources (see the module documentation).
pub fn jaccard(a: &Options, b: &Options) -> f64 {
    match (a, b) {
        (Options::Inline(x), Options::Inline(y)) => {
            let x: HashSet<&str> = x.iter().map(String::as_str).collect();
            let y: HashSet<&str> = y.iter().map(String::as_str).collect();
            let union = x.union(&y).count();
            if union == 0 { 1.0 } else { x.intersection(&y).count() as f64 / union as f64 }
        }
        (Options::Key(x), Options::Key(y)) | (Options::Expression(x), Options::Expression(y)) if x == y => {
            1.0
        }
        _ => 0.0,
    }
}

/// Whether `key` occurs in `text` with no word character right before or after it.
pub fn appears_as_word(text: &str, key: &str) -> bool {
    if key.is_empty() {
        return false;
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(key).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].chars().next();
        !word(before) && !word(after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(path: &str, kind: &str, label: &str, required: bool) -> Field {
        let options = if super::super::fields::CHOICE_TYPES.contains(&kind) {
            Options::Inline(vec![])
        } else {
            Options::NotChoice
        };
        Field {
            path: path.into(),
            kind: kind.into(),
            label: label.into(),
            required,
            options,
            conditional: false,
        }
    }

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_are_bounded_by_non_word_characters_and_dots_are_not_word_characters() {
        assert!(appears_as_word("reads amount, then", "amount"));
        assert!(appears_as_word("order.amount", "amount"));
        assert!(appears_as_word("`order.amount`", "order.amount"));
        assert!(!appears_as_word("totalAmount amounts", "amount"));
        assert!(!appears_as_word("amount_due", "amount"));
        assert!(!appears_as_word("Amount", "amount"), "keys are case-sensitive");
        assert!(!appears_as_word("order amount", "order.amount"));
        assert!(appears_as_word("x amounts amount", "amount"), "a later occurrence counts");
        assert!(!appears_as_word("anything", ""));
        assert!(!appears_as_word("ämount", "mount"), "a letter outside ASCII is a word character");
    }

    #[test]
    fn conditional_fields_count_the_authors_conditional_fields_both_have() {
        let hidden = |path: &str| Field { conditional: true, ..f(path, "textfield", "", false) };
        let author = [hidden("a"), hidden("b"), f("c", "textfield", "", false), hidden("d")];
        let proposal = [hidden("a"), f("b", "textfield", "", false), hidden("c")];
        let c = score(&keys(&["a", "b", "c", "d"]), &author, &proposal, "");
        // `d` the proposal lacks; `c` the author shows always
        assert_eq!((c.conditional_both, c.conditional_author), (1, 2));
        assert_eq!(c.conditional_agreement(), Some(0.5));
        let none = score(&keys(&["c"]), &author, &proposal, "");
        assert_eq!(none.conditional_agreement(), None);
    }

    #[test]
    fn a_half_reproduced_form_with_one_type_mismatch() {
        let author = [f("a", "textfield", "Name", true), f("b", "number", "Age", false)];
        let proposal = [f("a", "textarea", " name ", false), f("c", "textfield", "C", false)];
        let c = score(&keys(&["a", "b"]), &author, &proposal, "the process reads a and nothing else");
        assert_eq!((c.key_recall(), c.key_precision()), (Some(0.5), Some(0.5)));
        assert_eq!((c.type_agreement(), c.loose_type_agreement()), (Some(0.0), Some(1.0)));
        assert_eq!((c.label_agreement(), c.required_agreement()), (Some(1.0), Some(0.0)));
        assert_eq!((c.options_agreement(), c.prompt_key_coverage()), (None, Some(0.5)));
        assert_eq!(c.all_reproduced, 0);
    }

    #[test]
    fn micro_averages_weigh_keys_not_pairs() {
        let one = score(&keys(&["a"]), &[f("a", "textfield", "", false)], &[], "");
        let four = score(
            &keys(&["a", "b", "c", "d"]),
            &[],
            &[
                f("a", "textfield", "", false),
                f("b", "textfield", "", false),
                f("c", "number", "", false),
                f("d", "number", "", false),
            ],
            "",
        );
        let mut total = one;
        total += four;
        assert_eq!(total.key_recall(), Some(0.8), "4 of 5 keys, not the mean of 0 and 1");
        assert_eq!(four.all_reproduced + one.all_reproduced, 1);
        assert_eq!(four.compared, 0, "no author field to compare types with");
    }

    #[test]
    fn option_sources_compare_by_jaccard_or_by_identity() {
        let inline = |v: &[&str]| Options::Inline(v.iter().map(|s| s.to_string()).collect());
        assert_eq!(jaccard(&inline(&["a", "b", "c"]), &inline(&["b", "c", "d"])), 0.5);
        assert_eq!(jaccard(&inline(&[]), &inline(&[])), 1.0);
        assert_eq!(jaccard(&Options::Key("k".into()), &Options::Key("k".into())), 1.0);
        assert_eq!(jaccard(&Options::Key("k".into()), &inline(&["k"])), 0.0);
        assert_eq!(jaccard(&Options::Expression("=x".into()), &Options::Key("=x".into())), 0.0);
    }

    #[test]
    fn labels_fold_case_and_white_space() {
        assert_eq!(fold("  First\tName \n"), "first name");
        assert_ne!(fold("First-name"), fold("First name"));
    }
}
