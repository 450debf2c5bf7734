//! The process's data flow: what each element reads and writes (see [`expr`] for the expression reader).

pub mod expr;
