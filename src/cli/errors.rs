//! The service's errors in the CLI's vocabulary: flags (`--worker`, `--process-id`, `--element`) where
//! the service says JSON fields (`"worker"`, `processXml`), the file the user named, and the exit code:
//! 2 for what the command line asked wrongly, 1 for a generation that failed.
//!
//! The service keeps its sentences neutral for HTTP; only this file knows the CLI's words for them.

use std::path::Path;

use formgen::service::{Oversized, ServiceError};
use formgen::sources::SourceError;
use formgen::workers::ChoiceError;

/// What the command line said, for naming it back.
pub(crate) struct Asked<'a> {
    /// The BPMN file given, if any.
    pub file: Option<&'a Path>,
    /// The form file given with `--schema`, if any.
    pub schema: Option<&'a Path>,
    /// Where the configuration came from.
    pub config: &'a str,
    /// The configured Workers' names.
    pub workers: Vec<&'a str>,
}

/// A service error as the CLI says it: the sentence (without the problem list, which is printed one
/// per line after it) and the exit code.
pub(crate) fn explain(e: &ServiceError, asked: &Asked<'_>) -> (String, u8) {
    let file = || asked.file.map_or("the process store".to_string(), |f| f.display().to_string());
    let names = asked.workers.join(", ");
    let usage = |s: String| (s, 2);
    match e {
        ServiceError::BriefRequired => usage(
            "say what the form is for: give a brief with -d/--description, or a BPMN file (formgen generate FILE.bpmn)"
                .into(),
        ),
        ServiceError::Worker(ChoiceError::Ambiguous(names)) => {
            usage(format!("several Workers are configured ({}); name one with --worker", names.join(", ")))
        }
        ServiceError::Worker(ChoiceError::Unknown(name)) => {
            usage(format!("there is no Worker named \"{name}\" in {}; --worker takes one of: {names}", asked.config))
        }
        ServiceError::Worker(ChoiceError::NoneInReach) => usage(format!(
            "{} has no Worker; add a [[workers]] section (provider = \"builtin\" needs no model), or leave out --config for the embedded default",
            asked.config
        )),
        ServiceError::Source(SourceError::UnknownProcess(id)) => usage(format!(
            "{} has no process \"{id}\"; check --process-id (formgen outline FILE lists the processes)",
            file()
        )),
        ServiceError::Source(SourceError::UnknownElement { process, element }) => usage(format!(
            "the process \"{process}\" in {} has no element \"{element}\"; check --element (formgen outline --json FILE lists the steps), or leave it out for the start form",
            file()
        )),
        ServiceError::Source(SourceError::NotBpmn { element, .. }) => usage(format!(
            "{} holds no BPMN process (no definitions element with a process in it), so there is no step \"{element}\" to draft a form for; give the process's .bpmn file",
            asked.file.map_or("the process sent".into(), |f| f.display().to_string())
        )),
        ServiceError::NotAFormStep { .. } => usage(
            e.to_string().replace("or name no element for the start form", "or leave out --element for the start form"),
        ),
        ServiceError::TooLarge { what: Oversized::Description, size, limit } => usage(format!(
            "the brief (-d) is {size} characters, over the limit of {limit}; shorten it or raise FORMGEN_LIMIT_DESCRIPTION_CHARS"
        )),
        ServiceError::TooLarge { what: Oversized::Bpmn, size, limit } => usage(format!(
            "{} is {size} bytes, over the limit of {limit}; raise FORMGEN_LIMIT_BPMN_BYTES for a larger process",
            asked.file.map_or("the BPMN".into(), |f| f.display().to_string())
        )),
        ServiceError::TooLarge { size, limit, .. } => usage(format!(
            "{} is {size} bytes, over the limit of {limit}; raise FORMGEN_LIMIT_SCHEMA_BYTES for a larger form",
            asked.schema.map_or("the form".into(), |f| f.display().to_string())
        )),
        ServiceError::CurrentFormRefused(_) => usage(format!(
            "{} is not a form the gate accepts:",
            asked.schema.map_or("the current form (--schema)".into(), |f| f.display().to_string())
        )),
        ServiceError::Unusable { worker, .. } => (
            format!(
                "the Worker \"{worker}\" answered twice with something that is not a usable form; the gate's reasons about the last answer:"
            ),
            1,
        ),
        other => (other.to_string(), 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked() -> Asked<'static> {
        Asked {
            file: Some(Path::new("p.bpmn")),
            schema: None,
            config: "formgen.toml",
            workers: vec!["a", "b"],
        }
    }

    #[test]
    fn flags_not_fields() {
        let (s, code) =
            explain(&ServiceError::Worker(ChoiceError::Ambiguous(vec!["a".into(), "b".into()])), &asked());
        assert_eq!((s.as_str(), code), ("several Workers are configured (a, b); name one with --worker", 2));
        let (s, code) = explain(&SourceError::UnknownProcess("X".into()).into(), &asked());
        assert!(s.starts_with("p.bpmn has no process \"X\"; check --process-id") && code == 2, "{s}");
        for e in [
            ServiceError::BriefRequired,
            ServiceError::Worker(ChoiceError::NoneInReach),
            SourceError::NotBpmn { origin: formgen::sources::Origin::Request, element: "t".into() }.into(),
        ] {
            let (s, code) = explain(&e, &asked());
            assert!(!s.contains("processXml") && !s.contains("\"worker\"") && code == 2, "{s}");
        }
    }

    #[test]
    fn an_unusable_answer_is_said_once() {
        let e = ServiceError::Unusable {
            worker: "w".into(),
            problems: vec!["The form has no components.".into()],
            usage: Default::default(),
        };
        let (s, code) = explain(&e, &asked());
        assert!(!s.contains("no components") && code == 1, "{s}");
    }
}
