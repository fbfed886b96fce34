//! Which kernel runs each size class: `T` threads per number (one thread
//! holding the whole number, or a group of `T` sharing its digits), chosen
//! per class and per kind of kernel (secret or public), and how a batch is
//! cut into launches.
//!
//! The default plan ([`DEFAULT`]) is the fastest the sweep measured
//! (`examples/sweep.rs`, run by `crates/redc-cuda/device/run.sh`) on an
//! NVIDIA H200 on 2026-11-28 (`docs/measurements/2026-11-28-gpu-h200.md`):
//! the sweep prints it as a `REDC_CUDA_THREADS` spec. A plan given to
//! [`crate::Gpu::open`] (the CLI's `REDC_CUDA_THREADS`) overrides it.

use crate::{CLASSES as DIGIT_CLASSES, Secrecy};

/// The schedules the kernels implement: threads per number.
pub(crate) const SCHEDULES: [usize; 5] = [1, 4, 8, 16, 32];

/// Threads per block of every launch: a multiple of 32 (a warp) and of
/// every schedule, small enough for several blocks per SM.
pub(crate) const BLOCK_THREADS: usize = 128;

/// Whether a kernel `redc_pow_t{threads}_n{digits}_*` exists.
pub(crate) fn is_valid(threads: usize, digits: usize) -> bool {
    SCHEDULES.contains(&threads) && DIGIT_CLASSES.contains(&digits) && digits.is_multiple_of(threads)
}

/// Every `(threads, digits)` with a kernel.
pub(crate) fn valid_pairs() -> impl Iterator<Item = (usize, usize)> {
    DIGIT_CLASSES.into_iter().flat_map(|n| {
        SCHEDULES
            .into_iter()
            .filter(move |&t| is_valid(t, n))
            .map(move |t| (t, n))
    })
}

/// The kernel's name, `redc_pow_t{T}_n{N}_{s|p}` (`s` for secrets).
pub(crate) fn entry_name(threads: usize, digits: usize, secrecy: Secrecy) -> String {
    let kind = match secrecy {
        Secrecy::Secret => 's',
        Secrecy::Public => 'p',
    };
    format!("redc_pow_t{threads}_n{digits}_{kind}")
}

/// Threads per number for each class of [`DIGIT_CLASSES`] (same order),
/// for the secret kernels and for the public ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    secret: [usize; DIGIT_CLASSES.len()],
    public: [usize; DIGIT_CLASSES.len()],
}

/// The default plan, `(digits, secret T, public T)` per class: the fastest
/// of every schedule in the sweep on an H200 (the spec
/// `16s:1,16p:8,32s:8,32p:32,48s:8,48p:16,64s:4,64p:32,96s:4,96p:32,128s:4,128p:32`).
/// One thread per number spills above 512 bits (a 2048-bit secret kernel
/// keeps 5.5 KB of local memory) and ran 1.3-4x slower there; the public
/// kernels, with few products per number, favour wide groups.
const DEFAULT: [(usize, usize, usize); DIGIT_CLASSES.len()] = [
    (16, 1, 8),
    (32, 8, 32),
    (48, 8, 16),
    (64, 4, 32),
    (96, 4, 32),
    (128, 4, 32),
];

impl Plan {
    /// The default plan ([`DEFAULT`]).
    pub(crate) fn default_plan() -> Plan {
        Plan {
            secret: DEFAULT.map(|(_, s, _)| s),
            public: DEFAULT.map(|(_, _, p)| p),
        }
    }

