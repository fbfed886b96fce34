//! Interruption: SIGINT, SIGTERM and SIGHUP always win. The handler itself
//! only sets a flag (at the moment of delivery) and wakes a thread; that
//! thread discards every output still being written (the files of
//! [`crate::output::Sink`], which may hold plaintext or a private key: an
//! unnamed one is dropped, a named temporary one removed), says so on
//! stderr, and ends the process by the same signal (its default action,
//! re-raised: a shell sees a death by that signal and stops its loop).
//!
//! Because the flag is set before the thread runs, a command that received
//! a signal before its output was moved into place never publishes it
//! ([`publish`] refuses) and never exits 0 ([`stop_if_received`], which the
//! command's end calls), however the signal and the end of its input
//! interleave. A signal after the move finds a complete output, and the
//! process still ends by the signal. A second signal ends the process at
//! once. A signal ignored when redc started (`nohup`, a background job)
//! stays ignored. Other deaths (SIGKILL, a crash) leave no named file when
//! the system has unnamed files (Linux's `O_TMPFILE`), else a hidden
//! temporary file readable by its owner only (mode 0600).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

/// Outputs being written: an id and, for a named temporary file, its path.
static PENDING: Mutex<Vec<(u64, Option<PathBuf>)>> = Mutex::new(Vec::new());

/// The handled signals and their flags, set by the handler on delivery.
static RECEIVED: OnceLock<Vec<(i32, Arc<AtomicBool>)>> = OnceLock::new();

fn pending() -> MutexGuard<'static, Vec<(u64, Option<PathBuf>)>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An output registered with [`register`], until [`publish`] or [`discard`].
#[derive(Debug)]
pub(crate) struct Registration(u64);

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

/// Handle the three signals: a flag set in the handler, and a thread of
/// their own (signal-hook's iterator) that ends the process. If they
/// cannot be handled, they keep their default action.
pub(crate) fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let ignored = ignored_at_start();
    let signals: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| ignored >> (s - 1) & 1 == 0)
        .collect();
    // The thread first: if it cannot be had, nothing is registered and the
    // signals keep their default action (death, which leaves no output
    // readable by others either).
    let Ok(mut iter) = signal_hook::iterator::Signals::new(&signals) else {
        return;
    };
    let flags: Vec<(i32, Arc<AtomicBool>)> = signals
        .iter()
        .map(|&s| {
            let flag = Arc::new(AtomicBool::new(false));
            let _ = signal_hook::flag::register(s, Arc::clone(&flag));
            (s, flag)
        })
        .collect();
    let _ = RECEIVED.set(flags);
    // A second delivery exits at once. Its mark is set by the delivery's
    // own last action, after the check: the thread, which a delivery's
    // first action wakes, once set it and could do so while the same
    // delivery's handler, on another core, had yet to run the check; the
    // process then exited 128 + the signal in the middle of its message
    // where it must die by the signal (the CLI's interrupt tests failed
    // so, a few times in a hundred runs on a loaded 2-core machine).
    let second = Arc::new(AtomicBool::new(false));
    for &s in &signals {
        let _ = signal_hook::flag::register_conditional_shutdown(s, 128 + s, Arc::clone(&second));
        let _ = signal_hook::flag::register(s, Arc::clone(&second));
    }
    std::thread::spawn(move || {
        if let Some(signal) = iter.forever().next() {
            terminate(signal);
        }
    });
}

/// The first handled signal received, if any.
pub(crate) fn received() -> Option<i32> {
    RECEIVED
        .get()?
        .iter()
        .find(|(_, flag)| flag.load(Ordering::SeqCst))
        .map(|&(s, _)| s)
}

/// If a signal was received, end the process by it (as the signal thread
/// does); else return. The end of every command calls this, so that a
/// command never exits 0 after a signal.
pub(crate) fn stop_if_received() {
    if let Some(signal) = received() {
        terminate(signal);
    }
}

/// Discard the outputs being written, say so, and die by `signal`. Holds
/// the lock of the pending outputs until the process ends: no output is
/// moved into place or created after this point.
fn terminate(signal: i32) -> ! {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let outputs = pending();
    for path in outputs.iter().filter_map(|(_, p)| p.as_ref()) {
        let _ = std::fs::remove_file(path);
    }
    let name = match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "SIGHUP",
    };
    let discarded = if outputs.is_empty() {
        ""
    } else {
        "; the partial output was discarded"
    };
    // On a terminal, below a progress bar's line.
    let newline = if std::io::stderr().is_terminal() { "\n" } else { "" };
    let _ = writeln!(std::io::stderr(), "{newline}redc: stopped by {name}{discarded}");
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    signal_hook::low_level::exit(128 + signal)
}

/// Create an output by `create` and register it (under the lock, so that
/// a signal either comes first and finds nothing, or after and discards
/// it): with `path` when it is a named temporary file the signal must
/// remove. Nothing is registered if `create` fails.
pub(crate) fn register<T, E>(
    path: Option<&Path>,
    create: impl FnOnce() -> Result<T, E>,
) -> Result<(T, Registration), E> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut outputs = pending();
    let out = create()?;
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    outputs.push((id, path.map(Path::to_owned)));
    Ok((out, Registration(id)))
}

/// Run `step` (moving an output into place, or removing what it made if
/// it cannot) where no signal is handled, then end the registration;
/// unless a signal was received: then nothing is published, the output
/// stays registered (for the signal's end or the caller to discard), and
/// this fails.
pub(crate) fn publish<T>(registration: &Registration, step: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
    let mut outputs = pending();
    if received().is_some() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "stopped by a signal",
        ));
    }
    let out = step();
    outputs.retain(|(id, _)| *id != registration.0);
    out
}

/// Run `step` (removing an output) where no signal is handled, then end
/// the registration.
pub(crate) fn discard<T>(registration: &Registration, step: impl FnOnce() -> T) -> T {
    let mut outputs = pending();
    let out = step();
    outputs.retain(|(id, _)| *id != registration.0);
    out
}
