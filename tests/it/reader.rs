//! The lenient reader through the public API, on the project's own fixtures: agreement with
//! bpmn-moddle's outlines of them (made once with ../shared/tools/bpmn-reference and kept in
//! fixtures/bpmn/reference/), hostile inputs, broken drafts, and the never-panic properties.

use std::io::Read;
use std::time::{Duration, Instant};

use crate::common::moddle::{Reference, compare};
use formgen::bpmn::ElementKind;
use formgen::bpmn::{self, ReadError};
use formgen::outline;
use proptest::prelude::*;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(crate::common::fixtures().join("bpmn").join(name)).unwrap()
}

fn outline_json(defs: &bpmn::Definitions) -> String {
    serde_json::to_string(&outline::OutlineFile::new("x", defs)).unwrap()
}

#[test]
fn fixtures_agree_with_bpmn_moddle() {
    let dir = crate::common::fixtures().join("bpmn");
    let mut compared = 0;
    for path in crate::common::bpmn_files(&dir) {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let reference: Reference = serde_json::from_slice(
            &std::fs::read(dir.join("reference").join(format!("{stem}.json"))).unwrap(),
        )
        .unwrap();
        let (_, problems) = compare(&std::fs::read(&path).unwrap(), &reference);
        assert!(problems.is_empty(), "{stem}: {problems:#?}");
        compared += reference.ok as usize;
    }
    assert!(compared >= 10, "only {compared} fixtures compared");
}

#[test]
fn reads_the_contract_fields() {
    let defs = bpmn::read(&fixture("vacation.bpmn"));
    let p = defs.process("vacation-request").unwrap();
    assert_eq!(p.name, "Urlaubsantrag");
    let approve = p.element("Task_approve").unwrap();
    assert_eq!((approve.kind, approve.form_id.as_str()), (ElementKind::UserTask, "approve-vacation"));
    assert_eq!(approve.documentation, "Die Teamleitung prüft Zeitraum & Vertretung und entscheidet.");
    assert_eq!(p.element("Flow_long").unwrap().condition, "= urlaubstage > 10");
    assert_eq!(
        p.variables(),
        ["urlaubstage", "startDate", "vertretung", "employeeName", "approved", "comment"]
    );
}

#[test]
fn keeps_what_later_stages_need() {
    let defs = bpmn::read(&fixture("vacation.bpmn"));
    let p = &defs.processes[0];
    let approve = p.element_index("Task_approve").unwrap();
    let written: Vec<&str> =
        p.uses_of(approve).filter(|u| u.role.is_written()).map(|u| u.name.as_str()).collect();
    assert_eq!(written, ["approved", "comment"]);
    let flow = p.element("Flow_2").unwrap();
    assert_eq!((flow.source.as_str(), flow.target.as_str()), ("Task_approve", "Gateway_approved"));
    assert_eq!(p.element("Gateway_approved").unwrap().default_flow, "Flow_no");
    let lanes: Vec<&str> = p.lanes_of("Task_approve").map(|l| l.name.as_str()).collect();
    assert_eq!(lanes, ["Teamleitung"]);

    let order = bpmn::read(&fixture("order.bpmn"));
    let p = &order.processes[0];
    let check = p.element("check").unwrap();
    let linked = p.linked_form(check).expect("the linked zeebe:userTaskForm");
    assert!(linked.body.contains("\"key\":\"inStock\""));
    assert_eq!(p.element("packItem").unwrap().parent, p.element_index("pack"));
    assert_eq!(p.element("late").unwrap().attached_to, "pack");
}

#[test]
fn encodings() {
    let name = |f: &str| bpmn::read(&fixture(f)).processes[0].name.clone();
    assert_eq!(name("latin1.bpmn"), "Bestellung prüfen");
    assert_eq!(name("mislabelled-utf8.bpmn"), "Café €");
    assert_eq!(name("utf16le-bom.bpmn"), "日本語のプロセス");
    let utf16 = bpmn::read(&fixture("utf16le-bom.bpmn"));
    assert_eq!(utf16.processes[0].elements[0].name, "確認\nする");
    assert_eq!(name("prefixes-bom.bpmn"), "Namespaces");
}

#[test]
fn namespaces_are_matched_by_uri() {
    let defs = bpmn::read(&fixture("prefixes-bom.bpmn"));
    let p = &defs.processes[0];
    let ids: Vec<&str> = p.elements.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["t1", "t2", "f"], "vendor and unknown subtrees are skipped");
    assert_eq!(p.element("t1").unwrap().form_id, "", "x: re-bound to another URI is not Zeebe");
    assert_eq!(p.element("t2").unwrap().form_id, "key-only", "only the first formDefinition counts");
    assert_eq!(p.element("f").unwrap().condition, "= a && b &undefined;  < 3");
    assert_eq!(p.variables(), ["spaced"]);
}

