//! The finding codes: one vocabulary for what the contract check, the gate and the process findings
//! say, each code with its severity's meaning and a one-line summary for CI reports.

use serde::Serialize;

use crate::gate::Rule;

/// What a finding is about: a stable code, each with its severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The process reads a variable after the step that nothing else sets, and no field supplies it.
    MissingSupply,
    /// A field's value is not the kind of value the process reads it as.
    TypeConflict,
    /// A condition names a value no option has or a required checkbox cannot give (`false`), or an
    /// option no condition of a gateway matches.
    ValueConflict,
    /// An optional field that is null when empty is compared without a check that it is set.
    OptionalButRead,
    /// An editable field replaces a value set before the step that a later step reads.
    OverwritesKnown,
    /// A key nothing reads and no other form or step uses.
    UnusedKey,
    /// A rule of the gate the form breaks (`secret_field`, `invalid_validation`, ...).
    Gate(Rule),
    /// The process reads a name that nothing in the process or its project writes.
    UnwrittenRead,
    /// The process reads a name that looks like a literal written without its quotes (`P1D`).
    UnquotedLiteral,
    /// The process reads a name one letter away from a name it writes.
    MisspelledVariable,
    /// A decision's rules use an input as another type than the one it declares.
    DecisionTypeMismatch,
    /// Two forms of the project have one id.
    DuplicateFormId,
    /// A step binds a form the project does not hold.
    FormNotFound,
    /// A step binds a form that cannot be read (unreadable, too large, not JSON, not a form).
    UnreadableForm,
}

impl From<Rule> for Code {
    fn from(rule: Rule) -> Code {
        Code::Gate(rule)
    }
}

/// Serialised as its snake_case name, whatever it is.
impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// In the API's schema: a string, one of every code's name.
impl utoipa::PartialSchema for Code {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let names: Vec<&str> = Code::all().into_iter().map(Code::as_str).collect();
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(names))
            .description(Some("What a finding is about: a stable code."))
            .into()
    }
}

impl utoipa::ToSchema for Code {}

impl Code {
    /// Every code the contract check and the process findings use (the gate's rules are
    /// [`Rule::ALL`]).
    const OWN: [Code; 13] = [
        Code::MissingSupply,
        Code::TypeConflict,
        Code::ValueConflict,
        Code::OptionalButRead,
        Code::OverwritesKnown,
        Code::UnusedKey,
        Code::UnwrittenRead,
        Code::UnquotedLiteral,
        Code::MisspelledVariable,
        Code::DecisionTypeMismatch,
        Code::DuplicateFormId,
        Code::FormNotFound,
        Code::UnreadableForm,
    ];

    /// Every code, the contract's first, then the gate's, then the process's.
    pub fn all() -> Vec<Code> {
        let mut all: Vec<Code> = Code::OWN[..6].to_vec();
        all.extend(Rule::ALL.iter().map(|r| Code::from(*r)));
        all.extend_from_slice(&Code::OWN[6..]);
        all
    }

    /// The snake_case code, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::MissingSupply => "missing_supply",
            Code::TypeConflict => "type_conflict",
            Code::ValueConflict => "value_conflict",
            Code::OptionalButRead => "optional_but_read",
            Code::OverwritesKnown => "overwrites_known",
            Code::UnusedKey => "unused_key",
            Code::UnwrittenRead => "unwritten_read",
            Code::UnquotedLiteral => "unquoted_literal",
            Code::MisspelledVariable => "misspelled_variable",
            Code::DecisionTypeMismatch => "decision_type_mismatch",
            Code::DuplicateFormId => "duplicate_form_id",
            Code::FormNotFound => "form_not_found",
            Code::UnreadableForm => "unreadable_form",
            Code::Gate(rule) => rule.as_str(),
        }
    }

    /// What the code is about, in one sentence (a CI report's rule description).
    pub fn summary(self) -> &'static str {
        match self {
            Code::MissingSupply => {
                "The process reads a variable after the step that nothing else sets, and no field supplies it."
            }
            Code::TypeConflict => "A field's value is not the kind of value the process reads it as.",
            Code::ValueConflict => {
                "A condition names a value no option has or a required checkbox cannot give, or an option no flow of a \
                 gateway without a default takes."
            }
            Code::OptionalButRead => {
                "An optional field that is null when left empty is compared without a check that it is set."
            }
            Code::OverwritesKnown => {
                "An editable field replaces a value set before the step that a later step reads again."
            }
            Code::UnusedKey => {
                "A key nothing reads and no other form uses, while the process has a close variable."
            }
            Code::UnwrittenRead => {
                "The process reads a name that nothing in the process or its project writes."
            }
            Code::UnquotedLiteral => {
                "The process reads a name that looks like a literal written without its quotes."
            }
            Code::MisspelledVariable => "The process reads a name one letter away from a name it writes.",
            Code::DecisionTypeMismatch => {
                "A decision's rules use an input as another type than the one it declares."
            }
            Code::DuplicateFormId => "Two forms of the project have one id; a step binds only one of them.",
            Code::FormNotFound => "A step binds a form the project does not hold.",
            Code::UnreadableForm => "A step binds a form that cannot be read as a form-js schema.",
            Code::Gate(rule) => rule.summary(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_own_name_and_a_sentence() {
        let all = Code::all();
        let names: std::collections::HashSet<&str> = all.iter().map(|c| c.as_str()).collect();
        assert_eq!(names.len(), all.len());
        for code in all {
            let serialised = serde_json::to_value(code).unwrap();
            assert_eq!(serialised, code.as_str(), "serde and as_str agree");
            let summary = code.summary();
            assert!(summary.ends_with('.') && !summary.contains(". "), "one sentence: {summary}");
        }
    }
}
