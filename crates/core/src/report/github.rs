//! The `github` format: a GitHub Actions workflow command per message, which the runner shows as an
//! annotation on the file and line (`::error file=F,line=L,col=C,title=CODE::MESSAGE`; `::warning`,
//! `::notice` for info), then the summary as a plain line.

use crate::check::Severity;

use super::{Located, Run};

pub(super) fn render(run: &Run) -> String {
    let out: String = run.located().map(command).collect();
    out + &run.summary() + "\n"
}

fn command(l: &Located) -> String {
    let kind = match l.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    format!(
        "::{kind} file={},line={},col={},title={}::{}\n",
        property(&l.file),
        l.at.line,
        l.at.column,
        property(l.rule.id),
        data(&l.message)
    )
}

/// A command's message, escaped as the runner reads it. Every control character in it came from a
/// file or a process (a message is one line), so each is shown as an escape (`\n`), never sent to the
/// log as itself or as the runner's own line break.
fn data(text: &str) -> String {
    crate::words::printable(text).replace('%', "%25")
}

/// A command's property value, escaped as the runner reads it.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;

    #[test]
    fn a_command_per_message_then_the_summary() {
        let out = super::render(&sample());
        let want = "\
::warning file=order.bpmn,line=7,col=5,title=process_rule::The process has no end.
::error file=review.form,line=3,col=7,title=missing_supply::The gateway reads `decision`.
::warning file=review.form,line=1,col=1,title=gate_warning::The form has no id.
2 forms at 2 steps of 1 process: 1 error, 2 warnings
";
        assert_eq!(out, want);
    }

    #[test]
    fn messages_and_properties_are_escaped() {
        assert_eq!(super::data("100% done\r\nnext: a, b\u{1b}"), "100%25 done\\r\\nnext: a, b\\u{1b}");
        assert_eq!(super::property("C:\\a,b%\n"), "C%3A\\a%2Cb%25\\n");
    }
}
