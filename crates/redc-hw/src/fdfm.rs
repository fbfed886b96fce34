//! The FDFM core of Ito, Nakano and Song, "The Parallel FDFM Processor Core
//! Approach for CRT-based RSA Decryption" (`../shared/papers/001_24b3bbce8c558126.txt`):
//! one DSP48E1 slice, one block RAM, radix 2^17.
//!
//! What is modelled, by section of the paper:
//!
//! * §5.1, Alg. 3: the digit-serial Montgomery product with the carries
//!   `Ca` (C_α), `Cb` (C_β) of the 17-bit MACC and `Cg` (C_γ), `Cs` (C_S) of
//!   the 17-bit adder, one quotient digit `q` per outer iteration and no
//!   final subtraction ([`Circuit::multiply`]).
//! * §5.1.2, Eq. 7–9: the cycle counts. Each outer iteration takes 6 cycles
//!   for `q` and 2 cycles per inner step `j = 0..=d` (the single multiplier
//!   alternates `X_j·Y_i` and `q·M_j`); a product ends with 4 pipeline
//!   cycles. The model adds these up while it runs, so a product of a
//!   `dx`-digit X (and modulus) by a `dy`-digit Y takes
//!   `((dx + 1)·2 + 6)·dy + 4` cycles (Eq. 9; Eq. 8 when `dx = dy = d`).
//!   [`mm_counts`] walks the same schedule without data.
//! * §3, Alg. 2: left-to-right exponentiation on top of Alg. 3
//!   ([`Circuit::exponentiate`]).
//! * §4 and §5.2, Eq. 10: CRT decryption, Steps 1–3 on the core in the
//!   paper's serial order and Step 4 on the host ([`crt_decrypt`]).
//! * §5.3: the multicore system fed through a shift-register chain
//!   ([`Circuit::parallel_cycles`], [`throughput_kbps`]).
//! * Table 2, Table 3, Fig. 6 and the figures of the abstract, §1 and §6
//!   ([`tables`]).
//!
//! # Size parameter
//!
//! For an R-bit modulus the core uses `d = ceil((R + 3) / 17)` digits
//! ([`digits_for`]): the smallest d with the paper's condition
//! `17d >= R + 3` (§5.1), which is `ceil(R / 17)` when that already leaves
//! three spare bits and one redundant digit more otherwise ("we can append
//! one redundant digit at the highest digit"). The condition is sufficient
//! but not tight: for operands below 2M, `17d >= R + 2` already keeps every
//! output below 2M (see [`build_with_digits`]); Table 2's 64-bit row uses
//! d2 = 2 for 32-bit primes, which violates `R + 3` but meets `R + 2`.
//!
//! # Output range
//!
//! A product of X, Y < 2M is `(X·Y + Q·M) / 2^(17d)` exactly, with `Q` the
//! quotient digits, below 2M ([`Circuit::operand_bound`] is 2n); it equals
//! [`mont_product_exact`](crate::reference::mont_product_exact)`(X, Y, M, 17·d_Y)`.
//! The exponentiator's last product (by 1) lands in `[0, n]`; the host maps
//! n to 0 to return the fully reduced value.
//!
//! # Where the paper contradicts itself
//!
//! Each point has a test in `tests/fdfm.rs` and, where it touches a table, a
//! note in [`tables`]:
//!
//! * Table 2's 64-bit row uses d2 = 2 for 32-bit primes: 34 < 32 + 3, against
//!   §5.1's `17d >= R + 3` (harmless: `R + 2` suffices).
//! * Table 2's 128-bit "without CRT" time 0.113 ms is 0.11356 truncated; the
//!   other rows round. Table 3 prints ref. \[4\]'s time as 36.401 ms, Table 2 as
//!   36.402 ms (Table 3's own 28.130 kbit/s is 1024 / 36.402).
//! * §6's 11.263 ms for 1024 bits contradicts the 13.737 ms of the abstract,
//!   §1 and Tables 2 and 3.
//! * §5.1.2 claims more than 90 % utilization above 500 bits and 95 % at
//!   1024 bits; Eq. 7 / Eq. 8 give 89.8 % at 512 and 94.6 % at 1024 bits.
//! * Table 3's 23,031.370 kbit/s is 23,031.372 at the printed 325.098 MHz.
//! * §5.2.1's Step 1 takes `R_p = 2^bitlength(p)`, which no Alg. 3 product
//!   (each divides by a power 2^(17k)) can cancel; the model uses
//!   `R_p = 2^(17·d1)`.
//! * §5.2.2 lists 2 + (2|E| + 3) + 3 products per half; Eq. 10 counts
//!   2|E| + 7, with the shapes [`crt_decrypt`] describes. Eq. 10's
//!   `(2d2d1 + 8d1 + 4)` terms have the inner loop over d2 digits, so they
//!   cannot be the Step 3 products modulo the d1-digit M the text puts there.
//! * Eq. 10 (Table 2's worst case) scans 17·d2 exponent bits, more than
//!   `D_p < 2^(R/2)` can have.

use redc::kernel::consts::neg_inv;

use crate::{
    Arch, Big, Circuit, CrtKey, CrtRun, CrtSupport, Entry, ExpRun, HwError, HwOption, Paper, ProductRun, Reg, Step,
    Table,
};

/// The digit width of the core: the DSP48E1's unsigned 17-bit multiplier
/// input (§5.1).
pub const DIGIT_BITS: u32 = 17;

/// The single-core clock, MHz: Table 1 "1 core", Maximum Frequency.
pub const CLOCK_MHZ: f64 = 336.7;