    /// The default changed by `spec`: either one number `T` (every class
    /// and both kinds of kernel take the largest schedule `<= T` dividing
    /// the class's digit count), or a list of items `N:T` (class `N`, both
    /// kinds), `Ns:T` (its secret kernels) or `Np:T` (its public ones);
    /// what the list does not name keeps the default. Spaces are allowed
    /// around the items.
    pub(crate) fn parse(spec: &str) -> Result<Plan, String> {
        let mut plan = Plan::default_plan();
        let spec = spec.trim();
        if !spec.contains(':') {
            let cap = parse_number(spec)?;
            for (class, n) in DIGIT_CLASSES.into_iter().enumerate() {
                let t = SCHEDULES
                    .into_iter()
                    .filter(|&t| t <= cap && is_valid(t, n))
                    .max()
                    .ok_or_else(|| format!("no schedule of at most {cap} threads (schedules: {SCHEDULES:?})"))?;
                plan.secret[class] = t;
                plan.public[class] = t;
            }
            return Ok(plan);
        }
        for item in spec.split(',') {
            let (class, threads) = item.split_once(':').ok_or_else(|| format!("{item:?} is not N:T"))?;
            let class = class.trim();
            let (digits, kinds) = match class.strip_suffix('s') {
                Some(digits) => (digits, [true, false]),
                None => match class.strip_suffix('p') {
                    Some(digits) => (digits, [false, true]),
                    None => (class, [true, true]),
                },
            };
            let (digits, threads) = (parse_number(digits)?, parse_number(threads)?);
            let index = DIGIT_CLASSES
                .iter()
                .position(|&n| n == digits)
                .ok_or_else(|| format!("{digits} digits is not a class (classes: {DIGIT_CLASSES:?})"))?;
            if !is_valid(threads, digits) {
                return Err(format!(
                    "no kernel runs {digits} digits on {threads} threads per number"
                ));
            }
            if kinds[0] {
                plan.secret[index] = threads;
            }
            if kinds[1] {
                plan.public[index] = threads;
            }
        }
        Ok(plan)
    }

    /// Threads per number for `digits`, a class of [`DIGIT_CLASSES`], and
    /// the kernels of `secrecy`.
    pub(crate) fn threads(&self, digits: usize, secrecy: Secrecy) -> Option<usize> {
        let class = DIGIT_CLASSES.iter().position(|&n| n == digits)?;
        Some(match secrecy {
            Secrecy::Secret => self.secret[class],
            Secrecy::Public => self.public[class],
        })
    }

