//! 003 §II Alg. I and §III Alg. II: the radix-2 and radix-4 carry-save
//! Montgomery multipliers on one modulus, one iteration per clock, operands
//! and results in carry-save form; as a [`Circuit`].

use super::adders::{Vector, csr4, full_adders, next_digit};
use super::synthesis::{row_for, table1_rows};
use super::{FILE, RADIX2, RADIX4};
use crate::{Arch, Big, Circuit, ExpRun, HwError, ProductRun, Reg, Step};

/// Clock cycles one iteration of Alg. I or Alg. II takes.
pub(super) const CYCLES_PER_ITERATION: u64 = 1;

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

/// Which algorithm, with what it needs beyond n.
#[derive(Debug, Clone)]
pub(super) enum Form {
    /// Alg. I.
    Radix2,
    /// Alg. II, with step 2d's multiplexer inputs indexed by {q2i+1, q2i}.
    Radix4 { n_mux: [Vector; 4] },
}

/// One of the two multipliers of 003 loaded with a modulus (see the module
/// documentation for k, the iteration counts and the conventions).
#[derive(Debug, Clone)]
pub struct CarrySave {
    pub(super) arch: &'static Arch,
    pub(super) n: Big,
    pub(super) k: usize,
    iterations: usize,
    words: usize,
    n_vec: Vector,
    pub(super) form: Form,
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
                "{} is not an architecture of {FILE}",
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

    /// `Ok` if the pair's value is below 2n, else the operand error for `name`.
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
    pub(super) fn run(&self, a: &Pair, b: &Pair, mut trace: Option<&mut Vec<Step>>) -> PairRun {
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

    /// Alg. III (§IV): right-to-left square-and-multiply on two multipliers,
    /// operands in carry-save form.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        self.rsa_processor(base, exp)
    }

    /// Alg. II's constants (none for Alg. I): `nprime` = −n⁻¹ mod 4 (2
    /// bits), which maps {q2i+1, q2i} to the multiple of n step 2d adds, and
    /// `n3` = 3n (k + 2 bits), the multiple precomputed beside 0, n and 2n.
    fn constants(&self) -> Vec<Reg> {
        match self.form {
            Form::Radix2 => Vec::new(),
            Form::Radix4 { .. } => vec![
                Reg {
                    name: "nprime",
                    bits: 2,
                    value: Big::from_u64(4 - self.n.low_bits(2).digits()[0]),
                },
                Reg {
                    name: "n3",
                    bits: self.k + 2,
                    value: self.n.mul(&Big::from_u64(3)),
                },
            ],
        }
    }

    /// Table I's clock for this architecture: the row of the smallest
    /// printed bit length at least k (the 2048-bit row above 2048 bits).
    fn clock_mhz(&self) -> f64 {
        row_for(table1_rows(self.arch), self.k).mhz
    }

    /// Table II's clock of the RSA processor (Alg. III) built around this
    /// multiplier, the row of the smallest printed length at least k (the
    /// 1024-bit row above): the processor's figures use it, not Table I's.
    fn processor_clock_mhz(&self, cores: u32) -> f64 {
        let _ = cores;
        self.rsa_clock_mhz()
    }
}

/// Builds the model of `arch` for `n` (see [`CarrySave::new`]).
pub fn build(arch: &'static Arch, n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    Ok(Box::new(CarrySave::new(arch, n, radix)?))
}
