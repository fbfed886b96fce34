//! `redc`: modular exponentiation with the papers' Montgomery schedules.
//!
//! `main` only hands the arguments to [`run`] and turns its outcome into an
//! exit status: 0 success, 1 failure of the machine (I/O), 2 bad input.

mod args;
mod batch;
mod counts;
mod demo;
mod failure;
mod modexp;
mod number;
mod output;

use std::process::ExitCode;

fn main() -> ExitCode {
    run(std::env::args_os())
}

/// Parse the arguments, run the command, report errors on stderr.
fn run(argv: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let cli = match args::parse(argv) {
        Ok(cli) => cli,
        Err(exit) => return exit,
    };
    let result = match cli.command {
        args::Command::Modexp(a) => modexp::run(&a),
        args::Command::Demo => demo::run(),
        args::Command::Counts(a) => counts::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => failure::report(&e),
    }
}
