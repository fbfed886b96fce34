//! Garg and Vig, "An Efficient Montgomery Multiplication Algorithm and RSA
//! Cryptographic Processor": `../shared/papers/003_4c508dab9c4d2fd2.txt`.
//!
//! Two carry-save Montgomery multipliers and the RSA processor built on them:
//!
//! * [`RADIX2`] (`csa-radix2`): §II Algorithm I (McIvor et al., ref. 3), radix 2, one
//!   four-to-two carry-save adder (CSA) per iteration, the multiplexer
//!   choosing 0, n, B or D = B + n;
//! * [`RADIX4`] (`csa-radix4`): §III Algorithm II (Kamala and Shrinivas, ref. 9),
//!   "multi-bit shifting": two bits of A per iteration, a four-to-two CSA
//!   adding 0, B, 2B or 3B, then a three-to-two CSA adding 0, n, 2n or 3n;
//! * [`Circuit::exponentiate`]: §IV Algorithm III, right-to-left
//!   square-and-multiply with every operand kept in carry-save form.
//!
//! # Size parameter and operand range
//!
//! `k` is the bit length of n (§II: "'n' is a 'k'-bit modulus"; Tables I and
//! II index their rows by it). Operands and results are carry-save pairs
//! (X1, X2) standing for X1 + X2, and the circuits never subtract n: inputs
//! below 2n give outputs below 2n when R = 2^r > 4n (Walter's bound). For a
//! k-bit n that needs r = k + 2, so:
//!
//! * Alg. I runs k + 2 iterations (i = 0..k+1; the paper prints
//!   `for i in 0 to k-1` but claims k + 2 clock cycles), r = k + 2;
//! * Alg. II runs ⌈k/2⌉ + 1 iterations (the paper prints ⌈k/2⌉), r = 2⌈k/2⌉ + 2
//!   (k + 2 for even k, k + 3 for odd k).
//!
//! [`operand_bound`](Circuit::operand_bound) is 2n for both; the output
//! equals [`mont_product_exact`](crate::reference::mont_product_exact)`(a, b, n, r)`.
//!
//! # What differs from the printed algorithms
//!
//! The text was extracted from a PDF; every reading below was checked
//! against the reference arithmetic (tests/carry_save.rs shows each one):
//!
//! * Alg. I's four `if` lines are printed identically (`Ai = 0 and qi = 0`,
//!   adding 0 + 0); the four cases are (Ai, qi) = 00, 01, 10, 11 adding
//!   0, n, (B1, B2) and (D1, D2).
//! * Alg. II step 2a maps `{a2i+1, a2i} == 10` to B and `01` to {B, 0} = 2B:
//!   swapped (step 2d maps `01` to n and `10` to {n, 0}); the model adds
//!   digit · B.
//! * Alg. II step 2c takes `{q2i+1, q2i}` = S mod 4, the quotient digit only
//!   when n ≡ 3 (mod 4) (then −n⁻¹ ≡ 1). The model keeps 2c and wires the 2d
//!   multiplexer for the modulus: its input j is (j · n′ mod 4) · n with
//!   n′ = −n⁻¹ mod 4, which is the paper's 0, n, 2n, 3n for n ≡ 3 (mod 4) and
//!   0, 3n, 2n, n for n ≡ 1 (mod 4), at no extra delay.
//! * Alg. II step 2f selects `S[i+1]k-1:2`, k-bit registers, but the partial
//!   sums reach 3n (k + 2 bits); the model's S registers are k + 2 bits wide.
//!
//! # Carry-save conventions
//!
//! `CSR(w + x + y + z)` is two rows of full adders, FA(w, x, y) and then FA of
//! their sum, carry and z; `CSR(x + y + z)` is one row. The first output of a
//! CSR is the carry vector (least significant bit 0), the second the sum
//! vector: Alg. II step 2c needs that (q2i = S2[i+1]0 is the total's low bit
//! only if S1's is 0), and the model uses it throughout. The bits of A come
//! from a serial adder on the low bits of (A1, A2) with a carry flip-flop,
//! A1 and A2 shifted right each iteration (§II, §III Figure 2); it runs in
//! parallel with the CSAs and takes no cycle.
//!
//! # Alg. III
//!
//! The printed loop `for i in 0 to dk` ends in `R1[k], R2[k]`, so it runs
//! i = 0..t−1 over the t bits of the exponent: 002_aa2657bb2bc73547.txt
//! Alg. 3.1 (P squared every iteration, R multiplied by the old P when the
//! bit is 1, both at once on two multipliers). `P[0]` and `R[0]` take one
//! product time each, as listed, and `MontMult(1, R)` one more: t + 3 product
//! times, which is what Table II's throughputs imply for e = 2^16 + 1 (20).
//! K is R² mod n = 2^(2r) mod n (the paper's 2^(2k) fits only its printed
//! k-iteration product). `M = M1 + M2` is at most n; the host maps n to 0.
//!
//! # Cycles
//!
//! One iteration is one clock: §II and §III give each iteration's whole
//! critical path (6X + M + A and 9X + 2M + A) as one cycle, and count the
//! pre-computation of D = B + n or 3B as 4 XOR delays, not a cycle. Alg. I
//! thus takes k + 2 cycles, as the paper says; Alg. II takes ⌈k/2⌉ + 1, not
//! the k + 1 the paper claims (see [`tables`]).

