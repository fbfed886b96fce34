//! Errors of the command line and their exit statuses.

use std::io::Write;
use std::process::ExitCode;

/// Exit status for bad input: a malformed number, a missing field, an
/// unreadable input file, an unknown option.
pub(crate) const BAD_INPUT: u8 = 2;

/// Bad input: reported in one line, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct BadInput(pub(crate) String);

/// `Err(BadInput)` with a formatted message.
macro_rules! bad_input {
    ($($t:tt)*) => {
        anyhow::Error::new($crate::failure::BadInput(format!($($t)*)))
    };
}
pub(crate) use bad_input;

/// Print `e` as one line on stderr; exit 2 for bad input, 1 otherwise. A
/// reader that stopped reading (`redc ... | head -1`: a broken pipe) is not
/// an error: nothing is printed and the status is 0, as in ripgrep.
pub(crate) fn report(e: &anyhow::Error) -> ExitCode {
    let broken_pipe = e
        .chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe);
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "redc: {}", one_line(&format!("{e:#}")));
    if e.downcast_ref::<BadInput>().is_some() {
        ExitCode::from(BAD_INPUT)
    } else {
        ExitCode::FAILURE
    }
}

/// The message folded onto one line.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
