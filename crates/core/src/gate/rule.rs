//! The gate's rules as a vocabulary: each refusal belongs to one, and a hand-written form that breaks a
//! rule gets a finding with the rule's code instead of a refusal.

use serde::Serialize;

/// A rule of the gate a form can break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A field asks for a secret (a password, a key, a card's security code).
    SecretField,
    /// An image, page or document is fetched from a URL built from what the user types, or an embedded
    /// page may lift its sandbox.
    DataLeak,
    /// A key or path form-js cannot bind (not a name, a reserved segment, past the bounds, missing).
    UnbindableKey,
    /// Two fields bind the same value, or one binds inside another's.
    DuplicateBinding,
    /// A component form-js cannot import: not an object, no type or an unknown one that binds
    /// nothing, a retired type, `components` that is not a list, groups nested too deep.
    InvalidComponent,
    /// A label that is not a text.
    InvalidLabel,
    /// A validation form-js would not enforce, or one no value can pass.
    InvalidValidation,
    /// A pattern that is not a regular expression a browser runs safely.
    InvalidPattern,
    /// Options that cannot be answered: none, empty, repeated, not `{label, value}` pairs, or from two
    /// sources at once.
    InvalidOptions,
    /// A default value the field cannot hold or its options do not offer.
    InvalidDefault,
    /// A condition, `readonly`/`disabled` or computed property that is not true/false or FEEL.
    InvalidExpression,
    /// A layout form-js does not know.
    InvalidLayout,
    /// A property of one component type that form-js does not accept as written.
    InvalidProperty,
    /// A text or HTML component whose markup a browser would run: a `<script>`, an event handler
    /// (`onerror=`), a `javascript:` link.
    UnsafeMarkup,
}

impl Rule {
    /// Every rule, in the order above.
    pub const ALL: [Rule; 14] = [
        Rule::SecretField,
        Rule::DataLeak,
        Rule::UnbindableKey,
        Rule::DuplicateBinding,
        Rule::InvalidComponent,
        Rule::InvalidLabel,
        Rule::InvalidValidation,
        Rule::InvalidPattern,
        Rule::InvalidOptions,
        Rule::InvalidDefault,
        Rule::InvalidExpression,
        Rule::InvalidLayout,
        Rule::InvalidProperty,
        Rule::UnsafeMarkup,
    ];

    /// The snake_case code, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::SecretField => "secret_field",
            Rule::DataLeak => "data_leak",
            Rule::UnbindableKey => "unbindable_key",
            Rule::DuplicateBinding => "duplicate_binding",
            Rule::InvalidComponent => "invalid_component",
            Rule::InvalidLabel => "invalid_label",
            Rule::InvalidValidation => "invalid_validation",
            Rule::InvalidPattern => "invalid_pattern",
            Rule::InvalidOptions => "invalid_options",
            Rule::InvalidDefault => "invalid_default",
            Rule::InvalidExpression => "invalid_expression",
            Rule::InvalidLayout => "invalid_layout",
            Rule::InvalidProperty => "invalid_property",
            Rule::UnsafeMarkup => "unsafe_markup",
        }
    }

    /// What the rule asks of a form, in one sentence.
    pub fn summary(self) -> &'static str {
        match self {
            Rule::SecretField => {
                "No field may ask for a secret: forms are stored and read by people and agents."
            }
            Rule::DataLeak => {
                "No image, page or document may be fetched from a URL built from what the user types."
            }
            Rule::UnbindableKey => "Every input binds a key or path form-js can bind.",
            Rule::DuplicateBinding => {
                "Each value is bound by one field: no key may equal, contain or extend another."
            }
            Rule::InvalidComponent => "Every component is an object with a type form-js can import.",
            Rule::InvalidLabel => "A label is a text.",
            Rule::InvalidValidation => "Every validation is one form-js enforces and some value can pass.",
            Rule::InvalidPattern => "A pattern is a regular expression a browser runs safely.",
            Rule::InvalidOptions => "A choice field offers options that can be answered, from one source.",
            Rule::InvalidDefault => "A default value is one the field can hold and its options offer.",
            Rule::InvalidExpression => {
                "Conditions, readonly, disabled and computed properties are true/false or FEEL starting with \"=\"."
            }
            Rule::InvalidLayout => "A layout is one form-js knows.",
            Rule::InvalidProperty => "A component's own properties are written as form-js reads them.",
            Rule::UnsafeMarkup => {
                "A text or HTML component holds no script, event handler or javascript: link a browser would run."
            }
        }
    }
}

/// One rule a form breaks, at one component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// The rule.
    pub rule: Rule,
    /// The binding path (or key, or a container's path) of the component, where it has one.
    pub key: Option<String>,
    /// What is wrong and what to do, in one sentence.
    pub message: String,
}
