//! Where a variable is already defined: a sibling form's field (its label, type and options), a
//! decision's input or output (its `typeRef` and allowed values), or a field a Camunda 7 / Flowable
//! step declares. A form for another step should reuse what the project already says about a
//! variable rather than guess it again.
//!
//! It knows the process and its project; nothing of the form being drafted.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::{Map, Value};

use super::expr;
use crate::bpmn::{DeclaredField, Element, Place, Process};
use crate::dmn::{Decision, DecisionInput};
use crate::formjs::ComponentType;
use crate::project::{FormField, Project, ProjectForm};

/// What the project already says about one variable.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Definition {
    /// The variable (binding path).
    pub name: String,
    /// Where it is defined, in words (`the form "vacation-request"`).
    pub source: String,
    /// Its label there (`""` when it has none, or only the one form-js gives a new field: `Text area`).
    pub label: String,
    /// The form-js component type it has or would have (`number`, `select`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// Its options there: `(value, label)`; the label is empty where the definition gives none (a
    /// decision names its values, not how a form labels them).
    pub options: Vec<(String, String)>,
    /// Whether it is required there.
    pub required: bool,
    /// What its type needs besides a key, a label and options, as the defining form writes it: an
    /// expression field's `expression` and `computeOn`. Empty for every other type.
    #[serde(skip)]
    pub properties: Map<String, Value>,
}

/// The properties a form-js type cannot do without (besides its key, label and options), by type:
/// what a field copied from a sibling form must carry to be that type.
const NEEDED: &[(&str, &[&str])] = &[("expression", &["expression", "computeOn"])];

/// The first definition of `name`: a sibling form's field, else a C7/Flowable declared field, else a
/// decision's output (for the result variable of a step that calls it) or input. For many names, make
/// a [`Definitions`] once and ask it.
pub fn definition(name: &str, process: &Process, project: &Project) -> Option<Definition> {
    Definitions::new(process, project, &[]).get(name)
}

/// The forms embedded in `process` (`zeebe:userTaskForm`) for other steps than the one at `step`:
/// siblings as much as the project's `.form` files, for they are the same process's other forms.
/// One that is not a form-js document is skipped.
pub fn embedded_siblings(process: &Process, step: Option<usize>) -> Vec<ProjectForm> {
    let own = step.and_then(|i| process.linked_form(&process.elements[i])).map(|f| f.id.as_str());
    process
        .linked_forms
        .iter()
        .filter(|f| Some(f.id.as_str()) != own)
        .filter_map(|f| {
            let schema = serde_json::from_str(&f.body).ok()?;
            let mut form = ProjectForm::read(schema, format!("the embedded form {}", f.id)).ok()?;
            // named as the step's form key names it, when its schema has no id of its own
            if form.id.is_empty() {
                form.id.clone_from(&f.id);
            }
            Some(form)
        })
        .collect()
}

/// Where each variable of a process and its project is defined, indexed once: [`Definitions::get`]
/// answers what [`definition`] does, by lookups, so a draft of many fields does not search the whole
/// process and project again for each.
pub struct Definitions<'a> {
    /// The first project form field binding each key.
    fields: HashMap<&'a str, (&'a ProjectForm, &'a FormField)>,
    /// The first project form field binding each key that a person can edit there.
    edited: HashMap<&'a str, (&'a ProjectForm, &'a FormField)>,
    /// The first declared field with each id or variable: the element and the field.
    declared: HashMap<&'a str, (&'a Element, &'a DeclaredField)>,
    /// The elements whose (first) result variable has each name, in document order.
    results: HashMap<&'a str, Vec<&'a Element>>,
    /// The first decision of each id.
    decisions: HashMap<&'a str, &'a Decision>,
    /// The first decision input whose expression is exactly each name.
    inputs: HashMap<&'a str, (&'a Decision, &'a DecisionInput)>,
}