use crate::reference::pow2_mod;
use crate::{Arch, Big, Circuit, CrtSupport, Entry, ExpRun, HwError, Paper, ProductRun, Reg, Step, Table};

const PAPER: &str = "003_4c508dab9c4d2fd2.txt";

/// Alg. I, the radix-2 carry-save multiplier, as the registry lists it.
pub static RADIX2: Arch = Arch {
    name: "csa-radix2",
    paper: Paper::CarrySave,
    build: |n, radix| build(&RADIX2, n, radix),
    crt: CrtSupport::Unmodelled,
};

/// Alg. II, the radix-4 carry-save multiplier, as the registry lists it.
pub static RADIX4: Arch = Arch {
    name: "csa-radix4",
    paper: Paper::CarrySave,
    build: |n, radix| build(&RADIX4, n, radix),
    crt: CrtSupport::Unmodelled,
};

/// Clock cycles one iteration of Alg. I or Alg. II takes.
const CYCLES_PER_ITERATION: u64 = 1;

/// The public exponent of Table II's tests, 2^16 + 1 (§IV).
const TABLE2_EXPONENT: u64 = (1 << 16) + 1;

/// A number Z in carry-save form: the pair (X1, X2) with Z = X1 + X2 (§II).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pair {
    /// X1 (the carry vector when a CSA wrote the pair).
    pub x1: Big,
    /// X2 (the sum vector when a CSA wrote the pair).
    pub x2: Big,
}

impl Pair {
    /// (x, 0): a binary number entering the circuit, as Alg. III passes
    /// `K, 0`, `C, 0` and `1, 0`.
    pub fn binary(x: Big) -> Self {
        Self { x1: x, x2: Big::zero() }
    }

    /// X1 + X2: what a carry-propagate adder would make of the pair.
    pub fn value(&self) -> Big {
        self.x1.add(&self.x2)
    }
}

/// One carry-save product: the pair the circuit leaves in (S1, S2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairRun {
    /// (S1, S2) after the last iteration.
    pub value: Pair,
    /// Clock cycles, counted per iteration.
    pub cycles: u64,
}

/// A delay in §III's units: X (XOR), M (4:1 multiplexer), A (AND gate).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GateDelay {
    /// XOR delays.
    pub xor: u64,
    /// 4:1 multiplexer delays.
    pub mux: u64,
    /// AND gate delays.
    pub and: u64,
}

impl GateDelay {
    const XOR: Self = Self { xor: 1, mux: 0, and: 0 };
    const MUX: Self = Self { xor: 0, mux: 1, and: 0 };
    const AND: Self = Self { xor: 0, mux: 0, and: 1 };

    fn times(self, n: u64) -> Self {
        Self {
            xor: self.xor * n,
            mux: self.mux * n,
            and: self.and * n,
        }
    }

    fn plus(self, o: Self) -> Self {
        Self {
            xor: self.xor + o.xor,
            mux: self.mux + o.mux,
            and: self.and + o.and,
        }
    }
}

/// A fixed-width bit vector (a register or a CSA row), little-endian words.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Vector(Vec<u64>);

impl Vector {
    fn zero(words: usize) -> Self {
        Self(vec![0; words])
    }

    fn from_big(x: &Big, words: usize) -> Self {
        let d = x.to_digits_padded(words);
        debug_assert_eq!(d.len(), words, "value wider than the register");
        Self(d)
    }

    fn to_big(&self) -> Big {
        Big::from_digits(self.0.clone())
    }

    /// Bit `i` of the low word (i < 64).
    fn bit(&self, i: u32) -> u64 {
        (self.0[0] >> i) & 1
    }

    /// The low `bits` bits (bits < 64).
    fn low(&self, bits: u32) -> u64 {
        self.0[0] & ((1 << bits) - 1)
    }

    /// Shift right by `s` places, 0 < s < 64 (a wired selection of the high bits).
    fn shr(&self, s: u32) -> Self {
        let w = &self.0;
        let from_above = |i: usize| w.get(i + 1).map_or(0, |&h| h << (64 - s));
        Self((0..w.len()).map(|i| (w[i] >> s) | from_above(i)).collect())
    }

    /// Shift left by `s` places, 0 < s < 64 (`{X, 0}` for s = 1); nothing may fall off.
    fn shl(&self, s: u32) -> Self {
        let w = &self.0;
        debug_assert_eq!(w[w.len() - 1] >> (64 - s), 0, "register overflow");
        let from_below = |i: usize| if i == 0 { 0 } else { w[i - 1] >> (64 - s) };
        Self((0..w.len()).map(|i| (w[i] << s) | from_below(i)).collect())
    }
}

