//! Fault injection into the private operation, for tests only (feature
//! `fault-injection`, off by default: **never enable it in a build that
//! holds real keys** — it records the results the e-check refused; a build
//! without debug assertions, such as `--release`, refuses the feature).
//!
//! A test arms one fault on its own thread with `arm`: the next private
//! batch run on that thread corrupts one [`Stage`] of the operation in one
//! slot of the batch (its index among the batch's inputs), once; the fault
//! is disarmed at the end of that batch whether it struck or not. Every
//! stage is a place where a glitch, a Rowhammer flip or a bad multiplier
//! could strike in the five steps of `primitive::private`: one CRT half as
//! the engine returned it (Garner's mode: the FDFM and no-CRT comparison
//! modes have no such halves), Garner's recombination (or those modes'
//! result), the blinding factor `r^-1`, and the value the e-check is given
//! (the very value that would be released), flipped or replaced by a near
//! miss. The check `m^e = c` must catch each and release nothing wrong;
//! `refused` hands the test the values it refused, to show what a released
//! one would have given away (Boneh, DeMillo and Lipton's attack: a
//! signature wrong modulo one prime factors `n` by one gcd).
//!
//! Without the feature, `strikes` is `false` and every injection point
//! compiles to nothing.

#[cfg(all(feature = "fault-injection", not(debug_assertions)))]
compile_error!("the feature fault-injection is for tests only: it is refused in builds without debug assertions");

use crate::{Num, RsaPrivateKey};
use redc::SecretNat;

/// Where a fault strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The first prime's CRT half, as the engine returned it.
    Half,
    /// The result of Garner's recombination (the blinded `c'^d mod n`).
    Garner,
    /// The unblinding factor `r^-1` (chained or freshly inverted).
    Blinding,
    /// The unblinded result, as the e-check receives it (and would release):
    /// its lowest bit flipped.
    CheckInput,
    /// The e-check's input replaced by `(c + 2^64)^d mod n`, whose `e`-th
    /// power differs from `c` in its second digit only: a check that
    /// compared less than all of `c` would let it through.
    NearMiss,
}

#[cfg(feature = "fault-injection")]
mod armed {
    use super::Stage;
    use crate::Num;
    use core::cell::{Cell, RefCell};

    thread_local! {
        pub(super) static ARMED: Cell<Option<(Stage, usize)>> = const { Cell::new(None) };
        pub(super) static REFUSED: RefCell<Vec<Num>> = const { RefCell::new(Vec::new()) };
    }
}

/// Arm one fault on this thread: the next private batch corrupts `stage` of
/// its operation `index` (once).
#[cfg(feature = "fault-injection")]
pub fn arm(stage: Stage, index: usize) {
    armed::ARMED.with(|a| a.set(Some((stage, index))));
}

/// The results the e-check refused on this thread since the last call, as
/// they would have been released (taken: the list is emptied).
#[cfg(feature = "fault-injection")]
pub fn refused() -> Vec<Num> {
    armed::REFUSED.with(|r| r.take())
}

/// Does the armed fault strike `stage` of operation `index` now? (It
/// strikes once, then disarms.)
pub(crate) fn strikes(stage: Stage, index: usize) -> bool {
    #[cfg(feature = "fault-injection")]
    return armed::ARMED.with(|a| {
        let hit = a.get() == Some((stage, index));
        if hit {
            a.set(None);
        }
        hit
    });
    #[cfg(not(feature = "fault-injection"))]
    {
        let _ = (stage, index);
        false
    }
}

/// Disarm this thread's fault (at the end of every private batch).
pub(crate) fn disarm() {
    #[cfg(feature = "fault-injection")]
    armed::ARMED.with(|a| a.set(None));
}

/// Record a result the e-check refused (with the feature only).
pub(crate) fn record_refused(m: &SecretNat) {
    #[cfg(feature = "fault-injection")]
    armed::REFUSED.with(|r| r.borrow_mut().push(m.reveal()));
    #[cfg(not(feature = "fault-injection"))]
    let _ = m;
}

/// `x` with its lowest bit flipped: the corruption of a plain value.
pub(crate) fn flip(x: &SecretNat) -> SecretNat {
    let mut limbs = x.limbs().to_vec();
    if let Some(low) = limbs.first_mut() {
        *low ^= 1;
    }
    SecretNat::from_limbs(limbs)
}

/// `(c + 2^64 mod n)^d mod n` for the key's `d`, in `n`'s digit count: the
/// [`Stage::NearMiss`] replacement (computed with the variable-time
/// reference `modpow`; tests only).
pub(crate) fn near_miss(key: &RsaPrivateKey, c: &SecretNat) -> SecretNat {
    let n = key.public_key().n();
    let shifted = c.reveal().add(&Num::from_digits(vec![0, 1])).rem(n).unwrap_or_default();
    let m = redc::modpow(&shifted, &key.d().reveal(), n, redc::PowOptions::default(), None).unwrap_or_default();
    SecretNat::from_nat(&m, n.digits().len()).unwrap_or_else(|| SecretNat::zero(n.digits().len()))
}
