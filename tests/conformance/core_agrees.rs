//! The editors' core (`@formgen/core`, the core compiled to WebAssembly and run in Node) answers
//! exactly what the CLI prints: the outline of every corpus BPMN file (`formgen outline --json`), and
//! for every step of `corpus/pairs/` and `pairs-extra/` its builtin draft (`formgen generate --worker
//! builtin`), its data picture (`outline --json --element`) and the check of the author's form
//! (`formgen check --format json`), each with the pair's project folder. Any difference fails, with the file and the first differing answer.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use formgen::words::printable;
use serde_json::{Value, json};

const FORMGEN: &str = env!("CARGO_BIN_EXE_formgen");

/// The Node side: `web/packages/core/test/answer.mjs`, with the built `.wasm` beside it.
fn answerer() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wasm = root.join("web/packages/core/dist/formgen_core.wasm");
    assert!(
        wasm.is_file(),
        "the core's WebAssembly is not built ({}); run `node web/packages/core/build.mjs` (bash .ci/conformance does)",
        wasm.display()
    );
    root.join("web/packages/core/test/answer.mjs")
}

/// The core's answers to `calls`, in order, from one Node process.
fn core_answers(calls: &[Value]) -> Vec<Value> {
    let mut node = Command::new("node")
        .arg(answerer())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs (the conformance tier needs Node.js)");
    let mut stdin = node.stdin.take().unwrap();
    let input: String = calls.iter().map(|c| format!("{c}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let answers: Vec<Value> = BufReader::new(node.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    writer.join().unwrap().unwrap();
    assert!(node.wait().unwrap().success(), "the core's answerer failed");
    assert_eq!(answers.len(), calls.len(), "an answer per call");
    answers
}

/// What the CLI prints: stdout, stderr, and whether it succeeded.
fn cli(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(FORMGEN).args(args).env_remove("FORMGEN_CONFIG").output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr), out.status.success())
}

/// The project files of a folder as the CLI lists them, for the core.
fn project_files(dir: &Path) -> Vec<Value> {
    let bounds = formgen::project::ProjectBounds::default();
    let listing = formgen::project::list_folder(dir, &bounds).unwrap();
    listing
        .files
        .iter()
        .map(|f| json!({ "name": f.name, "text": String::from_utf8_lossy(&std::fs::read(&f.path).unwrap()) }))
        .collect()
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_core_outlines_every_corpus_file_as_the_cli_does() {
    let dir = crate::common::shared().join("corpus/bpmn");
    let files = crate::common::bpmn_files(&dir);
    let calls: Vec<Value> = files
        .iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            json!({ "call": "outline", "request": { "processName": name }, "processFile": path })
        })
        .collect();
    let answers = core_answers(&calls);
    let mut differ = Vec::new();
    for (path, answer) in files.iter().zip(&answers) {
        let (out, _, ok) = cli(&["outline", "--json", path.to_str().unwrap()]);
        let printed: Option<Value> = ok.then(|| serde_json::from_str(out.trim()).unwrap());
        if printed.as_ref() != answer.get("ok") {
            differ.push(path.display().to_string());
        }
    }
    println!(
        "the core's outline agrees with the CLI on {} of {} corpus files",
        files.len() - differ.len(),
        files.len()
    );
    assert!(
        differ.is_empty(),
        "the core's outline differs from `formgen outline --json` on:\n{}",
        differ.join("\n")
    );
}

/// One step of a pairs corpus: its BPMN file, element, author's form and project folder.
struct Pair {
    bpmn: PathBuf,
    element: String,
    form: PathBuf,
    project: PathBuf,
}

fn pairs(corpus: &str, empty: &Path) -> Vec<Pair> {
    let dir = crate::common::shared().join("corpus").join(corpus);
    let text = std::fs::read_to_string(dir.join("pairs.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let pair: Value = serde_json::from_str(line).unwrap();
            let at = |key: &str| dir.join(pair[key].as_str().unwrap());
            let project = pair.get("project").and_then(Value::as_str).map(|p| dir.join(p));
            Pair {
                bpmn: at("bpmn"),
                element: pair["elementId"].as_str().unwrap().to_string(),
                form: at("form"),
                project: project.filter(|p| p.is_dir()).unwrap_or_else(|| empty.to_path_buf()),
            }
        })
        .collect()
}