/// One row of full adders, a three-to-two CSA: `(carry, sum)` with
/// sum = x ⊕ y ⊕ z and carry = maj(x, y, z) shifted up one place.
fn full_adders(x: &Vector, y: &Vector, z: &Vector) -> (Vector, Vector) {
    let sum = Vector(x.0.iter().zip(&y.0).zip(&z.0).map(|((a, b), c)| a ^ b ^ c).collect());
    let maj = Vector(
        x.0.iter()
            .zip(&y.0)
            .zip(&z.0)
            .map(|((a, b), c)| (a & b) | (c & (a ^ b)))
            .collect(),
    );
    (maj.shl(1), sum)
}

/// `CSR(w + x + y + z)`: the four-to-two CSA of §II Figure 1, two levels of
/// full adders. Returns `(carry, sum)`.
fn csr4(w: &Vector, x: &Vector, y: &Vector, z: &Vector) -> (Vector, Vector) {
    let (c, s) = full_adders(w, x, y);
    full_adders(&c, &s, z)
}

/// The serial adder that feeds A's digits (§II; §III Figure 2): adds the low
/// `rho` bits of A1 and A2 and the carry flip-flop, keeps the carry-out, and
/// shifts A1 and A2 right by `rho`. Returns the digit (Ai or {a2i+1, a2i}).
fn next_digit(a1: &mut Vector, a2: &mut Vector, carry: &mut u64, rho: u32) -> u64 {
    let t = a1.low(rho) + a2.low(rho) + *carry;
    *carry = t >> rho;
    *a1 = a1.shr(rho);
    *a2 = a2.shr(rho);
    t & ((1 << rho) - 1)
}

/// Which algorithm, with what it needs beyond n.
#[derive(Debug, Clone)]
enum Form {
    /// Alg. I.
    Radix2,
    /// Alg. II, with step 2d's multiplexer inputs indexed by {q2i+1, q2i}.
    Radix4 { n_mux: [Vector; 4] },
}

/// One of the two multipliers of 003 loaded with a modulus (see the module
/// documentation for k, the iteration counts and the conventions).
#[derive(Debug, Clone)]
pub struct CarrySave {
    arch: &'static Arch,
    n: Big,
    k: usize,
    iterations: usize,
    words: usize,
    n_vec: Vector,
    form: Form,
}

impl CarrySave {
    /// The model of `arch` ([`RADIX2`] or [`RADIX4`]) for the odd modulus
    /// `n >= 3`; `radix` is `None` or the digit width in bits, 1 for
    /// [`RADIX2`] and 2 for [`RADIX4`].
    pub fn new(arch: &'static Arch, n: &Big, radix: Option<u32>) -> Result<Self, HwError> {
        let rho = if *arch == RADIX2 {
            1
        } else if *arch == RADIX4 {
            2
        } else {
            return Err(HwError::unsupported(format!(
                "{} is not an architecture of {PAPER}",
                arch.name()
            )));
        };
        if let Some(r) = radix.filter(|&r| r != rho) {
            let allowed = if rho == 1 { "1 (radix 2)" } else { "2 (radix 4)" };
            return Err(HwError::Radix {
                arch: arch.name(),
                radix: r,
                allowed,
            });
        }
        if !n.is_odd() || n.bits() < 2 {
            return Err(HwError::Modulus(format!(
                "{} needs an odd modulus of at least 3, not {n}",
                arch.name()
            )));
        }
        let k = n.bits();
        // The widest value in the datapath: Alg. II's S + 3B + 3n < 12n < 2^(k+4).
        let words = (k + 4).div_ceil(64);
        let n_vec = Vector::from_big(n, words);
        let (iterations, form) = if rho == 1 {
            (k + 2, Form::Radix2)
        } else {
            // n' = −n⁻¹ mod 4: 1 for n ≡ 3, 3 for n ≡ 1 (an odd n is its own inverse mod 4).
            let n_prime = 4 - n.low_bits(2).digits()[0];
            let n_mux = [0, 1, 2, 3].map(|j| Vector::from_big(&n.mul(&Big::from_u64(j * n_prime % 4)), words));
            (k.div_ceil(2) + 1, Form::Radix4 { n_mux })
        };
        Ok(Self {
            arch,
            n: n.clone(),
            k,
            iterations,
            words,
            n_vec,
            form,
        })
    }

    /// Bits of A one iteration consumes: 1 (Alg. I) or 2 (Alg. II).
    fn rho(&self) -> u32 {
        match self.form {
            Form::Radix2 => 1,
            Form::Radix4 { .. } => 2,
        }
    }

