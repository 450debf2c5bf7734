//! The builtin drafter: deterministic forms from the outline, passing the gate, keyed by the process's
//! own variables.

use formgen::bpmn::{self, Process};
use formgen::draft;
use formgen::gate;

use crate::common::drafts::draft_around;
use crate::common::process::{at, names_used};
use serde_json::{Value, json};

fn process(name: &str) -> Process {
    let bytes = std::fs::read(crate::common::fixtures().join("bpmn").join(name)).unwrap();
    bpmn::read(&bytes).processes.into_iter().next().unwrap()
}

fn components(schema: &Value) -> Vec<Value> {
    schema["components"].as_array().unwrap().clone()
}

fn by_key<'a>(cs: &'a [Value], key: &str) -> &'a Value {
    cs.iter().find(|c| c["key"] == key).unwrap_or_else(|| panic!("no field {key} in {cs:#?}"))
}

#[test]
fn the_approval_step_reads_and_decides() {
    let p = process("vacation.bpmn");
    let draft = draft::draft(Some(&p), at(&p, "Task_approve"), "", None);
    let proposal = gate::schema_from_value(draft, Some("approve-vacation"), Some(&p)).unwrap();
    println!("{}", serde_json::to_string_pretty(&proposal.schema).unwrap());
    let cs = components(&proposal.schema);
    assert_eq!(cs[0]["type"], "text");
    assert!(cs[0]["text"].as_str().unwrap().starts_with("# Antrag prüfen\n\nDie Teamleitung prüft"));
    let days = by_key(&cs, "urlaubstage");
    assert_eq!(
        (&days["type"], &days["label"], &days["readonly"]),
        (&json!("number"), &json!("Urlaubstage"), &json!(true))
    );
    assert_eq!(days["validate"]["min"], 0);
    assert_eq!(by_key(&cs, "startDate")["type"], "datetime");
    assert_eq!(by_key(&cs, "startDate")["dateLabel"], "Start date");
    let approved = by_key(&cs, "approved");
    assert_eq!((&approved["type"], approved.get("readonly")), (&json!("checkbox"), None));
    assert_eq!(by_key(&cs, "comment")["type"], "textarea");
    assert_eq!(proposal.bound, ["employeeName", "urlaubstage", "startDate", "approved", "comment"]);
    assert!(proposal.warnings.is_empty(), "{:?}", proposal.warnings);
}

#[test]
fn the_start_form_captures_what_the_start_writes() {
    let p = process("vacation.bpmn");
    let proposal =
        gate::schema_from_value(draft::draft(Some(&p), at(&p, ""), "", None), None, Some(&p)).unwrap();
    let cs = components(&proposal.schema);
    let keys: Vec<&str> = cs.iter().filter_map(|c| c["key"].as_str()).collect();
    assert_eq!(
        keys,
        ["urlaubstage", "startDate", "vertretung"],
        "approved is the approver's, not the start form's"
    );
    assert_eq!(by_key(&cs, "urlaubstage")["validate"]["required"], true, "a decision depends on it");
    assert!(
        proposal.schema["id"].as_str().unwrap().starts_with("Form_"),
        "an id of its own, from its content"
    );
}

#[test]
fn an_option_read_from_a_condition_is_labelled_in_words_and_keeps_its_value() {
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
      <process id="terms" isExecutable="true">
        <userTask id="Task_terms" name="Set the terms"/>
        <sequenceFlow id="f1" sourceRef="Task_terms" targetRef="Gateway_1"/>
        <exclusiveGateway id="Gateway_1"/>
        <sequenceFlow id="f2" sourceRef="Gateway_1" targetRef="End_1">
          <conditionExpression xsi:type="tFormalExpression">=paymentFrequency = "SEMI_ANNUAL"</conditionExpression>
        </sequenceFlow>
        <sequenceFlow id="f3" sourceRef="Gateway_1" targetRef="End_1">
          <conditionExpression xsi:type="tFormalExpression">=paymentFrequency = "MONTHLY"</conditionExpression>
        </sequenceFlow>
        <sequenceFlow id="f4" sourceRef="Gateway_1" targetRef="End_1">
          <conditionExpression xsi:type="tFormalExpression">=paymentFrequency = "EUR"</conditionExpression>
        </sequenceFlow>
        <endEvent id="End_1"/>
      </process>
    </definitions>"#;
    let p = bpmn::read(xml.as_bytes()).processes.into_iter().next().unwrap();
    let proposal =
        gate::schema_from_value(draft::draft(Some(&p), at(&p, "Task_terms"), "", None), None, Some(&p))
            .unwrap();
    let cs = components(&proposal.schema);
    assert_eq!(
        by_key(&cs, "paymentFrequency")["values"],
        json!([
            {"label": "Semi annual", "value": "SEMI_ANNUAL"},
            {"label": "Monthly", "value": "MONTHLY"},
            {"label": "EUR", "value": "EUR"}
        ]),
        "authors label an option in words, never with the constant itself; a short code stays as written"
    );
}