impl<'a> Definitions<'a> {
    /// The index of `process` and `project`, with the forms embedded for the process's other steps
    /// (`siblings`, see [`embedded_siblings`]) after the project's.
    pub fn new(process: &'a Process, project: &'a Project, siblings: &'a [ProjectForm]) -> Definitions<'a> {
        let mut fields = HashMap::new();
        let mut edited = HashMap::new();
        for form in project.forms.iter().chain(siblings) {
            for field in &form.input_fields {
                fields.entry(field.key.as_str()).or_insert((form, field));
                if !field.readonly && !field.disabled {
                    edited.entry(field.key.as_str()).or_insert((form, field));
                }
            }
        }
        let mut declared = HashMap::new();
        let mut results: HashMap<&str, Vec<&Element>> = HashMap::new();
        for e in crate::stop::until_stopped(&process.elements) {
            for f in &e.declared().fields {
                declared.entry(f.id.as_str()).or_insert((e, f));
                declared.entry(f.variable.as_str()).or_insert((e, f));
            }
            if let Some(result) = e.accesses.iter().find(|a| a.place == Place::ResultVariable) {
                results.entry(result.expression.trim()).or_default().push(e);
            }
        }
        let mut decisions = HashMap::new();
        let mut inputs = HashMap::new();
        for d in &project.decisions {
            decisions.entry(d.id.trim()).or_insert(d);
            for input in &d.inputs {
                let name = input.expression.trim();
                let reads = expr::feel_reads(&input.expression);
                if reads.len() == 1 && reads[0].path == name {
                    inputs.entry(name).or_insert((d, input));
                }
            }
        }
        Definitions { fields, edited, declared, results, decisions, inputs }
    }

    /// The keys the project's forms (and the process's embedded ones) bind, sorted: a lookup among
    /// them gives the same answer on every run.
    pub fn keys(&self) -> Vec<&'a str> {
        let mut keys: Vec<&str> = self.fields.keys().copied().collect();
        keys.sort_unstable();
        keys
    }

    /// The first definition of `name`, as [`definition`] finds it.
    pub fn get(&self, name: &str) -> Option<Definition> {
        self.find(name, &self.fields)
    }

    /// The definition of `name` for a field a person edits: the first sibling field that lets them
    /// edit it (one that shows it is labelled for reading: "You said:"), else as [`Definitions::get`].
    pub fn get_edited(&self, name: &str) -> Option<Definition> {
        self.find(name, &self.edited).or_else(|| self.get(name))
    }

    fn find(
        &self,
        name: &str,
        fields: &HashMap<&'a str, (&'a ProjectForm, &'a FormField)>,
    ) -> Option<Definition> {
        if let Some((form, field)) = fields.get(name) {
            let source = if form.id.is_empty() {
                format!("the form {}", form.file)
            } else {
                format!("the form \"{}\"", form.id)
            };
            return Some(Definition {
                name: name.to_string(),
                source,
                // a label form-js gave the new field names its kind, not the variable
                label: if crate::formjs::is_new_field_label(&field.label) {
                    String::new()
                } else {
                    field.label.clone()
                },
                kind: field.kind.clone(),
                options: field
                    .options
                    .iter()
                    .map(|o| {
                        (
                            o.value.as_str().map_or_else(|| o.value.to_string(), str::to_string),
                            o.label.clone(),
                        )
                    })
                    .collect(),
                required: field.required,
                properties: needed_properties(form, field),
            });
        }
        if let Some((e, f)) = self.declared.get(name) {
            return Some(Definition {
                name: name.to_string(),
                source: format!("the form fields of \"{}\"", e.label()),
                label: f.label.clone(),
                kind: f.kind.form_js().to_string(),
                options: f.options.iter().map(|o| (o.id.clone(), o.name.clone())).collect(),
                // the engine's required asks for an answer, which unticked is too
                required: f.required && !f.kind.form_js().required_means_chosen(),
                properties: Map::new(),
            });
        }
        self.decision_output(name).or_else(|| self.decision_input(name))
    }

