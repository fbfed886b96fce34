//! 001 §5.1, Alg. 3: the FDFM core's radix-2^17 digit-serial Montgomery
//! product, register by register (the carries `Ca`, `Cb` of the 17-bit MACC,
//! `Cg`, `Cs` of the 17-bit adder, one quotient digit per outer iteration,
//! no final subtraction), and its schedule counted step by step (§5.1.2,
//! Eq. 7–9).

use redc::kernel::consts::neg_inv;

use super::DIGIT_BITS;
use crate::{Big, Reg, Step};

/// The low 17 bits: one digit.
const MASK: u64 = (1 << DIGIT_BITS) - 1;
/// Cycles for one quotient digit q (§5.1.1: "the number of clock cycles
/// necessary to compute q is 6").
const Q_CYCLES: u64 = 6;
/// Cycles per inner step: the multiplier takes `X_j·Y_i + Ca`, then
/// `q·M_j + Cb` (§5.1.1, alternate inputs).
const STEP_CYCLES: u64 = 2;
/// Pipeline cycles that end a product (Eq. 8's "+ 4").
const FLUSH_CYCLES: u64 = 4;

/// What Alg. 3's schedule costs, counted step by step (§5.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MmCounts {
    /// Clock cycles, `MM_clk` (Eq. 8, Eq. 9).
    pub clk: u64,
    /// Digit products the method needs, `MM_mul` (Eq. 7 after ref. \[5\]):
    /// `X_j·Y_i` and `q·M_j` for `j < d`, and one for each q.
    pub mul: u64,
    /// Every product the DSP slice issues: both products of every inner
    /// step (the zero digits `X_d`, `M_d` included) and the two that form
    /// each q.
    pub dsp: u64,
}

/// Counts of one Alg. 3 product with X (and the modulus) of `x_digits`
/// digits and Y of `y_digits` digits, by walking its schedule without data:
/// the same walk [`Circuit::multiply`](crate::Circuit::multiply) runs.
pub fn mm_counts(x_digits: usize, y_digits: usize) -> MmCounts {
    walk(x_digits, y_digits, &mut ())
}

/// A modulus as the core holds it: `d` digits in block RAM plus the zero
/// digit `M_d`, the 17-bit constant `−M^(−1) mod 2^17` and the host's
/// Montgomery constant `2^(34d) mod M` (Alg. 2's `2^(2dr) mod M`).
pub(super) struct Modulus {
    pub(super) value: Big,
    pub(super) d: usize,
    pub(super) digits: Vec<u32>,
    pub(super) minv: u32,
    pub(super) r2: Big,
}

impl Modulus {
    /// Precondition: `n` odd.
    pub(super) fn new(n: &Big, d: usize) -> Self {
        // −M^(−1) mod 2^17 fits the 17-bit digit: the truncation keeps every bit.
        let minv = neg_inv(u64::from(split(n, 1)[0]), DIGIT_BITS) as u32;
        let r2 = crate::pow2_mod(2 * DIGIT_BITS as usize * d, n);
        Self {
            value: n.clone(),
            d,
            digits: split(n, d + 1),
            minv,
            r2,
        }
    }
}

/// The 17-bit digits `x_0 .. x_(len−1)` of `x` (higher digits ignored).
fn split(x: &Big, len: usize) -> Vec<u32> {
    let words = x.digits();
    let word = |k: usize| u128::from(words.get(k).copied().unwrap_or(0));
    (0..len)
        .map(|k| {
            let bit = k * DIGIT_BITS as usize;
            let pair = word(bit / 64) | (word(bit / 64 + 1) << 64);
            ((pair >> (bit % 64)) as u64 & MASK) as u32
        })
        .collect()
}

/// The number with 17-bit digits `digits`.
fn join(digits: &[u32]) -> Big {
    let mut words = vec![0u64; (digits.len() * DIGIT_BITS as usize).div_ceil(64) + 1];
    for (k, &v) in digits.iter().enumerate() {
        let bit = k * DIGIT_BITS as usize;
        let pair = u128::from(v) << (bit % 64);
        words[bit / 64] |= pair as u64;
        words[bit / 64 + 1] |= (pair >> 64) as u64;
    }
    Big::from_digits(words)
}

/// The datapath Alg. 3's schedule drives; `()` is the schedule without data.
pub(super) trait Datapath {
    /// Line 3–4: q and the carries for outer iteration `i`.
    fn quotient(&mut self, _i: usize) {}
    /// Lines 6–9 for inner step `j` of outer iteration `i`.
    fn digit(&mut self, _i: usize, _j: usize) {}
    /// The end of outer iteration `i` (line 10).
    fn end(&mut self, _i: usize) {}
}

impl Datapath for () {}

/// Alg. 3's loops with `inner + 1` inner steps (X, M of `inner` digits plus
/// the zero digits X_d, M_d) and `outer` outer iterations (the digits of Y),
/// counting cycles, needed products and DSP issues as the schedule goes.
pub(super) fn walk(inner: usize, outer: usize, dp: &mut impl Datapath) -> MmCounts {
    let mut c = MmCounts::default();
    for i in 0..outer {
        dp.quotient(i);
        c.clk += Q_CYCLES;
        c.mul += 1;
        c.dsp += 2;
        for j in 0..=inner {
            dp.digit(i, j);
            c.clk += STEP_CYCLES;
            c.dsp += 2;
            if j < inner {
                c.mul += 2;
            }
        }
        dp.end(i);
    }
    c.clk += FLUSH_CYCLES;
    c
}

