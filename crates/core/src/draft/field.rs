//! One field for one variable, typed from what the process says of it (`said.rs`).
//!
//! The drafter (`mod.rs`) decides which variables a form has fields for; this file decides what each
//! field looks like. It knows nothing of briefs or of which step the form is for.

use serde_json::{Map, Value, json};

use super::Use;
use super::said::Evidence;
use crate::bpmn::{Comparison, Literal, Operator};
use crate::flow::expr::ValueUse;
use crate::formjs::ComponentType;
use crate::words;

/// The label of a field bound to a path: its last name, as authors label the fields of an object
/// (`ibmqResult.jobId` → "Job id"); [`distinct_labels`] gives the whole path where two would read alike.
pub(super) fn leaf_label(path: &str) -> String {
    words::humanise(path.rsplit('.').next().unwrap_or(path))
}

/// Labels every field of `components` from `from` on whose label is its path's last name, and which
/// another field's label reads like, by its whole path instead (`customer.name` and `supplier.name`
/// are "Customer name" and "Supplier name", not "Name" twice).
pub(super) fn distinct_labels(components: &mut [Value], from: usize) {
    let label = |c: &Value| c.get("label").and_then(Value::as_str).map(str::to_lowercase);
    let labels: Vec<Option<String>> = components.iter().map(label).collect();
    for (i, c) in components.iter_mut().enumerate().skip(from) {
        let Some(key) = c.get("key").and_then(Value::as_str).filter(|k| k.contains('.')) else { continue };
        let shared = labels.iter().enumerate().any(|(j, l)| j != i && l.is_some() && *l == labels[i]);
        if shared && labels[i].as_deref() == Some(leaf_label(key).to_lowercase().as_str()) {
            c["label"] = json!(words::humanise(key));
        }
    }
}

/// `component` with `label` for its label (a date or time field's `dateLabel` or `timeLabel`); as it
/// was when `label` is blank.
pub(super) fn called(mut component: Value, label: &str) -> Value {
    let label = label.trim();
    if label.is_empty() {
        return component;
    }
    let slot = ["dateLabel", "timeLabel", "label"].into_iter().find(|k| component.get(*k).is_some());
    if let Some(slot) = slot {
        component[slot] = json!(label);
    }
    component
}

