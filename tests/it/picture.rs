//! The step's data picture and what the builtin drafter makes of it: known before, to supply,
//! decided on; sibling forms and decisions of the project; a secret-named variable skipped, not fatal.

use formgen::bpmn;
use formgen::draft::{self, Around};
use formgen::flow;
use formgen::project::{self, Project, ProjectBounds};
use serde_json::{Value, json};

fn vacation() -> bpmn::Process {
    let bytes = std::fs::read(crate::common::fixtures().join("bpmn/vacation.bpmn")).unwrap();
    bpmn::read(&bytes).processes.into_iter().next().unwrap()
}

fn names<T>(items: &[T], name: impl Fn(&T) -> &str) -> Vec<&str> {
    items.iter().map(name).collect()
}

#[test]
fn the_approval_step_knows_the_request_supplies_the_decision_and_decides_on_it() {
    let p = vacation();
    let step = p.element_index("Task_approve");
    let picture = flow::picture(&p, step, &Project::default());
    assert_eq!(picture.element_id, "Task_approve");
    assert_eq!(names(&picture.known_before, |k| &k.name), ["urlaubstage", "startDate", "vertretung"]);
    assert!(picture.known_before.iter().all(|k| k.from.contains("Urlaub beantragt")));
    assert_eq!(names(&picture.to_supply, |s| &s.name), ["approved", "comment"]);
    assert_eq!(names(&picture.decided_on, |d| &d.name), ["approved"]);
    let start = flow::picture(&p, None, &Project::default());
    assert!(start.known_before.is_empty(), "nothing runs before the start form");
    assert!(start.to_supply.iter().any(|s| s.name == "urlaubstage"));
}

#[test]
fn the_picture_serialises_as_the_page_reads_it() {
    let p = vacation();
    let picture = flow::picture(&p, p.element_index("Task_approve"), &Project::default());
    let json = serde_json::to_value(&picture).unwrap();
    for field in ["elementId", "knownBefore", "toSupply", "decidedOn", "forms", "decisions"] {
        assert!(json.get(field).is_some(), "{field} in {json}");
    }
    assert_eq!(json["knownBefore"][0]["name"], "urlaubstage");
    assert!(json["toSupply"][0]["why"].as_str().unwrap().contains("output mapping"));
}

/// A process whose review step follows a step bound to a sibling form, and whose business rule task
/// calls a decision of the project.
const LINKED: &str = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0">
<process id="P">
  <startEvent id="s"/>
  <sequenceFlow id="f1" sourceRef="s" targetRef="enter"/>
  <userTask id="enter" name="Enter order"><extensionElements><zeebe:formDefinition formId="order-entry"/></extensionElements></userTask>
  <sequenceFlow id="f2" sourceRef="enter" targetRef="rate"/>
  <businessRuleTask id="rate" name="Rate"><extensionElements><zeebe:calledDecision decisionId="risk" resultVariable="riskLevel"/></extensionElements></businessRuleTask>
  <sequenceFlow id="f3" sourceRef="rate" targetRef="review"/>
  <userTask id="review" name="Review"/>
  <sequenceFlow id="f4" sourceRef="review" targetRef="g"/>
  <exclusiveGateway id="g"/>
  <sequenceFlow id="yes" sourceRef="g" targetRef="e"><conditionExpression>= accepted = true</conditionExpression></sequenceFlow>
  <endEvent id="e"/>
</process></definitions>"#;

const RISK: &str = r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="d"><decision id="risk" name="Risk">
<decisionTable><input label="Amount"><inputExpression typeRef="number"><text>amount</text></inputExpression></input>
<output name="riskLevel" typeRef="string"><outputValues><text>"low","high"</text></outputValues></output></decisionTable></decision></definitions>"#;

fn linked_project() -> Project {
    let form = json!({"id": "order-entry", "components": [
        {"type": "number", "key": "amount", "label": "Order amount"},
        {"type": "textfield", "key": "customer", "label": "Customer"}
    ]});
    project::from_request(&[form], &[RISK.to_string()], &ProjectBounds::default()).unwrap()
}

#[test]
fn sibling_forms_and_decisions_feed_the_picture_and_the_draft() {
    let p = bpmn::read_str(LINKED).processes.remove(0);
    let project = linked_project();
    let review = p.element_index("review");
    let picture = flow::picture(&p, review, &project);
    let known = names(&picture.known_before, |k| &k.name);
    assert!(
        known.contains(&"amount") && known.contains(&"customer") && known.contains(&"riskLevel"),
        "{known:?}"
    );
    assert_eq!(picture.forms, ["order-entry"]);
    assert_eq!(picture.decisions, ["risk"]);
    assert_eq!(names(&picture.decided_on, |d| &d.name), ["accepted"]);
    let rate = flow::picture(&p, p.element_index("enter"), &project);
    assert!(
        rate.to_supply.iter().any(|s| s.name == "amount" && s.why.contains("Rate")),
        "{:?}",
        rate.to_supply
    );

    let contract = flow::contract(&p, review, &project);
    let around = Around { picture: &picture, project: &project, contract: &contract };
    let d = draft::draft_in(Some(&p), review, Some(around), "", None);
    let components = d.form["components"].as_array().unwrap();
    let by_key = |k: &str| {
        components.iter().find(|c| c["key"] == k).unwrap_or_else(|| panic!("{k} in {components:?}"))
    };
    assert_eq!(by_key("amount")["label"], "Order amount", "the sibling form's label");
    assert_eq!(by_key("amount")["type"], "number");
    assert_eq!(by_key("amount")["readonly"], true, "shown, not asked again");
    assert_eq!(by_key("riskLevel")["type"], "select", "the decision's allowed values");
    assert_eq!(
        by_key("riskLevel")["values"],
        json!([{"label": "Low", "value": "low"}, {"label": "High", "value": "high"}]),
        "a decision names its values; the draft labels them in words"
    );
    assert_eq!(by_key("accepted")["type"], "checkbox");
    assert!(by_key("accepted").get("readonly").is_none());

    let text = flow::describe_picture(&picture, (&p, &project), &[], 4_000, formgen::flow::Defined::Shown);
    assert!(text.contains("Decided on after it") && text.contains("accepted"), "{text}");
    assert!(text.contains("amount: number \"Order amount\""), "{text}");
    insta::assert_snapshot!("picture-review", text);
}

#[test]
fn a_secret_named_variable_is_skipped_with_a_warning_not_refused() {
    let xml = LINKED.replace("= accepted = true", "= gcpAuthorizationToken != null and accepted");
    let p = bpmn::read_str(&xml).processes.remove(0);
    let picture = flow::picture(&p, p.element_index("review"), &Project::default());
    let contract = flow::contract(&p, p.element_index("review"), &Project::default());
    let d = draft::draft_in(
        Some(&p),
        p.element_index("review"),
        Some(Around { picture: &picture, project: &Project::default(), contract: &contract }),
        "",
        None,
    );
    let keys: Vec<&Value> = d.form["components"].as_array().unwrap().iter().map(|c| &c["key"]).collect();
    assert!(!keys.iter().any(|k| k.as_str() == Some("gcpAuthorizationToken")), "{keys:?}");
    assert!(
        d.warnings.iter().any(|w| w.contains("gcpAuthorizationToken") && w.contains("secret")),
        "{:?}",
        d.warnings
    );
    formgen::gate::schema_from_value(d.form, None, Some(&p)).expect("the draft passes the gate");
}