/// The clock of the 320-core system, MHz: Table 1 "320 cores".
pub const CLOCK_MHZ_MULTICORE: f64 = 325.098;

/// The clock of the earlier non-CRT core (ref. \[4\]), MHz (§6, Table 3).
pub const CLOCK_MHZ_PREVIOUS: f64 = 447.027;

/// The number of cores of the paper's multicore system (§5.3, Table 1).
pub const PAPER_CORES: u32 = 320;

const MASK: u64 = (1 << DIGIT_BITS) - 1;
/// Cycles for one quotient digit q (§5.1.1: "the number of clock cycles
/// necessary to compute q is 6").
const Q_CYCLES: u64 = 6;
/// Cycles per inner step: the multiplier takes `X_j·Y_i + Ca`, then
/// `q·M_j + Cb` (§5.1.1, alternate inputs).
const STEP_CYCLES: u64 = 2;
/// Pipeline cycles that end a product (Eq. 8's "+ 4").
const FLUSH_CYCLES: u64 = 4;
/// The CLI name.
const NAME: &str = "fdfm";

/// The FDFM core as the registry lists it: the halves of a CRT decryption
/// run one after the other (§5.2.1).
pub static ARCH: Arch = Arch {
    name: NAME,
    paper: Paper::Fdfm,
    build,
    crt: CrtSupport::Serial {
        decrypt: crt_decrypt,
        no_parallel: NO_PARALLEL_CRT,
    },
};

/// Digits the core uses for an R-bit modulus: the smallest d with
/// `17d >= R + 3` (§5.1's condition for omitting Alg. 1's final subtraction).
pub fn digits_for(bits: usize) -> usize {
    (bits + 3).div_ceil(DIGIT_BITS as usize)
}

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
/// the same walk [`Circuit::multiply`] runs.
pub fn mm_counts(x_digits: usize, y_digits: usize) -> MmCounts {
    walk(x_digits, y_digits, &mut ())
}

/// Run time in milliseconds of `cycles` at `mhz`.
pub fn time_ms(cycles: u64, mhz: f64) -> f64 {
    cycles as f64 / (mhz * 1e3)
}

/// Throughput in kbit/s of `cores` cores that each decrypt one `bits`-bit
/// block every `time_ms` milliseconds (Table 3's rule: bits / time).
pub fn throughput_kbps(bits: usize, cores: u32, time_ms: f64) -> f64 {
    bits as f64 * f64::from(cores) / time_ms
}

/// Worst-case throughput of `cores` FDFM cores decrypting `bits`-bit RSA
/// blocks with CRT at `mhz`, kbit/s: [`crt_worst_case`] with the model's
/// digits ([`digits_for`] of `bits` and `bits / 2`), loading excluded as in
/// Table 3 (the next block can be shifted in while the cores compute).
pub fn decryption_throughput_kbps(bits: usize, cores: u32, mhz: f64) -> f64 {
    let d2 = digits_for(bits / 2);
    let cycles = total(&crt_worst_case(digits_for(bits), d2, DIGIT_BITS as usize * d2));
    throughput_kbps(bits, cores, time_ms(cycles, mhz))
}

/// Eq. 10's phases of one CRT decryption by counting, with `d1` digits for
/// M and the cipher text, `d2` for p and q, and both exponents taken as
/// `exp_bits` one bits. Eq. 10 (Table 2's worst case) is
/// `exp_bits = 17·d2`: every bit of the d2 exponent digits set.
pub fn crt_worst_case(d1: usize, d2: usize, exp_bits: usize) -> Vec<(&'static str, u64)> {
    let ones = all_ones(exp_bits);
    let halves = [
        Half {
            k: (),
            r2: (),
            z: (),
            exp: ones.clone(),
        },
        Half {
            k: (),
            r2: (),
            z: (),
            exp: ones,
        },
    ];
    crt_schedule(
        &mut Counter::default(),
        &d1,
        &(),
        [(&d2, &halves[0]), (&d2, &halves[1])],
    )
    .1
}

/// Cycles of one exponentiation by Alg. 2 with a `d`-digit modulus and an
/// exponent of `exp_bits` one bits (the worst case), by counting.
pub fn exp_worst_case(d: usize, exp_bits: usize) -> u64 {
    let mut counter = Counter::default();
    alg2(&mut counter, &d, &(), &(), &all_ones(exp_bits));
    counter.tally.cycles
}

/// The FDFM core loaded with modulus `n`, with `d = digits_for(bits(n))`.
///
/// Errors: `HwError::Radix` unless `radix` is `None` or `Some(17)`;
/// `HwError::Modulus` for an even n or n < 3.
pub fn build(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    check_radix(radix)?;
    check_modulus(n, "n")?;
    build_with_digits(n, digits_for(n.bits()))
}

/// The core loaded with modulus `n` on `d` digits instead of
/// [`digits_for`]'s choice, for configurations such as Table 2's
/// 64-bit row (d2 = 2 for 32-bit primes).
///
/// `d` runs from the tight `ceil((bits(n) + 2) / 17)` to the paper's
/// [`digits_for`]`(bits(n))` (the two differ for at most one d). With
/// `17d >= bits(n) + 2`, operands below 2n give outputs below 2n
/// (`X·Y/2^(17d) + n < 4n^2/(4n) + n`) and the intermediate sums fit d digits
/// (every `S_(i+1) = (S_i + X·Y_i + q·M) / 2^17` stays below X + M < 3n).
/// With `17d = bits(n) + 1` a product of two operands below 2n can reach 2n
/// and the chain breaks. Errors: `HwError::Modulus` for an even n, n < 3
/// or d out of that range.
pub fn build_with_digits(n: &Big, d: usize) -> Result<Box<dyn Circuit>, HwError> {
    check_modulus(n, "n")?;
    let tight = (n.bits() + 2).div_ceil(DIGIT_BITS as usize);
    if !(tight..=digits_for(n.bits())).contains(&d) {
        return Err(HwError::Modulus(format!(
            "{NAME}: a {}-bit n takes {tight} to {} digits of 17 bits (17d >= bits(n) + 2 up to the paper's \
             17d >= bits(n) + 3), not {d}",
            n.bits(),
            digits_for(n.bits())
        )));
    }
    Ok(Box::new(Fdfm { m: Modulus::new(n, d) }))
}

