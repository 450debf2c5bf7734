//! What the builtin drafter can use of an author's brief: its first line as the heading (when it reads
//! as a title, not a sentence), its language
//! for the labels the drafter makes up, and a list of fields ("Name, E-Mail, Betrag", or one per
//! bulleted line). Everything else in the brief is prose only a model reads; [`Brief::unused`] keeps it
//! so the drafter can say so.
//!
//! This file reads text; it knows nothing of processes or forms. The drafter (`mod.rs`) joins the
//! brief's fields with the process's through [`merge`].

use serde_json::{Value, json};

use crate::words;
use crate::words::fit::close_variable;

/// The language the brief is written in, for the labels the drafter makes up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Language {
    /// English (also the default when the brief does not tell).
    #[default]
    English,
    /// German.
    German,
}

impl Language {
    /// The label of the free-text field a form without a process gets.
    pub fn notes(self) -> &'static str {
        match self {
            Language::English => "Notes",
            Language::German => "Notizen",
        }
    }

    /// The heading of a form with nothing better to call it.
    pub fn form(self) -> &'static str {
        match self {
            Language::English => "Form",
            Language::German => "Formular",
        }
    }
}

/// A brief as the builtin drafter reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Brief {
    /// The first line, when it is a title rather than a list or a long sentence.
    pub heading: Option<String>,
    /// The brief's language.
    pub language: Language,
    /// Field labels as the author wrote them, in order.
    pub fields: Vec<String>,
    /// Lines (or list entries) the drafter has no use for, as written.
    pub unused: Vec<String>,
}

/// Longest first line taken as a heading, in characters.
const HEADING_CHARS: usize = 120;

/// Reads a brief. Never fails: what it cannot read lands in [`Brief::unused`].
pub fn read(description: &str) -> Brief {
    let lines: Vec<&str> = description.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut brief = Brief { language: language(description), ..Brief::default() };
    for (i, line) in lines.iter().enumerate() {
        if let Some(item) = bullet(line) {
            match label(item) {
                Some(l) => brief.fields.push(l),
                None => brief.unused.push(line.to_string()),
            }
        } else if let Some(items) = comma_list(line) {
            brief.fields.extend(items);
        } else if line.ends_with(':') && lines.get(i + 1).is_some_and(|next| bullet(next).is_some()) {
            // "Fields:" introducing a list: read, nothing to use
        } else if i == 0 && is_title(line) {
            let title = line.trim_start_matches('#').trim().trim_end_matches([':', '.']).trim();
            if title.is_empty() {
                brief.unused.push(line.to_string());
            } else {
                brief.heading = Some(title.to_string());
            }
        } else {
            brief.unused.push(line.to_string());
        }
    }
    let mut seen = Vec::new();
    brief.fields.retain(|f| {
        let folded = f.to_lowercase();
        let new = !seen.contains(&folded);
        seen.push(folded);
        new
    });
    brief
}

/// Whether a first line reads as a title (`# Leave request`, `Urlaubsantrag prüfen`) rather than a
/// sentence of instructions, which only a model can use.
fn is_title(line: &str) -> bool {
    line.starts_with('#')
        || (line.chars().count() <= HEADING_CHARS
            && line.split_whitespace().count() <= TITLE_WORDS
            && !line.ends_with(['.', '!', '?']))
}

/// The most words a first line has to be taken as a title without a `#`.
const TITLE_WORDS: usize = 8;

