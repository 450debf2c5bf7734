//! Data-flow benchmark: `cargo bench --bench flow`.
//!
//! The contract and the check of one step against processes that grow: a chain of conditional
//! gateways (each reading the form's field and a variable of its own), "diamonds" (a gateway that
//! splits into two script tasks and joins again), and one condition that reads many names. Each shape
//! is timed at doubling sizes and printed with the ratio to the size before: a cost linear in the
//! process doubles (2.0), a quadratic one quadruples. The heap high-water mark of the read, the
//! contract and the check is printed as a multiple of the input. Goals: ratios near 2, at most 2.5;
//! peak heap under 20x the input.

use std::hint::black_box;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use formgen::check::StepCheck;
use formgen::project::Project;

#[path = "common/counting.rs"]
mod counting;

use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

const HEAD: &str = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P"><startEvent id="S"/><userTask id="T"><extensionElements><zeebe:formDefinition formId="f"/></extensionElements></userTask><sequenceFlow id="s0" sourceRef="S" targetRef="T"/>"#;

fn wrap(body: &str, last: &str) -> String {
    format!(
        r#"{HEAD}{body}<endEvent id="E"/><sequenceFlow id="z" sourceRef="{last}" targetRef="E"/></process></definitions>"#
    )
}

/// `n` conditional gateways in a row, each with a default flow.
fn chain(n: usize) -> String {
    let mut body = String::new();
    let mut prev = "T".to_string();
    for i in 0..n {
        body += &format!(
            r#"<exclusiveGateway id="G{i}" default="d{i}"/><sequenceFlow id="a{i}" sourceRef="{prev}" targetRef="G{i}"/><serviceTask id="X{i}"><extensionElements><zeebe:taskDefinition type="t"/></extensionElements></serviceTask><sequenceFlow id="c{i}" sourceRef="G{i}" targetRef="X{i}"><conditionExpression>= amount &gt; {i} and v{i} = "y"</conditionExpression></sequenceFlow><sequenceFlow id="d{i}" sourceRef="G{i}" targetRef="X{i}"/>"#
        );
        prev = format!("X{i}");
    }
    wrap(&body, &prev)
}

/// `n` diamonds in a row: a gateway splits on the form's field into two scripts that join again.
fn diamonds(n: usize) -> String {
    let mut body = String::new();
    let mut prev = "T".to_string();
    for i in 0..n {
        body += &format!(
            r#"<exclusiveGateway id="G{i}"/><exclusiveGateway id="J{i}"/><sequenceFlow id="a{i}" sourceRef="{prev}" targetRef="G{i}"/>"#
        );
        for (b, cond) in [("L", format!("= amount &gt; {i}")), ("R", format!("= amount &lt;= {i}"))] {
            body += &format!(
                r#"<scriptTask id="{b}{i}"><extensionElements><zeebe:script expression="=amount + {i}" resultVariable="r{b}{i}"/></extensionElements></scriptTask><sequenceFlow id="{b}a{i}" sourceRef="G{i}" targetRef="{b}{i}"><conditionExpression>{cond}</conditionExpression></sequenceFlow><sequenceFlow id="{b}b{i}" sourceRef="{b}{i}" targetRef="J{i}"/>"#
            );
        }
        prev = format!("J{i}");
    }
    wrap(&body, &prev)
}

/// One gateway whose condition reads `n` names.
fn wide(n: usize) -> String {
    let terms: Vec<String> = (0..n).map(|i| format!("x{i} = {i}")).collect();
    let body = format!(
        r#"<exclusiveGateway id="G" default="d"/><sequenceFlow id="a" sourceRef="T" targetRef="G"/><sequenceFlow id="c" sourceRef="G" targetRef="E"><conditionExpression>= {}</conditionExpression></sequenceFlow><sequenceFlow id="d" sourceRef="G" targetRef="E"/>"#,
        terms.join(" or ")
    );
    wrap(&body, "G")
}

const FORM: &str = r#"{"id": "f", "components": [{"type": "number", "key": "amount", "label": "Amount"}]}"#;

/// Reads `xml` and checks the form at the step: the time (best of `runs`) and the peak heap of one
/// round as a multiple of the input.
fn measure(xml: &str, runs: usize) -> (Duration, f64) {
    let form: serde_json::Value = serde_json::from_str(FORM).unwrap();
    let round = || {
        let defs = formgen::bpmn::read_str(xml);
        let p = &defs.processes[0];
        let project = Project::default();
        let check = StepCheck::new(p, p.element_index("T"), &project);
        black_box(check.of_schema(&form))
    };
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    drop(round());
    let peak = (PEAK.load(Relaxed) - before) as f64 / xml.len() as f64;
    let best = (0..runs)
        .map(|_| {
            let start = Instant::now();
            drop(round());
            start.elapsed()
        })
        .min()
        .unwrap();
    (best, peak)
}

/// A process shape: its name, how to write it at a size, and the sizes to time.
type Shape = (&'static str, fn(usize) -> String, [usize; 4]);

fn main() {
    let shapes: [Shape; 3] = [
        ("chain of conditional gateways", chain, [2_000, 4_000, 8_000, 16_000]),
        ("diamonds", diamonds, [1_000, 2_000, 4_000, 8_000]),
        ("one condition reading n names", wide, [25_000, 50_000, 100_000, 200_000]),
    ];
    let mut worst_ratio = 0.0f64;
    let mut worst_peak = 0.0f64;
    for (name, make, sizes) in shapes {
        println!("{name}");
        let mut before: Option<Duration> = None;
        for n in sizes {
            let xml = make(n);
            let (time, peak) = measure(&xml, 3);
            let ratio = before.map(|b| time.as_secs_f64() / b.as_secs_f64());
            println!(
                "  n = {n:>7}  {:>8.1} KB  {:>9.2} ms  {}  peak heap {peak:.1}x the input",
                xml.len() as f64 / 1024.0,
                time.as_secs_f64() * 1000.0,
                ratio.map_or("          ".to_string(), |r| format!("x{r:.2} size x2")),
            );
            worst_ratio = worst_ratio.max(ratio.unwrap_or(0.0));
            worst_peak = worst_peak.max(peak);
            before = Some(time);
        }
    }
    println!(
        "\nworst ratio between doubled sizes {worst_ratio:.2} (linear: 2, goal <= 2.5); \
         worst peak heap {worst_peak:.1}x the input (goal < 20x)"
    );
}
