//! The lenient BPMN reader ([`formgen_core::bpmn`]), with the reading of files.

pub use formgen_core::bpmn::*;

/// Reads a file, refusing it by its size before opening when the file system reports one over `limit`.
/// Only a regular file is read, within the default file read time ([`crate::files`]);
/// [`read_file_within`] takes the time. See [`read_seekable`] for how it is read.
pub fn read_file(path: &std::path::Path, limit: usize) -> Result<Definitions, ReadError> {
    read_file_within(path, limit, crate::files::default_timeout())
}

/// [`read_file`], its reads stopping once `timeout` has passed.
pub fn read_file_within(
    path: &std::path::Path,
    limit: usize,
    timeout: std::time::Duration,
) -> Result<Definitions, ReadError> {
    let file = crate::files::open(path, timeout)?;
    let size = file.len();
    read_seekable(file, size, limit)
}
