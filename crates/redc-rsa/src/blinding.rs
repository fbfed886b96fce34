//! A private key's blinding chain: a pair `(r^e, r^-1) mod n` kept with the
//! key and renewed by squaring on each use, so that most private operations
//! need neither `r^e` nor an inversion (the base blinding of Kocher's timing
//! attack paper, §10, in the form OpenSSL's `BN_BLINDING` keeps per key).
//!
//! A fresh pair comes from a private batch that drew its own `r` (see
//! `primitive/private.rs`): once it has been used there, [`Blinding::renew`]
//! keeps it. [`Blinding::take`] hands out the current pair and squares it
//! for the next use (`(r^2)^e = (r^e)^2`, `(r^2)^-1 = (r^-1)^2`); after
//! [`USES`] uses the chain is spent and the next batch draws afresh. A
//! detected fault drops the chain ([`Blinding::clear`]).
//!
//! Safe to share between threads: one lock around the chain, held for the
//! squarings only (three Montgomery products per pair). A clone of the key
//! starts with no chain of its own.

use crate::role::N;
use redc::{Domain, Residue};
use std::sync::{Mutex, PoisonError};

/// How many operations one drawn `r` blinds (as OpenSSL's
/// `BN_BLINDING_COUNTER`): the first in the batch that drew it, then
/// `USES - 1` squarings.
pub(crate) const USES: u32 = 32;

/// One blinding pair, every value modulo `n` in Montgomery form.
#[derive(Clone)]
pub(crate) struct Pair {
    /// `r`, a unit modulo `n`.
    pub(crate) r: Residue<N>,
    /// `r^e`, which blinds the input: `c' = c·r^e`.
    pub(crate) r_e: Residue<N>,
    /// `r^-1`, which unblinds the result: `m = (c')^d·r^-1`.
    pub(crate) r_inv: Residue<N>,
}

impl Pair {
    /// The next pair of the chain: every value squared.
    fn squared(&self, n: &Domain<N>) -> Self {
        Self {
            r: n.sqr(&self.r),
            r_e: n.sqr(&self.r_e),
            r_inv: n.sqr(&self.r_inv),
        }
    }
}

/// The chain: the pair for the next use, and how many uses it has left.
struct Chain {
    next: Pair,
    left: u32,
}

/// A key's blinding chain (empty until a private batch renews it).
#[derive(Default)]
pub(crate) struct Blinding(Mutex<Option<Chain>>);

impl Clone for Blinding {
    /// An empty chain: two keys never share blinding factors.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl Blinding {
    /// Up to `count` pairs, each the square of the one before, for as many
    /// uses as the chain has left (none when it is empty or spent).
    pub(crate) fn take(&self, n: &Domain<N>, count: usize) -> Vec<Pair> {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let mut pairs = Vec::new();
        while pairs.len() < count {
            let Some(chain) = slot.as_mut().filter(|c| c.left > 0) else {
                break;
            };
            let next = chain.next.squared(n);
            pairs.push(core::mem::replace(&mut chain.next, next));
            chain.left -= 1;
        }
        if slot.as_ref().is_some_and(|c| c.left == 0) {
            *slot = None;
        }
        pairs
    }

    /// Keep `used`, a freshly drawn pair that has blinded one operation,
    /// unless the chain still has uses left: its square serves the next
    /// `USES - 1` operations.
    pub(crate) fn renew(&self, n: &Domain<N>, used: &Pair) {
        let mut slot = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(Chain {
                next: used.squared(n),
                left: USES - 1,
            });
        }
    }

    /// Drop the chain (after a detected fault, which may lie in it).
    pub(crate) fn clear(&self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}