/// Why the core has no parallel CRT halves (the reason of
/// [`HwError::Unsupported`] for [`HwOption::Parallel`]).
pub const NO_PARALLEL_CRT: &str = "the FDFM core runs the CRT halves one after the other to save hardware \
     (001 §5.2.1); its parallelism is whole decryptions on separate cores (§5.3)";

/// CRT decryption `c^d mod n` as §5.2 runs it (Steps 1–4, Eq. 10), serially
/// on one core: C_p, C_q, P_p, P_q, S_p, S_q, then Step 4 on the host.
///
/// The core's digits are d1 = [`digits_for`]`(bits(n))` and
/// d2 = [`digits_for`]`(max(bits(p), bits(q)))`. The host precomputes, as
/// the paper does "beforehand": `R_p^2 mod p` with `R_p = 2^(17·d1)`, the
/// Montgomery constant `2^(34·d2) mod p`, `Z_p = q^(p−1) mod n`,
/// `D_p = d mod (p−1)` (taken as p−1 when that is 0 and d > 0, so that
/// `c ≡ 0 (mod p)` still gives 0), and the same for q. Per half the core runs
///
/// 1. Step 1, `C_p`: `T = MM(R_p^2 mod p, C)` then `MM(1, T)`, both with the
///    outer loop over the d1 digits of the cipher-text slot and the inner
///    loop over p's d2 digits: Eq. 10's `(2d2d1 + 8d1 + 4)` and
///    `(2d1d2 + 8d1 + 4)`; the result is `C mod p`, at most p;
/// 2. Step 2, `P_p = C_p^(D_p) mod p` by Alg. 2 on d2 digits
///    (`2·|D_p| + 3` products in the worst case);
/// 3. Step 3, `P_p` back into Montgomery form, `MM(2^(34·d2) mod p, P_p)`
///    (d2 × d2: the fourth product of Eq. 10's `(2d2·17 + 4)`), then
///    `S_p = MM(Z_p, ·)` modulo M, inner loop over M's d1 digits, outer over
///    d2: Eq. 10's `(2d1d2 + 8d2 + 4)`. Since q divides Z_p, the Montgomery
///    form modulo p is enough: `S_p ≡ P_p·Z_p (mod M)`, `S_p < 1.25·M`.
///
/// This is the one reading of Eq. 10 whose products are all valid Alg. 3
/// products (the inner loop covers the modulus' digits) and compute
/// `c^d mod n`: matching Eq. 10's polynomial term by term, each half needs
/// 17·2·d2 + 4 products of d2 × d2 digits, two with the inner loop over d2
/// and the outer over d1 (only Step 1's products modulo p with the d1-digit
/// cipher text fit), and one with the inner loop over d1 and the outer over
/// d2 (the product with Z_p modulo M). The text's Step 3 "P_p with R^2 mod M,
/// then Z_p, then 1" is three products modulo M; Eq. 10 has room for one,
/// and the "× 1" would leave a factor 2^(−17·d2) in S_p.
///
/// Step 4 (`P = S_p + S_q`) is not on the core ("in our implementation, the
/// first 3 steps are processed") and takes no core cycles: the host adds and
/// subtracts M until the sum is below M (at most twice, as `S_p, S_q` may
/// exceed M; the paper's single subtraction assumes them reduced).
///
/// Preconditions: `key` is an RSA key (p, q distinct odd primes). Errors:
/// `HwError::Radix` unless `radix` is `None` or `Some(17)`;
/// `HwError::Unsupported` for `parallel` (the core runs the halves serially
/// to save hardware, §5.2.1; the multicore system parallelises whole
/// decryptions, see [`Circuit::parallel_cycles`]); `HwError::Modulus` when
/// n, p, q are not odd, at least 3, distinct, with `p·q = n` and
/// `Z_p ≡ 1 (mod p)`, `Z_q ≡ 1 (mod q)`; `HwError::Operand` for `c >= n`.
pub fn crt_decrypt(key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    check_radix(radix)?;
    if parallel {
        return Err(HwError::Unsupported {
            option: Some(HwOption::Parallel),
            reason: NO_PARALLEL_CRT.into(),
        });
    }
    let (n, p, q) = (&key.n, &key.p, &key.q);
    check_modulus(n, "n")?;
    check_modulus(p, "p")?;
    check_modulus(q, "q")?;
    if p == q || p.mul(q) != *n {
        return Err(HwError::Modulus(format!(
            "{NAME}: p and q must be distinct with p·q = n"
        )));
    }
    if c >= n {
        return Err(HwError::Operand {
            name: "c",
            bound: "n".into(),
        });
    }
    let d1 = digits_for(n.bits());
    let d2 = digits_for(p.bits().max(q.bits()));
    let (mn, mp, mq) = (Modulus::new(n, d1), Modulus::new(p, d2), Modulus::new(q, d2));
    let hp = host_half(key, p, q, &mp, d1)?;
    let hq = host_half(key, q, p, &mq, d1)?;
    let mut runner = Runner::default();
    let (sums, mut phases) = crt_schedule(&mut runner, &mn, c, [(&mp, &hp), (&mq, &hq)]);
    // Step 4 on the host.
    let mut value = sums[0].add(&sums[1]);
    while let Some(smaller) = value.checked_sub(n) {
        value = smaller;
    }
    phases.push(("step 4: P = Sp + Sq mod M (host, no core cycles)", 0));
    Ok(CrtRun {
        value,
        cycles: runner.tally.cycles,
        phases,
    })
}

