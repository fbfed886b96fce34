//! Fault injection into redc-rsa's and redc-ffc's private operations, for
//! tests only (feature `fault-injection`, off by default: **never enable
//! it in a build that holds real keys** — it records the results the
//! checks refused and can switch the checks off).
//! A build without debug assertions (`--release`) refuses the feature unless
//! the environment variable `REDC_FAULT_TESTS` is set when it is compiled:
//! the fault tests run in release builds too, on purpose and by name.
//!
//! A test arms one fault on its own thread with `arm`: the next private
//! batch run on that thread corrupts one [`Stage`] of the operation in one
//! slot of the batch (its index among the batch's inputs), once; the fault
//! is disarmed at the end of that batch whether it struck or not. Every
//! stage is a place where a glitch, a Rowhammer flip or a bad multiplier
//! could strike:
//!
//! - in the five steps of redc-rsa's `primitive::private`: one CRT half as the engine
//!   returned it (Garner's mode: the FDFM and no-CRT comparison modes have
//!   no such halves), Garner's recombination (or those modes' result), the
//!   blinding factor `r^-1`, and the value the e-check is given (the very
//!   value that would be released), flipped or replaced by a near miss
//!   (redc-rsa's `fault::near_miss`). The check `m^e = c` must catch each
//!   and release nothing wrong; `refused`
//!   hands the test the values it refused, to show what a released one
//!   would have given away (Boneh, DeMillo and Lipton's attack: a signature
//!   wrong modulo one prime factors `n` by one gcd);
//! - before it: a signature's encoded message (PSS or PKCS#1 v1.5), which
//!   the e-check cannot see (it checks against the input it was given); the
//!   schemes check the representative against the digest afterwards;
//! - in redc-ffc's DSA signing (`g^k`, the nonce, `s`) and Diffie-Hellman
//!   derivation (the checked peer value, the shared secret): see that
//!   crate's `dsa::sign` and `dh`.
//!
//! `skip_checks` switches this thread's checks off (the e-check, the
//! encoding check, DSA's check before release and DH's peer re-check), so
//! that a test can show that its faults are caught by the check and by
//! nothing else: with the checks off, the fault tests must fail.
//!
//! Without the feature, `strikes` and `checks_skipped` are `false` and every
//! injection point compiles to nothing.

#[cfg(feature = "fault-injection")]
const _: () = assert!(
    cfg!(debug_assertions) || option_env!("REDC_FAULT_TESTS").is_some(),
    "the feature fault-injection is for tests only: a build without debug assertions refuses it unless REDC_FAULT_TESTS is set"
);

use redc::{Num, SecretNat};

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
    /// A signature's encoded message (EMSA-PSS or EMSA-PKCS1-v1_5, as an
    /// integer) as the private operation receives it: its lowest bit
    /// flipped.
    Encoding,
    /// DSA: `g^k mod p` as the engine returned it (what `r` is made of).
    DsaPower,
    /// DSA: the nonce `k` as drawn, flipped before `g^k` and `s` use it.
    DsaNonce,
    /// DSA: `s` as computed.
    DsaS,
    /// Diffie-Hellman: the peer's value as the exponentiation receives it,
    /// after its check.
    DhBase,
    /// Diffie-Hellman: the shared secret as the engine returned it.
    DhResult,
}

#[cfg(feature = "fault-injection")]
mod armed {
    use super::Stage;
    use core::cell::{Cell, RefCell};
    use redc::Num;

    thread_local! {
        pub(super) static ARMED: Cell<Option<(Stage, usize)>> = const { Cell::new(None) };
        pub(super) static REFUSED: RefCell<Vec<Num>> = const { RefCell::new(Vec::new()) };
        pub(super) static SKIP: Cell<bool> = const { Cell::new(false) };
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

/// Switch this thread's checks off (`true`) or on again: what the checks
/// refuse is released instead, to show that the fault tests fail without
/// them.
#[cfg(feature = "fault-injection")]
pub fn skip_checks(skip: bool) {
    armed::SKIP.with(|s| s.set(skip));
}

/// Whether this thread's checks are switched off (never, without the
/// feature). Read on the thread that runs the batch.
#[doc(hidden)]
pub fn checks_skipped() -> bool {
    #[cfg(feature = "fault-injection")]
    return armed::SKIP.with(core::cell::Cell::get);
    #[cfg(not(feature = "fault-injection"))]
    false
}

/// Does the armed fault strike `stage` of operation `index` now? (It
/// strikes once, then disarms.) For redc-rsa's and redc-ffc's injection
/// points.
#[doc(hidden)]
pub fn strikes(stage: Stage, index: usize) -> bool {
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
#[doc(hidden)]
pub fn disarm() {
    #[cfg(feature = "fault-injection")]
    armed::ARMED.with(|a| a.set(None));
}

/// Record a result a check refused (with the feature only).
#[doc(hidden)]
pub fn record_refused(m: &SecretNat) {
    #[cfg(feature = "fault-injection")]
    armed::REFUSED.with(|r| r.borrow_mut().push(m.reveal()));
    #[cfg(not(feature = "fault-injection"))]
    let _ = m;
}

/// `x` with its lowest bit flipped: the corruption of a plain value.
#[doc(hidden)]
pub fn flip(x: &SecretNat) -> SecretNat {
    let mut limbs = x.limbs().to_vec();
    if let Some(low) = limbs.first_mut() {
        *low ^= 1;
    }
    SecretNat::from_limbs(limbs)
}

/// `x` with its lowest bit flipped: the corruption of a public value.
#[doc(hidden)]
pub fn flip_public(x: &Num) -> Num {
    let mut digits = x.digits().to_vec();
    match digits.first_mut() {
        Some(low) => *low ^= 1,
        None => digits.push(1),
    }
    Num::from_digits(digits)
}
