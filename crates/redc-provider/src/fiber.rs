//! Work kept off OpenSSL's asynchronous jobs' stacks.
//!
//! An OpenSSL async job (`ASYNC_start_job`: `s_server -async`, HAProxy's
//! `ssl-mode-async`, `openssl speed -async_jobs`) runs on a fibre whose
//! stack is 32 KiB (`async_posix.h`'s `STACKSIZE`); redc's kernels keep
//! their window tables on the stack and overflowed it (`s_server -async`
//! aborted in `free()`). Every call that runs redc's kernels (a key's
//! checks, a key generation, a public operation: `guard_heavy`) therefore
//! runs here: directly outside a job, on a thread of its own (a full
//! stack) inside one, the fibre's thread waiting for it. A private
//! operation inside a job is batched instead (`batch`): the job pauses.
#![allow(unsafe_code)]

use crate::ffi::ASYNC_get_current_job;

/// Whether the calling thread is running an OpenSSL async job.
pub(crate) fn in_job() -> bool {
    // SAFETY: no arguments; it reads the thread's async state.
    !unsafe { ASYNC_get_current_job() }.is_null()
}

/// `f` moved to another thread although it holds OpenSSL's pointers.
struct Carried<F>(F);

// SAFETY: the thread that hands `f` over waits, doing nothing, until the
// other thread has finished with it (`run` joins before it returns), so
// the objects behind its pointers are never used by two threads at once;
// OpenSSL's objects may be used from any thread one at a time.
unsafe impl<F> Send for Carried<F> {}

/// Runs `f`: on this thread outside an async job, on a thread of its own
/// inside one, returning when it is done either way. Inside a job, a
/// thread that cannot be started, or a panic on it, is an error (never an
/// unwind into OpenSSL).
pub(crate) fn run<R, F: FnOnce() -> R>(f: F) -> Result<R, String> {
    if !in_job() {
        return Ok(f());
    }
    let carried = Carried(f);
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .spawn_scoped(s, move || {
                let carried = carried;
                Carried((carried.0)())
            })
            .map_err(|e| format!("cannot start a thread off the async job: {e}"))?;
        match worker.join() {
            Ok(out) => Ok(out.0),
            Err(_) => Err("internal error in redc-provider".into()),
        }
    })
}