/// The paper's tables beside the model's figures: Table 2, Table 3, Fig. 6
/// and the figures the abstract, §1 and §6 print.
pub fn tables() -> Vec<Table> {
    vec![table2(), table3(), fig6(), text_figures()]
}

fn check_radix(radix: Option<u32>) -> Result<(), HwError> {
    match radix {
        None | Some(DIGIT_BITS) => Ok(()),
        Some(r) => Err(HwError::Radix {
            arch: NAME,
            radix: r,
            allowed: "17 (the DSP48E1 multiplier)",
        }),
    }
}

fn check_modulus(n: &Big, name: &str) -> Result<(), HwError> {
    if n.is_odd() && *n >= Big::from_u64(3) {
        Ok(())
    } else {
        Err(HwError::Modulus(format!(
            "{NAME}: {name} must be odd and at least 3, got 0x{}",
            n.to_hex()
        )))
    }
}

/// A modulus as the core holds it: `d` digits in block RAM plus the zero
/// digit `M_d`, the 17-bit constant `−M^(−1) mod 2^17` and the host's
/// Montgomery constant `2^(34d) mod M` (Alg. 2's `2^(2dr) mod M`).
struct Modulus {
    value: Big,
    d: usize,
    digits: Vec<u32>,
    minv: u32,
    r2: Big,
}

