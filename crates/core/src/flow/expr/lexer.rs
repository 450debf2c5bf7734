//! A lenient FEEL tokenizer: names, strings, numbers, temporal literals and punctuation, with
//! comments dropped. It never fails: a character it does not know is an operator token, an
//! unterminated string or comment runs to the end. It knows nothing of what the tokens mean.

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One word of a (possibly multi-word) name, or a keyword.
    Word,
    /// A backtick name: one complete name, never a keyword.
    Quoted,
    /// A string literal; `text` is its content without the quotes.
    Str,
    /// A number literal.
    Num,
    /// A temporal literal `@"..."`.
    Temporal,
    /// `.`
    Dot,
    /// `..`
    Range,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// Any other character.
    Op,
}

/// One token: its kind, its text (see [`Kind`]) and the byte offset where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tok<'a> {
    /// What it is.
    pub kind: Kind,
    /// Its text.
    pub text: &'a str,
    /// Byte offset in the input.
    pub start: usize,
}

fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '?' || c == '$'
}

fn is_name_part(c: char) -> bool {
    is_name_start(c) || c.is_numeric() || c == '\u{B7}'
}

/// The byte offset just past a literal that opened at `from` with `quote` (escapes skipped),
/// and the offset where its content ends; both the input's end if it never closes.
fn literal_end(s: &str, from: usize, quote: char) -> (usize, usize) {
    let mut escaped = false;
    for (i, c) in s[from..].char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' && quote != '`' {
            escaped = true;
        } else if c == quote {
            return (from + i, from + i + c.len_utf8());
        }
    }
    (s.len(), s.len())
}

/// Splits `s` into tokens.
pub fn tokens(s: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(c) = s[i..].chars().next() {
        // one expression may be megabytes of terms
        if out.len() % 4096 == 4095 && crate::stop::stopped() {
            break;
        }
        let next = s[i + c.len_utf8()..].chars().next();
        let start = i;
        let single = |kind| Tok { kind, text: &s[start..start + c.len_utf8()], start };
        match c {
            _ if c.is_whitespace() => {
                i += c.len_utf8();
                continue;
            }
            '/' if next == Some('/') => {
                i = s[i..].find('\n').map_or(s.len(), |n| i + n);
                continue;
            }
            '/' if next == Some('*') => {
                i = s[i + 2..].find("*/").map_or(s.len(), |n| i + 2 + n + 2);
                continue;
            }
            '"' | '`' => {
                let (content_end, end) = literal_end(s, i + 1, c);
                let kind = if c == '"' { Kind::Str } else { Kind::Quoted };
                out.push(Tok { kind, text: &s[i + 1..content_end], start });
                i = end;
                continue;
            }
            '@' if next == Some('"') => {
                let (content_end, end) = literal_end(s, i + 2, '"');
                out.push(Tok { kind: Kind::Temporal, text: &s[i + 2..content_end], start });
                i = end;
                continue;
            }
            '.' if next == Some('.') => {
                out.push(Tok { kind: Kind::Range, text: &s[i..i + 2], start });
                i += 2;
                continue;
            }
            _ if c.is_ascii_digit() || (c == '.' && next.is_some_and(|n| n.is_ascii_digit())) => {
                let mut end = i + 1;
                while end < s.len() && bytes[end].is_ascii_digit() {
                    end += 1;
                }
                if end + 1 < s.len() && bytes[end] == b'.' && bytes[end + 1].is_ascii_digit() {
                    end += 1;
                    while end < s.len() && bytes[end].is_ascii_digit() {
                        end += 1;
                    }
                }
                out.push(Tok { kind: Kind::Num, text: &s[i..end], start });
                i = end;
                continue;
            }
            _ if is_name_start(c) => {
                let end =
                    s[i..].char_indices().find(|&(_, ch)| !is_name_part(ch)).map_or(s.len(), |(n, _)| i + n);
                out.push(Tok { kind: Kind::Word, text: &s[i..end], start });
                i = end;
                continue;
            }
            '.' => out.push(single(Kind::Dot)),
            '[' => out.push(single(Kind::LBracket)),
            ']' => out.push(single(Kind::RBracket)),
            '(' => out.push(single(Kind::LParen)),
            ')' => out.push(single(Kind::RParen)),
            '{' => out.push(single(Kind::LBrace)),
            '}' => out.push(single(Kind::RBrace)),
            ',' => out.push(single(Kind::Comma)),
            ':' => out.push(single(Kind::Colon)),
            _ => out.push(single(Kind::Op)),
        }
        i += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, &str)> {
        tokens(s).into_iter().map(|t| (t.kind, t.text)).collect()
    }

    #[test]
    fn strings_comments_and_temporals_are_single_tokens() {
        assert_eq!(
            kinds(r#"a /* b */ + "c \" d" // e"#),
            vec![(Kind::Word, "a"), (Kind::Op, "+"), (Kind::Str, r#"c \" d"#)]
        );
        assert_eq!(kinds(r#"@"2020-01-01""#), vec![(Kind::Temporal, "2020-01-01")]);
        assert_eq!(kinds("`a-b`.c"), vec![(Kind::Quoted, "a-b"), (Kind::Dot, "."), (Kind::Word, "c")]);
    }

    #[test]
    fn numbers_ranges_and_paths() {
        assert_eq!(
            kinds("[1..2.5].x"),
            vec![
                (Kind::LBracket, "["),
                (Kind::Num, "1"),
                (Kind::Range, ".."),
                (Kind::Num, "2.5"),
                (Kind::RBracket, "]"),
                (Kind::Dot, "."),
                (Kind::Word, "x"),
            ]
        );
    }

    #[test]
    fn unterminated_literals_run_to_the_end() {
        assert_eq!(kinds(r#"a + "open"#), vec![(Kind::Word, "a"), (Kind::Op, "+"), (Kind::Str, "open")]);
        assert_eq!(kinds("a /* open"), vec![(Kind::Word, "a")]);
    }
}
