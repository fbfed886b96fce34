//! The jobs of the batch engine and the [`Prepared`] modulus they run
//! under: [`PowJob`] (secret exponent, constant time), [`PublicExpJob`]
//! (public exponent, a base of either [`JobBase`]) and [`Job`] (Python's
//! `pow`, any modulus), and the checked form every job takes before it is
//! grouped into lanes (the many independent exponentiations side by side
//! of 000_be478b6750af4540.txt Table 3).

use super::EngineError;
use super::backend::{AnyCtx, Task};
use crate::Num;
use crate::kernel::Consts;
use crate::secret::SecretNat;
use std::sync::Arc;
use zeroize::Zeroizing;

/// An odd modulus `n >= 3` with the constants of every backend of the
/// engine that prepared it, computed once and shared by any number of jobs
/// (an RSA key's `p`, `q` and `n`). Each context belongs to the backend
/// that made it. Preparing runs in constant time in `n`'s value; every
/// value is wiped on drop.
pub struct Prepared {
    pub(super) consts: Arc<Consts>,
    pub(super) size_bits: usize,
    /// Per backend: its name, the class it prepared for, its context.
    pub(super) ctxs: Vec<(&'static str, usize, Box<AnyCtx>)>,
}

impl core::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Prepared")
            .field("bits", &self.size_bits)
            .field(
                "backends",
                &self.ctxs.iter().map(|(name, _, _)| name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl Prepared {
    /// A public bound on the modulus's length in bits: its bit length for
    /// a public modulus, 64 times its digit count for a secret one, or the
    /// tighter public bound given to [`Engine::prepare_consts`](super::Engine::prepare_consts).
    pub fn bits(&self) -> usize {
        self.size_bits
    }

    /// The modulus's digit count (public).
    pub fn len(&self) -> usize {
        self.consts.len()
    }

    /// Always false: a modulus has at least one digit.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The 64-bit kernel constants.
    pub fn consts(&self) -> &Arc<Consts> {
        &self.consts
    }

    /// The context a backend of this name made for `class`.
    pub(super) fn ctx(&self, backend: &str, class: usize) -> Option<&AnyCtx> {
        self.ctxs
            .iter()
            .find(|(name, c, _)| *name == backend && *c == class)
            .map(|(_, _, ctx)| &**ctx)
    }
}

/// One exponentiation with a secret exponent, `base^exp mod n`, run in
/// constant time by [`Engine::pow`](super::Engine::pow).
#[derive(Clone, Copy)]
pub struct PowJob<'a> {
    /// The base, `< n` (any digit count; high digits must be zero).
    pub base: &'a SecretNat,
    /// The exponent, `< 2^exp_bits`.
    pub exp: &'a SecretNat,
    /// A public bound on the exponent's length: the work depends on this
    /// bound, never on the exponent itself.
    pub exp_bits: usize,
    /// The modulus.
    pub modulus: &'a Prepared,
}

/// One exponentiation with a public exponent (RSA's `e`) and a base that
/// may be secret, run by [`Engine::pow_vartime`](super::Engine::pow_vartime).
pub struct PublicExpJob<'a, B: JobBase + ?Sized = SecretNat> {
    /// The base, `< n`.
    pub base: &'a B,
    /// The public exponent.
    pub exp: &'a Num,
    /// The modulus.
    pub modulus: &'a Prepared,
}

impl<B: JobBase + ?Sized> Clone for PublicExpJob<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: JobBase + ?Sized> Copy for PublicExpJob<'_, B> {}

/// What a [`PublicExpJob`]'s base may be: a [`SecretNat`], or a [`Num`] the
/// caller already holds in the open (RSAEP's message, a signature being
/// verified), read in place instead of copied. The engine treats both
/// alike, in constant time in the digits. Sealed: only these two.
pub trait JobBase: sealed::Sealed + Sync {
    /// The little-endian 64-bit digits.
    fn base_digits(&self) -> &[u64];
}

impl JobBase for SecretNat {
    fn base_digits(&self) -> &[u64] {
        self.limbs()
    }
}

impl JobBase for Num {
    fn base_digits(&self) -> &[u64] {
        self.digits()
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::SecretNat {}
    impl Sealed for super::Num {}
}

impl core::fmt::Debug for PowJob<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PowJob")
            .field("modulus_bits", &self.modulus.bits())
            .field("exp_bits", &self.exp_bits)
            .finish_non_exhaustive()
    }
}

