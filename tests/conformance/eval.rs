//! `formgen eval`'s driver with the builtin drafter, through the service, over `corpus/pairs/`:
//! every pair loads, every embedded answer is hidden, the corpus's `inputKeys` agree with the keys
//! read from the forms (differences printed), the summary is printed for the README, and the issue's
//! floors for the builtin drafter hold: key recall >= 50% at precision >= 50%, type agreement >= 85%,
//! required agreement >= 80%, prompt key coverage >= 65%.

use formgen::eval::{self, PairOrProblem, Quiet};
use formgen::{config::Config, service};

#[tokio::test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
async fn eval_the_builtin_drafter_on_the_corpus_pairs() {
    let (_, config, pairs) = load("corpus/pairs");
    let mut differences = Vec::new();
    for item in &pairs {
        match item {
            PairOrProblem::Pair(p) => {
                let defs = formgen::bpmn::read_str(&p.input.bpmn_text);
                let leaked = defs
                    .processes
                    .iter()
                    .any(|pr| pr.element(&p.element_id).is_some_and(|e| pr.linked_form(e).is_some()));
                assert!(!leaked, "{}#{}: the embedded form reaches the generator", p.bpmn, p.element_id);
                for d in p.key_differences() {
                    differences.push(format!("{}#{}: {d}", p.bpmn, p.element_id));
                }
            }
            PairOrProblem::Problem(p) => panic!("{}#{}: {}", p.bpmn, p.element_id, p.error),
        }
    }
    let report = builtin_report(&config, pairs).await;
    println!("inputKeys differing from the forms' keys: {}", differences.len());
    for d in &differences {
        println!("  {d}");
    }
    let summary = report.summary();
    assert_eq!(summary.pairs, 32);
    assert_eq!(report.exit_code(), 0);
    let at_least = |what: &str, value: Option<f64>, floor: f64| {
        let value = value.unwrap_or_else(|| panic!("{what}: nothing measured"));
        assert!(value >= floor, "{what} {:.1}% is below the floor {:.0}%", value * 100.0, floor * 100.0);
    };
    at_least("key recall", summary.key_recall, 0.50);
    at_least("key precision", summary.key_precision, 0.50);
    at_least("type agreement", summary.type_agreement, 0.85);
    at_least("required agreement", summary.required_agreement, 0.80);
    at_least("prompt key coverage", summary.prompt_key_coverage, 0.65);
}

/// `corpus/pairs-extra/` names no project folders: its pairs find theirs by the corpus's layout
/// (`projects/<prefix>`), without their own forms, and the builtin drafter's figures on it, with
/// that context, are printed for the README.
#[tokio::test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
async fn eval_the_builtin_drafter_on_pairs_extra_with_its_project_folders() {
    let (dir, config, pairs) = load("corpus/pairs-extra");
    for item in &pairs {
        let PairOrProblem::Pair(p) = item else { panic!("{item:?}") };
        let name = format!("{}#{}", p.bpmn, p.element_id);
        let prefix = p.bpmn.trim_start_matches("bpmn/").split("__").next().unwrap();
        let folder = dir.join("projects").join(prefix);
        assert!(folder.is_dir(), "{name}: no project folder");
        assert!(p.input.project_files.iter().all(|f| f.starts_with(&folder)), "{name}: files from elsewhere");
        let author: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(&p.form)).unwrap()).unwrap();
        for f in p.input.project_files.iter().filter(|f| f.extension().is_some_and(|e| e == "form")) {
            let schema: serde_json::Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
            assert!(!eval::same_form(&schema, &author), "{name}: {} is its own form", f.display());
        }
    }
    let with_context =
        pairs.iter().filter(|i| matches!(i, PairOrProblem::Pair(p) if !p.input.project_files.is_empty()));
    assert_eq!(with_context.count(), 10, "one project folder holds only the pair's own form");
    let report = builtin_report(&config, pairs).await;
    assert_eq!(report.summary().pairs, 11);
    assert_eq!(report.exit_code(), 0);
}

/// The builtin drafter's report on `pairs`, through the service, with its table and summary printed.
async fn builtin_report(config: &Config, pairs: Vec<PairOrProblem>) -> eval::Report {
    let service = service::Service::new(config).unwrap();
    // builtin; coverage is measured on `describe`'s text until the rendered prompt is exposed
    let report =
        eval::run(pairs, 4, |input| eval::service::generate(&service, "", "", input), &mut Quiet).await;
    println!("{}", report.table());
    println!("{}", report.json_lines().lines().last().unwrap());
    report
}

/// The pairs folder at `corpus` in `../shared`, the default configuration, and its pairs.
fn load(corpus: &str) -> (std::path::PathBuf, Config, Vec<PairOrProblem>) {
    let dir = crate::common::shared().join(corpus);
    let config = Config::load(None, &|_| None).unwrap();
    let pairs = eval::load_pairs(&dir, &config.limits).unwrap();
    (dir, config, pairs)
}
