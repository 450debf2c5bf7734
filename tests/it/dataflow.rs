//! What each element reads and writes, place kind by place kind, on the hand-written fixtures
//! `fixtures/bpmn/dataflow-*.bpmn`, and the outline JSON that carries it, pinned by snapshots.
//!
//! The Camunda 8 writes asserted here are what bpmn.io's variable resolver gives for the same file
//! (`tools/variable-reference`), except where a comment says formgen differs and why. Reads are
//! asserted as "includes" (and "never" for secrets and connector-bound names), so that they hold for
//! any expression reader that finds the variables.

use formgen::bpmn::{self, Dialect, FieldKind, Place, Process, Timer};
use formgen::flow::access::{self, ElementAccess};
use formgen::outline;

fn process(name: &str) -> Process {
    let bytes = std::fs::read(crate::common::fixtures().join("bpmn").join(name)).unwrap();
    bpmn::read(&bytes).processes.into_iter().next().unwrap()
}

fn of(p: &Process, id: &str) -> ElementAccess {
    access::of_element(p, p.element_index(id).unwrap_or_else(|| panic!("no element {id}")))
}

fn reads_include(p: &Process, id: &str, names: &[&str]) {
    let reads = of(p, id).reads;
    for n in names {
        assert!(reads.iter().any(|r| r == n), "{id} should read {n}: reads {reads:?}");
    }
}

fn writes(p: &Process, id: &str) -> Vec<String> {
    let mut w: Vec<String> = of(p, id).writes.iter().map(|w| format!("{}@{}", w.name, w.scope)).collect();
    w.sort();
    w
}

fn places(p: &Process, id: &str) -> Vec<Place> {
    p.element(id).unwrap().accesses.iter().map(|a| a.place.clone()).collect()
}

#[test]
fn zeebe_mappings_headers_and_properties() {
    let p = process("dataflow-zeebe.bpmn");
    let pl = places(&p, "charge");
    for place in [
        Place::JobType,
        Place::JobRetries,
        Place::InputSource,
        Place::InputTarget,
        Place::OutputSource,
        Place::OutputTarget,
        Place::Header("resultExpression".into()),
        Place::Property("inbound.channel".into()),
    ] {
        assert!(pl.contains(&place), "{place:?} in {pl:?}");
    }
    reads_include(
        &p,
        "charge",
        &["jobType", "retryCount", "order", "amount", "fee", "channelName", "declineText"],
    );
    let reads = of(&p, "charge").reads;
    assert!(!reads.iter().any(|r| r == "secrets" || r == "response"), "{reads:?}");
    // the input targets are local; the output goes to the process; with an output mapping, the
    // connector's result variable and result expression keys stay on the task
    assert_eq!(
        writes(&p, "charge"),
        [
            "amount@charge",
            "chargeResponse@charge",
            "charged@dataflow",
            "connection@charge",
            "receipt@charge",
            "status@charge",
            "withFee@charge"
        ]
    );
}

#[test]
fn zeebe_scripts_decisions_and_loops() {
    let p = process("dataflow-zeebe.bpmn");
    reads_include(&p, "score", &["charged", "bonus"]);
    assert_eq!(writes(&p, "score"), ["score@dataflow"]);
    reads_include(&p, "decide", &["decisionName", "verdict"]);
    assert_eq!(writes(&p, "decide"), ["level@dataflow", "verdict@decide"]);
    let pl = places(&p, "review");
    for place in [
        Place::Assignee,
        Place::CandidateGroups,
        Place::CandidateUsers,
        Place::DueDate,
        Place::FollowUpDate,
        Place::Priority,
        Place::LoopCollection,
        Place::LoopElement,
        Place::LoopOutputCollection,
        Place::LoopOutputElement,
        Place::CompletionCondition,
    ] {
        assert!(pl.contains(&place), "{place:?} in {pl:?}");
    }
    reads_include(
        &p,
        "review",
        &["reviewer", "groups", "users", "due", "followUp", "urgency", "items", "doneCount"],
    );
    assert_eq!(writes(&p, "review"), ["item@review", "results@dataflow"]);
    reads_include(&p, "call", &["childProcess"]);
}

