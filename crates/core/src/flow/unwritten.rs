//! Names the process reads that nothing in it or its project writes: mistakes of the process, not of
//! any form. A name shaped like an ISO-8601 duration (`P1D`, `PT5M`) or a constant (`APPROVED`) is
//! most likely a literal written without its quotes, and so is a media type's part (`application/json`,
//! which FEEL reads as `application` divided by `json`); one a letter away from a name that is written
//! (`elegibilityCheck` read, `eligibilityCheck` written) most likely a misspelling of it. A plain
//! unwritten name may still come with the process's start, so it is said only where nothing in the
//! process may write variables formgen cannot see.

use std::collections::HashSet;

use super::access::{of_element, reads_of};
use super::contract::{form_keys, guarded_names, writes_unseen};
use crate::bpmn::{Dialect, Process};
use crate::project::Project;

/// What an unwritten name most likely is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unwritten {
    /// A literal written without its quotes.
    Literal {
        /// What kind of literal it looks like ("a duration").
        shape: &'static str,
        /// The literal, to be written in quotes (`application/json` for the name `json`).
        text: String,
    },
    /// A misspelling of this name, which the process or its project writes.
    CloseTo(String),
    /// A name nothing writes; it may come with the process's start.
    Unknown,
}

/// One name read that nothing writes, at its first read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnwrittenRead {
    /// The name read.
    pub name: String,
    /// The element whose expression reads it first.
    pub element: usize,
    /// That expression, as written (shared with the element's: one condition may be megabytes and
    /// read many names).
    pub expression: crate::bpmn::Text,
    /// What it most likely is.
    pub kind: Unwritten,
}

/// At most this many names are reported per process: a process whose data all comes from outside
/// would otherwise list every name it reads.
const MOST: usize = 50;

/// Engine-provided names a FEEL expression reads without any element writing them.
const PROVIDED: &[&str] = &["loopCounter"];

/// The names `process` reads that nothing in it or `project` writes, each at its first read.
pub(crate) fn unwritten_reads(process: &Process, project: &Project) -> Vec<UnwrittenRead> {
    unwritten_reads_beside(process, project, None)
}

/// The names a step's form is not asked to supply because the process reads them by mistake: a
/// literal without its quotes, a misspelling of a name written elsewhere. What the step's own form
/// writes does not count as written here, so a form's misspelt key is still the form's mistake.
pub(crate) fn mistaken_reads(process: &Process, project: &Project, step: Option<usize>) -> HashSet<String> {
    unwritten_reads_beside(process, project, step)
        .into_iter()
        .filter(|r| r.kind != Unwritten::Unknown)
        .map(|r| r.name)
        .collect()
}

/// [`unwritten_reads`], not counting what the form of the element at `besides` writes.
fn unwritten_reads_beside(
    process: &Process,
    project: &Project,
    besides: Option<usize>,
) -> Vec<UnwrittenRead> {
    let written = written_names(process, project, besides);
    let unseen_writers = process.elements.iter().any(|e| {
        let known_form = form_keys(process, e, project).is_some();
        writes_unseen(e, known_form)
    });
    let mut written_list: Vec<&str> = written.iter().map(String::as_str).collect();
    written_list.sort_unstable();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, e) in crate::stop::until_stopped(process.elements.iter().enumerate()) {
        let locals = locals_of(process, i);
        for access in &e.accesses {
            // read once per expression, when a name needs it: one condition may read 100,000 names
            let mut guarded: Option<std::collections::HashSet<String>> = None;
            for name in reads_of(access) {
                let name = name.split('.').next().unwrap_or_default().to_string();
                let set = written.contains(&name) || locals.contains(&name);
                if set || PROVIDED.contains(&name.as_str()) || seen.contains(&name) {
                    continue;
                }
                // a read that asks whether the name is set first is ready for it not to be
                if guarded.get_or_insert_with(|| guarded_names(&access.expression)).contains(&name) {
                    continue;
                }
                seen.insert(name.clone());
                // JUEL names may be beans and engine objects, not variables: only FEEL's are told
                let feel = match access.dialect {
                    Dialect::Feel => true,
                    Dialect::Either => access.expression.trim_start().starts_with('='),
                    _ => false,
                };
                let media = feel.then(|| media_type(&access.expression, &name)).flatten();
                let kind = match (media, literal_shape(&name)) {
                    (Some(text), _) => Unwritten::Literal { shape: "a media type", text },
                    (None, Some(shape)) => Unwritten::Literal { shape, text: name.clone() },
                    (None, None) => match close_to(&name, &written_list) {
                        Some(close) if feel => Unwritten::CloseTo(close.to_string()),
                        _ if feel && !unseen_writers => Unwritten::Unknown,
                        _ => continue,
                    },
                };
                out.push(UnwrittenRead { name, element: i, expression: access.expression.clone(), kind });
                if out.len() >= MOST {
                    return out;
                }
            }
        }
    }
    out
}

