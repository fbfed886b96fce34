//! The streaming submitter: single requests arriving one at a time still
//! fill the lanes.
//!
//! 000_be478b6750af4540.txt §4.2 found that a pipelined multiplier fed
//! one short number at a time spends its time filling the pipeline, and
//! that RSA, being block based, can instead be fed a continuous stream of
//! blocks, one per "owner", spread over several lanes (Table 3). A
//! [`Submitter`] does the same for the engine's lane groups: requests from
//! any number of threads go to one dispatcher thread, which gathers them
//! per (size class, [`Secrecy`]) and starts a group as soon as it holds
//! [`Engine::lanes`] jobs, or when its oldest job has waited `max_wait`
//! (a bounded wait: a lone request is never stranded). Groups run on a
//! rayon pool of the submitter's own, so callers blocked in
//! [`Ticket::wait`] (even on rayon's global pool) cannot starve them.
//!
//! Every job is answered exactly once: with its result, with the error of
//! [`Engine::pow_batch`]'s checks, or with [`EngineError::Stopped`] if its
//! group panicked. Closing or dropping the submitter dispatches what is
//! still waiting and returns once every group has finished. A caller may
//! drop its [`Ticket`]; the answer is then discarded.

use super::{Engine, EngineError, Num, PowJob, Prepared, Secrecy, check};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use zeroize::Zeroize;

/// One exponentiation for a [`Submitter`]: `base^exp mod modulus`, owned so
/// that it can wait in a queue. Pre (checked, answered with an error
/// otherwise): `base < modulus`, `exp < 2^exp_bits`. The base and exponent
/// are wiped when the job is dropped.
pub struct StreamJob {
    /// The base, `< modulus`.
    pub base: Num,
    /// The exponent, `< 2^exp_bits`.
    pub exp: Num,
    /// A public bound on the exponent's length (see [`PowJob::exp_bits`]).
    pub exp_bits: usize,
    /// The prepared modulus, shared with other jobs.
    pub modulus: Arc<Prepared>,
    /// Whether the exponent is a secret.
    pub secrecy: Secrecy,
}

impl StreamJob {
    fn as_pow_job(&self) -> PowJob<'_> {
        PowJob {
            base: &self.base,
            exp: &self.exp,
            exp_bits: self.exp_bits,
            modulus: &self.modulus,
        }
    }
}

impl Drop for StreamJob {
    /// The base and exponent may be secrets (CRT halves, private exponents).
    fn drop(&mut self) {
        self.base.zeroize();
        self.exp.zeroize();
    }
}

impl core::fmt::Debug for StreamJob {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StreamJob")
            .field("modulus_bits", &self.modulus.bits())
            .field("exp_bits", &self.exp_bits)
            .field("secrecy", &self.secrecy)
            .finish_non_exhaustive()
    }
}

/// The answer to one [`Submitter::submit`], to be collected with
/// [`Ticket::wait`] (or dropped).
#[derive(Debug)]
pub struct Ticket {
    answer: Receiver<Result<Num, EngineError>>,
}

impl Ticket {
    /// Block until the job's answer arrives: `base^exp mod n`, the error of
    /// a job that failed its checks, or [`EngineError::Stopped`] if its lane
    /// group panicked.
    pub fn wait(self) -> Result<Num, EngineError> {
        self.answer.recv().unwrap_or(Err(EngineError::Stopped))
    }
}

/// A job waiting in the dispatcher, with where its answer goes.
struct Pending {
    job: StreamJob,
    reply: Sender<Result<Num, EngineError>>,
    since: Instant,
}

/// Gathers single jobs into lane groups (see the module documentation).
/// Shared by reference between threads; [`Submitter::close`] or `Drop`
/// answers everything still waiting.
pub struct Submitter {
    jobs: Option<Sender<Pending>>,
    dispatcher: Option<JoinHandle<()>>,
}

impl core::fmt::Debug for Submitter {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Submitter").finish_non_exhaustive()
    }
}

impl Submitter {
    /// Start the dispatcher thread and the pool that runs the groups (as
    /// many threads as rayon's default). A group starts when it is full or
    /// when its oldest job has waited `max_wait`.
    ///
    /// # Panics
    ///
    /// If the operating system cannot start a thread (as
    /// [`std::thread::spawn`]).
    pub fn new(engine: Engine, max_wait: Duration) -> Submitter {
        let pool = rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("redc-stream-{i}"))
            .build()
            .expect("the operating system could not start the submitter's threads");
        let (jobs, queue) = mpsc::channel();
        let dispatcher = std::thread::Builder::new()
            .name("redc-stream-dispatch".into())
            .spawn(move || Dispatcher::new(engine, max_wait, pool).run(&queue))
            .expect("the operating system could not start the submitter's dispatcher thread");
        Submitter {
            jobs: Some(jobs),
            dispatcher: Some(dispatcher),
        }
    }

    /// Queue one job; its answer comes through the returned [`Ticket`].
    /// A job that fails [`Engine::pow_batch`]'s checks (base not below the
    /// modulus, exponent longer than `exp_bits`) is answered at once.
    pub fn submit(&self, job: StreamJob) -> Ticket {
        let (reply, answer) = mpsc::channel();
        if let Err(e) = check(&job.as_pow_job()) {
            // The ticket is alive here, so the send cannot fail.
            let _ = reply.send(Err(e));
            return Ticket { answer };
        }
        let pending = Pending {
            job,
            reply,
            since: Instant::now(),
        };
        let refused = match &self.jobs {
            Some(jobs) => jobs.send(pending).err().map(|mpsc::SendError(p)| p),
            None => Some(pending),
        };
        // The dispatcher is gone (it panicked): answer instead of losing the job.
        if let Some(p) = refused {
            let _ = p.reply.send(Err(EngineError::Stopped));
        }
        Ticket { answer }
    }

    /// Dispatch every waiting job, wait until all groups have finished (so
    /// every ticket has its answer), and stop the threads. `Drop` does the
    /// same.
    pub fn close(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        // Closing the channel tells the dispatcher to flush and finish.
        drop(self.jobs.take());
        if let Some(dispatcher) = self.dispatcher.take() {
            // A dispatcher that panicked has dropped its jobs' reply
            // senders: their tickets answer `Stopped`.
            let _ = dispatcher.join();
        }
    }
}