#[test]
fn zeebe_events_read_what_they_refer_to() {
    let p = process("dataflow-zeebe.bpmn");
    assert_eq!(places(&p, "wait"), [Place::MessageName, Place::CorrelationKey]);
    reads_include(&p, "wait", &["paymentMessage", "order"]);
    assert_eq!(places(&p, "late"), [Place::Timer(Timer::Duration)]);
    reads_include(&p, "late", &["patience"]);
    assert_eq!(places(&p, "ready"), [Place::EventCondition]);
    reads_include(&p, "ready", &["stockReady"]);
    assert_eq!(places(&p, "escalate"), [Place::EscalationCode]);
    reads_include(&p, "escalate", &["lateCode"]);
    assert_eq!(places(&p, "stop"), [Place::SignalName]);
    reads_include(&p, "stop", &["stopSignal"]);
    assert_eq!(places(&p, "declined"), [Place::ErrorCode]);
    reads_include(&p, "declined", &["declineCode"]);
    assert_eq!(places(&p, "yes"), [Place::Condition]);
    reads_include(&p, "yes", &["approved", "level"]);
}

#[test]
fn zeebe_sub_process_scopes() {
    let p = process("dataflow-zeebe.bpmn");
    assert_eq!(writes(&p, "sub"), ["subTotal@sub"]);
    // the sub-process maps subTotal, so the child's output stays in it; a dotted target writes its root
    assert_eq!(writes(&p, "inner"), ["address@dataflow", "subTotal@sub"]);
    reads_include(&p, "inner", &["subTotal", "x"]);
    let pl = places(&p, "adhoc");
    for place in [
        Place::AdHocActiveElements,
        Place::AdHocOutputCollection,
        Place::AdHocOutputElement,
        Place::AdHocCompletionCondition,
        Place::AdHocCancelRemaining,
    ] {
        assert!(pl.contains(&place), "{place:?} in {pl:?}");
    }
    reads_include(&p, "adhoc", &["activeTools", "toolResult", "finished"]);
    // the resolver shows only toolResults@dataflow: both exist, and its quirk 2 keeps the outer one
    assert_eq!(writes(&p, "adhoc"), ["toolResults@adhoc", "toolResults@dataflow"]);
}

#[test]
fn camunda_7_juel_places_and_parameters() {
    let p = process("dataflow-c7.bpmn");
    let approve = p.element("approve").unwrap();
    assert!(
        approve.accesses.iter().all(|a| matches!(
            a.dialect,
            Dialect::Juel | Dialect::JuelOrName | Dialect::Name | Dialect::Either
        ))
    );
    reads_include(
        &p,
        "approve",
        &[
            "manager",
            "region",
            "deadline",
            "reminder",
            "urgency",  // assignee, candidates, dates, priority
            "amount",   // inputParameter text
            "deputy",   // camunda:list
            "claimant", // camunda:map and camunda:script
            "decision", // outputParameter
            "approvers",
            "quorum", // collection (a bare name), completionCondition
        ],
    );
    assert_eq!(
        writes(&p, "approve"),
        [
            "approved@claim",
            "approver@approve",
            "context@approve",
            "greeting@approve",
            "limit@approve",
            "reviewers@approve"
        ]
    );
    reads_include(&p, "book", &["amount"]);
    assert!(
        !of(&p, "book").reads.iter().any(|r| r == "ledger"),
        "the bean an expression calls is code, not data"
    );
    assert_eq!(writes(&p, "book"), ["bookingId@claim"]);
    reads_include(&p, "audit", &["region", "claimant", "amount"]);
    let reads = of(&p, "audit").reads;
    assert!(!reads.iter().any(|r| r == "verdict" || r == "note"), "out sources are the child's: {reads:?}");
    // the resolver does not count a local="true" out; formgen keeps it, on the call activity
    assert_eq!(writes(&p, "audit"), ["auditNote@audit", "auditVerdict@claim"]);
    assert_eq!(writes(&p, "auditFailed"), ["auditCode@claim", "auditMessage@claim"]);
    reads_include(&p, "yes", &["approved", "amount", "limit"]);
}

