//! Fault injection into the private operation, for tests only (feature
//! `fault-injection`, off by default: **never enable it in a build that
//! holds real keys** — it records the results the e-check refused).
//!
//! A test arms one fault on its own thread with `arm`: the next private
//! batch started on that thread corrupts one [`Stage`] of one of its
//! operations (by index in the batch), once. Every stage is a place where a
//! glitch, a Rowhammer flip or a bad multiplier could strike in the five
//! steps of `primitive::private`: one CRT half as the engine returned it,
//! Garner's recombination, the blinding factor `r^-1`, and the value the
//! e-check is given (the very value that would be released). The check
//! `m^e = c` must catch each and release nothing; `refused` hands the
//! test the values it refused, to show what a released one would have
//! given away (Boneh, DeMillo and Lipton's attack: a signature wrong modulo
//! one prime factors `n` by one gcd).
//!
//! Without the feature, `strikes` is `false` and every injection point
//! compiles to nothing.

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
    /// The unblinded result, as the e-check receives it (and would release).
    CheckInput,
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
pub fn refused() -> Vec<crate::Num> {
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
