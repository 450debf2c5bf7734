//! Hiding the answer: the BPMN text with the embedded form (`zeebe:userTaskForm`) a step links to
//! removed, and nothing else changed.
//!
//! A Camunda 8 step can link a form held inside the process itself: its
//! `zeebe:formDefinition formKey="camunda-forms:bpmn:<id>"` points at a `zeebe:userTaskForm id="<id>"`
//! in the process's extension elements. Handing that BPMN to a generator would hand it the author's
//! form. The element is cut out of the text by its byte span (found with a namespace-aware XML reader,
//! matching the Zeebe namespace URI rather than a prefix), so every other byte, the other steps'
//! embedded forms included, stays as written; the step's `formKey` stays too (it names the answer's
//! id, not its content). Nothing is expanded: entity references are passed over as they are.

use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use quick_xml::reader::NsReader;

use crate::bpmn::{self, LINKED_FORM_PREFIX};

/// The Zeebe extension namespace.
const ZEEBE_URI: &str = "http://camunda.org/schema/zeebe/1.0";

/// The BPMN text a generator may see for `element_id`: `xml` without the embedded form the element
/// links to (unchanged when it links none). Errors are sentences naming the problem: the element is
/// in no process of the document, or its embedded form could not be cut out.
pub fn hide_embedded_form(xml: &str, element_id: &str) -> Result<String, String> {
    let definitions = bpmn::read_str(xml);
    let Some((process, element)) =
        definitions.processes.iter().find_map(|p| p.element(element_id).map(|e| (p, e)))
    else {
        return Err(format!("the element \"{element_id}\" is in no process of the BPMN file"));
    };
    let Some(form_id) = element.form_id.strip_prefix(LINKED_FORM_PREFIX) else {
        return Ok(xml.to_string());
    };
    if process.linked_form(element).is_none() {
        return Ok(xml.to_string());
    }
    let hidden = without_user_task_form(xml, form_id).ok_or_else(|| {
        format!("the embedded form \"{form_id}\" of \"{element_id}\" could not be cut out of the BPMN text")
    })?;
    let again = bpmn::read_str(&hidden);
    let still =
        again.processes.iter().any(|p| p.element(element_id).is_some_and(|e| p.linked_form(e).is_some()));
    if still {
        return Err(format!(
            "the embedded form \"{form_id}\" of \"{element_id}\" is still readable after cutting it out"
        ));
    }
    Ok(hidden)
}

/// `xml` without every `zeebe:userTaskForm` element whose `id` is `form_id` (with the indentation and
/// line end of a line it stands on alone); `None` when there is none or the XML breaks before one is
/// closed.
pub fn without_user_task_form(xml: &str, form_id: &str) -> Option<String> {
    let mut reader = NsReader::from_str(xml);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    // (start of the open element, depth inside it)
    let mut open: Option<(usize, usize)> = None;
    loop {
        let before = reader.buffer_position() as usize;
        let (resolved, event) = match reader.read_resolved_event() {
            Ok(x) => x,
            Err(_) => break,
        };
        let is_target = |e: &quick_xml::events::BytesStart<'_>| {
            matches!(&resolved, ResolveResult::Bound(ns) if ns.into_inner() == ZEEBE_URI)
                && e.local_name().into_inner() == "userTaskForm"
                && e.try_get_attribute("id").ok().flatten().is_some_and(|a| *a.value == *form_id)
        };
        match (event, &mut open) {
            (Event::Eof, _) => break,
            (Event::Start(_), Some((_, depth))) => *depth += 1,
            (Event::End(_), Some((start, depth))) => {
                if *depth == 0 {
                    spans.push((*start, reader.buffer_position() as usize));
                    open = None;
                } else {
                    *depth -= 1;
                }
            }
            (Event::Start(e), None) if is_target(&e) => open = Some((before, 0)),
            (Event::Empty(e), None) if is_target(&e) => {
                spans.push((before, reader.buffer_position() as usize));
            }
            _ => {}
        }
    }
    if spans.is_empty() || open.is_some() {
        return None;
    }
    let mut out = String::with_capacity(xml.len());
    let mut at = 0;
    for (start, end) in spans {
        let (start, end) = whole_line(xml, start, end);
        out.push_str(&xml[at..start]);
        at = end;
    }
    out.push_str(&xml[at..]);
    Some(out)
}