    /// The result variable of a step that calls a decision: the decision's (single) output.
    fn decision_output(&self, name: &str) -> Option<Definition> {
        for e in self.results.get(name).into_iter().flatten() {
            for a in e.accesses.iter().filter(|a| a.place == Place::DecisionId) {
                let id = a.expression.trim_start_matches('=').trim();
                let Some(d) = self.decisions.get(id).filter(|_| !id.is_empty()) else { continue };
                if let [output] = d.outputs.as_slice() {
                    let kind = kind_of(&output.type_ref, !output.allowed_values.is_empty());
                    return Some(Definition {
                        name: name.to_string(),
                        source: format!("the decision \"{}\"", d.id),
                        label: if output.label.is_empty() {
                            output.name.clone()
                        } else {
                            output.label.clone()
                        },
                        kind: kind.to_string(),
                        options: output.allowed_values.iter().map(|v| (v.clone(), String::new())).collect(),
                        // the decision needs an answer, which unticked is too
                        required: !kind.required_means_chosen(),
                        properties: Map::new(),
                    });
                }
            }
        }
        None
    }

    /// An input a decision reads by this very name.
    fn decision_input(&self, name: &str) -> Option<Definition> {
        let (d, input) = self.inputs.get(name)?;
        // what the rules name, where every rule names texts and `inputValues` lists none: two or more
        // are the choice the decision tells apart (`"Fall"`, `"Winter"`: the season); for a list, the
        // tags they look for, one of them enough to tick
        let named = if input.used_as_list { 1 } else { 2 };
        let options = if input.allowed_values.is_empty() && input.rule_values.len() >= named {
            &input.rule_values
        } else {
            &input.allowed_values
        };
        // the rules say what the value is where they test it as a list, whatever `typeRef` says
        let kind = if input.used_as_list {
            if options.is_empty() { ComponentType::Taglist } else { ComponentType::Checklist }
        } else {
            kind_of(&input.type_ref, !options.is_empty())
        };
        Some(Definition {
            name: name.to_string(),
            source: format!("the decision \"{}\"", d.id),
            label: input.label.clone(),
            kind: kind.to_string(),
            options: options.iter().map(|v| (v.clone(), String::new())).collect(),
            // the decision needs an answer, which unticked and none chosen are too
            required: !kind.required_means_chosen(),
            properties: Map::new(),
        })
    }
}

/// The properties [`NEEDED`] by the type of `field`, as its component in `form` writes them (none
/// for a type that needs nothing, or when the component is not found).
fn needed_properties(form: &ProjectForm, field: &FormField) -> Map<String, Value> {
    let Some((_, names)) = NEEDED.iter().find(|(kind, _)| *kind == field.kind) else {
        return Map::new();
    };
    let Some(component) = form.schema.get("components").and_then(|cs| component_of(cs, "", field, 0)) else {
        return Map::new();
    };
    names.iter().filter_map(|&n| Some((n.to_string(), component.get(n)?.clone()))).collect()
}

/// The component of `components` (walked as the project reads a form: a container's `path` prefixes
/// its children) that is `field`: the same binding path and type, and the same id when it has one.
fn component_of<'s>(
    components: &'s Value,
    prefix: &str,
    field: &FormField,
    depth: usize,
) -> Option<&'s Map<String, Value>> {
    let join = |key: &str| if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") };
    for c in components.as_array()?.iter().filter_map(Value::as_object) {
        let text = |name: &str| c.get(name).and_then(Value::as_str).unwrap_or_default();
        let kind = text("type");
        if kind == field.kind
            && join(text("key")) == field.key
            && (field.id.is_empty() || text("id").trim() == field.id)
        {
            return Some(c);
        }
        if crate::formjs::CONTAINERS.contains(&kind)
            && depth < crate::limits::nesting::FORM
            && let Some(children) = c.get("components")
        {
            let path = text("path").trim();
            let inner = if path.is_empty() { prefix.to_string() } else { join(path) };
            if let Some(found) = component_of(children, &inner, field, depth + 1) {
                return Some(found);
            }
        }
    }
    None
}