/// Alg. 3's registers and block-RAM words, computed digit by digit.
struct Alg3<'a> {
    /// X_0 .. X_d (X_d = 0).
    x: Vec<u32>,
    /// Y_0 .. Y_(outer−1).
    y: Vec<u32>,
    /// M_0 .. M_d (M_d = 0).
    m: &'a [u32],
    /// −M^(−1) mod 2^17.
    minv: u32,
    /// S_(i,0) .. S_(i,d) in block RAM (S_(i,d) = 0); step j reads S_(i,j)
    /// and writes S_(i+1,j−1) into the word it read at step j − 1.
    s: Vec<u32>,
    q: u32,
    ca: u64,
    cb: u64,
    cg: u64,
    cs: u64,
    trace: Option<&'a mut Vec<Step>>,
}

impl Datapath for Alg3<'_> {
    fn quotient(&mut self, i: usize) {
        // Line 3: q = ((X_0·Y_i + S_(i,0))·(−M^(−1))) mod 2^17.
        let t = (u64::from(self.x[0]) * u64::from(self.y[i]) + u64::from(self.s[0])) & MASK;
        self.q = ((t * u64::from(self.minv)) & MASK) as u32;
        // Line 4.
        (self.ca, self.cb, self.cg, self.cs) = (0, 0, 0, 0);
    }

    fn digit(&mut self, i: usize, j: usize) {
        // Line 6: {Ca : α} = X_j·Y_i + Ca.
        let t = u64::from(self.x[j]) * u64::from(self.y[i]) + self.ca;
        let alpha = t & MASK;
        self.ca = t >> DIGIT_BITS;
        // Line 7: {Cb : β} = q·M_j + Cb.
        let u = u64::from(self.q) * u64::from(self.m[j]) + self.cb;
        let beta = u & MASK;
        self.cb = u >> DIGIT_BITS;
        // Line 8: {Cg : γ} = α + β + Cg.
        let g = alpha + beta + self.cg;
        let gamma = g & MASK;
        self.cg = g >> DIGIT_BITS;
        // Line 9: {Cs : S_(i+1,j−1)} = γ + S_(i,j) + Cs; at j = 0 the digit is
        // the zero that the division by 2^17 drops.
        let s = gamma + u64::from(self.s[j]) + self.cs;
        self.cs = s >> DIGIT_BITS;
        if j > 0 {
            self.s[j - 1] = (s & MASK) as u32;
        }
    }

    fn end(&mut self, i: usize) {
        let Some(trace) = self.trace.as_deref_mut() else { return };
        let d = self.x.len() - 1;
        let regs = vec![
            Reg {
                name: "Yi",
                bits: DIGIT_BITS as usize,
                value: Big::from_u64(u64::from(self.y[i])),
            },
            Reg {
                name: "q",
                bits: DIGIT_BITS as usize,
                value: Big::from_u64(u64::from(self.q)),
            },
            Reg {
                name: "Ca",
                bits: DIGIT_BITS as usize,
                value: Big::from_u64(self.ca),
            },
            Reg {
                name: "Cb",
                bits: DIGIT_BITS as usize,
                value: Big::from_u64(self.cb),
            },
            Reg {
                name: "Cg",
                bits: 1,
                value: Big::from_u64(self.cg),
            },
            Reg {
                name: "Cs",
                bits: 1,
                value: Big::from_u64(self.cs),
            },
            Reg {
                name: "S",
                bits: DIGIT_BITS as usize * d,
                value: join(&self.s[..d]),
            },
        ];
        trace.push(Step { iteration: i, regs });
    }
}

/// One Alg. 3 product modulo `m` (d digits) with Y taken as `y_digits`
/// digits: the output `S_(y_digits)` and the counts.
///
/// Pre: `X + M < 2^(17d)` and `Y < 2^(17·y_digits)`, so no sum outgrows the
/// d digits and the carries left after the last inner step are 0. Post: the
/// output is `(X·Y + Q·M) / 2^(17·y_digits)` exactly, Q the quotient digits,
/// `≡ X·Y·2^(−17·y_digits) (mod M)` and below `X·Y / 2^(17·y_digits) + M`.
pub(super) fn alg3(x: &Big, y: &Big, m: &Modulus, y_digits: usize, trace: Option<&mut Vec<Step>>) -> (Big, MmCounts) {
    let mut dp = Alg3 {
        x: split(x, m.d + 1),
        y: split(y, y_digits),
        m: &m.digits,
        minv: m.minv,
        s: vec![0; m.d + 1],
        q: 0,
        ca: 0,
        cb: 0,
        cg: 0,
        cs: 0,
        trace,
    };
    let counts = walk(m.d, y_digits, &mut dp);
    (join(&dp.s[..m.d]), counts)
}
