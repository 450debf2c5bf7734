//! formgen's reads and writes against bpmn.io's variable resolver (`tools/variable-reference/`), on
//! every Camunda 8 element of the shared corpus and of the pairs corpus.
//!
//! The target: formgen's reads include every name of the reference's `readsUsed`, and formgen's writes
//! equal the reference's `writes` (name and scope). A difference passes only when one of the rules of
//! [`Rule`] explains it; each rule is a known behaviour of the resolver (its README's quirks) or a
//! place formgen reads and the resolver does not, decided from the process, never from the file.
//!
//! The figures printed are raw (before the rules) and after them, so the effect of swapping the
//! expression reader (`formgen::flow::expr`) shows directly: rerun with
//! `cargo test --test conformance variables -- --ignored --nocapture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use formgen::bpmn::{self, Dialect, Place, Process};
use formgen::flow::access::{self, ElementAccess, Write};
use serde::Deserialize;

use crate::common;
use formgen::bpmn::ElementKind;

#[derive(Debug, Deserialize)]
struct RefFile {
    ok: bool,
    platform: String,
    processes: Vec<RefProcess>,
}

#[derive(Debug, Deserialize)]
struct RefProcess {
    id: String,
    elements: Vec<RefElement>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefElement {
    id: String,
    reads_used: Vec<Option<String>>,
    writes: Vec<RefWrite>,
}

#[derive(Debug, Deserialize)]
struct RefWrite {
    name: Option<String>,
    scope: Option<String>,
}

/// Why a difference from the reference is not a mistake of formgen's. One reason per rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rule {
    /// Resolver quirk 3: a sub-process lists, as its own reads, what the elements inside it read (and
    /// its own input targets when they do); formgen gives each read to the element that reads it.
    SubProcessReadsForChildren,
    /// Resolver quirk 5: an index or filter path (`order.items[1].price`) reads `price` for it, not
    /// `order`; formgen reads the root.
    IndexPathLosesRoot,
    /// A FEEL context literal's later entries may use its earlier keys (`{a: 1, b: a + 1}`: `b` reads
    /// the entry `a`, not a variable); the resolver reads those keys as variables.
    ContextKeyReadAsVariable,
    /// A name the expression calls (`put(ctx, "k", v)`): a function, which the resolver reads as a
    /// variable when its built-in list lacks it.
    FunctionReadAsVariable,
    /// Resolver quirk 2: one variable per name per query, the outermost scope winning. A write whose
    /// name the element can also see in an outer scope (written there by anyone) is hidden from it.
    OutermostScopeWins,
    /// formgen reads Camunda 7 / Flowable places (a Camunda 8 export may still carry `camunda:`
    /// attributes); the resolver analyses a file with one engine's rules only.
    OtherEnginesPlaces,
}

impl Rule {
    const ALL: [Rule; 6] = [
        Rule::SubProcessReadsForChildren,
        Rule::IndexPathLosesRoot,
        Rule::ContextKeyReadAsVariable,
        Rule::FunctionReadAsVariable,
        Rule::OutermostScopeWins,
        Rule::OtherEnginesPlaces,
    ];

    fn reason(self) -> &'static str {
        match self {
            Rule::SubProcessReadsForChildren => "resolver quirk 3: a sub-process reads for its children",
            Rule::IndexPathLosesRoot => "resolver quirk 5: index/filter paths lose the root",
            Rule::ContextKeyReadAsVariable => "the resolver reads a context literal's own keys as variables",
            Rule::FunctionReadAsVariable => "the resolver reads a called function's name as a variable",
            Rule::OutermostScopeWins => "resolver quirk 2: one variable per name, outermost scope wins",
            Rule::OtherEnginesPlaces => "formgen reads Camunda 7 / Flowable places too",
        }
    }
}

#[derive(Default)]
struct Figures {
    elements: usize,
    reads_needed: usize,
    reads_found: usize,
    elements_reads_raw: usize,
    elements_reads: usize,
    writes_reference: usize,
    writes_formgen: usize,
    elements_writes_raw: usize,
    elements_writes: usize,
    explained: BTreeMap<Rule, usize>,
    failures: Vec<String>,
}

/// The ids of the element's enclosing sub-processes, innermost first, then the process.
fn outer_scopes(p: &Process, index: usize) -> Vec<String> {
    let mut scopes = Vec::new();
    let mut at = p.elements[index].parent;
    while let Some(i) = at {
        scopes.push(p.elements[i].id.to_string());
        at = p.elements[i].parent;
    }
    scopes.push(p.id.clone());
    scopes
}

