//! The configurations in `examples/` load as they are, and `examples/formgen.toml` shows every limit at
//! its default (so the file the README points a new operator at never drifts from the code).

use std::path::Path;

use formgen::Limits;
use formgen::config::Config;

fn example(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name)
}

#[test]
fn the_example_configuration_loads_with_every_default_and_no_warning() {
    let path = example("formgen.toml");
    let config = Config::load(Some(&path), &|_| None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(config.limits, Limits::default());
    assert_eq!(config.workers.len(), 1, "the builtin Worker");
    assert!(config.warnings().is_empty(), "{:?}", config.warnings());
    let text = std::fs::read_to_string(&path).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    let written = table["limits"].as_table().unwrap();
    let every = serde_json::to_value(Limits::default()).unwrap();
    for name in every.as_object().unwrap().keys() {
        assert!(written.contains_key(name), "examples/formgen.toml leaves out limits.{name}");
    }
}

#[test]
fn the_local_model_example_loads_and_takes_its_endpoint_and_credential_from_the_environment() {
    let path = example("local-model.toml");
    let env = |name: &str| match name {
        "FORMGEN_WORKER_LOCAL_ENDPOINT" => Some("http://127.0.0.1:9999/v1".to_string()),
        "FORMGEN_WORKER_LOCAL_CREDENTIAL" => Some("env:LOCAL_LLM_KEY".to_string()),
        _ => None,
    };
    let config = Config::load(Some(&path), &env).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = config.workers.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["local", "builtin"]);
    let shown = format!("{:?}", config.workers[0]);
    assert!(shown.contains("port: Some(9999)"), "the endpoint from the environment: {shown}");
    assert!(shown.contains("LOCAL_LLM_KEY"), "the credential reference from the environment: {shown}");
    assert!(config.warnings().is_empty(), "{:?}", config.warnings());
}
