//! Text as a browser shows it from HTML or Markdown: what a form's `text` and `html` components
//! render. Character references (`&#115;`, `&#x73;`, with or without their `;`), the named entities
//! of ASCII characters (`&lowbar;`, `&period;`, `&amp;`), tags and comments (which show nothing) and
//! Markdown's backslash escapes (`\-`) are decoded, so that what is looked for in the text (a
//! secret, a `javascript:` URL) is found however it is spelled.
//!
//! Only the entities of ASCII characters are known: the text looked for is ASCII (keys, URL
//! schemes), and HTML has no named entity for a letter or a digit.

/// The named entities whose character is ASCII (HTML's list), and the legacy ones a browser also
/// reads without their `;`.
const NAMED: &[(&str, &str)] = &[
    ("Tab", "\t"),
    ("NewLine", "\n"),
    ("excl", "!"),
    ("quot", "\""),
    ("QUOT", "\""),
    ("num", "#"),
    ("dollar", "$"),
    ("percnt", "%"),
    ("amp", "&"),
    ("AMP", "&"),
    ("apos", "'"),
    ("lpar", "("),
    ("rpar", ")"),
    ("ast", "*"),
    ("midast", "*"),
    ("plus", "+"),
    ("comma", ","),
    ("period", "."),
    ("sol", "/"),
    ("colon", ":"),
    ("semi", ";"),
    ("lt", "<"),
    ("LT", "<"),
    ("equals", "="),
    ("gt", ">"),
    ("GT", ">"),
    ("quest", "?"),
    ("commat", "@"),
    ("lsqb", "["),
    ("lbrack", "["),
    ("bsol", "\\"),
    ("rsqb", "]"),
    ("rbrack", "]"),
    ("Hat", "^"),
    ("lowbar", "_"),
    ("UnderBar", "_"),
    ("grave", "`"),
    ("DiacriticalGrave", "`"),
    ("lcub", "{"),
    ("lbrace", "{"),
    ("verbar", "|"),
    ("vert", "|"),
    ("VerticalLine", "|"),
    ("rcub", "}"),
    ("rbrace", "}"),
    ("fjlig", "fj"),
    ("nbsp", "\u{a0}"),
];

/// The legacy entities a browser reads without their `;`.
const BARE: &[&str] = &["amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT", "nbsp"];

/// `s` as rendered: one level of references, entities, tags, comments and Markdown escapes decoded,
/// and for each byte of the result (and one past its end) the offset in `s` its source starts at;
/// `None` when nothing was decoded. What is not a valid reference is kept as written.
pub fn decode(s: &str) -> Option<(String, Vec<usize>)> {
    if !s.contains(['&', '<', '\\']) {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len() + 1);
    let mut changed = false;
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let (text, len): (std::borrow::Cow<'_, str>, usize) = match decoded_at(rest) {
            Some(d) => {
                changed = true;
                d
            }
            None => {
                let c = rest.chars().next().expect("within the text");
                (rest[..c.len_utf8()].into(), c.len_utf8())
            }
        };
        out.push_str(&text);
        map.extend(std::iter::repeat_n(i, text.len()));
        i += len;
    }
    map.push(s.len());
    changed.then_some((out, map))
}

/// `s` as rendered, references decoded over and over (`&amp;#115;` is `s` once rendered twice) up to
/// `levels` times.
pub fn rendered(s: &str, levels: usize) -> String {
    let mut out = s.to_string();
    for _ in 0..levels {
        match decode(&out) {
            Some((d, _)) => out = d,
            None => break,
        }
    }
    out
}

/// `s` with its character references and entities decoded (tags and escapes kept), up to `levels`
/// times over: what a browser reads in an attribute's value.
pub fn references(s: &str, levels: usize) -> String {
    let mut out = s.to_string();
    for _ in 0..levels {
        if !out.contains('&') {
            break;
        }
        let mut next = String::with_capacity(out.len());
        let mut i = 0;
        while i < out.len() {
            let rest = &out[i..];
            match rest.starts_with('&').then(|| reference(rest)).flatten() {
                Some((text, len)) => {
                    next.push_str(&text);
                    i += len;
                }
                None => {
                    let c = rest.chars().next().expect("within the text");
                    next.push(c);
                    i += c.len_utf8();
                }
            }
        }
        if next == out {
            break;
        }
        out = next;
    }
    out
}