#[test]
fn conditions_type_the_fields() {
    let p = process("expense-c7.bpmn");
    let proposal =
        gate::schema_from_value(draft::draft(Some(&p), at(&p, ""), "", None), None, Some(&p)).unwrap();
    let cs = components(&proposal.schema);
    let category = by_key(&cs, "category");
    assert_eq!(category["type"], "select");
    assert_eq!(
        category["values"],
        json!([{"label": "Travel", "value": "travel"}, {"label": "Hotel", "value": "hotel"}])
    );
    assert_eq!(by_key(&cs, "vip")["type"], "checkbox");
    assert_eq!(by_key(&cs, "amount")["type"], "number");

    let order = process("order.bpmn");
    let proposal = gate::schema_from_value(
        draft::draft(Some(&order), at(&order, "check"), "", None),
        None,
        Some(&order),
    )
    .unwrap();
    let cs = components(&proposal.schema);
    let shipping = by_key(&cs, "shipping");
    assert_eq!(shipping["type"], "select");
    assert_eq!(shipping["values"].as_array().unwrap().len(), 2);
    assert_eq!(by_key(&cs, "order.total")["type"], "number");
}

#[test]
fn refinement_keeps_the_form_and_adds_what_is_missing() {
    let p = process("vacation.bpmn");
    let current = json!({"type": "default", "id": "approve-vacation", "components": [
        {"type": "checkbox", "key": "approved", "label": "Genehmigen", "id": "Field_mine"}]});
    let draft = draft::draft(Some(&p), at(&p, "Task_approve"), "", Some(&current));
    let cs = components(&draft);
    assert_eq!(cs[0]["id"], "Field_mine");
    assert_eq!(cs.iter().filter(|c| c["key"] == "approved").count(), 1);
    assert!(cs.iter().any(|c| c["key"] == "comment"));
}

#[test]
fn without_a_process_the_brief_is_the_heading() {
    let draft = draft::draft(None, None, "Reisekostenabrechnung\nmit Belegen", None);
    let proposal = gate::schema_from_value(draft, Some("f"), None).unwrap();
    assert_eq!(proposal.schema["components"][0]["text"], "# Reisekostenabrechnung");
}

#[test]
fn every_fixture_process_and_step_drafts_a_form_the_gate_accepts() {
    for path in crate::common::bpmn_files(&crate::common::fixtures().join("bpmn")) {
        let defs = bpmn::read(&std::fs::read(&path).unwrap());
        for p in &defs.processes {
            let names = names_used(p);
            let targets =
                std::iter::once("").chain(p.elements.iter().filter(|e| !e.is_flow()).map(|e| e.id.as_str()));
            for target in targets {
                let draft = draft::draft(Some(p), at(p, target), "", None);
                let proposal = gate::schema_from_value(draft, None, Some(p))
                    .unwrap_or_else(|e| panic!("{} {target}: {e}", path.display()));
                for b in &proposal.bindings {
                    assert!(
                        names.contains(&b.path),
                        "{} {target}: key {} is not a process variable",
                        path.display(),
                        b.path
                    );
                }
            }
        }
    }
}

/// A process whose review step follows `enter` and comes before a gateway that tests `total`. With
/// `bound`, `enter` binds the sibling form `entry` (so `total` is known before the review and shown);
/// without, `enter` binds another form and the review must supply `total` itself.
fn sibling_process(bound: bool) -> String {
    let form_id = if bound { "entry" } else { "elsewhere" };
    format!(
        r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0">
<process id="P">
  <startEvent id="s"/>
  <sequenceFlow id="f1" sourceRef="s" targetRef="enter"/>
  <userTask id="enter" name="Enter"><extensionElements><zeebe:formDefinition formId="{form_id}"/></extensionElements></userTask>
  <sequenceFlow id="f2" sourceRef="enter" targetRef="review"/>
  <userTask id="review" name="Review"/>
  <sequenceFlow id="f3" sourceRef="review" targetRef="g"/>
  <exclusiveGateway id="g"/>
  <sequenceFlow id="yes" sourceRef="g" targetRef="e"><conditionExpression>= total != null</conditionExpression></sequenceFlow>
  <endEvent id="e"/>
</process></definitions>"#
    )
}

/// The smallest component of `kind` binding `total` that a real form-js form holds; `dynamic` gives an
/// option field its options from a variable instead of listing them.
fn sibling_component(kind: &str, dynamic: bool) -> Value {
    let values = json!([{"label": "Low", "value": "low"}, {"label": "High", "value": "high"}]);
    match kind {
        "textfield" | "textarea" | "number" | "checkbox" => {
            json!({"type": kind, "key": "total", "label": "Total"})
        }
        "datetime" => json!({"type": kind, "key": "total", "subtype": "date", "dateLabel": "Total"}),
        "expression" => json!({"type": kind, "key": "total", "expression": "=a + b", "computeOn": "change"}),
        "filepicker" => json!({"type": kind, "key": "total", "label": "Total", "multiple": true}),
        "checklist" | "radio" | "select" | "taglist" if dynamic => {
            json!({"type": kind, "key": "total", "label": "Total", "valuesKey": "choices"})
        }
        "checklist" | "radio" | "select" | "taglist" => {
            json!({"type": kind, "key": "total", "label": "Total", "values": values})
        }
        other => panic!("a sibling form may define `{other}`: give this test its smallest component"),
    }
}

