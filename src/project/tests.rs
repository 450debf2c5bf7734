//! The project loader on `fixtures/project/` and on folders made for one case each.

use serde_json::json;

use std::path::{Path, PathBuf};

use super::*;

fn basic() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/project/basic")
}

fn generous() -> ProjectBounds {
    ProjectBounds {
        max_files: 100,
        max_bytes_total: 1 << 20,
        max_file_bytes: 1 << 20,
        ..ProjectBounds::default()
    }
}

#[test]
fn a_folder_is_read_recursively_and_what_does_not_parse_is_skipped() {
    let (project, listing) = read_folder(&basic(), &generous()).unwrap();
    let names: Vec<_> = listing.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "broken.form",
            "empty.dmn",
            "nested/deeper/approval.form",
            "not-a-form.form",
            "order-check.form",
            "risk.dmn"
        ],
        "node_modules, dot-folders and other files are passed over"
    );
    assert_eq!(project.files, ["nested/deeper/approval.form", "order-check.form", "risk.dmn"]);
    assert_eq!(project.forms.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["approval", "order-check"]);
    assert_eq!(
        project.decisions.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(),
        ["risk-level", "country-risk"]
    );
    assert_eq!(project.warnings.len(), 3, "{:#?}", project.warnings);
    assert!(
        project.warnings[0].starts_with("broken.form was skipped: it is not JSON ("),
        "{}",
        project.warnings[0]
    );
    assert_eq!(project.warnings[1], "empty.dmn was skipped: it holds no DMN decision.");
    assert_eq!(
        project.warnings[2],
        "not-a-form.form was skipped: it is not a JSON object, so it is not a form-js form."
    );

    let order = project.form("order-check").unwrap();
    assert_eq!(order.file, "order-check.form");
    let fields: Vec<_> =
        order.input_fields.iter().map(|f| (f.key.as_str(), f.label.as_str(), f.kind.as_str())).collect();
    assert_eq!(
        fields,
        [
            ("customerName", "Customer name", "textfield"),
            ("address.city", "City", "textfield"),
            ("tier", "Tier", "select")
        ]
    );
    assert!(order.input_fields[0].required);
    assert_eq!(order.input_fields[2].options.len(), 2);
    let approval = project.form(" approval ").unwrap();
    assert_eq!(approval.input_fields[1].key, "items.price");
    assert!(approval.input_fields[1].readonly && approval.input_fields[1].in_list);

    let risk = project.decision("risk-level").unwrap();
    assert_eq!(risk.required_decisions, ["country-risk"]);
    assert_eq!(risk.outputs[0].allowed_values, ["high", "low"]);
    assert_eq!(project.decision("country-risk").unwrap().outputs[0].name, "countryRisk");
    assert!(project.form("").is_none() && project.decision("nope").is_none());
    let tier: Vec<_> =
        project.fields("tier").map(|(form, field)| (form.id.as_str(), field.label.as_str())).collect();
    assert_eq!(tier, [("order-check", "Tier")]);
    assert_eq!(project.fields("address.city").count(), 1);
    assert_eq!(project.fields("city").count(), 0, "keys are full binding paths");

    let json = serde_json::to_value(&project).unwrap();
    assert_eq!(json["forms"][1]["inputFields"][2]["type"], "select");
    assert_eq!(json["forms"][1]["inputFields"][2]["options"][0], json!({"value": "gold", "label": "Gold"}));
    assert!(json["forms"][1].get("schema").is_none(), "schemas stay out of the JSON");
    assert_eq!(json["decisions"][0]["hitPolicy"], "FIRST");
}

#[test]
fn an_unchanged_folder_lists_equal_and_a_change_does_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.form"), r#"{"id": "a", "components": []}"#).unwrap();
    let first = list_folder(dir.path(), &generous()).unwrap();
    assert_eq!(first, list_folder(dir.path(), &generous()).unwrap());
    assert!(first.newest().is_some());
    std::fs::write(
        dir.path().join("a.form"),
        r#"{"id": "a", "components": [{"type": "textfield", "key": "x"}]}"#,
    )
    .unwrap();
    let second = list_folder(dir.path(), &generous()).unwrap();
    assert_ne!(first, second, "the size changed");
    assert_eq!(read_listing(&second, &generous()).unwrap().forms[0].input_fields[0].key, "x");
    std::fs::write(dir.path().join("b.dmn"), "<x/>").unwrap();
    assert_ne!(second, list_folder(dir.path(), &generous()).unwrap(), "a file was added");
}

