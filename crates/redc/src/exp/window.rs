//! Fixed-window (2^k-ary) exponentiation with constant-time table selection
//! — redc's default schedule for secret exponents — on the teaching
//! [`Multiplier`]: the kernel layer's driver ([`crate::kernel::window`])
//! with a trace row per window.
//!
//! ```text
//! table[v] = X^v for v = 0 .. 2^k - 1
//! x = table[top window]
//! for each lower k-bit window d of e:
//!     x = x^(2^k)                 (k squarings)
//!     x = x·table[d]              (always, also for d = 0)
//! ```
//!
//! Constant-time in the exponent: the number of windows depends only on the
//! public bound `exp_bits`, every window does `k` squarings and one
//! multiplication, and `table[d]` is read by scanning the whole table and
//! keeping entry `d` with a mask — no branch and no memory index depends on
//! `d` (the defence against cache-timing attacks on the table).

use super::trace::{Trace, note};
use crate::kernel::{Observer, Step, window};
use crate::mont::{Meter, MontElem, Multiplier};
use crate::nat::{Nat, limbs};
use crate::word::Word;

/// `base^exp` in Montgomery form with `k`-bit windows (`1 <= k <= 8`).
///
/// Pre: `base` belongs to `mm`'s modulus. `exp_bits` is a public bound:
/// the work is the same for every exponent below `2^exp_bits`; a longer
/// (public, teaching) exponent extends the windows to its own length.
/// Post: the result is `< n`; `exp = 0` gives 1. One trace row per window,
/// labelled with the window's lowest bit. Secrets go to
/// [`crate::Domain::pow`] and [`crate::Engine::pow`], whose bounds are strict.
pub fn pow<W: Word, M: Meter>(
    mm: &mut Multiplier<'_, W, M>,
    base: &MontElem<W>,
    exp: &Nat<W>,
    exp_bits: usize,
    k: u32,
    trace: Option<&mut Trace<W>>,
) -> MontElem<W> {
    let k = k.clamp(1, 8);
    let exp_bits = exp_bits.max(exp.bits());
    let digit = |w: usize| limbs::window(exp.digits(), w * k as usize, k as usize);
    let mut rows = Rows {
        trace,
        exp,
        window_op: "square^k, multiply",
    };
    window::pow(mm, base, k, exp_bits.div_ceil(k as usize), digit, &mut rows)
}

/// A trace row per step of a kernel driver, labelled as the teaching
/// schedules label them (shared with [`super::sliding`]).
pub(super) struct Rows<'t, 'e, W: Word> {
    pub(super) trace: Option<&'t mut Trace<W>>,
    pub(super) exp: &'e Nat<W>,
    /// The label of a [`Step::Window`] row.
    pub(super) window_op: &'static str,
}

impl<W: Word, M: Meter> Observer<Multiplier<'_, W, M>> for Rows<'_, '_, W> {
    fn step(&mut self, mm: &Multiplier<'_, W, M>, step: Step, x: &MontElem<W>) {
        let (bit, digit, op) = match step {
            Step::Init => (None, 0, "init"),
            Step::Square { bit } => (Some(bit), 0, "square"),
            Step::Window { lo, len } => (
                Some(lo),
                limbs::window(self.exp.digits(), lo, len as usize),
                self.window_op,
            ),
        };
        note(&mut self.trace, mm, bit, digit, op, &[("x", x)]);
    }
}