/// One field for a variable, typed from what the process says of it: the literals its conditions
/// compare it with first, then how its expressions use it, then its name; required where a decision
/// depends on it and (when a contract says) only this form supplies it.
pub(super) fn field(name: &str, use_: Use, said: Evidence<'_>) -> Value {
    let comparisons = said.comparisons;
    let label = leaf_label(name);
    let mut c = Map::new();
    let numbers: Vec<f64> = literals(comparisons)
        .filter_map(|l| if let Literal::Number(n) = l { Some(*n) } else { None })
        .collect();
    let mut texts: Vec<String> = Vec::new();
    for l in literals(comparisons) {
        if let Literal::Text(t) = l
            && !texts.contains(t)
        {
            texts.push(t.clone());
        }
    }
    // `approved = true or approved = "true"`: a boolean, whichever way it arrives
    let is_bool = literals(comparisons).any(|l| matches!(l, Literal::Bool(_)))
        && texts.iter().all(|t| matches!(t.as_str(), "true" | "false"));
    if is_bool {
        texts.clear();
    }
    let used = |u: ValueUse| said.uses.contains(&u);
    let word_set = words::split(name);
    let last = word_set.last().map(String::as_str).unwrap_or("");
    let told = !numbers.is_empty() || !texts.is_empty();
    if (is_bool && numbers.is_empty()) || (!told && used(ValueUse::Boolean)) {
        c.insert("type".into(), json!("checkbox"));
    } else if !numbers.is_empty() && texts.is_empty() {
        c.insert("type".into(), json!("number"));
        if let Some(validate) = number_bounds(&numbers, comparisons) {
            c.insert("validate".into(), validate);
        }
    } else if used(ValueUse::List) && !texts.is_empty() && numbers.is_empty() {
        // read as a list (`count(x) > 0`, `x[1]`) and compared with words: several of them, ticked
        c.insert("type".into(), json!("checklist"));
        let values: Vec<Value> = texts.iter().map(|t| option(t, "")).collect();
        c.insert("values".into(), Value::Array(values));
    } else if texts.len() >= 2 {
        c.insert("type".into(), json!("select"));
        let values: Vec<Value> = texts.iter().map(|t| option(t, "")).collect();
        c.insert("values".into(), Value::Array(values));
    } else if !told && used(ValueUse::Number) {
        c.insert("type".into(), json!("number"));
    } else if used(ValueUse::Date)
        || DATE_WORDS.contains(&last)
        || ends_in(last, GERMAN_DATE_ENDS)
        || first_is(&word_set, "datetime")
    {
        // a date the process uses, named a time (a timer's `reservationTime`): both, day and hour
        let both = used(ValueUse::Date) && TIME_WORDS.contains(&last);
        c.insert("type".into(), json!("datetime"));
        c.insert("subtype".into(), json!(if both { "datetime" } else { "date" }));
        c.insert("dateLabel".into(), json!(label));
    } else if TIME_WORDS.contains(&last) {
        c.insert("type".into(), json!("datetime"));
        c.insert("subtype".into(), json!("time"));
        c.insert("timeLabel".into(), json!(label));
    } else if !told && is_count(&word_set) && !used(ValueUse::Text) && !used(ValueUse::Prose) {
        c.insert("type".into(), json!("number"));
        c.insert("validate".into(), json!({"min": 0}));
    } else if !told && is_predicate(&word_set) {
        c.insert("type".into(), json!("checkbox"));
    } else if LONG_TEXT.contains(&last)
        || ends_in(last, GERMAN_LONG_TEXT_ENDS)
        || first_is(&word_set, "textarea")
    {
        c.insert("type".into(), json!("textarea"));
    } else {
        c.insert("type".into(), json!("textfield"));
        // the value's own name says what it holds: `customer.email` and `currentEmail.fromAddress`
        // are addresses, `currentEmail.plainTextBody` a text taken from one
        let leaf = words::split(name.rsplit('.').next().unwrap_or(name));
        let mail = |words: &[String]| words.iter().any(|w| w == "email" || w == "mail");
        let address = matches!(last, "address" | "adresse");
        if mail(&leaf) || (address && mail(&word_set)) {
            c.insert("validate".into(), json!({"validationType": "email"}));
        } else if leaf.iter().any(|w| PHONE_WORDS.contains(&w.as_str())) {
            c.insert("validate".into(), json!({"validationType": "phone"}));
        }
    }
    c.insert("key".into(), json!(name));
    if c.get("type") != Some(&json!("datetime")) {
        c.insert("label".into(), json!(label));
    }
    // a decision depends on it, and (when the contract says) nothing but this form supplies it:
    // measured on the corpus pairs, every value the contract needs marked required disagrees with
    // authors more often than it agrees (they leave a prompt's or a message's text optional)
    // unticked is an answer: a required checkbox or checklist could only be submitted ticked
    let ticked_only =
        c["type"].as_str().and_then(ComponentType::parse).is_some_and(ComponentType::required_means_chosen);
    let required = !comparisons.is_empty() && said.needed.unwrap_or(true) && !ticked_only;
    match use_ {
        Use::Read => {
            c.insert("readonly".into(), json!(true));
        }
        Use::Write if required => {
            // the form must not be submitted without it
            let validate = c.entry("validate").or_insert_with(|| json!({}));
            validate["required"] = json!(true);
        }
        Use::Write => {}
    }
    // the order a person reads a field in: what it is, what it binds, how it is called, then the rest
    let mut ordered = Map::new();
    for k in ["type", "key", "label", "subtype", "dateLabel", "timeLabel", "values", "readonly", "validate"] {
        if let Some(v) = c.remove(k) {
            ordered.insert(k.to_string(), v);
        }
    }
    ordered.extend(c);
    Value::Object(ordered)
}