/// Widens `start..end` to its whole line when nothing but blanks share the line with it.
fn whole_line(xml: &str, start: usize, end: usize) -> (usize, usize) {
    let line_start = xml[..start].trim_end_matches([' ', '\t']).len();
    let rest = &xml[end..];
    let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let after = &rest[blanks..];
    let newline = if after.starts_with("\r\n") {
        2
    } else if after.starts_with('\n') {
        1
    } else {
        return (start, end);
    };
    if line_start == 0 || xml[..line_start].ends_with('\n') {
        (line_start, end + blanks + newline)
    } else {
        (start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:z="http://camunda.org/schema/zeebe/1.0">
  <bpmn:process id="P">
    <bpmn:extensionElements>
      <z:userTaskForm id="F1">{"components":[{"type":"textfield","key":"a"}]}</z:userTaskForm>
      <z:userTaskForm id="F2">{"components":[{"type":"textfield","key":"b &amp; c"}]}</z:userTaskForm>
    </bpmn:extensionElements>
    <bpmn:userTask id="T1"><bpmn:extensionElements><z:formDefinition formKey="camunda-forms:bpmn:F1" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:userTask id="T2"><bpmn:extensionElements><z:formDefinition formKey="camunda-forms:bpmn:F2" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:userTask id="T3"><bpmn:extensionElements><z:formDefinition formId="other" /></bpmn:extensionElements></bpmn:userTask>
  </bpmn:process>
</bpmn:definitions>
"#;

    #[test]
    fn only_the_steps_own_embedded_form_is_cut_out_and_nothing_else_changes() {
        let hidden = hide_embedded_form(XML, "T1").unwrap();
        let line = "      <z:userTaskForm id=\"F1\">{\"components\":[{\"type\":\"textfield\",\"key\":\"a\"}]}</z:userTaskForm>\n";
        assert_eq!(hidden, XML.replacen(line, "", 1));
        let p = &bpmn::read_str(&hidden).processes[0];
        assert!(p.linked_form(p.element("T1").unwrap()).is_none());
        assert!(p.linked_form(p.element("T2").unwrap()).is_some(), "the other step's form stays");
        assert!(hide_embedded_form(XML, "T2").unwrap().contains("F1"));
    }

    #[test]
    fn a_step_without_an_embedded_form_gets_the_text_unchanged() {
        assert_eq!(hide_embedded_form(XML, "T3").unwrap(), XML);
    }

    #[test]
    fn an_element_that_is_not_there_is_a_sentence() {
        let e = hide_embedded_form(XML, "Nope").unwrap_err();
        assert!(e.contains("\"Nope\" is in no process"), "{e}");
    }

    #[test]
    fn the_prefix_is_whatever_the_file_binds_and_other_namespaces_are_not_touched() {
        let other = XML.replace("http://camunda.org/schema/zeebe/1.0", "urn:other");
        assert_eq!(without_user_task_form(&other, "F1"), None);
        let empty = r#"<d xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><zeebe:userTaskForm id="X"/><zeebe:userTaskForm id="Y"/></d>"#;
        assert_eq!(
            without_user_task_form(empty, "X").as_deref(),
            Some(r#"<d xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><zeebe:userTaskForm id="Y"/></d>"#)
        );
    }

    #[test]
    fn a_form_that_is_never_closed_is_not_cut() {
        let broken = r#"<d xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><zeebe:userTaskForm id="X">{"#;
        assert_eq!(without_user_task_form(broken, "X"), None);
    }

    /// Whether `part` is `whole` with some spans taken out (its characters, in order).
    fn is_left_of(part: &str, whole: &str) -> bool {
        let mut rest = whole.chars();
        part.chars().all(|c| rest.any(|w| w == c))
    }

    fn escape(s: &str) -> String {
        s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_cut_or_left_without_a_panic(s in "(?s).{0,300}") {
            // what is cut out is whole elements: the rest is the text with spans taken out
            if let Some(cut) = without_user_task_form(&s, "X") {
                proptest::prop_assert!(
                    cut.len() < s.len() && is_left_of(&cut, &s),
                    "{:?} from {:?}", cut, s
                );
            }
            if !s.contains("userTaskForm") {
                proptest::prop_assert_eq!(without_user_task_form(&s, "X"), None, "there is none to cut");
            }
            // an error is a sentence naming the element; what is given back no longer links a form
            match hide_embedded_form(&s, "T") {
                Err(e) => proptest::prop_assert!(e.contains("\"T\""), "{}", e),
                Ok(hidden) => {
                    let again = bpmn::read_str(&hidden);
                    let linked = again
                        .processes
                        .iter()
                        .any(|p| p.element("T").is_some_and(|e| p.linked_form(e).is_some()));
                    proptest::prop_assert!(!linked, "{}", hidden);
                }
            }
        }

        #[test]
        fn exactly_the_chosen_form_goes(
            bodies in proptest::collection::vec("[a-z{}\":, <>&]{0,20}", 1..5),
            pick in proptest::prelude::any::<proptest::sample::Index>(),
            indent in "[ \t]{0,4}",
        ) {
            let forms: String = bodies
                .iter()
                .enumerate()
                .map(|(i, b)| format!("{indent}<zeebe:userTaskForm id=\"F{i}\">{}</zeebe:userTaskForm>\n", escape(b)))
                .collect();
            let tasks: String = (0..bodies.len())
                .map(|i| format!("<bpmn:userTask id=\"T{i}\"><bpmn:extensionElements><zeebe:formDefinition formKey=\"camunda-forms:bpmn:F{i}\"/></bpmn:extensionElements></bpmn:userTask>\n"))
                .collect();
            let xml = format!(
                "<bpmn:definitions xmlns:bpmn=\"http://www.omg.org/spec/BPMN/20100524/MODEL\" xmlns:zeebe=\"http://camunda.org/schema/zeebe/1.0\">\n<bpmn:process id=\"P\"><bpmn:extensionElements>\n{forms}</bpmn:extensionElements>\n{tasks}</bpmn:process></bpmn:definitions>\n"
            );
            let target = pick.index(bodies.len());
            let hidden = hide_embedded_form(&xml, &format!("T{target}")).unwrap();
            let line = format!("{indent}<zeebe:userTaskForm id=\"F{target}\">{}</zeebe:userTaskForm>\n", escape(&bodies[target]));
            proptest::prop_assert_eq!(&hidden, &xml.replacen(&line, "", 1));
            let p = &bpmn::read_str(&hidden).processes[0];
            for (i, b) in bodies.iter().enumerate() {
                let linked = p.linked_form(p.element(&format!("T{i}")).unwrap()).map(|f| f.body.clone());
                proptest::prop_assert_eq!(linked.as_deref().map(str::trim), (i != target).then(|| b.trim()), "the reader trims a body");
            }
        }
    }
}
