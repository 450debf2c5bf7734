//! The data picture's finer rules, each on a process made for it: what a process was started with,
//! what a later element only checks for or reads from its own result, what a step's own mappings
//! overwrite or route on, the shape a result expression or a script stores, multi-word FEEL built-ins
//! in conditions, what the start form gives a value the process only updates, which known values
//! the builtin drafter shows first (what wrote the outcome the way in tests), and which it keeps
//! from a step: an element's own memory, what the way into the step settles, what is mapped in under
//! another name, what an AI agent does not hand its tool, a connector's whole response beside its
//! parts.

use crate::common::drafts::draft_around;
use formgen::bpmn;
use formgen::draft::{self, Around};
use formgen::flow::{self, Picture};
use formgen::project::{self, Project, ProjectBounds};
use serde_json::{Value, json};

/// A claim: a service task that reads `customerId` (written by nothing: the process is started with
/// it) and stores a context; a review step that routes on `owner`, hands `hint` on and resets
/// `scratch`; after it a connector that checks for `org` first, a task that reads its own result in
/// an output mapping, and a gateway on a multi-word built-in.
const CLAIM: &str = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0">
<process id="Claim">
  <startEvent id="s"><extensionElements><zeebe:formDefinition formId="claim-start"/></extensionElements></startEvent>
  <sequenceFlow id="f1" sourceRef="s" targetRef="lookup"/>
  <serviceTask id="lookup" name="Look up the customer"><extensionElements>
    <zeebe:taskDefinition type="io.camunda:http-json:1"/>
    <zeebe:ioMapping><zeebe:input source="=&quot;https://crm/&quot; + customerId" target="url"/></zeebe:ioMapping>
    <zeebe:taskHeaders><zeebe:header key="resultExpression" value="={customer: {name: response.body.name, tier: response.body.tier, address: {city: response.body.city}}}"/></zeebe:taskHeaders>
  </extensionElements></serviceTask>
  <sequenceFlow id="f2" sourceRef="lookup" targetRef="review"/>
  <userTask id="review" name="Review the claim"><extensionElements>
    <zeebe:assignmentDefinition assignee="=owner"/>
    <zeebe:ioMapping>
      <zeebe:input source="=false" target="hint"/>
      <zeebe:output source="=hint" target="hint"/>
      <zeebe:output source="=null" target="scratch"/>
    </zeebe:ioMapping>
  </extensionElements></userTask>
  <sequenceFlow id="f3" sourceRef="review" targetRef="notify"/>
  <serviceTask id="notify" name="Notify"><extensionElements>
    <zeebe:ioMapping>
      <zeebe:input source="=if is defined(org) then org else &quot;none&quot;" target="organisation"/>
      <zeebe:output source="=receipt" target="notified"/>
    </zeebe:ioMapping>
  </extensionElements></serviceTask>
  <sequenceFlow id="f4" sourceRef="notify" targetRef="g"/>
  <exclusiveGateway id="g"/>
  <sequenceFlow id="same" sourceRef="g" targetRef="e"><conditionExpression>=lower case(verdict) = lower case(expected)</conditionExpression></sequenceFlow>
  <endEvent id="e"/>
</process></definitions>"#;

fn claim_project() -> Project {
    let start = json!({"id": "claim-start", "components": [
        {"type": "textfield", "key": "owner", "label": "Owner"},
        {"type": "textfield", "key": "scratch", "label": "Scratch"},
        {"type": "number", "key": "claimAmount", "label": "Amount"}
    ]});
    project::from_request(&[start], &[], &ProjectBounds::default()).unwrap()
}

fn review_picture() -> (bpmn::Process, Picture, Project) {
    let p = bpmn::read_str(CLAIM).processes.remove(0);
    let project = claim_project();
    let picture = flow::picture(&p, p.element_index("review"), &project);
    (p, picture, project)
}