/// The bounds of a number field from the numbers it is compared with: an `in [a..b]` range, else at
/// least 0 when every number is.
fn number_bounds(numbers: &[f64], comparisons: &[Comparison]) -> Option<Value> {
    let range_low =
        comparisons.iter().find(|c| c.operator == Operator::Ge && is_range_partner(c, comparisons));
    let range_high =
        comparisons.iter().find(|c| c.operator == Operator::Le && is_range_partner(c, comparisons));
    if let (
        Some(Comparison { literal: Literal::Number(lo), .. }),
        Some(Comparison { literal: Literal::Number(hi), .. }),
    ) = (range_low, range_high)
        && lo <= hi
    {
        return Some(json!({"min": lo, "max": hi}));
    }
    numbers.iter().all(|n| *n >= 0.0).then(|| json!({"min": 0}))
}

/// Whether a name reads as a yes-or-no question (`isUrgent`, `hasCar`, `messageDelivered`).
fn is_predicate(words: &[String]) -> bool {
    let first = words.first().map(String::as_str).unwrap_or("");
    let last = words.last().map(String::as_str).unwrap_or("");
    (words.len() >= 2 && PREDICATE_FIRST.contains(&first))
        || YES_NO_LAST.contains(&last)
        || first == "checkbox"
}

/// Whether a name reads as an amount, a count or a position (`invoiceAmount`, `numberOfItems`,
/// `failureIndex`), or is form-js's own key for a number field (`number_k6z07b`); an identifier
/// ending in "number" (`invoiceNumber`) is not.
fn is_count(words: &[String]) -> bool {
    let last = words.last().map(String::as_str).unwrap_or("");
    NUMBER_WORDS.contains(&last)
        || last == "index"
        || first_is(words, "number")
        || first_is(words, "anzahl")
        || ends_in(last, GERMAN_NUMBER_ENDS)
}

/// Whether `word` is one of `ends` or a German compound ending in one (`rechnungsbetrag`,
/// `gesamtpreis`): German writes a compound as one word, so its last part is no word of its own.
fn ends_in(word: &str, ends: &[&str]) -> bool {
    ends.iter().any(|end| word.ends_with(end))
}

/// The German last parts of amounts and counts, whole or closing a compound.
const GERMAN_NUMBER_ENDS: &[&str] =
    &["betrag", "preis", "summe", "kosten", "anzahl", "menge", "gehalt", "einkommen", "rabatt"];

/// The German last parts of dates, whole or closing a compound (`lieferdatum`, `abgabefrist`).
const GERMAN_DATE_ENDS: &[&str] = &["datum", "termin", "frist"];

/// The German last parts of free text, whole or closing a compound (`ablehnungsbegruendung`).
const GERMAN_LONG_TEXT_ENDS: &[&str] =
    &["kommentar", "bemerkung", "bemerkungen", "begruendung", "begründung", "beschreibung", "notiz"];

/// Whether a name's first word is `word`: form-js keys a new field by its type (`textarea_g3hy67`).
fn first_is(words: &[String], word: &str) -> bool {
    words.first().is_some_and(|w| w == word)
}

/// The last words of dates.
const DATE_WORDS: &[&str] =
    &["date", "fecha", "deadline", "birthday", "geburtstag", "dob", "datetime", "timestamp"];

/// The last words of times of day.
const TIME_WORDS: &[&str] = &["time", "zeit", "uhrzeit"];

/// The last words of amounts and counts.
const NUMBER_WORDS: &[&str] = &[
    "amount",
    "price",
    "age",
    "count",
    "score",
    "income",
    "rate",
    "total",
    "quantity",
    "qty",
    "cost",
    "costs",
    "salary",
    "budget",
    "fee",
    "fees",
    "percent",
    "percentage",
    "sum",
    "limit",
    "threshold",
    "attempts",
    "retries",
    "capacity",
    "iteration",
    "iterations",
    "confidence",
    "probability",
    "weight",
    "height",
    "days",
    "hours",
    "minutes",
    "years",
    "months",
    "balance",
    "revenue",
    "discount",
    "alter",
    "stunden",
    "gewicht",
    "montant",
    "prix",
    "importe",
    "precio",
    "cantidad",
    "edad",
];

/// The first words of yes-or-no names.
const PREDICATE_FIRST: &[&str] =
    &["is", "has", "can", "should", "needs", "was", "did", "does", "will", "allow"];