/// Whether `inner` is (transitively) inside the element at `outer`.
fn is_inside(p: &Process, inner: usize, outer: usize) -> bool {
    let mut at = p.elements[inner].parent;
    while let Some(i) = at {
        if i == outer {
            return true;
        }
        at = p.elements[i].parent;
    }
    false
}

fn why_not_read(p: &Process, all: &[ElementAccess], index: usize, name: &str) -> Option<Rule> {
    let e = &p.elements[index];
    let container =
        matches!(e.kind, ElementKind::SubProcess | ElementKind::AdHocSubProcess | ElementKind::Transaction);
    if container {
        let child_reads =
            (0..p.elements.len()).any(|i| is_inside(p, i, index) && all[i].reads.iter().any(|r| r == name));
        let own_local = all[index].writes.iter().any(|w| w.name == name && w.scope == e.id);
        if child_reads || own_local {
            return Some(Rule::SubProcessReadsForChildren);
        }
    }
    let after_index =
        regex::Regex::new(&format!(r"(\]\s*\.\s*|\[[^\]]*\b){}\b", regex::escape(name))).unwrap();
    if e.accesses.iter().any(|a| after_index.is_match(&a.expression)) {
        return Some(Rule::IndexPathLosesRoot);
    }
    let context_key = regex::Regex::new(&format!(r#"[{{,]\s*"?{}"?\s*:"#, regex::escape(name))).unwrap();
    if e.accesses
        .iter()
        .any(|a| a.expression.trim_start().starts_with('=') && context_key.is_match(&a.expression))
    {
        return Some(Rule::ContextKeyReadAsVariable);
    }
    let called = regex::Regex::new(&format!(r"(^|[^\w.]){}\s*\(", regex::escape(name))).unwrap();
    if e.accesses.iter().any(|a| a.expression.trim_start().starts_with('=') && called.is_match(&a.expression))
    {
        return Some(Rule::FunctionReadAsVariable);
    }
    None
}

fn why_extra_write(p: &Process, all: &[ElementAccess], index: usize, w: &Write) -> Option<Rule> {
    let outer = outer_scopes(p, index);
    let visible: Vec<String> =
        std::iter::once(p.elements[index].id.to_string()).chain(outer.iter().cloned()).collect();
    let rank = |scope: &str| visible.iter().position(|s| s == scope);
    let mine = rank(&w.scope)?;
    let outermost_elsewhere = all
        .iter()
        .flat_map(|a| &a.writes)
        .filter(|o| o.name == w.name)
        .filter_map(|o| rank(&o.scope))
        .any(|r| r > mine);
    if outermost_elsewhere {
        return Some(Rule::OutermostScopeWins);
    }
    // only an element with Camunda 7 / Flowable places and no Camunda 8 expression at all: a write of
    // an element that also has Zeebe places must agree
    let e = &p.elements[index];
    let juel = e.accesses.iter().any(|a| matches!(a.dialect, Dialect::Juel | Dialect::JuelOrName));
    let c7_place = !e.declared().fields.is_empty()
        || e.accesses.iter().any(|a| {
            matches!(a.place, Place::CallOutTarget { .. } | Place::CaughtVariable | Place::Initiator)
        });
    let zeebe = e.accesses.iter().any(|a| a.dialect == Dialect::Feel);
    if (juel || c7_place) && !zeebe {
        return Some(Rule::OtherEnginesPlaces);
    }
    None
}

fn compare_file(bpmn_path: &Path, reference: &RefFile, label: &str, f: &mut Figures) {
    let defs = bpmn::read(&std::fs::read(bpmn_path).unwrap());
    for rp in &reference.processes {
        let Some(p) = defs.process(&rp.id) else {
            f.failures.push(format!("{label}: process {} not read", rp.id));
            continue;
        };
        let all = access::of_process(p);
        let by_id: BTreeMap<&str, &RefElement> = rp.elements.iter().map(|e| (e.id.as_str(), e)).collect();
        for (index, e) in p.elements.iter().enumerate() {
            f.elements += 1;
            let mine = &all[index];
            let theirs = by_id.get(e.id.as_str());
            let needed: Vec<&str> = theirs
                .map(|t| t.reads_used.iter().flatten().map(String::as_str).collect())
                .unwrap_or_default();
            let missing: Vec<&str> =
                needed.iter().copied().filter(|n| !mine.reads.iter().any(|r| r == n)).collect();
            f.reads_needed += needed.len();
            f.reads_found += needed.len() - missing.len();
            f.elements_reads_raw += missing.is_empty() as usize;
            let mut reads_ok = true;
            for name in missing {
                match why_not_read(p, &all, index, name) {
                    Some(rule) => *f.explained.entry(rule).or_default() += 1,
                    None => {
                        reads_ok = false;
                        f.failures.push(format!(
                            "{label} {}: does not read {name:?} (reads {:?})",
                            e.id, mine.reads
                        ));
                    }
                }
            }
            f.elements_reads += reads_ok as usize;

            let reference_writes: BTreeSet<(String, String)> = theirs
                .map(|t| {
                    t.writes
                        .iter()
                        .map(|w| (w.name.clone().unwrap_or_default(), w.scope.clone().unwrap_or_default()))
                        .collect()
                })
                .unwrap_or_default();
            let my_writes: BTreeSet<(String, String)> =
                mine.writes.iter().map(|w| (w.name.clone(), w.scope.clone())).collect();
            f.writes_reference += reference_writes.len();
            f.writes_formgen += my_writes.len();
            f.elements_writes_raw += (reference_writes == my_writes) as usize;
            let mut writes_ok = true;
            for (name, scope) in my_writes.difference(&reference_writes) {
                let w = Write { name: name.clone(), scope: scope.clone() };
                match why_extra_write(p, &all, index, &w) {
                    Some(rule) => *f.explained.entry(rule).or_default() += 1,
                    None => {
                        writes_ok = false;
                        f.failures
                            .push(format!("{label} {}: writes {name}@{scope}, the reference does not", e.id));
                    }
                }
            }
            for (name, scope) in reference_writes.difference(&my_writes) {
                writes_ok = false;
                f.failures.push(format!("{label} {}: does not write {name}@{scope}", e.id));
            }
            f.elements_writes += writes_ok as usize;
        }
        for t in &rp.elements {
            if p.element(&t.id).is_none() {
                f.failures.push(format!("{label}: reference element {} not read", t.id));
            }
        }
    }
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn reads_and_writes_agree_with_the_variable_resolver() {
    let shared = common::shared();
    let corpora = [("corpus/variables", "corpus/bpmn"), ("corpus/pairs/variables", "corpus/pairs/bpmn")];
    let mut f = Figures::default();
    let mut files = 0;
    for (variables, bpmn_dir) in corpora {
        let dir = shared.join(variables);
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        entries.sort();
        for path in entries {
            let reference: RefFile = match serde_json::from_slice(&std::fs::read(&path).unwrap()) {
                Ok(r) => r,
                Err(_) => continue, // the summary line, not a file's
            };
            if !reference.ok || reference.platform != "zeebe" {
                continue;
            }
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let bpmn_path = shared.join(bpmn_dir).join(format!("{stem}.bpmn"));
            assert!(bpmn_path.is_file(), "{} has no BPMN file {}", path.display(), bpmn_path.display());
            files += 1;
            compare_file(&bpmn_path, &reference, &stem, &mut f);
        }
    }
    assert!(files > 0, "no Camunda 8 file in the corpora (every reference was another platform or failed)");
    let pct = |a: usize, b: usize| if b == 0 { 100.0 } else { 100.0 * a as f64 / b as f64 };
    println!(
        "variables: {files} Camunda 8 files, {} elements compared\n\
         reads: {}/{} readsUsed names read ({:.1}%); elements with every name: {} raw, {} with the rules ({:.1}%)\n\
         writes: reference {}, formgen {}; elements equal: {} raw, {} with the rules ({:.1}%)",
        f.elements,
        f.reads_found,
        f.reads_needed,
        pct(f.reads_found, f.reads_needed),
        f.elements_reads_raw,
        f.elements_reads,
        pct(f.elements_reads, f.elements),
        f.writes_reference,
        f.writes_formgen,
        f.elements_writes_raw,
        f.elements_writes,
        pct(f.elements_writes, f.elements),
    );
    for rule in Rule::ALL {
        println!("  explained {:>4}: {}", f.explained.get(&rule).copied().unwrap_or(0), rule.reason());
    }
    assert!(
        f.failures.is_empty(),
        "{} unexplained differences:\n{}",
        f.failures.len(),
        f.failures.join("\n")
    );
}
