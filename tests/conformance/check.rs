//! The check ([`formgen::check::review_at_step`]: the gate's review, then the contract) on the authors'
//! real forms of `corpus/pairs/` and `corpus/pairs-extra/`, as `formgen check --project` runs it: no
//! form is refused, a rule of the gate it breaks is an error finding. Every pair's form is checked
//! against the contract of its step, with the BPMN as
//! written (`formgen check` reads it so) and the pair's project folder with its own form and every
//! copy of it hidden (`projectExclude`; for `pairs-extra/`, which lists none, the corpus's rule: the
//! same id, the same components or the same input keys). The findings are tallied by code and
//! severity, and every one is printed for inspection. Then each author's form is broken on purpose
//! and the check must say so:
//!
//! - (a) a need of the contract a field supplies (one outside a dynamic list whose full key is the
//!   need's path) dropped, or (b) its key renamed to `<key>_renamed`: `missing_supply` for the need;
//! - (c) a `number` field the process compares with a number made a `textfield`, or (c2) a checkbox
//!   it reads as true/false made a `textfield`: `type_conflict`; (c3) a text field it reads as a
//!   number made a `number` field: no `type_conflict` left for it;
//! - (d) a select or radio field the process compares with string literals, every option value
//!   prefixed with `x_`: `value_conflict`;
//! - (e) (a), and a field asking for a card's security code added: both `missing_supply` and the
//!   gate's `secret_field`, the form still checked;
//! - (g) the field that supplies a need hidden until a new checkbox is ticked (`conditional.hide`),
//!   where the process reads the value past conditions (or none) that say nothing of that checkbox:
//!   `missing_supply` (form-js submits nothing for a hidden field);
//! - (h) a checkbox a flow after the step takes on `false` (`= not(x)`, or a default flow beside
//!   `= x`) made required: `value_conflict` (form-js submits a required checkbox only ticked).
//!
//! The figures are asserted as measured: the error findings exactly (each inspected, each a true
//! problem of its form), every break caught, and at least as many breaks applying. Neither corpus has
//! a `number` field that the process reads as a number, so (c) applies to none; its one number read
//! is the text field (c3) fixes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use formgen::bpmn::Process;
use formgen::check::{Code, Finding, Severity, review_at_step};
use formgen::flow::contract::{Contract, Expected};
use formgen::project::{self, Project, ProjectBounds, ProjectForm};
use serde_json::{Map, Value};

/// One pair, read: the process holding the step, the project, the author's form.
struct Case {
    name: String,
    process: Process,
    target: usize,
    project: Project,
    schema: Value,
}

/// The ways an author's form is broken, in the order they are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Break {
    /// (a) the field that supplies a need dropped: `missing_supply`.
    Drop,
    /// (b) its key renamed to `<key>_renamed`: `missing_supply` for the original key.
    Rename,
    /// (c) a number field read as a number made a text field: `type_conflict`.
    NumberToText,
    /// (c2) a checkbox read as true/false made a text field: `type_conflict`.
    BooleanToText,
    /// (c3) the fix of (c): a text field read as a number made a number field: no `type_conflict`.
    TextToNumber,
    /// (d) a choice field's option values prefixed with `x_`: `value_conflict`.
    OptionValues,
    /// (e) the field that supplies a need dropped and a field asking for a card's security code
    /// added: both `missing_supply` and the gate's `secret_field`, nothing refused.
    DropWithSecret,
    /// (f) (a) on a form that several steps of the process bind: `missing_supply`, tallied apart.
    SharedDrop,
    /// (g) the field that supplies a need hidden until a new checkbox is ticked: `missing_supply`.
    Hidden,
    /// (h) a checkbox a flow takes on `false` made required: `value_conflict`.
    RequiredTick,
}

impl Break {
    const ALL: [Break; 10] = [
        Break::Drop,
        Break::Rename,
        Break::NumberToText,
        Break::BooleanToText,
        Break::TextToNumber,
        Break::OptionValues,
        Break::DropWithSecret,
        Break::SharedDrop,
        Break::Hidden,
        Break::RequiredTick,
    ];

