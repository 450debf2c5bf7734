//! The project around a process, read from a folder: [`formgen_core::project`] with the file system.
//!
//! **Sources.** A folder ([`read_folder`], or [`list_folder`] then [`read_listing`]), recursively:
//! `.form` files indexed by the `id` inside them, `.dmn` files by the ids of their decisions.
//!
//! **Re-reading on change.** [`list_folder`] is cheap (names, sizes, times; nothing is read) and two
//! [`Listing`]s compare equal when nothing changed, so a store keeps the last listing with its
//! project and re-reads only when the listing differs, as the process store does for BPMN files;
//! [`Listing::newest`] gives the newest modification time for a cache key or a log line.
//!
//! **Bounds.** In a folder, a single file over the per-file size is skipped with a warning (a folder
//! is shared by many processes; one oversized file must not take the project from all of them), while
//! the same in a request is refused.
//!
//! **Folders.** Symbolic links are followed only to what lies inside the folder; `node_modules`,
//! `target` and names starting with `.` are passed over (see [`folder`]).

pub mod folder;

use std::path::Path;

pub use folder::{ListedFile, Listing, list_all, list_folder, list_processes};
pub use formgen_core::project::*;

/// Reads the files of a listing. A file that does not parse or cannot be read is skipped with a
/// warning; the bounds are checked again as bytes are read (a file may have grown since it was
/// listed). Blocking (file system).
pub fn read_listing(listing: &Listing, bounds: &ProjectBounds) -> Result<Project, ProjectError> {
    let mut project = Project { warnings: listing.warnings.clone(), ..Project::default() };
    for (file, why) in &listing.oversized_forms {
        project.form_problems.push(FormFileProblem::Unreadable { file: file.clone(), why: why.clone() });
    }
    let mut total = 0u64;
    for file in &listing.files {
        let bytes = match crate::files::read_capped(&file.path, bounds.max_file_bytes, bounds.read_timeout) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                let sentence = format!(
                    "{} grew over this installation's limit of {} bytes for one project file; it was skipped.",
                    file.name, bounds.max_file_bytes
                );
                project.skip_file(&file.name, file.kind, sentence);
                continue;
            }
            Err(e) => {
                let sentence = format!("{} could not be read ({e}); it was skipped.", file.name);
                project.skip_file(&file.name, file.kind, sentence);
                continue;
            }
        };
        total += bytes.len() as u64;
        if total > bounds.max_bytes_total {
            return Err(ProjectError::TooLargeTotal {
                place: format!("the project folder {}", listing.dir.display()),
                size: total,
                limit: bounds.max_bytes_total,
            });
        }
        project.add_file(&file.name, file.kind, &bytes);
    }
    Ok(project)
}

/// Lists and reads a project folder. Blocking (file system): call it from a blocking task.
pub fn read_folder(dir: &Path, bounds: &ProjectBounds) -> Result<(Project, Listing), ProjectError> {
    let listing = list_folder(dir, bounds)?;
    let project = read_listing(&listing, bounds)?;
    Ok((project, listing))
}

#[cfg(test)]
mod tests;
