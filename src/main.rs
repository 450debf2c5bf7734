//! The `formgen` binary: the command line ([`cli`]) over the `formgen` library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
