//! 000 §2.1 Fig. 1: `ModExp`, left to right, with Step 1's `n'[0]` by the
//! host's Newton loop and Steps 2–3's remainders by modular doublings,
//! checked after every exponent bit as §3.2 did.

use super::cycles::charge;
use super::engine::word_product;
use super::model::{from_digits, to_digits};
use super::{Cycles, Dataflow};
use crate::{Big, ExpRun, HwError};

impl Dataflow {
    /// Fig. 1 `ModExp(M, e, n)`, appending to `per_bit` the intermediate
    /// `xm` (Montgomery form, `< n`) after every exponent bit — the per-bit
    /// check of §3.2.
    ///
    /// Step 1 computes `n'[0]`; Steps 2 and 3 form `M·r mod n` and
    /// `r mod n` by `s·w` modular doublings on the host (the profile's
    /// `calcRem`); Steps 4–6 scan the `p = bits(e)` bits of `e` from the top
    /// (Fig. 1 writes `k − 1`, the modulus length; for `e < 2^k` the extra
    /// top zeros only square `r mod n` into itself, and for longer `e` they
    /// would drop bits); Step 7 is `MonPro(xm, 1)`. Every product is
    /// [`Circuit::multiply`](crate::Circuit::multiply)'s schedule. Pre: `base < n`. Post: the value is
    /// `base^e mod n` (< n, no host subtraction needed: `MonPro` subtracts).
    pub fn exponentiate_traced(
        &self,
        base: &Big,
        exp: &Big,
        mut per_bit: Option<&mut Vec<Big>>,
    ) -> Result<ExpRun, HwError> {
        if base >= &self.n {
            return Err(HwError::Operand {
                name: "base",
                bound: "n".into(),
            });
        }
        let mut clock = Cycles::default();
        self.n_prime(&mut clock); // Step 1 (the value is the one `new` stored).
        let mm = self.times_r(to_digits(base, self.w, self.s), &mut clock); // Step 2
        let mut xm = self.times_r(to_digits(&Big::one(), self.w, self.s), &mut clock); // Step 3
        let mut products = 0;
        let mut product = |x: &[u64], y: &[u64], clock: &mut Cycles| {
            products += 1;
            let (mut outs, c) = self.monpro(&[(x.to_vec(), y.to_vec())], self.offload, None);
            *clock += c;
            outs.pop().unwrap_or_default()
        };
        for i in (0..exp.bits()).rev() {
            xm = product(&xm, &xm, &mut clock); // Step 5
            if exp.bit(i) {
                xm = product(&mm, &xm, &mut clock); // Step 6
            }
            if let Some(v) = per_bit.as_deref_mut() {
                v.push(from_digits(&xm, self.w));
            }
        }
        let x = product(&xm, &to_digits(&Big::one(), self.w, self.s), &mut clock); // Step 7
        Ok(ExpRun {
            value: from_digits(&x, self.w),
            cycles: clock.total(&self.params),
            products,
        })
    }

    /// Eq. 6 for the low digit: `n'[0] = −n[0]⁻¹ mod 2^w` by Newton's
    /// `x := x·(2 − n[0]·x)`, exact to 1, 2, 4, ..., `w` bits from `x = 1`
    /// (`log2 w` steps of two host products and a digit step), then a
    /// negation. Charged to `host_rem`.
    pub(super) fn n_prime(&self, clock: &mut Cycles) -> u64 {
        let (p, n0) = (&self.params, self.n_digits[0]);
        let mut x = 1u64;
        for _ in 0..self.w.ilog2() {
            let nx = word_product(self.w, n0, x).0;
            x = word_product(self.w, x, 2u64.wrapping_sub(nx) & self.mask).0;
            charge(
                &mut clock.host_rem,
                p.host_mul.saturating_mul(2).saturating_add(p.host_add),
            );
        }
        charge(&mut clock.host_rem, p.host_add);
        x.wrapping_neg() & self.mask
    }

    /// Fig. 1 Steps 2–3: `x·r mod n` for `x < n`, by `s·w` modular
    /// doublings on the host. Post: `< n`, `s` digits.
    fn times_r(&self, mut x: Vec<u64>, clock: &mut Cycles) -> Vec<u64> {
        for _ in 0..self.s * self.w as usize {
            // (C, S) := x[j] + x[j] + C: 2x in s + 1 digits.
            let mut c = 0u64;
            let mut doubled = Vec::with_capacity(self.s + 1);
            for &d in &x {
                let v = (u128::from(d) << 1) | u128::from(c);
                doubled.push(v as u64 & self.mask);
                c = (v >> self.w) as u64;
                charge(&mut clock.host_rem, self.params.host_add);
            }
            doubled.push(c);
            x = self.subtract_if_not_less(&doubled, &mut clock.host_rem);
        }
        x
    }
}
