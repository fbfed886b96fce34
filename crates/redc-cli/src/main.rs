//! `redc`: modular exponentiation with the papers' Montgomery schedules, and
//! RSA. The command lives in the library ([`redc_cli::run`]); this binary
//! installs the signal handlers and returns its exit status.

use std::process::ExitCode;

fn main() -> ExitCode {
    redc_cli::install_signal_handlers();
    redc_cli::run(std::env::args_os())
}