    /// Iterations of the main loop per product: k + 2 (Alg. I) or
    /// ⌈k/2⌉ + 1 (Alg. II).
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// The critical path of one clock cycle, from the paper's itemised
    /// analysis: Alg. I (§II) 4:2 CSA 4X + 4:1 MUX + qi 2X + A = 6X + M + A;
    /// Alg. II (§III) steps 2a M, 2b 4X, 2c X, 2d M, 2e 2X, 2f A + 2X =
    /// 9X + 2M + A.
    pub fn cycle_delay(&self) -> GateDelay {
        let x = GateDelay::XOR;
        let steps: &[GateDelay] = match self.form {
            Form::Radix2 => &[x.times(4), GateDelay::MUX, x.times(2).plus(GateDelay::AND)],
            Form::Radix4 { .. } => &[
                GateDelay::MUX,
                x.times(4),
                x,
                GateDelay::MUX,
                x.times(2),
                GateDelay::AND.plus(x.times(2)),
            ],
        };
        steps.iter().fold(GateDelay::default(), |acc, &s| acc.plus(s))
    }

    /// Latency of one product in gate delays (§III): the model's cycle count
    /// times [`cycle_delay`](Self::cycle_delay), plus the 4 XOR of the
    /// pre-computation's four-to-two CSA.
    pub fn latency(&self) -> GateDelay {
        self.cycle_delay()
            .times(self.product_cycles())
            .plus(GateDelay::XOR.times(4))
    }

    /// Alg. I or II on carry-save operands, with the operand check.
    ///
    /// Preconditions: `a.value()` and `b.value()` below 2n (else
    /// [`HwError::Operand`]). Postcondition: the result's value is
    /// `mont_product_exact(a, b, n, r_log2)`, below 2n.
    pub fn multiply_pairs(&self, a: &Pair, b: &Pair, trace: Option<&mut Vec<Step>>) -> Result<PairRun, HwError> {
        self.check(a, "a")?;
        self.check(b, "b")?;
        Ok(self.run(a, b, trace))
    }

    fn check(&self, x: &Pair, name: &'static str) -> Result<(), HwError> {
        if x.value() < self.operand_bound() {
            Ok(())
        } else {
            Err(HwError::Operand {
                name,
                bound: "2n".into(),
            })
        }
    }

    /// The main loop of Alg. I (§II) or Alg. II (§III), one iteration per
    /// clock. Preconditions: A, B below 2n.
    fn run(&self, a: &Pair, b: &Pair, mut trace: Option<&mut Vec<Step>>) -> PairRun {
        let w = self.words;
        let zero = Vector::zero(w);
        let (b1, b2) = (Vector::from_big(&b.x1, w), Vector::from_big(&b.x2, w));
        // The multiplexer inputs, computed before the loop (the 4X of
        // pre-computation): Alg. I adds 0, n, B or D by (Ai, qi); Alg. II
        // adds 0, B, 2B or 3B by {a2i+1, a2i}.
        let mux: [(Vector, Vector); 4] = match self.form {
            // D1, D2 = CSR(B1 + B2 + n + 0).
            Form::Radix2 => [
                (zero.clone(), zero.clone()),
                (self.n_vec.clone(), zero.clone()),
                (b1.clone(), b2.clone()),
                csr4(&b1, &b2, &self.n_vec, &zero),
            ],
            // Step 1b: (B1_3, B2_3) = CSR({B1, 0} + B1 + {B2, 0} + B2).
            Form::Radix4 { .. } => {
                let (d1, d2) = (b1.shl(1), b2.shl(1));
                let b3 = csr4(&d1, &b1, &d2, &b2);
                [(zero.clone(), zero.clone()), (b1.clone(), b2.clone()), (d1, d2), b3]
            }
        };
        let rho = self.rho();
        let (mut a1, mut a2, mut carry) = (Vector::from_big(&a.x1, w), Vector::from_big(&a.x2, w), 0);
        let (mut s1, mut s2) = (zero.clone(), zero);
        let mut cycles = 0;
        for i in 0..self.iterations {
            let digit = next_digit(&mut a1, &mut a2, &mut carry, rho);
            let q = match &self.form {
                Form::Radix2 => {
                    // qi = (S1[i]0 + S2[i]0) + Ai·(B10 + B20) mod 2.
                    let q = s1.bit(0) ^ s2.bit(0) ^ (digit & (b1.bit(0) ^ b2.bit(0)));
                    let (x1, x2) = &mux[(2 * digit + q) as usize];
                    // S1[i+1], S2[i+1] = CSR(S1[i] + S2[i] + X1 + X2) div 2.
                    let (c, s) = csr4(&s1, &s2, x1, x2);
                    debug_assert_eq!(c.bit(0) | s.bit(0), 0, "Alg. I: odd before the shift");
                    (s1, s2) = (c.shr(1), s.shr(1));
                    q
                }
                Form::Radix4 { n_mux } => {
                    // 2a, 2b: (S1, S2) = CSR(S1 + S2 + BB1 + BB2).
                    let (x1, x2) = &mux[digit as usize];
                    let (c, s) = csr4(&s1, &s2, x1, x2);
                    // 2c: {q2i+1, q2i} = (S1_1 xor S2_1, S2_0).
                    let q = ((c.bit(1) ^ s.bit(1)) << 1) | s.bit(0);
                    // 2d, 2e: (S1, S2) = CSR(S1 + S2 + N).
                    let (c, s) = full_adders(&c, &s, &n_mux[q as usize]);
                    debug_assert_eq!((c.low(2) + s.low(2)) % 4, 0, "Alg. II: not divisible by 4");
                    // 2f: drop the two low bits; their carry, S1_1 · S2_1, goes back in.
                    let (h1, h2) = (c.shr(2), s.shr(2));
                    (s1, s2) = if c.bit(1) & s.bit(1) == 1 {
                        full_adders(&h1, &h2, &Vector::from_big(&Big::one(), w))
                    } else {
                        (h1, h2)
                    };
                    q
                }
            };
            cycles += CYCLES_PER_ITERATION;
            if let Some(t) = trace.as_deref_mut() {
                t.push(self.step(i, [&s1, &s2, &a1, &a2], [carry, digit, q]));
            }
        }
        debug_assert_eq!(carry, 0, "A's digits exhausted");
        PairRun {
            value: Pair {
                x1: s1.to_big(),
                x2: s2.to_big(),
            },
            cycles,
        }
    }

