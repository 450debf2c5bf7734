//! Redaction: the installation's resolved secrets taken out of every text that came from outside.
//!
//! A model endpoint (or anything posing as one) may echo what it was sent: the key in its error type,
//! its message, or its answer, and in any spelling a JSON reader decodes back to the key. A
//! [`Redactor`] is built from the exact secrets one call used (the Worker's resolved key and, for a
//! key from the vault, the vault's token); it is the one place that knows them, and every output of
//! a model generation passes through it:
//! - where the call's result comes back (`model::call`): the answer text, the provider's error type
//!   and the raw bodies kept for the log;
//! - where the answer's JSON is decoded (the service parses it, scrubs every string and object key
//!   with [`Redactor::scrub_value`], then gates it), so every string the gate derives from the answer
//!   (labels, made-up keys, quotes in its sentences) is derived from redacted text;
//! - where the generation's events and its result leave the service (drafts, warnings, repair
//!   sentences, the proposal, the refusal sentences).
//!
//! A secret is found in text however it is spelled there: as itself; JSON-escaped, with any subset
//! of its characters written as `\uXXXX` (either case of hex, surrogate pairs for characters past
//! U+FFFF) or as a short escape (`\"`, `\\`, `\/`, …), mixed freely; as a browser renders it from
//! HTML or Markdown (a form's `text` and `html` components are rendered so), with characters written
//! as character references (`&#115;`, `&#x73;`, with or without their `;`) or named entities
//! (`&lowbar;`, `&period;`), tags and comments between its characters, or Markdown's backslash
//! escapes (`sk\-canary`); and each spelling inside another, JSON escapes of references and
//! references to JSON escapes (up to [`DEPTH`] levels of decoding); with Markdown's emphasis and
//! code marks (`*`, `_`, `~`, `` ` ``) between its characters, which a browser shows as the secret in
//! bold or italics (looked for as the secret without those marks, in each spelling's text without
//! them); and base64-encoded (standard or URL-safe alphabet,
//! padded or not), at any of the three alignments a secret can have inside a longer encoded text,
//! in each of those spellings. The text it occupies is replaced by [`REDACTED`] whole; for base64,
//! only the characters that depend on nothing but the secret's bytes are replaced.
//!
//! This module knows secrets and text; it knows nothing of where either came from.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use secrecy::zeroize::Zeroizing;
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;

/// What a secret is replaced by.
pub const REDACTED: &str = "[REDACTED]";

/// Secrets shorter than this are not redacted: replacing every `a` of an answer would destroy it,
/// and a secret that short protects nothing anyway.
const SHORTEST: usize = 4;

/// Secrets shorter than this many bytes are not looked for in base64: the part of their encoding
/// that depends on them alone is a few characters, which ordinary base64 text holds by chance.
const BASE64_SHORTEST: usize = 8;

/// How many levels of JSON escaping are undone when looking for a secret (a string escaped inside
/// a JSON string inside a JSON body is two).
pub const DEPTH: usize = 3;

/// Markdown's emphasis and code marks: a text component shows `sk-c**ana**ry` as `sk-canary`.
const MARKS: [char; 4] = ['*', '_', '~', '`'];

/// One secret and the spellings looked for beside the plain one.
struct Secret {
    /// The secret itself.
    plain: SecretString,
    /// The secret without Markdown's marks, looked for in texts without them (`None`: too short
    /// without them to be told from chance).
    unmarked: Option<SecretString>,
    /// The characters of its base64 encodings that depend on its bytes alone: per alphabet and
    /// alignment, deduplicated.
    base64: Vec<SecretString>,
}

/// The secrets of one call, to be taken out of what came back.
#[derive(Default)]
pub struct Redactor {
    secrets: Vec<Secret>,
}

impl Clone for Redactor {
    fn clone(&self) -> Redactor {
        let secrets = self
            .secrets
            .iter()
            .map(|s| Secret {
                plain: s.plain.clone(),
                unmarked: s.unmarked.clone(),
                base64: s.base64.clone(),
            })
            .collect();
        Redactor { secrets }
    }
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Redactor({} secrets)", self.secrets.len())
    }
}