/// The names the element at `i` holds for itself and reads as its own: its locals, but what an input
/// mapping passes in unchanged (`= url` mapped to `url`), which it reads from outside.
fn locals_of(process: &Process, i: usize) -> HashSet<String> {
    let writes = of_element(process, i).writes;
    super::access::own_locals(&process.elements[i], &writes).map(str::to_string).collect()
}

/// Every root name the process's elements write where others may read it (not a task's locals: a
/// sub-process's are its children's), and the keys of the forms its steps bind (but the one at
/// `besides`).
fn written_names(process: &Process, project: &Project, besides: Option<usize>) -> HashSet<String> {
    let containers: HashSet<usize> = process.elements.iter().filter_map(|e| e.parent).collect();
    let mut written = HashSet::new();
    for (i, e) in crate::stop::until_stopped(process.elements.iter().enumerate()) {
        let writes = of_element(process, i).writes.into_iter();
        written.extend(writes.filter(|w| containers.contains(&i) || w.scope != *e.id).map(|w| w.name));
        if Some(i) == besides {
            continue;
        }
        for key in form_keys(process, e, project).unwrap_or_default() {
            written.insert(key.split('.').next().unwrap_or_default().to_string());
        }
    }
    written
}

/// The media type `name` is a part of in `expression`, when it is one (`application/json`, which FEEL
/// reads as a division of two names): a top-level type (`application`, `text`, `image`, ...), a
/// slash, and a common subtype, so that a real division (`text / count`) is not taken for one.
fn media_type(expression: &str, name: &str) -> Option<String> {
    static MEDIA: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"\b(application|text|image|audio|video|multipart)\s*/\s*(json|xml|pdf|plain|html|csv|yaml|zip|png|jpeg|jpg|gif|svg|mpeg|mp4|javascript|css)\b",
        )
        .expect("a valid pattern")
    });
    MEDIA
        .captures_iter(expression)
        .find(|c| &c[1] == name || &c[2] == name)
        .map(|c| format!("{}/{}", &c[1], &c[2]))
}

/// What kind of literal a name looks like, when it looks like one: an ISO-8601 duration (`P1D`,
/// `PT5M`, `P1Y2M10DT2H30M`) or a constant in capitals (`APPROVED`, `HIGH_RISK`).
fn literal_shape(name: &str) -> Option<&'static str> {
    if is_duration(name) {
        return Some("a duration");
    }
    let letters = name.chars().filter(char::is_ascii_alphabetic).count();
    let constant = name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    (constant && letters >= 2).then_some("a text")
}

/// Whether `s` is an ISO-8601 duration: `P`, then number-unit pairs (`Y M W D`), then optionally `T`
/// and number-unit pairs (`H M S`), with at least one pair.
fn is_duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else { return false };
    let (date, time) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    let pairs = |part: &str, units: &str| -> Option<usize> {
        let mut count = 0;
        let mut digits = 0;
        for c in part.chars() {
            if c.is_ascii_digit() {
                digits += 1;
            } else if units.contains(c) && digits > 0 {
                count += 1;
                digits = 0;
            } else {
                return None;
            }
        }
        (digits == 0).then_some(count)
    };
    let Some(in_date) = pairs(date, "YMWD") else { return false };
    match time {
        Some(t) => pairs(t, "HMS").is_some_and(|n| n > 0),
        None => in_date > 0,
    }
}

