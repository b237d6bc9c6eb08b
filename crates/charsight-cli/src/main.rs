//! The `charsight` command; see the library part of this crate.

fn main() -> std::process::ExitCode {
    charsight_cli::main()
}