impl Redactor {
    /// A redactor for these secrets (`None`s and too-short ones are skipped).
    pub fn new<'a>(secrets: impl IntoIterator<Item = Option<&'a SecretString>>) -> Redactor {
        let mut all: Vec<Secret> = Vec::new();
        for secret in secrets.into_iter().flatten() {
            let plain = secret.expose_secret();
            if plain.chars().count() < SHORTEST || all.iter().any(|s| s.plain.expose_secret() == plain) {
                continue;
            }
            let unmarked = Some(Zeroizing::new(plain.replace(MARKS, "")))
                .filter(|u| u.chars().count() >= SHORTEST)
                .map(|u| SecretString::from(u.to_string()));
            all.push(Secret { plain: secret.clone(), unmarked, base64: base64_cores(plain.as_bytes()) });
        }
        // longest first, so a secret that contains another is replaced whole
        all.sort_by_key(|s| std::cmp::Reverse(s.plain.expose_secret().len()));
        Redactor { secrets: all }
    }

    /// Whether there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `text` with every secret, in every spelling, replaced by [`REDACTED`].
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        self.scrub_in_place(&mut out);
        out
    }

    /// Replaces every secret in `text`, in every spelling, by [`REDACTED`].
    pub fn scrub_in_place(&self, text: &mut String) {
        if self.is_empty() {
            return;
        }
        let found = self.find(text);
        if found.is_empty() {
            return;
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in found {
            out.push_str(&text[at..start]);
            out.push_str(REDACTED);
            at = end;
        }
        out.push_str(&text[at..]);
        *text = out;
    }

    /// Scrubs each text.
    pub fn scrub_all(&self, texts: &mut [String]) {
        texts.iter_mut().for_each(|t| self.scrub_in_place(t));
    }

    /// Scrubs every string of a decoded JSON value, object keys included.
    pub fn scrub_value(&self, value: &mut Value) {
        if self.is_empty() {
            return;
        }
        match value {
            Value::String(s) => self.scrub_in_place(s),
            Value::Array(items) => items.iter_mut().for_each(|i| self.scrub_value(i)),
            Value::Object(map) => {
                if map.keys().any(|k| !self.find(k).is_empty()) {
                    let entries = std::mem::take(map);
                    for (key, mut item) in entries {
                        self.scrub_value(&mut item);
                        map.insert(self.scrub(&key), item);
                    }
                } else {
                    map.values_mut().for_each(|i| self.scrub_value(i));
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// The byte ranges of `text` that spell a secret, sorted and merged.
    fn find(&self, text: &str) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        self.find_in(text, |a, b| (a, b), &mut found);
        // each level of escaping undone, by each decoder in turn (a JSON string holding HTML
        // references, references to JSON escapes), the ranges mapped back to the text as given
        let mut views: Vec<(String, Vec<usize>)> = Vec::new();
        let mut level: Vec<Option<usize>> = vec![None];
        for _ in 0..DEPTH {
            let mut next = Vec::new();
            for view in level {
                let (current, outer) = match view {
                    Some(i) => (views[i].0.as_str(), Some(&views[i].1)),
                    None => (text, None),
                };
                let decoded = [unescape(current), formgen_core::html::decode(current)];
                let mut made = Vec::new();
                for (decoded, map) in decoded.into_iter().flatten() {
                    let map: Vec<usize> = match outer {
                        Some(outer) => map.iter().map(|&i| outer[i]).collect(),
                        None => map,
                    };
                    self.find_in(&decoded, |a, b| (map[a], map[b]), &mut found);
                    made.push((decoded, map));
                }
                for view in made {
                    views.push(view);
                    next.push(Some(views.len() - 1));
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        // each spelling as a browser shows it from Markdown, its emphasis and code marks gone
        let spellings =
            std::iter::once((text, None)).chain(views.iter().map(|(v, map)| (v.as_str(), Some(map))));
        for (current, outer) in spellings {
            let Some((bare, map)) = unmarked(current) else { continue };
            let map: Vec<usize> = match outer {
                Some(outer) => map.iter().map(|&i| outer[i]).collect(),
                None => map,
            };
            for unmarked in self.secrets.iter().filter_map(|s| s.unmarked.as_ref()) {
                let needle = unmarked.expose_secret();
                for (at, _) in bare.match_indices(needle) {
                    found.push((map[at], map[at + needle.len()]));
                }
            }
        }
        merged(found)
    }

    /// Adds the ranges of `text` (mapped by `to_original`) where a spelling of a secret stands.
    fn find_in(
        &self,
        text: &str,
        to_original: impl Fn(usize, usize) -> (usize, usize),
        found: &mut Vec<(usize, usize)>,
    ) {
        for secret in &self.secrets {
            let needles = std::iter::once(&secret.plain).chain(&secret.base64);
            for needle in needles {
                let needle = needle.expose_secret();
                for (at, _) in text.match_indices(needle) {
                    found.push(to_original(at, at + needle.len()));
                }
            }
        }
    }
}

/// `s` without Markdown's emphasis and code marks, and for each byte of the result (and one past its
/// end) the offset in `s` it comes from; `None` when `s` has none.
fn unmarked(s: &str) -> Option<(String, Vec<usize>)> {
    if !s.contains(MARKS) {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len() + 1);
    for (i, c) in s.char_indices().filter(|(_, c)| !MARKS.contains(c)) {
        out.push(c);
        map.extend(std::iter::repeat_n(i, c.len_utf8()));
    }
    map.push(s.len());
    Some((out, map))
}

/// Sorted, overlapping ranges joined.
fn merged(mut ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    ranges.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// The characters of `bytes`' base64 encodings that depend on those bytes alone, whatever comes
/// before or after them: for each alphabet and each of the three offsets the bytes can start at
/// within a 3-byte group, the encoded characters whose six bits all come from `bytes`.
fn base64_cores(bytes: &[u8]) -> Vec<SecretString> {
    if bytes.len() < BASE64_SHORTEST {
        return Vec::new();
    }
    let mut cores: Vec<SecretString> = Vec::new();
    for offset in 0..3 {
        let mut aligned = Zeroizing::new(vec![0u8; offset]);
        aligned.extend_from_slice(bytes);
        // the first character all of whose bits are the secret's, and one past the last
        let first = (8 * offset).div_ceil(6);
        let end = (8 * (offset + bytes.len())) / 6;
        for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
            let encoded = Zeroizing::new(engine.encode(&*aligned));
            let core = &encoded[first..end];
            if !cores.iter().any(|c| c.expose_secret() == core) {
                cores.push(SecretString::from(core.to_string()));
            }
        }
    }
    cores
}

/// `s` with one level of JSON string escapes decoded, and for each byte of the result (and one past
/// its end) the offset in `s` its source starts at; `None` when nothing was decoded. Lenient: what is
/// not a valid escape is kept as written.
fn unescape(s: &str) -> Option<(String, Vec<usize>)> {
    let mut out = String::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len() + 1);
    let mut changed = false;
    let mut i = 0;
    while i < s.len() {
        let (c, len) = match escape_at(&s.as_bytes()[i..]) {
            Some(decoded) => {
                changed = true;
                decoded
            }
            None => {
                let c = s[i..].chars().next().expect("within the text");
                (c, c.len_utf8())
            }
        };
        out.push(c);
        map.extend(std::iter::repeat_n(i, c.len_utf8()));
        i += len;
    }
    map.push(s.len());
    changed.then_some((out, map))
}

/// The character a JSON escape at the start of `b` stands for, and the escape's length.
fn escape_at(b: &[u8]) -> Option<(char, usize)> {
    if b.first() != Some(&b'\\') {
        return None;
    }
    let short = match b.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return unicode_escape(b),
        _ => return None,
    };
    Some((short, 2))
}

/// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at the start of `b`.
fn unicode_escape(b: &[u8]) -> Option<(char, usize)> {
    let unit = |at: usize| -> Option<u32> {
        let hex = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
        u32::from_str_radix(hex, 16).ok().filter(|_| hex.bytes().all(|c| c.is_ascii_hexdigit()))
    };
    let high = unit(2)?;
    if (0xD800..0xDC00).contains(&high) {
        if b.get(6..8) != Some(b"\\u") {
            return None;
        }
        let low = unit(8).filter(|l| (0xDC00..0xE000).contains(l))?;
        let c = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?;
        return Some((c, 12));
    }
    char::from_u32(high).map(|c| (c, 6))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-canary-123";

    fn redactor() -> Redactor {
        Redactor::new([Some(&SecretString::from(KEY))])
    }

    /// `s` with the characters at the positions `escape` picks written as `\uXXXX`.
    fn escaped(s: &str, escape: impl Fn(usize) -> bool, upper: bool) -> String {
        s.chars()
            .enumerate()
            .map(|(i, c)| match (escape(i), upper) {
                (true, false) => format!("\\u{:04x}", c as u32),
                (true, true) => format!("\\u{:04X}", c as u32),
                (false, _) => c.to_string(),
            })
            .collect()
    }

    #[test]
    fn every_secret_goes_whole_and_short_ones_are_left() {
        let key = SecretString::from("sk-canary-123");
        let longer = SecretString::from("sk-canary-123-and-more");
        let short = SecretString::from("abc");
        let r = Redactor::new([Some(&key), None, Some(&longer), Some(&short)]);
        assert_eq!(
            r.scrub("a sk-canary-123-and-more b sk-canary-123 c abc"),
            "a [REDACTED] b [REDACTED] c abc"
        );
        assert!(Redactor::new([None]).is_empty());
        assert_eq!(format!("{r:?}"), "Redactor(2 secrets)");
    }

    #[test]
    fn a_json_escaped_secret_goes_too() {
        let key = SecretString::from("k\"ey/with\\quote");
        let r = Redactor::new([Some(&key)]);
        let echoed = serde_json::json!({ "label": "k\"ey/with\\quote" }).to_string();
        assert!(!r.scrub(&echoed).contains("ey/with"), "{}", r.scrub(&echoed));
        let slashed = r#"{"label": "k\"ey\/with\\quote"}"#;
        assert_eq!(r.scrub(slashed), r#"{"label": "[REDACTED]"}"#);
    }

    #[test]
    fn any_subset_of_escaped_characters_in_either_case_is_found() {
        let r = redactor();
        let n = KEY.chars().count();
        // every single character, alternating, all, and 64 pseudo-random subsets
        let mut picks: Vec<Box<dyn Fn(usize) -> bool>> =
            vec![Box::new(|_| true), Box::new(|i| i % 2 == 0), Box::new(|i| i % 3 == 1)];
        for only in 0..n {
            picks.push(Box::new(move |i| i == only));
        }
        for seed in 0..64u32 {
            picks.push(Box::new(move |i| (seed.wrapping_mul(2654435761) >> (i % 32)) & 1 == 1));
        }
        for pick in &picks {
            for upper in [false, true] {
                let spelled = escaped(KEY, pick, upper);
                let text = format!(r#"{{"label": "Echo {spelled} end"}}"#);
                assert_eq!(r.scrub(&text), r#"{"label": "Echo [REDACTED] end"}"#, "{text}");
            }
        }
    }

    #[test]
    fn escapes_inside_escaped_strings_are_found() {
        let r = redactor();
        let once = escaped(KEY, |i| i % 2 == 0, false);
        // the answer's text as it stands in a wire body: its backslashes escaped again
        let twice = once.replace('\\', "\\\\");
        let text = format!(r#"{{"text": "{{\"label\": \"{twice}\"}}"}}"#);
        let scrubbed = r.scrub(&text);
        assert!(!scrubbed.contains("u0073") && scrubbed.contains(REDACTED), "{scrubbed}");
        let thrice = twice.replace('\\', "\\\\");
        assert_eq!(r.scrub(&thrice), REDACTED);
    }

    #[test]
    fn characters_past_the_basic_plane_are_found_as_surrogate_pairs() {
        let key = SecretString::from("key-\u{1F511}-canary");
        let r = Redactor::new([Some(&key)]);
        assert_eq!(r.scrub("x key-\\ud83d\\udd11-canary y"), "x [REDACTED] y");
        assert_eq!(r.scrub("x \\u006bey-\\uD83D\\uDD11-canary y"), "x [REDACTED] y");
        // a lone or broken surrogate decodes to nothing and is left
        assert_eq!(r.scrub("\\ud83d-\\u12"), "\\ud83d-\\u12");
    }

    #[test]
    fn base64_in_either_alphabet_at_any_alignment_is_found() {
        let key = "sk-canary-?>~-1f9a"; // `?>~` put + and / (or - and _) into the encodings
        let r = Redactor::new([Some(&SecretString::from(key))]);
        for prefix in ["", "a", "ab", "abc", "Bearer:"] {
            for suffix in ["", "x", "xy", "\n"] {
                let plain = format!("{prefix}{key}{suffix}");
                for engine in [&base64::engine::general_purpose::STANDARD, &STANDARD_NO_PAD, &URL_SAFE_NO_PAD]
                {
                    let encoded = engine.encode(plain.as_bytes());
                    let text = format!("log line {encoded} end");
                    let scrubbed = r.scrub(&text);
                    assert!(scrubbed.contains(REDACTED), "{prefix:?}+key+{suffix:?}: {scrubbed}");
                    // what is left of the encoding is at most the few characters the neighbours share
                    let left = scrubbed.len() - "log line  end".len() - REDACTED.len();
                    assert!(left <= encoded.len() - (key.len() * 4 / 3 - 2), "{scrubbed}");
                }
            }
        }
        // a JSON-escaped base64 (`\/` for `/`) is found too
        let encoded = STANDARD_NO_PAD.encode(key).replace('/', "\\/");
        assert!(r.scrub(&encoded).contains(REDACTED), "{encoded}");
    }

    #[test]
    fn a_secret_spelled_for_a_browser_goes_too() {
        let r = redactor();
        let decimal: String = KEY.chars().map(|c| format!("&#{};", c as u32)).collect();
        let hex: String = KEY.chars().map(|c| format!("&#x{:X}", c as u32)).collect();
        for spelled in [
            decimal.clone(),
            hex,
            "&#115;k-canary-123".to_string(),
            "s&#x6b;&#45canary&#x2D;123".to_string(),
            "sk-<b>canary</b>-<!-- x -->123".to_string(),
            "sk\\-canary\\-123".to_string(),
            // a reference written with JSON escapes, and an escaped reference
            "\\u0026#115;k-canary-123".to_string(),
            "&amp;#115;k-canary-123".to_string(),
        ] {
            let text = format!("Your key is {spelled}.");
            let scrubbed = r.scrub(&text);
            assert!(scrubbed.contains(REDACTED), "{spelled}: {scrubbed}");
            let shown = formgen_core::html::rendered(&scrubbed, DEPTH);
            assert!(!shown.contains(KEY) && !shown.contains("canary"), "{spelled}: {scrubbed}");
        }
        let mut v = serde_json::json!({"components": [{"type": "text", "text": format!("Key: {decimal}")}]});
        r.scrub_value(&mut v);
        assert_eq!(v["components"][0]["text"], "Key: [REDACTED]");
    }

    #[test]
    fn a_secret_in_markdown_emphasis_goes_too() {
        let r = redactor();
        for spelled in
            ["sk-c**ana**ry-123", "*sk*-_canary_-`123`", "sk-~~can~~ary-1\\_23", "s&#107;-c**anary**-123"]
        {
            let text = format!("Your key is {spelled}.");
            let scrubbed = r.scrub(&text);
            assert!(scrubbed.contains(REDACTED), "{spelled}: {scrubbed}");
            let shown: String = formgen_core::html::rendered(&scrubbed, DEPTH).replace(MARKS, "");
            assert!(!shown.contains(KEY), "{spelled}: {scrubbed}");
        }
        // a secret that holds a mark itself, split by another
        let underscored = SecretString::from("sk_live_canary".to_string());
        let r = Redactor::new([Some(&underscored)]);
        assert_eq!(r.scrub("key sk_li**ve**_canary here"), "key [REDACTED] here");
        assert_eq!(r.scrub("key sk_live_canary here"), "key [REDACTED] here");
        assert_eq!(r.scrub("**bold** and _plain_ text"), "**bold** and _plain_ text");
        // a secret that is mostly marks is still found as itself
        let marked = SecretString::from("__*x*__".to_string());
        assert_eq!(Redactor::new([Some(&marked)]).scrub("a __*x*__ b x c"), "a [REDACTED] b x c");
    }

    #[test]
    fn decoded_values_are_scrubbed_keys_included() {
        let r = redactor();
        let mut v = serde_json::json!({
            "components": [{"label": format!("Echo {KEY}"), "values": [{"label": KEY}]}],
            KEY: {"nested": [format!("a{KEY}b")]},
        });
        r.scrub_value(&mut v);
        let text = v.to_string();
        assert!(!text.contains(KEY), "{text}");
        assert_eq!(v["components"][0]["label"], "Echo [REDACTED]");
        assert_eq!(v[REDACTED]["nested"][0], "a[REDACTED]b");
    }

    #[test]
    fn text_without_secrets_is_left_as_it_is() {
        let r = redactor();
        for text in ["", "plain", "C:\\users\\u00", "\\u0073k-canary", "\\\\\\", "é\\\"x\\u00e9"] {
            assert_eq!(r.scrub(text), text);
        }
    }
}
