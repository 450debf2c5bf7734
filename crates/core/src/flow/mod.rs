//! The process's data flow: which variables each element reads and writes, from the places the
//! reader found.
//!
//! The BPMN reader ([`crate::bpmn`]) records raw places and the text written there
//! ([`crate::bpmn::Access`]); this stage reads those texts as expressions ([`expr`]: FEEL, JUEL,
//! connector templates) and decides where each written variable lives ([`access`]: the element for a
//! local, a sub-process that maps it, else the process). With the project around the process (the
//! forms its steps bind, the decisions it calls) it draws one step's data picture ([`picture()`]: what is
//! known before it, what its form supplies, what is decided on) and says where a variable is already
//! defined ([`define`]). It knows the engines' scope rules and the expression languages; it knows
//! nothing of XML, prompts, models or HTTP.

pub mod access;
pub(crate) mod branch;
pub mod contract;
pub mod define;
pub mod expr;
mod graph;
mod named;
pub mod picture;
mod render;
pub mod unwritten;
mod way_in;

pub use contract::{Contract, contract};
pub use define::{Definition, Definitions, PathRoots, definition, embedded_siblings, paths_below};
pub(crate) use define::{own_state_paths, stored_values};
pub use picture::{Decided, Known, Picture, Supply, picture};
pub use render::{Defined, describe_picture};