/// The builtin draft as `formgen generate` writes it: the schema on stdout, the warnings and findings
/// on stderr, in the words the CLI uses.
fn printed_draft(pair: &Pair) -> Option<(Value, Vec<String>)> {
    let args = [
        "generate",
        pair.bpmn.to_str().unwrap(),
        "--element",
        &pair.element,
        "--worker",
        "builtin",
        "--project",
        pair.project.to_str().unwrap(),
    ];
    let (out, err, ok) = cli(&args);
    let prefixes = ["warning: ", "error: ", "info: "];
    let said =
        err.lines().filter(|l| prefixes.iter().any(|p| l.starts_with(p))).map(str::to_string).collect();
    ok.then(|| (serde_json::from_str(&out).unwrap(), said))
}

/// The core's draft in the CLI's words (a line break of the process's own, a name written on two
/// lines, escaped as the CLI escapes what it did not write).
fn answered_draft(answer: &Value) -> Option<(Value, Vec<String>)> {
    let drafted = answer.get("ok")?;
    let mut said: Vec<String> = drafted["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| format!("warning: {}", printable(w.as_str().unwrap())))
        .collect();
    said.extend(drafted["findings"].as_array().unwrap().iter().map(|f| {
        format!(
            "{}: {} [{}]",
            f["severity"].as_str().unwrap(),
            printable(f["message"].as_str().unwrap()),
            f["code"].as_str().unwrap()
        )
    }));
    Some((drafted["schema"].clone(), said))
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_core_drafts_pictures_and_checks_every_pair_as_the_cli_does() {
    let empty = tempfile::tempdir().unwrap();
    let mut all = pairs("pairs", empty.path());
    all.extend(pairs("pairs-extra", empty.path()));
    let mut calls = Vec::new();
    for pair in &all {
        let project = project_files(&pair.project);
        let (bpmn, form) = (pair.bpmn.to_str().unwrap(), pair.form.to_str().unwrap());
        calls.push(json!({
            "call": "draft",
            "request": { "elementId": pair.element, "project": project },
            "processFile": bpmn,
        }));
        calls.push(json!({
            "call": "outline",
            "request": { "elementId": pair.element, "project": project, "processName": pair.bpmn.file_name().unwrap().to_string_lossy() },
            "processFile": bpmn,
        }));
        let text = String::from_utf8_lossy(&std::fs::read(&pair.form).unwrap()).into_owned();
        calls.push(json!({
            "call": "check",
            "request": {
                "elementId": pair.element, "project": project, "form": text,
                "formName": form, "processName": bpmn,
            },
            "processFile": bpmn,
        }));
    }
    let answers = core_answers(&calls);
    let (mut differ, mut agreed) = (Vec::new(), 0);
    for (pair, answers) in all.iter().zip(answers.chunks(3)) {
        let before = differ.len();
        let at = format!("{} {}", pair.bpmn.display(), pair.element);
        if printed_draft(pair) != answered_draft(&answers[0]) {
            differ.push(format!("draft of {at}: core answered {}", answers[0]));
        }
        let args = [
            "check",
            pair.form.to_str().unwrap(),
            "--process",
            pair.bpmn.to_str().unwrap(),
            "--element",
            &pair.element,
            "--project",
            pair.project.to_str().unwrap(),
            "--format",
            "json",
        ];
        let (out, _, _) = cli(&args);
        let printed: Option<Value> = out.lines().next().map(|l| serde_json::from_str(l).unwrap());
        if printed.as_ref() != answers[2].get("ok") {
            differ.push(format!(
                "check of {at}: the CLI printed {printed:?}, the core answered {}",
                answers[2]
            ));
        }
        let args = [
            "outline",
            "--json",
            pair.bpmn.to_str().unwrap(),
            "--element",
            &pair.element,
            "--project",
            pair.project.to_str().unwrap(),
        ];
        let (out, _, _) = cli(&args);
        let printed: Option<Value> = out.lines().next().map(|l| serde_json::from_str(l).unwrap());
        if printed.as_ref() != answers[1].get("ok") {
            differ.push(format!(
                "outline of {at}: the CLI printed {printed:?}, the core answered {}",
                answers[1]
            ));
        }
        agreed += usize::from(differ.len() == before);
    }
    println!(
        "the core's drafts, pictures and checks agree with the CLI on {agreed} of {} pair steps",
        all.len()
    );
    assert!(differ.is_empty(), "the core differs from the CLI:\n{}", differ.join("\n"));
}
