//! The generation `formgen eval` measures: the service's own `generate` (same gate, same repair
//! round, same limits, same concurrency permits), wrapped as the driver's closure.
//!
//! Kept apart so that the rest of the module knows nothing of the service: a change to the service's
//! request type touches this file only.

use super::{Generated, GenerationInput};
use crate::service::{GenerateRequest, Service};
use crate::workers::Principal;

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
    let request = GenerateRequest {
        worker: worker.to_string(),
        model: model.to_string(),
        process_xml: input.bpmn_text,
        element_id: input.element_id,
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
