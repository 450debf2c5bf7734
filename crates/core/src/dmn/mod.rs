//! The lenient DMN reader: the decisions a process calls, as far as a form needs them.
//!
//! A business rule task (`zeebe:calledDecision decisionId`) reads the variables its decision's inputs
//! name and writes the decision's result into its result variable. To know both, formgen reads each
//! decision's id and name, its hit policy, each input's FEEL expression and `typeRef`, each output's
//! name, `typeRef` and allowed values, the texts its rules name for an input or give an output, and the
//! decisions it requires. It does not evaluate anything and does not read FEEL: input expressions are
//! kept as written, for the FEEL reader.
//!
//! It reads the way the BPMN reader ([`crate::bpmn`]) does, with the same machinery: bytes are decoded
//! from the BOM or the XML declaration (`bpmn::decode`), names are matched on namespace URIs (any DMN
//! version from 1.1 to 1.5, whatever the prefix), attributes leniently (`bpmn::xml`).
//!
//! **Reading never fails.** A truncated or malformed file yields the decisions before the break (and
//! [`Decisions::break_at`] says where it broke); a file that is not DMN yields none.
//!
//! **Nothing is expanded.** DTDs are ignored: no entity is defined by one, none is expanded, no
//! external file or URL is ever read; an undefined entity stays in the text as written. Elements
//! nested past a fixed depth are skipped whole. The one refusal is size: a document over the limit is
//! refused before it is read ([`read_bounded`]; the `formgen` crate reads files).
//!
//! It knows nothing of processes, forms, HTTP or models.

mod model;
mod reader;
mod unary;

use std::borrow::Cow;

pub use model::{Aggregation, Decision, DecisionInput, DecisionOutput, Decisions, HitPolicy, RULE_VALUES};
pub use unary::allowed_values;

use crate::bpmn::decode;

/// Reads a DMN document's bytes. Never fails and never panics.
pub fn read(xml: &[u8]) -> Decisions {
    reader::read_text(&decode::decode(xml))
}

/// Reads DMN that is already text (a JSON string from an editor): any `encoding` in its XML declaration
/// describes bytes it no longer has, so only line ends are normalised.
pub fn read_str(xml: &str) -> Decisions {
    match decode::normalise_line_ends(Cow::Borrowed(xml.strip_prefix('\u{FEFF}').unwrap_or(xml))) {
        Cow::Borrowed(s) => reader::read_text(s),
        Cow::Owned(s) => reader::read_text(&s),
    }
}

/// A DMN input refused before reading.
#[derive(Debug, thiserror::Error)]
pub enum DmnError {
    /// Over the size limit the caller set.
    #[error(
        "the DMN document is {size} bytes, over this installation's limit of {limit} bytes for a decision file; \
         send a smaller one or ask the operator to raise the limit"
    )]
    TooLarge {
        /// Bytes seen (at least; a stream is not read past the limit).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The bytes could not be read at all (a file system or stream error).
    #[error("the DMN document could not be read: {0}")]
    Io(#[from] std::io::Error),
}

/// Reads a DMN document after checking it against `limit` bytes.
pub fn read_bounded(xml: &[u8], limit: u64) -> Result<Decisions, DmnError> {
    if xml.len() as u64 > limit {
        return Err(DmnError::TooLarge { size: xml.len() as u64, limit });
    }
    Ok(read(xml))
}

#[cfg(test)]
mod tests;
