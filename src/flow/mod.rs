//! The process's data flow: which variables each element reads and writes, from the places the
//! reader found.
//!
//! The BPMN reader ([`crate::bpmn`]) records raw places and the text written there
//! ([`crate::bpmn::Access`]); this stage reads those texts as expressions ([`expr`]: FEEL, JUEL,
//! connector templates) and decides where each written variable lives ([`access`]: the element for a
//! local, a sub-process that maps it, else the process). It knows the engines' scope rules and the
//! expression languages; it knows nothing of XML, forms, models or HTTP.

pub mod access;
pub mod expr;