#[test]
fn bounds_refuse_with_a_sentence() {
    let few = ProjectBounds { max_files: 5, ..generous() };
    let err = list_folder(&basic(), &few).unwrap_err();
    assert!(matches!(err, ProjectError::TooManyFiles { limit: 5, .. }));
    assert!(err.to_string().contains("holds more than 5 .form and .dmn files"), "{err}");

    let small_total = ProjectBounds { max_bytes_total: 1_000, ..generous() };
    let err = list_folder(&basic(), &small_total).unwrap_err();
    assert!(matches!(err, ProjectError::TooLargeTotal { limit: 1_000, size, .. } if size > 1_000), "{err}");
    assert!(err.to_string().contains("over this installation's limit of 1000 bytes for a project"), "{err}");

    // in a folder, one file over the per-file size is skipped, not fatal
    let small_file = ProjectBounds { max_file_bytes: 700, ..generous() };
    let (project, _) = read_folder(&basic(), &small_file).unwrap();
    assert!(project.decision("risk-level").is_none());
    assert!(
        project
            .warnings
            .iter()
            .any(|w| w.starts_with("risk.dmn is ") && w.contains("limit of 700 bytes for one project file")),
        "{:#?}",
        project.warnings
    );
}

#[test]
fn a_dmn_file_that_breaks_keeps_its_first_decisions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cut.dmn"), &DMN[..DMN.len() - 30]).unwrap();
    let (project, _) = read_folder(dir.path(), &generous()).unwrap();
    assert_eq!(project.decision("d").unwrap().inputs[0].expression, "a");
    assert_eq!(project.warnings.len(), 1);
    assert!(project.warnings[0].starts_with("cut.dmn breaks off after "), "{}", project.warnings[0]);
}

#[test]
fn a_missing_folder_is_an_error_naming_it() {
    let err = read_folder(Path::new("/nonexistent/project"), &generous()).unwrap_err();
    assert!(err.to_string().starts_with("the project folder /nonexistent/project cannot be read"), "{err}");
}

#[cfg(unix)]
#[test]
fn links_are_followed_only_inside_the_folder_and_loops_end() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.form"), r#"{"id": "outside", "components": []}"#).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("..data/sub")).unwrap();
    std::fs::write(root.join("..data/mounted.form"), r#"{"id": "mounted", "components": []}"#).unwrap();
    symlink(root.join("..data/mounted.form"), root.join("mounted.form")).unwrap(); // a ConfigMap's shape
    symlink(outside.path().join("secret.form"), root.join("secret.form")).unwrap();
    symlink(outside.path(), root.join("elsewhere")).unwrap();
    symlink(root, root.join("loop")).unwrap();
    symlink(root.join("self.form"), root.join("self.form")).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/x.form"), r#"{"id": "git", "components": []}"#).unwrap();

    let (project, listing) = read_folder(root, &generous()).unwrap();
    assert_eq!(listing.files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["mounted.form"]);
    assert_eq!(project.forms[0].id, "mounted");
    let warnings = project.warnings.join("\n");
    assert!(warnings.contains("elsewhere is a link to outside the project folder"), "{warnings}");
    assert!(warnings.contains("secret.form is a link to outside the project folder"), "{warnings}");
    assert!(warnings.contains("self.form is a link that cannot be followed"), "{warnings}");
    assert!(!warnings.contains("loop"), "a folder reached twice is read once, quietly: {warnings}");
}

