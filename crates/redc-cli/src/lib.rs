//! The `redc` command as a library: its arguments (clap), the commands, and
//! their reading and writing of files, over the libraries (`redc`,
//! `redc-rsa`, `redc-ffc`, `redc-hw`, `redc-cuda`, `redc-bench`).
//!
//! The binary (`src/main.rs`) installs the signal handlers
//! ([`install_signal_handlers`]) and calls
//! [`run`], whose outcome is the exit status: 0 success, 1 failure of the
//! machine (I/O), 2 bad input. [`parse`] and [`execute`] are the two halves
//! of [`run`], for callers that drive commands in-process (the fuzz
//! targets) and report errors their own way.

mod args;
mod backend;
mod batch;
mod bench;
mod counts;
mod demo;
mod dh;
mod dsa;
mod failure;
mod interrupt;
mod jsonl;
mod keyfile;
mod keypair;
mod keys;
mod manual;
mod modexp;
pub mod number;
mod output;
mod policy;
mod progress;
mod rsa;
mod seal;
mod sign;
mod sim;
mod spellings;
mod stdin;
mod vectors;
mod version;

use std::ffi::OsString;
use std::process::ExitCode;

/// Handles SIGINT, SIGTERM and SIGHUP as the binary does: outputs still
/// being written are discarded and the process ends by the signal (see
/// the `interrupt` module). Call once, before [`run`].
pub fn install_signal_handlers() {
    interrupt::install();
}

/// A parsed `redc` command line.
#[derive(Debug)]
pub struct Cli(args::Cli);

impl Cli {
    /// Whether the command is one of the JSON Lines batch commands
    /// (`redc modexp --batch`, `redc rsa private-batch`, `redc rsa public-batch`).
    pub fn is_batch(&self) -> bool {
        match &self.0.command {
            args::Command::Modexp(a) => a.batch.is_some(),
            args::Command::Rsa(args::RsaCommand::PrivateBatch(_) | args::RsaCommand::PublicBatch(_)) => true,
            _ => false,
        }
    }
}

/// Parses `argv` (the program name first) as the `redc` command line. A
/// usage error, `--help` or `--version` has been printed when this returns
/// `Err`, which holds the exit status.
pub fn parse(argv: impl IntoIterator<Item = OsString>) -> Result<Cli, ExitCode> {
    let argv: Vec<_> = argv.into_iter().collect();
    let mut command = args::command();
    if version::asked(&argv) {
        command = command.long_version(version::long());
    }
    args::parse(command, argv).map(Cli)
}

/// Runs a parsed command line: installs the engine of `REDC_BACKEND` and
/// the security level (the first installation of a process wins), then the
/// command. An error is returned, not printed ([`run`] prints it and exits
/// 2 for bad input, 1 for other failures).
pub fn execute(cli: Cli) -> anyhow::Result<ExitCode> {
    let cli = cli.0;
    backend::install_default_engine().and_then(|()| policy::install(cli.security_level))?;
    match cli.command {
        args::Command::Modexp(a) => modexp::run(&a),
        args::Command::Demo => demo::run(),
        args::Command::Counts(a) => counts::run(&a),
        args::Command::Keygen(a) => keys::keygen(&a),
        args::Command::Pubkey(a) => keys::pubkey(&a),
        args::Command::Sign(a) => sign::sign(&a),
        args::Command::Verify(a) => sign::verify(&a),
        args::Command::Encrypt(a) => seal::encrypt(&a),
        args::Command::Decrypt(a) => seal::decrypt(&a),
        args::Command::Rsa(args::RsaCommand::Encrypt(a)) => rsa::encrypt(&a),
        args::Command::Rsa(args::RsaCommand::Decrypt(a)) => rsa::decrypt(&a),
        args::Command::Rsa(args::RsaCommand::PrivateBatch(a)) => rsa::private_batch(&a),
        args::Command::Rsa(args::RsaCommand::PublicBatch(a)) => rsa::public_batch(&a),
        args::Command::Dh(args::DhCommand::Genkey(a)) => dh::genkey(&a),
        args::Command::Dh(args::DhCommand::Pubkey(a)) => dh::pubkey(&a),
        args::Command::Dh(args::DhCommand::Derive(a)) => dh::derive(&a),
        args::Command::Dh(args::DhCommand::DeriveBatch(a)) => dh::derive_batch_run(&a),
        args::Command::Dsa(args::DsaCommand::SignBatch(a)) => dsa::sign_batch_run(&a),
        args::Command::Dsa(args::DsaCommand::VerifyBatch(a)) => dsa::verify_batch_run(&a),
        args::Command::Sim(a) => sim::run(&a),
        args::Command::Vectors(a) => vectors::run(&a),
        args::Command::Bench(a) => bench::run(&a),
        args::Command::Completions(a) => manual::completions(&a),
        args::Command::Man(a) => manual::man(&a),
    }
}

/// Parse the arguments, run the command, report errors on stderr.
pub fn run(argv: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match parse(argv) {
        Ok(cli) => cli,
        Err(exit) => return exit,
    };
    let result = execute(cli);
    // A signal received while the command ran ends the process by that
    // signal, whatever the command's outcome: never an exit 0 after one,
    // nor an error line about the output it refused to publish.
    interrupt::stop_if_received();
    match result {
        Ok(code) => code,
        Err(e) => failure::report(&e),
    }
}
