//! 003 §IV Alg. III: the RSA processor, right-to-left square-and-multiply
//! with the squaring and the multiplication of a bit on two multipliers at
//! once, every operand in carry-save form.

use super::{CarrySave, Pair};
use crate::{Big, Circuit, ExpRun, HwError};

/// One product time of Alg. III's schedule (§IV): the products in it run at
/// once on the processor's two multipliers.
#[derive(Debug, Clone, Copy)]
pub(super) enum Slot {
    /// `P[0] = MontMult(K, C)`.
    EnterP,
    /// `R[0] = MontMult(K, 1)`.
    EnterR,
    /// One loop iteration: `P[i+1] = MontMult(P[i], P[i])` and, when
    /// `d[i] = 1`, `R[i+1] = MontMult(R[i], P[i])` beside it.
    Bit(bool),
    /// `M = MontMult(1, R[k])`.
    Leave,
}

impl Slot {
    /// Montgomery products in this product time.
    pub(super) fn products(self) -> u64 {
        match self {
            Slot::Bit(true) => 2,
            _ => 1,
        }
    }
}

/// Alg. III's product times for exponent `d`, in order: `P[0]`, then `R[0]`
/// (the listing computes them one after the other), one iteration per bit
/// of d (i = 0..t−1 for a t-bit d, as 002 Alg. 3.1), and the conversion back.
pub(super) fn alg3_slots(d: &Big) -> impl Iterator<Item = Slot> + '_ {
    [Slot::EnterP, Slot::EnterR]
        .into_iter()
        .chain((0..d.bits()).map(|i| Slot::Bit(d.bit(i))))
        .chain([Slot::Leave])
}

impl CarrySave {
    /// Alg. III (§IV): K = R² mod n = 2^(2r) mod n from the host (the paper's
    /// 2^(2k) belongs to its printed k-iteration product), P and R kept in
    /// carry-save form, squaring and multiplication of one iteration in
    /// parallel, cycles summed per product time. The final MontMult(1, R)
    /// leaves M1 + M2 ≤ n (equal to n only when the result is 0 mod n): the
    /// model adds the pair and subtracts n in that case, the host's part.
    ///
    /// Precondition: `base` below n (else [`HwError::Operand`]).
    pub(super) fn rsa_processor(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        if base >= &self.n {
            return Err(HwError::Operand {
                name: "base",
                bound: "n".into(),
            });
        }
        let k_const = Pair::binary(crate::pow2_mod(2 * self.r_log2(), &self.n));
        let one = Pair::binary(Big::one());
        let (mut p, mut r) = (Pair::default(), Pair::default());
        let (mut cycles, mut products) = (0, 0);
        for slot in alg3_slots(exp) {
            let mut mont_mult = |x: &Pair, y: &Pair| {
                products += 1;
                self.run(x, y, None)
            };
            let slot_cycles = match slot {
                Slot::EnterP => {
                    let run = mont_mult(&k_const, &Pair::binary(base.clone()));
                    p = run.value;
                    run.cycles
                }
                Slot::EnterR => {
                    let run = mont_mult(&k_const, &one);
                    r = run.value;
                    run.cycles
                }
                Slot::Bit(d) => {
                    let square = mont_mult(&p, &p);
                    let mut c = square.cycles;
                    if d {
                        let run = mont_mult(&r, &p);
                        r = run.value;
                        c = c.max(run.cycles);
                    }
                    p = square.value;
                    c
                }
                Slot::Leave => {
                    let run = mont_mult(&one, &r);
                    r = run.value;
                    run.cycles
                }
            };
            cycles += slot_cycles;
        }
        let m = r.value();
        let value = m.checked_sub(&self.n).unwrap_or(m);
        Ok(ExpRun {
            value,
            cycles,
            products,
        })
    }
}