    fn describe(self) -> &'static str {
        match self {
            Break::Drop => "(a) supplying field dropped -> missing_supply",
            Break::Rename => "(b) supplying field renamed -> missing_supply",
            Break::NumberToText => "(c) number field made textfield -> type_conflict",
            Break::BooleanToText => "(c2) checkbox made textfield -> type_conflict",
            Break::TextToNumber => "(c3) textfield read as number made number -> none",
            Break::OptionValues => "(d) option values changed -> value_conflict",
            Break::DropWithSecret => "(e) (a) and a CVC field -> missing_supply + secret_field",
            Break::SharedDrop => "(f) (a) in a form several steps bind -> missing_supply",
            Break::Hidden => "(g) supplying field hidden behind a new checkbox -> missing_supply",
            Break::RequiredTick => "(h) checkbox a flow takes on false made required -> value_conflict",
        }
    }

    fn expects(self) -> Code {
        match self {
            Break::Drop | Break::Rename | Break::DropWithSecret | Break::SharedDrop | Break::Hidden => {
                Code::MissingSupply
            }
            Break::NumberToText | Break::BooleanToText | Break::TextToNumber => Code::TypeConflict,
            Break::OptionValues | Break::RequiredTick => Code::ValueConflict,
        }
    }
}

/// What one corpus measured.
#[derive(Default)]
struct Measure {
    steps: usize,
    steps_with_error: usize,
    hidden_files: usize,
    by_code: BTreeMap<(&'static str, &'static str), usize>,
    errors: Vec<String>,
    warnings: Vec<String>,
    /// `pair code key` of every error finding, to compare with the inspected list.
    error_keys: Vec<String>,
    breaks: BTreeMap<Break, (usize, usize)>,
    missed: Vec<String>,
    /// The pairs whose form could not be checked at all.
    refused: Vec<String>,
}

