//! 002 §3.1 Alg. 3.1 with §3.2's pre- and post-computation: right-to-left
//! square-and-multiply, the squaring and the multiplication of a bit sharing
//! one slot of the array (§4.4).

use super::BlumPaar;
use crate::{Big, Circuit, ExpRun, HwError};

/// One slot of the exponentiator (Alg. 3.1 with §3.2's pre- and
/// post-computation).
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// `Z_0 = MONT(X, C)`, `P_0 = MONT(1, C)`.
    Pre,
    /// Exponent bit `i`: `Z_(i+1) = MONT(Z_i, Z_i)`, `P_(i+1) = MONT(P_i, Z_i)` if `e_i = 1`.
    Bit(usize),
    /// `MONT(P_n, 1)`.
    Post,
}

/// The slots for an `n`-bit exponent: n + 2 of them.
fn slots(n: usize) -> impl Iterator<Item = Slot> {
    std::iter::once(Slot::Pre)
        .chain((0..n).map(Slot::Bit))
        .chain(std::iter::once(Slot::Post))
}

impl BlumPaar {
    /// Cycles of an exponentiation with an `exp_bits`-bit exponent, counted
    /// slot by slot as [`Circuit::exponentiate`] runs them (without running
    /// the products).
    pub fn exponentiation_cycles(&self, exp_bits: usize) -> u64 {
        slots(exp_bits).map(|_| self.product_cycles()).sum()
    }

    /// Alg. 3.1 with the pre- and post-computation of §3.2 (see the module
    /// docs); `n + 2` slots for an n-bit exponent. Precondition (checked):
    /// `base < M`. The output of the post-computation (at most M~) is
    /// reduced modulo M by the host.
    pub(super) fn right_to_left(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        if *base >= self.n {
            return Err(HwError::Operand {
                name: "base",
                bound: "n".into(),
            });
        }
        let one = Big::one();
        let (mut z, mut p) = (Big::zero(), Big::zero());
        let (mut cycles, mut products) = (0u64, 0u64);
        for slot in slots(exp.bits()) {
            let (mut out, c) = match slot {
                Slot::Pre => self.slot(self.pre_factor(), &[base, &one], None),
                Slot::Bit(i) if exp.bit(i) => self.slot(&z, &[&z, &p], None),
                Slot::Bit(_) => self.slot(&z, &[&z], None),
                Slot::Post => self.slot(&one, &[&p], None),
            };
            cycles += c;
            products += out.len() as u64;
            match slot {
                Slot::Post => p = out.swap_remove(0),
                _ => {
                    if out.len() == 2 {
                        p = out.swap_remove(1);
                    }
                    z = out.swap_remove(0);
                }
            }
        }
        let value = p.rem(&self.n).unwrap_or_else(Big::zero);
        Ok(ExpRun {
            value,
            cycles,
            products,
        })
    }
}
