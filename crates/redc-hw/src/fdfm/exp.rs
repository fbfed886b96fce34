//! 001 §3, Alg. 2: left-to-right exponentiation on Alg. 3 products, run on
//! the datapath or counted without data, the engine the CRT schedule shares.

use super::datapath::{Modulus, Traces, alg3, walk};
use crate::Big;

/// Cycles of one exponentiation by Alg. 2 with a `d`-digit modulus and an
/// exponent of `exp_bits` one bits (the worst case), by counting.
pub fn exp_worst_case(d: usize, exp_bits: usize) -> u64 {
    let mut counter = Counter::default();
    alg2(&mut counter, &d, &(), &(), &all_ones(exp_bits));
    counter.tally.cycles
}

/// `2^bits − 1`: an exponent of `bits` one bits, Alg. 2's worst case.
pub(super) fn all_ones(bits: usize) -> Big {
    Big::pow2(bits).checked_sub(&Big::one()).unwrap_or_default()
}

/// Cycles and products so far.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub(super) cycles: u64,
    pub(super) products: u64,
}

/// What the exponentiation and CRT schedules run their products on: the
/// datapath ([`Runner`]) or the counting rule alone ([`Counter`]).
pub(super) trait Engine {
    /// A modulus as the engine knows it.
    type Mod;
    /// A block-RAM operand.
    type Val;
    /// The modulus' digits: the inner loop's d.
    fn digits(m: &Self::Mod) -> usize;
    /// The operand 1.
    fn one(&self) -> Self::Val;
    /// One Alg. 3 product with Y taken as `y_digits` digits.
    fn mm(&mut self, x: &Self::Val, y: &Self::Val, m: &Self::Mod, y_digits: usize) -> Self::Val;
    /// Cycles and products so far.
    fn tally(&self) -> &Tally;
}

/// Runs every product on the datapath.
#[derive(Default)]
pub(super) struct Runner {
    pub(super) tally: Tally,
}

impl Engine for Runner {
    type Mod = Modulus;
    type Val = Big;

    fn digits(m: &Modulus) -> usize {
        m.d
    }

    fn one(&self) -> Big {
        Big::one()
    }

    fn mm(&mut self, x: &Big, y: &Big, m: &Modulus, y_digits: usize) -> Big {
        let (value, counts) = alg3(x, y, m, y_digits, Traces::default());
        self.tally.cycles += counts.clk;
        self.tally.products += 1;
        value
    }

    fn tally(&self) -> &Tally {
        &self.tally
    }
}

/// Walks every product's schedule without data: moduli are digit counts.
/// Each shape's walk is kept, so a long exponentiation walks it once.
#[derive(Default)]
pub(super) struct Counter {
    tally: Tally,
    /// `((inner, outer), cycles)` of the shapes walked so far.
    walked: Vec<((usize, usize), u64)>,
}

impl Engine for Counter {
    type Mod = usize;
    type Val = ();

    fn digits(m: &usize) -> usize {
        *m
    }

    fn one(&self) {}

    fn mm(&mut self, _x: &(), _y: &(), m: &usize, y_digits: usize) {
        let shape = (*m, y_digits);
        let cycles = match self.walked.iter().find(|(s, _)| *s == shape) {
            Some(&(_, c)) => c,
            None => {
                let c = walk(shape.0, shape.1, &mut ()).clk;
                self.walked.push((shape, c));
                c
            }
        };
        self.tally.cycles += cycles;
        self.tally.products += 1;
    }

    fn tally(&self) -> &Tally {
        &self.tally
    }
}

/// Alg. 2: `P^E` in Montgomery form and out again, with `r2 = 2^(34d) mod M`.
///
/// Pre: `p` below 2M. Post: the result is `P^E mod M` or, when that is 0,
/// possibly M itself (the last product by 1 lands in `[0, M]`); the engine
/// has run `3 + |E| + popcount(E)` products of d × d digits.
pub(super) fn alg2<E: Engine>(e: &mut E, m: &E::Mod, r2: &E::Val, p: &E::Val, exp: &Big) -> E::Val {
    let d = E::digits(m);
    let one = e.one();
    // Line 1: C = (2^(2dr) mod M)·1·2^(−dr) mod M.
    let mut c = e.mm(r2, &one, m, d);
    // Line 2: P = (2^(2dr) mod M)·P·2^(−dr) mod M.
    let p = e.mm(r2, p, m, d);
    // Lines 3–6.
    for i in (0..exp.bits()).rev() {
        c = e.mm(&c, &c, m, d);
        if exp.bit(i) {
            c = e.mm(&c, &p, m, d);
        }
    }
    // Line 7: C = C·1·2^(−dr) mod M.
    e.mm(&c, &one, m, d)
}