    /// The registers after iteration `i`: S1, S2 (k + 2 bits), A1, A2
    /// (k + 1 bits, shifted), the serial adder's carry, A's digit and the
    /// quotient digit (one bit each in Alg. I, two in Alg. II).
    fn step(&self, i: usize, vectors: [&Vector; 4], small: [u64; 3]) -> Step {
        let (k, rho) = (self.k, self.rho() as usize);
        let names = match self.form {
            Form::Radix2 => ["S1", "S2", "A1", "A2", "c", "Ai", "qi"],
            Form::Radix4 { .. } => ["S1", "S2", "A1", "A2", "c", "{a2i+1,a2i}", "{q2i+1,q2i}"],
        };
        let bits = [k + 2, k + 2, k + 1, k + 1, 1, rho, rho];
        let values = vectors.into_iter().map(Vector::to_big).chain(small.map(Big::from_u64));
        let regs = names
            .into_iter()
            .zip(bits)
            .zip(values)
            .map(|((name, bits), value)| Reg { name, bits, value });
        Step {
            iteration: i,
            regs: regs.collect(),
        }
    }

    /// The RSA processor's clock (Table II) for this architecture at this size.
    fn rsa_clock_mhz(&self) -> f64 {
        row_for(table2_rows(self.arch), self.k).mhz
    }
}

/// One product time of Alg. III's schedule (§IV): the products in it run at
/// once on the processor's two multipliers.
#[derive(Debug, Clone, Copy)]
enum Slot {
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
    fn products(self) -> u64 {
        match self {
            Slot::Bit(true) => 2,
            _ => 1,
        }
    }
}

/// Alg. III's product times for exponent `d`, in order: `P[0]`, then `R[0]`
/// (the listing computes them one after the other), one iteration per bit
/// of d (i = 0..t−1 for a t-bit d, as 002 Alg. 3.1), and the conversion back.
fn alg3_slots(d: &Big) -> impl Iterator<Item = Slot> + '_ {
    [Slot::EnterP, Slot::EnterR]
        .into_iter()
        .chain((0..d.bits()).map(|i| Slot::Bit(d.bit(i))))
        .chain([Slot::Leave])
}

impl Circuit for CarrySave {
    fn arch(&self) -> &'static Arch {
        self.arch
    }

    fn modulus(&self) -> &Big {
        &self.n
    }

    fn digit_bits(&self) -> u32 {
        self.rho()
    }

    fn digits(&self) -> usize {
        self.k
    }

    fn r_log2(&self) -> usize {
        self.iterations * self.rho() as usize
    }

    /// 2n: inputs below 2n give outputs below 2n (R > 4n).
    fn operand_bound(&self) -> Big {
        self.n.shl(1)
    }

    /// Alg. I or II on (a, 0) and (b, 0); the value is S1 + S2.
    fn multiply(&self, a: &Big, b: &Big, trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError> {
        let run = self.multiply_pairs(&Pair::binary(a.clone()), &Pair::binary(b.clone()), trace)?;
        Ok(ProductRun {
            value: run.value.value(),
            cycles: run.cycles,
        })
    }

    fn product_cycles(&self) -> u64 {
        self.iterations as u64 * CYCLES_PER_ITERATION
    }

    /// Alg. III (§IV): K = R² mod n = 2^(2r) mod n from the host (the paper's
    /// 2^(2k) belongs to its printed k-iteration product), P and R kept in
    /// carry-save form, squaring and multiplication of one iteration in
    /// parallel, cycles summed per product time. The final MontMult(1, R)
    /// leaves M1 + M2 ≤ n (equal to n only when the result is 0 mod n): the
    /// model adds the pair and subtracts n in that case, the host's part.
    ///
    /// Precondition: `base` below n (else [`HwError::Operand`]).
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        if base >= &self.n {
            return Err(HwError::Operand {
                name: "base",
                bound: "n".into(),
            });
        }
        let k_const = Pair::binary(pow2_mod(2 * self.r_log2(), &self.n));
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

    /// Table I's clock for this architecture: the row of the smallest
    /// printed bit length at least k (the 2048-bit row above 2048 bits).
    fn clock_mhz(&self) -> f64 {
        row_for(table1_rows(self.arch), self.k).mhz
    }
}

