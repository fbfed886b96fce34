//! Private operations from OpenSSL's asynchronous jobs, gathered across
//! the engine's lanes.
//!
//! An operation that runs inside an async job (`ASYNC_get_current_job`:
//! `s_server -async`, HAProxy's `ssl-mode-async`, `openssl speed
//! -async_jobs`) is not computed on the spot: [`private_in_job`] queues its
//! encoded input with the [`Batcher`], publishes a wait file descriptor on
//! the job's wait context (`ASYNC_WAIT_CTX_set_wait_fd`) and pauses the
//! job (`ASYNC_pause_job`); the server's event loop resumes it when the
//! descriptor becomes readable. The batcher's thread runs the requests of
//! one key as one redc-rsa batch (blinded, by Garner's CRT, each result
//! checked with `e`: `raw_private_batch`, on the engine's thread pool) as
//! soon as they fill the engine's lanes twice (a CRT operation takes a
//! lane per prime), or when the oldest has waited `batch-wait-us` (a lone
//! request is never stranded), then answers each request and writes one
//! byte to its descriptor.
//!
//! Every request is answered exactly once, to the job that made it: a
//! wait context (one per connection) has at most one operation in flight
//! (a second is computed at once), and its [`Waiter`] holds that
//! operation's answer beside the descriptor (a pipe); a request dropped
//! unanswered answers itself with an error. The wait context and the
//! request in flight own the waiter; the paused job keeps only a weak
//! reference and, resumed, takes its byte (blocking until it comes if
//! the resumption was early) and its answer. A connection closed
//! while its job is paused frees its wait context; the batcher still
//! answers into the waiter, whose pipe closes when the request is dropped
//! (the paused job's stack, never resumed, holds nothing that keeps it).
#![allow(unsafe_code)]

use crate::ffi::{
    ASYNC_WAIT_CTX_get_fd, ASYNC_WAIT_CTX_set_wait_fd, ASYNC_get_current_job, ASYNC_get_wait_ctx, ASYNC_pause_job,
};
use crate::fiber;
use crate::keymgmt::Key;
use core::ffi::{c_int, c_void};
use redc::engine::default_engine;
use redc_rsa::OsRng;
use redc_rsa::hazmat::{raw_private, raw_private_batch};
use std::collections::HashMap;
use std::io::{PipeReader, PipeWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};
use zeroize::Zeroizing;

/// How long the oldest request of a key waits for others before its group
/// runs short, in microseconds: `batch-wait-us` in the provider's
/// `openssl.cnf` section ([`set_max_wait`]), 1000 by default. Measured
/// with OpenSSL 4.0.3's `speed -async_jobs 8 rsa2048` on one core (2-core
/// Zen 4 EPYC, two runs each): 50 µs gave 4,443 and 4,528 signatures/s,
/// 200 µs 4,672 and 4,403, 500 µs 5,459 and 4,783, 1000 µs 5,566, 5,322,
/// 5,511 and 5,570: shorter waits split the bursts of requests that a
/// finished batch's resumed jobs send. A lone request waits this long.
static WAIT_US: AtomicU64 = AtomicU64::new(1000);

/// The longest `batch-wait-us` taken: one second.
pub(crate) const MAX_WAIT_US: u64 = 1_000_000;

/// Sets the wait of a short group (at most [`MAX_WAIT_US`]).
pub(crate) fn set_max_wait(us: u64) {
    WAIT_US.store(us.min(MAX_WAIT_US), Ordering::Relaxed);
}

/// The wait of a short group.
fn max_wait() -> Duration {
    Duration::from_micros(WAIT_US.load(Ordering::Relaxed))
}

/// What answers a request: the private operation's output, or why not.
type Answer = Result<Zeroizing<Vec<u8>>, String>;

