//! Words in identifiers: `startDate`, `start_date`, `Start-Date`, `APIKey`, `cvv2` all split the same way.
//!
//! Three stages read identifiers as words: the gate's secret rule (a key `apiKey` asks for an API key,
//! `keyboard` does not), its process-fit rule (is `vacationDays` the process's `urlaubstage`?), and the
//! builtin drafter's labels (`startDate` becomes "Start date"). They must split alike, so they share this.
//!
//! [`secrets`] reads a text for a secret it asks for; [`fit`] finds the process variable a key
//! probably means.

pub mod fit;
pub mod secrets;

/// Splits an identifier or label into lower-case words: at spaces and punctuation, at lower-to-upper
/// case changes (`startDate`), before the last capital of an acronym run (`APIKey` → api, key), and
/// between letters and digits (`cvv2` → cvv, 2).
pub fn split(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut words);
            continue;
        }
        if let Some(&prev) = i.checked_sub(1).and_then(|p| chars.get(p)) {
            let next = chars.get(i + 1).copied();
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase))
                || (prev.is_alphabetic() && c.is_numeric())
                || (prev.is_numeric() && c.is_alphabetic());
            if boundary {
                flush(&mut current, &mut words);
            }
        }
        current.extend(c.to_lowercase());
    }
    flush(&mut current, &mut words);
    words
}

fn flush(current: &mut String, words: &mut Vec<String>) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

