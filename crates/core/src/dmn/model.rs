//! What formgen keeps of a DMN file: its decisions, each with the data it reads and the result it
//! produces. Rules are not kept (formgen drafts forms; it does not evaluate decisions), except the
//! string literals the rules write into an output: those are the values a result can take.
//!
//! Everything serialises (camelCase) for the outline's JSON and the page's data panel.

use serde::{Serialize, Serializer};

/// The decisions of one DMN document, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decisions {
    /// Every `decision` of the `definitions`, document order.
    pub decisions: Vec<Decision>,
    /// Where reading stopped early (a truncated or malformed file): the byte offset in the decoded text
    /// of the break. `None` when the document was read to its end.
    pub break_at: Option<u64>,
}

impl Decisions {
    /// The first decision with this id.
    pub fn decision(&self, id: &str) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.id == id)
    }
}

/// One DMN `decision`: a decision table or a literal expression.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// `id`: what `zeebe:calledDecision decisionId` (Camunda 8) or `camunda:decisionRef` (Camunda 7) names.
    pub id: String,
    /// `name`, trimmed; `""` when absent.
    pub name: String,
    /// How the table's matching rules make the result. [`HitPolicy::Unique`] (the DMN default) for a
    /// table without one and for a literal expression.
    pub hit_policy: HitPolicy,
    /// The table's inputs, document order. Empty for a literal expression.
    pub inputs: Vec<DecisionInput>,
    /// The table's outputs, document order; for a literal expression its `variable` (one output, or
    /// none when the decision names no variable).
    pub outputs: Vec<DecisionOutput>,
    /// A literal-expression decision's FEEL text, trimmed; `None` for a decision table.
    pub literal_expression: Option<String>,
    /// The ids of the decisions this one requires (`informationRequirement/requiredDecision@href`, the
    /// part after `#`), document order: their results are inputs of this one, not process variables.
    pub required_decisions: Vec<String>,
}

impl Decision {
    /// The FEEL expressions whose variables the decision reads from its caller: every input's
    /// expression and a literal expression's text, document order, blanks left out. (The names that
    /// are results of [`Decision::required_decisions`] are not the caller's; the caller of this
    /// function tells them apart.)
    pub fn expressions(&self) -> impl Iterator<Item = &str> {
        self.inputs
            .iter()
            .map(|i| i.expression.as_str())
            .chain(self.literal_expression.as_deref())
            .filter(|e| !e.is_empty())
    }
}

/// A decision table's hit policy (`decisionTable@hitPolicy`, with `@aggregation` for `COLLECT`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HitPolicy {
    /// `UNIQUE`: at most one rule matches (the default).
    #[default]
    Unique,
    /// `FIRST`: the first matching rule.
    First,
    /// `PRIORITY`: the matching rule whose output value comes first among the allowed values.
    Priority,
    /// `ANY`: several may match, all with the same output.
    Any,
    /// `COLLECT`: every matching rule, or their aggregation.
    Collect(Option<Aggregation>),
    /// `RULE ORDER`: every matching rule, in rule order.
    RuleOrder,
    /// `OUTPUT ORDER`: every matching rule, ordered by output value priority.
    OutputOrder,
}

impl HitPolicy {
    /// The policy an attribute value names (case-insensitive, `RULE_ORDER` accepted for `RULE ORDER`);
    /// `None` for anything else.
    pub fn parse(hit_policy: &str, aggregation: Option<&str>) -> Option<HitPolicy> {
        let norm = hit_policy.trim().to_ascii_uppercase().replace('_', " ");
        Some(match norm.as_str() {
            "UNIQUE" => HitPolicy::Unique,
            "FIRST" => HitPolicy::First,
            "PRIORITY" => HitPolicy::Priority,
            "ANY" => HitPolicy::Any,
            "COLLECT" => HitPolicy::Collect(aggregation.and_then(Aggregation::parse)),
            "RULE ORDER" => HitPolicy::RuleOrder,
            "OUTPUT ORDER" => HitPolicy::OutputOrder,
            _ => return None,
        })
    }

