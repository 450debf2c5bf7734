//! Properties of the gate over generated forms: it never panics, what it accepts satisfies form-js's
//! import rules (unique ids, valid and non-overlapping keys, a stamped id, schemaVersion 19), and
//! running it on its own output changes nothing.

use formgen::{formjs, gate};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn key() -> impl Strategy<Value = Value> {
    prop_oneof![
        5 => prop::sample::select(vec!["name", "amount", "startDate", "a", "a.b", "address.city", "comment", "approved"])
            .prop_map(|k| json!(k)),
        1 => prop::sample::select(vec!["a b", "", "x.0", "__proto__", "apiKey", "ök"]).prop_map(|k| json!(k)),
        1 => Just(json!(42)),
    ]
}

fn label() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::sample::select(vec!["Name", "Amount", "Start date", "Kommentar", "Keyboard layout", ""]).prop_map(|l| json!(l)),
        1 => prop::sample::select(vec!["Password", "Client secret", "PIN"]).prop_map(|l| json!(l)),
        1 => Just(json!(7)),
    ]
}

fn kind() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "textfield",
        "textarea",
        "number",
        "datetime",
        "checkbox",
        "select",
        "radio",
        "checklist",
        "taglist",
        "text",
        "separator",
        "date",
        "dropdown",
        "frobnicate",
        "group",
        "dynamiclist",
        "expression",
    ])
    .prop_map(str::to_string)
}

fn leaf() -> impl Strategy<Value = Value> {
    (
        kind(),
        prop::option::of(key()),
        prop::option::of(label()),
        prop::option::of(prop::sample::select(vec!["Field_1", "Field_2", "x"])),
        prop::option::of((any::<i8>(), any::<i8>())),
        prop::option::of(prop::collection::vec(prop::sample::select(vec!["a", "b", "a"]), 0..3)),
        prop::option::of(prop::sample::select(vec!["=x", "x = 1", "true"])),
    )
        .prop_map(|(kind, key, label, id, minmax, values, hide)| {
            let mut c = Map::new();
            c.insert("type".into(), json!(kind));
            if let Some(k) = key {
                c.insert("key".into(), k);
            }
            if let Some(l) = label {
                c.insert("label".into(), l);
            }
            if let Some(i) = id {
                c.insert("id".into(), json!(i));
            }
            if let Some((min, max)) = minmax {
                c.insert("validate".into(), json!({"min": min, "max": max}));
            }
            if let Some(v) = values {
                c.insert(
                    "values".into(),
                    json!(v.iter().map(|s| json!({"label": s, "value": s})).collect::<Vec<_>>()),
                );
            }
            if let Some(h) = hide {
                c.insert("conditional".into(), json!({"hide": h}));
            }
            Value::Object(c)
        })
}

fn component() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        (
            prop::sample::select(vec!["group", "dynamiclist"]),
            prop::option::of(key()),
            prop::collection::vec(inner, 0..4),
        )
            .prop_map(|(kind, path, children)| {
                let mut c = json!({"type": kind, "label": "Section", "components": children});
                if let Some(Value::String(p)) = path {
                    c["path"] = json!(p);
                }
                c
            })
    })
}

fn form() -> impl Strategy<Value = Value> {
    prop::collection::vec(component(), 0..8).prop_map(|components| json!({"components": components}))
}