/// A wait context's answer and descriptor: the batcher writes the answer
/// of its operation in flight, then one byte; the server polls the
/// reading end, and the resumed job takes the answer and the byte.
struct Waiter {
    answer: Mutex<Option<Answer>>,
    reader: PipeReader,
    writer: PipeWriter,
    /// Whether an operation of this wait context is in flight (a second
    /// one, which a server does not make, is computed at once instead).
    busy: AtomicBool,
}

/// A private operation waiting for its group. It is answered exactly
/// once: by [`Request::reply`], or, if it is dropped unanswered (a
/// batcher that failed), with an error by its `Drop`.
struct Request {
    key: Arc<Key>,
    input: Zeroizing<Vec<u8>>,
    waiter: Arc<Waiter>,
    since: Instant,
    replied: bool,
}

impl Request {
    /// Answers the request: the answer, then its byte.
    fn reply(mut self, answer: Answer) {
        self.send(answer);
    }

    fn send(&mut self, answer: Answer) {
        self.replied = true;
        *self.waiter.answer.lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
        // One byte per answer, taken by the job with it: the pipe never
        // holds more than one.
        let _ = (&self.waiter.writer).write(&[1]);
    }
}

impl Drop for Request {
    fn drop(&mut self) {
        if !self.replied {
            self.send(Err("the batch of this operation was lost".into()));
        }
    }
}

/// The queue in front of the batcher's thread.
pub(crate) struct Batcher {
    queue: Mutex<Sender<Request>>,
}

impl Batcher {
    /// The provider's batcher, its thread started on first use.
    fn get() -> &'static Batcher {
        static BATCHER: OnceLock<Batcher> = OnceLock::new();
        BATCHER.get_or_init(|| {
            let (tx, rx) = mpsc::channel();
            std::thread::Builder::new()
                .name("redc-batcher".into())
                .spawn(move || run(&rx))
                .map(drop)
                .unwrap_or_else(|_| ());
            Batcher { queue: Mutex::new(tx) }
        })
    }

    /// Queues `request`; false when the batcher's thread is gone.
    fn submit(&self, request: Request) -> bool {
        let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        queue.send(request).is_ok()
    }
}

/// How many operations of `key` make a batch: enough to fill the engine's
/// lanes twice (each prime of a CRT operation is a lane job). One lane
/// group per batch was 19% slower at 3072 bits (16 jobs in flight, one
/// core, OpenSSL 4.0.3: 1,191 against 1,466 signatures/s), the same at
/// 2048 and 4096 bits within the noise.
fn full(key: &Key) -> usize {
    let primes = key.private.as_ref().map_or(1, |k| k.primes().len());
    (default_engine().lanes() / primes).max(1) * 2
}

/// The batcher's thread: gathers requests per key and hands each key's
/// group to the engine's thread pool when it fills the lanes or when its
/// oldest has waited [`max_wait`], gathering on meanwhile.
fn run(incoming: &Receiver<Request>) {
    let mut pending: HashMap<*const Key, Vec<Request>> = HashMap::new();
    loop {
        let oldest = pending.values().filter_map(|g| g.first()).map(|r| r.since).min();
        let timeout = oldest.map_or(Duration::from_secs(3600), |t| max_wait().saturating_sub(t.elapsed()));
        match incoming.recv_timeout(timeout) {
            Ok(request) => pending.entry(Arc::as_ptr(&request.key)).or_default().push(request),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        let ready: Vec<*const Key> = pending
            .iter()
            .filter(|(_, g)| {
                g.first()
                    .is_some_and(|r| g.len() >= full(&r.key) || r.since.elapsed() >= max_wait())
            })
            .map(|(&k, _)| k)
            .collect();
        for key in ready {
            if let Some(group) = pending.remove(&key) {
                rayon::spawn(move || answer(group));
            }
        }
    }
    for (_, group) in pending.drain() {
        answer(group);
    }
}

/// Runs one key's requests as one batch and answers each of them.
fn answer(group: Vec<Request>) {
    let Some(key) = group.first().map(|r| Arc::clone(&r.key)) else {
        return;
    };
    let answers: Vec<Answer> = match &key.private {
        Some(private) => {
            let inputs: Vec<&[u8]> = group.iter().map(|r| r.input.as_slice()).collect();
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                raw_private_batch(default_engine(), private, &inputs, &mut OsRng)
            }));
            match run {
                Ok(outs) => outs
                    .into_iter()
                    .map(|o| o.map_err(|e| format!("RSA private operation: {e}")))
                    .collect(),
                Err(_) => group
                    .iter()
                    .map(|_| Err("internal error in redc-provider".into()))
                    .collect(),
            }
        }
        None => group.iter().map(|_| Err(NO_PRIVATE_KEY.into())).collect(),
    };
    for (request, answer) in group.into_iter().zip(answers) {
        request.reply(answer);
    }
}

