//! Where a process evaluates an expression or stores a value, as the reader found it: raw places and
//! the text written there, per element, plus the fields a Camunda 7 or Flowable step declares.
//!
//! These are plain data. The reader records them; the data-flow stage (`crate::flow::access`) turns
//! them into the variables each element reads and writes. Nothing here parses an expression or decides
//! a scope: that needs the whole process, and a reader that never fails must not guess at it.

use serde::{Deserialize, Serialize};

/// What the text of an [`Access`] is written in, which decides how it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// A Camunda 8 value: FEEL when it starts with `=`, else static text (with `{{ }}` template parts).
    Feel,
    /// A Camunda 7, Flowable or Activiti value: static text with `${...}` / `#{...}` (JUEL) parts.
    Juel,
    /// A standard BPMN text any engine may evaluate (a condition, a timer): FEEL when it starts with
    /// `=`, else JUEL parts.
    Either,
    /// A Camunda 7 / Flowable value that is JUEL when it holds `${...}` / `#{...}`, else a bare
    /// variable name (`camunda:collection="items"`).
    JuelOrName,
    /// A bare variable name (a target, a result variable, `camunda:in source`): read or written as is.
    Name,
}

/// The timer property a timer event definition's text sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// `timeDate`
    Date,
    /// `timeDuration`
    Duration,
    /// `timeCycle`
    Cycle,
}

/// A place a process evaluates an expression or stores a value. Which engine's vocabulary it came in
/// is the [`Access::dialect`]; the place is the meaning, shared where the engines agree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Place {
    /// `zeebe:input source`, `camunda:inputParameter`'s value (text, list, map, script).
    InputSource,
    /// `zeebe:input target`, `camunda:inputParameter name`: a variable local to the element.
    InputTarget,
    /// `zeebe:output source`, `camunda:outputParameter`'s value.
    OutputSource,
    /// `zeebe:output target`, `camunda:outputParameter name`.
    OutputTarget,
    /// A sequence flow's `conditionExpression`.
    Condition,
    /// A multi-instance activity's `completionCondition`.
    CompletionCondition,
    /// A multi-instance activity's `loopCardinality`.
    LoopCardinality,
    /// `zeebe:script expression`.
    Script,
    /// `zeebe:script` / `zeebe:calledDecision` / `camunda:resultVariable`, Flowable
    /// `resultVariableName`.
    ResultVariable,
    /// `zeebe:calledDecision decisionId`, `camunda:decisionRef`.
    DecisionId,
    /// `zeebe:loopCharacteristics inputCollection`, `camunda:collection`.
    LoopCollection,
    /// `zeebe:loopCharacteristics inputElement`, `camunda:elementVariable`: local to the element.
    LoopElement,
    /// `zeebe:loopCharacteristics outputCollection`.
    LoopOutputCollection,
    /// `zeebe:loopCharacteristics outputElement`.
    LoopOutputElement,
    /// `zeebe:taskDefinition type`.
    JobType,
    /// `zeebe:taskDefinition retries`.
    JobRetries,
    /// `zeebe:assignmentDefinition assignee`, `camunda:assignee`.
    Assignee,
    /// `candidateGroups` of either engine.
    CandidateGroups,
    /// `candidateUsers` of either engine.
    CandidateUsers,
    /// `zeebe:taskSchedule dueDate`, `camunda:dueDate`.
    DueDate,
    /// `zeebe:taskSchedule followUpDate`, `camunda:followUpDate`.
    FollowUpDate,
    /// `zeebe:priorityDefinition priority`, `camunda:priority`.
    Priority,
    /// `zeebe:calledElement processId`, a call activity's `calledElement`.
    CalledElement,
    /// `camunda:in source` / `sourceExpression`: read here, passed into the called process.
    CallInSource,
    /// `camunda:in target`: a variable of the called process, not of this one.
    CallInTarget,
    /// `camunda:out source` / `sourceExpression`: read in the called process, not in this one.
    CallOutSource,
    /// `camunda:out target`; `local` when `local="true"` keeps it in the call activity's scope.
    CallOutTarget {
        /// `local="true"`
        local: bool,
    },
    /// The `name` of the message the element refers to.
    MessageName,
    /// `zeebe:subscription correlationKey` of the message the element refers to.
    CorrelationKey,
    /// A timer event definition's text.
    Timer(Timer),
    /// A conditional event definition's `condition`.
    EventCondition,
    /// `errorCode` of the error the element refers to.
    ErrorCode,
    /// `escalationCode` of the escalation the element refers to.
    EscalationCode,
    /// `name` of the signal the element refers to.
    SignalName,
    /// `camunda:initiator` / `flowable:initiator` of a start event: the variable that receives the
    /// id of the user who started the process.
    Initiator,
    /// `camunda:errorCodeVariable`, `errorMessageVariable`, `escalationCodeVariable`: written.
    CaughtVariable,
    /// `zeebe:adHoc activeElementsCollection`.
    AdHocActiveElements,
    /// An ad-hoc sub-process's `completionCondition`.
    AdHocCompletionCondition,
    /// An ad-hoc sub-process's `cancelRemainingInstances`.
    AdHocCancelRemaining,
    /// `zeebe:adHoc outputCollection`.
    AdHocOutputCollection,
    /// `zeebe:adHoc outputElement`.
    AdHocOutputElement,
    /// `zeebe:property value`, by the property's name (connector configuration).
    Property(String),
    /// `zeebe:header value`, by the header's key (`resultVariable`, `resultExpression`, ...).
    Header(String),
    /// A field injection's expression (`camunda:field expression`, its `camunda:expression` child):
    /// a value the engine evaluates against the process's data and hands to the code that runs.
    Expression,
    /// `camunda:expression` / `flowable:expression` of a task or event definition, a listener's
    /// `expression`: code evaluated for its effect. A method called on a root names a bean
    /// (`${orderService.check(order)}`), not data; what it is passed is data.
    Implementation,
    /// `camunda:delegateExpression` / `flowable:delegateExpression` of a task or event definition, a
    /// listener's `delegateExpression`: resolves to the bean that runs (`#{svnService}`), not data.
    Delegate,
    /// `camunda:class` / `flowable:class` of a task or event definition, a listener's `class`: the
    /// Java class that runs. It reads nothing.
    DelegateClass,
    /// `camunda:formKey`, `flowable:formKey`.
    FormKey,
    /// A declared form field's default value or expression. (What a field writes is its
    /// [`DeclaredField::variable`], unless it is read-only.)
    FieldValue,
}

