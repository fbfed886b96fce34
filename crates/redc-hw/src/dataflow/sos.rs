//! 000 §3.1: Fig. 2's `MonPro` as Fig. 3 (Koç's SOS), Step 1 (`t := a·b`)
//! row by row on the host or the DFE as [`Offload`] says, Steps 2–3 and the
//! final subtraction (Step 4) on the host, every step charged to its cost.

use super::cycles::charge;
use super::engine::{stream, word_product};
use super::model::from_digits;
use super::{Cycles, Dataflow, Offload};
use crate::{Reg, Step};

impl Dataflow {
    /// Fig. 2 Step 4: `u − n` if `u >= n`, else `u`, for `u < 2n` in `s + 1`
    /// digits: a trial subtraction over `s + 1` digit steps (counted in
    /// full whichever way it goes). Post: `< n`, `s` digits.
    pub(super) fn subtract_if_not_less(&self, u: &[u64], counter: &mut u64) -> Vec<u64> {
        let mut borrow = 0u64;
        let mut diff = Vec::with_capacity(u.len());
        for (j, &d) in u.iter().enumerate() {
            let nj = self.n_digits.get(j).copied().unwrap_or(0);
            let (v, b1) = d.overflowing_sub(nj);
            let (v, b2) = v.overflowing_sub(borrow);
            diff.push(v & self.mask);
            borrow = u64::from(b1 || b2);
            charge(counter, self.params.host_add);
        }
        let keep = if borrow == 0 { diff } else { u.to_vec() };
        keep[..self.s].to_vec()
    }

    /// The host's word products `d·x[j]` of one row (the profiled
    /// `mult32x32`, the Fig. 5 decomposition in software): `(low, hi)`
    /// arrays, `host_mul` each.
    fn host_products(&self, x: &[u64], d: u64, clock: &mut Cycles) -> (Vec<u64>, Vec<u64>) {
        charge(&mut clock.host_mul, self.params.host_mul.saturating_mul(x.len() as u64));
        x.iter().map(|&xj| word_product(self.w, xj, d)).unzip()
    }

    /// One row of Fig. 3 on the host with the products' halves `lo`, `hi`
    /// given: for `j` in order `(C, S) := t[i+j] + lo[j] + hi[j]·2^w + C`,
    /// `t[i+j] := S` (Fig. 4), `host_acc` each. Returns `C`.
    fn mac_row(&self, t: &mut [u64], i: usize, lo: &[u64], hi: &[u64], counter: &mut u64) -> u64 {
        let mut c = 0u64;
        for (j, (&l, &h)) in lo.iter().zip(hi).enumerate() {
            let sum = u128::from(t[i + j]) + u128::from(l) + (u128::from(h) << self.w) + u128::from(c);
            t[i + j] = sum as u64 & self.mask;
            c = (sum >> self.w) as u64;
            charge(counter, self.params.host_acc);
        }
        c
    }

    /// The host's carry transfer after a DFE run (Fig. 6): with the run's
    /// `x` (low halves) and `y` (high halves) for row `i`,
    /// `(C, S) := t[i+j] + x[j] + y[j−1] + C` for `j < s` (`C <= 2`), then
    /// `t[i+s] := y[s−1] + C` — `s + 1` digit steps. Returns the digit
    /// stored in `t[i+s]` (Fig. 3 a's `C`; no carry leaves it because
    /// `t < 2^(w(s+i+1))` after row `i`).
    fn carry_transfer(&self, t: &mut [u64], i: usize, x: &[u64], y: &[u64], counter: &mut u64) -> u64 {
        let mut c = 0u64;
        for j in 0..self.s {
            let below = if j == 0 { 0 } else { y[j - 1] };
            let sum = u128::from(t[i + j]) + u128::from(x[j]) + u128::from(below) + u128::from(c);
            t[i + j] = sum as u64 & self.mask;
            c = (sum >> self.w) as u64;
            charge(counter, self.params.host_add);
        }
        let top = (u128::from(y[self.s - 1]) + u128::from(c)) as u64 & self.mask;
        t[i + self.s] = top;
        charge(counter, self.params.host_add);
        top
    }