#[test]
fn entities_are_never_expanded_and_no_file_is_read() {
    let defs = bpmn::read(&fixture("external-entity.bpmn"));
    let json = outline_json(&defs);
    assert!(!json.contains("FORMGEN-XXE-MARKER"), "{json}");
    let p = &defs.processes[0];
    assert_eq!(p.name, "&local;");
    assert_eq!(p.documentation, "before &secret; &local; after");
    assert_eq!(p.elements[0].name, "x & y");
}

#[test]
fn billion_laughs_stay_one_entity() {
    let started = Instant::now();
    let defs = bpmn::read(&fixture("billion-laughs.bpmn"));
    assert!(started.elapsed() < Duration::from_secs(5));
    let p = &defs.processes[0];
    assert_eq!(p.name, "&lol9;");
    assert_eq!(p.documentation, "&lol9;");
    assert!(outline_json(&defs).len() < 1_000);
}

#[test]
fn broken_drafts_yield_what_came_before_the_break() {
    let cut = bpmn::read(&fixture("truncated.bpmn"));
    let p = &cut.processes[0];
    let ids: Vec<&str> = p.elements.iter().map(|e| e.id.as_str()).collect();
    assert_eq!((p.id.as_str(), ids), ("cut", vec!["s", "f", "t"]));

    let broken = bpmn::read(&fixture("mismatched.bpmn"));
    let ids: Vec<&str> = broken.processes[0].elements.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["before"], "reading stops at the mismatched end tag");

    let dup = bpmn::read(&fixture("duplicate-attributes.bpmn"));
    assert_eq!((dup.processes[0].id.as_str(), dup.processes[0].name.as_str()), ("first", "a"));
    assert_eq!(dup.processes[0].elements[0].name, "one");

    assert!(bpmn::read(&fixture("not-bpmn.bpmn")).processes.is_empty());
    assert!(bpmn::read(b"").processes.is_empty());
}

#[test]
fn garbage_in_the_middle_stops_reading_there() {
    let xml = br#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="p"><task id="a"/> <<<>>> <task id="b"/></process></definitions>"#;
    let defs = bpmn::read(xml);
    let ids: Vec<&str> = defs.processes[0].elements.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["a"]);
}

#[test]
fn deep_nesting_costs_nothing() {
    let depth = 100_000;
    let mut xml =
        String::from(r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="p">"#);
    for i in 0..depth {
        xml.push_str(&format!(r#"<subProcess id="s{i}">"#));
    }
    for _ in 0..depth {
        xml.push_str("</subProcess>");
    }
    xml.push_str(r#"<task id="after"/></process></definitions>"#);
    let started = Instant::now();
    let defs = bpmn::read(xml.as_bytes());
    assert!(started.elapsed() < Duration::from_secs(10));
    let p = &defs.processes[0];
    assert_eq!(p.elements.last().unwrap().id, "after", "reading goes on after the deep part");
    assert!(p.elements.len() < 1_000, "the part past the depth limit is skipped");

    // unclosed, 100,000 deep: what was read stands
    let unclosed = format!(
        r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="p"><task id="t"/>{}"#,
        "<x>".repeat(depth)
    );
    assert_eq!(bpmn::read(unclosed.as_bytes()).processes[0].elements.len(), 1);
}

#[test]
fn size_limits_refuse_before_reading() {
    let xml = fixture("vacation.bpmn");
    assert!(bpmn::read_bounded(&xml, xml.len()).is_ok());
    let err = bpmn::read_bounded(&xml, 100).unwrap_err();
    assert!(matches!(err, ReadError::TooLarge { limit: 100, .. }));
    assert!(err.to_string().contains("over this installation's limit of 100 bytes"), "{err}");
    assert!(err.to_string().contains(&format!("is {} bytes", xml.len())), "the real size: {err}");
}

#[test]
fn a_two_gigabyte_stream_is_refused_after_the_limit() {
    // A stream that would deliver 2 GiB: only limit + 1 bytes are ever read.
    struct Counting<R> {
        inner: R,
        read: u64,
    }
    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            Ok(n)
        }
    }
    let mut stream = Counting { inner: std::io::repeat(b'<').take(2 << 30), read: 0 };
    let err = bpmn::read_capped(&mut stream, 1 << 20).unwrap_err();
    assert!(matches!(err, ReadError::TooLarge { size: None, .. }));
    assert!(err.to_string().starts_with("the BPMN document is over 1048576 bytes,"), "{err}");
    assert!(stream.read <= (1 << 20) + 8192, "read {} bytes", stream.read);
}

#[test]
fn a_two_gigabyte_file_is_refused_by_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.bpmn");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(2 << 30).unwrap(); // sparse: claims 2 GiB, occupies nothing
    let err = bpmn::read_file(&path, 10 << 20).unwrap_err();
    assert!(matches!(err, ReadError::TooLarge { size: Some(size), .. } if size == 2 << 30));
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.bpmn");
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(bpmn::read_file(&path, 10 << 20).map(|_| ()).map_err(|e| e.to_string()));
    });
    let read = rx.recv_timeout(std::time::Duration::from_secs(5)).expect("reading a FIFO blocked");
    let err = read.unwrap_err();
    assert!(err.contains("not a regular file"), "{err}");
}

