//! The `text` format, as linters print: a heading for each form or process with something to say,
//! a line per message (`path:line:col  severity  message  code`), then one summary line. What a file
//! or a process supplied (paths, ids, the names in messages) is printed through
//! [`printable`], so it can never break a line or reach the terminal as a control sequence.

use crate::words::printable;

use super::{Located, Run, Unit, severity_word};

pub(super) fn render(run: &Run) -> String {
    let mut out = String::new();
    for process in run.processes.iter().filter(|p| !p.located.is_empty()) {
        out += &format!("{} (process {})\n", printable(&process.file), printable(&process.id));
        out.extend(process.located.iter().map(indented));
    }
    for unit in run.units.iter().filter(|u| !u.located.is_empty()) {
        out += &heading(run, unit);
        out.extend(unit.located.iter().map(indented));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out + &run.summary() + "\n"
}

/// The form, and the step and process it was checked at.
fn heading(run: &Run, unit: &Unit) -> String {
    match (run.process_of(unit), &unit.element_id) {
        (Some(p), Some(step)) => format!(
            "{} at step {} of {} ({})\n",
            printable(&unit.form),
            printable(step),
            printable(&p.id),
            printable(&p.file)
        ),
        (Some(p), None) => {
            format!("{} with {} ({})\n", printable(&unit.form), printable(&p.id), printable(&p.file))
        }
        (None, _) => format!("{}\n", printable(&unit.form)),
    }
}

fn indented(l: &Located) -> String {
    format!("  {}", line(l))
}

/// A message as a line: `path:line:col  severity  message  code`.
pub(super) fn line(l: &Located) -> String {
    format!(
        "{}:{}:{}  {:<7}  {}  {}\n",
        printable(&l.file),
        l.at.line,
        l.at.column,
        severity_word(l.severity),
        printable(&l.message),
        l.rule.id
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn a_line_per_message_under_its_form_then_the_summary() {
        let out = super::render(&sample());
        let want = "\
order.bpmn (process order)
  order.bpmn:7:5  warning  The process has no end.  process_rule
review.form at step Task_review of order (order.bpmn)
  review.form:3:7  error    The gateway reads `decision`.  missing_supply
  review.form:1:1  warning  The form has no id.  gate_warning

2 forms at 2 steps of 1 process: 1 error, 2 warnings
";
        assert_eq!(out, want);
    }

    #[test]
    fn a_clean_run_prints_only_the_summary() {
        let mut run = sample();
        run.processes[0].located.clear();
        run.units.iter_mut().for_each(|u| u.located.clear());
        assert_eq!(super::render(&run), "2 forms at 2 steps of 1 process: 0 errors, 0 warnings\n");
    }
}
