//! Interruption: on SIGINT, SIGTERM or SIGHUP every output file still being
//! written (the temporary files of [`crate::output::Sink`], which may hold
//! decrypted plaintext or a private key) is removed, and the process ends
//! with status 128 + the signal's number, as a shell reports a death by that
//! signal. SIGKILL cannot be caught: a file being written then stays, under
//! its hidden temporary name, readable by its owner only (mode 0600).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The temporary files being written.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Handle the three signals on a thread of their own (signal-hook's
/// iterator: the handler itself only wakes that thread). If they cannot be
/// handled, they keep their default action (the process ends at once).
pub(crate) fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // Held until the process exits: no file is renamed into place
            // or registered after this point.
            let files = pending();
            for path in files.iter() {
                let _ = std::fs::remove_file(path);
            }
            let name = match signal {
                SIGINT => "SIGINT",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            let removed = if files.is_empty() {
                ""
            } else {
                "; the partial output was removed"
            };
            let _ = writeln!(std::io::stderr(), "redc: stopped by {name}{removed}");
            std::process::exit(128 + signal);
        }
    });
}

/// `path` is about to be created and written: removed if a signal comes
/// before [`settle`].
pub(crate) fn register(path: &Path) {
    pending().push(path.to_owned());
}

/// Run `step` (moving `path` into place, or removing it) where no signal is
/// handled, then forget `path`.
pub(crate) fn settle<T>(path: &Path, step: impl FnOnce() -> T) -> T {
    let mut files = pending();
    let out = step();
    files.retain(|p| p != path);
    out
}