    /// The DMN spelling (`COLLECT` without its aggregation; see [`HitPolicy::label`]).
    pub fn as_str(self) -> &'static str {
        match self {
            HitPolicy::Unique => "UNIQUE",
            HitPolicy::First => "FIRST",
            HitPolicy::Priority => "PRIORITY",
            HitPolicy::Any => "ANY",
            HitPolicy::Collect(_) => "COLLECT",
            HitPolicy::RuleOrder => "RULE ORDER",
            HitPolicy::OutputOrder => "OUTPUT ORDER",
        }
    }

    /// The DMN spelling with the aggregation: `COLLECT MAX`, `FIRST`.
    pub fn label(self) -> String {
        match self {
            HitPolicy::Collect(Some(a)) => format!("COLLECT {}", a.as_str()),
            other => other.as_str().to_string(),
        }
    }
}

/// Serialises as [`HitPolicy::label`].
impl Serialize for HitPolicy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.label())
    }
}

/// How `COLLECT` folds the matching rules' outputs into one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// `SUM`
    Sum,
    /// `MIN`
    Min,
    /// `MAX`
    Max,
    /// `COUNT`
    Count,
}

impl Aggregation {
    /// The aggregation an attribute value names (case-insensitive); `None` for anything else.
    pub fn parse(value: &str) -> Option<Aggregation> {
        Some(match value.trim().to_ascii_uppercase().as_str() {
            "SUM" => Aggregation::Sum,
            "MIN" => Aggregation::Min,
            "MAX" => Aggregation::Max,
            "COUNT" => Aggregation::Count,
            _ => return None,
        })
    }

    /// The DMN spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Aggregation::Sum => "SUM",
            Aggregation::Min => "MIN",
            Aggregation::Max => "MAX",
            Aggregation::Count => "COUNT",
        }
    }
}

/// One input column of a decision table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionInput {
    /// `input@label`, trimmed; `""` when absent.
    pub label: String,
    /// The FEEL text of `inputExpression/text`, trimmed, as written: reading the variables in it is the
    /// FEEL reader's job.
    pub expression: String,
    /// `inputExpression@typeRef` (`string`, `number`, `boolean`, `date`, ...), trimmed; `""` when absent.
    pub type_ref: String,
    /// The values `inputValues` allows, when it is a plain enumeration (see [`super::allowed_values`]).
    pub allowed_values: Vec<String>,
    /// Whether a rule tests the input as a list (`list contains(?, "x")`, `"x" in purchases`): then
    /// the value is a list, whatever `type_ref` declares. Left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub used_as_list: bool,
    /// The texts the rules test the input against, when every rule's entry for it lists texts
    /// (`"Fall"`, `"Spring","Summer"`): the values the decision tells apart, which a form can offer.
    /// Empty when any entry takes any value (`-`) or tests otherwise (`not("x")`, `> 5`), since a
    /// catch-all means the input takes more values than the rules name (a watch list of names), and
    /// beyond [`RULE_VALUES`]. For an input the rules test as a list, the texts they look for in it
    /// (`list contains(?, "x")`, `"x" in ?`) whatever else they say: the tags it may hold. Left out
    /// of the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rule_values: Vec<String>,
}

/// Most values [`DecisionInput::rule_values`] holds: more are no choice a form offers.
pub const RULE_VALUES: usize = 30;

/// One output column of a decision table (or a literal expression's variable).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionOutput {
    /// `output@name`: the key of this output in the result (a context when there are several outputs).
    pub name: String,
    /// `output@label`, trimmed; `""` when absent.
    pub label: String,
    /// `output@typeRef`, trimmed; `""` when absent.
    pub type_ref: String,
    /// The values `outputValues` allows, when it is a plain enumeration (see [`super::allowed_values`]).
    pub allowed_values: Vec<String>,
    /// The distinct string literals the rules write into this output, in rule order: the values a
    /// result can take when `outputValues` does not list them.
    pub rule_values: Vec<String>,
}