/// The dotted paths the process and its project use below `root` (`order.total` for `order`): read
/// by path in an expression, bound by a project form's field, or stored as a context literal's key
/// (`resultExpression` `={order: {total: ..}}`, an output mapping or a script `={total: ..}` to
/// `order`). In order of first appearance, at most `most`.
pub fn paths_below(root: &str, process: &Process, project: &Project, most: usize) -> Vec<String> {
    let prefix = format!("{root}.");
    let mut out: indexmap::IndexSet<String> = indexmap::IndexSet::new();
    let mut add = |path: &str| {
        if out.len() < most && path.starts_with(&prefix) && path.len() > prefix.len() {
            out.insert(path.to_string());
        }
    };
    for form in &project.forms {
        for f in form.input_fields.iter().filter(|f| !f.in_list) {
            add(&f.key);
        }
    }
    for e in crate::stop::until_stopped(&process.elements) {
        for (value, stored_as) in stored_values(e) {
            for path in super::access::context_paths(value) {
                add(&format!("{stored_as}{path}"));
            }
        }
        for path in e.accesses.iter().flat_map(|a| paths_named(a, &prefix)) {
            add(&path);
        }
    }
    out.into_iter().collect()
}

/// The paths an access's text names that start with `prefix` (`order.`), FEEL or JUEL; none when the
/// text does not hold the prefix at all, which most texts of a large process do not.
fn paths_named(a: &crate::bpmn::Access, prefix: &str) -> Vec<String> {
    if !a.expression.contains(prefix) {
        return Vec::new();
    }
    let reads = expr::zeebe_value_reads(&a.expression).into_iter().chain(expr::juel_reads(&a.expression));
    reads.map(|r| r.path).filter(|p| p.starts_with(prefix)).collect()
}

/// The paths one level below `root` that only elements on a loop that write `root` read: an AI agent
/// that writes `agent` and reads `agent.context` back on its next round reads its own state, not data
/// a person looks at. Empty when no such element reads below `root`.
pub(crate) fn own_state_paths(root: &str, process: &Process) -> HashSet<String> {
    let prefix = format!("{root}.");
    let mut graph = None;
    let (mut by_itself, mut by_others) = (HashSet::new(), HashSet::new());
    for (i, e) in crate::stop::until_stopped(process.elements.iter().enumerate()) {
        let reads: Vec<String> = (e.accesses.iter())
            .filter(|a| a.expression.contains(&prefix) && !super::access::reads_of(a).is_empty())
            .flat_map(|a| paths_named(a, &prefix))
            .filter_map(|p| p[prefix.len()..].split('.').next().map(|part| format!("{prefix}{part}")))
            .collect();
        if reads.is_empty() {
            continue;
        }
        let writes_root = super::access::of_element(process, i).writes.iter().any(|w| w.name == root);
        let mut again = || {
            let graph = graph.get_or_insert_with(|| super::graph::Graph::new(process));
            graph.reach(&[i], super::graph::Direction::Forward).contains(&i)
        };
        if writes_root && again() { by_itself.extend(reads) } else { by_others.extend(reads) }
    }
    by_itself.retain(|p| !by_others.contains(p));
    by_itself
}

/// The values `e` stores, each with the prefix a context literal's keys are stored under (its keys
/// become paths): a result expression's (`""`: its keys are variables), an output mapping's (its
/// target and a dot), a script's (its result variable and a dot). The draft also reads a whole
/// literal stored in a variable from them.
pub(crate) fn stored_values(e: &crate::bpmn::Element) -> Vec<(&str, String)> {
    let result_variable = e.accesses.iter().find(|a| a.place == Place::ResultVariable);
    let mut out = Vec::new();
    for (k, a) in e.accesses.iter().enumerate() {
        match &a.place {
            Place::Header(key) if key == "resultExpression" => {
                out.push((a.expression.as_str(), String::new()));
            }
            Place::Script => {
                if let Some(r) = result_variable {
                    out.push((a.expression.as_str(), format!("{}.", r.expression.trim())));
                }
            }
            _ => out.extend(e.output_mapping_at(k).map(|(source, target)| (source, format!("{target}.")))),
        }
    }
    out
}

/// The first segments of every dotted path [`paths_below`] could list, gathered in one pass: a name
/// that is none of them has no paths below it, so the many names of a large process are not each
/// looked for in the whole process again (only those that may have paths are).
pub struct PathRoots(HashSet<String>);