/// (id, kind) of every element, per process: what a cut document must keep in order.
fn skeleton(defs: &bpmn::Definitions) -> Vec<(String, Vec<(String, String)>)> {
    defs.processes
        .iter()
        .map(|p| (p.id.clone(), p.elements.iter().map(|e| (e.id.to_string(), e.kind.to_string())).collect()))
        .collect()
}

/// What the outline of any document promises: its JSON reads back as the same outline, with one entry
/// per process read, in document order, and the borrowed view writes that same JSON.
fn outline_as_promised(defs: &bpmn::Definitions) -> Result<(), TestCaseError> {
    let outline = outline::OutlineFile::new("x", defs);
    let json = outline_json(defs);
    let back: outline::OutlineFile =
        serde_json::from_str(&json).map_err(|e| TestCaseError::fail(format!("{e}: {json}")))?;
    prop_assert_eq!(&back, &outline);
    let ids: Vec<&str> = outline.processes.iter().map(|p| p.id.as_str()).collect();
    let read: Vec<&str> = defs.processes.iter().map(|p| p.id.as_str()).collect();
    prop_assert_eq!(ids, read);
    let view = serde_json::to_string(&outline::OutlineView::new("x", &defs.processes)).unwrap();
    prop_assert_eq!(view, json, "the borrowed view writes the outline's JSON");
    Ok(())
}

/// What a step's text and data picture promise for any process: the text of every element (and of
/// the start form) fits its character budget, what is read and written is listed index for index
/// with the elements, and each picture is of the step it was asked for.
fn steps_as_promised(p: &bpmn::Process) -> Result<(), TestCaseError> {
    const BUDGET: usize = 4_000;
    for id in std::iter::once("").chain(p.elements.iter().map(|e| &*e.id)) {
        let text = bpmn::describe_step(p, id, BUDGET);
        prop_assert!(text.is_ok(), "an element of the process is a step to describe: {:?}", text);
        let chars = text.unwrap().chars().count();
        prop_assert!(chars <= BUDGET, "{} characters for a budget of {}", chars, BUDGET);
    }
    prop_assert_eq!(formgen::flow::access::of_process(p).len(), p.elements.len());
    let project = formgen::project::Project::default();
    for i in std::iter::once(None).chain((0..p.elements.len()).map(Some)) {
        let picture = formgen::flow::picture(p, i, &project);
        prop_assert_eq!(picture.element_id.as_str(), i.map_or("", |i| &*p.elements[i].id));
    }
    Ok(())
}

/// Whether `part` is an in-order prefix-subset of `full`: the same processes in the same order (the
/// last one possibly cut short), each with a prefix of the full element list.
pub fn is_in_order_subset(
    part: &[(String, Vec<(String, String)>)],
    full: &[(String, Vec<(String, String)>)],
) -> bool {
    part.len() <= full.len()
        && part.iter().zip(full).all(|((pid, pel), (fid, fel))| pid == fid && fel.starts_with(pel))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fixtures_cut_anywhere_read_as_an_in_order_subset(file in 0usize..64, cut in 0.0f64..1.0) {
        let files = crate::common::bpmn_files(&crate::common::fixtures().join("bpmn"));
        let bytes = std::fs::read(&files[file % files.len()]).unwrap();
        let full = skeleton(&bpmn::read(&bytes));
        let at = (bytes.len() as f64 * cut) as usize;
        let defs = bpmn::read(&bytes[..at]);
        let part = skeleton(&defs);
        prop_assert!(is_in_order_subset(&part, &full), "cut at {}: {:?} vs {:?}", at, part, full);
        // reads and writes of whatever was read never panic, and every write names a scope
        for p in &defs.processes {
            for access in formgen::flow::access::of_process(p) {
                prop_assert!(access.writes.iter().all(|w| !w.name.is_empty()));
            }
            // so does the data picture of every step, and its text
            let project = formgen::project::Project::default();
            for i in std::iter::once(None).chain((0..p.elements.len()).map(Some)) {
                let picture = formgen::flow::picture(p, i, &project);
                let text = formgen::flow::describe_picture(&picture, (p, &project), &[], 2_000, formgen::flow::Defined::Shown);
                prop_assert!(text.chars().count() <= 2_000, "the picture's text is over its budget: {}", text);
            }
        }
        outline_as_promised(&defs)?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let defs = bpmn::read(&bytes);
        outline_as_promised(&defs)?;
        for p in &defs.processes {
            steps_as_promised(p)?;
        }
    }

    #[test]
    fn mutated_fixtures_never_panic(file in 0usize..64, flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 1..16)) {
        let files = crate::common::bpmn_files(&crate::common::fixtures().join("bpmn"));
        let mut bytes = std::fs::read(&files[file % files.len()]).unwrap();
        for (at, b) in flips {
            let i = ((bytes.len() as f64) * at) as usize;
            if i < bytes.len() { bytes[i] = b; }
        }
        let defs = bpmn::read(&bytes);
        for p in &defs.processes {
            steps_as_promised(p)?;
        }
        outline_as_promised(&defs)?;
    }
}
