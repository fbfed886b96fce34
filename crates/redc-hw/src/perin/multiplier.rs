//! 004's two multipliers on one modulus: the systolic array (§4.1) and the
//! multiplexed array of arithmetic cores (§4.2), Algorithm 1 without final
//! subtraction (§2), as a [`Circuit`].

use redc::kernel::consts::neg_inv;

use super::datapath::{Datapath, pack, to_words};
use super::exp::Method;
use super::schedule::Event;
use super::{CORE_WORDS, Layout, check};
use crate::{Arch, Big, Circuit, ExpRun, HwError, ProductRun, Reg, Step};

/// One of the paper's two multipliers loaded with a modulus.
#[derive(Debug, Clone)]
pub struct Perin {
    pub(super) layout: Layout,
    pub(super) n: Big,
    /// Radix 2^k.
    pub(super) k: u32,
    /// Words (and PEs, and iterations).
    pub(super) m: usize,
    /// N in k-bit words (the PE registers or the cores' RAMs).
    pub(super) n_words: Vec<u64>,
    /// N' = −N^{−1} mod 2^k.
    pub(super) n_prime: u64,
    /// R mod N and R² mod N, from the host.
    pub(super) r_mod_n: Big,
    pub(super) r2_mod_n: Big,
    /// n_MM, from one walk of the schedule at construction.
    pub(super) cycles: u64,
}

/// Builds a model of `arch` ([`super::SYSTOLIC`] or [`super::MULTIPLEXED`]) for the
/// odd modulus `n >= 3`; `radix` is k (`None` → 16).
pub fn build(arch: &Arch, n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    Ok(Box::new(Perin::new(arch, n, radix)?))
}

impl Perin {
    /// The model of `arch` for the odd modulus `n >= 3` in radix 2^k,
    /// k = `radix` (16 or 32; `None` → 16). Sizes as in the module docs.
    pub fn new(arch: &Arch, n: &Big, radix: Option<u32>) -> Result<Self, HwError> {
        let Some(layout) = Layout::of(arch) else {
            return Err(HwError::unsupported(format!(
                "{} is not an architecture of the perin paper",
                arch.name()
            )));
        };
        let k = radix.unwrap_or(16);
        if k != 16 && k != 32 {
            return Err(HwError::Radix {
                arch: arch.name(),
                radix: k,
                allowed: "16 or 32",
            });
        }
        if !n.is_odd() || n.is_one() {
            return Err(HwError::Modulus(format!("{} needs an odd modulus n >= 3", arch.name())));
        }
        let words = (n.bits() + 2).div_ceil(k as usize).max(2);
        let m = match layout {
            Layout::Multiplexed => words.div_ceil(CORE_WORDS) * CORE_WORDS,
            Layout::Systolic => words,
        };
        let r = k as usize * m;
        let mut model = Self {
            layout,
            n: n.clone(),
            k,
            m,
            n_words: to_words(n, k, m),
            n_prime: neg_inv(n.digits()[0], k),
            r_mod_n: crate::pow2_mod(r, n),
            r2_mod_n: crate::pow2_mod(2 * r, n),
            cycles: 0,
        };
        model.cycles = model.walk(|_| {});
        Ok(model)
    }

    /// Number of arithmetic cores of the multiplexed array (m/4), `None` for
    /// the systolic one.
    pub fn arithmetic_cores(&self) -> Option<usize> {
        (self.layout == Layout::Multiplexed).then_some(self.m / CORE_WORDS)
    }

    /// Bits of the operand block RAMs: A and B (m words each) for both, plus
    /// the cores' 8×k-bit RAMs of B and N words in the multiplexed array.
    pub(super) fn ram_bits(&self) -> usize {
        let operands = 2 * self.m * self.k as usize;
        operands
            + self
                .arithmetic_cores()
                .map_or(0, |c| c * 2 * CORE_WORDS * self.k as usize)
    }
}

impl Circuit for Perin {
    fn arch(&self) -> &'static Arch {
        self.layout.arch()
    }

    fn modulus(&self) -> &Big {
        &self.n
    }

    fn digit_bits(&self) -> u32 {
        self.k
    }

    fn digits(&self) -> usize {
        self.m
    }

    fn r_log2(&self) -> usize {
        self.k as usize * self.m
    }

    /// 2N (Algorithm 1: A, B < 2N; the output is below 2N as 4N < R).
    fn operand_bound(&self) -> Big {
        self.n.shl(1)
    }

    /// Algorithm 1 on the circuit: m iterations, each the quotient block then
    /// the m words in order. Preconditions: a, b < 2N. Postcondition: the
    /// value is `mont_product_exact(a, b, N, k·m)` < 2N. One trace step per
    /// iteration: a_i, q_i (k bits), the carry registers of all words
    /// (word j at bit j·w) and S_{i+1} (k·m bits).
    fn multiply(&self, a: &Big, b: &Big, mut trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError> {
        let bound = self.operand_bound();
        check(a, &bound, "a", "2n")?;
        check(b, &bound, "b", "2n")?;
        let carry_regs = if self.layout == Layout::Multiplexed { 3 } else { 1 };
        let mut dp = Datapath {
            model: self,
            mask: (1u64 << self.k) - 1,
            a: to_words(a, self.k, self.m),
            b: to_words(b, self.k, self.m),
            s: vec![0; self.m],
            a_i: 0,
            q_i: 0,
            carries: vec![vec![0; self.m]; carry_regs],
        };
        let cycles = self.walk(|event| match event {
            Event::Quotient(i) => dp.quotient(i),
            Event::Word(j) => dp.word(j),
            Event::Done(i) => {
                if let Some(t) = trace.as_deref_mut() {
                    t.push(Step {
                        iteration: i,
                        regs: dp.regs(),
                    });
                }
            }
        });
        Ok(ProductRun {
            value: pack(&dp.s, self.k as usize),
            cycles,
        })
    }

    /// n_MM: 6m (systolic, §4.1) or 8m (multiplexed, §4.2), as counted by the
    /// schedule walk.
    fn product_cycles(&self) -> u64 {
        self.cycles
    }

    /// Algorithm 2 (left-to-right square and multiply) with X̄ = mont(X,
    /// R² mod N) before and mont(A, 1) after; see the module docs.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        self.run_exponentiation(base, exp, Method::SquareMultiply)
    }

    /// §6's ladder ([`Perin::ladder`]).
    fn ladder(&self, base: &Big, exp: &Big) -> Option<Result<ExpRun, HwError>> {
        Some(Perin::ladder(self, base, exp))
    }

    /// What the array is loaded with besides N (§2, §4.3): `nprime` = N' =
    /// −N⁻¹ mod 2^k (k bits), `r_mod_n` = R mod N and `r2_mod_n` = R² mod N
    /// with R = 2^(k·m), from the host.
    fn constants(&self) -> Vec<Reg> {
        let bits = self.n.bits();
        vec![
            Reg {
                name: "nprime",
                bits: self.k as usize,
                value: Big::from_u64(self.n_prime),
            },
            Reg {
                name: "r_mod_n",
                bits,
                value: self.r_mod_n.clone(),
            },
            Reg {
                name: "r2_mod_n",
                bits,
                value: self.r2_mod_n.clone(),
            },
        ]
    }

    /// Table 1, Virtex-5.
    fn clock_mhz(&self) -> f64 {
        match (self.layout, self.k) {
            (Layout::Systolic, 16) => 130.0,
            (Layout::Systolic, _) => 95.0,
            (_, 16) => 120.0,
            _ => 90.0,
        }
    }
}
