//! `--format`: the report formats of `formgen check`, as the command line names them.

use formgen::report::Format as ReportFormat;

/// How `formgen check` prints its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum Format {
    /// A line per finding (`path:line:col  severity  message  code`) and a summary.
    #[default]
    Text,
    /// One JSON object per form.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// JUnit XML, for CI test reports.
    Junit,
    /// GitHub Actions workflow commands: an annotation per finding.
    Github,
}

impl From<Format> for ReportFormat {
    fn from(format: Format) -> ReportFormat {
        match format {
            Format::Text => ReportFormat::Text,
            Format::Json => ReportFormat::Json,
            Format::Sarif => ReportFormat::Sarif,
            Format::Junit => ReportFormat::Junit,
            Format::Github => ReportFormat::Github,
        }
    }
}
