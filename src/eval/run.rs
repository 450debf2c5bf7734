//! The driver: every pair through the generation, a few at a time, scored as it comes back.
//!
//! The generation is a closure, so the CLI plugs in the service (same gate, same repair round, same
//! limits as `generate`) and tests plug in fakes with known answers. At most `concurrency`
//! generations are in flight (keep it within the Worker's concurrency limit, or the service answers
//! "busy"); rows come back in pair order whatever order the generations finish in. Progress goes to a
//! [`Progress`]: a bar on stderr when stderr is a terminal ([`progress_for_stderr`]), else nothing.

use std::future::Future;
use std::io::Write;
use std::time::{Duration, Instant};

use futures_util::StreamExt;

use super::fields::{input_fields, input_keys};
use super::pairs::PairOrProblem;
use super::report::{Report, Row};
use super::score::score;
use super::{Generated, GenerationInput};

/// How far a run has got.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct State {
    /// Pairs finished (problems count as finished from the start).
    pub done: usize,
    /// Pairs in all.
    pub total: usize,
    /// Pairs that failed so far.
    pub failed: usize,
    /// Pairs that were problems before any generation (not generated, so not in the time estimate).
    pub skipped: usize,
    /// Input tokens so far.
    pub input_tokens: u64,
    /// Output tokens so far.
    pub output_tokens: u64,
    /// Time since the run started.
    pub elapsed: Duration,
}

impl State {
    /// Time left, estimated from the pairs generated so far; `None` before the first one.
    pub fn eta(&self) -> Option<Duration> {
        let generated = self.done.checked_sub(self.skipped).filter(|n| *n > 0)?;
        let left = self.total.saturating_sub(self.done) as u32;
        Some(self.elapsed / generated as u32 * left)
    }
}

/// Where a run reports how far it has got.
pub trait Progress {
    /// Called at the start, after every pair and every half second.
    fn update(&mut self, state: &State);
    /// Called once at the end.
    fn finish(&mut self, state: &State);
}

/// No progress display.
#[derive(Debug, Default, Clone, Copy)]
pub struct Quiet;

impl Progress for Quiet {
    fn update(&mut self, _: &State) {}
    fn finish(&mut self, _: &State) {}
}

/// A one-line progress bar redrawn in place: pairs done, elapsed, tokens so far, time left.
#[derive(Debug)]
pub struct TerminalBar<W: Write> {
    out: W,
}

impl TerminalBar<std::io::Stderr> {
    /// A bar on stderr.
    pub fn stderr() -> Self {
        TerminalBar { out: std::io::stderr() }
    }
}

impl<W: Write> TerminalBar<W> {
    /// A bar on any writer (for tests).
    pub fn new(out: W) -> Self {
        TerminalBar { out }
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// The bar's text for `state`.
    pub fn line(state: &State) -> String {
        const WIDTH: usize = 20;
        let filled = (state.done * WIDTH).checked_div(state.total).unwrap_or(WIDTH);
        let failed = if state.failed > 0 { format!(" ({} failed)", state.failed) } else { String::new() };
        let eta = state.eta().map(|d| format!(", about {} left", clock(d))).unwrap_or_default();
        format!(
            "  eval [{}{}] {}/{} pairs{failed}, {} elapsed, tokens {} in / {} out{eta}",
            "#".repeat(filled),
            ".".repeat(WIDTH - filled),
            state.done,
            state.total,
            clock(state.elapsed),
            state.input_tokens,
            state.output_tokens,
        )
    }
}

impl<W: Write> Progress for TerminalBar<W> {
    fn update(&mut self, state: &State) {
        let _ = write!(self.out, "\r\x1b[2K{}", Self::line(state));
        let _ = self.out.flush();
    }
    fn finish(&mut self, _: &State) {
        let _ = write!(self.out, "\r\x1b[2K");
        let _ = self.out.flush();
    }
}

/// `m:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// The bar on stderr when stderr is a terminal, else [`Quiet`].
pub fn progress_for_stderr() -> Box<dyn Progress> {
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        Box::new(TerminalBar::stderr())
    } else {
        Box::new(Quiet)
    }
}