    /// The word products `a[j]·b[i]` of row `i` of Step 1 for every block,
    /// as `offload` computes them: on the host, in one DFE run per block
    /// (Fig. 6/7: `d1` = the block's `a`, `d2` = `b[i]` constant), or in
    /// one run for all blocks (Fig. 8: `d2` = `b[i]` repeated in the stream).
    fn step1_products(
        &self,
        blocks: &[(Vec<u64>, Vec<u64>)],
        i: usize,
        offload: Offload,
        clock: &mut Cycles,
    ) -> Vec<(Vec<u64>, Vec<u64>)> {
        match offload {
            Offload::Host => blocks.iter().map(|(a, b)| self.host_products(a, b[i], clock)).collect(),
            Offload::PerBlock => blocks
                .iter()
                .map(|(a, b)| stream(&self.params, self.w, a, &vec![b[i]; self.s], &mut clock.engine))
                .collect(),
            Offload::Streamed => {
                let d1: Vec<u64> = blocks.iter().flat_map(|(a, _)| a.iter().copied()).collect();
                let d2: Vec<u64> = blocks
                    .iter()
                    .flat_map(|(_, b)| std::iter::repeat_n(b[i], self.s))
                    .collect();
                let (x, y) = stream(&self.params, self.w, &d1, &d2, &mut clock.engine);
                x.chunks(self.s)
                    .zip(y.chunks(self.s))
                    .map(|(x, y)| (x.to_vec(), y.to_vec()))
                    .collect()
            }
        }
    }

    /// Fig. 2 as Fig. 3 (Koç's SOS) for every block: Step 1 (Fig. 3 a) row
    /// by row as `offload` runs it, then Steps 2–3 (Fig. 3 b) on the host:
    /// `m := t[i]·n'[0] mod 2^w`, `t += m·n·2^(iw)` (`(C, S) :=
    /// t[i+j] + m·n[j] + C`), `ADD(t[i+s], C)` rippling through
    /// `t[i+s..=2s]`; then Step 4. With `trace`, block 0's registers after
    /// each row: iterations `0..s` are Fig. 3 a's rows, `s..2s` Fig. 3 b's.
    ///
    /// Pre: every digit vector has `s` digits, each operand below `n`.
    /// Post: outputs `< n` of `s` digits, `≡ a·b·2^(−sw) (mod n)`.
    pub(super) fn monpro(
        &self,
        blocks: &[(Vec<u64>, Vec<u64>)],
        offload: Offload,
        mut trace: Option<&mut Vec<Step>>,
    ) -> (Vec<Vec<u64>>, Cycles) {
        let s = self.s;
        let mut clock = Cycles::default();
        let mut ts = vec![vec![0u64; 2 * s + 1]; blocks.len()];
        for i in 0..s {
            let rows = self.step1_products(blocks, i, offload, &mut clock);
            for (k, (t, (x, y))) in ts.iter_mut().zip(&rows).enumerate() {
                let c = if offload == Offload::Host {
                    let c = self.mac_row(t, i, x, y, &mut clock.host_mon);
                    t[i + s] = c; // t[i + s] := C
                    charge(&mut clock.host_mon, self.params.host_add);
                    c
                } else {
                    self.carry_transfer(t, i, x, y, &mut clock.host_mon)
                };
                if let (0, Some(v)) = (k, trace.as_deref_mut()) {
                    v.push(self.step(i, t, x, y, c, 0));
                }
            }
        }
        for i in 0..s {
            for (k, t) in ts.iter_mut().enumerate() {
                charge(&mut clock.host_mul, self.params.host_mul);
                let m = word_product(self.w, t[i], self.n0).0;
                let (x, y) = self.host_products(&self.n_digits, m, &mut clock);
                let carry = self.mac_row(t, i, &x, &y, &mut clock.host_mon);
                let mut c = carry;
                for d in &mut t[i + s..] {
                    // ADD(t[i + s], C), rippled to the top digit.
                    let v = u128::from(*d) + u128::from(c);
                    *d = v as u64 & self.mask;
                    c = (v >> self.w) as u64;
                    charge(&mut clock.host_mon, self.params.host_add);
                }
                if let (0, Some(v)) = (k, trace.as_deref_mut()) {
                    v.push(self.step(s + i, t, &x, &y, carry, m));
                }
            }
        }
        let outs = ts
            .iter()
            .map(|t| self.subtract_if_not_less(&t[s..], &mut clock.host_mon))
            .collect();
        (outs, clock)
    }

    /// The registers after one row: `t` (`2s + 1` digits), the row's product
    /// halves `x` and `y` (Fig. 6), the row's carry `C` and the quotient
    /// digit `m` (0 in Fig. 3 a's rows).
    fn step(&self, iteration: usize, t: &[u64], x: &[u64], y: &[u64], c: u64, m: u64) -> Step {
        let w = self.w as usize;
        let reg = |name, digits: &[u64]| Reg {
            name,
            bits: digits.len() * w,
            value: from_digits(digits, self.w),
        };
        Step {
            iteration,
            regs: vec![reg("t", t), reg("x", x), reg("y", y), reg("C", &[c]), reg("m", &[m])],
        }
    }
}