#[tokio::test]
async fn every_type_a_sibling_form_defines_drafts_a_form_the_gate_accepts() {
    use formgen::service::{GenerateRequest, Service};
    let service = Service::new(&formgen::config::Config::load(None, &|_| None).unwrap()).unwrap();
    let principal = formgen::auth::Principal::operator();
    for &kind in formgen::formjs::INPUTS {
        for dynamic in [false, true] {
            if dynamic && !formgen::formjs::OPTION_FIELDS.contains(&kind) {
                continue;
            }
            let sibling = sibling_component(kind, dynamic);
            let form = json!({"id": "entry", "type": "default", "components": [sibling]});
            assert!(gate::check_value(form.clone(), None, None).is_ok(), "{kind}: the sibling form itself");
            for bound in [true, false] {
                let case = format!("{kind} (dynamic options: {dynamic}, bound to the step before: {bound})");
                let req = GenerateRequest {
                    worker: Some("builtin".into()),
                    process_xml: Some(sibling_process(bound)),
                    element_id: Some("review".into()),
                    forms: vec![form.clone()],
                    ..GenerateRequest::default()
                };
                let answer = service
                    .generate(&principal, req)
                    .await
                    .unwrap_or_else(|e| panic!("{case}: the builtin draft was refused: {e}"));
                let cs = components(&answer.schema);
                let total = by_key(&cs, "total");
                let text = serde_json::to_string(&answer.schema).unwrap();
                gate::check(&text, None, None).unwrap_or_else(|e| panic!("{case}: {e}\n{text}"));
                if bound {
                    assert_ne!(total["type"], "expression", "{case}: a value known before is shown: {total}");
                    assert_eq!(total["readonly"], true, "{case}: {total}");
                } else if kind == "expression" {
                    assert_eq!(
                        (&total["expression"], &total["computeOn"]),
                        (&json!("=a + b"), &json!("change")),
                        "{case}: computed as the sibling form computes it"
                    );
                }
            }
        }
    }
}

/// What `delegates-c7.bpmn` runs as code: delegate beans, beans an expression calls, and the
/// packages of its classes. None of them is data.
const BEANS: &[&str] = &["svnService", "auditListener", "policyService", "reviewAssigner", "mailer", "com"];

/// `delegates-c7.bpmn`, as written (Camunda 7) and with its extensions in Flowable's and Activiti's
/// namespaces.
fn delegate_processes() -> Vec<(&'static str, String)> {
    let xml = std::fs::read_to_string(crate::common::fixtures().join("bpmn/delegates-c7.bpmn")).unwrap();
    let camunda = "http://camunda.org/schema/1.0/bpmn";
    ["camunda", "flowable", "activiti"]
        .into_iter()
        .map(|engine| {
            let uri = match engine {
                "flowable" => "http://flowable.org/bpmn",
                "activiti" => "http://activiti.org/bpmn",
                _ => camunda,
            };
            (engine, xml.replace(camunda, uri))
        })
        .collect()
}

#[tokio::test]
async fn no_field_is_keyed_after_a_delegate_bean() {
    use formgen::flow;
    use formgen::project::Project;
    use formgen::service::{GenerateRequest, Service};
    let service = Service::new(&formgen::config::Config::load(None, &|_| None).unwrap()).unwrap();
    let principal = formgen::auth::Principal::operator();
    let no_bean = |case: &str, names: Vec<&str>| {
        let beans: Vec<&&str> =
            names.iter().filter(|n| BEANS.contains(&n.split('.').next().unwrap())).collect();
        assert!(beans.is_empty(), "{case}: {beans:?} in {names:?}");
    };
    for (engine, xml) in delegate_processes() {
        let p = bpmn::read_str(&xml).processes.remove(0);
        for access in flow::access::of_process(&p) {
            no_bean(&format!("{engine}: reads"), access.reads.iter().map(String::as_str).collect());
        }
        let targets =
            std::iter::once("").chain(p.elements.iter().filter(|e| !e.is_flow()).map(|e| e.id.as_str()));
        for target in targets {
            let case = format!("{engine} {target:?}");
            let picture = flow::picture(&p, at(&p, target), &Project::default());
            let pictured = picture.known_before.iter().map(|k| k.name.as_str());
            let pictured = pictured.chain(picture.to_supply.iter().map(|s| s.name.as_str()));
            no_bean(
                &format!("{case}: picture"),
                pictured.chain(picture.decided_on.iter().map(|d| d.name.as_str())).collect(),
            );
            let draft = draft::draft(Some(&p), at(&p, target), "", None);
            let proposal =
                gate::schema_from_value(draft, None, Some(&p)).unwrap_or_else(|e| panic!("{case}: {e}"));
            no_bean(&format!("{case}: draft"), proposal.bound.iter().map(String::as_str).collect());
        }
        for target in ["", "review"] {
            let req = GenerateRequest {
                worker: Some("builtin".into()),
                process_xml: Some(xml.clone()),
                element_id: Some(target.into()),
                ..GenerateRequest::default()
            };
            let answer =
                service.generate(&principal, req).await.unwrap_or_else(|e| panic!("{engine} {target}: {e}"));
            let cs = components(&answer.schema);
            no_bean(
                &format!("{engine} {target:?}: generated"),
                cs.iter().filter_map(|c| c["key"].as_str()).collect(),
            );
            if target == "review" {
                // what the beans are passed is still the process's data
                assert!(by_key(&cs, "verdict").get("readonly").is_none(), "{engine}: the review decides");
                assert_eq!(by_key(&cs, "revision")["readonly"], true, "{engine}: the policy check reads it");
            }
        }
    }
}