/// The last words of yes-or-no names: what happened or was agreed.
const YES_NO_LAST: &[&str] = &[
    "approved",
    "rejected",
    "accepted",
    "agreed",
    "confirmed",
    "verified",
    "validated",
    "reviewed",
    "clarified",
    "booked",
    "paid",
    "signed",
    "delivered",
    "sent",
    "completed",
    "done",
    "resolved",
    "found",
    "matched",
    "consent",
];

/// Words of telephone numbers.
const PHONE_WORDS: &[&str] = &["phone", "telephone", "mobile", "telefon", "handy", "telefono", "telephone"];

/// The last words of free-text data, which get a text area.
const LONG_TEXT: &[&str] = &[
    "comment",
    "comments",
    "description",
    "notes",
    "reason",
    "grund",
    "remarks",
    "message",
    "nachricht",
    "feedback",
    "justification",
    "rationale",
    "commentaire",
    "summary",
    "details",
    "reasoning",
    "information",
    "issues",
    "question",
    "request",
    "response",
    "explanation",
    "recommendation",
    "instructions",
];

fn literals(comparisons: &[Comparison]) -> impl Iterator<Item = &Literal> {
    comparisons.iter().flat_map(|c| match &c.literal {
        Literal::List(items) => items.iter().collect::<Vec<_>>(),
        l => vec![l],
    })
}

/// Whether `c` is one end of an `in [a..b]` range (the reader turns it into `>= a` and `<= b`).
fn is_range_partner(c: &Comparison, all: &[Comparison]) -> bool {
    let other = if c.operator == Operator::Ge { Operator::Le } else { Operator::Ge };
    all.iter().any(|o| o.operator == other && o.variable == c.variable)
}

