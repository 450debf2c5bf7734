//! The DMN reader on the hand-written fixtures in `fixtures/dmn/` and on hostile input.

use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::*;

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/dmn").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const FIXTURES: &[&str] = &[
    "simple.dmn",
    "multi-output.dmn",
    "truncated.dmn",
    "billion-laughs.dmn",
    "external-entity.dmn",
    "not-dmn.dmn",
];

#[test]
fn a_simple_table() {
    let read = read(&fixture("simple.dmn"));
    assert_eq!(read.break_at, None);
    let [d] = read.decisions.as_slice() else { panic!("{read:?}") };
    assert_eq!(
        (d.id.as_str(), d.name.as_str(), d.hit_policy),
        ("risk-level", "Risk level", HitPolicy::First)
    );
    let inputs: Vec<_> =
        d.inputs.iter().map(|i| (i.label.as_str(), i.expression.as_str(), i.type_ref.as_str())).collect();
    assert_eq!(
        inputs,
        [("Order amount", "order.total", "number"), ("Customer country", "customer.country", "string")]
    );
    let [o] = d.outputs.as_slice() else { panic!("{d:?}") };
    assert_eq!((o.name.as_str(), o.label.as_str(), o.type_ref.as_str()), ("level", "Risk level", "string"));
    assert!(o.allowed_values.is_empty());
    assert_eq!(o.rule_values, ["high", "low"], "distinct, in rule order");
    assert_eq!(d.expressions().collect::<Vec<_>>(), ["order.total", "customer.country"]);
    assert!(d.required_decisions.is_empty() && d.literal_expression.is_none());
    assert_eq!(read.decision("risk-level"), Some(d));
}

#[test]
fn a_drg_with_allowed_values_and_a_literal_expression() {
    let read = read(&fixture("multi-output.dmn"));
    let [tier, years] = read.decisions.as_slice() else { panic!("{read:?}") };
    assert_eq!(tier.hit_policy, HitPolicy::Collect(Some(Aggregation::Max)));
    assert_eq!(tier.required_decisions, ["years-as-customer"], "required inputs are not decisions");
    assert_eq!(tier.inputs[1].allowed_values, ["retail", "business"]);
    let outputs: Vec<_> =
        tier.outputs.iter().map(|o| (o.name.as_str(), o.label.as_str(), o.allowed_values.clone())).collect();
    assert_eq!(
        outputs,
        [
            ("tier", "Tier", vec!["gold".to_string(), "silver".into(), "bronze".into()]),
            ("discount", "Discount & bonus", vec![])
        ]
    );
    assert_eq!(tier.outputs[0].rule_values, ["gold"]);
    assert!(tier.outputs[1].rule_values.is_empty(), "numbers are not string literals");

    assert_eq!(
        years.literal_expression.as_deref(),
        Some("years and months duration(customer.since, today()).years")
    );
    let [o] = years.outputs.as_slice() else { panic!("{years:?}") };
    assert_eq!((o.name.as_str(), o.type_ref.as_str()), ("yearsAsCustomer", "number"));
    assert!(years.inputs.is_empty());
    assert_eq!(years.expressions().count(), 1);
}

#[test]
fn decisions_serialise_for_the_outline() {
    let read = read(&fixture("multi-output.dmn"));
    let json = serde_json::to_value(&read.decisions[0]).unwrap();
    assert_eq!(json["hitPolicy"], "COLLECT MAX");
    assert_eq!(json["requiredDecisions"][0], "years-as-customer");
    assert_eq!(json["outputs"][0]["allowedValues"][2], "bronze");
    assert_eq!(json["inputs"][1]["typeRef"], "string");
}

#[test]
fn hit_policies_parse_leniently() {
    assert_eq!(HitPolicy::parse("rule order", None), Some(HitPolicy::RuleOrder));
    assert_eq!(HitPolicy::parse("OUTPUT_ORDER", None), Some(HitPolicy::OutputOrder));
    assert_eq!(
        HitPolicy::parse("COLLECT", Some("count")),
        Some(HitPolicy::Collect(Some(Aggregation::Count)))
    );
    assert_eq!(HitPolicy::parse("COLLECT", Some("AVG")), Some(HitPolicy::Collect(None)));
    assert_eq!(HitPolicy::parse("SOMETIMES", None), None);
    let xml = r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="d"><decisionTable hitPolicy="SOMETIMES"/></decision><decision id="e"><decisionTable hitPolicy="RULE ORDER"/></decision></definitions>"#;
    let read = read_str(xml);
    assert_eq!(read.decisions[0].hit_policy, HitPolicy::Unique, "an unknown policy is the default");
}