#[test]
fn camunda_7_form_data_is_the_declared_form() {
    let p = process("dataflow-c7.bpmn");
    let submit = p.element("submit").unwrap();
    assert_eq!(submit.declared().form_key, "embedded:app:forms/claim.html");
    let ids: Vec<&str> = submit.declared().fields.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["claimant", "amount", "category", "policy"]);
    let [claimant, amount, category, policy] = &submit.declared().fields[..] else { panic!() };
    assert_eq!(
        (claimant.label.as_str(), &claimant.kind, claimant.required),
        ("Claimant", &FieldKind::String, true)
    );
    assert_eq!(claimant.constraints[1].name, "maxlength");
    assert_eq!(claimant.constraints[1].config, "80");
    assert_eq!((&amount.kind, amount.default.as_str()), (&FieldKind::Long, "${defaultAmount}"));
    assert_eq!(category.kind, FieldKind::Enum);
    assert_eq!(category.options[1].name, "Meals & drinks");
    assert!(policy.readonly);
    reads_include(&p, "submit", &["defaultAmount"]);
    // a read-only field is shown, not submitted: it writes nothing (the resolver counts it)
    assert_eq!(writes(&p, "submit"), ["amount@claim", "category@claim", "claimant@claim"]);
}

#[test]
fn flowable_form_properties_are_the_declared_form() {
    let p = process("dataflow-flowable.bpmn");
    let request = p.element("request").unwrap();
    assert_eq!(request.declared().form_key, "leave-request");
    let [days, start, kind] = &request.declared().fields[..] else { panic!("{:?}", request.declared()) };
    assert_eq!((days.label.as_str(), &days.kind, days.required), ("Number of days", &FieldKind::Long, true));
    assert_eq!((&start.kind, start.date_pattern.as_str()), (&FieldKind::Date, "dd-MM-yyyy"));
    let options: Vec<(&str, &str)> = kind.options.iter().map(|o| (o.id.as_str(), o.name.as_str())).collect();
    assert_eq!(options, [("holiday", "Holiday"), ("sick", "Sick leave")]);
    assert_eq!(kind.default, "holiday");
    assert_eq!(writes(&p, "request"), ["days@leave", "employee@leave", "kind@leave", "start@leave"]);

    let decide = p.element("decide").unwrap();
    let [employee, secret, approved] = &decide.declared().fields[..] else { panic!() };
    assert!(employee.readonly && employee.readable);
    assert_eq!(employee.expression, "${employeeName}");
    assert!(!secret.readable && !secret.readonly);
    assert_eq!((approved.id.as_str(), approved.variable.as_str()), ("approvedField", "approved"));
    reads_include(&p, "decide", &["manager", "start", "employeeName"]);
    assert_eq!(writes(&p, "decide"), ["approved@leave", "secretNote@leave"]);
    // activiti: is the same vocabulary
    reads_include(&p, "notify", &["employee", "approved"]);
    assert!(
        !of(&p, "notify").reads.iter().any(|r| r == "mailer"),
        "the bean an expression calls is code, not data"
    );
    assert_eq!(writes(&p, "notify"), ["mailId@leave"]);
    reads_include(&p, "confirm", &["kind", "witnesses"]);
    assert_eq!(writes(&p, "confirm"), ["witness@confirm"]);
    reads_include(&p, "toNotify", &["approved"]);
}

#[test]
fn the_contract_is_unchanged_by_the_additions() {
    // what bpmn-moddle is compared on: the Flowable form key is not the contract's formId, and
    // Flowable fields are not the contract's variables (only camunda:formField ids are)
    let p = process("dataflow-flowable.bpmn");
    assert_eq!(p.element("request").unwrap().form_id, "");
    assert!(p.variables().is_empty(), "{:?}", p.variables());
}

#[test]
fn entities_in_expressions_stay_unexpanded() {
    let xml = br#"<!DOCTYPE d [<!ENTITY e "injected">]><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="p"><task id="t"><extensionElements><zeebe:ioMapping><zeebe:input source="=&e; + a &amp;" target="b"/></zeebe:ioMapping></extensionElements></task></process></definitions>"#;
    let p = bpmn::read(xml).processes.remove(0);
    assert_eq!(p.elements[0].accesses[0].expression, "=&e; + a &");
    assert!(!of(&p, "t").reads.iter().any(|r| r == "injected"));
}

#[test]
fn outline_json_snapshots() {
    for name in ["dataflow-zeebe", "dataflow-c7", "dataflow-flowable"] {
        let bytes =
            std::fs::read(crate::common::fixtures().join("bpmn").join(format!("{name}.bpmn"))).unwrap();
        let outline = outline::OutlineFile::new(format!("{name}.bpmn"), &bpmn::read(&bytes));
        insta::assert_snapshot!(format!("outline-{name}"), serde_json::to_string_pretty(&outline).unwrap());
    }
}
