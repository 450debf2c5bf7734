//! What an element formgen cannot see into probably writes, read from its name: a job worker called
//! "Check stock" sets `inStock`, one called "Initialise players" sets `players`, a user task "Enter
//! shipping address" whose form is not in the project sets `shippingAddress`.
//!
//! Such a writer's outputs are invisible in the XML (its job's variables, a message's payload), so the
//! data flow would otherwise take a value it reads later for one the step's form must supply, and the
//! draft would ask a person for what the worker computes. A name is a weak signal, so the rule is
//! narrow: the name starts (English) or ends (German) with a verb that produces a value ("check",
//! "calculate", "enter", "prüfen"; not "send", "archive" or "analyse", which use one), and every word
//! of the variable's path (of three letters or more, not a function word) is one of the other words of
//! the element's name, but not all of them are words of the step's own name ("Enter player
//! information" keeps `players` from "Initialise players"). The check's contract does not use it: it
//! says nothing where a writer is unseen, whatever its name.

use std::collections::{HashMap, HashSet};

use crate::bpmn::Process;
use crate::words;

/// The elements that may write what formgen cannot see, each with the words of its name.
pub(crate) struct NamedWriters {
    writers: Vec<(usize, HashSet<String>)>,
    /// Per word, the positions in `writers` of the names that hold it: a variable is looked up by its
    /// words, not against every name, so a process of many workers costs what its names hold.
    by_word: HashMap<String, Vec<usize>>,
    /// The words of the names of the step's own elements: a value the step's name names too is the
    /// step's ("Enter order" before "Check order").
    own: Vec<HashSet<String>>,
}

impl NamedWriters {
    /// The elements of `process` for which `unseen` holds, but not those of `own` (the step).
    pub(crate) fn new(process: &Process, unseen: impl Fn(usize) -> bool, own: &[usize]) -> NamedWriters {
        let writers: Vec<(usize, HashSet<String>)> = (0..process.elements.len())
            .filter(|i| !own.contains(i) && unseen(*i))
            .filter_map(|i| Some((i, object_words(&process.elements[i].name)?)))
            .collect();
        let mut by_word: HashMap<String, Vec<usize>> = HashMap::new();
        for (at, (_, name)) in writers.iter().enumerate() {
            name.iter().for_each(|w| by_word.entry(w.clone()).or_default().push(at));
        }
        let own =
            own.iter().map(|&i| words::split(&process.elements[i].name).iter().map(|w| stem(w)).collect());
        NamedWriters { writers, by_word, own: own.collect() }
    }

    /// The first element whose name names `variable` (every word of its path), if one does and the
    /// step's own name does not.
    pub(crate) fn writer_of(&self, variable: &str) -> Option<usize> {
        let wanted: Vec<String> = words::split(variable)
            .iter()
            .filter(|w| w.chars().count() >= 3 && !FUNCTION_WORDS.contains(&w.as_str()))
            .map(|w| stem(w))
            .filter(|w| !w.is_empty())
            .collect();
        let names = |name: &HashSet<String>| wanted.iter().all(|w| name.contains(w));
        if wanted.is_empty() || self.own.iter().any(names) {
            return None;
        }
        // the writers whose names hold the variable's rarest word, in the process's order
        let fewest = wanted.iter().map(|w| self.by_word.get(w)).min_by_key(|at| at.map_or(0, Vec::len))??;
        fewest.iter().map(|&at| &self.writers[at]).find(|(_, name)| names(name)).map(|(i, _)| *i)
    }
}

/// The words of an element's name besides the verb that says it produces a value, first in English
/// ("Check credit score"), last in German ("Bonität prüfen"); none when no such verb is there.
fn object_words(name: &str) -> Option<HashSet<String>> {
    let mut name_words: Vec<String> = words::split(name).iter().map(|w| words::ascii(w)).collect();
    let first = name_words.first().is_some_and(|w| PRODUCING.contains(&w.as_str()));
    if first {
        name_words.remove(0);
    } else if name_words.last().is_some_and(|w| PRODUCING.contains(&w.as_str())) {
        name_words.pop();
    } else {
        return None;
    }
    let object: HashSet<String> = name_words.iter().map(|w| stem(w)).filter(|w| !w.is_empty()).collect();
    (!object.is_empty()).then_some(object)
}