#[test]
fn a_truncated_file_keeps_what_came_before_the_break() {
    let read = read(&fixture("truncated.dmn"));
    assert!(read.break_at.is_some());
    let [first, second] = read.decisions.as_slice() else { panic!("{read:?}") };
    assert_eq!((first.id.as_str(), first.inputs.len(), first.outputs.len()), ("first", 1, 1));
    assert_eq!(second.id, "second");
    let inputs: Vec<_> = second.inputs.iter().map(|i| (i.label.as_str(), i.expression.as_str())).collect();
    assert_eq!(inputs, [("B", "b"), ("C", "")], "C's expression is cut");

    let garbage = r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="a"/> <<<>>> <decision id="b"/></definitions>"#;
    let read = read_str(garbage);
    assert_eq!(read.decisions.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["a"]);
    assert!(read.break_at.is_some());
}

#[test]
fn entities_are_never_expanded_and_no_file_is_read() {
    let read = read(&fixture("external-entity.dmn"));
    assert!(!format!("{read:?}").contains("FORMGEN-XXE-MARKER"));
    let d = &read.decisions[0];
    assert_eq!(d.name, "&local;");
    assert_eq!(d.inputs[0].expression, "before &secret; &local; after");
    assert_eq!(d.inputs[0].label, "x & y");
}

#[test]
fn billion_laughs_stay_one_entity() {
    let started = Instant::now();
    let read = read(&fixture("billion-laughs.dmn"));
    assert!(started.elapsed() < Duration::from_secs(5));
    let d = &read.decisions[0];
    assert_eq!(
        (d.name.as_str(), d.inputs[0].label.as_str(), d.inputs[0].expression.as_str()),
        ("&lol9;", "&lol9;", "&lol9;")
    );
    assert_eq!(d.outputs[0].name, "&lol9;");
    assert!(format!("{read:?}").len() < 2_000);
}

#[test]
fn what_is_not_dmn_has_no_decisions() {
    assert!(read(&fixture("not-dmn.dmn")).decisions.is_empty());
    assert!(read(b"").decisions.is_empty());
    assert!(read(b"{\"components\": []}").decisions.is_empty());
    let foreign = r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:v="urn:vendor"><v:decision id="x"/><decision id="y"/></definitions>"#;
    assert_eq!(read_str(foreign).decisions.len(), 1, "a vendor's element of the same name is not a decision");
}

#[test]
fn decoding_follows_the_declaration() {
    let bytes = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><definitions xmlns=\"http://www.omg.org/spec/DMN/20151101/dmn.xsd\"><decision id=\"d\" name=\"Pr\xFCfung\"/></definitions>";
    assert_eq!(read(bytes).decisions[0].name, "Pr\u{fc}fung");
    let text = "\u{FEFF}<definitions xmlns=\"https://www.omg.org/spec/DMN/20191111/MODEL/\">\r\n<decision id=\"d\"><literalExpression><text>a\r\nb</text></literalExpression></decision></definitions>";
    assert_eq!(read_str(text).decisions[0].literal_expression.as_deref(), Some("a\nb"));
}