/// Builds the model of `arch` for `n` (see [`CarrySave::new`]).
pub fn build(arch: &'static Arch, n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    Ok(Box::new(CarrySave::new(arch, n, radix)?))
}

/// One row of Table I or II as printed.
struct Row {
    k: usize,
    device: &'static str,
    mhz: f64,
    mhz_decimals: u32,
    slices: f64,
    mbps: f64,
    mbps_decimals: u32,
}

const fn row(k: usize, device: &'static str, mhz: (f64, u32), slices: f64, mbps: (f64, u32)) -> Row {
    Row {
        k,
        device,
        mhz: mhz.0,
        mhz_decimals: mhz.1,
        slices,
        mbps: mbps.0,
        mbps_decimals: mbps.1,
    }
}

/// Table I: the multipliers.
const TABLE1_ALG1: [Row; 3] = [
    row(512, "XC2V1500", (122.03, 2), 5782.0, (121.55, 2)),
    row(1024, "XC2V3000", (111.32, 2), 11520.0, (111.10, 2)),
    row(2048, "XC2V6000", (90.73, 2), 23108.0, (90.64, 2)),
];
const TABLE1_ALG2: [Row; 3] = [
    row(512, "XC4VSX35", (179.746, 3), 4187.0, (179.746, 3)),
    row(1024, "XC4VSX35", (161.645, 3), 8724.0, (161.645, 3)),
    row(2048, "XC4VSX55", (131.032, 3), 17520.0, (131.032, 3)),
];
/// Table II: the RSA processors.
const TABLE2_ALG1: [Row; 2] = [
    row(512, "XC2V3000", (96.27, 2), 11196.0, (4.79, 2)),
    row(1024, "XC2V6000", (93.34, 2), 22075.0, (4.66, 2)),
];
const TABLE2_ALG2: [Row; 2] = [
    row(512, "XC4VSX35", (138.293, 3), 13676.0, (6.90, 2)),
    row(1024, "XC4VSX35", (123.211, 3), 28891.0, (6.16, 2)),
];

fn table1_rows(arch: &Arch) -> &'static [Row] {
    if *arch == RADIX2 { &TABLE1_ALG1 } else { &TABLE1_ALG2 }
}

fn table2_rows(arch: &Arch) -> &'static [Row] {
    if *arch == RADIX2 { &TABLE2_ALG1 } else { &TABLE2_ALG2 }
}

/// The row of the smallest bit length at least `k`, else the largest.
fn row_for(rows: &'static [Row], k: usize) -> &'static Row {
    rows.iter().find(|r| r.k >= k).unwrap_or(&rows[rows.len() - 1])
}

/// The model for a `k`-bit modulus in the tables: n = 2^k − 1 (only k matters).
fn model_for(arch: &'static Arch, k: usize) -> CarrySave {
    let n = Big::pow2(k).checked_sub(&Big::one()).expect("k >= 2");
    CarrySave::new(arch, &n, None).expect("odd modulus, default radix")
}

fn algo(arch: &Arch) -> &'static str {
    if *arch == RADIX2 { "Algo1" } else { "Algo2" }
}

/// Mbit/s: `k` bits in `cycles` cycles at `mhz`.
fn mbps(k: usize, mhz: f64, cycles: u64) -> f64 {
    k as f64 * mhz / cycles as f64
}

/// Adds `entry`; one that differs from the paper gets the note `why()`
/// (entries with the same explanation share one note).
fn push_checked(t: &mut Table, entry: Entry, why: impl FnOnce() -> String) {
    if entry.matches() {
        t.push(entry);
    } else {
        let text = why();
        let n = t
            .notes
            .iter()
            .position(|n| *n == text)
            .map_or_else(|| t.note(text), |i| i + 1);
        t.push_noted(entry, n);
    }
}

/// The paper's tables beside the model: Table I (the multipliers) and
/// Table II (the RSA processors with e = 2^16 + 1). Throughputs come from
/// the models' cycle counting rules ([`Circuit::product_cycles`] and
/// Alg. III's product times); frequencies and areas are the paper's
/// synthesis results, which the model takes as inputs.
pub fn tables() -> Vec<Table> {
    vec![table1(), table2()]
}

