//! Files that turn hostile under a running service: a process draft or a project form swapped for a
//! FIFO between the moment the store lists it and the moment it is opened. Opening a FIFO with no
//! writer blocks; the service must answer (the file skipped as unreadable) and keep answering.

#![cfg(unix)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::served::spawn_serve;

const PROCESS: &str = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P"><userTask id="t"><extensionElements><zeebe:formDefinition formId="f"/></extensionElements></userTask></process></definitions>"#;

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

/// Until `stop`, swaps `target` between a regular file holding `text` and a FIFO, each by an atomic
/// rename, as fast as it can: the store lists one and opens the other.
fn swap_until(
    stop: Arc<AtomicBool>,
    target: std::path::PathBuf,
    text: &'static str,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let (file, fifo) = (target.with_extension("file-tmp"), target.with_extension("fifo-tmp"));
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            std::fs::write(&file, text).unwrap();
            std::fs::rename(&file, &target).unwrap();
            std::thread::yield_now();
            mkfifo(&fifo);
            std::fs::rename(&fifo, &target).unwrap();
            std::thread::yield_now();
            swaps += 1;
        }
        // leave the regular file in place
        std::fs::write(&file, text).unwrap();
        std::fs::rename(&file, &target).unwrap();
        swaps
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draft_or_form_swapped_for_a_fifo_never_hangs_the_service() {
    let dir = tempfile::tempdir().unwrap();
    let processes = dir.path().join("processes");
    std::fs::create_dir_all(processes.join("drafts")).unwrap();
    std::fs::create_dir_all(processes.join("deployed")).unwrap();
    std::fs::create_dir_all(processes.join("forms")).unwrap();
    std::fs::write(processes.join("deployed/p.bpmn"), PROCESS).unwrap();
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\n[processes]\ndir = \"{}\"\n[limits]\nfile_read_timeout_s = 2\n",
        processes.display()
    );
    let served = spawn_serve(&toml, dir.path());
    let stop = Arc::new(AtomicBool::new(false));
    let swappers = [
        swap_until(stop.clone(), processes.join("drafts/p.bpmn"), PROCESS),
        swap_until(stop.clone(), processes.join("forms/f.form"), r#"{"id": "f", "components": []}"#),
    ];
    let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let outline = |body: serde_json::Value| {
        client.post(format!("{}/api/formgen/outline", served.url)).json(&body).send()
    };
    let started = Instant::now();
    let mut answered = 0;
    while started.elapsed() < Duration::from_secs(3) {
        let r = outline(json!({"processId": "P", "elementId": "t"}))
            .await
            .unwrap_or_else(|e| panic!("request {answered} did not answer: {e}"));
        assert_eq!(r.status(), 200, "the draft or, when it was unreadable, the deployment");
        let body: serde_json::Value = r.json().await.unwrap();
        assert!(["draft", "deployment"].contains(&body["processSource"].as_str().unwrap()), "{body}");
        answered += 1;
    }
    stop.store(true, Ordering::Relaxed);
    let swaps: usize = swappers.into_iter().map(|s| s.join().unwrap()).sum();
    eprintln!(
        "FIGURE {answered} outlines answered while a draft and a form were swapped for FIFOs {swaps} times"
    );
    // and later requests still work, from the draft and with the form
    let r = outline(json!({"processId": "P", "elementId": "t"})).await.expect("a later request answers");
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["processSource"], "draft", "{body}");
    let logs = served.stderr.lock().unwrap().clone();
    assert!(logs.contains("not a regular file"), "a FIFO was met and skipped: {logs}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_as_a_file_credential_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("key"));
    let toml = "[server]\nlisten = \"127.0.0.1:0\"\n[[workers]]\nname = \"m\"\nprovider = \"messages\"\nendpoint = \"http://127.0.0.1:9\"\nmodel = \"m\"\ncredential = \"file:key\"\n";
    let served = spawn_serve(toml, dir.path());
    let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    for _ in 0..2 {
        let r = client
            .post(format!("{}/api/formgen/generate", served.url))
            .json(&json!({"description": "x"}))
            .send()
            .await
            .expect("the generation answers");
        assert_eq!(r.status(), 503);
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["code"], "credential_unavailable", "{body}");
        assert!(body["error"].as_str().unwrap().contains("not a regular file"), "{body}");
    }
}
