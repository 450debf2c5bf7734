//! Comparing formgen's outline with bpmn-moddle's, allowing only the documented differences.
//!
//! The README's "Where formgen reads differently from bpmn-moddle" lists them; each has a rule here,
//! applied to formgen's side before comparing, so any other difference fails:
//! 1. moddle drops an element (with everything inside it) whose id is not a valid XML name, or repeats
//!    an id seen earlier in the document; formgen keeps it.
//! 2. Node's TextDecoder decodes windows-1252 bytes 0x80–0x9F as C1 controls (like ISO-8859-1);
//!    formgen follows the WHATWG encoding standard, as browsers do (0x80 is €).
//! 3. Where moddle refuses the whole document (`"ok": false`), formgen reads what came before the break;
//!    nothing is compared there.

use std::collections::HashSet;

use formgen::bpmn::{self, Definitions};
use formgen::outline::{OutlineElement, OutlineProcess};
use serde::Deserialize;

/// A reference outline line, as `outline.mjs` prints it (its `file` and `error` are not compared).
#[derive(Debug, Deserialize)]
pub struct Reference {
    pub ok: bool,
    pub processes: Vec<OutlineProcess>,
}

/// moddle's id rule (moddle-xml `addElement`).
pub fn valid_id(id: &str) -> bool {
    let re = regex::Regex::new(r"^(?i:([a-z][\w.-]*:)?[a-z_][\w.-]*)$").unwrap();
    re.is_match(id)
}

