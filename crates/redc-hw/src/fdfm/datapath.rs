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
/// Cycles that wait in the quotient phase after `t` and `q` are formed:
/// §5.1.1's "the number of clock cycles necessary to compute q is 6"
/// (the DSP48E1's pipeline; the model forms t and q in the first two).
const Q_WAIT_CYCLES: usize = 4;
/// Pipeline cycles that end a product (Eq. 8's "+ 4").
const FLUSH_CYCLES: usize = 4;

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

/// One clock of Alg. 3's schedule (§5.1.1): what the single multiplier and
/// the adder do in it. An outer iteration takes 6 clocks for q (`T`, `Q`
/// and four `Wait`s) and 2 per inner step (the multiplier alternates
/// `X_j·Y_i` and `q·M_j`); a product ends with 4 `Wait`s (Eq. 8's "+ 4").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Clock {
    /// Line 3, first product: `t = (X_0·Y_i + S_(i,0)) mod 2^17`.
    T(usize),
    /// Line 3, second product, and line 4: `q = t·(−M^(−1)) mod 2^17`,
    /// the carries cleared.
    Q(usize),
    /// A clock in which no register changes (the DSP pipeline fills or drains).
    Wait,
    /// Line 6 of inner step `(i, j)`: `{Ca : α} = X_j·Y_i + Ca`.
    Xy(usize, usize),
    /// Lines 7–9 of inner step `(i, j)`: `{Cb : β} = q·M_j + Cb`, then the
    /// adder's `{Cg : γ} = α + β + Cg` and `{Cs : S_(i+1,j−1)} = γ + S_(i,j) + Cs`.
    Qm(usize, usize),
}

/// The datapath Alg. 3's schedule drives; `()` is the schedule without data.
pub(super) trait Datapath {
    /// One clock of the schedule.
    fn clock(&mut self, _op: Clock) {}
    /// The end of outer iteration `i` (line 10).
    fn end(&mut self, _i: usize) {}
}

impl Datapath for () {}

/// Alg. 3's loops with `inner + 1` inner steps (X, M of `inner` digits plus
/// the zero digits X_d, M_d) and `outer` outer iterations (the digits of Y),
/// clock by clock, counting cycles, needed products and DSP issues as the
/// schedule goes.
pub(super) fn walk(inner: usize, outer: usize, dp: &mut impl Datapath) -> MmCounts {
    let mut c = MmCounts::default();
    let mut tick = |dp: &mut _, op: Clock| {
        Datapath::clock(dp, op);
        c.clk += 1;
        match op {
            Clock::T(_) => c.dsp += 1,
            // Eq. 7 counts one product for each q.
            Clock::Q(_) => (c.dsp, c.mul) = (c.dsp + 1, c.mul + 1),
            Clock::Xy(_, j) | Clock::Qm(_, j) => (c.dsp, c.mul) = (c.dsp + 1, c.mul + u64::from(j < inner)),
            Clock::Wait => {}
        }
    };
    for i in 0..outer {
        tick(dp, Clock::T(i));
        tick(dp, Clock::Q(i));
        for _ in 0..Q_WAIT_CYCLES {
            tick(dp, Clock::Wait);
        }
        for j in 0..=inner {
            tick(dp, Clock::Xy(i, j));
            tick(dp, Clock::Qm(i, j));
        }
        dp.end(i);
    }
    for _ in 0..FLUSH_CYCLES {
        tick(dp, Clock::Wait);
    }
    c
}

/// Alg. 3's registers and block-RAM words, computed clock by clock.
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
    /// The clocked registers (see [`Alg3::registers`]).
    t: u64,
    q: u64,
    ca: u64,
    alpha: u64,
    cb: u64,
    cg: u64,
    cs: u64,
    sw: u64,
    /// The state after every outer iteration, if asked for.
    trace: Option<&'a mut Vec<Step>>,
    /// The clocked registers after every clock, if asked for.
    clocks: Option<&'a mut Vec<Step>>,
}

impl Alg3<'_> {
    /// The clocked registers, 17 bits each but the 1-bit adder carries:
    /// `t` (line 3's `X_0·Y_i + S_(i,0)` mod 2^17), `q`, `Ca`, `α`, `Cb`,
    /// `Cg`, `Cs` and `Sw`, the adder's last 17-bit output (the word
    /// `S_(i+1,j−1)` written to block RAM at j > 0).
    fn registers(&self) -> Vec<Reg> {
        let r = |name, bits, v: u64| Reg {
            name,
            bits,
            value: Big::from_u64(v),
        };
        let w = DIGIT_BITS as usize;
        vec![
            r("t", w, self.t),
            r("q", w, self.q),
            r("Ca", w, self.ca),
            r("alpha", w, self.alpha),
            r("Cb", w, self.cb),
            r("Cg", 1, self.cg),
            r("Cs", 1, self.cs),
            r("Sw", w, self.sw),
        ]
    }
}