/// The text of a bulleted or numbered line (`- Name`, `* Name`, `• Name`, `1. Name`, `2) Name`).
fn bullet(line: &str) -> Option<&str> {
    for mark in ["- ", "* ", "• ", "– ", "+ "] {
        if let Some(rest) = line.strip_prefix(mark) {
            return Some(rest.trim());
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &line[digits..];
    (digits > 0 && digits < 3)
        .then(|| rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")))
        .flatten()
        .map(str::trim)
}

/// A line that is a list of field names, optionally after an intro (`Felder: Name, E-Mail und Betrag`).
/// Without an intro it needs a comma or semicolon: "Legal review and approval of the offering." is
/// a sentence.
fn comma_list(line: &str) -> Option<Vec<String>> {
    let list = match line.split_once(':') {
        Some((intro, rest)) if intro.split_whitespace().count() <= 3 && !rest.trim().is_empty() => rest,
        _ if !line.contains([',', ';']) => return None,
        _ => line,
    };
    let mut items: Vec<&str> = list.split([',', ';']).map(str::trim).collect();
    if let Some(last) = items.pop() {
        let mut rest = last;
        for joiner in [" and ", " und ", " oder ", " or ", " & "] {
            if let Some((a, b)) = rest.split_once(joiner) {
                items.push(a.trim());
                rest = b.trim();
                break;
            }
        }
        items.push(rest.trim_end_matches('.'));
    }
    if items.len() < 2 {
        return None;
    }
    items.into_iter().map(|item| label(item).filter(|l| *l == item.trim())).collect()
}

/// A field label: a name of at most four words, cut before an explanation (`Betrag: in Euro`,
/// `Betrag (EUR)`, `Betrag – in Euro`).
fn label(item: &str) -> Option<String> {
    let end = [":", "(", " - ", " – "].iter().filter_map(|sep| item.find(sep)).min().unwrap_or(item.len());
    let name = item[..end].trim().trim_end_matches('.');
    let looks_like_a_name = !name.is_empty()
        && name.chars().count() <= 40
        && name.split_whitespace().count() <= 4
        && !name.contains(['?', '!', '.', '"'])
        && name.chars().any(char::is_alphabetic);
    looks_like_a_name.then(|| name.to_string())
}

/// Words that tell German from English in a brief.
const GERMAN: &[&str] = &[
    "und",
    "der",
    "die",
    "das",
    "für",
    "fuer",
    "mit",
    "bitte",
    "ein",
    "eine",
    "einen",
    "ist",
    "zu",
    "den",
    "dem",
    "von",
    "nicht",
    "oder",
    "soll",
    "sollen",
    "wird",
    "werden",
    "auf",
    "im",
    "vom",
    "zur",
    "zum",
    "des",
    "formular",
    "antrag",
    "betrag",
    "datum",
    "kommentar",
    "bemerkung",
    "begründung",
    "anzahl",
    "menge",
    "preis",
    "rechnung",
    "kunde",
    "telefon",
    "vorname",
    "nachname",
    "unterschrift",
    "abteilung",
    "felder",
    "urlaub",
    "tage",
    "genehmigung",
    "adresse",
    "straße",
    "strasse",
];
const ENGLISH: &[&str] = &[
    "the", "and", "for", "with", "please", "a", "an", "is", "to", "of", "form", "or", "should", "will", "in",
    "on", "this", "request", "fields", "amount", "date", "comment", "reason", "first", "last", "phone",
    "address", "approval", "days",
];

fn language(text: &str) -> Language {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric() && c != 'ß').collect();
    let count = |list: &[&str]| words.iter().filter(|w| list.contains(w)).count();
    let umlauts = lower.chars().filter(|c| "äöüß".contains(*c)).count();
    if count(GERMAN) + umlauts > count(ENGLISH) { Language::German } else { Language::English }
}

/// Joins the brief's fields with the drafted `components`: a field naming a process variable (exactly
/// or by meaning, as the gate's fit rule decides) relabels the drafted field for it, or adds one for
/// it; any other gets a field of its own, keyed from its label. `make(key)` drafts a field for a key.
/// Returns the labels that gave no usable key.
pub(super) fn merge(
    fields: &[String],
    components: &mut Vec<Value>,
    variables: &[&str],
    make: impl Fn(&str) -> Value,
) -> Vec<String> {
    let mut unusable = Vec::new();
    for label in fields {
        // a form is no place for a secret: the gate would refuse the whole draft for one such field
        if crate::words::secrets::secret_in(label).is_some() {
            unusable.push(label.clone());
            continue;
        }
        let Some(key) = key_for(label, variables) else {
            unusable.push(label.clone());
            continue;
        };
        match components.iter_mut().find(|c| c.get("key").and_then(Value::as_str) == Some(key.as_str())) {
            Some(existing) => relabel(existing, label),
            None => {
                let mut field = make(&key);
                relabel(&mut field, label);
                components.push(field);
            }
        }
    }
    unusable
}

/// The key for a field labelled `label`: the variable it names (exactly or by meaning, as the gate's
/// fit rule decides), else one made from the label; none when the label has no letters or digits.
pub(super) fn key_for(label: &str, variables: &[&str]) -> Option<String> {
    let guess = words::key_from_label(label)?;
    let known =
        variables.iter().find(|v| **v == guess).copied().or_else(|| close_variable(&guess, variables));
    Some(known.map_or(guess, str::to_string))
}

/// Gives a field the author's label (a date or time field carries it as `dateLabel` / `timeLabel`).
fn relabel(field: &mut Value, label: &str) {
    let Some(obj) = field.as_object_mut() else { return };
    let slot = match obj.get("subtype").and_then(Value::as_str) {
        _ if obj.get("type") != Some(&json!("datetime")) => "label",
        Some("time") => "timeLabel",
        _ => "dateLabel",
    };
    obj.insert(slot.to_string(), json!(label));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_language_and_a_comma_list() {
        let b = read("Reisekostenabrechnung\nFelder: Name, E-Mail und Betrag\nBitte mit Belegen.");
        assert_eq!(b.heading.as_deref(), Some("Reisekostenabrechnung"));
        assert_eq!(b.language, Language::German);
        assert_eq!(b.fields, ["Name", "E-Mail", "Betrag"]);
        assert_eq!(b.unused, ["Bitte mit Belegen."]);
    }

    #[test]
    fn bullets_with_explanations_and_an_intro() {
        let b = read(
            "# Leave request\nFields:\n- Start date (the first day off)\n* Days: how many\n1. Reason\n- \n",
        );
        assert_eq!(b.heading.as_deref(), Some("Leave request"));
        assert_eq!(b.language, Language::English);
        assert_eq!(b.fields, ["Start date", "Days", "Reason"]);
        assert_eq!(b.unused, ["-"]);
    }

    #[test]
    fn prose_is_not_a_list_and_a_list_is_not_a_heading() {
        let b = read("Name, E-Mail, Betrag");
        assert_eq!((b.heading, b.fields.len()), (None, 3));
        let b = read("A form where the employee asks for leave, and the manager, who decides, signs it");
        assert!(b.fields.is_empty(), "{:?}", b.fields);
        assert_eq!((b.heading, b.unused.len()), (None, 1), "a sentence is not a title");
        assert_eq!(read("Bitte ein Formular.").heading, None);
        assert_eq!(
            read("# Bitte ein Formular für die Prüfung des Antrags mit Kommentar.").heading.as_deref(),
            Some("Bitte ein Formular für die Prüfung des Antrags mit Kommentar")
        );
        assert_eq!(read("").language, Language::English);
        assert_eq!(read("Name, name, NAME").fields, ["Name"]);
        let b = read("Legal review and approval of the offering.");
        assert!(b.fields.is_empty(), "a sentence with an \"and\" is not a list: {:?}", b.fields);
        assert_eq!(read("Fields: Name and Amount").fields, ["Name", "Amount"]);
    }

    proptest::proptest! {
        /// Any text reads without panicking, and everything read is the author's own text.
        #[test]
        fn reads_any_text_and_invents_nothing(text in "(\\PC{0,30}[,;:\n\\-\\*•#. ]){0,12}") {
            let b = read(&text);
            if let Some(h) = &b.heading {
                proptest::prop_assert!(text.contains(h.as_str()));
            }
            for f in &b.fields {
                proptest::prop_assert!(text.contains(f.as_str()) && f.chars().count() <= 40, "{f:?}");
            }
            for u in &b.unused {
                proptest::prop_assert!(text.contains(u.as_str()));
            }
        }
    }

    #[test]
    fn fields_key_to_the_variable_they_mean() {
        let mut components = vec![json!({"type": "number", "key": "urlaubstage", "label": "Urlaubstage"})];
        let unusable = merge(
            &[
                "Urlaubstage".into(),
                "Amount".into(),
                "Favourite colour".into(),
                "日本".into(),
                "Passwort".into(),
            ],
            &mut components,
            &["urlaubstage", "betrag"],
            |k| json!({"type": "textfield", "key": k}),
        );
        let keys: Vec<&str> = components.iter().map(|c| c["key"].as_str().unwrap()).collect();
        assert_eq!(keys, ["urlaubstage", "betrag", "favouriteColour"]);
        assert_eq!(components[1]["label"], "Amount");
        assert_eq!(unusable, ["日本", "Passwort"]);
    }
}