fn table1() -> Table {
    let mut t = Table::new(
        format!("{PAPER} Table I"),
        "Frequency, area and throughput of the Montgomery multipliers (Alg. I and II)",
    );
    let inputs = t.note(
        "Frequency and area are the paper's place-and-route results; the model does not estimate them and \
         uses them as given (the clock is clock_mhz()).",
    );
    for arch in [&RADIX2, &RADIX4] {
        for r in table1_rows(arch) {
            let m = model_for(arch, r.k);
            let (k, cycles) = (r.k, m.product_cycles());
            let label = format!("{} {k} ({})", algo(arch), r.device);
            let entry = |column: &str, unit, paper: f64, decimals, model| {
                Entry::new(&label, column, unit, Some(paper), decimals, model)
            };
            t.push_noted(entry("frequency", "MHz", r.mhz, r.mhz_decimals, m.clock_mhz()), inputs);
            t.push_noted(entry("area", "slices", r.slices, 0, r.slices), inputs);
            let model = mbps(k, m.clock_mhz(), cycles);
            push_checked(
                &mut t,
                entry("throughput", "Mbit/s", r.mbps, r.mbps_decimals, model),
                || throughput_note(r, cycles),
            );
            // The cycle counts the text claims: §I "k+2" for [3]'s 4:2 CSA, §III "K+1" for Alg. II.
            let claimed = if *arch == RADIX2 { k + 2 } else { k + 1 };
            push_checked(
                &mut t,
                entry("cycles per product", "cycles", claimed as f64, 0, cycles as f64),
                || {
                    "§III claims K+1 cycles, but Alg. II as printed loops ⌈k/2⌉ times (two bits of A per iteration) \
                 and its own critical-delay analysis puts a whole iteration (steps 2a to 2f, 9X + 2M + A) in one \
                 cycle; the model runs ⌈k/2⌉ + 1 iterations (one more than printed, for the 2n bound), one cycle \
                 each. K+1 = 2·⌈k/2⌉ + 1 (even k) is what two cycles per printed iteration plus one would take, or \
                 the radix-2 count carried over."
                        .to_string()
                },
            );
            // The printed loop bounds: Alg. I "for i in 0 to k-1", Alg. II "0 to [k/2]-1".
            let printed = if *arch == RADIX2 { k } else { k.div_ceil(2) };
            let iterations = m.iterations() as f64;
            push_checked(
                &mut t,
                entry("loop iterations (as printed)", "", printed as f64, 0, iterations),
                || iterations_note(arch),
            );
        }
    }
    t
}

/// Why a Table I throughput differs: truncation (Algo1 512) or Algo2's
/// throughput being its clock.
fn throughput_note(r: &Row, cycles: u64) -> String {
    let (k, f) = (r.k, r.mhz);
    let model = mbps(k, f, cycles);
    let scale = 10f64.powi(r.mbps_decimals as i32);
    if (model * scale).trunc() / scale == r.mbps {
        return format!(
            "k·f/cycles = {k} × {f} / {cycles} = {model:.4} Mbit/s rounds to {:.2}; the paper prints {:.2}, the \
             figure truncated rather than rounded (its other Algo1 rows round).",
            (model * scale).round() / scale,
            r.mbps
        );
    }
    format!(
        "The paper's Algo2 throughput equals its clock, k bits in k cycles ({k} × {f} / {k} = {f}); that is \
         neither its own k+1 claim ({k} × {f} / {} = {:.3}) nor the {cycles} cycles of the radix-4 loop the model \
         runs ({k} × {f} / {cycles} = {model:.3}).",
        k + 1,
        mbps(k, f, k as u64 + 1)
    )
}

fn iterations_note(arch: &Arch) -> String {
    let text = if *arch == RADIX2 {
        "Alg. I prints 'for i in 0 to k-1' (k iterations, R = 2^k), yet the text claims k+2 cycles, and the \
         carry-save operands (A, B < 2n, no final subtraction) need R > 4n, r = k+2 for a k-bit n: with r = k an \
         output reaches almost 5n. The model runs i = 0..k+1, k+2 iterations."
    } else {
        "Alg. II prints 'for i in 0 to [k/2]-1' (⌈k/2⌉ iterations, R = 4^⌈k/2⌉ ≤ 2^(k+1)), which cannot keep \
         outputs below 2n for inputs below 2n (R > 4n needs 2·iterations ≥ k+2); the model runs ⌈k/2⌉ + 1."
    };
    text.to_string()
}

