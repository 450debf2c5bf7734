//! The pattern rule against the engine form-js runs `validate.pattern` in: V8's backtracking
//! `RegExp`, in Node. A deterministic fuzz corpus of patterns from a small grammar (atoms, classes,
//! quantifiers, alternations, groups, anchors) goes through the gate; every pattern it accepts is
//! run in V8 on adversarial inputs (a pumping string of the pattern's own characters, then a
//! character that makes the match fail) of 1,000 and 2,000 characters, and must take linear time:
//! doubling the input may cost at most about three times as much (up to a small floor for timer
//! noise and the n^2 of an unanchored search), and no input more than a cap. The patterns whose
//! time grows as a power of the input (`\d+.\d+.\d+$`) must be refused, and the harness must see
//! their growth. One Node process runs everything, fed JSON lines on stdin.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How many distinct patterns the grammar makes.
const CORPUS: usize = 3_000;
/// Milliseconds any accepted pattern may take on 2,000 characters.
const CAP_MS: f64 = 250.0;
/// Milliseconds of growth between 1,000 and 2,000 characters that count as noise.
const FLOOR_MS: f64 = 50.0;

/// Per pattern (a JSON line: `id`, `pattern`, `pumps`, `suffixes`, `lengths`): every pump and
/// suffix at the first length, then the slowest of them at each length, best of three runs. Answers
/// one JSON line per pattern: `id`, `pump`, `suffix`, `ms` (one per length) or `error`.
const RUNNER: &str = r#"
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin });
const input = (pump, suffix, n) => pump.repeat(Math.ceil(n / pump.length)).slice(0, n) + suffix;
const time = (re, s) => {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = process.hrtime.bigint();
    re.test(s);
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
  }
  return best;
};
rl.on('line', (line) => {
  const job = JSON.parse(line);
  let re;
  try { re = new RegExp(job.pattern); } catch (e) {
    console.log(JSON.stringify({ id: job.id, error: String(e) }));
    return;
  }
  let worst = null;
  for (const pump of job.pumps) {
    for (const suffix of job.suffixes) {
      const s = input(pump, suffix, job.lengths[0]);
      const t = process.hrtime.bigint();
      re.test(s);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (worst === null || ms > worst.ms) worst = { pump, suffix, ms };
    }
  }
  const ms = job.lengths.map((n) => time(re, input(worst.pump, worst.suffix, n)));
  console.log(JSON.stringify({ id: job.id, pump: worst.pump, suffix: worst.suffix, ms }));
});
"#;

/// A deterministic source of choices (xorshift64).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The grammar's atoms, each with characters it matches (what a pumping string is made of).
const ATOMS: &[(&str, &str)] = &[
    ("a", "a"),
    ("b", "b"),
    ("1", "1"),
    ("x", "x"),
    ("\\d", "1"),
    ("\\w", "a1"),
    ("\\s", " "),
    (".", "a1."),
    ("\\.", "."),
    ("-", "-"),
    ("@", "@"),
    ("[ab]", "ab"),
    ("[a-z]", "a"),
    ("[0-9.]", "1."),
    ("[^a]", "b1"),
    ("[\\w.-]", "a.-"),
    ("[^@\\s]", "a.@"),
];

const QUANTIFIERS: &[&str] = &["*", "+", "?", "{2,}", "{1,3}", "+?", "*?", "{0,9}"];

fn item(d: &mut Dice, depth: u32, chars: &mut BTreeSet<char>, out: &mut String) {
    if depth < 2 && d.below(4) == 0 {
        if d.below(2) == 0 {
            out.push('(');
            seq(d, depth + 1, chars, out);
        } else {
            out.push_str("(?:");
            seq(d, depth + 1, chars, out);
            out.push('|');
            seq(d, depth + 1, chars, out);
        }
        out.push(')');
    } else {
        let (atom, cs) = ATOMS[d.below(ATOMS.len())];
        out.push_str(atom);
        chars.extend(cs.chars());
    }
    if d.below(2) == 0 {
        out.push_str(QUANTIFIERS[d.below(QUANTIFIERS.len())]);
    }
}

fn seq(d: &mut Dice, depth: u32, chars: &mut BTreeSet<char>, out: &mut String) {
    for _ in 0..=d.below(4) {
        item(d, depth, chars, out);
    }
}

/// The corpus: distinct patterns, each with the characters its atoms match.
fn corpus() -> Vec<(String, BTreeSet<char>)> {
    let mut d = Dice(0x5eed_f00d_cafe_d00d);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    while out.len() < CORPUS {
        let (mut p, mut chars) = (String::new(), BTreeSet::new());
        if d.below(2) == 0 {
            p.push('^');
        }
        seq(&mut d, 0, &mut chars, &mut p);
        if d.below(3) != 0 {
            p.push('$');
        }
        if seen.insert(p.clone()) {
            out.push((p, chars));
        }
    }
    out
}

