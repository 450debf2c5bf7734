//! `../shared`, which only the conformance tier reads.

use std::path::{Path, PathBuf};

/// `../shared` beside the checkout, for the conformance tier. Fails loudly when it is missing: the
/// conformance tier must never pass by finding nothing to check.
pub fn shared() -> PathBuf {
    let dir = std::env::var_os("FORMGEN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    assert!(
        dir.join("DESIGN.md").is_file(),
        "the conformance tier needs ../shared (or FORMGEN_SHARED) with DESIGN.md, the corpus and the tools; \
         not found at {}",
        dir.display()
    );
    dir
}
