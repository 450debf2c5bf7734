//! The error codes, their statuses, the table of them in docs/api.md and the OpenAPI document agree: every
//! code is in docs/api.md under the status it maps to, docs/api.md names no code that does not exist,
//! each code's answer carries that status and that spelling, and each operation of the OpenAPI
//! document documents exactly the error statuses its codes can produce.
//!
//! The OpenAPI document does not enumerate the error codes: `ErrorBody.code` is a plain string (its
//! `Code` schema is the contract check's finding codes), so the codes are checked against docs/api.md
//! and the statuses against the document.

use std::collections::{BTreeMap, BTreeSet};

use axum::response::IntoResponse;
use formgen::http::error::{ApiError, status};
use formgen::service::Code;
use serde_json::Value;

/// The codes named, as a list; with a `match` on them that has no wildcard, so that a code added to
/// [`Code`] does not compile until it is listed here, and is then checked against docs/api.md and the
/// OpenAPI document like every other.
macro_rules! codes {
    ($($code:ident),* $(,)?) => {{
        fn _every_code_is_listed(code: Code) {
            match code {
                $(Code::$code)|* => {}
            }
        }
        vec![$(Code::$code),*]
    }};
}

fn every_code() -> Vec<Code> {
    codes![
        BriefRequired,
        FormRequired,
        ProcessRequired,
        BadRequest,
        BadJson,
        JsonRequired,
        BodyTooLarge,
        BodyTimeout,
        ServerBusy,
        FieldTooLong,
        WorkerRequired,
        UnknownWorker,
        NoWorker,
        UnknownProcess,
        UnknownElement,
        NotBpmn,
        NotAFormStep,
        DescriptionTooLong,
        BpmnTooLarge,
        SchemaTooLarge,
        ProjectTooLarge,
        TooManyGenerations,
        ModelTimeout,
        ModelRateLimited,
        ModelCredentialRefused,
        ModelAnswerTruncated,
        ModelAnswerTooLarge,
        ModelFailed,
        UnusableAnswer,
        CredentialUnavailable,
        SchemaRefused,
        GateTimeout,
        ProcessTimeout,
        Unauthenticated,
        UnknownPrincipal,
        Forbidden,
        HostNotAllowed,
        NotFound,
        MethodNotAllowed,
        ShuttingDown,
        Internal,
    ]
}

/// The error table of docs/api.md: code → the statuses it is listed under.
fn reference_table() -> BTreeMap<String, Vec<u16>> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let mut lines = readme.lines().skip_while(|l| !l.starts_with("| status | code"));
    assert!(lines.next().is_some(), "docs/api.md has no table headed \"| status | code | when |\"");
    let mut table: BTreeMap<String, Vec<u16>> = BTreeMap::new();
    for row in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let status: u16 =
            cells[1].parse().unwrap_or_else(|_| panic!("not a status in docs/api.md row {row:?}"));
        for code in cells[2].split(',').map(|c| c.trim().trim_matches('`')) {
            table.entry(code.to_string()).or_default().push(status);
        }
    }
    assert!(table.contains_key("model_failed"), "the table read is not the error table: {table:?}");
    table
}

#[test]
fn the_api_reference_lists_every_code_under_its_status_and_no_other_code() {
    let table = reference_table();
    let codes = every_code();
    for code in &codes {
        let want = status(*code).as_u16();
        match table.get(code.as_str()) {
            None => panic!("docs/api.md's error table does not list `{code}` (HTTP {want})"),
            Some(statuses) => assert_eq!(
                statuses,
                &[want],
                "docs/api.md lists `{code}` under {statuses:?}; the code answers HTTP {want}"
            ),
        }
    }
    let known: BTreeSet<&str> = codes.iter().map(|c| c.as_str()).collect();
    let unknown: Vec<&String> = table.keys().filter(|c| !known.contains(c.as_str())).collect();
    assert!(unknown.is_empty(), "docs/api.md's error table lists codes that do not exist: {unknown:?}");
}

#[tokio::test]
async fn each_code_answers_its_status_and_its_spelling() {
    let mut spellings = BTreeSet::new();
    for code in every_code() {
        let spelling = code.as_str();
        assert!(spellings.insert(spelling), "two codes are spelt `{spelling}`");
        assert!(
            !spelling.is_empty() && spelling.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "`{spelling}` is not snake_case"
        );
        let response = ApiError::new(code, "a sentence").into_response();
        assert_eq!(response.status(), status(code), "{code}");
        assert!(status(code).is_client_error() || status(code).is_server_error(), "{code}");
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["code"], spelling);
    }
}

/// What every authenticated operation may answer: no token, or one no principal has.
const AUTHENTICATION: &[Code] = &[Code::Unauthenticated, Code::UnknownPrincipal];

/// What every operation may answer: a request addressed to a host name that is not served.
const HOST: &[Code] = &[Code::HostNotAllowed];

/// What reading a JSON body may answer (`ApiJson`, and the declared length refused before it is read).
const JSON_BODY: &[Code] = &[
    Code::BadJson,
    Code::BadRequest,
    Code::JsonRequired,
    Code::BodyTooLarge,
    Code::BodyTimeout,
    Code::ServerBusy,
    // the body could not be read at all
    Code::Internal,
];