/// Generates and scores every pair, at most `concurrency` at a time; rows in pair order. The
/// generation's `Err` is the failure sentence for that pair.
pub async fn run<F, Fut>(
    pairs: Vec<PairOrProblem>,
    concurrency: usize,
    generate: F,
    progress: &mut dyn Progress,
) -> Report
where
    F: Fn(GenerationInput) -> Fut,
    Fut: Future<Output = Result<Generated, String>>,
{
    let started = Instant::now();
    let mut state = State { total: pairs.len(), ..State::default() };
    let mut rows: Vec<Option<Row>> = vec![None; pairs.len()];
    let mut waiting = Vec::new();
    for (i, item) in pairs.into_iter().enumerate() {
        match item {
            PairOrProblem::Problem(p) => {
                rows[i] = Some(Row::problem(p));
                state.done += 1;
                state.failed += 1;
                state.skipped += 1;
            }
            PairOrProblem::Pair(pair) => waiting.push((i, pair)),
        }
    }
    progress.update(&state);
    let generate = &generate;
    let mut results = futures_util::stream::iter(waiting.into_iter().map(|(i, mut pair)| async move {
        let input = std::mem::take(&mut pair.input);
        let t = Instant::now();
        let result = generate(input).await;
        (i, pair, result, t.elapsed().as_secs_f64())
    }))
    .buffer_unordered(concurrency.max(1));
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        tokio::select! {
            next = results.next() => {
                let Some((i, pair, result, seconds)) = next else { break };
                let row = match result {
                    Ok(g) => {
                        let proposal = input_fields(&g.schema);
                        let counts = score(&pair.author_keys, &pair.author, &proposal, &g.prompt_text);
                        state.input_tokens += g.input_tokens;
                        state.output_tokens += g.output_tokens;
                        Row {
                            proposal_keys: input_keys(&g.schema),
                            counts,
                            attempts: g.attempts,
                            input_tokens: g.input_tokens,
                            output_tokens: g.output_tokens,
                            prompt_chars: g.prompt_text.chars().count(),
                            seconds,
                            proposal: Some(g.schema),
                            ..Row::of(&pair)
                        }
                    }
                    Err(sentence) => {
                        state.failed += 1;
                        Row { error: Some(sentence), seconds, ..Row::of(&pair) }
                    }
                };
                rows[i] = Some(row);
                state.done += 1;
                state.elapsed = started.elapsed();
                progress.update(&state);
            }
            _ = tick.tick() => {
                state.elapsed = started.elapsed();
                progress.update(&state);
            }
        }
    }
    state.elapsed = started.elapsed();
    progress.finish(&state);
    Report { rows: rows.into_iter().flatten().collect(), seconds: started.elapsed().as_secs_f64() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_says_how_far_and_how_long() {
        let state = State {
            done: 3,
            total: 10,
            failed: 1,
            skipped: 1,
            input_tokens: 1200,
            output_tokens: 300,
            elapsed: Duration::from_secs(20),
        };
        assert_eq!(
            TerminalBar::<Vec<u8>>::line(&state),
            "  eval [######..............] 3/10 pairs (1 failed), 0:20 elapsed, tokens 1200 in / 300 out, about 1:10 left"
        );
        let mut bar = TerminalBar::new(Vec::new());
        bar.update(&state);
        bar.finish(&state);
        let text = String::from_utf8(bar.into_inner()).unwrap();
        assert!(text.starts_with("\r\x1b[2K  eval [") && text.ends_with("\r\x1b[2K"), "{text:?}");
    }

    #[test]
    fn no_estimate_before_the_first_generation() {
        let state = State { done: 2, total: 5, skipped: 2, ..State::default() };
        assert_eq!(state.eta(), None);
        assert_eq!(State { total: 0, ..State::default() }.eta(), None);
    }
}