impl PathRoots {
    /// The roots of the paths the process and its project use.
    pub fn new(process: &Process, project: &Project) -> PathRoots {
        let mut roots = HashSet::new();
        let mut add = |path: &str| {
            if let Some((root, _)) = path.split_once('.') {
                roots.insert(root.to_string());
            }
        };
        for form in &project.forms {
            form.input_fields.iter().filter(|f| !f.in_list).for_each(|f| add(&f.key));
        }
        for e in crate::stop::until_stopped(&process.elements) {
            // as `paths_below` takes them
            for (value, stored_as) in stored_values(e) {
                for path in super::access::context_paths(value) {
                    add(&format!("{stored_as}{path}"));
                }
            }
            for a in &e.accesses {
                if a.expression.contains('.') {
                    let reads = expr::zeebe_value_reads(&a.expression).into_iter();
                    reads.chain(expr::juel_reads(&a.expression)).for_each(|r| add(&r.path));
                }
            }
        }
        PathRoots(roots)
    }

    /// Whether [`paths_below`] may list something for `name` (a path whose first segment is the
    /// first segment of `name`); false only when it lists nothing.
    pub(crate) fn may_have_paths_below(&self, name: &str) -> bool {
        self.0.contains(name.split('.').next().unwrap_or(name))
    }
}