#[test]
fn the_values_known_before_a_step_it_does_not_show_are_named_in_a_warning() {
    let outputs: String =
        (1..=9).map(|i| format!(r#"<zeebe:output source="=1" target="computed{i}"/>"#)).collect();
    let xml = format!(
        r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P"><startEvent id="S"/><scriptTask id="X"><extensionElements><zeebe:ioMapping>{outputs}</zeebe:ioMapping></extensionElements></scriptTask><userTask id="T"/><sequenceFlow id="a" sourceRef="S" targetRef="X"/><sequenceFlow id="b" sourceRef="X" targetRef="T"/></process></definitions>"#
    );
    let p = bpmn::read_str(&xml).processes.remove(0);
    let project = formgen::project::Project::default();
    let target = p.element_index("T");
    let drafted = draft_around(&p, target, &project);
    let shown: Vec<String> = components(&drafted.form)
        .iter()
        .filter_map(|c| c.get("key").and_then(Value::as_str).map(str::to_string))
        .collect();
    let warning = drafted.warnings.iter().find(|w| w.contains("not shown")).expect("a warning");
    for i in 1..=9 {
        let name = format!("`computed{i}`");
        // each value is shown or named, never both; at most five are named, the rest counted
        assert!(!(shown.contains(&format!("computed{i}")) && warning.contains(&name)), "{warning}");
    }
    assert_eq!(shown.len() + warning.matches('`').count() / 2, 2 + 5, "{shown:?} {warning}");
    assert!(warning.ends_with(" and 2 more"), "{warning}");
    // a step whose known values are all shown gets no such warning
    let vacation = process("vacation.bpmn");
    let target = vacation.element_index("Task_approve");
    let drafted = draft_around(&vacation, target, &project);
    assert!(drafted.warnings.iter().all(|w| !w.contains("not shown")), "{:?}", drafted.warnings);
}

#[test]
fn a_field_read_only_past_the_no_shows_once_the_form_says_no_and_the_check_agrees() {
    let path = crate::common::fixtures().join("check/hidden/reject.bpmn");
    let p = bpmn::read(&std::fs::read(&path).unwrap()).processes.remove(0);
    let (step, project) = (at(&p, "Task_review"), formgen::project::Project::default());
    let picture = formgen::flow::picture(&p, step, &project);
    let contract = formgen::flow::contract(&p, step, &project);
    let around = draft::Around { picture: &picture, project: &project, contract: &contract };
    let proposal = draft::gated(Some(&p), step, Some(around), "", None, Some("review")).unwrap();
    let cs = components(&proposal.schema);
    let keys: Vec<&str> = cs.iter().filter_map(|c| c["key"].as_str()).collect();
    let at_key = |k: &str| keys.iter().position(|x| *x == k).unwrap_or_else(|| panic!("no {k} in {keys:?}"));
    assert!(at_key("approved") < at_key("reason"), "the reason below the answer that shows it: {keys:?}");
    assert_eq!(by_key(&cs, "reason")["conditional"], json!({"hide": "=approved"}));
    assert_eq!(by_key(&cs, "note").get("conditional"), None, "read after the branches join");
    let check = formgen::check::StepCheck::from_contract(&p, step, &project, contract.clone());
    assert_eq!(check.of_schema(&proposal.schema), [], "the hidden reason is read only where it shows");
}

#[test]
fn a_start_form_asks_for_what_the_process_reads_and_nothing_writes() {
    // a worker without output mappings may write anything, so the check cannot call `sidecarUrl`
    // missing; the start form still proposes it, as the person starting the process brings it
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="W"/>
      <serviceTask id="W"><extensionElements><zeebe:taskDefinition type="opaque"/></extensionElements></serviceTask>
      <sequenceFlow id="b" sourceRef="W" targetRef="C"/>
      <serviceTask id="C"><extensionElements><zeebe:taskDefinition type="http"/><zeebe:ioMapping>
        <zeebe:input source="=sidecarUrl + &quot;/run&quot;" target="url"/>
        <zeebe:input source="=backend" target="backend"/>
        <zeebe:output source="=response.body" target="result"/>
      </zeebe:ioMapping></extensionElements></serviceTask>
      <sequenceFlow id="c" sourceRef="C" targetRef="E"/><endEvent id="E"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = formgen::project::Project::default();
    let keys = |target: Option<usize>| {
        let drafted = draft_around(&p, target, &project);
        components(&drafted.form)
            .iter()
            .filter_map(|c| c["key"].as_str().map(str::to_string))
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(None), ["sidecarUrl", "backend"], "not `response`, the job's result");
    assert_eq!(keys(p.element_index("S")), ["sidecarUrl", "backend"]);
    let contract = formgen::flow::contract(&p, None, &project);
    assert!(contract.must_supply.is_empty(), "the check, which accuses, stays silent past the worker");
}

#[test]
fn a_value_the_job_worker_after_the_step_names_is_left_to_it_and_said() {
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="U"/>
      <userTask id="U" name="Enter order"/><sequenceFlow id="b" sourceRef="U" targetRef="W"/>
      <serviceTask id="W" name="Check stock"><extensionElements><zeebe:taskDefinition type="stock"/></extensionElements></serviceTask>
      <sequenceFlow id="c" sourceRef="W" targetRef="G"/><exclusiveGateway id="G" default="e"/>
      <sequenceFlow id="d" sourceRef="G" targetRef="E"><conditionExpression>= inStock and quantity &gt; 3</conditionExpression></sequenceFlow>
      <sequenceFlow id="e" sourceRef="G" targetRef="E"/><endEvent id="E"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = formgen::project::Project::default();
    for target in [p.element_index("U"), None] {
        let drafted = draft_around(&p, target, &project);
        let form = components(&drafted.form);
        let keys: Vec<&str> = form.iter().filter_map(|c| c["key"].as_str()).collect();
        assert_eq!(keys, ["quantity"], "not `inStock`, which the stock check sets");
        let warning = drafted.warnings.iter().find(|w| w.contains("`inStock`")).expect("a warning");
        assert!(warning.contains(r#"the service task "Check stock""#), "{warning}");
    }
}

#[test]
fn a_start_form_gives_the_first_value_of_what_a_later_form_asks_again() {
    // the question is fetched for `category` before the loop's form asks for another one; the
    // running `total` a script keeps needs a first value (in FEEL `null + 1` is null)
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <extensionElements><zeebe:userTaskForm id="pick">{"components": [{"type": "textfield", "key": "category", "label": "Category"}]}</zeebe:userTaskForm></extensionElements>
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="J"/><exclusiveGateway id="J"/>
      <sequenceFlow id="b" sourceRef="J" targetRef="Q"/>
      <serviceTask id="Q"><extensionElements><zeebe:taskDefinition type="io.camunda:http-json:1"/><zeebe:ioMapping>
        <zeebe:input source="=&quot;https://quiz.example/q?c=&quot; + category + string(total)" target="url"/>
      </zeebe:ioMapping><zeebe:taskHeaders><zeebe:header key="resultVariable" value="question"/></zeebe:taskHeaders></extensionElements></serviceTask>
      <sequenceFlow id="c" sourceRef="Q" targetRef="T"/>
      <scriptTask id="T"><extensionElements><zeebe:script expression="=total + 1" resultVariable="total"/></extensionElements></scriptTask>
      <sequenceFlow id="d" sourceRef="T" targetRef="U"/>
      <userTask id="U"><extensionElements><zeebe:formDefinition formKey="camunda-forms:bpmn:pick"/></extensionElements></userTask>
      <sequenceFlow id="e" sourceRef="U" targetRef="J"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = formgen::project::Project::default();
    let drafted = draft_around(&p, None, &project);
    let cs = components(&drafted.form);
    let keys: Vec<&str> = cs.iter().filter_map(|c| c["key"].as_str()).collect();
    assert_eq!(keys, ["category", "total"], "{:?}", formgen::flow::picture(&p, None, &project).to_supply);
    assert_eq!(by_key(&cs, "total")["type"], "number", "arithmetic with a number");
}

#[test]
fn a_form_embedded_for_another_step_defines_a_field_as_a_project_form_does() {
    // the review step reads what the entry step's embedded form asks for; the review step's own
    // embedded form is the one a draft replaces, so it defines nothing
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <extensionElements>
        <zeebe:userTaskForm id="entry">{"components": [{"type": "textfield", "key": "amount", "label": "Amount due"}, {"type": "radio", "key": "category", "label": "Kind of cost", "values": [{"label": "Travel", "value": "travel"}, {"label": "Office", "value": "office"}]}]}</zeebe:userTaskForm>
        <zeebe:userTaskForm id="review">{"components": [{"type": "textarea", "key": "note", "label": "What the old form said"}]}</zeebe:userTaskForm>
      </extensionElements>
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="E"/>
      <userTask id="E"><extensionElements><zeebe:formDefinition formKey="camunda-forms:bpmn:entry"/></extensionElements></userTask>
      <sequenceFlow id="b" sourceRef="E" targetRef="R"/>
      <userTask id="R"><extensionElements><zeebe:formDefinition formKey="camunda-forms:bpmn:review"/><zeebe:ioMapping>
        <zeebe:output source="=note" target="reviewNote"/></zeebe:ioMapping></extensionElements></userTask>
      <sequenceFlow id="c" sourceRef="R" targetRef="G"/><exclusiveGateway id="G"/>
      <sequenceFlow id="d" sourceRef="G" targetRef="X"><conditionExpression>=amount &gt; 100 and category = "travel"</conditionExpression></sequenceFlow>
      <sequenceFlow id="e" sourceRef="G" targetRef="X"><conditionExpression>=reviewNote != null</conditionExpression></sequenceFlow>
      <endEvent id="X"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = formgen::project::Project::default();
    let review = p.element_index("R");
    let drafted = draft_around(&p, review, &project);
    let cs = components(&drafted.form);
    let category = by_key(&cs, "category");
    assert_eq!(category["type"], "radio", "{cs:?}");
    assert_eq!(category["label"], "Kind of cost");
    assert_eq!(category["values"][0]["label"], "Travel");
    assert_eq!(by_key(&cs, "amount")["label"], "Amount due");
    let note = by_key(&cs, "note");
    assert_ne!(note["label"], "What the old form said", "the step's own embedded form defines nothing");
}

#[test]
fn the_texts_every_rule_of_a_decision_names_are_the_choice_and_a_catch_all_leaves_a_text_but_not_a_list() {
    let dmn = r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="dish"><decisionTable>
      <input><inputExpression typeRef="string"><text>season</text></inputExpression></input>
      <input><inputExpression typeRef="string"><text>supplier</text></inputExpression></input>
      <input><inputExpression typeRef="string"><text>allergies</text></inputExpression></input>
      <input><inputExpression typeRef="boolean"><text>vegan</text></inputExpression></input>
      <output name="dish"/>
      <rule><inputEntry><text>"Fall","Winter"</text></inputEntry><inputEntry><text>"Acme"</text></inputEntry><inputEntry><text>list contains(?, "nuts")</text></inputEntry><inputEntry><text>-</text></inputEntry><outputEntry><text>"stew"</text></outputEntry></rule>
      <rule><inputEntry><text>"Spring"</text></inputEntry><inputEntry><text>"Bolt"</text></inputEntry><inputEntry><text>-</text></inputEntry><inputEntry><text>true</text></inputEntry><outputEntry><text>"salad"</text></outputEntry></rule>
      <rule><inputEntry><text>"Summer"</text></inputEntry><inputEntry><text>-</text></inputEntry><inputEntry><text>not("milk" in ?)</text></inputEntry><inputEntry><text>-</text></inputEntry><outputEntry><text>"ice"</text></outputEntry></rule>
      </decisionTable></decision></definitions>"#;
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="T"/><userTask id="T"/>
      <sequenceFlow id="b" sourceRef="T" targetRef="D"/>
      <businessRuleTask id="D"><extensionElements><zeebe:calledDecision decisionId="dish" resultVariable="dish"/></extensionElements></businessRuleTask>
      <sequenceFlow id="c" sourceRef="D" targetRef="E"/><endEvent id="E"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = formgen::project::Project {
        decisions: formgen::dmn::read_str(dmn).decisions,
        ..formgen::project::Project::default()
    };
    let drafted = draft_around(&p, p.element_index("T"), &project);
    let cs = components(&drafted.form);
    let season = by_key(&cs, "season");
    assert_eq!(season["type"], "select", "{cs:?}");
    let values: Vec<&Value> = season["values"].as_array().unwrap().iter().map(|v| &v["value"]).collect();
    assert_eq!(values, ["Fall", "Winter", "Spring", "Summer"]);
    // a rule for any supplier: the two named are a watch list, not every supplier there is
    assert_eq!(by_key(&cs, "supplier")["type"], "textfield", "{cs:?}");
    // a list: the tags the rules look for are what can be ticked, a catch-all or not
    let allergies = by_key(&cs, "allergies");
    assert_eq!(allergies["type"], "checklist", "{cs:?}");
    let tags: Vec<&Value> = allergies["values"].as_array().unwrap().iter().map(|v| &v["value"]).collect();
    assert_eq!(tags, ["nuts", "milk"]);
    // the decision needs each answered; unticked and none chosen are answers, which form-js's
    // required would refuse
    assert_eq!(season["validate"]["required"], true);
    let vegan = by_key(&cs, "vegan");
    assert_eq!((&vegan["type"], vegan.get("validate")), (&json!("checkbox"), None), "{vegan}");
    assert_eq!(allergies.get("validate"), None, "{allergies}");
}

#[test]
fn a_yes_or_no_the_engine_requires_is_not_a_tick_form_js_requires() {
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"><process id="P">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="T"/>
      <userTask id="T"><extensionElements><camunda:formData>
        <camunda:formField id="approved" type="boolean"><camunda:validation><camunda:constraint name="required"/></camunda:validation></camunda:formField>
        <camunda:formField id="remark" type="string"><camunda:validation><camunda:constraint name="required"/></camunda:validation></camunda:formField>
      </camunda:formData></extensionElements></userTask>
      <sequenceFlow id="b" sourceRef="T" targetRef="E"/><endEvent id="E"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let cs = components(&draft::draft(Some(&p), p.element_index("T"), "", None));
    let approved = by_key(&cs, "approved");
    assert_eq!((&approved["type"], approved.get("validate")), (&json!("checkbox"), None), "{approved}");
    assert_eq!(by_key(&cs, "remark")["validate"]["required"], true);
}

#[test]
fn a_value_shown_read_only_is_not_labelled_with_the_question_that_asked_for_it() {
    // the request form asks its person "What do you want to say?"; the courier's step shows the
    // message to someone else, who is asked nothing about it
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <extensionElements><zeebe:userTaskForm id="ask">{"components": [{"type": "textarea", "key": "message", "label": "What do you want to say?"}, {"type": "textfield", "key": "person", "label": "To whom does this concern"}]}</zeebe:userTaskForm></extensionElements>
      <startEvent id="S"><extensionElements><zeebe:formDefinition formKey="camunda-forms:bpmn:ask"/></extensionElements></startEvent>
      <sequenceFlow id="a" sourceRef="S" targetRef="D"/>
      <userTask id="D" name="Deliver the message"/>
      <sequenceFlow id="b" sourceRef="D" targetRef="G"/><exclusiveGateway id="G"/>
      <sequenceFlow id="c" sourceRef="G" targetRef="X"><conditionExpression>=delivered</conditionExpression></sequenceFlow>
      <sequenceFlow id="d" sourceRef="G" targetRef="X"><conditionExpression>=not(delivered)</conditionExpression></sequenceFlow>
      <endEvent id="X"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = formgen::project::Project::default();
    let drafted = draft_around(&p, p.element_index("D"), &project);
    let cs = components(&drafted.form);
    let message = by_key(&cs, "message");
    assert_eq!(message["readonly"], true, "{cs:?}");
    assert_eq!((message["type"].as_str(), message["label"].as_str()), (Some("textarea"), Some("Message")));
    assert_eq!(
        by_key(&cs, "person")["label"],
        "To whom does this concern",
        "a label that asks nothing stays"
    );
}

/// An offering: a first step asks for `cusip`, the offering step's documentation lists its fields,
/// and a summary form later shows some of them read-only (so nothing in the process sets them but
/// the offering step).
fn offering(documentation: &str) -> (Process, formgen::project::Project) {
    let xml = format!(
        r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0">
<process id="Offering">
  <startEvent id="s"/>
  <sequenceFlow id="f1" sourceRef="s" targetRef="id"/>
  <userTask id="id" name="Enter CUSIP"><extensionElements><zeebe:formDefinition formId="enter-id"/></extensionElements></userTask>
  <sequenceFlow id="f2" sourceRef="id" targetRef="offer"/>
  <userTask id="offer" name="Offering info"><documentation>{documentation}</documentation></userTask>
  <sequenceFlow id="f3" sourceRef="offer" targetRef="sum"/>
  <userTask id="sum" name="Summary"><extensionElements><zeebe:formDefinition formId="summary"/></extensionElements></userTask>
  <sequenceFlow id="f4" sourceRef="sum" targetRef="e"/>
  <endEvent id="e"/>
</process></definitions>"#
    );
    let p = bpmn::read_str(&xml).processes.remove(0);
    let enter =
        json!({"id": "enter-id", "components": [{"type": "textfield", "key": "cusip", "label": "CUSIP"}]});
    let summary = json!({"id": "summary", "components": [
        {"type": "textfield", "key": "cusip", "label": "CUSIP", "readonly": true},
        {"type": "textfield", "key": "issuerName", "label": "Issuer", "readonly": true},
        {"type": "number", "key": "takedownAmount", "label": "Takedown amount", "readonly": true}
    ]});
    let bounds = formgen::project::ProjectBounds::default();
    (p, formgen::project::from_request(&[enter, summary], &[], &bounds).unwrap())
}

#[test]
fn the_fields_the_steps_documentation_lists_are_asked_for_under_the_projects_keys() {
    let listed = "Capture offering details: Issuer Name, Issuer Country, Takedown amount, API key.";
    let (p, project) = offering(listed);
    let drafted = draft_around(&p, at(&p, "offer"), &project);
    let cs = components(&drafted.form);
    // what the first step's form asked for is shown; what only the summary shows is asked for here
    assert_eq!(by_key(&cs, "cusip")["readonly"], true);
    for key in ["issuerName", "issuerCountry", "takedownAmount"] {
        assert_eq!(by_key(&cs, key).get("readonly"), None, "{key} is this step's to ask for");
    }
    assert_eq!(by_key(&cs, "issuerCountry")["label"], "Issuer Country");
    assert_eq!(by_key(&cs, "takedownAmount")["type"], "number", "typed as the project defines it");
    assert!(cs.iter().all(|c| c["key"] != "apiKey"), "{cs:#?}");
    assert!(drafted.warnings.iter().any(|w| w.contains("\"API key\"")), "{:?}", drafted.warnings);
    let proposal = gate::schema_from_value(drafted.form, Some("offer"), Some(&p)).unwrap();
    assert!(proposal.schema["components"].as_array().unwrap().len() >= 5);

    // prose is not a list, so the same step drafts no field of its own
    let (p, project) = offering("Legal review and approval of the offering.");
    let keys: Vec<Value> = components(&draft_around(&p, at(&p, "offer"), &project).form)
        .iter()
        .filter_map(|c| c.get("key").cloned())
        .collect();
    assert!(!keys.iter().any(|k| k == "issuerCountry" || k == "legalReview"), "{keys:?}");
}

#[test]
fn a_value_the_brief_lists_that_an_earlier_form_set_is_shown_not_asked_again() {
    let (p, _) = offering("Offering details.");
    let keys: Vec<String> = (1..=8).map(|i| format!("detail{i}")).collect();
    let fields: Vec<Value> = keys
        .iter()
        .map(|k| json!({"type": "number", "key": k, "label": k.replace("detail", "Detail ")}))
        .collect();
    let enter = json!({"id": "enter-id", "components": fields});
    let project =
        formgen::project::from_request(&[enter], &[], &formgen::project::ProjectBounds::default()).unwrap();
    let target = at(&p, "offer");
    let picture = formgen::flow::picture(&p, target, &project);
    let contract = formgen::flow::contract(&p, target, &project);
    let around = draft::Around { picture: &picture, project: &project, contract: &contract };
    let drafted = draft::draft_in(Some(&p), target, Some(around), "Fields: Detail 8, Comment", None);
    let cs = components(&drafted.form);
    assert!(cs.iter().all(|c| c["key"] != "detail7"), "past the read-only cap: {cs:#?}");
    let listed = by_key(&cs, "detail8");
    assert_eq!(
        (&listed["readonly"], &listed["type"], &listed["label"]),
        (&json!(true), &json!("number"), &json!("Detail 8"))
    );
    assert_eq!(by_key(&cs, "comment").get("readonly"), None, "nothing sets it: asked for");
}

#[test]
fn a_name_broken_over_lines_heads_the_form_on_one_line_and_java_comparisons_type_fields() {
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL">
      <process id="invoice" isExecutable="true">
        <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/>
        <userTask id="t" name="Rechnung&#10;  klären"/><sequenceFlow id="f1" sourceRef="t" targetRef="g"/>
        <exclusiveGateway id="g"/>
        <sequenceFlow id="yes" sourceRef="g" targetRef="e1"><conditionExpression>${clarified.equals('yes') &amp;&amp; execution.getVariable("stufe") &gt; 2}</conditionExpression></sequenceFlow>
        <sequenceFlow id="no" sourceRef="g" targetRef="e2"><conditionExpression>${!clarified.equals('yes')}</conditionExpression></sequenceFlow>
        <sequenceFlow id="x" sourceRef="g" targetRef="e3"><conditionExpression>${status.equals("open")}</conditionExpression></sequenceFlow>
        <sequenceFlow id="y" sourceRef="g" targetRef="e3"><conditionExpression>${status.equals("closed")}</conditionExpression></sequenceFlow>
        <endEvent id="e1"/><endEvent id="e2"/><endEvent id="e3"/>
      </process></definitions>"#;
    let p = bpmn::read(xml.as_bytes()).processes.into_iter().next().unwrap();
    let draft = draft::draft(Some(&p), at(&p, "t"), "", None);
    let proposal = gate::schema_from_value(draft, Some("clarify"), Some(&p)).unwrap();
    let cs = components(&proposal.schema);
    assert_eq!(cs[0]["text"], "# Rechnung klären");
    // compared with the text 'yes' (a checkbox's true never equals it), and decided on: required
    let clarified = by_key(&cs, "clarified");
    assert_eq!((&clarified["type"], &clarified["validate"]["required"]), (&json!("textfield"), &json!(true)));
    assert_eq!(by_key(&cs, "stufe")["type"], "number");
    let status = by_key(&cs, "status");
    assert_eq!(status["type"], "select");
    assert_eq!(status["values"][1]["value"], "closed");
}

#[test]
fn an_unnamed_step_is_headed_by_its_process_not_its_id() {
    let xml = |process_name: &str| {
        format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="order" {process_name}>
            <startEvent id="Event_1q5v0sf"/><sequenceFlow id="a" sourceRef="Event_1q5v0sf" targetRef="UserTask_2"/>
            <userTask id="UserTask_2"/><sequenceFlow id="b" sourceRef="UserTask_2" targetRef="S"/>
            <subProcess id="S" name="Check stock"><startEvent id="Inner_start"/><sequenceFlow id="c" sourceRef="Inner_start" targetRef="Inner"/><userTask id="Inner"/></subProcess>
            <sequenceFlow id="d" sourceRef="S" targetRef="E"/><endEvent id="E" name=" "/>
            </process></definitions>"#
        )
    };
    let heading = |xml: &str, step: &str| {
        let p = bpmn::read_str(xml).processes.remove(0);
        components(&draft::draft(Some(&p), p.element_index(step), "", None))[0]["text"].clone()
    };
    let named = xml(r#"name="Order&#10;handling""#);
    assert_eq!(heading(&named, "UserTask_2"), "# Order handling");
    assert_eq!(heading(&named, "Event_1q5v0sf"), "# Order handling");
    // a process without a name: its id heads the start form; a step keeps its own id
    assert_eq!(heading(&xml(""), "Event_1q5v0sf"), "# order");
    assert_eq!(heading(&xml(""), "UserTask_2"), "# UserTask\\_2");
    // inside a sub-process: its name
    assert_eq!(heading(&named, "Inner"), "# Check stock");
    assert_eq!(heading(&xml(""), "Inner_start"), "# Check stock");
    // an unnamed process in a named pool: the pool's name, whichever comes first in the file
    let pool = r#"<collaboration id="C"><participant id="P0" name=" " processRef="order"/><participant id="P1" name="Order&#10;desk" processRef="order"><documentation>x</documentation></participant></collaboration>"#;
    let pooled = xml("").replacen("<process", &format!("{pool}<process"), 1);
    assert_eq!(heading(&pooled, "UserTask_2"), "# Order desk");
    let pooled_after = xml("").replacen("</definitions>", &format!("{pool}</definitions>"), 1);
    assert_eq!(heading(&pooled_after, "Event_1q5v0sf"), "# Order desk");
    let p = bpmn::read_str(&pooled).processes.remove(0);
    assert_eq!((p.name.as_str(), p.pool.as_str(), p.label().as_ref()), ("", "Order\ndesk", "Order desk"));
}