impl<B: JobBase + ?Sized> core::fmt::Debug for PublicExpJob<'_, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PublicExpJob")
            .field("modulus_bits", &self.modulus.bits())
            .field("exp", &self.exp)
            .finish_non_exhaustive()
    }
}

/// One general job for [`Engine::modexp_batch`](super::Engine::modexp_batch): any base, exponent and
/// modulus (`n >= 1`, even allowed), as Python's `pow(base, exp, n)`.
#[derive(Clone, PartialEq, Eq)]
pub struct Job {
    /// The base (any size).
    pub base: Num,
    /// The exponent, treated as a secret of its own length.
    pub exp: Num,
    /// The modulus.
    pub modulus: Num,
}

impl core::fmt::Debug for Job {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Job")
            .field("modulus_bits", &self.modulus.bits())
            .field("exp_bits", &self.exp.bits())
            .finish_non_exhaustive()
    }
}

/// A checked job: the base in exactly the modulus's digit count.
pub(super) struct Input<'a> {
    pub(super) modulus: &'a Prepared,
    /// The base's digits when it has exactly the modulus's digit count.
    base: &'a [u64],
    /// Else a copy padded (or cut, past zero digits) to it.
    padded: Option<Zeroizing<Vec<u64>>>,
    exp: &'a [u64],
    exp_bits: usize,
}

impl<'a> Input<'a> {
    /// A secret job, checked: `base < n` by one borrow chain, `exp` below
    /// `2^exp_bits` by one OR over its digits (only a failure is revealed,
    /// with the exponent's length in the error).
    pub(super) fn secret(job: &PowJob<'a>) -> Result<Input<'a>, EngineError> {
        if !crate::secret::declassify(job.exp.ct_below_pow2(job.exp_bits)) {
            // Only a failed job's length is read (from the digits, no copy).
            return Err(EngineError::ExponentTooLong {
                bits: crate::nat::limbs::bits(job.exp.limbs()),
                bound: job.exp_bits,
            });
        }
        Self::new(job.modulus, job.base.limbs(), job.exp.limbs(), job.exp_bits)
    }

    /// A public-exponent job, checked: `base < n`.
    pub(super) fn public<B: JobBase + ?Sized>(job: &PublicExpJob<'a, B>) -> Result<Input<'a>, EngineError> {
        Self::new(job.modulus, job.base.base_digits(), job.exp.digits(), job.exp.bits())
    }

    fn new(modulus: &'a Prepared, base: &'a [u64], exp: &'a [u64], exp_bits: usize) -> Result<Input<'a>, EngineError> {
        let n = modulus.consts.n();
        // base < n: one borrow chain over the longer length, no early exit.
        if !crate::secret::declassify(subtle::Choice::from(crate::nat::limbs::ct_lt(base, n) as u8)) {
            return Err(EngineError::BaseTooLarge);
        }
        let padded = (base.len() != n.len()).then(|| {
            let mut d = Zeroizing::new(vec![0u64; n.len()]);
            for (d, &v) in d.iter_mut().zip(base) {
                *d = v;
            }
            d
        });
        Ok(Input {
            modulus,
            base,
            padded,
            exp,
            exp_bits,
        })
    }

    /// The task for `backend` in `class`, if the modulus holds its context.
    pub(super) fn task(&self, backend: &str, class: usize) -> Option<Task<'_, AnyCtx>> {
        Some(Task {
            ctx: self.modulus.ctx(backend, class)?,
            modulus: &self.modulus.consts,
            base: self.padded.as_deref().map_or(self.base, |d| d.as_slice()),
            exp: self.exp,
            exp_bits: self.exp_bits,
        })
    }
}
