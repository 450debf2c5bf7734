//! The generation `formgen eval` measures: the service's own `generate` (same gate, same repair
//! round, same limits, same concurrency permits), wrapped as the driver's closure.
//!
//! Kept apart so that the rest of the module knows nothing of the service: a change to the service's
//! request type touches this file only.

use super::{Generated, GenerationInput};
use crate::auth::Principal;
use crate::service::{GenerateRequest, Service};

/// Generates the form for `input` with `worker` (empty: the only one in reach) and `model` (empty:
/// the Worker's), as the operator at the command line. The error is the service's sentence.
///
/// The prompt text scored for coverage is the user text a model Worker would be sent for this request
/// ([`Service::prompt_text`]), whichever Worker answers.
pub async fn generate(
    service: &Service,
    worker: &str,
    model: &str,
    input: GenerationInput,
) -> Result<Generated, String> {
    let (forms, decisions) = project_of(&input.project_files);
    let request = GenerateRequest {
        worker: Some(worker.to_string()),
        model: Some(model.to_string()),
        process_xml: Some(input.bpmn_text),
        element_id: Some(input.element_id),
        forms,
        decisions,
        ..GenerateRequest::default()
    };
    let prompt_text = service.prompt_text(&request).await.map_err(|e| e.to_string())?;
    let response = service.generate(&Principal::operator(), request).await.map_err(|e| e.to_string())?;
    Ok(Generated {
        schema: response.schema,
        prompt_text,
        attempts: response.attempts,
        input_tokens: response.usage.input_tokens,
        output_tokens: response.usage.output_tokens,
    })
}

/// The pair's project as an editor would send it: each `.form` file's JSON (a file that is not JSON is
/// left out, as an editor could not have opened it) and each `.dmn` file's text.
fn project_of(files: &[std::path::PathBuf]) -> (Vec<serde_json::Value>, Vec<String>) {
    let (mut forms, mut decisions) = (Vec::new(), Vec::new());
    for path in files {
        let bound = crate::project::ProjectBounds::default();
        let Ok(Some(bytes)) = crate::files::read_capped(path, bound.max_file_bytes, bound.read_timeout)
        else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else { continue };
        match path.extension().and_then(|x| x.to_str()) {
            Some(x) if x.eq_ignore_ascii_case("form") => forms.extend(serde_json::from_str(&text).ok()),
            Some(x) if x.eq_ignore_ascii_case("dmn") => decisions.push(text),
            _ => {}
        }
    }
    (forms, decisions)
}
