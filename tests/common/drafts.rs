//! The builtin draft as the service drafts it, for the drafter's integration tests.

use formgen::bpmn::Process;
use formgen::draft::{self, Around, Draft};
use formgen::project::Project;

/// The builtin draft of `target` (none: the start form) as the service drafts it, with the step's
/// data picture and contract in `project`, from no brief.
pub fn draft_around(p: &Process, target: Option<usize>, project: &Project) -> Draft {
    let picture = formgen::flow::picture(p, target, project);
    let contract = formgen::flow::contract(p, target, project);
    let around = Around { picture: &picture, project, contract: &contract };
    draft::draft_in(Some(p), target, Some(around), "", None)
}