impl Modulus {
    /// Precondition: `n` odd.
    fn new(n: &Big, d: usize) -> Self {
        // −M^(−1) mod 2^17 fits the 17-bit digit: the truncation keeps every bit.
        let minv = neg_inv(u64::from(split(n, 1)[0]), DIGIT_BITS) as u32;
        let r2 = Big::pow2(2 * DIGIT_BITS as usize * d).rem(n).unwrap_or_default();
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

fn all_ones(bits: usize) -> Big {
    Big::pow2(bits).checked_sub(&Big::one()).unwrap_or_default()
}

fn total(phases: &[(&'static str, u64)]) -> u64 {
    phases.iter().map(|(_, c)| c).sum()
}

/// The datapath Alg. 3's schedule drives; `()` is the schedule without data.
trait Datapath {
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
fn walk(inner: usize, outer: usize, dp: &mut impl Datapath) -> MmCounts {
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
fn alg3(x: &Big, y: &Big, m: &Modulus, y_digits: usize, trace: Option<&mut Vec<Step>>) -> (Big, MmCounts) {
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

/// Cycles and products so far.
#[derive(Debug, Default)]
struct Tally {
    cycles: u64,
    products: u64,
}

/// What the exponentiation and CRT schedules run their products on: the
/// datapath ([`Runner`]) or the counting rule alone ([`Counter`]).
trait Engine {
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
struct Runner {
    tally: Tally,
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
        let (value, counts) = alg3(x, y, m, y_digits, None);
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
struct Counter {
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
fn alg2<E: Engine>(e: &mut E, m: &E::Mod, r2: &E::Val, p: &E::Val, exp: &Big) -> E::Val {
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

/// One half of the CRT schedule's host-loaded constants (for p; q alike).
struct Half<V> {
    /// `R_p^2 mod p` with `R_p = 2^(17·d1)`.
    k: V,
    /// `2^(34·d2) mod p`.
    r2: V,
    /// `Z_p = q^(p−1) mod M`.
    z: V,
    /// `D_p`.
    exp: Big,
}

/// The host's precomputation for the half of prime `p` (other prime `o`).
fn host_half(key: &CrtKey, p: &Big, o: &Big, mp: &Modulus, d1: usize) -> Result<Half<Big>, HwError> {
    let one = Big::one();
    let p1 = p.checked_sub(&one).unwrap_or_default();
    let z = crate::reference::modpow(o, &p1, &key.n);
    if crate::reference::reduce(&z, p) != one {
        return Err(HwError::Modulus(format!(
            "{NAME}: the CRT coefficient (other prime)^(p−1) mod n is not 1 mod p for p = 0x{}: \
             p and q must be distinct primes",
            p.to_hex()
        )));
    }
    let exp = crate::reference::reduce(&key.d, &p1);
    let exp = if exp.is_zero() && !key.d.is_zero() { p1 } else { exp };
    let k = crate::reference::pow2_mod(2 * DIGIT_BITS as usize * d1, p);
    Ok(Half {
        k,
        r2: mp.r2.clone(),
        z,
        exp,
    })
}

/// Phase names, per half, in Eq. 10's terms.
const PHASES: [[&str; 5]; 2] = [
    [
        "step 1: T = Rp^2*C mod p [2d2d1+8d1+4]",
        "step 1: Cp = 1*T mod p [2d1d2+8d1+4]",
        "step 2: Pp = Cp^Dp mod p, Alg. 2 [(2d2^2+8d2+4)(2|Dp|+3)]",
        "step 3: Pp to Montgomery form mod p [(2d2^2+8d2+4), the 4th of +4]",
        "step 3: Sp = Zp*Pp mod M [2d1d2+8d2+4]",
    ],
    [
        "step 1: T = Rq^2*C mod q [2d2d1+8d1+4]",
        "step 1: Cq = 1*T mod q [2d1d2+8d1+4]",
        "step 2: Pq = Cq^Dq mod q, Alg. 2 [(2d2^2+8d2+4)(2|Dq|+3)]",
        "step 3: Pq to Montgomery form mod q [(2d2^2+8d2+4), the 4th of +4]",
        "step 3: Sq = Zq*Pq mod M [2d1d2+8d2+4]",
    ],
];

/// Phase cycles, each the cycles since the previous mark.
#[derive(Default)]
struct Phases {
    list: Vec<(&'static str, u64)>,
    seen: u64,
}

impl Phases {
    fn mark(&mut self, name: &'static str, tally: &Tally) {
        self.list.push((name, tally.cycles - self.seen));
        self.seen = tally.cycles;
    }
}

/// Steps 1–3 of §4 in §5.2.1's serial order (C_p, C_q, P_p, P_q, S_p, S_q)
/// with modulus M (`n`) and cipher text `c` below M: returns `[S_p, S_q]`
/// and the cycles of each phase, named by [`PHASES`] (see [`crt_decrypt`]).
///
/// Pre: p and q have at most `17·d2 − 3` bits, M at most `17·d1 − 3`, the
/// constants are those of [`host_half`]. Post: `S_p ≡ P_p·Z_p (mod M)`,
/// `S_p < 1.25·M`, and alike for q.
fn crt_schedule<E: Engine>(
    e: &mut E,
    n: &E::Mod,
    c: &E::Val,
    halves: [(&E::Mod, &Half<E::Val>); 2],
) -> (Vec<E::Val>, Vec<(&'static str, u64)>) {
    let d1 = E::digits(n);
    let one = e.one();
    let mut ph = Phases::default();
    let mut cs = Vec::with_capacity(2);
    for (names, (m, h)) in PHASES.iter().zip(halves) {
        let t = e.mm(&h.k, c, m, d1);
        ph.mark(names[0], e.tally());
        cs.push(e.mm(&one, &t, m, d1));
        ph.mark(names[1], e.tally());
    }
    let mut ps = Vec::with_capacity(2);
    for ((names, (m, h)), cp) in PHASES.iter().zip(halves).zip(&cs) {
        ps.push(alg2(e, m, &h.r2, cp, &h.exp));
        ph.mark(names[2], e.tally());
    }
    let mut ss = Vec::with_capacity(2);
    for ((names, (m, h)), pp) in PHASES.iter().zip(halves).zip(&ps) {
        let d2 = E::digits(m);
        let mont = e.mm(&h.r2, pp, m, d2);
        ph.mark(names[3], e.tally());
        ss.push(e.mm(&h.z, &mont, n, d2));
        ph.mark(names[4], e.tally());
    }
    (ss, ph.list)
}

/// The core on one modulus.
struct Fdfm {
    m: Modulus,
}

impl Fdfm {
    fn check(&self, x: &Big, name: &'static str) -> Result<(), HwError> {
        if *x < self.operand_bound() {
            Ok(())
        } else {
            Err(HwError::Operand {
                name,
                bound: "2n".into(),
            })
        }
    }
}

impl Circuit for Fdfm {
    fn arch(&self) -> &'static Arch {
        &ARCH
    }

    fn modulus(&self) -> &Big {
        &self.m.value
    }

    fn digit_bits(&self) -> u32 {
        DIGIT_BITS
    }

    fn digits(&self) -> usize {
        self.m.d
    }

    fn r_log2(&self) -> usize {
        DIGIT_BITS as usize * self.m.d
    }

    /// 2n: Alg. 3 maps X, Y < 2n to an output below 2n (module docs).
    fn operand_bound(&self) -> Big {
        self.m.value.shl(1)
    }

    /// Alg. 3 with X = `a`, Y = `b`, one [`Step`] per outer iteration i with
    /// the registers `Yi`, `q`, `Ca`, `Cb`, `Cg`, `Cs` after the inner loop
    /// and the block-RAM word `S` = S_(i+1) (17d bits).
    ///
    /// Pre: a, b < 2n (checked). Post: the value is
    /// `(a·b + Q·n) / 2^(17d)` with Q the quotient digits, below 2n; cycles
    /// `2d^2 + 8d + 4` (Eq. 8), counted.
    fn multiply(&self, a: &Big, b: &Big, trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError> {
        self.check(a, "a")?;
        self.check(b, "b")?;
        let (value, counts) = alg3(a, b, &self.m, self.m.d, trace);
        Ok(ProductRun {
            value,
            cycles: counts.clk,
        })
    }

    fn product_cycles(&self) -> u64 {
        mm_counts(self.m.d, self.m.d).clk
    }

    /// Alg. 2 over the `|E| = bits(exp)` bits of `exp` (the count of ref. \[4\]'s
    /// non-CRT core: 2|E| + 3 products in the worst case); cycles are the
    /// products' cycles. The host maps the output n (possible when the value
    /// is 0) to 0.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        if *base >= self.m.value {
            return Err(HwError::Operand {
                name: "base",
                bound: "n".into(),
            });
        }
        let mut runner = Runner::default();
        let c = alg2(&mut runner, &self.m, &self.m.r2, base, exp);
        let value = if c == self.m.value { Big::zero() } else { c };
        Ok(ExpRun {
            value,
            cycles: runner.tally.cycles,
            products: runner.tally.products,
        })
    }

    /// Table 1's single-core clock, 336.7 MHz: the same circuit serves every
    /// size up to 2176 bits (§5.2.1).
    fn clock_mhz(&self) -> f64 {
        CLOCK_MHZ
    }

    /// `MM_mul / MM_clk` (Eq. 7 over Eq. 8, Fig. 6), both counted.
    fn utilization(&self) -> Option<f64> {
        let c = mm_counts(self.m.d, self.m.d);
        Some(c.mul as f64 / c.clk as f64)
    }

    /// §5.3: the inputs reach the cores through a chain of shift registers,
    /// one 18-bit word per cycle, d words per core (`320·d1` cycles for the
    /// paper's 320 cores); the last core starts when its last word is in and
    /// then runs `op_cycles`. The p-cycle hop of the last word to core p and
    /// the read-back are not counted, as in the paper.
    fn parallel_cycles(&self, op_cycles: u64, cores: u32) -> u64 {
        let load = u64::from(cores).saturating_mul(self.m.d as u64);
        load.saturating_add(op_cycles)
    }
}

const FILE: &str = "001_24b3bbce8c558126.txt";

/// One row of Table 2 as printed.
struct Table2Row {
    r: usize,
    d1: usize,
    d2: usize,
    cycles: f64,
    crt_ms: f64,
    plain_ms: f64,
}

const TABLE2: [Table2Row; 6] = [
    Table2Row {
        r: 64,
        d1: 4,
        d2: 2,
        cycles: 4_312.0,
        crt_ms: 0.013,
        plain_ms: 0.020,
    },
    Table2Row {
        r: 128,
        d1: 8,
        d2: 4,
        cycles: 19_768.0,
        crt_ms: 0.059,
        plain_ms: 0.113,
    },
    Table2Row {
        r: 256,
        d1: 16,
        d2: 8,
        cycles: 110_392.0,
        crt_ms: 0.328,
        plain_ms: 0.742,
    },
    Table2Row {
        r: 512,
        d1: 31,
        d2: 16,
        cycles: 713_048.0,
        crt_ms: 2.118,
        plain_ms: 4.995,
    },
    Table2Row {
        r: 1024,
        d1: 61,
        d2: 31,
        cycles: 4_625_348.0,
        crt_ms: 13.737,
        plain_ms: 36.402,
    },
    Table2Row {
        r: 2048,
        d1: 121,
        d2: 61,
        cycles: 33_067_148.0,
        crt_ms: 98.210,
        plain_ms: 277.413,
    },
];

/// Eq. 10 by counting: worst-case CRT cycles for `d1`, `d2` digits.
fn crt_cycles(d1: usize, d2: usize) -> u64 {
    total(&crt_worst_case(d1, d2, DIGIT_BITS as usize * d2))
}

/// Ref. \[4\]'s non-CRT worst case for an R-bit modulus: Alg. 2 over R one bits.
fn plain_cycles(r: usize) -> u64 {
    exp_worst_case(digits_for(r), r)
}

/// Pushes `e`, with a note from `why` if it differs from the paper.
fn push_or_note(t: &mut Table, e: Entry, why: impl FnOnce(&Entry) -> String) {
    if e.matches() {
        t.push(e);
    } else {
        let note = t.note(why(&e));
        t.push_noted(e, note);
    }
}

fn table2() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 2"),
        "Execution time of the CRT based RSA decryption circuit, worst case (every exponent bit 1)",
    );
    let attainable = t.note(
        "Not printed. Eq. 10 (and so Table 2) runs Alg. 2 over 17·d2 exponent bits, all 1: 527 bits for R = 1024, \
         more than D_p < p − 1 < 2^(R/2) can have. With |D_p| = |D_q| = R/2 bits all 1 and the model's digits \
         (17d >= R + 3) the worst case is this figure.",
    );
    for row in &TABLE2 {
        let label = format!("R={}", row.r);
        let d2 = digits_for(row.r / 2);
        let cycles = crt_cycles(row.d1, row.d2);
        let mut d2_note = None;
        if d2 != row.d2 {
            let with_d2 = crt_cycles(row.d1, d2);
            d2_note = Some(t.note(format!(
                "The paper's d2 = {} for {}-bit primes has 17·{} = {} < {} + 3 bits, against its own condition \
                 17d >= R + 3 (§5.1); the model's rule gives d2 = {d2}. Both are computed: at the paper's d2 the \
                 model reproduces the row ({cycles} cycles), at d2 = {d2} it takes {with_d2} cycles \
                 ({:.3} ms), {} more. The paper's d2 = {} still meets 17d >= R + 2, which is enough for operands \
                 below 2p (build_with_digits), so its products are still correct.",
                row.d2,
                row.r / 2,
                row.d2,
                17 * row.d2,
                row.r / 2,
                time_ms(with_d2, CLOCK_MHZ),
                with_d2 - cycles,
                row.d2,
            )));
        }
        t.push(Entry::new(
            &label,
            "blocks d1",
            "",
            Some(row.d1 as f64),
            0,
            digits_for(row.r) as f64,
        ));
        let e = Entry::new(&label, "blocks d2", "", Some(row.d2 as f64), 0, d2 as f64);
        match d2_note {
            Some(n) => t.push_noted(e, n),
            None => t.push(e),
        }
        t.push(Entry::new(
            &label,
            "clock cycles",
            "cycles",
            Some(row.cycles),
            0,
            cycles as f64,
        ));
        t.push(Entry::new(
            &label,
            "time with CRT",
            "ms",
            Some(row.crt_ms),
            3,
            time_ms(cycles, CLOCK_MHZ),
        ));
        let plain = plain_cycles(row.r);
        let e = Entry::new(
            &label,
            "time without CRT in [4]",
            "ms",
            Some(row.plain_ms),
            3,
            time_ms(plain, CLOCK_MHZ_PREVIOUS),
        );
        push_or_note(&mut t, e, |e| {
            format!(
                "[4]'s core runs Alg. 2 over R = {} one bits: (2·{} + 3) products of {} cycles (Eq. 8, d = {}) = \
                 {plain} cycles, {:.5} ms at 447.027 MHz, which rounds to {:.3}; the paper prints {:.3}, the value \
                 truncated, while its other rows round to nearest (R = 64: {:.5} ms printed 0.020).",
                row.r,
                row.r,
                mm_counts(row.d1, row.d1).clk,
                row.d1,
                e.model,
                e.model_rounded(),
                row.plain_ms,
                time_ms(plain_cycles(64), CLOCK_MHZ_PREVIOUS),
            )
        });
        if let Some(n) = d2_note {
            let with_d2 = crt_cycles(row.d1, d2);
            t.push_noted(
                Entry::new(
                    &label,
                    format!("clock cycles, d2 = {d2}"),
                    "cycles",
                    None,
                    0,
                    with_d2 as f64,
                ),
                n,
            );
            t.push_noted(
                Entry::new(
                    &label,
                    format!("time with CRT, d2 = {d2}"),
                    "ms",
                    None,
                    3,
                    time_ms(with_d2, CLOCK_MHZ),
                ),
                n,
            );
        }
        let reachable = total(&crt_worst_case(digits_for(row.r), d2, row.r / 2));
        t.push_noted(
            Entry::new(
                &label,
                "clock cycles, |Dp| = |Dq| = R/2 bits",
                "cycles",
                None,
                0,
                reachable as f64,
            ),
            attainable,
        );
    }
    t
}

fn table3() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 3"),
        "Comparison for 1024-bit RSA decryption (execution time, throughput)",
    );
    let others = t.note(
        "Other works: the throughput is Table 3's rule, 1024 bits / execution time, applied to the time the paper \
         prints for them (their times are theirs, not modelled).",
    );
    for (work, time) in [
        ("Blum [3]", 11.95),
        ("Nakano [16]", 2.52),
        ("Suzuki [18]", 1.71),
        ("Mazzeo [12]", 3.86),
        ("Alho [1]", 28.0),
        ("Itoh [11]", 11.7),
    ] {
        let paper = match work {
            "Blum [3]" => 85.690,
            "Nakano [16]" => 406.349,
            "Suzuki [18]" => 598.830,
            "Mazzeo [12]" => 265.285,
            "Alho [1]" => 36.571,
            _ => 87.521,
        };
        t.push_noted(
            Entry::new(
                work,
                "throughput",
                "kbit/s",
                Some(paper),
                3,
                throughput_kbps(1024, 1, time),
            ),
            others,
        );
    }
    let plain = time_ms(plain_cycles(1024), CLOCK_MHZ_PREVIOUS);
    push_or_note(
        &mut t,
        Entry::new("previous work [4]", "execution time", "ms", Some(36.401), 3, plain),
        |e| {
            format!(
                "[4] worst case: {} cycles at 447.027 MHz = {:.4} ms, which Table 2 prints as 36.402; Table 3 prints \
             36.401 but its own throughput 28.130 kbit/s is 1024 / 36.402 (1024 / 36.401 = {:.3}).",
                plain_cycles(1024),
                e.model,
                throughput_kbps(1024, 1, 36.401),
            )
        },
    );
    t.push(Entry::new(
        "previous work [4]",
        "throughput",
        "kbit/s",
        Some(28.130),
        3,
        throughput_kbps(1024, 1, plain),
    ));
    let cycles = crt_cycles(digits_for(1024), digits_for(512));
    let one = time_ms(cycles, CLOCK_MHZ);
    t.push(Entry::new(
        "this work (1 core)",
        "execution time",
        "ms",
        Some(13.737),
        3,
        one,
    ));
    t.push(Entry::new(
        "this work (1 core)",
        "throughput",
        "kbit/s",
        Some(74.542),
        3,
        throughput_kbps(1024, 1, one),
    ));
    let many = time_ms(cycles, CLOCK_MHZ_MULTICORE);
    t.push(Entry::new(
        "this work (320 cores)",
        "execution time",
        "ms",
        Some(14.228),
        3,
        many,
    ));
    let paper_tp = 23_031.370;
    let tp = throughput_kbps(1024, PAPER_CORES, many);
    push_or_note(
        &mut t,
        Entry::new("this work (320 cores)", "throughput", "kbit/s", Some(paper_tp), 3, tp),
        |e| {
            format!(
                "320 · 1024 bits / ({cycles} cycles / 325.098 MHz = {many:.6} ms) = {:.3} kbit/s. The paper's {paper_tp:.3} \
             is the same rule at {:.5} MHz: the synthesis clock before Table 1 rounded it to 325.098, presumably \
             (a {:.3} kbit/s rounding difference).",
                e.model,
                325.098 * paper_tp / tp,
                e.model_rounded() - paper_tp,
            )
        },
    );
    let core = Fdfm {
        m: Modulus::new(&Big::pow2(1023).add(&Big::one()), digits_for(1024)),
    };
    let load = core.parallel_cycles(0, PAPER_CORES);
    let loading = t.note(format!(
        "Not printed: §5.3 loads the inputs through the shift-register chain in 320·d1 = {load} cycles and calls \
         that small beside Eq. 10; Table 3's throughput leaves it out (the next blocks can be shifted in while the \
         cores compute). Counting it once per block (parallel_cycles) gives this figure."
    ));
    t.push_noted(
        Entry::new(
            "this work (320 cores)",
            "loading cycles 320·d1",
            "cycles",
            None,
            0,
            load as f64,
        ),
        loading,
    );
    let with_load = time_ms(core.parallel_cycles(cycles, PAPER_CORES), CLOCK_MHZ_MULTICORE);
    t.push_noted(
        Entry::new(
            "this work (320 cores)",
            "throughput, loading included",
            "kbit/s",
            None,
            3,
            throughput_kbps(1024, PAPER_CORES, with_load),
        ),
        loading,
    );
    t
}

fn fig6() -> Table {
    let mut t = Table::new(
        format!("{FILE} Fig. 6"),
        "Embedded multiplier utilization rate MM_mul / MM_clk (Eq. 7 / Eq. 8)",
    );
    let util = |r: usize| {
        let c = mm_counts(digits_for(r), digits_for(r));
        (100.0 * c.mul as f64 / c.clk as f64, 100.0 * c.dsp as f64 / c.clk as f64)
    };
    let first90 = (1..)
        .find(|&d| {
            let c = mm_counts(d, d);
            10 * c.mul > 9 * c.clk
        })
        .unwrap_or(0);
    let [(u501, i501), (u512, i512), (u1024, i1024), (u2048, i2048)] = [501, 512, 1024, 2048].map(util);
    let eq7 = t.note(format!(
        "Fig. 6 prints no values; §5.1.2 claims more than 90 % for R > 500, more than 95 % at 1024 bits and more \
         than 97 % at 2048 bits. Eq. 7 / Eq. 8, (2d^2 + d) / (2d^2 + 8d + 4), gives {u501:.2} % at R = 501 (d = 30), \
         {u512:.2} % at 512 (d = 31), {u1024:.2} % at 1024 (d = 61) and {u2048:.2} % at 2048 (d = 121): the 500- and \
         1024-bit claims fail by the paper's own equations (Eq. 7 / Eq. 8 first exceeds 90 % at d = {first90}, \
         R >= {}).",
        17 * (first90 - 1) - 2,
    ));
    let dsp = t.note(format!(
        "Not printed: counting every product the DSP slice issues, 2(d + 1) per outer iteration (the zero digits X_d, \
         M_d included) plus 2 for q, over Eq. 8 gives {i501:.2} %, {i512:.2} %, {i1024:.2} % and {i2048:.2} %, which \
         meets all three claims: probably what Fig. 6 plotted."
    ));
    for (r, (u, i)) in [
        (501, (u501, i501)),
        (512, (u512, i512)),
        (1024, (u1024, i1024)),
        (2048, (u2048, i2048)),
    ] {
        let label = format!("R={r}");
        t.push_noted(
            Entry::new(&label, "MM_mul / MM_clk (Eq. 7 / Eq. 8)", "%", None, 2, u),
            eq7,
        );
        t.push_noted(Entry::new(&label, "DSP issues / MM_clk", "%", None, 2, i), dsp);
    }
    t
}

fn text_figures() -> Table {
    let mut t = Table::new(
        format!("{FILE} abstract, §1, §6"),
        "Figures the text prints for 1024-bit decryption",
    );
    let cycles = crt_cycles(digits_for(1024), digits_for(512));
    let crt = time_ms(cycles, CLOCK_MHZ);
    let plain = time_ms(plain_cycles(1024), CLOCK_MHZ_PREVIOUS);
    t.push(Entry::new(
        "abstract",
        "1024-bit decryption time",
        "ms",
        Some(13.74),
        2,
        crt,
    ));
    t.push(Entry::new(
        "§1",
        "1024-bit decryption cycles",
        "cycles",
        Some(4_625_348.0),
        0,
        cycles as f64,
    ));
    push_or_note(
        &mut t,
        Entry::new("§6", "1024-bit decryption time", "ms", Some(11.263), 3, crt),
        |e| {
            format!(
                "§6 says 11.263 ms; the abstract, §1, Table 2 and Table 3 give {cycles} cycles / 336.7 MHz = {:.3} ms. \
             11.263 ms would take {:.1} MHz or {:.0} cycles: no figure of the paper's.",
                e.model,
                cycles as f64 / 11.263e3,
                11.263e3 * CLOCK_MHZ,
            )
        },
    );
    t.push(Entry::new("§6", "speedup over [4]", "x", Some(2.6), 1, plain / crt));
    t.push(Entry::new(
        "§1",
        "speedup over [4] (approximately)",
        "x",
        Some(3.0),
        0,
        plain / crt,
    ));
    let bound = t.note(format!(
        "§6's \"at most 4 times\" at the same clock is §4's R^3 / (R^3/4) estimate; the counted ratio at 447.027 MHz \
         is {} / {cycles} = {:.3}.",
        plain_cycles(1024),
        plain_cycles(1024) as f64 / cycles as f64,
    ));
    t.push_noted(
        Entry::new(
            "§6",
            "speedup at the same clock (at most)",
            "x",
            Some(4.0),
            0,
            plain_cycles(1024) as f64 / cycles as f64,
        ),
        bound,
    );
    let tp = throughput_kbps(1024, PAPER_CORES, time_ms(cycles, CLOCK_MHZ_MULTICORE)) / 1e3;
    t.push(Entry::new(
        "abstract",
        "320-core throughput",
        "Mbit/s",
        Some(23.03),
        2,
        tp,
    ));
    t.push(Entry::new("§6", "320-core throughput", "Mbit/s", Some(23.031), 3, tp));
    t
}
