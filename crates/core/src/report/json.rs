//! The `json` format: one object per form on stdout. For forms named on the command line
//! `{"file", "schema", "findings"}` for each file that holds a form, the gate's warnings and the
//! sentence of a file with no form on stderr; for a folder `{"file", "processId", "elementId",
//! "form", "findings"}` per step (and per `.form` file no step can use, with only `form` set), and
//! `{"file", "processId", "findings"}` for a process with findings of its own. Each finding carries the `file`, `line` and `column` it stands at.

use serde_json::{Value, json};

use super::{Located, Rendered, Run, Unit};

pub(super) fn render(run: &Run) -> Rendered {
    let mut shown = Rendered::default();
    for unit in &run.units {
        if run.project {
            shown.out += &format!("{}\n", step_line(run, unit));
        } else {
            named(unit, &mut shown);
        }
    }
    for process in &run.processes {
        let found = findings(&process.located);
        if !found.is_empty() {
            let line = json!({"file": process.name, "processId": process.id, "findings": found});
            shown.out += &format!("{line}\n");
        }
    }
    shown
}

/// A form named on the command line: its line if the gate accepted it, the gate's sentences on stderr.
fn named(unit: &Unit, shown: &mut Rendered) {
    if let Some(schema) = &unit.schema {
        let line = json!({"file": unit.form, "schema": schema, "findings": findings(&unit.located)});
        shown.out += &format!("{line}\n");
    }
    for l in unit.located.iter().filter(|l| l.finding.is_none()) {
        let said = super::severity_word(l.severity);
        shown.err += &format!("{}: {said}: {}\n", unit.form, l.message);
    }
}

/// A form a step of a folder's process binds.
fn step_line(run: &Run, unit: &Unit) -> Value {
    let process = run.process_of(unit);
    json!({
        "file": process.map(|p| p.name.as_str()),
        "processId": process.map(|p| p.id.as_str()),
        "elementId": unit.element_id,
        "form": unit.form,
        "findings": findings(&unit.located),
    })
}

/// The findings among the messages, each with where it stands.
fn findings(located: &[Located]) -> Vec<Value> {
    located
        .iter()
        .filter_map(|l| {
            let mut value = serde_json::to_value(l.finding.as_ref()?).ok()?;
            let object = value.as_object_mut()?;
            object.insert("file".into(), json!(l.file));
            object.insert("line".into(), json!(l.at.line));
            object.insert("column".into(), json!(l.at.column));
            Some(value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::super::tests::sample;

    fn lines(out: &str) -> Vec<Value> {
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    #[test]
    fn a_folders_steps_are_a_line_each_with_located_findings() {
        let shown = super::render(&sample());
        let lines = lines(&shown.out);
        assert_eq!(lines.len(), 2, "a line per step; the process has no finding of the check's");
        let review = &lines[0];
        let keys: Vec<&str> = review.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["file", "processId", "elementId", "form", "findings"]);
        let finding = &review["findings"][0];
        assert_eq!(finding["code"], "missing_supply");
        assert_eq!(
            (&finding["file"], &finding["line"], &finding["column"]),
            (&"review.form".into(), &3.into(), &7.into())
        );
        assert_eq!(review["findings"].as_array().unwrap().len(), 1, "a gate sentence is no finding");
        assert_eq!(lines[1]["findings"], serde_json::json!([]));
        assert!(shown.err.is_empty());
    }

    #[test]
    fn named_forms_keep_their_line_and_say_the_gates_sentences_on_stderr() {
        let mut run = sample();
        run.project = false;
        run.units[1].schema = None;
        run.units[1].located.push(super::Located::sentence(
            super::super::Rule::of(crate::check::Code::UnreadableForm),
            crate::check::Severity::Error,
            "The form's JSON has a mistake at line 1, column 2.".into(),
            "start.form",
            super::super::Position::START,
        ));
        let shown = super::render(&run);
        let lines = lines(&shown.out);
        assert_eq!(lines.len(), 1, "the accepted form's line");
        let keys: Vec<&str> = lines[0].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["file", "schema", "findings"]);
        assert_eq!(
            shown.err,
            "review.form: warning: The form has no id.\nstart.form: error: The form's JSON has a mistake at line 1, column 2.\n"
        );
    }
}