    /// Every `(threads, digits)` the plan uses, each once.
    pub(crate) fn entries(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for pair in self
            .secret
            .into_iter()
            .chain(self.public)
            .zip(DIGIT_CLASSES.into_iter().cycle())
        {
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
        out
    }

    /// The plan as a spec [`Plan::parse`] reads back: `Ns:T,Np:T` per class.
    pub(crate) fn spec(&self) -> String {
        DIGIT_CLASSES
            .iter()
            .zip(self.secret.iter().zip(&self.public))
            .map(|(n, (s, p))| format!("{n}s:{s},{n}p:{p}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn parse_number(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{:?} is not a number", text.trim()))
}

/// Jobs per launch for a batch of `count` jobs when `wave` jobs fill every
/// SM once: the batch cut into `ceil(count / wave)` launches of nearly
/// equal size (at least one job each), so that the last one is not a
/// nearly empty wave. `wave` must be at least 1.
pub(crate) fn chunk_jobs(count: usize, wave: usize) -> usize {
    let launches = count.div_ceil(wave).max(1);
    count.div_ceil(launches).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_valid_for_every_class_and_kind() {
        assert_eq!(DEFAULT.map(|(n, _, _)| n), DIGIT_CLASSES);
        let plan = Plan::default_plan();
        for (t, n) in plan.entries() {
            assert!(is_valid(t, n), "({t}, {n})");
        }
        assert_eq!(plan.threads(17, Secrecy::Secret), None);
        assert_eq!(Plan::parse(&plan.spec()), Ok(plan));
    }

    /// The default is the plan the H200 sweep of 2026-11-28 chose (its
    /// `fastest plan:` line); a new sweep that chooses otherwise changes
    /// this spec and the measurements it cites together.
    #[test]
    fn the_default_is_the_measured_plan() {
        assert_eq!(
            Plan::default_plan(),
            Plan::parse("16s:1,16p:8,32s:8,32p:32,48s:8,48p:16,64s:4,64p:32,96s:4,96p:32,128s:4,128p:32").unwrap()
        );
    }

    #[test]
    fn a_single_number_caps_every_class() {
        let plan = Plan::parse("32").unwrap();
        for secrecy in [Secrecy::Secret, Secrecy::Public] {
            let threads: Vec<_> = DIGIT_CLASSES
                .iter()
                .map(|&n| plan.threads(n, secrecy).unwrap())
                .collect();
            assert_eq!(threads, [16, 32, 16, 32, 32, 32]);
        }
        let plan = Plan::parse(" 4 ").unwrap();
        assert!(plan.entries().iter().all(|&(t, _)| t == 4));
        assert_eq!(Plan::parse("5").unwrap().threads(64, Secrecy::Public), Some(4));
    }

    #[test]
    fn a_list_sets_the_named_classes_and_kinds() {
        let plan = Plan::parse("64:8, 32:1,128s:32, 128p:4").unwrap();
        let default = Plan::default_plan();
        assert_eq!(plan.threads(64, Secrecy::Secret), Some(8));
        assert_eq!(plan.threads(64, Secrecy::Public), Some(8));
        assert_eq!(plan.threads(32, Secrecy::Public), Some(1));
        assert_eq!(plan.threads(128, Secrecy::Secret), Some(32));
        assert_eq!(plan.threads(128, Secrecy::Public), Some(4));
        assert_eq!(plan.threads(96, Secrecy::Secret), default.threads(96, Secrecy::Secret));
        assert!(plan.entries().contains(&(32, 128)) && plan.entries().contains(&(4, 128)));
        assert_eq!(Plan::parse(&plan.spec()), Ok(plan));
    }

    #[test]
    fn bad_specs_say_why() {
        for (spec, why) in [
            ("", "not a number"),
            ("x", "not a number"),
            ("0", "no schedule"),
            ("64:3", "no kernel"),
            ("48:32", "no kernel"),
            ("40:8", "not a class"),
            ("64:8,32", "not N:T"),
            ("64x:8", "not a number"),
            ("64ps:8", "not a number"),
        ] {
            let err = Plan::parse(spec).unwrap_err();
            assert!(err.contains(why), "{spec:?}: {err}");
        }
    }

    #[test]
    fn valid_pairs_are_the_dividing_schedules() {
        let pairs: Vec<_> = valid_pairs().collect();
        assert_eq!(pairs.len(), 4 + 5 + 4 + 5 + 5 + 5);
        assert!(pairs.contains(&(32, 96)) && !pairs.contains(&(32, 48)) && !pairs.contains(&(32, 16)));
        assert!(BLOCK_THREADS.is_multiple_of(32) && SCHEDULES.iter().all(|&t| BLOCK_THREADS.is_multiple_of(t)));
    }

    #[test]
    fn entry_names_follow_the_contract() {
        assert_eq!(entry_name(8, 64, Secrecy::Secret), "redc_pow_t8_n64_s");
        assert_eq!(entry_name(1, 16, Secrecy::Public), "redc_pow_t1_n16_p");
    }

    #[test]
    fn chunks_are_balanced_and_cover_the_batch() {
        assert_eq!(chunk_jobs(1, 1000), 1);
        assert_eq!(chunk_jobs(1000, 1000), 1000);
        assert_eq!(chunk_jobs(1001, 1000), 501);
        assert_eq!(chunk_jobs(2500, 1000), 834);
        for count in [1, 7, 999, 1000, 1001, 12_345] {
            for wave in [1, 3, 1000] {
                let chunk = chunk_jobs(count, wave);
                assert!(chunk >= 1 && chunk <= wave && chunk <= count, "{count} {wave}");
                assert!(count.div_ceil(chunk) <= count.div_ceil(wave), "{count} {wave}");
            }
        }
    }
}
