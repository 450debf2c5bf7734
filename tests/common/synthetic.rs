//! A generator of large synthetic BPMN processes, for the budget test and the reader benchmark.

use std::fmt::Write as _;

/// A Camunda 8 process with `tasks` user tasks in a chain, each with a name, documentation, a form,
/// input and output mappings, and a gateway with two conditional flows after every tenth task.
/// Variable names repeat every 100 tasks (300 distinct names), as in real processes. About 420 bytes
/// per element.
pub fn process(tasks: usize) -> String {
    let mut x = String::with_capacity(tasks * 1_400);
    x.push_str(r#"<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="Definitions_big" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="big" name="A very large process" isExecutable="true">
    <bpmn:documentation>Generated for benchmarks &amp; budget tests.</bpmn:documentation>
    <bpmn:startEvent id="start" name="Start"><bpmn:outgoing>f_start</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="f_start" sourceRef="start" targetRef="t0" />
"#);
    for i in 0..tasks {
        let v = i % 100;
        let next = if i + 1 == tasks { "end".to_string() } else { format!("t{}", i + 1) };
        let _ = write!(
            x,
            r#"    <bpmn:userTask id="t{i}" name="Review item {i} of the order">
      <bpmn:documentation>Check that item {i} matches the order &amp; the invoice before approving it.</bpmn:documentation>
      <bpmn:extensionElements>
        <zeebe:formDefinition formId="form-{i}" />
        <zeebe:ioMapping>
          <zeebe:input source="=order.items[{i}]" target="item{v}" />
          <zeebe:output source="=approved" target="approved{v}" />
        </zeebe:ioMapping>
      </bpmn:extensionElements>
      <bpmn:incoming>f{i}</bpmn:incoming>
    </bpmn:userTask>
"#
        );
        if i % 10 == 9 {
            let _ = write!(
                x,
                r#"    <bpmn:sequenceFlow id="f_g{i}" sourceRef="t{i}" targetRef="g{i}" />
    <bpmn:exclusiveGateway id="g{i}" name="Amount over {i}?" default="f_no{i}" />
    <bpmn:sequenceFlow id="f_yes{i}" name="yes" sourceRef="g{i}" targetRef="{next}">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">= amount{v} &gt; {i}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="f_no{i}" name="no" sourceRef="g{i}" targetRef="{next}" />
"#
            );
        } else {
            let _ = writeln!(
                x,
                r#"    <bpmn:sequenceFlow id="f{}" sourceRef="t{i}" targetRef="{next}" />"#,
                i + 1
            );
        }
    }
    x.push_str("    <bpmn:endEvent id=\"end\" name=\"Done\" />\n  </bpmn:process>\n  <bpmndi:BPMNDiagram id=\"BPMNDiagram_1\">\n    <bpmndi:BPMNPlane id=\"BPMNPlane_1\" bpmnElement=\"big\">\n");
    for i in 0..tasks {
        let _ = writeln!(
            x,
            r#"      <bpmndi:BPMNShape id="t{i}_di" bpmnElement="t{i}"><dc:Bounds x="{}" y="100" width="100" height="80" /></bpmndi:BPMNShape>"#,
            i * 150
        );
    }
    x.push_str("    </bpmndi:BPMNPlane>\n  </bpmndi:BPMNDiagram>\n</bpmn:definitions>\n");
    x
}
