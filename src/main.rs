//! The `formgen` binary: the command line of [`formgen::cli`].

fn main() -> std::process::ExitCode {
    formgen::cli::main()
}