impl Datapath for Alg3<'_> {
    fn clock(&mut self, op: Clock) {
        match op {
            Clock::T(i) => {
                self.t = (u64::from(self.x[0]) * u64::from(self.y[i]) + u64::from(self.s[0])) & MASK;
            }
            Clock::Q(_) => {
                self.q = (self.t * u64::from(self.minv)) & MASK;
                (self.ca, self.cb, self.cg, self.cs) = (0, 0, 0, 0);
            }
            Clock::Wait => {}
            Clock::Xy(i, j) => {
                let t = u64::from(self.x[j]) * u64::from(self.y[i]) + self.ca;
                (self.ca, self.alpha) = (t >> DIGIT_BITS, t & MASK);
            }
            Clock::Qm(_, j) => {
                let u = self.q * u64::from(self.m[j]) + self.cb;
                let beta = u & MASK;
                self.cb = u >> DIGIT_BITS;
                let g = self.alpha + beta + self.cg;
                self.cg = g >> DIGIT_BITS;
                // At j = 0 the adder's digit is the zero that the division
                // by 2^17 drops.
                let s = (g & MASK) + u64::from(self.s[j]) + self.cs;
                self.cs = s >> DIGIT_BITS;
                self.sw = s & MASK;
                if j > 0 {
                    self.s[j - 1] = self.sw as u32;
                }
            }
        }
        if self.clocks.is_some() {
            let regs = self.registers();
            let clocks = self.clocks.as_deref_mut().expect("checked");
            let cycle = clocks.len() + 1;
            clocks.push(Step { iteration: cycle, regs });
        }
    }

    fn end(&mut self, i: usize) {
        let Some(trace) = self.trace.as_deref_mut() else { return };
        let d = self.x.len() - 1;
        let reg = |name, bits, v: u64| Reg {
            name,
            bits,
            value: Big::from_u64(v),
        };
        let w = DIGIT_BITS as usize;
        let regs = vec![
            reg("Yi", w, u64::from(self.y[i])),
            reg("q", w, self.q),
            reg("Ca", w, self.ca),
            reg("Cb", w, self.cb),
            reg("Cg", 1, self.cg),
            reg("Cs", 1, self.cs),
            Reg {
                name: "S",
                bits: w * d,
                value: join(&self.s[..d]),
            },
        ];
        trace.push(Step { iteration: i, regs });
    }
}

/// The traces [`alg3`] can record.
#[derive(Default)]
pub(super) struct Traces<'a> {
    /// One [`Step`] per outer iteration: `Yi`, `q`, the carries and the
    /// block-RAM word `S` after the inner loop.
    pub(super) iterations: Option<&'a mut Vec<Step>>,
    /// One [`Step`] per clock, numbered from 1: the clocked registers
    /// after that clock's edge (see the `Clock` schedule).
    pub(super) clocks: Option<&'a mut Vec<Step>>,
}

/// One Alg. 3 product modulo `m` (d digits) with Y taken as `y_digits`
/// digits: the output `S_(y_digits)` and the counts.
///
/// Pre: `X + M < 2^(17d)` and `Y < 2^(17·y_digits)`, so no sum outgrows the
/// d digits and the carries left after the last inner step are 0. Post: the
/// output is `(X·Y + Q·M) / 2^(17·y_digits)` exactly, Q the quotient digits,
/// `≡ X·Y·2^(−17·y_digits) (mod M)` and below `X·Y / 2^(17·y_digits) + M`.
pub(super) fn alg3(x: &Big, y: &Big, m: &Modulus, y_digits: usize, traces: Traces<'_>) -> (Big, MmCounts) {
    let mut dp = Alg3 {
        x: split(x, m.d + 1),
        y: split(y, y_digits),
        m: &m.digits,
        minv: m.minv,
        s: vec![0; m.d + 1],
        t: 0,
        q: 0,
        ca: 0,
        alpha: 0,
        cb: 0,
        cg: 0,
        cs: 0,
        sw: 0,
        trace: traces.iterations,
        clocks: traces.clocks,
    };
    let counts = walk(m.d, y_digits, &mut dp);
    (join(&dp.s[..m.d]), counts)
}
