//! The modules' dependencies keep the order ARCHITECTURE.md documents: a module may use the modules
//! below it in [`ORDER`] and none above. Read from the sources, so a `use` that breaks the order fails
//! here before it becomes a cycle. Doc comments and a file's `#[cfg(test)]` tail are not dependencies.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every top-level module of the library, lowest first, by layer (see ARCHITECTURE.md, "Layers"). The
/// command line (`src/cli`, `src/main.rs`) sits above all of them.
const ORDER: &[(&str, &[&str])] = &[
    ("foundations", &["limits", "files", "words", "formjs", "redact", "metrics"]),
    ("read", &["bpmn", "dmn", "project", "sources"]),
    ("data flow", &["flow", "outline"]),
    ("draft and prompt", &["draft", "prompt"]),
    ("model", &["vault", "credentials", "auth", "workers", "model"]),
    ("gate and check", &["gate", "check"]),
    ("service", &["config", "service", "eval"]),
    ("edge", &["http"]),
];

fn rank(module: &str) -> Option<usize> {
    ORDER.iter().flat_map(|(_, modules)| modules.iter()).position(|m| *m == module)
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`src/gate/fit.rs` -> `gate`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

/// The crate modules a file's code names: `crate::x` (and `formgen::x` in the binary), in `use`
/// lines and paths alike, leaving out comments and the file's tests.
fn uses(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(at) = rest.find(prefix) {
            rest = &rest[at + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `use crate::{a, b::c}` (on this line; rustfmt keeps short groups on one)
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let name: String =
                        item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if !name.is_empty() {
                        out.insert(name);
                    }
                }
            } else {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
        // a group split over lines: `use crate::{\n    a,\n    b,\n};`
        if code.ends_with(&format!("{prefix}{{")) {
            for next in lines.by_ref() {
                let item = next.trim();
                if item.starts_with('}') {
                    break;
                }
                let name: String = item.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn every_module_uses_only_the_modules_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut broken = Vec::new();
    let mut unplaced = BTreeSet::new();
    for file in &files {
        let module = module_of(&src, file);
        if matches!(module.as_str(), "lib" | "main" | "cli") {
            continue;
        }
        let Some(own) = rank(&module) else {
            unplaced.insert(module);
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for used in uses(&text, "crate::") {
            // `crate::Limits`: an item the library's root re-exports from its module
            let used = if used == "Limits" { "limits".to_string() } else { used };
            match rank(&used) {
                Some(r) if r > own => broken.push(format!(
                    "{} uses `{used}`, which is above `{module}`",
                    file.strip_prefix(&src).unwrap().display()
                )),
                Some(_) => {}
                None => {
                    unplaced.insert(used);
                }
            }
        }
    }
    assert!(unplaced.is_empty(), "modules missing from ORDER (and ARCHITECTURE.md): {unplaced:?}");
    assert!(broken.is_empty(), "imports that break the layers:\n{}", broken.join("\n"));
}

#[test]
fn the_order_is_the_library_s_module_list() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ").or_else(|| l.trim().strip_prefix("mod ")))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let ordered: BTreeSet<&str> = ORDER.iter().flat_map(|(_, m)| m.iter().copied()).collect();
    assert_eq!(declared, ordered, "src/lib.rs and ORDER name the same modules");
}

#[test]
fn the_reader_of_uses_sees_groups_and_skips_comments_and_tests() {
    let text = "//! see crate::service\nuse crate::{bpmn, flow::access};\nuse crate::{\n    gate,\n    words::x,\n};\nfn f() { crate::limits::X }\n#[cfg(test)]\nmod tests { use crate::http; }\n";
    let found: Vec<String> = uses(text, "crate::").into_iter().collect();
    assert_eq!(found, ["bpmn", "flow", "gate", "limits", "words"]);
}