impl Measure {
    fn table(&self, corpus: &str) -> String {
        let mut out = String::new();
        let _ =
            writeln!(out, "{corpus}: {} steps, {} with an error finding", self.steps, self.steps_with_error);
        let _ = writeln!(out, "  project files hidden as the pair's own form: {}", self.hidden_files);
        let _ = writeln!(out, "  authors' forms refused (not checked): {}", self.refused.len());
        let _ = writeln!(out, "  findings on the authors' forms:");
        let _ = writeln!(out, "    {:<20} {:<8} {:>5}", "code", "severity", "count");
        for ((code, severity), n) in &self.by_code {
            let _ = writeln!(out, "    {code:<20} {severity:<8} {n:>5}");
        }
        let _ = writeln!(out, "  error findings ({}):", self.errors.len());
        for e in &self.errors {
            let _ = writeln!(out, "    {e}");
        }
        let _ = writeln!(out, "  warnings and infos ({}):", self.warnings.len());
        for w in &self.warnings {
            let _ = writeln!(out, "    {w}");
        }
        let _ = writeln!(out, "  forms broken on purpose:");
        let _ = writeln!(out, "    {:<52} {:>10} {:>7}", "break", "applicable", "caught");
        for kind in Break::ALL {
            let (applicable, caught) = self.breaks.get(&kind).copied().unwrap_or_default();
            let _ = writeln!(out, "    {:<52} {applicable:>10} {caught:>7}", kind.describe());
        }
        let _ = writeln!(out, "  breaks not caught ({}):", self.missed.len());
        for m in &self.missed {
            let _ = writeln!(out, "    {m}");
        }
        out
    }
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

fn bounds() -> ProjectBounds {
    ProjectBounds::from_limits(&formgen::Limits::default())
}

/// The pairs of one corpus folder, read as a user's `formgen check` would read them.
fn cases(dir: &Path, hidden_files: &mut usize) -> Vec<Case> {
    let lines = std::fs::read_to_string(dir.join("pairs.jsonl"))
        .unwrap_or_else(|e| panic!("{}: cannot read pairs.jsonl: {e}", dir.display()));
    let mut out = Vec::new();
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let pair: Value = serde_json::from_str(line).unwrap();
        let field = |k: &str| pair[k].as_str().unwrap_or_else(|| panic!("a pair without {k}: {line}"));
        let (bpmn, element_id, form) = (field("bpmn"), field("elementId"), field("form"));
        let name = format!("{}#{element_id}", bpmn.trim_start_matches("bpmn/"));
        let bytes = std::fs::read(dir.join(bpmn)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let process = formgen::bpmn::read(&bytes)
            .processes
            .into_iter()
            .find(|p| p.element_index(element_id).is_some())
            .unwrap_or_else(|| panic!("{name}: no process holds the element"));
        let target = process.element_index(element_id).unwrap();
        let schema: Value = serde_json::from_slice(&std::fs::read(dir.join(form)).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {form} is not JSON: {e}"));
        let author = ProjectForm::read(schema.clone(), String::new())
            .unwrap_or_else(|e| panic!("{name}: {form} is not a form: {e}"));
        // `pairs/` names the folder and the files to hide; `pairs-extra/` keeps the folders under
        // `projects/<prefix>` and leaves the hiding to the corpus's rule (same id, same components or
        // same input keys as the pair's form)
        let folder = match pair.get("project").and_then(Value::as_str) {
            Some(p) => dir.join(p),
            None => {
                let file = bpmn.trim_start_matches("bpmn/");
                dir.join("projects").join(file.split("__").next().unwrap())
            }
        };
        let exclude: Option<Vec<&str>> = pair
            .get("projectExclude")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|x| x.as_str().unwrap()).collect());
        let project = if folder.is_dir() {
            let mut listing =
                project::list_folder(&folder, &bounds()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let before = listing.files.len();
            listing.files.retain(|f| match &exclude {
                Some(names) => !names.contains(&f.name.as_str()),
                None => !is_copy_of(&f.path, &author),
            });
            *hidden_files += before - listing.files.len();
            project::read_listing(&listing, &bounds()).unwrap_or_else(|e| panic!("{name}: {e}"))
        } else {
            Project::default()
        };
        out.push(Case { name, process, target, project, schema });
    }
    out
}

/// Whether a project file is the pair's own form by the corpus's rule, as `formgen eval` hides it
/// ([`formgen::eval::same_form`]: the same top-level id, the same components, or the same input keys).
fn is_copy_of(path: &Path, author: &ProjectForm) -> bool {
    let Ok(bytes) = std::fs::read(path) else { return false };
    serde_json::from_slice::<Value>(&bytes)
        .is_ok_and(|schema| formgen::eval::same_form(&schema, &author.schema))
}

/// The input components of a schema that bind at the level of the process's variables: those in its
/// `components` and in groups (a group's `path` prefixes its fields' keys), with their full keys; a
/// dynamic list's fields are per entry and left out.
fn fields<'a>(components: &'a [Value], prefix: &str, out: &mut Vec<(String, &'a Map<String, Value>)>) {
    for c in components.iter().filter_map(Value::as_object) {
        let kind = c.get("type").and_then(Value::as_str).unwrap_or_default();
        if formgen::formjs::INPUTS.contains(&kind) {
            if let Some(key) = c.get("key").and_then(Value::as_str) {
                out.push((join(prefix, key), c));
            }
        } else if kind == "group"
            && let Some(Value::Array(children)) = c.get("components")
        {
            fields(children, &group_prefix(c, prefix), out);
        }
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") }
}

fn group_prefix(group: &Map<String, Value>, prefix: &str) -> String {
    match group.get("path").and_then(Value::as_str).map(str::trim) {
        Some(path) if !path.is_empty() => join(prefix, path),
        _ => prefix.to_string(),
    }
}

/// The input component binding `key` that submits a value (not disabled), if any.
fn field<'a>(schema: &'a Value, key: &str) -> Option<&'a Map<String, Value>> {
    let mut all = Vec::new();
    fields(schema["components"].as_array().map(Vec::as_slice).unwrap_or_default(), "", &mut all);
    all.into_iter().find(|(k, c)| k == key && c.get("disabled") != Some(&Value::Bool(true))).map(|(_, c)| c)
}