/// The key under which the provider's descriptor is published.
static WAIT_KEY: u8 = 0;

/// Called by OpenSSL when it frees a wait context: drops the context's
/// share of its waiter (a request still in flight keeps its own).
unsafe extern "C" fn release(_ctx: *mut c_void, _key: *const c_void, _fd: c_int, custom: *mut c_void) {
    if !custom.is_null() {
        // SAFETY: `custom` is the `Arc` `waiter_of` leaked for this
        // context, released once, here.
        drop(unsafe { Arc::from_raw(custom.cast::<Waiter>()) });
    }
}

/// The waiter of the wait context `ctx`, made and its descriptor
/// published on its first use.
///
/// # Safety
///
/// `ctx` is the current job's live wait context.
unsafe fn waiter_of(ctx: *mut c_void) -> Result<Arc<Waiter>, String> {
    let key = (&raw const WAIT_KEY).cast::<c_void>();
    let (mut fd, mut custom) = (-1, core::ptr::null_mut());
    // SAFETY: the caller's contract; out-pointers to locals.
    if unsafe { ASYNC_WAIT_CTX_get_fd(ctx, key, &mut fd, &mut custom) } == 1 && !custom.is_null() {
        let custom = custom.cast::<Waiter>().cast_const();
        // SAFETY: `custom` is the `Arc` published below; the context holds
        // its count while it lives, so one more share may be taken.
        unsafe { Arc::increment_strong_count(custom) };
        // SAFETY: the share just taken.
        return Ok(unsafe { Arc::from_raw(custom) });
    }
    let (reader, writer) = std::io::pipe().map_err(|e| format!("cannot make a wait descriptor: {e}"))?;
    let waiter = Arc::new(Waiter {
        answer: Mutex::new(None),
        reader,
        writer,
        busy: AtomicBool::new(false),
    });
    let shared = Arc::into_raw(Arc::clone(&waiter));
    let fd = waiter.reader.as_raw_fd();
    // SAFETY: the caller's contract; `release` takes the share back.
    if unsafe { ASYNC_WAIT_CTX_set_wait_fd(ctx, key, fd, shared.cast_mut().cast(), Some(release)) } != 1 {
        // SAFETY: not published: the share is ours to drop.
        drop(unsafe { Arc::from_raw(shared) });
        return Err("cannot publish the wait descriptor".into());
    }
    Ok(waiter)
}

/// `input^d mod n` for a private `key` (blinded, by Garner's CRT, checked
/// with `e`): inside an async job, in a batch while the job is paused
/// ([`private_in_job`]); otherwise, or when the job cannot pause, at once
/// (off the job's small stack inside one).
pub(crate) fn private(key: Arc<Key>, input: &[u8]) -> Answer {
    let key = match private_in_job(key, input) {
        Ok(answer) => return answer,
        Err(key) => key,
    };
    fiber::run(move || {
        let private = key.private.as_ref().ok_or(NO_PRIVATE_KEY)?;
        raw_private(private, input, &mut OsRng).map_err(|e| format!("RSA private operation: {e}"))
    })?
}