/// The first character upper-cased: a sentence start, an option label. A sentence that starts with a
/// path or a file name (`fixtures/order.bpmn: ...`) keeps it as written: its case is the file's.
pub(crate) fn capitalise(s: &str) -> String {
    if starts_with_path(s) {
        return s.to_string();
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(f) => f.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether the first word is a path or a file name: it holds a `/` or `\\`, or a `.` between letters
/// or digits (`order.bpmn`, not the `e.` of a sentence's last word).
fn starts_with_path(s: &str) -> bool {
    let word = s.split_whitespace().next().unwrap_or_default().trim_end_matches([':', ',', ';']);
    let inner_dot = word.char_indices().any(|(i, c)| {
        c == '.'
            && word[..i].chars().last().is_some_and(char::is_alphanumeric)
            && word[i + 1..].chars().next().is_some_and(char::is_alphanumeric)
    });
    word.contains(['/', '\\']) || inner_dot
}

/// A message as a sentence: upper-case start, full stop at the end (unless it ends in one already).
/// Every layer's messages reach authors through this, so they read alike.
pub fn sentence(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    let mut out = capitalise(s);
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Text taken from a file or a process, made safe to print in a line of text output: every control
/// character (C0, DEL, C1) and every bidirectional override is written as an escape (`\n`, `\r`,
/// `\t`, else `\u{1b}`), so a name cannot move the cursor, set a window title, ring the bell, clear
/// the screen or break a line to forge one of its own; everything else is kept as it is.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !s.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if escaped(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A name on one line: a modeller breaks a long name over lines to fit its shape (`Rechnung\nklären`),
/// which a sentence, a heading or a prompt reads as the one name it is, its spaces single.
pub fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    let spaced = s.split(' ').all(|w| !w.is_empty() && !w.contains(char::is_whitespace));
    if spaced || s.is_empty() {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(s.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// [`printable`] for text of many lines: the line breaks are kept (they are the text's own), every
/// other control character escaped.
pub fn printable_lines(s: &str) -> String {
    s.split('\n').map(printable).collect::<Vec<_>>().join("\n")
}

/// The first character lower-cased: a sentence start used inside another sentence.
pub(crate) fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(f) => f.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A readable label from a variable name in its own language: `startDate` → "Start date",
/// `urlaubstage` → "Urlaubstage", `customer.address.zip` → "Customer address zip", with an acronym
/// in capitals as authors write it (`documentUrl` → "Document URL").
pub(crate) fn humanise(name: &str) -> String {
    let words: Vec<String> = split(name)
        .into_iter()
        .map(|w| if ACRONYMS.contains(&w.as_str()) { w.to_uppercase() } else { w })
        .collect();
    capitalise(&words.join(" "))
}

/// Acronyms that are no word of their own in any language a label is made in. Not `id` (authors write
/// "Customer Id" as often as "Customer ID") nor `zip` or `pin`, which are words too.
const ACRONYMS: &[&str] = &[
    "url", "uri", "api", "iban", "bic", "vat", "sku", "pdf", "cvc", "cvv", "sms", "uuid", "http", "https",
    "html", "json", "xml", "csv",
];

/// An option's label from its value, as authors write one: an identifier read as words (`SEMI_ANNUAL` →
/// "Semi annual", `adresse_aendern` → "Adresse aendern", `tag1` → "Tag 1"); other text with its first
/// letter upper-cased (`day-to-day expense` → "Day-to-day expense") unless it starts with a path; a code of
/// up to three capitals (`EUR`) or a value without letters (`1.5`) as written.
pub(crate) fn option_label(value: &str) -> String {
    let identifier = value.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let code = value.chars().count() <= 3 && value.chars().all(|c| c.is_ascii_uppercase());
    if code || !value.chars().any(char::is_alphabetic) {
        value.to_string()
    } else if identifier {
        humanise(value)
    } else {
        capitalise(value)
    }
}

/// A form-js key from a label: `"Start date"` → `startDate`, `"Größe (cm)"` → `grosseCm`. Letters are
/// folded to ASCII where a plain transliteration exists; other characters are dropped. Returns `None` when
/// nothing usable remains.
pub(crate) fn key_from_label(label: &str) -> Option<String> {
    let mut key = String::new();
    for (i, w) in split(label).iter().enumerate() {
        let ascii = ascii(w);
        if ascii.is_empty() {
            continue;
        }
        if i == 0 || key.is_empty() {
            key.push_str(&ascii);
        } else {
            let mut chars = ascii.chars();
            if let Some(first) = chars.next() {
                key.push(first.to_ascii_uppercase());
                key.push_str(chars.as_str());
            }
        }
    }
    if key.starts_with(|c: char| c.is_ascii_digit()) {
        key.insert(0, '_');
    }
    (!key.is_empty()).then_some(key)
}

/// A word folded to ASCII as [`key_from_label`] folds it (`prüfen` → `pruefen`): a name and a key
/// written with and without umlauts meet.
pub(crate) fn ascii(word: &str) -> String {
    word.chars().flat_map(fold).collect()
}

/// ASCII folding for the letters of European languages; anything else outside ASCII is dropped.
fn fold(c: char) -> Vec<char> {
    if c.is_ascii_alphanumeric() {
        return vec![c];
    }
    let s: &str = match c {
        'ä' | 'æ' => "ae",
        'ö' | 'œ' => "oe",
        'ü' => "ue",
        'ß' => "ss",
        'à' | 'á' | 'â' | 'ã' | 'å' => "a",
        'ç' => "c",
        'è' | 'é' | 'ê' | 'ë' => "e",
        'ì' | 'í' | 'î' | 'ï' => "i",
        'ñ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ø' => "o",
        'ù' | 'ú' | 'û' => "u",
        'ý' | 'ÿ' => "y",
        _ => "",
    };
    s.chars().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_every_control_character_and_keeps_the_rest() {
        assert_eq!(printable("Antrag prüfen"), "Antrag prüfen");
        assert_eq!(
            printable("a\u{1b}]0;owned\u{7}b\rc\nerror: d\te\u{9b}f\u{202e}g\u{7f}"),
            "a\\u{1b}]0;owned\\u{7}b\\rc\\nerror: d\\te\\u{9b}f\\u{202e}g\\u{7f}"
        );
        assert_eq!(printable_lines("one\u{1b}[2J\ntwo\r"), "one\\u{1b}[2J\ntwo\\r");
    }

    #[test]
    fn a_name_reads_on_one_line_with_single_spaces() {
        assert!(matches!(one_line("Rechnung klären"), std::borrow::Cow::Borrowed("Rechnung klären")));
        assert_eq!(one_line("Rechnung\nklären"), "Rechnung klären");
        assert_eq!(one_line(" Assign \r\n\tApprover  "), "Assign Approver");
        assert_eq!(one_line(""), "");
        assert_eq!(one_line("\n"), "");
    }

    #[test]
    fn a_path_at_a_sentence_start_keeps_its_case() {
        assert_eq!(sentence("fixtures/bpmn/x.bpmn holds no BPMN"), "fixtures/bpmn/x.bpmn holds no BPMN.");
        assert_eq!(sentence("order.bpmn: no process"), "order.bpmn: no process.");
        assert_eq!(sentence("the form is empty"), "The form is empty.");
        assert_eq!(capitalise("e.g. this"), "e.g. this");
        assert_eq!(capitalise("ok. then"), "Ok. then");
    }

    #[test]
    fn splits_every_spelling_alike() {
        for s in ["apiKey", "api_key", "API-Key", "APIKey", "api key", "Api.Key"] {
            assert_eq!(split(s), ["api", "key"], "{s}");
        }
        assert_eq!(split("cvv2"), ["cvv", "2"]);
        assert_eq!(split("keyboard"), ["keyboard"]);
        assert_eq!(split("Urlaubstage"), ["urlaubstage"]);
        assert_eq!(split("customer.address.zipCode"), ["customer", "address", "zip", "code"]);
    }

    #[test]
    fn labels_in_the_variables_own_language() {
        assert_eq!(humanise("urlaubstage"), "Urlaubstage");
        assert_eq!(humanise("startDate"), "Start date");
        assert_eq!(humanise("employee_name"), "Employee name");
        assert_eq!(humanise("documentUrl"), "Document URL");
        assert_eq!(humanise("apiKey"), "API key");
        assert_eq!(humanise("ibanNumber"), "IBAN number");
        assert_eq!(humanise("customerId"), "Customer id");
        assert_eq!(humanise(""), "");
    }

    #[test]
    fn an_options_label_reads_its_value_as_words_and_keeps_codes_and_numbers() {
        for (value, label) in [
            ("SEMI_ANNUAL", "Semi annual"),
            ("adresse_aendern", "Adresse aendern"),
            ("budget", "Budget"),
            ("camunda-platform", "Camunda platform"),
            ("tag1", "Tag 1"),
            ("Misc", "Misc"),
            ("day-to-day expense", "Day-to-day expense"),
            ("https://example.org/a_b", "https://example.org/a_b"),
            ("EUR", "EUR"),
            ("1.5", "1.5"),
            ("", ""),
        ] {
            assert_eq!(option_label(value), label, "{value}");
        }
    }

    #[test]
    fn keys_from_labels() {
        assert_eq!(key_from_label("Start date").as_deref(), Some("startDate"));
        assert_eq!(key_from_label("Größe (cm)").as_deref(), Some("groesseCm"));
        assert_eq!(key_from_label("2nd line").as_deref(), Some("_2NdLine"));
        assert_eq!(key_from_label("日本"), None);
    }
}
