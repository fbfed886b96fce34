//! `redc`: modular exponentiation with the papers' Montgomery schedules, and RSA.
//!
//! `main` only hands the arguments to [`run`] and turns its outcome into an
//! exit status: 0 success, 1 failure of the machine (I/O), 2 bad input.

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
mod keys;
mod manual;
mod modexp;
mod number;
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

use std::process::ExitCode;

fn main() -> ExitCode {
    interrupt::install();
    run(std::env::args_os())
}

/// Parse the arguments, run the command, report errors on stderr.
fn run(argv: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let argv: Vec<_> = argv.into_iter().collect();
    let mut command = args::command();
    if version::asked(&argv) {
        command = command.long_version(version::long());
    }
    let cli = match args::parse(command, argv) {
        Ok(cli) => cli,
        Err(exit) => return exit,
    };
    if let Err(e) = backend::install_default_engine().and_then(|()| policy::install(cli.security_level)) {
        return failure::report(&e);
    }
    let result = match cli.command {
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
    };
    // A signal received while the command ran ends the process by that
    // signal, whatever the command's outcome: never an exit 0 after one,
    // nor an error line about the output it refused to publish.
    interrupt::stop_if_received();
    match result {
        Ok(code) => code,
        Err(e) => failure::report(&e),
    }
}