#[test]
fn deep_nesting_costs_nothing() {
    let depth = 100_000;
    let mut xml = String::from(
        r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="a">"#,
    );
    xml.push_str(&"<decisionTable>".repeat(depth));
    xml.push_str(&"</decisionTable>".repeat(depth));
    xml.push_str(r#"</decision><decision id="after"/></definitions>"#);
    let started = Instant::now();
    let read = read_str(&xml);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(read.decisions.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(), ["a", "after"]);

    let unclosed = format!(
        r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="a"/>{}"#,
        "<x>".repeat(depth)
    );
    assert_eq!(read_str(&unclosed).decisions.len(), 1);
}

#[test]
fn size_limits_refuse_before_reading() {
    let xml = fixture("simple.dmn");
    assert!(read_bounded(&xml, xml.len() as u64).is_ok());
    let err = read_bounded(&xml, 100).unwrap_err();
    assert!(matches!(err, DmnError::TooLarge { limit: 100, .. }));
    assert!(err.to_string().contains("over this installation's limit of 100 bytes"), "{err}");
}

type Skeleton = Vec<(String, Vec<String>, Vec<String>, Vec<String>)>;

/// (id, input labels, output names, required decisions) of every decision: what a cut must keep.
fn skeleton(read: &Decisions) -> Skeleton {
    read.decisions
        .iter()
        .map(|d| {
            (
                d.id.clone(),
                d.inputs.iter().map(|i| i.label.clone()).collect(),
                d.outputs.iter().map(|o| o.name.clone()).collect(),
                d.required_decisions.clone(),
            )
        })
        .collect()
}

/// The same decisions in the same order, the last possibly cut short: each list a prefix of the full one.
fn is_in_order_subset(part: &Skeleton, full: &Skeleton) -> bool {
    part.len() <= full.len()
        && part.iter().zip(full).all(|((pid, pi, po, pr), (fid, fi, fo, fr))| {
            pid == fid && fi.starts_with(pi) && fo.starts_with(po) && fr.starts_with(pr)
        })
}

/// What reading promises of any bytes: a break, when reading stopped early, is an offset in the
/// decoded text; and a bounded read gives the same decisions within its limit and refuses one byte
/// over it.
fn read_as_promised(bytes: &[u8]) -> Result<(), TestCaseError> {
    let decisions = read(bytes);
    let text = decode::decode(bytes);
    if let Some(at) = decisions.break_at {
        prop_assert!(at as usize <= text.len(), "a break at {} of {} bytes of text", at, text.len());
    }
    let size = bytes.len() as u64;
    prop_assert_eq!(read_bounded(bytes, size).ok(), Some(decisions));
    if let Some(limit) = size.checked_sub(1) {
        let over = read_bounded(bytes, limit);
        prop_assert!(
            matches!(over, Err(DmnError::TooLarge { size: s, limit: l }) if s == size && l == limit),
            "{:?}",
            over
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fixtures_cut_anywhere_read_as_an_in_order_subset(file in 0usize..FIXTURES.len(), cut in 0.0f64..1.0) {
        let bytes = fixture(FIXTURES[file]);
        let full = skeleton(&read(&bytes));
        let at = (bytes.len() as f64 * cut) as usize;
        let part = skeleton(&read(&bytes[..at]));
        prop_assert!(is_in_order_subset(&part, &full), "cut at {}: {:?} vs {:?}", at, part, full);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        read_as_promised(&bytes)?;
    }

    #[test]
    fn mutated_fixtures_never_panic(file in 0usize..FIXTURES.len(), flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 1..16)) {
        let mut bytes = fixture(FIXTURES[file]);
        for (at, b) in flips {
            let i = ((bytes.len() as f64) * at) as usize;
            if i < bytes.len() { bytes[i] = b; }
        }
        read_as_promised(&bytes)?;
    }
}

#[test]
fn an_input_whose_rules_test_a_list_is_used_as_one() {
    use super::unary::tests_list;
    assert!(tests_list(r#""Home" in purchases"#, "purchases"));
    assert!(tests_list(r#"list contains(?, "Garden")"#, "purchases"));
    assert!(tests_list(r#"not(list contains( ? , "x"))"#, "tags"));
    assert!(tests_list("some p in ? satisfies p > 3", "prices"));
    assert!(tests_list("count(?) > 1", "items"));
    for entry in [r#""Home""#, r#"in ["a", "b"]"#, "-", r#""a in b""#, r#""x" in purchasesOld"#, "> 18"] {
        assert!(!tests_list(entry, "purchases"), "{entry}");
    }
    let d = super::read_str(
        r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="d"><decisionTable>
        <input><inputExpression typeRef="string"><text>purchases</text></inputExpression></input>
        <input><inputExpression typeRef="number"><text>age</text></inputExpression></input>
        <output name="o"/>
        <rule><inputEntry><text>-</text></inputEntry><inputEntry><text>&gt; 3</text></inputEntry><outputEntry><text>"a"</text></outputEntry></rule>
        <rule><inputEntry><text>"Home" in purchases</text></inputEntry><inputEntry><text>-</text></inputEntry><outputEntry><text>"b"</text></outputEntry></rule>
        </decisionTable></decision></definitions>"#,
    );
    let inputs = &d.decisions[0].inputs;
    assert!(inputs[0].used_as_list && !inputs[1].used_as_list);
    assert_eq!(
        inputs[0].rule_values,
        ["Home"],
        "a list's values are the tags looked for, a catch-all or not"
    );
    assert!(inputs[1].rule_values.is_empty());
    assert_eq!(d.decisions[0].outputs[0].rule_values, ["a", "b"]);
}

#[test]
fn the_texts_every_rule_names_are_the_inputs_values_and_anything_else_leaves_none() {
    use super::unary::string_values;
    assert_eq!(string_values(r#""a", "b,c""#), Some(vec!["a".to_string(), "b,c".to_string()]));
    for entry in ["-", "", r#"not("a")"#, r#""a", 1"#, "> 5", r#"contains(?, "a")"#, r#""a" "b""#] {
        assert_eq!(string_values(entry), None, "{entry}");
    }
    let table = |entries: &[&str]| {
        let rules: String = entries
            .iter()
            .map(|e| format!("<rule><inputEntry><text>{e}</text></inputEntry><outputEntry><text>1</text></outputEntry></rule>"))
            .collect();
        let d = super::read_str(&format!(
            r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="d"><decisionTable>
            <input><inputExpression typeRef="string"><text>level</text></inputExpression></input><output name="o"/>
            {rules}</decisionTable></decision></definitions>"#
        ));
        d.decisions[0].inputs[0].rule_values.clone()
    };
    assert_eq!(table(&["\"low\"", "\"high\",\"low\""]), ["low", "high"]);
    assert!(table(&["\"low\"", "-"]).is_empty(), "a catch-all rule: more values than named");
    assert!(table(&["-", "\"low\""]).is_empty(), "whichever rule comes first");
    let many: Vec<String> = (0..=RULE_VALUES).map(|i| format!("\"v{i}\"")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert!(table(&many).is_empty(), "past the bound no choice");
}
