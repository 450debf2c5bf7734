//! `formgen.toml` read with every unknown key and wrong type reported at once, each with its place:
//! the setting's path, line and column (`server.listen_on (line 3, column 1): unknown field ...`).
//!
//! serde stops at the first error. So the file is parsed once into toml's spanned document, and
//! deserialised again and again: each error is recorded with its line, and the entry it points at
//! (found by its span) is removed before the next round, until the rest deserialises. The problems are
//! the file's own; nothing is guessed or repaired in what the caller gets (it gets only the problems).
//!
//! This file knows TOML and serde, not formgen's settings.

use serde::de::DeserializeOwned;
use toml::de::{DeTable, DeValue};

/// Most problems reported from one file; past this the file is likely not a formgen.toml at all.
const MOST: usize = 50;

/// Deserialises `text`, or returns every problem found, in the order of the file.
#[cfg(test)]
pub(super) fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Vec<String>> {
    match read::<T>(text) {
        (Some(value), problems) if problems.is_empty() => Ok(value),
        (_, problems) => Err(problems),
    }
}

/// Deserialises `text` with every problem found, in the order of the file, and the rest of the file
/// (without the entries the problems are at) when that deserialises, so that its settings can be
/// checked in the same round; no value after a syntax error.
pub(super) fn read<T: DeserializeOwned>(text: &str) -> (Option<T>, Vec<String>) {
    let mut root = match DeTable::parse(text) {
        Ok(root) => root,
        Err(e) => return (None, vec![syntax(text, &e)]),
    };
    let mut problems: Vec<(usize, String)> = Vec::new();
    let mut rest = None;
    while problems.len() < MOST {
        match T::deserialize(toml::de::Deserializer::from(root.clone())) {
            Ok(value) => {
                rest = Some(value);
                break;
            }
            Err(e) => {
                let Some(span) = e.span() else {
                    problems.push((usize::MAX, e.message().trim().to_string()));
                    break;
                };
                let path = remove_at(root.get_mut(), span.start, "");
                let (line, column) = line_column(text, span.start);
                let place = path.as_deref().unwrap_or("the file");
                problems.push((
                    span.start,
                    format!("{place} (line {line}, column {column}): {}", e.message().trim()),
                ));
                if path.is_none() {
                    break;
                }
            }
        }
    }
    problems.sort_by_key(|(at, _)| *at);
    (rest, problems.into_iter().map(|(_, p)| p).collect())
}

/// A TOML syntax error: where, in which section, and what.
fn syntax(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim();
    let Some(span) = e.span() else { return message.to_string() };
    let (line, column) = line_column(text, span.start);
    let section = text[..span.start.min(text.len())]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| format!(" in {}", l.split(']').next().unwrap_or(l).trim_start_matches('[').trim()))
        .map(|s| format!("{s} section"))
        .unwrap_or_default();
    format!("line {line}, column {column}{section}: {message}")
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// Removes the innermost entry whose key or value holds byte `at`; returns its path (`workers[1].name`).
fn remove_at(table: &mut DeTable<'_>, at: usize, prefix: &str) -> Option<String> {
    let join = |key: &str| if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") };
    for (key, value) in table.iter_mut() {
        let path = join(key.get_ref());
        let found = match value.get_mut() {
            DeValue::Table(inner) => remove_at(inner, at, &path),
            DeValue::Array(items) => {
                items.iter_mut().enumerate().find_map(|(i, item)| match item.get_mut() {
                    DeValue::Table(inner) => remove_at(inner, at, &format!("{path}[{i}]")),
                    _ => None,
                })
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    let hit = table
        .iter()
        .find(|(k, v)| k.span().contains(&at) || v.span().contains(&at))
        .map(|(k, _)| k.get_ref().to_string())?;
    table.remove(hit.as_str());
    Some(join(&hit))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        #[serde(default)]
        server: Server,
        #[serde(default)]
        workers: Vec<Worker>,
    }
    #[derive(Debug, Default, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Server {
        listen: Option<String>,
        grace_s: Option<u64>,
    }
    #[derive(Debug, Default, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Worker {
        name: Option<String>,
        timeout_s: Option<u64>,
    }

    #[test]
    fn every_problem_with_its_line() {
        let text = "[server]\nlisten_on = \"x\"\ngrace_s = \"soon\"\n\n[[workers]]\nname = \"a\"\n\n[[workers]]\nnam = \"b\"\ntimeout_s = -1\n[nonsense]\n";
        let problems = from_str::<Doc>(text).unwrap_err();
        assert_eq!(problems.len(), 5, "{problems:#?}");
        assert!(
            problems[0].starts_with("server.listen_on (line 2, column 1): unknown field `listen_on`"),
            "{problems:#?}"
        );
        assert!(problems[1].starts_with("server.grace_s (line 3, column 11): invalid type"), "{problems:#?}");
        assert!(
            problems[2].starts_with("workers[1].nam (line 9, column 1): unknown field `nam`"),
            "{problems:#?}"
        );
        assert!(problems[3].starts_with("workers[1].timeout_s (line 10, column 13)"), "{problems:#?}");
        assert!(
            problems[4].starts_with("nonsense (line 11, column 2): unknown field `nonsense`"),
            "{problems:#?}"
        );
        assert!(from_str::<Doc>("[server]\nlisten = \"127.0.0.1:1\"\n").is_ok());
    }

    #[test]
    fn syntax_errors_name_line_column_and_section() {
        let problems = from_str::<Doc>("[server]\nlisten = \"x\"\n\n[[workers]]\nname = \n").unwrap_err();
        assert_eq!(problems.len(), 1);
        assert!(problems[0].starts_with("line 5, column 8 in workers section:"), "{problems:?}");
        assert!(!problems[0].contains("byte"), "{problems:?}");
    }
}
