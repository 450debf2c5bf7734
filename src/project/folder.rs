//! Listing a project folder: which `.form` and `.dmn` files it holds, with the stamps that tell a
//! change, before a byte of any of them is read.
//!
//! The walk is recursive and bounded: it stops with an error past the file count, skips (with a
//! warning) a file over the per-file size, and does not descend past a fixed depth. It passes over
//! `node_modules`, `target` and every name starting with `.` (`.git`, `.idea`, editors' lock files, a
//! Kubernetes ConfigMap's `..data`). Symbolic links are followed only to files and folders inside the
//! folder (resolved, so a ConfigMap's links into `..data` work); a link that leads outside it or
//! cannot be resolved (dangling, a loop) is skipped with a warning, and a folder reached twice (a link
//! to a parent) is read once.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{FileKind, ProjectBounds, ProjectError};

/// Folders nested deeper than this below the project folder are not read.
const MAX_DEPTH: usize = 16;

/// Directory entries looked at, at most, in one walk (project files or not): a folder with millions of
/// unrelated files must not cost a request more than this.
const MAX_ENTRIES: usize = 100_000;

/// Folder names never descended into.
const IGNORED: &[&str] = &["node_modules", "target"];

/// What a project listing holds.
const PROJECT_KINDS: &[FileKind] = &[FileKind::Form, FileKind::Decisions];

/// Every kind of file a folder of processes holds.
const ALL_KINDS: &[FileKind] = &[FileKind::Process, FileKind::Form, FileKind::Decisions];

/// One file of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedFile {
    /// The path to read it from.
    pub path: PathBuf,
    /// Its path below the project folder, `/`-separated: how warnings and forms name it.
    pub name: String,
    /// Form or decisions.
    pub kind: FileKind,
    /// Its size when listed.
    pub len: u64,
    /// Its modification time when listed, if the file system keeps one.
    pub modified: Option<SystemTime>,
}

/// The project files of a folder, sorted by name, with what the walk had to skip. Two listings are
/// equal when they list the same files with the same sizes and times: an unchanged listing means the
/// project read from it need not be read again.
#[derive(Debug, Clone)]
pub struct Listing {
    /// The folder as given.
    pub dir: PathBuf,
    /// The files, sorted by [`ListedFile::name`].
    pub files: Vec<ListedFile>,
    /// A sentence per thing skipped (a link out of the folder, a file over the size limit).
    pub warnings: Vec<String>,
    /// The `.form` files skipped for their size, with the sentence that says so: a form a step binds
    /// may be among them.
    pub oversized_forms: Vec<(String, String)>,
}

impl PartialEq for Listing {
    fn eq(&self, other: &Self) -> bool {
        self.files == other.files
    }
}

impl Listing {
    /// The newest modification time among the files; `None` for an empty listing (or a file system
    /// without times).
    pub fn newest(&self) -> Option<SystemTime> {
        self.files.iter().filter_map(|f| f.modified).max()
    }

    /// The sizes of the listed files, added up.
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.len).sum()
    }
}

/// Lists the project files under `dir`. Blocking (file system): call it from a blocking task.
pub fn list_folder(dir: &Path, bounds: &ProjectBounds) -> Result<Listing, ProjectError> {
    list_kinds(dir, bounds, PROJECT_KINDS)
}

/// Lists the `.bpmn` files under `dir`, by the same rules and bounds as [`list_folder`].
pub fn list_processes(dir: &Path, bounds: &ProjectBounds) -> Result<Listing, ProjectError> {
    list_kinds(dir, bounds, &[FileKind::Process])
}

/// Lists the `.bpmn`, `.form` and `.dmn` files under `dir`, by the same rules and bounds as
/// [`list_folder`]: what `formgen eval --project` scores is what `formgen generate --project` reads.
pub fn list_all(dir: &Path, bounds: &ProjectBounds) -> Result<Listing, ProjectError> {
    list_kinds(dir, bounds, ALL_KINDS)
}

/// How an error names the kinds of file a listing counts.
fn kinds_named(kinds: &[FileKind]) -> &'static str {
    match kinds {
        PROJECT_KINDS => ".form and .dmn",
        [FileKind::Process] => ".bpmn",
        _ => ".bpmn, .form and .dmn",
    }
}

