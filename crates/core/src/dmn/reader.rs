//! The lenient DMN reader: XML events in, [`Decisions`] out, never an error.
//!
//! The same rules as the BPMN reader: quick-xml finds the tags, and the walk and helpers of
//! [`crate::bpmn::xml`] keep the stack of open elements, skip whole the subtrees we do not read
//! (diagrams, rules' input entries, vendor extensions) without allocating, and read attributes,
//! references and namespace scopes (by URI, any DMN version); this file says what each DMN element
//! is to us (a [`Frame`]) and where its text goes. The first break (a malformed tag, a mismatched end
//! tag, the end of a truncated file) ends reading; what came before it stands. DTDs are ignored, so no
//! entity is ever defined or expanded: a reference to one stays in the text as written.

use std::collections::{HashMap, HashSet};

use super::model::{Decision, DecisionInput, DecisionOutput, Decisions, HitPolicy, RULE_VALUES};
use super::unary::{allowed_values, looked_for, string_literal, string_values, tests_list};
use crate::bpmn::trim;
use crate::bpmn::xml::{Ns, Scopes, Tag, Walk, push_reference, unescape, walk_str};

/// Where the text of a `<text>` element goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    InputExpression(usize),
    InputValues(usize),
    OutputValues(usize),
    /// A rule's output entry for this output column.
    OutputEntry(usize),
    /// A rule's input entry for this input column.
    InputEntry(usize),
    Literal,
}

/// What an open element is to the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// `definitions`
    Root,
    /// `decision` (the last one read)
    Decision,
    /// `informationRequirement`
    Requirement,
    /// `decisionTable`
    Table,
    /// `input`, by index
    Input(usize),
    /// `output`, by index
    Output(usize),
    /// `rule`, with the number of input and output entries seen so far
    Rule { inputs: usize, outputs: usize },
    /// An element whose `<text>` child goes to the target.
    HasText(Target),
    /// `<text>`: its content is collected.
    Text(Target),
}

/// Reads decoded DMN text. Never fails: stops at the first break and returns what came before.
pub(super) fn read_text(text: &str) -> Decisions {
    let mut b = Builder::default();
    b.out.break_at = walk_str(text, &mut b);
    b.out
}

#[derive(Default)]
struct Builder {
    out: Decisions,
    scopes: Scopes,
    stack: Vec<Frame>,
    /// Depth inside a subtree being ignored; 0 when reading.
    skip: usize,
    /// The content of the open `<text>`.
    body: String,
    /// The open decision's `variable`, until its logic (table or literal expression) is known.
    pending: Option<DecisionOutput>,
    /// The rule values recorded so far, by decision and output: a table of many rules de-duplicates
    /// its values by lookup, not by scanning those before.
    rule_values: HashSet<(usize, usize, String)>,
    /// The inputs, by decision and column, some rule's entry for which is no list of texts: they
    /// have no [`DecisionInput::rule_values`].
    open_inputs: HashSet<(usize, usize)>,
    /// The texts the rules look for in each input as a list (`list contains(?, "x")`), by decision
    /// and column: the values of an input used as a list.
    tags: HashMap<(usize, usize), indexmap::IndexSet<String>>,
}

impl Builder {
    fn collecting(&self) -> bool {
        matches!(self.stack.last(), Some(Frame::Text(_)))
    }

    fn decision(&mut self) -> &mut Decision {
        Self::last_decision(&mut self.out)
    }

    /// The decision being read (a first one made up when the document has none yet).
    fn last_decision(out: &mut Decisions) -> &mut Decision {
        if out.decisions.is_empty() {
            out.decisions.push(Decision::default());
        }
        out.decisions.last_mut().expect("a decision exists")
    }

