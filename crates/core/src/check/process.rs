//! Findings about the process itself, apart from any form: names it reads that nothing writes. A
//! form is never told to supply what the process misspelled or forgot to quote.

use super::{Code, Finding, Severity};
use crate::bpmn::Process;
use crate::flow::unwritten::{Unwritten, unwritten_reads};
use crate::project::Project;

/// The process's own findings, warnings each: names read that nothing writes, in the order of their
/// first read, then decisions whose rules contradict their declared types.
pub fn process_findings(process: &Process, project: &Project) -> Vec<Finding> {
    let mut out = unwritten(process, project);
    for t in crate::flow::contract::type_disagreements(process, project) {
        let message = format!(
            "The decision \"{}\" declares its input `{}` as {} (typeRef), but its rules test it as a {}: a form gives it what the rules test, so make the typeRef match them.",
            t.decision_id, t.input, t.declared, t.used
        );
        out.push(Finding {
            code: Code::DecisionTypeMismatch,
            severity: Severity::Warning,
            key: Some(t.input.clone()),
            label: None,
            element_id: Some(t.element_id.clone()),
            expression: None,
            message,
        });
    }
    out
}

fn unwritten(process: &Process, project: &Project) -> Vec<Finding> {
    unwritten_reads(process, project)
        .into_iter()
        .map(|read| {
            let element = &process.elements[read.element];
            let at = subject(process, element);
            let expression = shortened(&read.expression);
            let name = &read.name;
            let (code, message) = match &read.kind {
                Unwritten::Literal { shape, text } => (
                    Code::UnquotedLiteral,
                    format!(
                        "{} reads `{name}` in `{expression}`, which nothing writes and which looks like {shape} written without its quotes: write \"{text}\" if the value is meant, or set `{name}` before it.",
                        crate::words::capitalise(&at)
                    ),
                ),
                Unwritten::CloseTo(written) => (
                    Code::MisspelledVariable,
                    format!(
                        "{} reads `{name}` in `{expression}`, which nothing writes, while `{written}` is written: if it is the same data, use one spelling.",
                        crate::words::capitalise(&at)
                    ),
                ),
                Unwritten::Unknown => (
                    Code::UnwrittenRead,
                    format!(
                        "{} reads `{name}` in `{expression}`, which nothing in the process or its project writes: it must come with the process's start, or the read finds null.",
                        crate::words::capitalise(&at)
                    ),
                ),
            };
            Finding {
                code,
                severity: Severity::Warning,
                key: Some(name.clone()),
                label: None,
                element_id: Some(element.id.to_string()),
                expression: Some(read.expression.to_string()),
                message,
            }
        })
        .collect()
}

/// The element a sentence names: a flow's condition by the gateway it leaves.
fn subject(process: &Process, element: &crate::bpmn::Element) -> String {
    let source = element.is_flow().then(|| process.element_index(&element.source)).flatten();
    match source {
        Some(i) => {
            format!("the condition of a flow from {}", crate::flow::contract::phrase(&process.elements[i]))
        }
        None => crate::flow::contract::phrase(element),
    }
}

/// An expression for a sentence: on one line, at most 80 characters.
fn shortened(expression: &str) -> String {
    let flat: String = expression.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= 80 {
        return flat;
    }
    flat.chars().take(79).collect::<String>() + "…"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unquoted_media_type_is_to_be_written_whole_in_quotes() {
        let process = crate::bpmn::zeebe_process(
            r#"<scriptTask id="call"><extensionElements><zeebe:script expression="=headers" resultVariable="r"/>
            <zeebe:ioMapping><zeebe:input source="={ Content-Type: application/json }" target="headers"/>
            </zeebe:ioMapping></extensionElements></scriptTask>"#,
        );
        let findings = process_findings(&process, &Project::default());
        let json = findings.iter().find(|f| f.key.as_deref() == Some("json")).expect("a finding on `json`");
        assert_eq!(json.code, Code::UnquotedLiteral);
        assert!(
            json.message.contains(r#"a media type written without its quotes: write "application/json""#),
            "{}",
            json.message
        );
    }
}