/// `schema` with `change` applied to every input component binding `key` (as [`fields`] finds
/// them), dropped where `change` returns false.
fn changed(schema: &Value, key: &str, change: &dyn Fn(&mut Map<String, Value>) -> bool) -> Value {
    fn walk(
        components: &mut Vec<Value>,
        prefix: &str,
        key: &str,
        change: &dyn Fn(&mut Map<String, Value>) -> bool,
    ) {
        components.retain_mut(|c| {
            let Some(c) = c.as_object_mut() else { return true };
            let kind = c.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
            if formgen::formjs::INPUTS.contains(&kind.as_str()) {
                let binds = c.get("key").and_then(Value::as_str).is_some_and(|k| join(prefix, k) == key);
                return !binds || change(c);
            }
            if kind == "group" {
                let inner = group_prefix(c, prefix);
                if let Some(Value::Array(children)) = c.get_mut("components") {
                    walk(children, &inner, key, change);
                }
            }
            true
        });
    }
    let mut schema = schema.clone();
    if let Some(components) = schema["components"].as_array_mut() {
        walk(components, "", key, change);
    }
    schema
}

/// The breaks that apply to a case's form: kind, key, broken schema.
fn breaks(schema: &Value, contract: &Contract) -> Vec<(Break, String, Value)> {
    let mut out = Vec::new();
    for need in &contract.must_supply {
        if field(schema, &need.path).is_none() {
            continue;
        }
        let dropped = changed(schema, &need.path, &|_| false);
        let mut with_secret = dropped.clone();
        if let Some(components) = with_secret["components"].as_array_mut() {
            components.push(serde_json::json!({"type": "textfield", "key": "cardCvc", "label": "CVC"}));
        }
        out.push((Break::DropWithSecret, need.path.clone(), with_secret));
        out.push((Break::Drop, need.path.clone(), dropped));
        let rename = |c: &mut Map<String, Value>| {
            let key = c["key"].as_str().unwrap_or_default().to_string();
            c.insert("key".into(), Value::String(format!("{key}_renamed")));
            true
        };
        out.push((Break::Rename, need.path.clone(), changed(schema, &need.path, &rename)));
        // a read the step's own output mapping makes passes the value on: the check cannot place it
        if need.only_when.is_some() {
            let hide = |c: &mut Map<String, Value>| {
                c.insert("conditional".into(), serde_json::json!({"hide": "=not(showBrokenField)"}));
                true
            };
            let mut hidden = changed(schema, &need.path, &hide);
            if let Some(components) = hidden["components"].as_array_mut() {
                components.insert(
                    0,
                    serde_json::json!({"type": "checkbox", "key": "showBrokenField", "label": "More"}),
                );
            }
            out.push((Break::Hidden, need.path.clone(), hidden));
        }
    }
    let numbers: BTreeSet<&str> =
        contract.typed.iter().filter(|t| t.expected == Expected::Number).map(|t| t.path.as_str()).collect();
    for key in numbers {
        let Some(c) = field(schema, key) else { continue };
        let kind = c.get("type").and_then(Value::as_str);
        if kind == Some("number") && c.get("serializeToString") != Some(&Value::Bool(true)) {
            let to_text = |c: &mut Map<String, Value>| {
                c.insert("type".into(), Value::String("textfield".into()));
                true
            };
            out.push((Break::NumberToText, key.to_string(), changed(schema, key, &to_text)));
        } else if matches!(kind, Some("textfield" | "textarea")) {
            let to_number = |c: &mut Map<String, Value>| {
                c.insert("type".into(), Value::String("number".into()));
                c.remove("defaultValue");
                true
            };
            out.push((Break::TextToNumber, key.to_string(), changed(schema, key, &to_number)));
        }
    }
    let booleans: BTreeSet<&str> =
        contract.typed.iter().filter(|t| t.expected == Expected::Boolean).map(|t| t.path.as_str()).collect();
    for key in booleans {
        if field(schema, key).and_then(|c| c.get("type")).and_then(Value::as_str) == Some("checkbox") {
            let to_text = |c: &mut Map<String, Value>| {
                c.insert("type".into(), Value::String("textfield".into()));
                c.remove("defaultValue");
                true
            };
            out.push((Break::BooleanToText, key.to_string(), changed(schema, key, &to_text)));
        }
    }
    let compared: BTreeSet<&str> = contract.literals.iter().map(|l| l.path.as_str()).collect();
    for key in compared {
        let Some(c) = field(schema, key) else { continue };
        let choice = matches!(c.get("type").and_then(Value::as_str), Some("select" | "radio"));
        let values = c.get("values").and_then(Value::as_array);
        let static_text = values
            .is_some_and(|v| !v.is_empty() && v.iter().all(|o| o.get("value").is_some_and(Value::is_string)))
            && c.get("valuesKey").is_none()
            && c.get("valuesExpression").is_none();
        if !choice || !static_text {
            continue;
        }
        let prefix = |c: &mut Map<String, Value>| {
            for option in c.get_mut("values").and_then(Value::as_array_mut).into_iter().flatten() {
                let value = option["value"].as_str().unwrap_or_default().to_string();
                option["value"] = Value::String(format!("x_{value}"));
            }
            true
        };
        out.push((Break::OptionValues, key.to_string(), changed(schema, key, &prefix)));
    }
    required_ticks(schema, contract, &mut out);
    out
}