/// Pumping strings from a pattern's characters: each alone, and each ordered pair.
fn pumps(chars: &BTreeSet<char>) -> Vec<String> {
    let mut out: Vec<String> = chars.iter().map(|c| c.to_string()).collect();
    for a in chars {
        for b in chars {
            if a != b {
                out.push(format!("{a}{b}"));
            }
        }
    }
    out
}

fn accepted(pattern: &str) -> bool {
    let form = json!({"type": "default", "components": [
        {"type": "textfield", "key": "field", "label": "Field", "validate": {"pattern": pattern}}
    ]});
    formgen::gate::check_value(form, None, None).is_ok()
}

/// Runs every job in one Node process; the answers by id. Fails naming the pattern Node was on
/// when it runs past `limit`.
fn run_in_v8(jobs: &[Value], limit: Duration) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("runner.cjs");
    std::fs::write(&script, RUNNER).unwrap();
    let mut child = Command::new("node")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("node runs (the conformance tier has Node)");
    let mut stdin = child.stdin.take().unwrap();
    let lines: Vec<String> = jobs.iter().map(Value::to_string).collect();
    let feeder = std::thread::spawn(move || {
        for l in lines {
            if writeln!(stdin, "{l}").is_err() {
                break;
            }
        }
    });
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(serde_json::from_str::<Value>(&line).expect("the runner answers JSON")).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let mut answers = Vec::new();
    while answers.len() < jobs.len() {
        let left = limit.saturating_sub(start.elapsed());
        match rx.recv_timeout(left) {
            Ok(a) => answers.push(a),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                let stuck = jobs.get(answers.len()).map(|j| j["pattern"].to_string()).unwrap_or_default();
                panic!(
                    "V8 took over {limit:?} ({} of {} patterns answered); it was running {stuck}",
                    answers.len(),
                    jobs.len()
                );
            }
        }
    }
    feeder.join().unwrap();
    child.wait().unwrap();
    answers
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn every_pattern_the_gate_accepts_runs_in_linear_time_in_v8() {
    crate::common::shared();
    let corpus = corpus();
    let mut jobs = Vec::new();
    for (p, chars) in &corpus {
        if accepted(p) {
            jobs.push(json!({"id": jobs.len(), "pattern": p, "pumps": pumps(chars),
                "suffixes": ["!", "\n"], "lengths": [1000, 2000]}));
        }
    }
    eprintln!("fuzz corpus: {} patterns, {} accepted by the gate", corpus.len(), jobs.len());
    assert!(jobs.len() > CORPUS / 4, "the grammar should make mostly acceptable patterns: {}", jobs.len());
    let start = Instant::now();
    let answers = run_in_v8(&jobs, Duration::from_secs(120));
    let mut slow = Vec::new();
    let mut slowest: Option<(f64, &Value)> = None;
    for (job, a) in jobs.iter().zip(&answers) {
        assert_eq!(a["id"], job["id"]);
        if let Some(e) = a.get("error") {
            // the grammar writes only syntax both engines read
            panic!("V8 cannot read {}: {e}", job["pattern"]);
        }
        let (t1, t2) = (a["ms"][0].as_f64().unwrap(), a["ms"][1].as_f64().unwrap());
        if slowest.is_none_or(|(t, _)| t2 > t) {
            slowest = Some((t2, &job["pattern"]));
        }
        if t2 > CAP_MS || t2 > 3.0 * t1 + FLOOR_MS {
            slow.push(format!(
                "{} on {:?}+{:?}: {t1:.1} ms at 1k, {t2:.1} ms at 2k",
                job["pattern"], a["pump"], a["suffix"]
            ));
        }
    }
    let (t, p) = slowest.unwrap();
    eprintln!(
        "V8 ran them in {:?}; the slowest accepted pattern is {p}, {t:.1} ms on 2,000 characters",
        start.elapsed()
    );
    assert!(slow.is_empty(), "accepted patterns that are not linear in V8:\n{}", slow.join("\n"));
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn patterns_whose_time_is_a_power_of_the_input_are_refused_and_seen_growing() {
    crate::common::shared();
    let bad = ["\\d+.\\d+.\\d+$", "(?:\\d+|x)(?:\\d+|y)(?:\\d+|z)$"];
    for p in bad {
        assert!(!accepted(p), "{p} passed the gate");
    }
    // the harness sees what the gate refuses: at 100 and 200 characters (V8 takes seconds at 300)
    let jobs: Vec<Value> = bad
        .iter()
        .enumerate()
        .map(|(id, p)| json!({"id": id, "pattern": p, "pumps": ["1"], "suffixes": ["!"], "lengths": [100, 200]}))
        .collect();
    for (job, a) in jobs.iter().zip(run_in_v8(&jobs, Duration::from_secs(60))) {
        let (t1, t2) = (a["ms"][0].as_f64().unwrap(), a["ms"][1].as_f64().unwrap());
        eprintln!("{}: {t1:.1} ms at 100, {t2:.1} ms at 200", job["pattern"]);
        assert!(
            t2 > 6.0 * t1 && t2 > 3.0 * t1 + FLOOR_MS,
            "{} did not grow: {t1} ms, {t2} ms",
            job["pattern"]
        );
    }
}