/// Verbs that produce or take in a value, by which a step's name says it sets the value it names.
const PRODUCING: &[&str] = &[
    "check",
    "calculate",
    "compute",
    "determine",
    "create",
    "generate",
    "get",
    "fetch",
    "retrieve",
    "load",
    "lookup",
    "query",
    "assign",
    "initialise",
    "initialize",
    "init",
    "evaluate",
    "assess",
    "classify",
    "estimate",
    "predict",
    "detect",
    "find",
    "collect",
    "obtain",
    "enter",
    "provide",
    "input",
    "capture",
    "identify",
    "extract",
    "berechnen",
    "ermitteln",
    "pruefen",
    "erstellen",
    "abrufen",
    "laden",
    "bestimmen",
    "erfassen",
    "eingeben",
    "erzeugen",
    "bewerten",
    "zuweisen",
];

/// Words that say how a value is asked about, not what it is (`hasStock`, `canShip`).
const FUNCTION_WORDS: &[&str] =
    &["has", "can", "was", "did", "does", "will", "should", "needs", "the", "and", "for"];

/// A word in ASCII (`bonität` → `bonitaet`) without its plural `s` (`players` → `player`), so a name
/// and a variable meet whichever way either is written; `address` and short words keep their `s`.
fn stem(word: &str) -> String {
    let word = words::ascii(word);
    match word.strip_suffix('s') {
        Some(rest) if rest.chars().count() >= 3 && !rest.ends_with('s') => rest.to_string(),
        _ => word,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writers(names: &[&str]) -> (Process, NamedWriters) {
        let elements: String = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!(r#"<serviceTask id="T{i}" name="{n}"/>"#))
            .collect();
        let xml = format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P">{elements}</process></definitions>"#
        );
        let process = crate::bpmn::read_str(&xml).processes.remove(0);
        let named = NamedWriters::new(&process, |_| true, &[]);
        (process, named)
    }

    #[test]
    fn a_writer_names_a_variable_when_its_name_holds_every_word_of_it() {
        let (_, named) =
            writers(&["Check stock", "Initialise players", "Calculate credit score", "Bonität prüfen"]);
        assert_eq!(named.writer_of("inStock"), Some(0));
        assert_eq!(named.writer_of("hasStock"), Some(0));
        assert_eq!(named.writer_of("player"), Some(1));
        assert_eq!(named.writer_of("creditScore"), Some(2));
        // a path is named by all its words: the score check does not set what the score object holds
        assert_eq!(named.writer_of("creditScore.value"), None);
        // one word of the variable is not in any name: no writer is named
        assert_eq!(named.writer_of("stockLevel"), None);
        assert_eq!(named.writer_of("orderId"), None);
        // with or without its umlaut
        assert_eq!(named.writer_of("bonitaet"), Some(3));
        assert_eq!(named.writer_of("bonität"), Some(3));
        // a name of short words only names nothing, nor one of letters with no ASCII spelling
        assert_eq!(named.writer_of("id"), None);
        let (_, named) = writers(&["Check 产品价格"]);
        assert_eq!(named.writer_of("产品价格"), None);
    }

    #[test]
    fn only_a_name_that_says_it_produces_a_value_names_a_writer() {
        // these use the value they name: the flag `sendEmail` is not the e-mail task's to set
        let (_, named) = writers(&["Send email", "Analyse conversation", "Archive invoice", "Stock"]);
        for variable in ["sendEmail", "email", "conversation", "invoice", "stock"] {
            assert_eq!(named.writer_of(variable), None, "{variable}");
        }
        let (_, named) = writers(&["Travel request input", "Create invoice"]);
        assert_eq!(named.writer_of("travelRequest"), Some(0));
        assert_eq!(named.writer_of("invoiceId"), Some(1));
    }

    #[test]
    fn the_step_itself_and_elements_without_a_name_are_no_writers() {
        let (process, _) = writers(&["Check stock", ""]);
        let named = NamedWriters::new(&process, |_| true, &[0]);
        assert_eq!(named.writer_of("inStock"), None);
    }

    #[test]
    fn a_value_the_steps_own_name_names_is_the_steps() {
        let (process, _) = writers(&["Enter order", "Check order", "Check stock"]);
        let named = NamedWriters::new(&process, |_| true, &[0]);
        assert_eq!(named.writer_of("order"), None);
        assert_eq!(named.writer_of("stock"), Some(2));
    }

    #[test]
    fn a_plural_s_is_dropped_on_either_side_but_a_double_s_is_kept() {
        assert_eq!(stem("players"), "player");
        assert_eq!(stem("address"), "address");
        assert_eq!(stem("has"), "has");
    }
}
