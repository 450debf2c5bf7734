//! Process sources ([`formgen_core::sources`]) with the service's process store: the resolver
//! ([`resolve`]) reads the request's BPMN first, else the store's draft, else its deployed version,
//! then the step, then its project (the store's folder with the request's forms and decisions over it).

mod store;

use std::sync::Arc;

pub use formgen_core::sources::*;
pub use store::{ProcessStore, Source};

use crate::bpmn::Definitions;
use crate::project::Project;

/// Resolves the process a request names: the BPMN it sent first, else the store's draft, else its
/// deployed version; then the step; then its project (the store's folder with the request's forms and
/// decisions over it). `named` gives the ids (its text fields are not read again: `sent` is what they
/// held). The store is read on the blocking pool.
pub async fn resolve(
    store: &Arc<ProcessStore>,
    named: Named<'_>,
    sent: Sent,
) -> Result<Resolved, SourceError> {
    let resolved = read(store, named, sent.process).await?;
    let Resolved::Found(target) = resolved else {
        return Ok(resolved);
    };
    // a folder that takes longer than a file read may is read as empty, as an unreadable one is
    let folder = match on_the_store(store, "reading the project folder", ProcessStore::project).await {
        Err(SourceError::StoreFailed) => Arc::new(Project::default()),
        other => other?,
    };
    let project = match sent.project {
        None => folder,
        Some(sent) => {
            let mut project = Project::clone(&folder);
            project.overlay(sent);
            Arc::new(project)
        }
    };
    Ok(Resolved::Found(target.with_project(project)))
}

async fn read(
    store: &Arc<ProcessStore>,
    named: Named<'_>,
    sent: Option<(Arc<Definitions>, u64)>,
) -> Result<Resolved, SourceError> {
    let (definitions, origin, bytes) = if let Some((definitions, bytes)) = sent {
        (definitions, Origin::Request, bytes)
    } else if let Some(process_id) = named.process_id {
        let id = process_id.to_string();
        let found = on_the_store(store, "the process store lookup", move |s| s.lookup(&id)).await?;
        match found {
            Some(source) => (source.definitions, source.origin, source.bytes),
            None => return Err(SourceError::UnknownProcess(process_id.to_string())),
        }
    } else {
        return Ok(Resolved::Nothing);
    };
    let (process_id, element_id) = (named.process_id.unwrap_or(""), named.element_id.unwrap_or(""));
    Ok(match locate(definitions, origin, process_id, element_id)? {
        Resolved::Found(target) => Resolved::Found(target.with_source_bytes(bytes)),
        other => other,
    })
}

/// `work` on the store, on the blocking pool (it reads files), waited for no longer than one file read
/// may take: a store that does not answer costs the request an error, never a hang. The work itself
/// goes on (each of its reads bounded in time) and leaves what it read for the next request.
async fn on_the_store<T: Send + 'static>(
    store: &Arc<ProcessStore>,
    what: &'static str,
    work: impl FnOnce(&ProcessStore) -> T + Send + 'static,
) -> Result<T, SourceError> {
    let bound = store.read_timeout();
    let store = store.clone();
    match tokio::time::timeout(bound, tokio::task::spawn_blocking(move || work(&store))).await {
        Ok(Ok(found)) => Ok(found),
        Ok(Err(e)) => {
            tracing::error!(error = %e, "{what} failed");
            Err(SourceError::StoreFailed)
        }
        Err(_) => {
            tracing::error!(within_s = bound.as_secs(), "{what} did not finish in time");
            Err(SourceError::StoreFailed)
        }
    }
}
