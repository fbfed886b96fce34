//! Interruption: on SIGINT, SIGTERM or SIGHUP every output file still being
//! written (the temporary files of [`crate::output::Sink`], which may hold
//! decrypted plaintext or a private key) is removed, a line says so on
//! stderr, and the process then dies by the same signal (its default
//! action, re-raised: a shell sees a death by that signal and stops its
//! loop). A second signal while that runs ends the process at once. A
//! signal that was ignored when redc started (`nohup`, a background job)
//! stays ignored. Other deaths — SIGKILL, SIGQUIT, a crash — leave a file
//! being written under its hidden temporary name, readable by its owner
//! only (mode 0600).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The temporary files being written.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The signals ignored at start, from Linux's `/proc/self/status`
/// (`SigIgn`, a hexadecimal mask, bit `s - 1` for signal `s`); none
/// elsewhere.
fn ignored_at_start() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("SigIgn:"))
                .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        })
        .unwrap_or(0)
}

/// Handle the three signals on a thread of their own (signal-hook's
/// iterator: the handler itself only wakes that thread). If they cannot be
/// handled, they keep their default action.
pub(crate) fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let ignored = ignored_at_start();
    let signals: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| ignored >> (s - 1) & 1 == 0)
        .collect();
    let second = Arc::new(AtomicBool::new(false));
    for &s in &signals {
        let _ = signal_hook::flag::register_conditional_shutdown(s, 128 + s, Arc::clone(&second));
    }
    let Ok(mut iter) = signal_hook::iterator::Signals::new(&signals) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = iter.forever().next() {
            second.store(true, Ordering::SeqCst);
            // Held until the process ends: no file is renamed into place
            // or created after this point.
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
            // On a terminal, below a progress bar's line.
            let newline = if std::io::stderr().is_terminal() { "\n" } else { "" };
            let _ = writeln!(std::io::stderr(), "{newline}redc: stopped by {name}{removed}");
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            signal_hook::low_level::exit(128 + signal);
        }
    });
}

/// Create the file `path` by `create`, registered (under the lock, so that
/// a signal either comes first and finds nothing, or after and removes
/// it) until [`settle`]. Nothing is registered if `create` fails.
pub(crate) fn create<T, E>(path: &Path, create: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    let mut files = pending();
    let out = create()?;
    files.push(path.to_owned());
    Ok(out)
}

/// Run `step` (moving `path` into place, or removing it) where no signal is
/// handled, then forget `path`.
pub(crate) fn settle<T>(path: &Path, step: impl FnOnce() -> T) -> T {
    let mut files = pending();
    let out = step();
    files.retain(|p| p != path);
    out
}
