//! The `junit` format: JUnit XML as GitLab and Jenkins read test reports. A `<testsuite>` per process
//! (named by its file and id) and a `<testcase>` per form checked at a step; a case with errors has one
//! `<failure>` (the first error's message and code, every error in its text), its warnings and info go
//! to `<system-out>`. What a process has of its own is a case named `process`; forms checked without
//! a process make one suite of their own.

use crate::check::Severity;

use super::{Located, Run, Unit};

/// One test case: its class (the process), its name, its messages.
struct Case<'a> {
    class: &'a str,
    name: String,
    located: &'a [Located],
}

impl Case<'_> {
    fn fails(&self) -> bool {
        self.located.iter().any(|l| l.severity == Severity::Error)
    }
}

pub(super) fn render(run: &Run) -> String {
    let mut suites: Vec<(String, Vec<Case>)> = run
        .processes
        .iter()
        .map(|p| {
            let own = Case { class: &p.id, name: "process".into(), located: &p.located };
            let cases = if p.located.is_empty() { Vec::new() } else { vec![own] };
            (format!("{} {}", p.file, p.id), cases)
        })
        .collect();
    let mut loose = Vec::new();
    for unit in &run.units {
        match unit.process.filter(|i| *i < suites.len()) {
            Some(i) => suites[i].1.push(case(&run.processes[i].id, unit)),
            None => loose.push(case("forms", unit)),
        }
    }
    if !loose.is_empty() {
        suites.push(("forms".into(), loose));
    }
    let all: Vec<&Case> = suites.iter().flat_map(|(_, cases)| cases).collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out += &format!("<testsuites name=\"formgen check\" {}>\n", counts(&all));
    for (name, cases) in &suites {
        let cases: Vec<&Case> = cases.iter().collect();
        out += &format!("  <testsuite name=\"{}\" {}>\n", escape(name), counts(&cases));
        out.extend(cases.iter().map(|c| testcase(c)));
        out += "  </testsuite>\n";
    }
    out + "</testsuites>\n"
}

fn case<'a>(class: &'a str, unit: &'a Unit) -> Case<'a> {
    let name = match &unit.element_id {
        Some(step) => format!("{step} {}", unit.form),
        None => unit.form.clone(),
    };
    Case { class, name, located: &unit.located }
}

fn counts(cases: &[&Case]) -> String {
    let failures = cases.iter().filter(|c| c.fails()).count();
    format!("tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\"", cases.len())
}

fn testcase(case: &Case) -> String {
    let head = format!("    <testcase classname=\"{}\" name=\"{}\"", escape(case.class), escape(&case.name));
    let (errors, others): (Vec<&Located>, Vec<&Located>) =
        case.located.iter().partition(|l| l.severity == Severity::Error);
    if errors.is_empty() && others.is_empty() {
        return head + "/>\n";
    }
    let mut out = head + ">\n";
    if let Some(first) = errors.first() {
        let text: String = errors.iter().map(|l| super::text::line(l)).collect();
        out += &format!(
            "      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
            escape(&first.message),
            escape(first.rule.id),
            escape(&text)
        );
    }
    if !others.is_empty() {
        let text: String = others.iter().map(|l| super::text::line(l)).collect();
        out += &format!("      <system-out>{}</system-out>\n", escape(&text));
    }
    out + "    </testcase>\n"
}

/// Text for XML content and attribute values: the five markup characters as references, line ends
/// and tabs as character references (an attribute keeps them), and the control characters XML 1.0
/// cannot hold at all as U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn a_suite_per_process_and_a_case_per_form_and_step() {
        let out = super::render(&sample());
        assert!(out.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"formgen check\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\">"), "{out}");
        assert!(out.contains("<testsuite name=\"order.bpmn order\" tests=\"3\" failures=\"1\""), "{out}");
        assert!(out.contains("<testcase classname=\"order\" name=\"process\">"), "{out}");
        assert!(out.contains("<testcase classname=\"order\" name=\"StartEvent_1 start.form\"/>"), "{out}");
        assert!(
            out.contains("<failure message=\"The gateway reads `decision`.\" type=\"missing_supply\">review.form:3:7  error    The gateway reads `decision`.  missing_supply&#10;</failure>"),
            "{out}"
        );
        assert!(
            out.contains(
                "<system-out>review.form:1:1  warning  The form has no id.  gate_warning&#10;</system-out>"
            ),
            "{out}"
        );
    }

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(super::escape("<a & \"b\" 'c'>"), "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;");
        assert_eq!(super::escape("x\u{0}y\u{1b}z\u{ffff}"), "x\u{fffd}y\u{fffd}z\u{fffd}");
        assert_eq!(super::escape("a\r\n\tb"), "a&#13;&#10;&#9;b");
        assert_eq!(super::escape("Schadenshöhe 😀"), "Schadenshöhe 😀");
    }

    #[test]
    fn forms_without_a_process_make_a_suite_of_their_own() {
        let mut run = sample();
        run.processes.clear();
        run.units.iter_mut().for_each(|u| u.process = None);
        let out = super::render(&run);
        assert!(out.contains("<testsuite name=\"forms\" tests=\"2\" failures=\"1\""), "{out}");
        assert!(out.contains("<testcase classname=\"forms\" name=\"Task_review review.form\">"), "{out}");
    }
}