/// What resolving a request's process (from the request or the store) and its project may answer.
const PROCESS_SOURCE: &[Code] = &[
    Code::UnknownProcess,
    Code::UnknownElement,
    Code::NotBpmn,
    Code::ProjectTooLarge,
    Code::ProcessTimeout,
    // the process store could not be read
    Code::Internal,
];

/// The codes each operation of the OpenAPI document can answer with, by (method, path). A request
/// still running at the end of the shutdown's grace period is answered `shutting_down`: only the
/// operations that read a body and work on it run that long; the others answer at once.
fn operation_codes() -> BTreeMap<(&'static str, &'static str), Vec<Code>> {
    let with = |parts: &[&[Code]]| parts.concat();
    BTreeMap::from([
        (("get", "/api/formgen/capability"), with(&[HOST, AUTHENTICATION])),
        (
            ("post", "/api/formgen/generate"),
            with(&[
                HOST,
                AUTHENTICATION,
                JSON_BODY,
                PROCESS_SOURCE,
                &[
                    Code::ShuttingDown,
                    // the request's own bounds and shape
                    Code::DescriptionTooLong,
                    Code::FieldTooLong,
                    Code::BpmnTooLarge,
                    Code::SchemaTooLarge,
                    Code::BriefRequired,
                    // the Worker, and room for the generation
                    Code::WorkerRequired,
                    Code::UnknownWorker,
                    Code::NoWorker,
                    Code::TooManyGenerations,
                    // a refinement's current form that is no form; an element that has none
                    Code::SchemaRefused,
                    Code::NotAFormStep,
                    // the model
                    Code::CredentialUnavailable,
                    Code::ModelTimeout,
                    Code::ModelRateLimited,
                    Code::ModelCredentialRefused,
                    Code::ModelAnswerTruncated,
                    Code::ModelAnswerTooLarge,
                    Code::ModelFailed,
                    Code::UnusableAnswer,
                ],
            ]),
        ),
        (
            ("post", "/api/formgen/validate"),
            with(&[
                HOST,
                AUTHENTICATION,
                JSON_BODY,
                PROCESS_SOURCE,
                &[
                    Code::ShuttingDown,
                    Code::FieldTooLong,
                    Code::BpmnTooLarge,
                    Code::SchemaTooLarge,
                    Code::FormRequired,
                    Code::TooManyGenerations,
                    Code::SchemaRefused,
                    Code::GateTimeout,
                ],
            ]),
        ),
        (
            ("post", "/api/formgen/outline"),
            with(&[
                HOST,
                AUTHENTICATION,
                JSON_BODY,
                PROCESS_SOURCE,
                &[
                    Code::ShuttingDown,
                    Code::FieldTooLong,
                    Code::BpmnTooLarge,
                    Code::ProcessRequired,
                    Code::TooManyGenerations,
                ],
            ]),
        ),
        (("get", "/healthz"), HOST.to_vec()),
        (("get", "/metrics"), with(&[HOST, AUTHENTICATION, &[Code::Forbidden]])),
    ])
}

#[test]
fn each_operation_documents_the_statuses_its_codes_answer() {
    let doc = serde_json::to_value(formgen::http::openapi::document()).unwrap();
    let table = operation_codes();
    let mut documented = BTreeSet::new();
    let mut disagreements = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("the document has paths") {
        for (method, operation) in item.as_object().unwrap() {
            let key = (method.as_str(), path.as_str());
            let Some(codes) = table.get(&key) else {
                panic!("{method} {path} is in the OpenAPI document but not in this test's table of codes");
            };
            documented.insert(key);
            let responses = operation["responses"].as_object().unwrap();
            let errors: BTreeSet<u16> =
                responses.keys().map(|s| s.parse().unwrap()).filter(|s: &u16| *s >= 400).collect();
            let answered: BTreeSet<u16> = codes.iter().map(|c| status(*c).as_u16()).collect();
            for s in answered.difference(&errors) {
                let of: BTreeSet<&str> =
                    codes.iter().filter(|c| status(**c).as_u16() == *s).map(|c| c.as_str()).collect();
                disagreements.push(format!("{method} {path} does not document {s}, answered for {of:?}"));
            }
            for s in errors.difference(&answered) {
                disagreements.push(format!("{method} {path} documents {s}, which none of its codes answers"));
            }
            for s in errors.intersection(&answered) {
                let schema = &responses[&s.to_string()]["content"]["application/json"]["schema"]["$ref"];
                if schema != "#/components/schemas/ErrorBody" {
                    disagreements.push(format!("{method} {path} documents {s} with {schema}, not ErrorBody"));
                }
            }
        }
    }
    for key in table.keys().filter(|k| !documented.contains(*k)) {
        disagreements.push(format!("{} {} is not in the OpenAPI document", key.0, key.1));
    }
    assert!(
        disagreements.is_empty(),
        "the OpenAPI document and the codes disagree:\n{}",
        disagreements.join("\n")
    );
}