    /// Decides what a newly opened DMN element is, recording what its start tag says. `None`: skip it.
    fn frame_for(&mut self, local: &str, attrs: &Tag<'_>) -> Option<Frame> {
        let parent = self.stack.last().copied();
        Some(match (parent, local) {
            (None, "definitions") => Frame::Root,
            (Some(Frame::Root), "decision") => {
                self.pending = None;
                self.out.decisions.push(Decision {
                    id: attrs.value("id"),
                    name: trim(&attrs.value("name")).to_string(),
                    ..Decision::default()
                });
                Frame::Decision
            }
            (Some(Frame::Decision), "informationRequirement") => Frame::Requirement,
            (Some(Frame::Requirement), "requiredDecision") => {
                let href = attrs.value("href");
                let id = trim(href.rsplit('#').next().unwrap_or_default()).to_string();
                if !id.is_empty() {
                    self.decision().required_decisions.push(id);
                }
                return None;
            }
            (Some(Frame::Decision), "variable") => {
                let output = DecisionOutput {
                    name: trim(&attrs.value("name")).to_string(),
                    type_ref: trim(&attrs.value("typeRef")).to_string(),
                    ..DecisionOutput::default()
                };
                let decision = self.decision();
                if decision.literal_expression.is_some() {
                    if decision.outputs.is_empty() && !output.name.is_empty() {
                        decision.outputs.push(output);
                    }
                } else if self.pending.is_none() {
                    // a literal expression's variable names its result, a table's only repeats the
                    // decision's name: kept until the decision's logic shows which this is
                    self.pending = Some(output);
                }
                return None;
            }
            (Some(Frame::Decision), "decisionTable") => {
                let policy = attrs.get("hitPolicy").map(unescape);
                let aggregation = attrs.get("aggregation").map(unescape);
                self.pending = None;
                self.decision().hit_policy =
                    policy.and_then(|p| HitPolicy::parse(&p, aggregation.as_deref())).unwrap_or_default();
                Frame::Table
            }
            (Some(Frame::Decision), "literalExpression") => {
                let type_ref = trim(&attrs.value("typeRef")).to_string();
                let pending = self.pending.take();
                let decision = self.decision();
                decision.literal_expression = Some(String::new());
                if let Some(mut output) = pending {
                    if output.type_ref.is_empty() {
                        output.type_ref = type_ref;
                    }
                    if !output.name.is_empty() {
                        decision.outputs.push(output);
                    }
                }
                Frame::HasText(Target::Literal)
            }
            (Some(Frame::Table), "input") => {
                let decision = self.decision();
                decision.inputs.push(DecisionInput {
                    label: trim(&attrs.value("label")).to_string(),
                    ..DecisionInput::default()
                });
                Frame::Input(decision.inputs.len() - 1)
            }
            (Some(Frame::Input(i)), "inputExpression") => {
                self.decision().inputs[i].type_ref = trim(&attrs.value("typeRef")).to_string();
                Frame::HasText(Target::InputExpression(i))
            }
            (Some(Frame::Input(i)), "inputValues") => Frame::HasText(Target::InputValues(i)),
            (Some(Frame::Table), "output") => {
                let decision = self.decision();
                decision.outputs.push(DecisionOutput {
                    name: trim(&attrs.value("name")).to_string(),
                    label: trim(&attrs.value("label")).to_string(),
                    type_ref: trim(&attrs.value("typeRef")).to_string(),
                    ..DecisionOutput::default()
                });
                Frame::Output(decision.outputs.len() - 1)
            }
            (Some(Frame::Output(o)), "outputValues") => Frame::HasText(Target::OutputValues(o)),
            (Some(Frame::Table), "rule") => Frame::Rule { inputs: 0, outputs: 0 },
            (Some(Frame::Rule { inputs, outputs }), "inputEntry" | "outputEntry") => {
                self.rule_entry(local == "inputEntry", inputs, outputs)
            }
            (Some(Frame::HasText(target)), "text") => {
                self.body.clear();
                Frame::Text(target)
            }
            _ => return None,
        })
    }

    /// A rule's next input or output entry: counted on the rule, its text read for its column.
    fn rule_entry(&mut self, input: bool, inputs: usize, outputs: usize) -> Frame {
        if let Some(Frame::Rule { inputs, outputs }) = self.stack.last_mut() {
            *(if input { inputs } else { outputs }) += 1;
        }
        Frame::HasText(if input { Target::InputEntry(inputs) } else { Target::OutputEntry(outputs) })
    }