fn table2() -> Table {
    let mut t = Table::new(
        format!("{PAPER} Table II"),
        "Frequency, area and throughput of the RSA processors (Alg. III, public exponent 2^16 + 1)",
    );
    let inputs = t.note(
        "Frequency and area are the paper's place-and-route results, taken as given (the RSA processor's clock, \
         not the multiplier's of Table I). Each processor is about twice its multiplier of Table I (Algo1: 11,196 \
         / 5,782 and 22,075 / 11,520 slices), consistent with Alg. III's squaring and multiplication running on \
         two multipliers at once.",
    );
    let e = Big::from_u64(TABLE2_EXPONENT);
    let slots = alg3_slots(&e).count() as u64;
    let products: u64 = alg3_slots(&e).map(Slot::products).sum();
    let rsa = |s: u64| mbps(512, TABLE2_ALG1[0].mhz, s * (512 + 2));
    let schedule = t.note(format!(
        "Alg. III with e = 2^16 + 1 ({} bits): P[0] and R[0] one after the other (2 product times), {} loop \
         iterations, each a squaring of P with R·P beside it when d[i] = 1 (no dependency, as in 002 Alg. 3.1), \
         and MontMult(1, R): {slots} product times, {products} Montgomery products (the last squaring's result is \
         unused). The paper's Algo1 throughputs imply exactly {slots}: 512 × 96.27 / ({slots} × 514) = {:.4}, \
         while {} or {} product times would give {:.2} or {:.2}.",
        e.bits(),
        e.bits(),
        rsa(slots),
        slots - 1,
        slots + 1,
        rsa(slots - 1),
        rsa(slots + 1),
    ));
    for arch in [&RADIX2, &RADIX4] {
        for r in table2_rows(arch) {
            let m = model_for(arch, r.k);
            let cycles = slots * m.product_cycles();
            let label = format!("{} {} ({})", algo(arch), r.k, r.device);
            let entry =
                |column: &str, unit, paper, decimals, model| Entry::new(&label, column, unit, paper, decimals, model);
            t.push_noted(
                entry("frequency", "MHz", Some(r.mhz), r.mhz_decimals, m.rsa_clock_mhz()),
                inputs,
            );
            t.push_noted(entry("area", "slices", Some(r.slices), 0, r.slices), inputs);
            let model = mbps(r.k, m.rsa_clock_mhz(), cycles);
            push_checked(
                &mut t,
                entry("throughput", "Mbit/s", Some(r.mbps), r.mbps_decimals, model),
                || algo2_rsa_note(r, slots, m.product_cycles()),
            );
            t.push_noted(
                entry("product times per encryption", "", None, 0, slots as f64),
                schedule,
            );
            t.push_noted(
                entry("Montgomery products per encryption", "", None, 0, products as f64),
                schedule,
            );
            t.push_noted(
                entry("clock cycles per encryption", "cycles", None, 0, cycles as f64),
                schedule,
            );
        }
    }
    t
}

/// Why an Algo2 row of Table II differs: which cycle count its figure fits.
fn algo2_rsa_note(r: &Row, slots: u64, cycles: u64) -> String {
    let (k, f) = (r.k, r.mhz);
    let with = |c: u64| mbps(k, f, slots * c);
    let scale = 10f64.powi(r.mbps_decimals as i32);
    let fits = |c: u64| (with(c) * scale).round() / scale == r.mbps;
    let which = match (fits(k as u64 + 1), fits(k as u64)) {
        (true, false) => "k+1 cycles per product, not k",
        (false, true) => "k cycles per product, not the k+1 of §III",
        _ => "no single cycle count",
    };
    format!(
        "Throughput = k·f / ({slots} product times × cycles per product) = {k} × {f} / ({slots} × {cycles}) = \
         {:.3} with the model's radix-4 loop. The paper's {:.2} fits {which}: {k} × {f} / ({slots} × {}) = {:.4}, \
         / ({slots} × {k}) = {:.4}. Table II's other Algo2 row fits the other count (k+1 at 512 bits, k at 1024), \
         so the rows use different counts, and neither is the loop's.",
        with(cycles),
        r.mbps,
        k + 1,
        with(k as u64 + 1),
        with(k as u64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: u64) -> Vector {
        Vector::from_big(&Big::from_u64(x), 2)
    }

    #[test]
    fn full_adder_row_keeps_the_sum_and_a_zero_carry_bit() {
        for (x, y, z) in [(0, 0, 0), (1, 1, 1), (0xDEAD, 0xBEEF, 0xF00D), (u64::MAX, u64::MAX, 1)] {
            let (c, s) = full_adders(&v(x), &v(y), &v(z));
            assert_eq!(c.bit(0), 0);
            assert_eq!(
                c.to_big().add(&s.to_big()),
                Big::from_u64(x).add(&Big::from_u64(y)).add(&Big::from_u64(z))
            );
        }
        let (c, s) = csr4(&v(7), &v(5), &v(3), &v(1));
        assert_eq!((c.to_big(), s.to_big()), (Big::from_u64(2), Big::from_u64(14)));
    }

    #[test]
    fn serial_adder_yields_the_digits_of_the_sum() {
        let (x1, x2) = (0b1011_0111u64, 0b0110_1101u64);
        for rho in [1, 2] {
            let (mut a1, mut a2, mut c) = (v(x1), v(x2), 0);
            let digits: Vec<u64> = (0..10 / rho)
                .map(|_| next_digit(&mut a1, &mut a2, &mut c, rho))
                .collect();
            let sum = digits.iter().rev().fold(0, |acc, d| (acc << rho) | d);
            assert_eq!(sum, x1 + x2);
        }
    }

    #[test]
    fn shifts_cross_words() {
        let x = Vector(vec![1 << 63, 1]);
        assert_eq!(x.shr(1), Vector(vec![1 << 62 | 1 << 63, 0]));
        assert_eq!(x.shr(2).shl(2), x);
    }
}