/// What the text at the start of `rest` renders as, and how many bytes it takes.
fn decoded_at(rest: &str) -> Option<(std::borrow::Cow<'static, str>, usize)> {
    let b = rest.as_bytes();
    match b.first()? {
        b'&' => reference(rest),
        b'<' => tag(rest).map(|len| ("".into(), len)),
        b'\\' => {
            let c = *b.get(1)?;
            c.is_ascii_punctuation().then(|| (char::from(c).to_string().into(), 2))
        }
        _ => None,
    }
}

/// A character reference or named entity at the start of `rest`.
fn reference(rest: &str) -> Option<(std::borrow::Cow<'static, str>, usize)> {
    let b = rest.as_bytes();
    if b.get(1) == Some(&b'#') {
        let (hex, start) = match b.get(2) {
            Some(b'x' | b'X') => (true, 3),
            _ => (false, 2),
        };
        let digits = b[start..]
            .iter()
            .take_while(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() })
            .count();
        if digits == 0 {
            return None;
        }
        let value = u32::from_str_radix(&rest[start..start + digits], if hex { 16 } else { 10 }).ok()?;
        let c = char::from_u32(value).filter(|c| *c != '\0')?;
        let semi = usize::from(b.get(start + digits) == Some(&b';'));
        return Some((c.to_string().into(), start + digits + semi));
    }
    let name_len = b[1..].iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    let name = &rest[1..1 + name_len];
    let semi = b.get(1 + name_len) == Some(&b';');
    if semi && let Some((_, text)) = NAMED.iter().find(|(n, _)| *n == name) {
        return Some(((*text).into(), name_len + 2));
    }
    // a legacy entity is read as the longest one the name starts with (`&ampx` is `&x`)
    let bare = BARE.iter().filter(|n| name.starts_with(**n)).max_by_key(|n| n.len())?;
    let (_, text) = NAMED.iter().find(|(n, _)| n == bare)?;
    Some(((*text).into(), bare.len() + 1))
}

/// The length of a tag or comment at the start of `rest` (`<b>`, `</span >`, `<!-- x -->`).
fn tag(rest: &str) -> Option<usize> {
    if let Some(body) = rest.strip_prefix("<!--") {
        return body.find("-->").map(|end| 4 + end + 3);
    }
    let b = rest.as_bytes();
    let first = *b.get(1)?;
    let opens = first.is_ascii_alphabetic() || first == b'/' && b.get(2).is_some_and(u8::is_ascii_alphabetic);
    if !opens {
        return None;
    }
    rest.find('>').map(|end| end + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_entities_tags_and_escapes_render_as_their_characters() {
        for (spelled, shown) in [
            ("&#115;&#107;-x", "sk-x"),
            ("&#x73;&#X6B;", "sk"),
            ("&#115k", "sk"),
            ("&#0000115;", "s"),
            ("a&lowbar;b&period;c&hyphen;", "a_b.c&hyphen;"),
            ("&amp;&ampx &lt", "&&x <"),
            ("s<b>k</b><!-- c -->-x", "sk-x"),
            ("sk\\-x \\a", "sk-x \\a"),
            ("1 < 2 & 3 <3", "1 < 2 & 3 <3"),
            ("&#0; &#xZZ; &#;", "&#0; &#xZZ; &#;"),
        ] {
            assert_eq!(rendered(spelled, 1), shown, "{spelled}");
        }
        assert_eq!(rendered("&amp;#115;", 2), "s");
        assert!(decode("plain text").is_none());
        let (text, map) = decode("a&#98;c").unwrap();
        assert_eq!(text, "abc");
        assert_eq!(map, vec![0, 1, 6, 7]);
    }
}