/// (h): each checkbox a flow after the step takes on `false`, made required.
fn required_ticks(schema: &Value, contract: &Contract, out: &mut Vec<(Break, String, Value)>) {
    let tested_false: BTreeSet<&str> = contract.false_tests.iter().map(|t| t.path.as_str()).collect();
    for key in tested_false {
        let Some(c) = field(schema, key) else { continue };
        let required = c.get("validate").and_then(|v| v.get("required")) == Some(&Value::Bool(true));
        if c.get("type").and_then(Value::as_str) != Some("checkbox") || required {
            continue;
        }
        let require = |c: &mut Map<String, Value>| {
            let validate = c.entry("validate").or_insert_with(|| serde_json::json!({}));
            validate["required"] = Value::Bool(true);
            true
        };
        out.push((Break::RequiredTick, key.to_string(), changed(schema, key, &require)));
    }
}

fn shown(f: &Finding) -> String {
    format!(
        "{} [{}] key {:?} at {:?}: {}",
        f.code.as_str(),
        severity_word(f.severity),
        f.key.as_deref().unwrap_or(""),
        f.element_id.as_deref().unwrap_or(""),
        f.message
    )
}

fn measure(corpus: &str) -> Measure {
    let dir = crate::common::shared().join(corpus);
    let mut m = Measure::default();
    let cases = cases(&dir, &mut m.hidden_files);
    for case in &cases {
        // as `formgen check --project` and `validate` do: the gate's review, then the contract
        let review = |schema: &Value| {
            review_at_step(schema.clone(), &case.name, &case.process, case.target, &case.project)
        };
        let findings = review(&case.schema);
        let form_id = case.schema["id"].as_str().unwrap_or_default().to_string();
        if findings.iter().any(|f| f.code == Code::UnreadableForm) {
            m.refused.push(case.name.clone());
        }
        m.steps += 1;
        if findings.iter().any(|f| f.severity == Severity::Error) {
            m.steps_with_error += 1;
        }
        for f in &findings {
            *m.by_code.entry((f.code.as_str(), severity_word(f.severity))).or_default() += 1;
            if f.severity != Severity::Error {
                m.warnings.push(format!("{}: {}", case.name, shown(f)));
            } else {
                m.errors.push(format!("{}: {}", case.name, shown(f)));
                m.error_keys.push(format!(
                    "{} {} {}",
                    case.name,
                    f.code.as_str(),
                    f.key.as_deref().unwrap_or("")
                ));
            }
        }
        let contract = formgen::flow::contract(&case.process, Some(case.target), &case.project);
        for (kind, key, broken) in breaks(&case.schema, &contract) {
            let after = review(&broken);
            let raised = |f: &Finding| f.code == kind.expects() && f.key.as_deref() == Some(key.as_str());
            let caught = match kind {
                Break::TextToNumber => !after.iter().any(raised),
                Break::DropWithSecret => {
                    after.iter().any(|f| raised(f) && f.severity == Severity::Error && !findings.contains(f))
                        && after
                            .iter()
                            .any(|f| f.code.as_str() == "secret_field" && f.key.as_deref() == Some("cardCvc"))
                }
                _ => {
                    after.iter().any(|f| raised(f) && f.severity == Severity::Error && !findings.contains(f))
                }
            };
            let shared =
                kind == Break::Drop && formgen::check::steps_binding(&case.process, &form_id).len() > 1;
            for tallied in [Some(kind), shared.then_some(Break::SharedDrop)].into_iter().flatten() {
                let tally = m.breaks.entry(tallied).or_default();
                tally.0 += 1;
                tally.1 += usize::from(caught);
            }
            if !caught {
                let said: Vec<String> = after.iter().filter(|f| !findings.contains(f)).map(shown).collect();
                m.missed.push(format!("{}: {kind:?} {key:?}; new findings: {said:?}", case.name));
            }
        }
    }
    println!("{}", m.table(corpus));
    m
}

