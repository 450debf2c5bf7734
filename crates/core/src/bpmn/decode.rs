//! Bytes to text, the way the modellers' own reader (bpmn-moddle behind bpmn-js) sees a file.
//!
//! bpmn-moddle only ever gets a JavaScript string; the browser or Node decoded it first. To agree with
//! it we decode the same way, before the XML parser sees anything: a BOM wins (UTF-8, UTF-16 LE/BE);
//! else the `encoding` of the XML declaration when it names a single-byte or legacy encoding (WHATWG
//! labels, so `ISO-8859-1` and `US-ASCII` mean windows-1252); else UTF-8, and when the bytes are not
//! valid UTF-8 the whole file is read as windows-1252, because real exports declare UTF-8 and then write
//! Latin-1. Line ends are normalised (CRLF and lone CR become LF) as XML 1.0 §2.11 requires.
//!
//! quick-xml's own `encoding` feature is not used: it looks at too few bytes and mis-decodes files whose
//! first non-ASCII byte comes early. Decoding never fails; undecodable bytes become U+FFFD.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// Decodes an XML file's bytes (BPMN, DMN) to normalised text. Borrows when the input is clean UTF-8 with LF ends.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let text: Cow<'_, str> = if let Some((encoding, rest)) = by_bom(bytes) {
        encoding.decode_without_bom_handling(rest).0
    } else if let Some(encoding) = declared_legacy_encoding(bytes) {
        encoding.decode_without_bom_handling(bytes).0
    } else {
        match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            // Cut in the middle of a character (a truncated upload): the text before the cut is UTF-8.
            Err(e) if e.error_len().is_none() => {
                Cow::Borrowed(std::str::from_utf8(&bytes[..e.valid_up_to()]).expect("valid prefix"))
            }
            Err(_) => WINDOWS_1252.decode_without_bom_handling(bytes).0,
        }
    };
    let text = match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.strip_prefix('\u{FEFF}').unwrap_or(s)),
        Cow::Owned(s) => match s.strip_prefix('\u{FEFF}') {
            Some(rest) => Cow::Owned(rest.to_string()),
            None => Cow::Owned(s),
        },
    };
    normalise_line_ends(text)
}

/// Whether a file may be read as a UTF-8 stream: it starts with no BOM and declares no legacy
/// encoding in its first 200 bytes, so [`decode`] would read it as UTF-8 if it is valid UTF-8. Looks
/// at those bytes and leaves the file where it was.
pub(crate) fn streams_as_utf8(file: &mut (impl std::io::Read + std::io::Seek)) -> std::io::Result<bool> {
    use std::io::Read as _;
    let mut head = Vec::with_capacity(200);
    file.by_ref().take(200).read_to_end(&mut head)?;
    file.rewind()?;
    Ok(by_bom(&head).is_none() && declared_legacy_encoding(&head).is_none())
}

/// The encoding a byte order mark names, and the bytes after it.
fn by_bom(bytes: &[u8]) -> Option<(&'static Encoding, &[u8])> {
    [(&b"\xEF\xBB\xBF"[..], UTF_8), (b"\xFF\xFE", UTF_16LE), (b"\xFE\xFF", UTF_16BE)]
        .into_iter()
        .find_map(|(bom, encoding)| bytes.strip_prefix(bom).map(|rest| (encoding, rest)))
}

/// The encoding named by the XML declaration in the first 200 bytes, when it is one that must be used
/// instead of UTF-8: not UTF-8, not UTF-16 (an ASCII-readable declaration naming UTF-16 cannot be
/// right), and not the WHATWG "replacement" encoding (which a browser refuses to decode with).
fn declared_legacy_encoding(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(200)];
    let label = declared_label(head)?;
    let encoding = Encoding::for_label(label)?;
    let unusable = encoding == UTF_8
        || encoding == UTF_16LE
        || encoding == UTF_16BE
        || encoding == encoding_rs::REPLACEMENT;
    (!unusable).then_some(encoding)
}

/// The `encoding` pseudo-attribute of a leading `<?xml ...?>` declaration, read byte-wise.
fn declared_label(head: &[u8]) -> Option<&[u8]> {
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let decl = head[start..].strip_prefix(b"<?xml")?;
    let end = decl.iter().position(|&b| b == b'>').unwrap_or(decl.len());
    let decl = &decl[..end];
    let mut i = 0;
    while let Some(off) = find(&decl[i..], b"encoding") {
        let at = i + off;
        i = at + b"encoding".len();
        if at == 0 || !decl[at - 1].is_ascii_whitespace() {
            continue;
        }
        let rest = skip_ws(&decl[i..]);
        let Some(rest) = rest.strip_prefix(b"=") else {
            continue;
        };
        let rest = skip_ws(rest);
        let (&quote, rest) = rest.split_first()?;
        if quote != b'"' && quote != b'\'' {
            continue;
        }
        let len = rest.iter().position(|&b| !(b.is_ascii_alphanumeric() || b"._:-".contains(&b)))?;
        if rest.get(len) != Some(&quote) || len == 0 {
            continue;
        }
        return Some(&rest[..len]);
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn skip_ws(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

/// CRLF and lone CR become LF. Borrows when there is no CR.
pub(crate) fn normalise_line_ends(text: Cow<'_, str>) -> Cow<'_, str> {
    if !text.contains('\r') {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            out.push('\n');
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boms_win() {
        assert_eq!(decode(b"\xEF\xBB\xBF<a/>"), "<a/>");
        assert_eq!(decode(b"\xFF\xFE<\0a\0/\0>\0"), "<a/>");
        assert_eq!(decode(b"\xFE\xFF\0<\0a\0/\0>"), "<a/>");
    }

    #[test]
    fn declared_latin1_is_windows_1252() {
        let bytes = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a n=\"caf\xE9 \x80\"/>";
        assert_eq!(
            decode(bytes),
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a n=\"caf\u{e9} \u{20ac}\"/>"
        );
    }

    #[test]
    fn declared_utf8_that_is_not_falls_back_to_windows_1252() {
        let bytes = b"<?xml version='1.0' encoding='UTF-8'?><a n='\xE4'/>";
        assert!(decode(bytes).contains("n='\u{e4}'"));
    }

    #[test]
    fn utf8_cut_inside_a_character_stays_utf8() {
        let bytes = "<a n=\"ä\"/>ü".as_bytes();
        assert_eq!(decode(&bytes[..bytes.len() - 1]), "<a n=\"ä\"/>");
    }

    #[test]
    fn declared_utf16_without_bom_is_read_as_utf8() {
        let bytes = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a n=\"ü\"/>".as_bytes();
        assert!(decode(bytes).contains("n=\"ü\""));
    }

    #[test]
    fn line_ends_are_normalised() {
        assert_eq!(decode(b"a\r\nb\rc\n"), "a\nb\nc\n");
        assert!(matches!(decode(b"a\nb"), Cow::Borrowed(_)));
    }
}
