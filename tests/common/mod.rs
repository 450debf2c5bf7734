//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod logs;
pub mod moddle;
pub mod raw_server;
pub mod served;

use std::path::{Path, PathBuf};

/// The project's own fixtures folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

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

/// The `.bpmn` files of a folder, sorted by name.
pub fn bpmn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "bpmn"))
        .collect();
    files.sort();
    files
}
