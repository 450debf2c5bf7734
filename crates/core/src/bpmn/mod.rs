//! The lenient BPMN reader.
//!
//! Everything downstream (prompt, builtin drafter, gate's process fit) reads a process through this
//! module. It owns decoding a file's bytes, reading XML leniently, the [`Definitions`] /
//! [`Process`] / [`Element`] model, the condition reader, and the `describe` text a model is shown. It
//! knows nothing of HTTP, models or forms.
//!
//! **Reading never fails.** A truncated, malformed or half-written draft yields whatever was readable
//! before the break; a file that is not BPMN yields no processes. Refusing to read a draft would
//! withhold a form from the author who most needs one. The one refusal is size: an input over the
//! BPMN limit is refused before a byte of it is parsed ([`read_bounded`]).
//!
//! **Nothing is expanded.** DTDs are ignored: no entity is defined by one, none is expanded, no
//! external file or URL is ever read. An undefined entity stays in the text as written.

mod condition;
pub(crate) mod decode;
mod describe;
mod extensions;
mod kind;
mod model;
mod places;
mod reader;
mod stream;
mod truth;
mod variables;
pub(crate) mod xml;

use std::io::Read;

pub use condition::nests_too_deeply;
pub use condition::{Comparison, Literal, Operator, Reading, read_condition, read_literal};
pub use decode::decode as decode_text;
pub use describe::{DescribeError, describe, describe_step};
pub use kind::ElementKind;
pub use model::{
    Decision, Definitions, Element, LINKED_FORM_PREFIX, Lane, LinkedForm, Process, Text, VariableRole,
    VariableUse,
};
pub use places::{
    Access, DeclaredField, DeclaredForm, Dialect, FieldConstraint, FieldKind, FieldOption, Place, Timer,
};
pub(crate) use reader::trim;
pub(crate) use truth::{may_hold_together, names_read};
pub use xml::unescape as xml_unescape;

/// Reads a BPMN document of any size. Never fails and never panics.
pub fn read(xml: &[u8]) -> Definitions {
    reader::read_text(&decode::decode(xml))
}

/// Reads BPMN that is already text (a JSON string from an editor): any `encoding` in its XML
/// declaration describes bytes it no longer has, so only line ends are normalised.
pub fn read_str(xml: &str) -> Definitions {
    match decode::normalise_line_ends(std::borrow::Cow::Borrowed(xml.strip_prefix('\u{FEFF}').unwrap_or(xml)))
    {
        std::borrow::Cow::Borrowed(s) => reader::read_text(s),
        std::borrow::Cow::Owned(s) => reader::read_text(&s),
    }
}

/// The process of a Camunda 8 document whose one process (id `p`) holds `elements`: the envelope the
/// crate's tests write their processes in.
#[cfg(test)]
pub(crate) fn zeebe_process(elements: &str) -> Process {
    let xml = format!(
        r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
        xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="p">{elements}</process></definitions>"#
    );
    read_str(&xml).processes.remove(0)
}

/// A BPMN input refused before reading.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Over the installation's BPMN size limit.
    #[error(
        "the BPMN document is {}, over this installation's limit of {limit} bytes; \
         send a smaller process or ask the operator to raise FORMGEN_LIMIT_BPMN_BYTES",
        match .size { Some(n) => format!("{n} bytes"), None => format!("over {limit} bytes") }
    )]
    TooLarge {
        /// Its size, when known; none for a stream that was not read past the limit.
        size: Option<u64>,
        /// The limit.
        limit: usize,
    },
    /// The bytes could not be read at all (a file system or stream error).
    #[error("the BPMN document could not be read: {0}")]
    Io(#[from] std::io::Error),
}

/// Reads a BPMN document after checking it against `limit` bytes.
pub fn read_bounded(xml: &[u8], limit: usize) -> Result<Definitions, ReadError> {
    if xml.len() > limit {
        return Err(ReadError::TooLarge { size: Some(xml.len() as u64), limit });
    }
    Ok(read(xml))
}

/// Reads a document of `size` bytes from a seekable source (an opened file), refusing it when `size`
/// is over `limit`, and never reading more than `limit + 1` bytes of it whatever `size` said.
///
/// A document that reads as UTF-8 with LF line ends (nearly every export) is read as a stream, one XML
/// event at a time, so the outline of a large file never holds the file as well; any other document (a
/// BOM, a legacy encoding, CR line ends, bytes that are not UTF-8, a break in the XML) is read whole
/// and decoded first. Both ways give the same outline.
pub fn read_seekable(
    mut file: impl Read + std::io::Seek + Send,
    size: u64,
    limit: usize,
) -> Result<Definitions, ReadError> {
    if size > limit as u64 {
        return Err(ReadError::TooLarge { size: Some(size), limit });
    }
    let cap = (limit as u64).saturating_add(1);
    if decode::streams_as_utf8(&mut file)? {
        let mut stream = (&mut file).take(cap);
        let read = stream::read_utf8_stream(&mut stream, size);
        if stream.limit() == 0 {
            return Err(ReadError::TooLarge { size: None, limit });
        }
        if let Some(defs) = read {
            return Ok(defs);
        }
        std::io::Seek::rewind(&mut file)?;
    }
    // a buffer of the document's size (and one byte to see its end), not one grown by doubling
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(limit).saturating_add(1));
    file.take(cap).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(ReadError::TooLarge { size: None, limit });
    }
    Ok(read(&bytes))
}

/// Reads all of `stream` if it holds at most `limit` bytes; a stream that has more is refused after
/// `limit + 1` bytes, without reading further, whatever length it claims.
pub fn read_capped(stream: impl Read, limit: usize) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    let cap = (limit as u64).saturating_add(1);
    stream.take(cap).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(ReadError::TooLarge { size: None, limit });
    }
    Ok(bytes)
}