/// form-js's import rules, checked on an accepted schema.
fn check_invariants(schema: &Value) -> Result<(), String> {
    if schema["type"] != "default" || schema["schemaVersion"] != 19 || schema["id"] != "stamped" {
        return Err(format!("root not normalised: {schema}"));
    }
    let mut ids = std::collections::HashSet::new();
    fn walk(
        components: &[Value],
        prefix: &str,
        ids: &mut std::collections::HashSet<String>,
        paths: &mut Vec<String>,
    ) -> Result<(), String> {
        for c in components {
            let id = c["id"].as_str().ok_or(format!("no id: {c}"))?;
            if !ids.insert(id.to_string()) {
                return Err(format!("duplicate id {id}"));
            }
            let kind = c["type"].as_str().ok_or("no type")?;
            if !formjs::INPUTS.contains(&kind)
                && !formjs::CONTAINERS.contains(&kind)
                && !formjs::PRESENTATIONAL.contains(&kind)
            {
                return Err(format!("unknown type {kind}"));
            }
            if formjs::INPUTS.contains(&kind) {
                let key = c["key"].as_str().ok_or(format!("input without key: {c}"))?;
                static KEY: std::sync::LazyLock<regex::Regex> =
                    std::sync::LazyLock::new(|| regex::Regex::new(r"^\w+(\.\w+)*$").unwrap());
                if !KEY.is_match(key) || !key.is_ascii() {
                    return Err(format!("bad key {key}"));
                }
                let full = if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") };
                for p in paths.iter() {
                    if *p == full || p.starts_with(&format!("{full}.")) || full.starts_with(&format!("{p}."))
                    {
                        return Err(format!("overlapping {p} and {full}"));
                    }
                }
                paths.push(full);
                if let Some(l) = c.get("label")
                    && !l.is_string()
                {
                    return Err(format!("label not text: {c}"));
                }
            }
            if let Some(children) = c.get("components").and_then(Value::as_array) {
                let path = c.get("path").and_then(Value::as_str).unwrap_or("");
                if kind == "dynamiclist" {
                    walk(children, "", ids, &mut Vec::new())?;
                } else {
                    let p = match (prefix.is_empty(), path.is_empty()) {
                        (_, true) => prefix.to_string(),
                        (true, false) => path.to_string(),
                        (false, false) => format!("{prefix}.{path}"),
                    };
                    walk(children, &p, ids, paths)?;
                }
            }
        }
        Ok(())
    }
    walk(schema["components"].as_array().ok_or("no components")?, "", &mut ids, &mut Vec::new())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn accepted_forms_satisfy_form_js_and_the_gate_is_idempotent(f in form()) {
        if let Ok(p) = gate::schema_from_value(f, Some("stamped"), None) {
            prop_assert!(check_invariants(&p.schema).is_ok(), "{:?}", check_invariants(&p.schema));
            let again = gate::schema_from_value(p.schema.clone(), Some("stamped"), None);
            prop_assert!(again.is_ok(), "the gate refused its own output: {:?}", again.err());
            let again = again.unwrap();
            prop_assert_eq!(&again.schema, &p.schema);
            prop_assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        }
    }

    #[test]
    fn hand_written_forms_keep_their_components_and_are_a_fixed_point(f in form()) {
        let options = gate::Options { origin: gate::Origin::Author, form_id: Some("stamped"), ..Default::default() };
        if let Ok(p) = gate::run_value(f.clone(), &options) {
            let presentational = |v: &Value| count(v, &|k| formjs::PRESENTATIONAL.contains(&k));
            prop_assert_eq!(presentational(&f), presentational(&p.schema), "a presentational component was dropped");
            if !p.warnings.iter().any(|w| w.contains("the copy was removed")) {
                prop_assert_eq!(count(&f, &|_| true), count(&p.schema, &|_| true));
            }
            let again = gate::run_value(p.schema.clone(), &options);
            prop_assert!(again.is_ok(), "the gate refused its own output: {:?}", again.err());
            let again = again.unwrap();
            prop_assert_eq!(&again.schema, &p.schema);
            // a field with neither label nor id is named by its position, and by the id the gate gave
            // it on the second pass: the same warning about the same field
            let first: Vec<String> = p.warnings.iter().map(|w| unnamed(w)).collect();
            prop_assert!(again.warnings.iter().all(|w| first.contains(&unnamed(w))), "{:?}", again.warnings);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,400}") {
        gated_as_promised(gate::schema_from(&s, Some("stamped"), None))?;
    }

    #[test]
    fn answers_cut_anywhere_never_panic(f in form(), cut in 0.0f64..1.0) {
        let text = format!("Here it is:\n```json\n{}\n```", serde_json::to_string_pretty(&f).unwrap());
        let mut at = (text.len() as f64 * cut) as usize;
        while !text.is_char_boundary(at) { at -= 1; }
        gated_as_promised(gate::schema_from(&text[..at], Some("stamped"), None))?;
    }
}

/// What the gate promises of any answer: a form it accepts satisfies form-js and is its own fixed
/// point; a refusal (no stop hook was given, so never [`gate::GateError::Stopped`]) says why in at
/// least one sentence.
fn gated_as_promised(result: Result<gate::Proposal, gate::GateError>) -> Result<(), TestCaseError> {
    match result {
        Ok(p) => {
            prop_assert!(check_invariants(&p.schema).is_ok(), "{:?}", check_invariants(&p.schema));
            let again = gate::schema_from_value(p.schema.clone(), Some("stamped"), None);
            prop_assert!(again.is_ok(), "the gate refused its own output: {:?}", again.err());
            prop_assert_eq!(&again.unwrap().schema, &p.schema);
        }
        Err(e) => {
            prop_assert!(!matches!(e, gate::GateError::Stopped), "stopped without a stop hook");
            let problems = e.problems();
            prop_assert!(!problems.is_empty(), "a refusal without a sentence: {:?}", e);
            for p in &problems {
                prop_assert!(p.trim().len() > 1 && p.ends_with('.'), "not a sentence: {:?}", p);
            }
        }
    }
    Ok(())
}

/// Components (at any depth) whose type satisfies `which`.
fn count(form: &Value, which: &dyn Fn(&str) -> bool) -> usize {
    fn walk(cs: &[Value], which: &dyn Fn(&str) -> bool) -> usize {
        cs.iter()
            .map(|c| {
                which(c["type"].as_str().unwrap_or("")) as usize
                    + c["components"].as_array().map_or(0, |cs| walk(cs, which))
            })
            .sum()
    }
    walk(form["components"].as_array().map(Vec::as_slice).unwrap_or(&[]), which)
}

#[test]
fn the_generator_yields_accepted_forms_too() {
    // The properties above only bite when the gate accepts some generated forms.
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = form();
    let (mut accepted, mut authored, total) = (0, 0, 400);
    for _ in 0..total {
        let f = strategy.new_tree(&mut runner).unwrap().current();
        authored += gate::check_value(f.clone(), Some("stamped"), None).is_ok() as usize;
        accepted += gate::schema_from_value(f, Some("stamped"), None).is_ok() as usize;
    }
    println!("{accepted}/{total} generated forms accepted as answers, {authored} as hand-written forms");
    assert!(accepted * 10 >= total, "only {accepted}/{total} accepted");
    assert!(authored * 10 >= total, "only {authored}/{total} accepted as hand-written");
}

/// A warning with the way it names its field taken out.
fn unnamed(warning: &str) -> String {
    let re = regex::Regex::new(r#"The field (at position [0-9.]+|with id "[^"]+")"#).unwrap();
    re.replace_all(warning, "The field").into_owned()
}