fn draft_keys(p: &bpmn::Process, picture: &Picture, project: &Project) -> Vec<String> {
    let contract = formgen::flow::contract(p, p.element_index("review"), project);
    let around = Around { picture, project, contract: &contract };
    let d = draft::draft_in(Some(p), p.element_index("review"), Some(around), "", None);
    d.form["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.get("key").and_then(Value::as_str).map(str::to_string))
        .collect()
}

#[test]
fn a_value_read_before_the_step_and_written_by_nothing_was_given_at_the_start() {
    let (_, picture, _) = review_picture();
    let given = picture.known_before.iter().find(|k| k.name == "customerId").expect("customerId is known");
    assert!(given.from.starts_with("given when the process starts"), "{}", given.from);
    assert!(given.entered, "a person or a caller gave it");
    let url = picture.known_before.iter().any(|k| k.name == "url");
    assert!(!url, "an input mapping's target is the connector's local, not the process's");
}

#[test]
fn what_is_checked_for_first_or_read_from_a_result_is_not_the_forms_to_supply() {
    let (_, picture, _) = review_picture();
    let supplied: Vec<&str> = picture.to_supply.iter().map(|s| s.name.as_str()).collect();
    assert!(!supplied.contains(&"org"), "`is defined(org)` makes it optional: {supplied:?}");
    assert!(!supplied.contains(&"receipt"), "an output mapping reads the job's result: {supplied:?}");
}

#[test]
fn a_multi_word_builtin_in_a_condition_is_a_call_not_a_variable() {
    let (_, picture, _) = review_picture();
    let decided: Vec<&str> = picture.decided_on.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(decided, ["verdict", "expected"]);
}

#[test]
fn the_steps_own_mappings_and_routing_are_not_fields() {
    let (p, picture, project) = review_picture();
    assert_eq!(picture.set_by_step, ["scratch"], "`=hint` hands the form's value on; `=null` overwrites it");
    assert_eq!(picture.routing, ["owner"]);
    let keys = draft_keys(&p, &picture, &project);
    assert!(keys.contains(&"hint".to_string()), "{keys:?}");
    assert!(!keys.contains(&"scratch".to_string()), "the engine overwrites it: {keys:?}");
    assert!(!keys.contains(&"owner".to_string()), "who the step is routed to: {keys:?}");
    assert!(keys.contains(&"claimAmount".to_string()), "what the start form collected: {keys:?}");
}

#[test]
fn a_result_expression_context_gives_its_paths_to_the_draft_and_the_prompt() {
    let (p, picture, project) = review_picture();
    assert_eq!(
        flow::paths_below("customer", &p, &project, 8),
        ["customer.name", "customer.tier", "customer.address", "customer.address.city"],
        "the keys of the stored context, nested ones too"
    );
    let keys = draft_keys(&p, &picture, &project);
    assert!(keys.contains(&"customer.name".to_string()) && keys.contains(&"customer.tier".to_string()));
    assert!(!keys.contains(&"customer".to_string()), "an object is its fields: {keys:?}");
    assert!(
        !keys.iter().any(|k| k.starts_with("customer.address")),
        "one level down, and not an object again: {keys:?}"
    );
    let text = flow::describe_picture(&picture, (&p, &project), &[], 4_000, formgen::flow::Defined::Shown);
    assert!(text.contains("its fields: customer.name, customer.tier, customer.address"), "{text}");
}

#[test]
fn values_on_several_forms_are_shown_first() {
    // eight values known before, all entered on the start form; the one a second form also shows
    // comes first, within the cap
    let mut components: Vec<Value> = (1..=8)
        .map(|n| json!({"type": "textfield", "key": format!("v{n}"), "label": format!("V{n}")}))
        .collect();
    components.push(json!({"type": "textfield", "key": "shared", "label": "Shared"}));
    let start = json!({"id": "claim-start", "components": components});
    let other = json!({"id": "elsewhere", "components": [{"type": "textfield", "key": "shared"}]});
    let project = project::from_request(&[start, other], &[], &ProjectBounds::default()).unwrap();
    let p = bpmn::read_str(CLAIM).processes.remove(0);
    let picture = flow::picture(&p, p.element_index("review"), &project);
    let shared = picture.known_before.iter().find(|k| k.name == "shared").unwrap();
    assert_eq!(shared.in_forms, 2);
    let keys = draft_keys(&p, &picture, &project);
    assert!(keys.contains(&"shared".to_string()), "{keys:?}");
    let shown = keys.iter().filter(|k| k.starts_with('v')).count();
    assert!(shown < 8, "the cap holds: {keys:?}");
}

#[test]
fn what_the_sub_process_hands_its_steps_is_shown_first() {
    // eight values the start form entered, then a tool sub-process whose input mapping hands its
    // human step the request; the outer agent's settings are not the step's to see
    let fields: String = (1..=8).map(|n| format!(r#"<zeebe:output source="=1" target="v{n}"/>"#)).collect();
    let xml = format!(
        r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"><extensionElements><zeebe:ioMapping>{fields}</zeebe:ioMapping></extensionElements></startEvent>
      <sequenceFlow id="a" sourceRef="S" targetRef="Agent"/>
      <subProcess id="Agent"><extensionElements><zeebe:ioMapping><zeebe:input source="=&quot;gpt&quot;" target="provider"/></zeebe:ioMapping></extensionElements>
        <subProcess id="Tool"><extensionElements><zeebe:ioMapping>
          <zeebe:input source="=fromAi(toolCall.request, &quot;what the specialist must do&quot;)" target="requestDetails"/>
        </zeebe:ioMapping></extensionElements>
          <startEvent id="TS"/><sequenceFlow id="t1" sourceRef="TS" targetRef="Human"/>
          <userTask id="Human"/><sequenceFlow id="t2" sourceRef="Human" targetRef="TE"/><endEvent id="TE"/>
        </subProcess>
      </subProcess>
      <sequenceFlow id="b" sourceRef="Agent" targetRef="E"/><endEvent id="E"/></process></definitions>"#
    );
    let p = bpmn::read_str(&xml).processes.remove(0);
    let project = Project::default();
    let picture = flow::picture(&p, p.element_index("Human"), &project);
    let handed: Vec<&str> =
        picture.known_before.iter().filter(|k| k.handed).map(|k| k.name.as_str()).collect();
    assert_eq!(handed, ["requestDetails"], "{:?}", picture.known_before);
    let step = p.element_index("Human");
    let contract = formgen::flow::contract(&p, step, &project);
    let around = Around { picture: &picture, project: &project, contract: &contract };
    let form = draft::draft_in(Some(&p), step, Some(around), "", None).form;
    let keys: Vec<&str> =
        form["components"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
    assert_eq!(keys.first(), Some(&"requestDetails"), "{keys:?}");
    assert!(!keys.contains(&"provider"), "{keys:?}");
}

#[test]
fn what_a_later_form_shows_and_nothing_sets_came_with_the_start() {
    // the invoice's data comes with the start; the reviewer's form shows it read-only, so the step
    // before the review shows it too; what a form lets a person edit is that form's, not the start's
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="Assign"/>
      <userTask id="Assign"/><sequenceFlow id="b" sourceRef="Assign" targetRef="Review"/>
      <userTask id="Review"><extensionElements><zeebe:formDefinition formId="review"/></extensionElements></userTask>
      <sequenceFlow id="c" sourceRef="Review" targetRef="Fix"/>
      <userTask id="Fix"><extensionElements><zeebe:formDefinition formId="fix"/></extensionElements></userTask>
      <sequenceFlow id="d" sourceRef="Fix" targetRef="E"/><endEvent id="E"/></process></definitions>"#;
    let fix = json!({"id": "fix", "components": [
        {"type": "textfield", "key": "iban", "label": "IBAN"},
        {"type": "textfield", "key": "creditor", "label": "Creditor", "readonly": true}
    ]});
    let review = json!({"id": "review", "components": [
        {"type": "textfield", "key": "iban", "label": "IBAN", "readonly": true},
        {"type": "textfield", "key": "creditor", "label": "Creditor", "readonly": true},
        {"type": "number", "key": "amount", "label": "Amount", "disabled": true},
        {"type": "textarea", "key": "remarks", "label": "Remarks"}
    ]});
    let project = project::from_request(&[review, fix], &[], &ProjectBounds::default()).unwrap();
    let p = bpmn::read_str(xml).processes.remove(0);
    let step = p.element_index("Assign");
    let picture = flow::picture(&p, step, &project);
    let known: Vec<&str> = picture.known_before.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(
        known,
        ["creditor", "amount"],
        "not `iban`, which the fix form edits: {:?}",
        picture.known_before
    );
    assert!(
        picture.known_before[0].from.contains("given when the process starts"),
        "{:?}",
        picture.known_before
    );
    let contract = formgen::flow::contract(&p, step, &project);
    let around = Around { picture: &picture, project: &project, contract: &contract };
    let form = draft::draft_in(Some(&p), step, Some(around), "", None).form;
    let shown: Vec<(&str, &Value)> = form["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| Some((c["key"].as_str()?, &c["readonly"])))
        .collect();
    assert_eq!(shown, [("creditor", &json!(true)), ("amount", &json!(true))]);
}

#[test]
fn a_worked_sub_process_hands_no_settings_and_what_came_with_the_start_is_no_supply() {
    // an AI agent's ad-hoc sub-process holds its worker's settings; its tool step is handed the
    // request, not the provider; the mail the process started with, read before the step, is known
    // there, not the step's to supply again though a later task reads it too
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="Agent"/>
      <adHocSubProcess id="Agent"><extensionElements>
        <zeebe:taskDefinition type="io.camunda.agenticai:aiagent-job-worker:1"/>
        <zeebe:adHoc outputCollection="toolCallResults" outputElement="={id: toolCall._meta.id, content: toolCallResult}"/>
        <zeebe:ioMapping>
          <zeebe:input source="openai" target="provider.type"/>
          <zeebe:input source="=mail.body" target="data.userPrompt.prompt"/>
        </zeebe:ioMapping>
        <zeebe:taskHeaders><zeebe:header key="resultVariable" value="agent"/></zeebe:taskHeaders></extensionElements>
        <userTask id="Human"><extensionElements><zeebe:ioMapping>
          <zeebe:input source="=fromAi(toolCall.request, &quot;what the specialist must do&quot;)" target="requestDetails"/>
          <zeebe:output source="=answer" target="toolCallResult"/>
        </zeebe:ioMapping></extensionElements></userTask>
      </adHocSubProcess>
      <sequenceFlow id="b" sourceRef="Agent" targetRef="Reply"/>
      <serviceTask id="Reply"><extensionElements><zeebe:taskDefinition type="mail"/><zeebe:ioMapping>
        <zeebe:input source="=mail.from" target="to"/></zeebe:ioMapping></extensionElements></serviceTask>
      <sequenceFlow id="c" sourceRef="Reply" targetRef="E"/><endEvent id="E"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = Project::default();
    let picture = flow::picture(&p, p.element_index("Human"), &project);
    assert!(
        picture.known_before.iter().all(|k| !k.name.starts_with("provider") && !k.handed),
        "{:?}",
        picture.known_before
    );
    // what the agent sets while its tool runs is its own working state from an earlier round
    assert!(
        picture.known_before.iter().all(|k| k.name != "agent" && k.name != "toolCallResults"),
        "{:?}",
        picture.known_before
    );
    let supplied: Vec<&str> = picture.to_supply.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(supplied, ["answer"], "{:?}", picture.to_supply);
    assert!(picture.known_before.iter().any(|k| k.name == "mail"), "{:?}", picture.known_before);
}

#[test]
fn an_agent_tasks_own_memory_and_what_its_tool_step_maps_in_are_not_shown_again() {
    // the agent task hands its context back to itself each round; its tool calls the gateway and
    // the tool loop read, and the tool step shows them
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="Agent"/>
      <serviceTask id="Agent"><extensionElements><zeebe:taskDefinition type="io.camunda.agenticai:aiagent:1"/>
        <zeebe:ioMapping>
          <zeebe:input source="=agent.context" target="data.context"/>
          <zeebe:input source="=toolCallResults" target="data.tools.toolCallResults"/>
        </zeebe:ioMapping>
        <zeebe:taskHeaders><zeebe:header key="resultVariable" value="agent"/></zeebe:taskHeaders></extensionElements></serviceTask>
      <sequenceFlow id="b" sourceRef="Agent" targetRef="G"/><exclusiveGateway id="G"/>
      <sequenceFlow id="done" sourceRef="G" targetRef="E"><conditionExpression>=agent.toolCalls = null</conditionExpression></sequenceFlow>
      <sequenceFlow id="more" sourceRef="G" targetRef="Tools"><conditionExpression>=agent.toolCalls != null</conditionExpression></sequenceFlow>
      <subProcess id="Tools">
        <multiInstanceLoopCharacteristics><extensionElements>
          <zeebe:loopCharacteristics inputCollection="=agent.toolCalls" inputElement="toolCall" outputCollection="toolCallResults" outputElement="=toolCallResult"/>
        </extensionElements></multiInstanceLoopCharacteristics>
        <startEvent id="ts"/><sequenceFlow id="t1" sourceRef="ts" targetRef="Deliver"/>
        <userTask id="Deliver"><extensionElements><zeebe:ioMapping>
          <zeebe:input source="=toolCall.message" target="message"/>
          <zeebe:output source="=delivered" target="toolCallResult"/>
        </zeebe:ioMapping></extensionElements></userTask>
      </subProcess>
      <sequenceFlow id="back" sourceRef="Tools" targetRef="Agent"/>
      <endEvent id="E"/></process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let drafted = draft_around(&p, p.element_index("Deliver"), &Project::default());
    let keys: Vec<&str> =
        drafted.form["components"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
    assert!(keys.contains(&"agent.toolCalls"), "{keys:?}");
    assert!(!keys.contains(&"agent.context"), "{keys:?}");
    // the step's input mapping passes the tool call's message in as `message`: shown once
    assert!(keys.contains(&"message"), "{keys:?}");
    assert!(!keys.contains(&"toolCall.message"), "{keys:?}");
}

#[test]
fn a_yes_no_value_the_way_into_the_step_settles_is_not_shown() {
    // the payment step runs only when the reviewer said yes: its person would always see a ticked
    // box; the amount the same reviewer checked is shown
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"><extensionElements><zeebe:formDefinition formId="request"/></extensionElements></startEvent>
      <sequenceFlow id="a" sourceRef="S" targetRef="Check"/>
      <userTask id="Check"><extensionElements><zeebe:formDefinition formId="check"/></extensionElements></userTask>
      <sequenceFlow id="b" sourceRef="Check" targetRef="G"/><exclusiveGateway id="G" default="no"/>
      <sequenceFlow id="yes" sourceRef="G" targetRef="Pay"><conditionExpression>=approved</conditionExpression></sequenceFlow>
      <sequenceFlow id="no" sourceRef="G" targetRef="Tell"/>
      <userTask id="Pay"/><userTask id="Tell"/>
    </process></definitions>"#;
    let request =
        json!({"id": "request", "components": [{"type": "number", "key": "amount", "label": "Amount"}]});
    let check =
        json!({"id": "check", "components": [{"type": "checkbox", "key": "approved", "label": "Approved"}]});
    let project = project::from_request(&[request, check], &[], &ProjectBounds::default()).unwrap();
    let p = bpmn::read_str(xml).processes.remove(0);
    for step in ["Pay", "Tell"] {
        let drafted = draft_around(&p, p.element_index(step), &project);
        let keys: Vec<&str> =
            drafted.form["components"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
        assert_eq!(keys, ["amount"], "{step}");
    }
}

#[test]
fn an_agents_tool_shows_what_the_agent_hands_it_and_names_the_rest() {
    // the agent reads the customer's e-mail; its tool asks a person what the agent wants to know
    let tool = |source: &str| {
        format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
          <startEvent id="S"><extensionElements><zeebe:formDefinition formId="request"/></extensionElements></startEvent>
          <sequenceFlow id="a" sourceRef="S" targetRef="Agent"/>
          <serviceTask id="Agent"><extensionElements><zeebe:taskDefinition type="agent"/>
            <zeebe:ioMapping><zeebe:input source="=customerEmail" target="prompt"/></zeebe:ioMapping></extensionElements></serviceTask>
          <sequenceFlow id="b" sourceRef="Agent" targetRef="Ask"/>
          <subProcess id="Ask"><extensionElements><zeebe:ioMapping>
              <zeebe:input source="{source}" target="question"/>
            </zeebe:ioMapping></extensionElements>
            <startEvent id="as"/><sequenceFlow id="t" sourceRef="as" targetRef="Answer"/>
            <userTask id="Answer"/>
          </subProcess>
          <sequenceFlow id="c" sourceRef="Ask" targetRef="E"/><endEvent id="E"/></process></definitions>"#
        )
    };
    let request = json!({"id": "request", "components": [{"type": "textfield", "key": "customerEmail", "label": "E-mail"}]});
    let project = project::from_request(&[request], &[], &ProjectBounds::default()).unwrap();
    let drafted = |source: &str| {
        let p = bpmn::read_str(&tool(source)).processes.remove(0);
        draft_around(&p, p.element_index("Answer"), &project)
    };
    let keys = |d: &draft::Draft| -> Vec<String> {
        d.form["components"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["key"].as_str().map(str::to_string))
            .collect()
    };
    let by_agent = drafted("=fromAi(toolCall.question, &quot;What to ask&quot;)");
    assert_eq!(keys(&by_agent), ["question"]);
    let warned =
        by_agent.warnings.iter().any(|w| w.contains("AI agent's tool") && w.contains("`customerEmail`"));
    assert!(warned, "{:?}", by_agent.warnings);
    // handed the same by the process, the step also shows what the start form collected
    assert_eq!(keys(&drafted("=toolCall.question")), ["question", "customerEmail"]);
}

#[test]
fn a_connectors_whole_response_beside_its_parts_is_shown_only_when_read() {
    // after the step, an event that reads (or not) the whole response
    let quiz = |log: &str| {
        format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
          <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="Fetch"/>
          <serviceTask id="Fetch"><extensionElements><zeebe:taskDefinition type="io.camunda:http-json:1"/>
            <zeebe:taskHeaders>
              <zeebe:header key="resultExpression" value="={{question: response.body.question}}"/>
              <zeebe:header key="resultVariable" value="trivia"/>
            </zeebe:taskHeaders></extensionElements></serviceTask>
          <sequenceFlow id="b" sourceRef="Fetch" targetRef="Show"/><userTask id="Show"/>
          <sequenceFlow id="c" sourceRef="Show" targetRef="Log"/>{log}
          <sequenceFlow id="d" sourceRef="Log" targetRef="E"/><endEvent id="E"/></process></definitions>"#
        )
    };
    let keys = |xml: &str| -> Vec<String> {
        let p = bpmn::read_str(xml).processes.remove(0);
        let drafted = draft_around(&p, p.element_index("Show"), &Project::default());
        drafted.form["components"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["key"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(keys(&quiz(r#"<intermediateThrowEvent id="Log"/>"#)), ["question"]);
    let read_later = r#"<intermediateThrowEvent id="Log"><extensionElements><zeebe:ioMapping>
        <zeebe:input source="=trivia.status" target="status"/></zeebe:ioMapping></extensionElements></intermediateThrowEvent>"#;
    let shown = keys(&quiz(read_later));
    assert!(shown.contains(&"trivia.status".to_string()), "{shown:?}");
}

#[test]
fn what_wrote_the_outcome_the_way_in_tests_is_shown_first() {
    // a review of a failed job: the job's details come before the seven values the start form collected
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
      <startEvent id="S"><extensionElements><zeebe:formDefinition formId="order"/></extensionElements></startEvent>
      <sequenceFlow id="a" sourceRef="S" targetRef="Check"/>
      <serviceTask id="Check"><extensionElements><zeebe:taskDefinition type="io.camunda:http-json:1"/>
        <zeebe:taskHeaders><zeebe:header key="resultExpression" value="={status: response.status, reason: response.reason}"/></zeebe:taskHeaders>
      </extensionElements></serviceTask>
      <sequenceFlow id="b" sourceRef="Check" targetRef="G"/><exclusiveGateway id="G" default="ok"/>
      <sequenceFlow id="failed" sourceRef="G" targetRef="Review"><conditionExpression>=status = "FAILED"</conditionExpression></sequenceFlow>
      <sequenceFlow id="ok" sourceRef="G" targetRef="E"/>
      <userTask id="Review"/><sequenceFlow id="c" sourceRef="Review" targetRef="E"/><endEvent id="E"/>
    </process></definitions>"#;
    let fields: Vec<Value> = (1..=7)
        .map(|n| json!({"type": "textfield", "key": format!("field{n}"), "label": format!("Field {n}")}))
        .collect();
    let order = json!({"id": "order", "components": fields});
    let project = project::from_request(&[order], &[], &ProjectBounds::default()).unwrap();
    let p = bpmn::read_str(xml).processes.remove(0);
    let drafted = draft_around(&p, p.element_index("Review"), &project);
    let keys: Vec<&str> =
        drafted.form["components"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
    assert_eq!(keys[..2], ["status", "reason"], "{keys:?}");
}

#[test]
fn the_start_form_gives_what_the_process_only_counts_down_and_a_scripts_context_is_its_fields() {
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="Game">
      <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="Who"/>
      <scriptTask id="Who"><extensionElements>
        <zeebe:script expression="={&quot;name&quot;: &quot;Ada&quot;, &quot;city&quot;: &quot;Paris&quot;}" resultVariable="player"/>
      </extensionElements></scriptTask>
      <sequenceFlow id="b" sourceRef="Who" targetRef="Play"/>
      <serviceTask id="Play"><extensionElements><zeebe:taskDefinition type="play"/>
        <zeebe:ioMapping><zeebe:output source="=lives - 1" target="lives"/></zeebe:ioMapping></extensionElements></serviceTask>
      <sequenceFlow id="c" sourceRef="Play" targetRef="G"/><exclusiveGateway id="G"/>
      <sequenceFlow id="over" sourceRef="G" targetRef="Review"><conditionExpression>=lives = 0</conditionExpression></sequenceFlow>
      <sequenceFlow id="again" sourceRef="G" targetRef="Play"><conditionExpression>=lives &gt; 0</conditionExpression></sequenceFlow>
      <userTask id="Review"/><sequenceFlow id="d" sourceRef="Review" targetRef="E"/><endEvent id="E"/>
    </process></definitions>"#;
    let p = bpmn::read_str(xml).processes.remove(0);
    let project = Project::default();
    let draft_of = |target: Option<usize>| draft_around(&p, target, &project).form["components"].clone();
    let start = draft_of(None);
    let lives = start.as_array().unwrap().iter().find(|c| c["key"] == "lives");
    assert_eq!(lives.map(|c| c["type"].clone()), Some(json!("number")), "its first value: {start}");
    let review = draft_of(p.element_index("Review"));
    let keys: Vec<&str> = review.as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
    assert!(keys.contains(&"player.name") && keys.contains(&"player.city"), "{keys:?}");
    assert!(!keys.contains(&"player"), "an object is its fields: {keys:?}");
}