/// One option of a choice field: its label where the source gives one, else its value read as words
/// (`words::option_label`).
pub(super) fn option(value: &str, label: &str) -> Value {
    let label = if label.is_empty() { words::option_label(value) } else { label.to_string() };
    json!({"label": label, "value": value})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::said::Said;

    /// The field `name` gets in a process with these conditions and expressions.
    fn drafted(name: &str, conditions: &[&str], expressions: &[&str]) -> Value {
        let flows: String = conditions
            .iter()
            .enumerate()
            .map(|(i, c)| format!(r#"<sequenceFlow id="f{i}" sourceRef="G" targetRef="E"><conditionExpression>{c}</conditionExpression></sequenceFlow>"#))
            .collect();
        let mappings: String = expressions
            .iter()
            .enumerate()
            .map(|(i, e)| format!(r#"<zeebe:input source="{e}" target="t{i}"/>"#))
            .collect();
        let xml = format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P"><serviceTask id="S"><extensionElements><zeebe:ioMapping>{mappings}</zeebe:ioMapping></extensionElements></serviceTask><exclusiveGateway id="G"/>{flows}<endEvent id="E"/></process></definitions>"#
        );
        let defs = crate::bpmn::read_str(&xml);
        let said = Said::new(&defs.processes[0], None);
        field(name, Use::Write, said.of(name))
    }

    fn type_of(field: &Value) -> &str {
        field["type"].as_str().unwrap()
    }

    #[test]
    fn a_field_called_as_the_project_calls_it_keeps_its_type() {
        let due = called(field("dueDate", Use::Write, Evidence::default()), " Pay by ");
        assert_eq!((due["type"].as_str(), due["dateLabel"].as_str()), (Some("datetime"), Some("Pay by")));
        assert!(due.get("label").is_none(), "a date field is labelled by its dateLabel");
        let amount = called(field("amount", Use::Write, Evidence::default()), "");
        assert_eq!(amount["label"], "Amount", "a blank label leaves the name's");
    }

    #[test]
    fn how_expressions_use_a_value_types_its_field() {
        assert_eq!(type_of(&drafted("net", &[], &["=net * 1.19"])), "number");
        assert_eq!(
            type_of(&drafted("start", &[], &["=date(start) + duration(&quot;P1D&quot;)"])),
            "datetime"
        );
        // named a time and used as a date: both, day and hour
        let both = drafted("pickUpTime", &[], &["=date and time(pickUpTime) + duration(&quot;PT1H&quot;)"]);
        assert_eq!(
            (both["subtype"].as_str(), both["dateLabel"].as_str()),
            (Some("datetime"), Some("Pick up time"))
        );
        assert_eq!(drafted("pickUpTime", &[], &[])["subtype"], "time", "a time by its name alone");
        assert_eq!(type_of(&drafted("urgent", &["=urgent"], &[])), "checkbox");
        assert_eq!(type_of(&drafted("urgent", &["=not(urgent)"], &[])), "checkbox");
        // text joined into a message says nothing of the field's length
        assert_eq!(type_of(&drafted("sender", &[], &["=&quot;From &quot; + sender"])), "textfield");
    }

    #[test]
    fn literals_come_before_uses_and_names() {
        // a boolean whichever way it arrives
        assert_eq!(
            type_of(&drafted("approved", &["=approved = true or approved = &quot;true&quot;"], &[])),
            "checkbox"
        );
        // compared with a text: not a yes-or-no, whatever the name says
        assert_eq!(
            type_of(&drafted("loanAccepted", &["=loanAccepted = &quot;accepted&quot;"], &[])),
            "textfield"
        );
        let choice = drafted("level", &["=level = &quot;low&quot;", "=level = &quot;high&quot;"], &[]);
        assert_eq!(type_of(&choice), "select");
    }

    #[test]
    fn a_value_read_as_a_list_and_compared_with_words_is_a_checklist_of_them() {
        let ticked = drafted(
            "loanAccepted",
            &["=loanAccepted = &quot;accepted&quot;"],
            &["=if count(loanAccepted) &gt; 0 then loanAccepted[1] else &quot;rejected&quot;"],
        );
        assert_eq!(type_of(&ticked), "checklist");
        assert_eq!(ticked["values"], json!([{"label": "Accepted", "value": "accepted"}]));
        assert!(ticked.get("validate").is_none(), "ticking none is an answer: {ticked}");
        // a list of objects is compared with nothing: no options to tick, no checklist
        assert_eq!(type_of(&drafted("lines", &[], &["=for i in lines return i.total"])), "textfield");
    }

    #[test]
    fn names_type_what_nothing_else_tells() {
        assert_eq!(type_of(&drafted("invoiceAmount", &[], &[])), "number");
        assert_eq!(type_of(&drafted("customerAge", &[], &[])), "number");
        assert_eq!(type_of(&drafted("dueDate", &[], &[])), "datetime");
        assert_eq!(type_of(&drafted("createdTimestamp", &[], &[])), "datetime");
        assert_eq!(type_of(&drafted("datetime_p3k81s", &[], &[])), "datetime");
        assert_eq!(type_of(&drafted("classicalResult.confidence", &[], &[])), "number");
        assert_eq!(type_of(&drafted("errorResolved", &[], &[])), "checkbox");
        assert_eq!(type_of(&drafted("decisionRationale", &[], &[])), "textarea");
        assert_eq!(type_of(&drafted("messageDelivered", &[], &[])), "checkbox");
        // what was decided on a step, read by nothing yet: the yes-or-no it is almost everywhere
        assert_eq!(type_of(&drafted("approved", &[], &[])), "checkbox");
        assert_eq!(type_of(&drafted("invoiceClarified", &[], &[])), "checkbox");
        assert_eq!(type_of(&drafted("numberOfItems", &[], &[])), "number");
        assert_eq!(type_of(&drafted("failureIndex", &[], &[])), "number");
        assert_eq!(type_of(&drafted("invoiceNumber", &[], &[])), "textfield");
        // form-js's own keys name the field's type
        assert_eq!(type_of(&drafted("number_k6z07b", &[], &[])), "number");
        assert_eq!(type_of(&drafted("textarea_g3hy67", &[], &[])), "textarea");
        assert_eq!(type_of(&drafted("checkbox_4u82gk", &[], &[])), "checkbox");
        assert_eq!(type_of(&drafted("isUrgent", &[], &[])), "checkbox");
        assert_eq!(type_of(&drafted("requestDetails", &[], &[])), "textarea");
        // the last word decides: a reason's code is a short text
        assert_eq!(type_of(&drafted("reasonCode", &[], &[])), "textfield");
        assert_eq!(drafted("mobilePhone", &[], &[])["validate"]["validationType"], "phone");
        assert_eq!(drafted("contactEmail", &[], &[])["validate"]["validationType"], "email");
        assert_eq!(drafted("customer.email", &[], &[])["validate"]["validationType"], "email");
        // a part of an email, or of a phone call, is no address or number
        assert!(drafted("currentEmail.subject", &[], &[]).get("validate").is_none());
        assert_eq!(drafted("currentEmail.fromAddress", &[], &[])["validate"]["validationType"], "email");
        assert!(drafted("phoneCall.outcome", &[], &[]).get("validate").is_none());
        assert_eq!(type_of(&drafted("creditLimit", &[], &[])), "number");
        assert_eq!(type_of(&drafted("maxRetries", &[], &[])), "number");
        // points are as often what is said as what is scored
        assert_eq!(type_of(&drafted("talkingPoints", &[], &[])), "textfield");
    }

    #[test]
    fn a_german_compound_is_typed_by_its_last_part() {
        // German writes a compound as one word: its last part types it, cased or not
        for name in ["rechnungsbetrag", "gesamtPreis", "Bestellmenge", "anzahlPositionen", "urlaubsAnzahl"] {
            assert_eq!(type_of(&drafted(name, &[], &[])), "number", "{name}");
        }
        for name in ["lieferdatum", "abgabeFrist", "liefertermin"] {
            assert_eq!(type_of(&drafted(name, &[], &[])), "datetime", "{name}");
        }
        for name in ["ablehnungsbegruendung", "fehlerBeschreibung", "kundenkommentar"] {
            assert_eq!(type_of(&drafted(name, &[], &[])), "textarea", "{name}");
        }
        // a word that only starts like one is no compound of it
        assert_eq!(type_of(&drafted("preisgruppe", &[], &[])), "textfield");
    }

    #[test]
    fn a_field_is_required_where_a_decision_needs_it_and_only_this_form_supplies_it() {
        let process = |xml: &str| crate::bpmn::read_str(xml).processes.remove(0);
        let p = process(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P"><startEvent id="S"/><userTask id="T"/><sequenceFlow id="a" sourceRef="S" targetRef="T"/><exclusiveGateway id="G"/><sequenceFlow id="b" sourceRef="T" targetRef="G"/><sequenceFlow id="c" sourceRef="G" targetRef="E"><conditionExpression>=level = "high"</conditionExpression></sequenceFlow><endEvent id="E"/></process></definitions>"#,
        );
        let project = crate::project::Project::default();
        let contract = crate::flow::contract(&p, p.element_index("T"), &project);
        let said = Said::new(&p, Some(&contract));
        assert_eq!(field("level", Use::Write, said.of("level"))["validate"]["required"], true);
        // no decision reads it: optional
        assert!(field("note", Use::Write, said.of("note")).get("validate").is_none());
        // the contract does not need it (nothing reads it after the step)
        let said = Said::new(&p, Some(&crate::flow::Contract::default()));
        assert!(field("level", Use::Write, said.of("level"))["validate"].get("required").is_none());
    }

    #[test]
    fn a_path_is_labelled_by_its_last_name_unless_another_field_reads_alike() {
        assert_eq!(leaf_label("ibmqResult.jobId"), "Job id");
        let mut components = vec![
            json!({"type": "text", "text": "# Review"}),
            json!({"type": "textfield", "key": "status", "label": "Status"}),
            json!({"type": "textfield", "key": "ibmqResult.status", "label": "Status"}),
            json!({"type": "textfield", "key": "ibmqResult.jobId", "label": "Job id"}),
            json!({"type": "textfield", "key": "order.jobId", "label": "Job ID (external)"}),
        ];
        distinct_labels(&mut components, 2);
        let labels: Vec<&str> = components.iter().filter_map(|c| c["label"].as_str()).collect();
        assert_eq!(labels, ["Status", "Ibmq result status", "Job id", "Job ID (external)"]);
    }
}