/// The error of a private operation with a public key.
const NO_PRIVATE_KEY: &str = "the operation needs a private key";

/// `input^d mod n` for a private `key`, computed in a batch while the
/// calling async job is paused; the key given back when it cannot be
/// (outside an async job, a job without a wait context, a wait descriptor
/// that cannot be made, a wait context with an operation already in
/// flight). The key is moved into the
/// request, so that a job never resumed keeps no reference to it.
fn private_in_job(key: Arc<Key>, input: &[u8]) -> Result<Answer, Arc<Key>> {
    // SAFETY: no arguments; the thread's async state.
    let job = unsafe { ASYNC_get_current_job() };
    if job.is_null() {
        return Err(key);
    }
    // SAFETY: the current job; its wait context (null when the job was
    // started without one) lives while it runs.
    let ctx = unsafe { ASYNC_get_wait_ctx(job) };
    if ctx.is_null() {
        return Err(key);
    }
    // SAFETY: as above.
    // No descriptor to wait on (the process is out of them, say): at once.
    let Ok(waiter) = (unsafe { waiter_of(ctx) }) else {
        return Err(key);
    };
    if waiter.busy.swap(true, Ordering::AcqRel) {
        return Err(key);
    }
    // Across the pause the job holds only this weak reference: a job that
    // is never resumed keeps no descriptor open.
    let weak = Arc::downgrade(&waiter);
    let request = Request {
        key,
        input: Zeroizing::new(input.to_vec()),
        waiter,
        since: Instant::now(),
        replied: false,
    };
    // An unsent request is answered (with an error) by its drop.
    let _ = Batcher::get().submit(request);
    // Resumed (or not paused at all: `ASYNC_block_pause`, a failed
    // pause), the job waits for its byte, which follows its answer: at
    // once when resumed by it, blocking otherwise, never spinning.
    // SAFETY: inside a job (checked above).
    unsafe { ASYNC_pause_job() };
    let Some(waiter) = weak.upgrade() else {
        return Ok(Err("the operation was not answered".into()));
    };
    let _ = (&waiter.reader).read(&mut [0u8; 1]);
    let answer = waiter.answer.lock().unwrap_or_else(PoisonError::into_inner).take();
    waiter.busy.store(false, Ordering::Release);
    Ok(answer.unwrap_or_else(|| Err("the operation was not answered".into())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request dropped unanswered (a batch lost to a failure) answers
    /// itself: an error, then its byte; a replied one answers once.
    #[test]
    fn every_request_is_answered_exactly_once() {
        let private = redc_rsa::keygen::generate(1024, &redc::Num::from_u64(65537), &|_| {}).unwrap();
        let key = Arc::new(Key {
            public: private.public_key().clone(),
            private: None,
        });
        let (reader, writer) = std::io::pipe().unwrap();
        let waiter = Arc::new(Waiter {
            answer: Mutex::new(None),
            reader,
            writer,
            busy: AtomicBool::new(true),
        });
        let request = |w: &Arc<Waiter>| Request {
            key: Arc::clone(&key),
            input: Zeroizing::new(vec![1]),
            waiter: Arc::clone(w),
            since: Instant::now(),
            replied: false,
        };
        drop(request(&waiter));
        let mut byte = [0u8; 2];
        assert_eq!((&waiter.reader).read(&mut byte).unwrap(), 1, "one byte");
        let lost = waiter.answer.lock().unwrap().take().unwrap();
        assert_eq!(lost.unwrap_err(), "the batch of this operation was lost");
        request(&waiter).reply(Ok(Zeroizing::new(vec![7])));
        assert_eq!((&waiter.reader).read(&mut byte).unwrap(), 1, "one byte");
        assert_eq!(*waiter.answer.lock().unwrap().take().unwrap().unwrap(), [7]);
    }
}