#[test]
fn depth_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut deep = dir.path().to_path_buf();
    for i in 0..20 {
        deep = deep.join(format!("d{i}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("deep.form"), r#"{"id": "deep", "components": []}"#).unwrap();
    let (project, _) = read_folder(dir.path(), &generous()).unwrap();
    assert!(project.forms.is_empty());
    assert!(project.warnings[0].contains("nested more than 16 levels deep"), "{:?}", project.warnings);
}

#[test]
fn duplicate_ids_warn_and_the_first_is_linked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.form"),
        r#"{"id": "same", "components": [{"type": "textfield", "key": "a"}]}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("b.form"), r#"{"id": "same", "components": []}"#).unwrap();
    let (project, _) = read_folder(dir.path(), &generous()).unwrap();
    assert_eq!(project.forms.len(), 2);
    assert_eq!(project.form("same").unwrap().file, "a.form");
    assert_eq!(
        project.warnings,
        ["b.form has the form id \"same\" that a.form has too; a.form is the one linked."]
    );
}

const DMN: &str = r#"<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/"><decision id="d" name="D"><decisionTable><input label="A"><inputExpression typeRef="string"><text>a</text></inputExpression></input></decisionTable></decision></definitions>"#;

#[test]
fn a_request_project_and_its_bounds() {
    let forms = [json!({"id": "f", "components": [{"type": "number", "key": "n"}]}), json!("not a form")];
    let decisions = [DMN.to_string(), "<definitions".to_string()];
    let project = from_request(&forms, &decisions, &generous()).unwrap();
    assert_eq!(project.form("f").unwrap().file, "forms[0]");
    assert_eq!(project.decision("d").unwrap().inputs[0].expression, "a");
    assert_eq!(
        project.warnings,
        [
            "forms[1] was skipped: it is not a JSON object, so it is not a form-js form.",
            "decisions[1] was skipped: it holds no DMN decision."
        ]
    );

    let err = from_request(&forms, &decisions, &ProjectBounds { max_files: 3, ..generous() }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the request sends 4 forms and decisions, over this installation's limit of 3 for a project; send only \
         those of this process's project, or ask the operator to raise the limit"
    );
    let err =
        from_request(&forms, &decisions, &ProjectBounds { max_file_bytes: 100, ..generous() }).unwrap_err();
    assert!(matches!(&err, ProjectError::TooLarge { what, .. } if what == "decisions[0]"), "{err}");
    let expected =
        format!("decisions[0] is {} bytes, over this installation's limit of 100 bytes", DMN.len());
    assert!(err.to_string().starts_with(&expected), "{err}");
    let err =
        from_request(&forms, &decisions, &ProjectBounds { max_bytes_total: 250, ..generous() }).unwrap_err();
    assert!(err.to_string().starts_with("the request's project comes to "), "{err}");
}

#[test]
fn the_request_overlays_the_folder() {
    let (mut project, _) = read_folder(&basic(), &generous()).unwrap();
    let newer = json!({"id": "order-check", "components": [{"type": "textfield", "key": "renamed"}]});
    let sent =
        from_request(&[newer, json!({"id": "new", "components": []})], &[DMN.to_string()], &generous())
            .unwrap();
    project.overlay(sent);
    assert_eq!(project.form("order-check").unwrap().input_fields[0].key, "renamed");
    assert_eq!(project.form("order-check").unwrap().file, "forms[0]");
    assert!(
        project.form("new").is_some()
            && project.decision("d").is_some()
            && project.decision("risk-level").is_some()
    );
    assert_eq!(project.forms.len(), 3);
}

#[cfg(unix)]
#[test]
fn a_form_that_became_a_fifo_after_listing_is_skipped_at_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.form"), r#"{"id": "a", "components": []}"#).unwrap();
    std::fs::write(dir.path().join("b.form"), r#"{"id": "b", "components": []}"#).unwrap();
    let listing = list_folder(dir.path(), &generous()).unwrap();
    // swapped between the listing and the read, as a hostile writer of the folder could
    std::fs::remove_file(dir.path().join("a.form")).unwrap();
    crate::files::tests::mkfifo(&dir.path().join("a.form"));
    let project = crate::files::tests::within_5s(move || read_listing(&listing, &generous()).unwrap());
    assert_eq!(project.files, ["b.form"], "the other form is read");
    assert!(
        project
            .warnings
            .iter()
            .any(|w| w.starts_with("a.form could not be read") && w.contains("not a regular file")),
        "{:?}",
        project.warnings
    );
}