/// A written name one edit away (a letter added, dropped, changed or two swapped, or only the case
/// differs), for names long enough that one edit is a slip rather than another word.
fn close_to<'w>(name: &str, written: &[&'w str]) -> Option<&'w str> {
    if name.chars().count() < 5 {
        return None;
    }
    // a collection and its element (`documents`, `document`) are two names, not one misspelt
    let plural = |a: &str, b: &str| a.strip_suffix('s') == Some(b);
    let candidates: Vec<&'w str> = written
        .iter()
        .copied()
        .filter(|w| w.chars().count() >= 5 && !plural(name, w) && !plural(w, name))
        .collect();
    crate::words::fit::one_edit_away(name, &candidates)
        .or_else(|| candidates.into_iter().find(|w| name != *w && name.eq_ignore_ascii_case(w)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpmn::zeebe_process;

    #[test]
    fn durations_and_constants_look_like_literals() {
        for d in ["P1D", "PT5M", "P1Y2M10DT2H30M", "P2W"] {
            assert!(is_duration(d), "{d}");
        }
        for not in ["P", "PT", "P1", "Process", "PT5X", "p1d", "P1DT"] {
            assert!(!is_duration(not), "{not}");
        }
        assert_eq!(literal_shape("APPROVED"), Some("a text"));
        assert_eq!(literal_shape("HIGH_RISK"), Some("a text"));
        assert_eq!(literal_shape("X"), None);
        assert_eq!(literal_shape("approved"), None);
    }

    #[test]
    fn a_media_type_without_its_quotes_is_a_literal_not_two_names() {
        let process = zeebe_process(
            r#"<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/>
          <scriptTask id="call"><extensionElements><zeebe:script expression="=image / total" resultVariable="r"/>
            <zeebe:ioMapping>
              <zeebe:input source="={&#10;  Content-Type: application/json,&#10;  Accept: text / plain&#10;}" target="headers"/>
            </zeebe:ioMapping></extensionElements></scriptTask>"#,
        );
        let kinds: Vec<(String, Unwritten)> =
            unwritten_reads(&process, &Project::default()).into_iter().map(|r| (r.name, r.kind)).collect();
        let media = |text: &str| Unwritten::Literal { shape: "a media type", text: text.to_string() };
        assert_eq!(
            kinds,
            [
                ("image".to_string(), Unwritten::Unknown),
                ("total".to_string(), Unwritten::Unknown),
                ("application".to_string(), media("application/json")),
                ("json".to_string(), media("application/json")),
                ("text".to_string(), media("text/plain")),
                ("plain".to_string(), media("text/plain")),
            ],
            "a division by a name that is no subtype is a division"
        );
    }

    #[test]
    fn a_read_that_asks_whether_the_name_is_set_is_guarded() {
        let guarded = |expression: &str, name: &str| guarded_names(expression).contains(name);
        assert!(guarded("=if is defined( history ) then history else []", "history"));
        assert!(guarded("=get or else(limit, 10)", "limit"));
        assert!(guarded("=x != null and x > 1", "x"));
        assert!(!guarded("=is defined(historyOld) and history", "history"));
        assert!(!guarded("=history", "history"));
    }

    #[test]
    fn a_name_one_edit_away_is_a_misspelling() {
        let written = ["eligibilityCheck", "amount", "customerName"];
        assert_eq!(close_to("elegibilityCheck", &written), Some("eligibilityCheck"));
        assert_eq!(close_to("custoemrName", &written), Some("customerName"));
        assert_eq!(close_to("CustomerName", &written), Some("customerName"));
        assert_eq!(close_to("amont", &written), Some("amount"));
        assert_eq!(close_to("amo", &written), None, "too short to tell");
        assert_eq!(close_to("invoiceNumber", &written), None);
        assert_eq!(close_to("amounts", &written), None, "a collection and its element");
    }

    #[test]
    fn a_tasks_own_input_is_no_write_for_the_others_nor_one_it_passes_in() {
        let process = zeebe_process(
            r#"<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="a"/>
          <scriptTask id="a"><extensionElements><zeebe:script expression="=model + url" resultVariable="r"/>
            <zeebe:ioMapping>
              <zeebe:input source="= url" target="url"/>
              <zeebe:input source="=&quot;gpt&quot;" target="model"/>
            </zeebe:ioMapping></extensionElements></scriptTask>
          <sequenceFlow id="f1" sourceRef="a" targetRef="b"/>
          <scriptTask id="b"><extensionElements><zeebe:script expression="=model" resultVariable="m"/></extensionElements></scriptTask>"#,
        );
        let names: Vec<String> =
            unwritten_reads(&process, &Project::default()).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["url", "model"], "`model` is `a`'s own, read by `b`");
    }
}
