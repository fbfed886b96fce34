//! The streaming submitter: single requests arriving one at a time still
//! fill the lanes.
//!
//! 000_be478b6750af4540.txt §4.2 found that a pipelined multiplier fed
//! one short number at a time spends its time filling the pipeline, and
//! that RSA, being block based, can instead be fed a continuous stream of
//! blocks, one per "owner", spread over several lanes (Table 3). A
//! [`Submitter`] does the same for the engine's lane groups: requests from
//! any number of threads go to one dispatcher thread, which gathers them
//! per (route, secret or public exponent) and starts a group as soon as it holds
//! [`Engine::lanes`] jobs, or when its oldest job has waited `max_wait`
//! (a bounded wait: a lone request is never stranded). Groups run on a
//! rayon pool of the submitter's own, so callers blocked in
//! [`Ticket::wait`] (even on rayon's global pool) cannot starve them.
//!
//! Every job is answered exactly once: with its result, with the error of
//! the engine's checks, or with [`EngineError::Stopped`] if its
//! group panicked. Closing or dropping the submitter dispatches what is
//! still waiting and returns once every group has finished. A caller may
//! drop its [`Ticket`]; the answer is then discarded.

use super::{Engine, EngineError, Input, Num, PowJob, Prepared, PublicExpJob, Route};
use crate::secret::SecretNat;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One exponentiation for a [`Submitter`]: `base^exp mod modulus`, owned so
/// that it can wait in a queue. Pre (checked, answered with an error
/// otherwise): `base < modulus`, a secret `exp < 2^exp_bits`. Base and
/// exponents are wiped when the job is dropped (their types wipe
/// themselves).
pub struct StreamJob {
    base: SecretNat,
    exp: Exponent,
    modulus: Arc<Prepared>,
}

/// A job's exponent: its type says whether it is secret.
enum Exponent {
    /// Fixed windows over the public bound `bits` ([`Engine::pow`]).
    Secret { exp: SecretNat, bits: usize },
    /// Windows chosen by the exponent ([`Engine::pow_vartime`]).
    Public(Num),
}

impl StreamJob {
    /// A job with a secret exponent below `2^exp_bits`.
    pub fn secret(base: SecretNat, exp: SecretNat, exp_bits: usize, modulus: Arc<Prepared>) -> StreamJob {
        StreamJob {
            base,
            exp: Exponent::Secret { exp, bits: exp_bits },
            modulus,
        }
    }

    /// A job with a public exponent (RSA's `e`).
    pub fn public_exp(base: SecretNat, exp: Num, modulus: Arc<Prepared>) -> StreamJob {
        StreamJob {
            base,
            exp: Exponent::Public(exp),
            modulus,
        }
    }

    fn is_secret(&self) -> bool {
        matches!(self.exp, Exponent::Secret { .. })
    }

    /// The engine's checks of this job.
    fn check(&self) -> Result<(), EngineError> {
        match &self.exp {
            Exponent::Secret { exp, bits } => Input::secret(&PowJob {
                base: &self.base,
                exp,
                exp_bits: *bits,
                modulus: &self.modulus,
            }),
            Exponent::Public(exp) => Input::public(&PublicExpJob {
                base: &self.base,
                exp,
                modulus: &self.modulus,
            }),
        }
        .map(|_| ())
    }
}

impl core::fmt::Debug for StreamJob {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StreamJob")
            .field("modulus_bits", &self.modulus.bits())
            .field("secret_exponent", &self.is_secret())
            .finish_non_exhaustive()
    }
}

/// The answer to one [`Submitter::submit`], to be collected with
/// [`Ticket::wait`] (or dropped).
#[derive(Debug)]
pub struct Ticket {
    answer: Receiver<Result<SecretNat, EngineError>>,
}

impl Ticket {
    /// Block until the job's answer arrives: `base^exp mod n`, the error of
    /// a job that failed its checks, or [`EngineError::Stopped`] if its lane
    /// group panicked.
    pub fn wait(self) -> Result<SecretNat, EngineError> {
        self.answer.recv().unwrap_or(Err(EngineError::Stopped))
    }
}

/// A job waiting in the dispatcher, with where its answer goes.
struct Pending {
    job: StreamJob,
    reply: Sender<Result<SecretNat, EngineError>>,
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
    /// A job that fails the engine's checks (base not below the
    /// modulus, exponent longer than `exp_bits`) is answered at once.
    pub fn submit(&self, job: StreamJob) -> Ticket {
        let (reply, answer) = mpsc::channel();
        if let Err(e) = job.check() {
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

/// The jobs of one (route, secret exponents or not) waiting for a group.
struct Queue {
    route: Route,
    secret: bool,
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
                self.launch(jobs);
                jobs = rest;
            }
        }
        self.running.wait_idle();
    }

    /// Queue a job; start its group when it is full.
    fn add(&mut self, p: Pending) {
        let route = match self.engine.route(&p.job.modulus) {
            Ok(route) => route,
            Err(e) => {
                let _ = p.reply.send(Err(e));
                return;
            }
        };
        let secret = p.job.is_secret();
        let at = match self.queues.iter().position(|q| q.route == route && q.secret == secret) {
            Some(at) => at,
            None => {
                self.queues.push(Queue {
                    route,
                    secret,
                    jobs: Vec::with_capacity(self.engine.lanes()),
                });
                self.queues.len() - 1
            }
        };
        self.queues[at].jobs.push(p);
        if self.queues[at].jobs.len() >= self.engine.lanes() {
            let q = self.queues.swap_remove(at);
            self.launch(q.jobs);
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
            self.launch(q.jobs);
        }
    }

    /// Run one lane group (one route, all exponents secret or all public,
    /// at most `lanes` checked jobs) on the pool and send each answer to
    /// its ticket.
    fn launch(&self, group: Vec<Pending>) {
        let engine = self.engine.clone();
        let token = Running::start(&self.running);
        self.pool.spawn(move || {
            let _token = token;
            let answers = catch_unwind(AssertUnwindSafe(|| {
                let secret: Vec<PowJob<'_>> = group
                    .iter()
                    .filter_map(|p| match &p.job.exp {
                        Exponent::Secret { exp, bits } => Some(PowJob {
                            base: &p.job.base,
                            exp,
                            exp_bits: *bits,
                            modulus: &p.job.modulus,
                        }),
                        Exponent::Public(_) => None,
                    })
                    .collect();
                let public: Vec<PublicExpJob<'_>> = group
                    .iter()
                    .filter_map(|p| match &p.job.exp {
                        Exponent::Public(exp) => Some(PublicExpJob {
                            base: &p.job.base,
                            exp,
                            modulus: &p.job.modulus,
                        }),
                        Exponent::Secret { .. } => None,
                    })
                    .collect();
                // A group is all secret or all public (one queue each).
                let mut answers = engine.pow(&secret);
                answers.extend(engine.pow_vartime(&public));
                answers
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