/// The form-js type for a DMN `typeRef`.
fn kind_of(type_ref: &str, has_values: bool) -> ComponentType {
    if has_values {
        return ComponentType::Select;
    }
    match type_ref.trim().to_ascii_lowercase().as_str() {
        "number" | "integer" | "long" | "double" | "int" => ComponentType::Number,
        "boolean" => ComponentType::Checkbox,
        "date" | "date and time" | "datetime" | "time" => ComponentType::Datetime,
        _ => ComponentType::Textfield,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_a_looping_writer_reads_back_of_its_own_result_is_its_state() {
        let process = |back: &str| {
            let xml = format!(
                r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
                  <startEvent id="s"/><sequenceFlow id="a" sourceRef="s" targetRef="T"/>
                  <serviceTask id="T"><extensionElements><zeebe:taskDefinition type="agent"/>
                    <zeebe:ioMapping><zeebe:input source="=agent.context.memory" target="memory"/></zeebe:ioMapping>
                    <zeebe:taskHeaders><zeebe:header key="resultVariable" value="agent"/></zeebe:taskHeaders></extensionElements></serviceTask>
                  <sequenceFlow id="b" sourceRef="T" targetRef="G"/><exclusiveGateway id="G"/>
                  <sequenceFlow id="c" sourceRef="G" targetRef="{back}"><conditionExpression>=agent.toolCalls != null</conditionExpression></sequenceFlow>
                  <sequenceFlow id="d" sourceRef="G" targetRef="E"/><endEvent id="E"/></process></definitions>"#
            );
            crate::bpmn::read_str(&xml).processes.remove(0)
        };
        let looped = process("T");
        assert_eq!(own_state_paths("agent", &looped), HashSet::from(["agent.context".to_string()]));
        // run once, it reads what was there before it: the process's data
        assert!(own_state_paths("agent", &process("E")).is_empty());
    }

    #[test]
    fn a_sibling_expression_field_brings_what_it_computes() {
        let schema = serde_json::json!({"id": "entry", "components": [
            {"type": "textfield", "key": "a", "label": "A"},
            {"type": "group", "path": "order", "components": [
                {"type": "expression", "key": "total", "expression": "=a + 1", "computeOn": "presubmit", "id": "Field_t"}
            ]},
            {"type": "expression", "key": "bare"}
        ]});
        let project = crate::project::from_request(&[schema], &[], &Default::default()).unwrap();
        let process = Process::default();
        let definitions = Definitions::new(&process, &project, &[]);
        let total = definitions.get("order.total").unwrap();
        assert_eq!(total.kind, "expression");
        assert_eq!(
            Value::Object(total.properties),
            serde_json::json!({"expression": "=a + 1", "computeOn": "presubmit"})
        );
        assert!(definitions.get("bare").unwrap().properties.is_empty(), "nothing to bring");
        assert!(definitions.get("a").unwrap().properties.is_empty(), "a text field needs nothing");
    }

    #[test]
    fn the_forms_embedded_for_other_steps_are_siblings_and_the_steps_own_is_not() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
          <extensionElements>
            <zeebe:userTaskForm id="a">{"components": [{"type": "number", "key": "x", "label": "X"}]}</zeebe:userTaskForm>
            <zeebe:userTaskForm id="b">{"components": [{"type": "textfield", "key": "y"}]}</zeebe:userTaskForm>
            <zeebe:userTaskForm id="c">not a form</zeebe:userTaskForm>
          </extensionElements>
          <userTask id="A"><extensionElements><zeebe:formDefinition formKey="camunda-forms:bpmn:a"/></extensionElements></userTask>
          </process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let keys = |step| -> Vec<String> {
            embedded_siblings(&process, step)
                .iter()
                .flat_map(|f| &f.input_fields)
                .map(|f| f.key.clone())
                .collect()
        };
        assert_eq!(keys(process.element_index("A")), ["y"]);
        assert_eq!(keys(None), ["x", "y"], "the start form binds none of them");
        let siblings = embedded_siblings(&process, None);
        let project = Project::default();
        let defined = Definitions::new(&process, &project, &siblings).get("x").unwrap();
        assert_eq!((defined.kind.as_str(), defined.label.as_str()), ("number", "X"));
        assert_eq!(defined.source, "the form \"a\"");
    }

    #[test]
    fn the_label_form_js_gives_a_new_field_is_no_label() {
        let schema = serde_json::json!({"id": "escalate", "components": [
            {"type": "textarea", "key": "details", "label": "Text area"},
            {"type": "checklist", "key": "tags", "label": " checkbox GROUP "},
            {"type": "textfield", "key": "note", "label": "Note to the reviewer"}
        ]});
        let project = crate::project::from_request(&[schema], &[], &Default::default()).unwrap();
        let process = Process::default();
        let definitions = Definitions::new(&process, &project, &[]);
        let label = |key: &str| definitions.get(key).unwrap().label;
        assert_eq!(label("details"), "", "form-js labels a new text area so");
        assert_eq!(label("tags"), "");
        assert_eq!(label("note"), "Note to the reviewer");
        assert_eq!(definitions.get("details").unwrap().kind, "textarea", "the type still holds");
    }

    #[test]
    fn a_field_to_edit_is_defined_by_a_form_that_edits_it() {
        let shown = serde_json::json!({"id": "review", "components": [
            {"type": "textfield", "key": "guess", "label": "You said:", "readonly": true},
            {"type": "textfield", "key": "answer", "label": "The answer", "disabled": true}
        ]});
        let asked = serde_json::json!({"id": "ask", "components": [
            {"type": "textfield", "key": "guess", "label": "Your guess", "validate": {"required": true}}
        ]});
        let project = crate::project::from_request(&[shown, asked], &[], &Default::default()).unwrap();
        let process = Process::default();
        let definitions = Definitions::new(&process, &project, &[]);
        assert_eq!(definitions.get("guess").unwrap().label, "You said:", "the first form's, to show it");
        let edited = definitions.get_edited("guess").unwrap();
        assert_eq!((edited.label.as_str(), edited.required), ("Your guess", true));
        assert_eq!(definitions.get_edited("answer").unwrap().label, "The answer", "no form edits it");
    }

    #[test]
    fn a_context_a_script_or_an_output_mapping_stores_has_its_keys_as_paths() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
            <scriptTask id="s"><extensionElements><zeebe:script expression="={&quot;name&quot;: &quot;Ada&quot;, city: &quot;Paris&quot;}" resultVariable="customer"/></extensionElements></scriptTask>
            <serviceTask id="t"><extensionElements><zeebe:ioMapping><zeebe:output source="={total: 3}" target="order"/></zeebe:ioMapping></extensionElements></serviceTask>
            </process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let project = Project::default();
        assert_eq!(paths_below("customer", &process, &project, 8), ["customer.name", "customer.city"]);
        assert_eq!(paths_below("order", &process, &project, 8), ["order.total"]);
        let roots = PathRoots::new(&process, &project);
        assert!(roots.may_have_paths_below("customer") && roots.may_have_paths_below("order"));
    }

    #[test]
    fn dmn_types() {
        assert_eq!(kind_of("number", false).as_str(), "number");
        assert_eq!(kind_of("boolean", false).as_str(), "checkbox");
        assert_eq!(kind_of("string", true).as_str(), "select");
        assert_eq!(kind_of("string", false).as_str(), "textfield");
    }
}