    /// An element ends: settle the text it collected.
    fn settle(&mut self, frame: Frame) {
        let Frame::Text(target) = frame else {
            return;
        };
        let body = std::mem::take(&mut self.body);
        let text = trim(&body);
        // the decision's number once there is one (the next line makes one when there is none)
        let at = self.out.decisions.len().max(1);
        let decision = Self::last_decision(&mut self.out);
        match target {
            Target::InputExpression(i) => {
                let input = &mut decision.inputs[i];
                if input.expression.is_empty() {
                    input.expression = text.to_string();
                }
            }
            Target::InputValues(i) => {
                let input = &mut decision.inputs[i];
                if input.allowed_values.is_empty() {
                    input.allowed_values = allowed_values(text);
                }
            }
            Target::OutputValues(o) => {
                let output = &mut decision.outputs[o];
                if output.allowed_values.is_empty() {
                    output.allowed_values = allowed_values(text);
                }
            }
            Target::OutputEntry(o) => {
                if let (Some(output), Some(value)) = (decision.outputs.get_mut(o), string_literal(text))
                    && self.rule_values.insert((at, o, value.clone()))
                {
                    output.rule_values.push(value);
                }
            }
            Target::InputEntry(i) => {
                let Some(input) = decision.inputs.get_mut(i) else { return };
                if !input.used_as_list {
                    input.used_as_list = tests_list(text, &input.expression);
                }
                if !self.open_inputs.contains(&(at, i)) && !named_values(input, text) {
                    self.open_inputs.insert((at, i));
                }
                let tags = self.tags.entry((at, i)).or_default();
                if tags.len() <= RULE_VALUES {
                    tags.extend(looked_for(text, &input.expression));
                }
                if input.used_as_list && self.open_inputs.contains(&(at, i)) {
                    list_values(input, tags);
                }
            }
            Target::Literal => {
                if decision.literal_expression.as_deref().is_none_or(str::is_empty) {
                    decision.literal_expression = Some(text.to_string());
                }
            }
        }
    }
}

/// The rule values of an input the rules test as a list: the texts they look for in it (`tags`),
/// whatever else they say (a catch-all is the list without any of them), none past [`RULE_VALUES`].
fn list_values(input: &mut DecisionInput, tags: &indexmap::IndexSet<String>) {
    input.rule_values = if tags.len() > RULE_VALUES { Vec::new() } else { tags.iter().cloned().collect() };
}

/// Adds the texts a rule's entry lists to `input`'s rule values, and whether they still name its
/// values: where the entry lists none (any value, another test) or they grow past [`RULE_VALUES`],
/// they are cleared and this is false.
fn named_values(input: &mut DecisionInput, entry: &str) -> bool {
    let Some(values) = string_values(entry) else {
        input.rule_values.clear();
        return false;
    };
    for v in values {
        if !input.rule_values.contains(&v) {
            input.rule_values.push(v);
        }
    }
    if input.rule_values.len() > RULE_VALUES {
        input.rule_values.clear();
        return false;
    }
    true
}

impl Walk for Builder {
    type Frame = Frame;

    fn scopes(&mut self) -> &mut Scopes {
        &mut self.scopes
    }

    fn stack(&mut self) -> &mut Vec<Frame> {
        &mut self.stack
    }

    fn skip(&mut self) -> &mut usize {
        &mut self.skip
    }

    /// Only DMN elements are read; any other is skipped with its subtree.
    fn frame(&mut self, qname: &str, attrs: &Tag<'_>) -> Option<Frame> {
        let (ns, local) = self.scopes.element(qname);
        if ns == Ns::Dmn { self.frame_for(local, attrs) } else { None }
    }

    fn close(&mut self, frame: Frame) {
        self.settle(frame);
    }

    fn text(&mut self, text: &str) {
        if self.collecting() {
            self.body.push_str(text);
        }
    }

    fn reference(&mut self, name: &str) {
        if self.collecting() {
            push_reference(&mut self.body, name);
        }
    }

    fn cdata(&mut self, text: &str) {
        self.text(text);
    }
}
