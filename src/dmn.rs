//! The lenient DMN reader ([`formgen_core::dmn`]), with the reading of files.

use std::io::Read as _;
use std::path::Path;

pub use formgen_core::dmn::*;

/// Reads a DMN file, refusing it by the size the file system reports before reading, and never reading
/// more than `limit + 1` bytes of it whatever that size said.
pub fn read_file(path: &Path, limit: u64) -> Result<Decisions, DmnError> {
    let file = crate::files::open(path, crate::files::default_timeout())?;
    let size = file.len();
    if size > limit {
        return Err(DmnError::TooLarge { size, limit });
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(DmnError::TooLarge { size: bytes.len() as u64, limit });
    }
    Ok(read(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_refused_by_its_reported_size_and_read_within_the_limit() {
        let xml = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/dmn/simple.dmn")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.dmn");
        std::fs::File::create(&path).unwrap().set_len(2 << 30).unwrap(); // sparse: claims 2 GiB
        assert!(
            matches!(read_file(&path, 10 << 20), Err(DmnError::TooLarge { size, .. }) if size == 2 << 30)
        );
        std::fs::write(&path, &xml).unwrap();
        assert_eq!(read_file(&path, 1 << 20).unwrap().decisions.len(), 1);
    }
}
