//! The CLI never prints a control character it did not write: names from BPMN files (ESC, BEL, CR and
//! LF written as character references, which the reader decodes), form labels and file names reach
//! the text output escaped (`\u{1b}`, `\n`), in every text format; JSON, SARIF and JUnit stay valid.

use std::path::Path;
use std::process::Command;

/// A name that would set the window title, ring the bell, clear the screen and forge an error line.
const HOSTILE: &str = "&#27;]0;owned&#7;&#27;[2J&#13;&#10;error: forged";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let xml = std::fs::read_to_string(crate::common::fixtures().join("bpmn/vacation.bpmn")).unwrap();
    let xml = xml
        .replace("name=\"Genehmigt?\"", &format!("name=\"Genehmigt{HOSTILE}\""))
        .replace("name=\"Antrag prüfen\"", &format!("name=\"Antrag{HOSTILE}\""))
        .replace("name=\"Urlaubsantrag\"", &format!("name=\"Urlaub{HOSTILE}\""))
        .replace("name=\"Teamleitung\"", &format!("name=\"Lead{HOSTILE}\""));
    std::fs::write(dir.path().join("vacation.bpmn"), xml).unwrap();
    let form = r#"{"id": "approve-vacation", "components": [{"type": "textarea", "key": "comment", "label": "Kommentar\u001b]0;owned\u0007\r\nerror: forged"}]}"#;
    std::fs::write(dir.path().join("approve\u{1b}[2J\n.form"), form).unwrap();
    std::fs::write(dir.path().join("broken\u{7}\r\nerror: forged.form"), "{not json").unwrap();
    dir
}

fn formgen(args: &[&str], dir: &Path) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(args)
        .current_dir(dir)
        .env_remove("FORMGEN_CONFIG")
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// No control character but the line breaks the CLI writes, and no line a name forged.
fn assert_clean(what: &str, text: &str) {
    let raw: Vec<char> = text.chars().filter(|c| c.is_control() && *c != '\n').collect();
    assert!(raw.is_empty(), "{what} prints {raw:?} it did not write:\n{text}");
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with("error: forged")),
        "{what} prints a line a name forged:\n{text}"
    );
}

#[test]
fn check_project_text_and_github_escape_names_and_file_names() {
    let dir = project();
    let (out, err) = formgen(&["check", "--project", "."], dir.path());
    assert_clean("check --project", &out);
    assert_clean("check --project (stderr)", &err);
    // an element's name broken over lines is phrased on one; the rest of its control characters escaped
    assert!(out.contains("Genehmigt\\u{1b}]0;owned\\u{7}\\u{1b}[2J error: forged"), "{out}");
    assert!(out.contains("broken\\u{7}\\r\\nerror: forged.form"), "{out}");
    let (out, _) = formgen(&["check", "--project", ".", "--format", "github"], dir.path());
    assert_clean("check --format github", &out);
    assert!(out.contains("\\nerror: forged"), "{out}");
}

#[test]
fn check_of_named_files_escapes_them() {
    let dir = project();
    let (out, err) = formgen(&["check", "--process", "vacation.bpmn", "approve\u{1b}[2J\n.form"], dir.path());
    assert_clean("check", &out);
    assert_clean("check (stderr)", &err);
    assert!(out.contains("approve\\u{1b}[2J\\n.form"), "{out}");
    let (out, err) = formgen(&["check", "missing\u{1b}]0;x\u{7}\n.form"], dir.path());
    assert_clean("check of a missing file", &(out + &err));
}

#[test]
fn junit_json_and_sarif_stay_valid() {
    let dir = project();
    let (out, _) = formgen(&["check", "--project", ".", "--format", "junit"], dir.path());
    let raw: Vec<char> = out.chars().filter(|c| c.is_control() && *c != '\n').collect();
    assert!(raw.is_empty(), "JUnit XML 1.0 cannot hold {raw:?}:\n{out}");
    let mut reader = quick_xml::Reader::from_str(&out);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("the JUnit report is not XML: {e}\n{out}"),
        }
    }
    for format in ["json", "sarif"] {
        let (out, _) = formgen(&["check", "--project", ".", "--format", format], dir.path());
        for line in
            out.lines().filter(|l| !l.trim().is_empty()).take(if format == "json" { usize::MAX } else { 0 })
        {
            serde_json::from_str::<serde_json::Value>(line)
                .unwrap_or_else(|e| panic!("{format}: {e}: {line}"));
        }
        if format == "sarif" {
            let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert!(sarif["runs"][0]["results"].to_string().contains("\\u001b"), "{out}");
        }
    }
}

#[test]
fn outline_text_and_generate_stderr_escape_names() {
    let dir = project();
    let (out, err) = formgen(&["outline", "--element", "Task_approve", "vacation.bpmn"], dir.path());
    assert_clean("outline", &out);
    assert_clean("outline (stderr)", &err);
    assert!(out.contains("Urlaub\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\r\\nerror: forged"), "{out}");
    assert!(out.contains("Lead\\u{1b}]0;owned"), "{out}");
    let (_, err) =
        formgen(&["generate", "--process", "vacation.bpmn", "--element", "Task_approve"], dir.path());
    assert_clean("generate (stderr)", &err);
    let (_, err) = formgen(
        &["generate", "--process", "vacation.bpmn", "--element", "Task\u{1b}[2J\nerror: x"],
        dir.path(),
    );
    assert_clean("generate's refusal", &err);
    assert!(err.contains("Task\\u{1b}[2J\\nerror: x"), "{err}");
}
