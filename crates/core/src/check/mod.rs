//! The contract check: does a form work with its process? Every form, generated or hand-written, is
//! checked against the step's contract ([`crate::flow::contract()`]), and what does not fit is a
//! [`Finding`]: a stable code, a severity, the field, the element and expression that cause it, and
//! one sentence that says what will happen and what to do.
//!
//! - `missing_supply` (error): the process reads a variable after the step that nothing else sets,
//!   and no field supplies it, or every field that does is hidden by a condition on the form's own
//!   fields where the process reads it (`hidden.rs`: form-js submits nothing for a hidden field).
//! - `type_conflict` (error): a field's value is of another kind than a FEEL condition or a decision
//!   input after the step reads it as (text compared with a number, a checkbox with a string, …).
//! - `value_conflict` (error): a condition compares a choice field with a value none of its options
//!   has (a branch that can never be taken), or an option matches no flow of a gateway that has no
//!   default flow.
//! - `optional_but_read` (warning): a field that is null when left empty is optional, and a condition
//!   after the step compares it without checking that it is set.
//! - `overwrites_known` (warning): an editable field replaces a value an earlier step set and a later
//!   one reads again.
//! - `unused_key` (warning where the process has a close variable, info otherwise): a key nothing
//!   reads and no other form or step uses.
//!
//! It knows the contract and the form's fields; nothing of HTTP, models or how the form was made.

mod binding;
mod bound;
mod code;
mod form_step;
mod gate;
mod hidden;
mod process;
mod project;
mod sentences;

pub use binding::{FormRef, deployed};
pub(crate) use binding::{bound_forms, has_forms};
pub use bound::{BoundForm, BoundStep, bound_steps, lint};
pub use code::Code;
pub use form_step::FormStep;
pub use gate::gate_findings;
pub use process::process_findings;
pub use project::{Missing, missing_form, project_findings, review_at_step};

use std::collections::HashSet;

use serde::Serialize;

use crate::flow::contract::{Contract, Expected, Outcome, Site};
use crate::project::{FormField, ProjectForm};

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The process will misbehave: a null condition, no flow taken, a branch never taken.
    Error,
    /// Likely a mistake.
    Warning,
    /// Worth knowing.
    Info,
}

/// One thing a form does not do as its process needs.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// What it is about.
    pub code: Code,
    /// How much it matters.
    pub severity: Severity,
    /// The field's key (or the variable to add, for `missing_supply`).
    pub key: Option<String>,
    /// The field's label, where the form has the field.
    pub label: Option<String>,
    /// The element whose expression causes it.
    pub element_id: Option<String>,
    /// That expression, as written.
    pub expression: Option<String>,
    /// What will happen and what to do, in one sentence.
    pub message: String,
}

impl Finding {
    fn new(
        code: Code,
        severity: Severity,
        field: Option<&FormField>,
        site: Option<&Site>,
        message: String,
    ) -> Finding {
        Finding {
            code,
            severity,
            key: field.map(|f| f.key.clone()),
            label: field.map(|f| f.label.clone()).filter(|l| !l.is_empty()),
            element_id: site.map(|s| s.element_id.to_string()),
            expression: site.map(|s| s.expression.to_string()),
            message,
        }
    }
}

/// What else the check needs to know of the process and project.
#[derive(Debug, Clone, Copy)]
pub struct Around<'a> {
    /// The process's variable names (the contract's `variables`).
    pub variables: &'a [&'a str],
    /// The keys other forms of the project (and other steps' embedded forms) bind.
    pub other_keys: &'a HashSet<String>,
}

/// The findings of `form` against `contract`, errors first, then in the form's order.
pub fn findings(form: &ProjectForm, contract: &Contract, around: Around<'_>) -> Vec<Finding> {
    let fields: Vec<&FormField> = form.input_fields.iter().collect();
    let mut out = Vec::new();
    missing_supply(&fields, contract, around, &mut out);
    for field in &fields {
        type_conflicts(field, contract, &mut out);
        value_conflicts(field, contract, &mut out);
        ticked_only(field, contract, &mut out);
        optional_but_read(field, contract, &mut out);
        overwrites_known(field, contract, &mut out);
        unused_key(field, contract, around, &mut out);
    }
    out.sort_by_key(|f| f.severity);
    out
}