/// `(tag local name, id)` of every start tag with an `id` attribute, in document order.
fn tagged_ids(text: &str) -> Vec<(String, String)> {
    let re =
        regex::Regex::new(r#"<(?:[\w.-]+:)?([\w.-]+)\s[^>]*?\bid\s*=\s*(?:"([^"]*)"|'([^']*)')"#).unwrap();
    re.captures_iter(text)
        .map(|c| {
            let raw = c.get(2).or(c.get(3)).unwrap().as_str();
            (c[1].to_string(), bpmn::xml_unescape(raw).into_owned())
        })
        .collect()
}

/// Decides, for formgen's processes and elements in document order, which ones moddle drops by id.
struct IdRule {
    tagged: Vec<(String, String)>,
    /// How many formgen items of each (kind, id) were seen so far.
    seen: std::collections::HashMap<(String, String), usize>,
}

impl IdRule {
    fn drops(&mut self, kind: &str, id: &str) -> bool {
        if id.is_empty() {
            return false;
        }
        if !valid_id(id) {
            return true;
        }
        let n = self.seen.entry((kind.to_string(), id.to_string())).or_insert(0);
        let k = *n;
        *n += 1;
        // the k-th text occurrence of this tag with this id; a duplicate if the id occurred before it
        let Some(pos) =
            self.tagged.iter().enumerate().filter(|(_, (t, i))| t == kind && i == id).nth(k).map(|(p, _)| p)
        else {
            return false;
        };
        self.tagged[..pos].iter().any(|(_, i)| i == id)
    }
}

/// formgen's outline with rule 1 applied: what moddle would have kept, and how many items that dropped.
pub fn as_moddle_would(bytes: &[u8], defs: &Definitions) -> (Vec<OutlineProcess>, usize) {
    let text = bpmn::decode_text(bytes);
    let mut rule = IdRule { tagged: tagged_ids(&text), seen: Default::default() };
    let mut dropped_count = 0;
    let mut kept = Vec::new();
    for p in &defs.processes {
        let process_dropped = rule.drops("process", &p.id);
        let mut dropped: Vec<bool> = Vec::with_capacity(p.elements.len());
        for e in &p.elements {
            let parent_dropped = e.parent.is_some_and(|i| dropped[i]);
            let own = rule.drops(e.kind.as_str(), &e.id);
            dropped.push(process_dropped || parent_dropped || own);
        }
        dropped_count += dropped.iter().filter(|d| **d).count();
        if process_dropped {
            dropped_count += 1;
            continue;
        }
        let mut op = OutlineProcess::from(p);
        op.elements = p
            .elements
            .iter()
            .zip(&dropped)
            .filter(|(_, d)| !**d)
            .map(|(e, _)| OutlineElement::from(e))
            .collect();
        let mut seen = HashSet::new();
        op.variables = p
            .variable_uses
            .iter()
            .filter(|u| !u.element.is_some_and(|i| dropped[i]))
            .filter(|u| seen.insert(u.name.clone()))
            .map(|u| u.name.clone())
            .collect();
        kept.push(op);
    }
    (kept, dropped_count)
}

/// Rule 2: the reference's C1 controls read as windows-1252 characters.
pub fn cp1252_view(s: &str) -> String {
    s.chars()
        .map(|c| {
            let code = c as u32;
            if (0x80..=0x9F).contains(&code) {
                let byte = [code as u8];
                let (decoded, _, _) = encoding_rs::WINDOWS_1252.decode(&byte);
                decoded.chars().next().unwrap_or(c)
            } else {
                c
            }
        })
        .collect()
}

fn reference_view(p: &OutlineProcess) -> OutlineProcess {
    let mut p = p.clone();
    p.name = cp1252_view(&p.name);
    p.documentation = cp1252_view(&p.documentation);
    for e in &mut p.elements {
        e.name = cp1252_view(&e.name);
        e.documentation = cp1252_view(&e.documentation);
        e.condition = cp1252_view(&e.condition);
        e.form_id = cp1252_view(&e.form_id);
    }
    p.variables = p.variables.iter().map(|v| cp1252_view(v)).collect();
    p
}

/// Agreement figures for one file.
#[derive(Debug, Default, Clone, Copy)]
pub struct Agreement {
    pub elements: usize,
    pub elements_agreeing: usize,
    pub variables: usize,
    pub variables_agreeing: usize,
    pub explained: usize,
}

/// Compares one file; returns the figures and the unexplained differences, one sentence each.
pub fn compare(bytes: &[u8], reference: &Reference) -> (Agreement, Vec<String>) {
    let defs = bpmn::read(bytes);
    let mut agreement = Agreement::default();
    let mut problems = Vec::new();
    if !reference.ok {
        return (agreement, problems);
    }
    let (mine, explained) = as_moddle_would(bytes, &defs);
    agreement.explained = explained;
    let theirs: Vec<OutlineProcess> = reference.processes.iter().map(reference_view).collect();
    let ids = |ps: &[OutlineProcess]| ps.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
    if ids(&mine) != ids(&theirs) {
        problems.push(format!("processes differ: formgen {:?}, moddle {:?}", ids(&mine), ids(&theirs)));
    }
    for t in &theirs {
        agreement.elements += t.elements.len();
        agreement.variables += t.variables.len();
        let Some(m) = mine.iter().find(|m| m.id == t.id) else {
            continue;
        };
        for field in ["name", "documentation"] {
            let (a, b) =
                if field == "name" { (&m.name, &t.name) } else { (&m.documentation, &t.documentation) };
            if a != b {
                problems.push(format!("process {} {field}: formgen {a:?}, moddle {b:?}", t.id));
            }
        }
        for (i, te) in t.elements.iter().enumerate() {
            match m.elements.get(i) {
                Some(me) if me == te => agreement.elements_agreeing += 1,
                Some(me) => {
                    problems.push(format!("process {} element #{i}: formgen {me:?}, moddle {te:?}", t.id));
                }
                None => problems.push(format!("process {} element #{i} {} missing in formgen", t.id, te.id)),
            }
        }
        if m.elements.len() > t.elements.len() {
            let extra: Vec<&str> = m.elements[t.elements.len()..].iter().map(|e| e.id.as_str()).collect();
            problems.push(format!("process {}: formgen has extra elements {extra:?}", t.id));
        }
        agreement.variables_agreeing += t.variables.iter().zip(&m.variables).filter(|(a, b)| a == b).count();
        if m.variables != t.variables {
            problems.push(format!(
                "process {} variables: formgen {:?}, moddle {:?}",
                t.id, m.variables, t.variables
            ));
        }
    }
    (agreement, problems)
}