fn list_kinds(dir: &Path, bounds: &ProjectBounds, kinds: &[FileKind]) -> Result<Listing, ProjectError> {
    let folder_error = |source| ProjectError::Folder { dir: dir.to_path_buf(), source };
    let root = std::fs::canonicalize(dir).map_err(folder_error)?;
    std::fs::read_dir(&root).map_err(folder_error)?; // a root that is not a readable folder is an error
    let mut listing = Listing {
        dir: dir.to_path_buf(),
        files: Vec::new(),
        warnings: Vec::new(),
        oversized_forms: Vec::new(),
    };
    let mut visited: HashSet<PathBuf> = HashSet::from([root.clone()]);
    let mut pending: Vec<(PathBuf, String, usize)> = vec![(dir.to_path_buf(), String::new(), 0)];
    let mut seen_entries = 0usize;
    while let Some((folder, prefix, depth)) = pending.pop() {
        if seen_entries >= MAX_ENTRIES {
            break;
        }
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) => {
                listing
                    .warnings
                    .push(format!("The folder {prefix} could not be read ({e}); it was skipped."));
                continue;
            }
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).take(MAX_ENTRIES - seen_entries).collect();
        seen_entries += entries.len();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let file_name = entry.file_name();
            let Some(file_name) = file_name.to_str() else {
                continue; // not UTF-8: no project of ours names a file so
            };
            if file_name.starts_with('.') {
                continue;
            }
            let name =
                if prefix.is_empty() { file_name.to_string() } else { format!("{prefix}/{file_name}") };
            let path = entry.path();
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let Some((is_dir, resolved)) =
                followed(&path, (&name, file_name), file_type, (&root, kinds), &mut listing.warnings)
            else {
                continue;
            };
            if is_dir {
                if IGNORED.contains(&file_name) {
                    continue;
                }
                if depth + 1 > MAX_DEPTH {
                    listing.warnings.push(format!(
                        "The folder {name} is nested more than {MAX_DEPTH} levels deep; it was not read."
                    ));
                    continue;
                }
                let canonical = match resolved {
                    Some(target) => target,
                    None => match std::fs::canonicalize(&path) {
                        Ok(c) => c,
                        Err(_) => continue,
                    },
                };
                if visited.insert(canonical) {
                    pending.push((path, name, depth + 1));
                }
                continue;
            }
            let Some(kind) = kind_of(file_name, kinds) else {
                continue;
            };
            let Some(file) = listed(path, name, kind, bounds, &mut listing) else {
                continue;
            };
            listing.files.push(file);
            if listing.files.len() > bounds.max_files {
                return Err(ProjectError::TooManyFiles {
                    dir: dir.to_path_buf(),
                    kinds: kinds_named(kinds),
                    limit: bounds.max_files,
                });
            }
        }
    }
    if seen_entries >= MAX_ENTRIES {
        listing.warnings.push(format!(
            "The project folder holds {MAX_ENTRIES} entries or more; listing stopped there, so some files may be missing."
        ));
    }
    listing.files.sort_by(|a, b| a.name.cmp(&b.name));
    let total = listing.total_bytes();
    if total > bounds.max_bytes_total {
        return Err(ProjectError::TooLargeTotal {
            place: format!("the project folder {}", dir.display()),
            size: total,
            limit: bounds.max_bytes_total,
        });
    }
    Ok(listing)
}

/// Whether an entry is a folder, and where a link inside the project leads; `None` for an entry not
/// followed (a link outside the folder or one that cannot be followed, with a warning when it looks
/// like a project file or folder).
fn followed(
    path: &Path,
    (name, file_name): (&str, &str),
    file_type: std::fs::FileType,
    (root, kinds): (&Path, &[FileKind]),
    warnings: &mut Vec<String>,
) -> Option<(bool, Option<PathBuf>)> {
    if !file_type.is_symlink() {
        return Some((file_type.is_dir(), None));
    }
    match std::fs::canonicalize(path) {
        Ok(target) if target.starts_with(root) => Some((target.is_dir(), Some(target))),
        Ok(_) => {
            if kind_of(file_name, kinds).is_some() || target_is_dir(path) {
                warnings
                    .push(format!("{name} is a link to outside the project folder; it was not followed."));
            }
            None
        }
        Err(e) => {
            if kind_of(file_name, kinds).is_some() {
                warnings.push(format!("{name} is a link that cannot be followed ({e}); it was skipped."));
            }
            None
        }
    }
}

/// A project file as listed, when it is a regular file within the bounds (a warning when it is over,
/// and for a form, a record that it was skipped).
fn listed(
    path: PathBuf,
    name: String,
    kind: FileKind,
    bounds: &ProjectBounds,
    listing: &mut Listing,
) -> Option<ListedFile> {
    let meta = std::fs::metadata(&path).ok().filter(std::fs::Metadata::is_file)?;
    if meta.len() > bounds.max_file_bytes {
        let sentence = format!(
            "{name} is {} bytes, over this installation's limit of {} bytes for one project file; it was skipped.",
            meta.len(),
            bounds.max_file_bytes
        );
        if kind == FileKind::Form {
            listing.oversized_forms.push((name, sentence.clone()));
        }
        listing.warnings.push(sentence);
        return None;
    }
    Some(ListedFile { path, name, kind, len: meta.len(), modified: meta.modified().ok() })
}

/// The kind of file a name ends in (case-insensitively), when it is one of `kinds`.
fn kind_of(name: &str, kinds: &[FileKind]) -> Option<FileKind> {
    FileKind::of_name(name).filter(|kind| kinds.contains(kind))
}

fn target_is_dir(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_dir())
}