/// What a corpus must keep measuring: its step count, exactly the error findings inspected (each a
/// true problem of the author's form: a new one is to be inspected and added, a lost one is a check
/// that stopped seeing it), and every break of each kind caught, at least as many applying as
/// measured.
fn assert_measure(corpus: &str, m: &Measure, steps: usize, errors: &[&str], floors: &[(Break, usize)]) {
    assert_eq!(m.steps, steps, "{corpus}: the corpus's pairs");
    assert!(m.refused.is_empty(), "{corpus}: forms not checked: {:?}", m.refused);
    assert_eq!(m.error_keys, errors, "{corpus}: the error findings on the authors' forms");
    assert!(m.missed.is_empty(), "{corpus}: breaks not caught:\n{}", m.missed.join("\n"));
    for &(kind, floor) in floors {
        let (applicable, caught) = m.breaks.get(&kind).copied().unwrap_or_default();
        assert!(
            applicable >= floor,
            "{corpus}: {} applied {applicable} times, {floor} measured",
            kind.describe()
        );
        assert_eq!(caught, applicable, "{corpus}: {} caught {caught} of {applicable}", kind.describe());
    }
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_contract_check_on_the_corpus_pairs() {
    let m = measure("corpus/pairs");
    assert_measure(
        "corpus/pairs",
        &m,
        32,
        &[
            "envite-ibmq__grover-search-workflow.bpmn#start secret_field apiKey",
            "envite-ibmq__qaoa-max-cut-workflow.bpmn#start secret_field apiKey",
            "camundala__invoice.v3.bpmn#CreateInvoiceTask type_conflict amount",
            "academy-testing__payment.bpmn#Task_VerifyCreditCardData secret_field cvc",
            "miwg__C.8.0.bpmn#_79523269-7444-4b01-90e9-e23957a9d020 unbindable_key Current Vacation Status.name",
            "miwg__C.8.0.bpmn#_79523269-7444-4b01-90e9-e23957a9d020 unbindable_key Current Vacation Status.days",
            "miwg__C.8.0.bpmn#_79523269-7444-4b01-90e9-e23957a9d020 unbindable_key Vacation Approval",
        ],
        // not counted: the trivia game's guess step maps `hint`, `translate` and `language` in with
        // defaults (`=false`, `=""`) and out again, so it sets them whatever its form holds
        &[
            (Break::Drop, 23),
            (Break::Rename, 23),
            (Break::NumberToText, 0),
            (Break::BooleanToText, 6),
            (Break::TextToNumber, 1),
            (Break::OptionValues, 3),
            (Break::DropWithSecret, 23),
            // the other 3 are read by the step's own output mapping, which passes the value on
            (Break::Hidden, 20),
            (Break::RequiredTick, 6),
        ],
    );
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_contract_check_on_the_corpus_pairs_extra() {
    let m = measure("corpus/pairs-extra");
    assert_measure(
        "corpus/pairs-extra",
        &m,
        11,
        &[
            "br-claims__Claim_Handling.bpmn#Activity_1prtnlw data_leak Field_1uvpsbk",
            "br-claims__Claim_Handling.bpmn#Activity_1prtnlw data_leak Field_1uvpsbk",
        ],
        &[
            (Break::Drop, 5),
            (Break::Rename, 5),
            (Break::NumberToText, 0),
            (Break::BooleanToText, 2),
            (Break::TextToNumber, 0),
            (Break::OptionValues, 2),
            (Break::DropWithSecret, 5),
            (Break::Hidden, 2),
            (Break::RequiredTick, 2),
        ],
    );
}