/// Whether a field submits a value for `name` (the root variable): its key is the name or a path
/// below it. A disabled field submits nothing.
fn supplies(field: &FormField, name: &str) -> bool {
    !field.disabled
        && (field.key == name || field.key.strip_prefix(name).is_some_and(|rest| rest.starts_with('.')))
}

fn missing_supply(fields: &[&FormField], contract: &Contract, around: Around<'_>, out: &mut Vec<Finding>) {
    let editable = hidden::editable(fields);
    for need in &contract.must_supply {
        let suppliers: Vec<&&FormField> = fields.iter().filter(|f| supplies(f, &need.name)).collect();
        let hidden: Vec<(&FormField, &str)> = suppliers
            .iter()
            .filter_map(|f| Some((**f, hidden::hidden_where_read(f, need, &editable)?)))
            .collect();
        if !suppliers.is_empty() && hidden.len() == suppliers.len() {
            let (field, hide) = hidden[0];
            let message = sentences::hidden_supply(need, field, hide);
            let mut finding =
                Finding::new(Code::MissingSupply, Severity::Error, Some(field), Some(&need.site), message);
            finding.key = Some(need.path.clone());
            out.push(finding);
            continue;
        }
        if !suppliers.is_empty() {
            continue;
        }
        // a field that binds nothing and looks like the one meant
        let near = fields.iter().find(|f| {
            !is_used(&f.key, contract, around)
                && crate::words::fit::close_variable(&f.key, &[need.path.as_str(), need.name.as_str()])
                    .is_some()
        });
        let message = sentences::missing_supply(need, contract, near.copied());
        let mut finding = Finding::new(Code::MissingSupply, Severity::Error, None, Some(&need.site), message);
        finding.key = Some(need.path.clone());
        out.push(finding);
    }
}