/// One place of an element and the text written there, as written (unescaped, untrimmed).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Access {
    /// Where it is.
    pub place: Place,
    /// How the text is read.
    pub dialect: Dialect,
    /// The text.
    pub expression: super::model::Text,
}

/// The type a declared form field says it has. In JSON, the type as written (`""` when none).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum FieldKind {
    /// `string`
    String,
    /// `long` (and Flowable's `integer`)
    Long,
    /// `double`
    Double,
    /// `boolean`
    Boolean,
    /// `date`
    Date,
    /// `enum`: one of [`DeclaredField::options`]
    Enum,
    /// No type given.
    #[default]
    Unspecified,
    /// Any other (custom) type, as written.
    Other(String),
}

impl FieldKind {
    /// The kind a `type` attribute names.
    pub fn parse(raw: &str) -> FieldKind {
        match raw.trim() {
            "" => FieldKind::Unspecified,
            "string" => FieldKind::String,
            "long" | "integer" | "int" => FieldKind::Long,
            "double" => FieldKind::Double,
            "boolean" => FieldKind::Boolean,
            "date" => FieldKind::Date,
            "enum" => FieldKind::Enum,
            other => FieldKind::Other(other.to_string()),
        }
    }

    /// The form-js component type a field of this kind becomes.
    pub(crate) fn form_js(&self) -> crate::formjs::ComponentType {
        use crate::formjs::ComponentType as T;
        match self {
            FieldKind::Long | FieldKind::Double => T::Number,
            FieldKind::Boolean => T::Checkbox,
            FieldKind::Date => T::Datetime,
            FieldKind::Enum => T::Select,
            _ => T::Textfield,
        }
    }

    /// The type's name (`""` when none was given).
    pub fn as_str(&self) -> &str {
        match self {
            FieldKind::String => "string",
            FieldKind::Long => "long",
            FieldKind::Double => "double",
            FieldKind::Boolean => "boolean",
            FieldKind::Date => "date",
            FieldKind::Enum => "enum",
            FieldKind::Unspecified => "",
            FieldKind::Other(other) => other,
        }
    }
}

impl From<String> for FieldKind {
    fn from(raw: String) -> Self {
        FieldKind::parse(&raw)
    }
}

impl From<FieldKind> for String {
    fn from(kind: FieldKind) -> Self {
        kind.as_str().to_string()
    }
}

/// One option of an enum field: `camunda:value id name`, `flowable:value id name`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FieldOption {
    /// The stored value.
    pub id: String,
    /// What the user sees.
    pub name: String,
}

/// A `camunda:constraint name config` of a field's `camunda:validation`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FieldConstraint {
    /// `required`, `readonly`, `minlength`, `max`, ...
    pub name: String,
    /// Its argument, `""` when none.
    pub config: String,
}

/// A field a Camunda 7 (`camunda:formField`) or Flowable/Activiti (`formProperty`) step declares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeclaredField {
    /// `id`.
    pub id: String,
    /// `label` (Camunda 7) or `name` (Flowable).
    pub label: String,
    /// `type`.
    #[schema(value_type = String)]
    pub kind: FieldKind,
    /// `defaultValue` (Camunda 7) or `default` (Flowable), as written.
    pub default: String,
    /// Enum options, in document order.
    pub options: Vec<FieldOption>,
    /// A `required` constraint, or `required="true"`.
    pub required: bool,
    /// A `readonly` constraint, or `writable="false"`.
    pub readonly: bool,
    /// `false` for Flowable's `readable="false"` (the value is not shown).
    pub readable: bool,
    /// The process variable it binds: Flowable's `variable`, else the `id`.
    pub variable: String,
    /// Flowable's `expression`, `""` when none.
    pub expression: String,
    /// Flowable's `datePattern`, `""` when none.
    pub date_pattern: String,
    /// Camunda 7 validation constraints, in document order.
    pub constraints: Vec<FieldConstraint>,
}

/// The form a Camunda 7 or Flowable step declares in its extension elements.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct DeclaredForm {
    /// `camunda:formKey` / `flowable:formKey` / `activiti:formKey`, trimmed; `""` when none.
    pub form_key: String,
    /// The fields, in document order.
    pub fields: Vec<DeclaredField>,
}
