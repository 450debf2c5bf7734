//! The process store: a read-only folder of BPMN files, looked up by process id.
//!
//! The store is a read-only folder,
//! owned elsewhere: `drafts/*.bpmn` and `deployed/*.bpmn`, indexed by the process ids *inside* the
//! files (a file may hold several). It is re-read when files change, without a restart: each lookup
//! compares the folder listing (names, sizes, modification times) with the last one and re-reads only
//! files that changed. Files over the BPMN size limit are skipped with a warning in the log.
//!
//! This file finds and reads process files; choosing between the request's BPMN and the store is the
//! resolver's ([`super::resolve`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use super::Origin;
use crate::bpmn::{self, Definitions};
use crate::project::{self, Listing, Project, ProjectBounds};

/// A process found in the store.
#[derive(Debug, Clone)]
pub struct Source {
    /// The file's definitions (the process is among them).
    pub definitions: Arc<Definitions>,
    /// Where it came from.
    pub origin: Origin,
    /// The size of the file it was read from.
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

/// Per file: its stamp and what it held (`None`: it could not be read, and is not tried again until
/// its stamp changes).
type Index = HashMap<PathBuf, (Stamp, Option<Arc<Definitions>>)>;

/// The read-only process store.
pub struct ProcessStore {
    dir: Option<PathBuf>,
    bpmn_limit: usize,
    read_timeout: Duration,
    index: Mutex<Index>,
    project: Option<ProjectFolder>,
}

/// The project folder beside the processes: its forms and decisions, re-read when its listing changes.
struct ProjectFolder {
    dir: PathBuf,
    bounds: ProjectBounds,
    read: Mutex<Option<(Listing, Arc<Project>)>>,
}

impl std::fmt::Debug for ProcessStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessStore").field("dir", &self.dir).finish()
    }
}

impl ProcessStore {
    /// A store over `dir` (none: every lookup finds nothing), without a project folder.
    pub fn new(dir: Option<PathBuf>, bpmn_limit: usize) -> Self {
        ProcessStore {
            dir,
            bpmn_limit,
            read_timeout: crate::files::default_timeout(),
            index: Mutex::new(Index::default()),
            project: None,
        }
    }

    /// The same store, whose processes come with the forms and decisions of `dir` (recursively).
    pub fn with_project(self, dir: Option<PathBuf>, bounds: ProjectBounds) -> Self {
        let project = dir.map(|dir| ProjectFolder { dir, bounds, read: Mutex::new(None) });
        ProcessStore { project, ..self }
    }

    /// The same store, each of whose file reads stops after `timeout`.
    pub fn with_read_timeout(self, timeout: Duration) -> Self {
        ProcessStore { read_timeout: timeout, ..self }
    }

    /// The time one file read may take, and so the longest a request waits for the store.
    pub fn read_timeout(&self) -> Duration {
        self.read_timeout
    }