/// The kind of value a field submits; `None` where it cannot be told (options from a variable, a
/// computed or custom field).
pub(crate) fn value_kind(field: &FormField) -> Option<ValueKind> {
    use crate::formjs::ComponentType as T;
    Some(match field.component_type() {
        Some(T::Textfield | T::Textarea | T::Datetime) => ValueKind::Text,
        Some(T::Number) if field.as_text => ValueKind::Text,
        Some(T::Number) => ValueKind::Number,
        Some(T::Checkbox) => ValueKind::Boolean,
        Some(T::Checklist | T::Taglist) => ValueKind::List,
        Some(T::Select | T::Radio) if !field.dynamic_options && !field.options.is_empty() => {
            let all = |test: fn(&serde_json::Value) -> bool| field.options.iter().all(|o| test(&o.value));
            if all(serde_json::Value::is_string) {
                ValueKind::Text
            } else if all(serde_json::Value::is_number) {
                ValueKind::Number
            } else if all(serde_json::Value::is_boolean) {
                ValueKind::Boolean
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

/// The kind of value a field submits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueKind {
    Text,
    Number,
    Boolean,
    List,
}

impl ValueKind {
    fn fits(self, expected: Expected) -> bool {
        matches!(
            (self, expected),
            (ValueKind::Text, Expected::Text)
                | (ValueKind::Number, Expected::Number)
                | (ValueKind::Boolean, Expected::Boolean)
        )
    }
}

fn type_conflicts(field: &FormField, contract: &Contract, out: &mut Vec<Finding>) {
    let Some(kind) = value_kind(field) else { return };
    if field.disabled || field.in_list {
        return;
    }
    let reads: Vec<&crate::flow::contract::TypedRead> =
        contract.typed.iter().filter(|t| t.path == field.key).collect();
    // an expression that compares the value with kinds it may be (`= x = true or x = "true"`) takes
    // the field's kind; the first expression that takes none of them says enough
    let conflict = reads.iter().find(|read| {
        !reads
            .iter()
            .filter(|other| {
                other.site.element_id == read.site.element_id && other.site.expression == read.site.expression
            })
            .any(|other| kind.fits(other.expected))
    });
    if let Some(read) = conflict {
        let message = sentences::type_conflict(field, kind, read);
        out.push(Finding::new(Code::TypeConflict, Severity::Error, Some(field), Some(&read.site), message));
    }
}

/// The static option values of a choice field that submits text.
fn option_values(field: &FormField) -> Option<Vec<&str>> {
    if !matches!(field.kind.as_str(), "select" | "radio") || value_kind(field) != Some(ValueKind::Text) {
        return None;
    }
    Some(field.options.iter().filter_map(|o| o.value.as_str()).collect())
}

fn value_conflicts(field: &FormField, contract: &Contract, out: &mut Vec<Finding>) {
    if field.disabled || field.in_list {
        return;
    }
    let Some(values) = option_values(field) else { return };
    let reads: Vec<&crate::flow::contract::LiteralRead> =
        contract.literals.iter().filter(|l| l.path == field.key).collect();
    // `x = "a"` needs "a" among the options; `x in ["a", "b"]` needs one of them
    let unmatched: Vec<&&crate::flow::contract::LiteralRead> =
        reads.iter().filter(|r| !r.values.iter().any(|v| values.contains(&v.as_str()))).collect();
    if !reads.is_empty() && unmatched.len() == reads.len() {
        // no option is any value the process tests for: one mistake, said once
        let message = sentences::no_option_matches(field, &values, &reads);
        out.push(Finding::new(
            Code::ValueConflict,
            Severity::Error,
            Some(field),
            Some(&reads[0].site),
            message,
        ));
        return;
    }
    for read in unmatched {
        let message = sentences::never_taken(field, &values, read);
        out.push(Finding::new(Code::ValueConflict, Severity::Error, Some(field), Some(&read.site), message));
    }
    for gateway in contract.exhaustive.iter().filter(|g| g.path == field.key) {
        for value in values.iter().filter(|v| !gateway.values.iter().any(|g| g == *v)) {
            let message = sentences::no_flow_for(field, value, gateway);
            out.push(Finding::new(
                Code::ValueConflict,
                Severity::Error,
                Some(field),
                Some(&gateway.site),
                message,
            ));
        }
    }
}

/// A required checkbox that a flow after the step takes on `false` (`= not(x)`, a default flow beside
/// `= x`): form-js submits a required checkbox only ticked, so that flow is never taken. Said once, at
/// the first such flow.
fn ticked_only(field: &FormField, contract: &Contract, out: &mut Vec<Finding>) {
    let checkbox = field.component_type() == Some(crate::formjs::ComponentType::Checkbox);
    if !checkbox || !field.required || field.readonly || field.disabled || field.in_list {
        return;
    }
    if let Some(test) = contract.false_tests.iter().find(|t| t.path == field.key) {
        let message = sentences::ticked_only(field, test);
        out.push(Finding::new(Code::ValueConflict, Severity::Error, Some(field), Some(&test.site), message));
    }
}

/// Whether a field left empty submits null (number, select, radio, datetime).
fn null_when_empty(field: &FormField) -> bool {
    matches!(field.kind.as_str(), "number" | "select" | "radio" | "datetime")
}

fn optional_but_read(field: &FormField, contract: &Contract, out: &mut Vec<Finding>) {
    if field.required || field.readonly || field.disabled || field.in_list || !null_when_empty(field) {
        return;
    }
    let read = contract.typed.iter().find(|t| {
        t.path == field.key
            && t.orders
            && matches!(t.site.outcome, Outcome::NoFlow | Outcome::DefaultFlow)
            && value_kind(field).is_some_and(|k| k.fits(t.expected))
            && !t.checked
    });
    if let Some(read) = read {
        let message = sentences::optional_but_read(field, read);
        out.push(Finding::new(
            Code::OptionalButRead,
            Severity::Warning,
            Some(field),
            Some(&read.site),
            message,
        ));
    }
}

fn overwrites_known(field: &FormField, contract: &Contract, out: &mut Vec<Finding>) {
    if field.readonly || field.disabled || field.in_list {
        return;
    }
    let root = field.key.split('.').next().unwrap_or(&field.key);
    let known = contract.known_before.iter().find(|k| k.name == root && k.only_before);
    if let Some((known, site)) = known.and_then(|k| Some((k, k.read_again.as_ref()?))) {
        let message = sentences::overwrites_known(field, known, site);
        out.push(Finding::new(Code::OverwritesKnown, Severity::Warning, Some(field), Some(site), message));
    }
}

/// Whether anything reads or uses the field's key: the process (any read or variable), or another
/// form of the project.
fn is_used(key: &str, contract: &Contract, around: Around<'_>) -> bool {
    let root = key.split('.').next().unwrap_or(key);
    contract.read_anywhere.contains(root)
        || contract.read_anywhere.contains(key)
        || around.variables.iter().any(|v| *v == root || *v == key)
        || around.other_keys.contains(key)
        || around.other_keys.iter().any(|k| k.split('.').next() == Some(root))
}

fn unused_key(field: &FormField, contract: &Contract, around: Around<'_>, out: &mut Vec<Finding>) {
    // a read-only field shows a value, and one known before the step is shown or corrected
    let root = field.key.split('.').next().unwrap_or(&field.key);
    if field.readonly
        || field.disabled
        || is_used(&field.key, contract, around)
        || contract.known_before.iter().any(|k| k.name == root)
    {
        return;
    }
    // a key nothing reads is often kept on purpose (a comment for the record); only one that looks
    // like a variable the process does use is likely a mistake
    if let Some(close) = crate::words::fit::close_variable(&field.key, around.variables) {
        let message = sentences::unused_key(field, close);
        out.push(Finding::new(Code::UnusedKey, Severity::Warning, Some(field), None, message));
    }
}

/// What the check of one step's forms needs, worked out once from the process and its project: the
/// step's contract, the process's variables and the keys other forms bind. A generation builds it
/// while the process is at hand and checks the answer with it later, without reading anything again.
#[derive(Debug, Clone, Default)]
pub struct StepCheck {
    contract: Contract,
    variables: Vec<String>,
    /// The keys of every other form of the project, with that form's id ("" when it has none).
    other_forms: Vec<(String, Vec<String>)>,
    /// The keys of the embedded forms of the process's other steps.
    linked_keys: HashSet<String>,
    /// The form id the step binds ("" for none).
    own_id: String,
}

impl StepCheck {
    /// The check for the element at `target` of `process` (none: the start form).
    pub fn new(
        process: &crate::bpmn::Process,
        target: Option<usize>,
        project: &crate::project::Project,
    ) -> Self {
        Self::from_contract(process, target, project, crate::flow::contract(process, target, project))
    }

    /// [`StepCheck::new`] with the step's contract read already.
    pub fn from_contract(
        process: &crate::bpmn::Process,
        target: Option<usize>,
        project: &crate::project::Project,
        contract: Contract,
    ) -> Self {
        let variables = process.variables().into_iter().map(str::to_string).collect();
        let own_id = target.map(|i| process.elements[i].form_id.to_string()).unwrap_or_default();
        let other_forms = project
            .forms
            .iter()
            .map(|f| (f.id.clone(), f.input_fields.iter().map(|f| f.key.clone()).collect()))
            .collect();
        let mut linked_keys = HashSet::new();
        for (_, e) in crate::stop::until_stopped(
            process.elements.iter().enumerate().filter(|(i, _)| Some(*i) != target),
        ) {
            if let Some(linked) = process.linked_form(e)
                && let Ok(schema) = serde_json::from_str(&linked.body)
                && let Ok(f) = ProjectForm::read(schema, String::new())
            {
                linked_keys.extend(f.input_fields.iter().map(|f| f.key.clone()));
            }
        }
        StepCheck { contract, variables, other_forms, linked_keys, own_id }
    }

    /// The findings of `form`: errors first, then in the form's order.
    pub fn findings(&self, form: &ProjectForm) -> Vec<Finding> {
        let mut other_keys = self.linked_keys.clone();
        for (id, keys) in &self.other_forms {
            // the project's copy of this very form (by its own id or the one the step binds) is not another form
            if *id != form.id && (id.is_empty() || *id != self.own_id) {
                other_keys.extend(keys.iter().cloned());
            }
        }
        let variables: Vec<&str> = self.variables.iter().map(String::as_str).collect();
        findings(form, &self.contract, Around { variables: &variables, other_keys: &other_keys })
    }

    /// Whether anything around the step has a use for a field bound to a key: the process reads or
    /// names it (or its root), another form of the project binds it, or its value is known before
    /// the step. The project's keys are gathered once, for every key asked about.
    pub fn key_in_use(&self) -> impl Fn(&str) -> bool + '_ {
        let mut other_keys = self.linked_keys.clone();
        other_keys.extend(self.other_forms.iter().flat_map(|(_, keys)| keys.iter().cloned()));
        let variables: Vec<&str> = self.variables.iter().map(String::as_str).collect();
        move |key| {
            let root = key.split('.').next().unwrap_or(key);
            is_used(key, &self.contract, Around { variables: &variables, other_keys: &other_keys })
                || self.contract.known_before.iter().any(|k| k.name == root)
        }
    }

    /// The keys [`StepCheck::key_in_use`] accepts as they are (not those under a used root), sorted:
    /// what the process reads or names, what other forms bind, what is known before the step.
    pub fn keys_in_use(&self) -> Vec<String> {
        let mut keys: Vec<String> = (self.contract.read_anywhere.iter())
            .chain(&self.variables)
            .chain(&self.linked_keys)
            .chain(self.other_forms.iter().flat_map(|(_, keys)| keys))
            .cloned()
            .chain(self.contract.known_before.iter().map(|k| k.name.clone()))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// The findings of a form-js schema the gate accepted; none when it holds no form to read.
    pub fn of_schema(&self, schema: &serde_json::Value) -> Vec<Finding> {
        match ProjectForm::read(schema.clone(), String::new()) {
            Ok(form) => self.findings(&form),
            Err(_) => Vec::new(),
        }
    }
}

/// The findings of `form` for the element at `target` of `process` (none: the start form), with the
/// process's project: the contract of the step, then the check.
pub(crate) fn check_step(
    process: &crate::bpmn::Process,
    target: Option<usize>,
    project: &crate::project::Project,
    form: &ProjectForm,
) -> Vec<Finding> {
    StepCheck::new(process, target, project).findings(form)
}

/// Leaves out the warnings a finding already says, word for word (the gate's sentence on a key
/// nothing uses is also the `unused_key` finding's).
pub fn without_repeats(warnings: &mut Vec<String>, findings: &[Finding]) {
    warnings.retain(|w| !findings.iter().any(|f| f.message == *w));
}

/// The step of `process` that binds the form with this id (`zeebe:formDefinition formId`, a form
/// key, or an embedded form's id), if one does.
pub(crate) fn step_binding(process: &crate::bpmn::Process, form_id: &str) -> Option<usize> {
    steps_binding(process, form_id).into_iter().next()
}

/// At most this many steps binding one form are checked (each is a contract of its own).
pub const MOST_BINDING_STEPS: usize = 64;

/// Every step of `process` that binds the form with this id, in document order (at most
/// [`MOST_BINDING_STEPS`]): a form shared by several steps is checked at each.
pub fn steps_binding(process: &crate::bpmn::Process, form_id: &str) -> Vec<usize> {
    let form_id = form_id.trim();
    if form_id.is_empty() {
        return Vec::new();
    }
    let binds = |e: &crate::bpmn::Element| {
        e.form_id == form_id || e.form_id.strip_prefix(crate::bpmn::LINKED_FORM_PREFIX) == Some(form_id)
    };
    process
        .elements
        .iter()
        .enumerate()
        .filter(|(_, e)| binds(e))
        .map(|(i, _)| i)
        .take(MOST_BINDING_STEPS)
        .collect()
}

/// The findings of `form` at every step that binds it, each once, errors first.
pub(crate) fn check_bound_steps(
    process: &crate::bpmn::Process,
    project: &crate::project::Project,
    form: &ProjectForm,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for step in steps_binding(process, &form.id) {
        for f in check_step(process, Some(step), project, form) {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out.sort_by_key(|f| f.severity);
    out
}
