//! The `sarif` format: SARIF 2.1.0 as GitHub code scanning takes it. One run; the driver lists each
//! rule the results use; each result has its rule, level, message and one physical location, a path
//! relative to the checkout (`%SRCROOT%`) with its start line and column. Columns count UTF-16 code
//! units (`columnKind`). GitHub computes the fingerprints when the file is uploaded.

use crate::check::Severity;
use serde_json::{Value, json};

use super::{Located, Rule, Run};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

pub(super) fn render(run: &Run) -> String {
    let rules = rules(run);
    let results: Vec<Value> = run.located().map(|l| result(l, &rules, &run.base)).collect();
    let mut driver = json!({
        "name": "formgen",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules.iter().map(|(rule, level)| descriptor(*rule, *level)).collect::<Vec<_>>(),
    });
    if let Some(uri) = information_uri() {
        driver["informationUri"] = json!(uri);
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).expect("a SARIF log serialises") + "\n"
}

/// The package's homepage, else its repository, when the manifest names one.
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")].into_iter().find(|u| !u.is_empty())
}

/// Each rule the results use, in the order of first use, with the gravest level it is used at.
fn rules(run: &Run) -> Vec<(Rule, Severity)> {
    let mut rules: Vec<(Rule, Severity)> = Vec::new();
    for l in run.located() {
        match rules.iter_mut().find(|(r, _)| r.id == l.rule.id) {
            Some((_, level)) => *level = (*level).min(l.severity),
            None => rules.push((l.rule, l.severity)),
        }
    }
    rules
}

fn descriptor(rule: Rule, level: Severity) -> Value {
    json!({
        "id": rule.id,
        // SARIF's friendly name: the id as one Pascal-case word, never the id itself
        "name": pascal(rule.id),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": {"text": rule.summary},
        "defaultConfiguration": {"level": level_word(level)},
    })
}

fn result(l: &Located, rules: &[(Rule, Severity)], base: &str) -> Value {
    let index = rules.iter().position(|(r, _)| r.id == l.rule.id).expect("every rule is listed");
    let file = without_dot_dot(&l.file, base);
    let mut artifact = json!({"uri": uri(&file)});
    if !is_absolute(&file) {
        artifact["uriBaseId"] = json!("%SRCROOT%");
    }
    json!({
        "ruleId": l.rule.id,
        "ruleIndex": index,
        "level": level_word(l.severity),
        "message": {"text": l.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": artifact,
            "region": {"startLine": l.at.line, "startColumn": l.at.column},
        }}],
    })
}

fn level_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path SARIF can name: a URI must not climb with `..`, so a path that does is made absolute (from
/// `base`, the folder relative paths start from) and resolved; any other stays as it is.
fn without_dot_dot(path: &str, base: &str) -> String {
    if !path.split('/').any(|segment| segment == "..") {
        return path.to_string();
    }
    let start = if is_absolute(path) { "" } else { base };
    let mut resolved: Vec<String> = start.split('/').filter(|s| !s.is_empty()).map(String::from).collect();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                resolved.pop();
            }
            other => resolved.push(other.to_string()),
        }
    }
    format!("/{}", resolved.join("/"))
}

fn is_absolute(path: &str) -> bool {
    path.starts_with('/') || std::path::Path::new(path).is_absolute()
}

/// A `/`-separated path as a URI reference: a relative one stays relative, an absolute one is a
/// `file:` URI; every byte but the unreserved ones and `/` is percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::new();
    if is_absolute(path) {
        out.push_str(if path.starts_with('/') { "file://" } else { "file:///" });
    }
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b));
            }
            b':' if out.starts_with("file:") => out.push(':'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `missing_supply` as `MissingSupply`.
fn pascal(id: &str) -> String {
    id.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::super::tests::sample;

    #[test]
    fn a_run_with_a_rule_per_code_used_and_a_located_result_per_message() {
        let log: Value = serde_json::from_str(&super::render(&sample())).unwrap();
        assert_eq!(log["$schema"], super::SCHEMA);
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "formgen");
        assert_eq!(super::pascal("missing_supply"), "MissingSupply");
        assert_eq!(run["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(run["columnKind"], "utf16CodeUnits");
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["process_rule", "missing_supply", "gate_warning"]);
        assert_eq!(rules[1]["defaultConfiguration"]["level"], "error");
        assert_eq!(rules[1]["shortDescription"]["text"], crate::check::Code::MissingSupply.summary());
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        let error = &results[1];
        assert_eq!(
            (&error["ruleId"], &error["ruleIndex"], &error["level"]),
            (&"missing_supply".into(), &1.into(), &"error".into())
        );
        let place = &error["locations"][0]["physicalLocation"];
        assert_eq!(place["artifactLocation"]["uri"], "review.form");
        assert_eq!(place["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert_eq!((&place["region"]["startLine"], &place["region"]["startColumn"]), (&3.into(), &7.into()));
    }

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(super::uri("forms/a b#1.form"), "forms/a%20b%231.form");
        assert_eq!(super::uri("Prüfung.form"), "Pr%C3%BCfung.form");
        assert_eq!(super::uri("/srv/forms/x:y.form"), "file:///srv/forms/x:y.form");
        assert_eq!(super::without_dot_dot("/a/b/../c.form", "/x"), "/a/c.form");
        assert_eq!(super::without_dot_dot("forms/c.form", "/x"), "forms/c.form");
        assert_eq!(super::without_dot_dot("../c.form", "/x/y"), "/x/c.form");
    }
}