    /// The forms and decisions of the project folder (empty without one). Re-read when the folder's
    /// listing (names, sizes, modification times) changed since the last call. A folder over the
    /// project limits or unreadable is logged and read as empty: it is the operator's, not the
    /// author's, to fix. No lock is held while a file is read (a read may take up to its time bound,
    /// and every request must not wait on it): two requests that see the same change may both read it.
    /// Blocking (file system): call it from a blocking task.
    pub fn project(&self) -> Arc<Project> {
        let Some(folder) = &self.project else {
            return Arc::new(Project::default());
        };
        let listing = match project::list_folder(&folder.dir, &folder.bounds) {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "the project folder was not read");
                return Arc::new(Project::default());
            }
        };
        {
            let read = folder.read.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((seen, project)) = read.as_ref()
                && *seen == listing
            {
                return project.clone();
            }
        }
        let project = match project::read_listing(&listing, &folder.bounds) {
            Ok(p) => Arc::new(p),
            Err(e) => {
                tracing::warn!(error = %e, "the project folder was not read");
                Arc::new(Project::default())
            }
        };
        for w in &project.warnings {
            tracing::warn!(folder = %folder.dir.display(), "{w}");
        }
        *folder.read.lock().unwrap_or_else(|e| e.into_inner()) = Some((listing, project.clone()));
        project
    }

    /// The process `id`: its draft if there is one, else its deployed version. Files whose stamp
    /// changed since they were read are read again, without holding the index's lock (as
    /// [`ProcessStore::project`]). Blocking (file system): call it from a blocking task.
    pub fn lookup(&self, id: &str) -> Option<Source> {
        let dir = self.dir.as_ref()?;
        let drafts = dir.join("drafts");
        let deployed = dir.join("deployed");
        let listing: Vec<(PathBuf, Stamp)> = [&drafts, &deployed].into_iter().flat_map(|d| list(d)).collect();
        let changed: Vec<&(PathBuf, Stamp)> = {
            let index = self.index.lock().unwrap_or_else(|e| e.into_inner());
            listing.iter().filter(|(path, stamp)| index.get(path).is_none_or(|(s, _)| s != stamp)).collect()
        };
        let read: Vec<(PathBuf, Stamp, Option<Arc<Definitions>>)> = changed
            .into_iter()
            .map(|(path, stamp)| {
                let defs = match bpmn::read_file_within(path, self.bpmn_limit, self.read_timeout) {
                    Ok(d) => Some(Arc::new(d)),
                    Err(e) => {
                        tracing::warn!(file = %path.display(), error = %e, "process file skipped");
                        None
                    }
                };
                (path.clone(), stamp.clone(), defs)
            })
            .collect();
        let listed: std::collections::HashSet<&PathBuf> = listing.iter().map(|(p, _)| p).collect();
        let mut index = self.index.lock().unwrap_or_else(|e| e.into_inner());
        index.extend(read.into_iter().map(|(path, stamp, defs)| (path, (stamp, defs))));
        index.retain(|path, _| listed.contains(path));
        for (folder, origin) in [(&drafts, Origin::Draft), (&deployed, Origin::Deployment)] {
            for (path, _) in listing.iter().filter(|(p, _)| p.parent() == Some(folder.as_path())) {
                if let Some((stamp, Some(defs))) = index.get(path)
                    && defs.process(id).is_some()
                {
                    return Some(Source { definitions: defs.clone(), origin, bytes: stamp.len });
                }
            }
        }
        None
    }
}

/// The `.bpmn` files of a folder with their stamps, sorted by name (a missing folder is empty).
fn list(dir: &Path) -> Vec<(PathBuf, Stamp)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, Stamp)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x.eq_ignore_ascii_case("bpmn")))
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            meta.is_file().then(|| (e.path(), Stamp { len: meta.len(), modified: meta.modified().ok() }))
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    const BPMN: &str = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P" name="NAME"/><process id="Q"/></definitions>"#;

    #[test]
    fn drafts_before_deployments_and_changes_without_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("drafts")).unwrap();
        std::fs::create_dir_all(dir.path().join("deployed")).unwrap();
        std::fs::write(dir.path().join("deployed/p.bpmn"), BPMN.replace("NAME", "deployed")).unwrap();
        let store = ProcessStore::new(Some(dir.path().to_path_buf()), 1 << 20);
        let found = store.lookup("P").unwrap();
        assert_eq!(
            (found.origin, found.definitions.processes[0].name.as_str()),
            (Origin::Deployment, "deployed")
        );
        assert_eq!(
            store.lookup("Q").unwrap().origin,
            Origin::Deployment,
            "a file may hold several processes"
        );
        assert!(store.lookup("R").is_none());

        std::fs::write(dir.path().join("drafts/p-draft.bpmn"), BPMN.replace("NAME", "draft")).unwrap();
        let found = store.lookup("P").unwrap();
        assert_eq!((found.origin, found.definitions.processes[0].name.as_str()), (Origin::Draft, "draft"));

        std::fs::remove_file(dir.path().join("drafts/p-draft.bpmn")).unwrap();
        assert_eq!(store.lookup("P").unwrap().origin, Origin::Deployment);
    }

    #[test]
    fn no_folder_finds_nothing() {
        assert!(ProcessStore::new(None, 10).lookup("P").is_none());
        assert!(ProcessStore::new(Some("/nonexistent".into()), 10).lookup("P").is_none());
    }
}