impl Drop for Submitter {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The jobs of one (size class, secrecy) waiting for a group.
struct Queue {
    class: usize,
    secrecy: Secrecy,
    jobs: Vec<Pending>,
}

/// The dispatcher thread's state.
struct Dispatcher {
    engine: Engine,
    max_wait: Duration,
    pool: rayon::ThreadPool,
    queues: Vec<Queue>,
    running: Arc<Running>,
}

impl Dispatcher {
    fn new(engine: Engine, max_wait: Duration, pool: rayon::ThreadPool) -> Dispatcher {
        Dispatcher {
            engine,
            max_wait,
            pool,
            queues: Vec::new(),
            running: Arc::default(),
        }
    }

    /// Gather jobs until the channel closes, then flush and wait for every
    /// group to finish.
    fn run(mut self, incoming: &Receiver<Pending>) {
        loop {
            let deadline = self
                .queues
                .iter()
                .filter_map(|q| q.jobs.first())
                .map(|p| p.since + self.max_wait)
                .min();
            let next = match deadline {
                None => incoming.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => incoming.recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            match next {
                Ok(p) => self.add(p),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            self.launch_expired();
        }
        for q in std::mem::take(&mut self.queues) {
            let mut jobs = q.jobs;
            while !jobs.is_empty() {
                let rest = jobs.split_off(jobs.len().min(self.engine.lanes()));
                self.launch(q.secrecy, jobs);
                jobs = rest;
            }
        }
        self.running.wait_idle();
    }

    /// Queue a job; start its group when it is full.
    fn add(&mut self, p: Pending) {
        let (class, secrecy) = (self.engine.class_of(&p.job.modulus), p.job.secrecy);
        let at = match self
            .queues
            .iter()
            .position(|q| q.class == class && q.secrecy == secrecy)
        {
            Some(at) => at,
            None => {
                self.queues.push(Queue {
                    class,
                    secrecy,
                    jobs: Vec::with_capacity(self.engine.lanes()),
                });
                self.queues.len() - 1
            }
        };
        self.queues[at].jobs.push(p);
        if self.queues[at].jobs.len() >= self.engine.lanes() {
            let q = self.queues.swap_remove(at);
            self.launch(q.secrecy, q.jobs);
        }
    }

    /// Start the (partly filled) group of every queue whose oldest job has
    /// waited `max_wait`.
    fn launch_expired(&mut self) {
        let now = Instant::now();
        let (expired, waiting) = std::mem::take(&mut self.queues)
            .into_iter()
            .partition(|q| q.jobs.first().is_some_and(|p| now >= p.since + self.max_wait));
        self.queues = waiting;
        for q in expired {
            self.launch(q.secrecy, q.jobs);
        }
    }

    /// Run one lane group (one class, one secrecy, at most `lanes` checked
    /// jobs) on the pool and send each answer to its ticket.
    fn launch(&self, secrecy: Secrecy, group: Vec<Pending>) {
        let engine = self.engine.clone();
        let token = Running::start(&self.running);
        self.pool.spawn(move || {
            let _token = token;
            let answers = catch_unwind(AssertUnwindSafe(|| {
                let jobs: Vec<PowJob<'_>> = group.iter().map(|p| p.job.as_pow_job()).collect();
                engine.pow_batch(&jobs, secrecy)
            }));
            // After a panic the group's reply senders are dropped with it:
            // its tickets answer `Stopped`.
            if let Ok(answers) = answers {
                for (p, x) in group.iter().zip(answers) {
                    // A dropped ticket discards its answer.
                    let _ = p.reply.send(x);
                }
            }
        });
    }
}

/// The number of groups running, to wait for at shutdown.
#[derive(Default)]
struct Running {
    count: Mutex<usize>,
    idle: Condvar,
}

/// One running group; finishing (or unwinding) drops it.
struct RunningToken(Arc<Running>);

impl Running {
    fn start(this: &Arc<Running>) -> RunningToken {
        *this.count.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        RunningToken(Arc::clone(this))
    }

    fn wait_idle(&self) {
        let mut count = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        while *count > 0 {
            count = self.idle.wait(count).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Drop for RunningToken {
    fn drop(&mut self) {
        let mut count = self.0.count.lock().unwrap_or_else(PoisonError::into_inner);
        *count -= 1;
        if *count == 0 {
            self.0.idle.notify_all();
        }
    }
}
