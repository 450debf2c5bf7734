//! Reader benchmark: `cargo bench --bench reader`.
//!
//! Reads a large synthetic process (about 50,000 elements with names, documentation, conditions and
//! io mappings, ~20 MB) and the shared corpus (when `../shared` is beside the checkout), and reports the
//! time as a ratio to a bare quick-xml event scan of the same bytes measured in the same run, plus the
//! heap high-water mark of a read as a multiple of the input size. Goals: at most 1.5x the bare scan,
//! peak heap at most 3x the input. `-- --write FILE` writes the synthetic process to FILE instead.

#[path = "../tests/common/synthetic.rs"]
mod synthetic;

use std::hint::black_box;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

#[path = "common/counting.rs"]
mod counting;

use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

/// The baseline: every event of the document, nothing done with them.
fn bare_scan(bytes: &[u8]) -> usize {
    let text = std::str::from_utf8(bytes).expect("utf-8");
    let mut reader = quick_xml::Reader::from_str(text);
    let mut events = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) | Err(_) => break,
            Ok(_) => events += 1,
        }
    }
    events
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Median time of `f` over `runs`, alternating with the baseline so both see the same machine state.
fn measure(inputs: &[Vec<u8>], runs: usize) -> (Duration, Duration) {
    let (mut scan, mut read) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let t = Instant::now();
        for b in inputs {
            black_box(bare_scan(black_box(b)));
        }
        scan.push(t.elapsed());
        let t = Instant::now();
        for b in inputs {
            black_box(formgen::bpmn::read(black_box(b)));
        }
        read.push(t.elapsed());
    }
    (median(scan), median(read))
}

fn peak_ratio(bytes: &[u8]) -> f64 {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let defs = formgen::bpmn::read(bytes);
    let peak = PEAK.load(Relaxed) - before;
    drop(defs);
    peak as f64 / bytes.len() as f64
}

fn report(name: &str, inputs: &[Vec<u8>], runs: usize) {
    let size: usize = inputs.iter().map(Vec::len).sum();
    let (scan, read) = measure(inputs, runs);
    let ratio = read.as_secs_f64() / scan.as_secs_f64();
    // Small files are dominated by fixed costs (a few hundred bytes of bookkeeping on a 1 KB file), so
    // the memory ratio is taken over inputs of 64 KB and more.
    let peak = inputs.iter().filter(|b| b.len() >= 64 * 1024).map(|b| peak_ratio(b)).fold(0.0, f64::max);
    println!(
        "{name}: {:.1} MB; bare quick-xml scan {:.1} ms, formgen read {:.1} ms: {ratio:.2}x the scan \
         (goal <= 1.5x); peak heap {peak:.2}x the input for inputs of 64 KB+ (goal <= 3x)",
        size as f64 / 1e6,
        scan.as_secs_f64() * 1e3,
        read.as_secs_f64() * 1e3,
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` asks for a list
    }
    // `cargo bench --bench reader -- --write FILE`: the synthetic process as a file, for the CLI
    // comparisons in the README (`formgen outline --json FILE` against bpmn-moddle)
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--write") {
        let path = args.get(i + 1).expect("--write FILE");
        std::fs::write(path, synthetic::process(23_800)).expect("the file is written");
        return;
    }
    let xml = synthetic::process(23_800).into_bytes();
    let defs = formgen::bpmn::read(&xml);
    println!(
        "synthetic process: {} elements, {} variable uses, {} distinct variables",
        defs.processes[0].elements.len(),
        defs.processes[0].variable_uses.len(),
        defs.processes[0].variables().len()
    );
    drop(defs);
    report("synthetic", std::slice::from_ref(&xml), 15);

    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bpmn");
    match std::fs::read_dir(&corpus) {
        Ok(entries) => {
            let inputs: Vec<Vec<u8>> = entries
                .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
                .filter(|b| std::str::from_utf8(b).is_ok())
                .collect();
            report(&format!("corpus ({} UTF-8 files)", inputs.len()), &inputs, 31);
        }
        Err(_) => println!("corpus: skipped, {} not found", corpus.display()),
    }
}
