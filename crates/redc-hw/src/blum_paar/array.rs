//! 002 §3.2 Alg. 3.2 on §4.2–4.3's systolic array: m + 3 radix-2^k units,
//! one iteration per sweep, two interleaved products per slot; the array on
//! one modulus as a [`Circuit`].

use redc::kernel::consts::neg_inv;

use super::ram::Ram;
use super::{ARCH, DEFAULT_RADIX, MAX_RADIX, RADIX2, table1_row};
use crate::{Arch, Big, Circuit, ExpRun, HwError, ProductRun, Reg, Step};

/// `x` as `len` little-endian k-bit digits (higher bits dropped).
fn split(x: &Big, k: u32, len: usize) -> Vec<u32> {
    let words = x.digits();
    let k = k as usize;
    let mask = (1u64 << k) - 1;
    (0..len)
        .map(|j| {
            let (w, off) = (j * k / 64, j * k % 64);
            let low = words.get(w).map_or(0, |v| v >> off);
            let high = if off > 0 && off + k > 64 {
                words.get(w + 1).map_or(0, |v| v << (64 - off))
            } else {
                0
            };
            // Masked to k <= 16 bits: the truncation keeps every bit.
            ((low | high) & mask) as u32
        })
        .collect()
}

/// The number whose little-endian k-bit digits are `d` (each below 2^k).
fn join(d: &[u32], k: u32) -> Big {
    let k = k as usize;
    let mut words = vec![0u64; (d.len() * k).div_ceil(64) + 1];
    for (j, &v) in d.iter().enumerate() {
        let (w, off) = (j * k / 64, j * k % 64);
        words[w] |= u64::from(v) << off;
        if off + k > 64 {
            words[w + 1] |= u64::from(v) >> (64 - off);
        }
    }
    Big::from_digits(words)
}

/// Which of the paper's designs the array is (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Design {
    /// 002's radix-2^k array (§4; k = 4 in the paper): slots of
    /// `2^k − 2 + 2(m+3)` cycles, Table 1's radix-16 clock.
    HighRadix,
    /// The radix-2 design of reference \[8\]: k = 1, slots of `2(m+4)`
    /// cycles (§5.2), Table 1's radix-2 clock.
    Radix2,
}

/// What one clock cycle of a slot does.
#[derive(Debug, Clone, Copy)]
enum Cycle {
    /// \[8\]'s design loads B, once for each of the two products (our
    /// reading of the two cycles beyond 2(m+3) in §5.2's 2(m+4)).
    Load,
    /// The B/M~-adder writes B-RAM row `t` (`t·B`).
    Multiple(usize),
    /// Iteration `i` of Alg. 3.2 for the product in phase `phase` (0: the
    /// squaring or lone product, 1: the interleaved multiplication).
    Iteration { i: usize, phase: usize },
}

/// The Blum–Paar array loaded with one modulus.
#[derive(Debug, Clone)]
pub struct BlumPaar {
    /// Which design.
    design: Design,
    /// The user's modulus M.
    pub(super) n: Big,
    /// Digit width k (radix 2^k).
    k: u32,
    /// Digits of M: `ceil(bits(M)/k)`.
    pub(super) m: usize,
    /// `M~ = (M' mod 2^k)·M`.
    m_tilde: Big,
    /// `C = 2^(2k(m+2)) mod M`.
    pre_factor: Big,
    /// The M~-RAMs of units 0 ..= m+1: `t·M~`, filled when M is loaded.
    m_ram: Ram,
}

impl BlumPaar {
    /// The array for modulus `n` with k-bit digits.
    ///
    /// Preconditions (checked): `n` odd and `n >= 3`, else
    /// [`HwError::Modulus`]; `1 <= k <= 16`, else [`HwError::Radix`].
    /// Postconditions: `m = ceil(bits(n)/k)`, `M~ ≡ −1 (mod 2^k)`,
    /// `4M~ < 2^(k(m+2))`, M~-RAM rows `0 ..= 2^k−1` filled.
    pub fn new(n: &Big, k: u32) -> Result<Self, HwError> {
        Self::of(Design::HighRadix, n, k)
    }

    /// Reference \[8\]'s radix-2 design for modulus `n` (k = 1; module
    /// docs). Preconditions and postconditions as [`BlumPaar::new`].
    pub fn radix2(n: &Big) -> Result<Self, HwError> {
        Self::of(Design::Radix2, n, 1)
    }

    /// Which design this is.
    pub fn design(&self) -> Design {
        self.design
    }

    fn of(design: Design, n: &Big, k: u32) -> Result<Self, HwError> {
        let name = match design {
            Design::HighRadix => ARCH.name,
            Design::Radix2 => RADIX2.name,
        };
        if !(1..=MAX_RADIX).contains(&k) {
            return Err(HwError::Radix {
                arch: name,
                radix: k,
                allowed: "1 to 16 (k bits, radix 2^k)",
            });
        }
        if !n.is_odd() || n.is_one() {
            return Err(HwError::Modulus(format!(
                "{name} needs an odd modulus M >= 3; got {}",
                if n.is_odd() { "M = 1" } else { "an even M" }
            )));
        }
        let m = n.bits().div_ceil(k as usize);
        // M' = −M^(−1) mod 2^k.
        let m_prime = neg_inv(n.digits()[0], k);
        let m_tilde = n.mul(&Big::from_u64(m_prime));
        let pre_factor = crate::pow2_mod(2 * k as usize * (m + 2), n);
        let mut m_ram = Ram::new(&split(&m_tilde, k, m + 2), k);
        for t in 2..1usize << k {
            m_ram.fill(t);
        }
        Ok(Self {
            design,
            n: n.clone(),
            k,
            m,
            m_tilde,
            pre_factor,
            m_ram,
        })
    }

    /// `M~ = (M' mod 2^k)·M`, the modulus the array reduces by (Alg. 3.2).
    pub fn m_tilde(&self) -> &Big {
        &self.m_tilde
    }

    /// The pre-computation factor `C = 2^(2k(m+2)) mod M` (§3.2).
    pub fn pre_factor(&self) -> &Big {
        &self.pre_factor
    }

    /// Units in the array: m + 3 (§4.3).
    pub fn units(&self) -> usize {
        self.m + 3
    }

    /// The clock cycles of one slot, in order.
    fn schedule(&self) -> impl Iterator<Item = Cycle> {
        let units = self.units();
        let loads = if self.design == Design::Radix2 { 2 } else { 0 };
        std::iter::repeat_n(Cycle::Load, loads)
            .chain((2..1usize << self.k).map(Cycle::Multiple))
            .chain((0..units).flat_map(|i| (0..2).map(move |phase| Cycle::Iteration { i, phase })))
    }

    /// One iteration of Alg. 3.2 (steps 3 and 4) over all units: `s` holds
    /// `S_i` on entry and `S_(i+1)` on return; returns `q_i`.
    fn iterate(&self, b_ram: &Ram, s: &mut [u32], a_i: u32) -> u32 {
        let k = self.k;
        let mask = (1u32 << k) - 1;
        let top = self.m + 2;
        let q = s[0];
        let m_row = self.m_ram.row(q);
        let b_row = b_ram.row(a_i);
        let mut carry = 0u32;
        for j in 0..=top {
            let mv = m_row.get(j).copied().unwrap_or(0);
            let bv = j.checked_sub(1).map_or(0, |w| b_row[w]);
            let t = s[j] + mv + bv + carry;
            if j == 0 {
                debug_assert_eq!(t & mask, 0, "Alg. 3.2: S_i + q_i·M~ ≡ 0 (mod 2^k)");
            } else {
                s[j - 1] = t & mask;
            }
            carry = t >> k;
        }
        debug_assert!(
            carry <= mask,
            "S_(i+1) < 2^(k(m+3)): unit m+2's overflow fits its digit"
        );
        s[top] = carry;
        q
    }

    /// One slot: the B-RAM filled with multiples of `b`, then the m+3
    /// iterations of up to two products `MONT(operands[p], b)` interleaved.
    /// Returns the outputs and the cycles counted. With `trace`, the state
    /// of product 0 after each of its iterations.
    ///
    /// Preconditions: `b` and every operand below 2M~, at most two operands.
    pub(super) fn slot(&self, b: &Big, operands: &[&Big], mut trace: Option<&mut Vec<Step>>) -> (Vec<Big>, u64) {
        let (k, units) = (self.k, self.units());
        let mut b_ram = Ram::new(&split(b, k, self.m + 2), k);
        let a: Vec<Vec<u32>> = operands.iter().map(|x| split(x, k, units)).collect();
        let mut s = vec![vec![0u32; units]; a.len()];
        let mut cycles = 0u64;
        for cycle in self.schedule() {
            cycles += 1;
            match cycle {
                Cycle::Load => {}
                Cycle::Multiple(t) => b_ram.fill(t),
                Cycle::Iteration { i, phase } => {
                    if let (Some(s), Some(a)) = (s.get_mut(phase), a.get(phase)) {
                        let q = self.iterate(&b_ram, s, a[i]);
                        if phase == 0
                            && let Some(trace) = trace.as_mut()
                        {
                            trace.push(Step {
                                iteration: i,
                                regs: vec![
                                    Reg {
                                        name: "S",
                                        bits: k as usize * units,
                                        value: join(s, k),
                                    },
                                    Reg {
                                        name: "q",
                                        bits: k as usize,
                                        value: Big::from_u64(u64::from(q)),
                                    },
                                    Reg {
                                        name: "a",
                                        bits: k as usize,
                                        value: Big::from_u64(u64::from(a[i])),
                                    },
                                ],
                            });
                        }
                    }
                }
            }
        }
        (s.iter().map(|s| join(s, k)).collect(), cycles)
    }

    /// Checks `x < 2M~`.
    fn check_operand(&self, name: &'static str, x: &Big) -> Result<(), HwError> {
        if *x < self.operand_bound() {
            Ok(())
        } else {
            Err(HwError::Operand {
                name,
                bound: "2M~".into(),
            })
        }
    }
}

impl Circuit for BlumPaar {
    fn arch(&self) -> &'static Arch {
        match self.design {
            Design::HighRadix => &ARCH,
            Design::Radix2 => &RADIX2,
        }
    }

    fn modulus(&self) -> &Big {
        &self.n
    }

    fn digit_bits(&self) -> u32 {
        self.k
    }

    /// m = ceil(bits(M)/k), the digits of M (Alg. 3.2).
    fn digits(&self) -> usize {
        self.m
    }

    /// k(m+2): `S_(m+3) ≡ A·B·2^(-k(m+2))` (Alg. 3.2, `R = 2^(k(m+2))`).
    fn r_log2(&self) -> usize {
        self.k as usize * (self.m + 2)
    }

    /// 2M~ (Alg. 3.2: `A, B < 2M~`, and so is the output).
    fn operand_bound(&self) -> Big {
        self.m_tilde.shl(1)
    }

    /// Alg. 3.2 on the array: `S_(m+3)`, exactly
    /// `mont_product_exact(a, b, M~, k(m+2))`, below 2M~; one lone product
    /// in a slot (2m + 20 cycles at k = 4). Trace: `S` (`S_(i+1)`, k(m+3)
    /// bits), `q` (`q_i`) and `a` (`a_i`), k bits each, per iteration i.
    fn multiply(&self, a: &Big, b: &Big, trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError> {
        self.check_operand("a", a)?;
        self.check_operand("b", b)?;
        let (mut out, cycles) = self.slot(b, &[a], trace);
        Ok(ProductRun {
            value: out.pop().unwrap_or_else(Big::zero),
            cycles,
        })
    }

    /// `2^k − 2 + 2(m+3)` cycles (002's design) or `2(m+4)` (\[8\]'s),
    /// counted over the slot's schedule.
    fn product_cycles(&self) -> u64 {
        self.schedule().count() as u64
    }

    /// Alg. 3.1 with §3.2's pre- and post-computation on the array (see
    /// the module docs): `n + 2` slots for an n-bit exponent.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        self.right_to_left(base, exp)
    }

    /// What the array is loaded with besides M (§3.2, Alg. 3.2): `mprime`
    /// = M' = −M⁻¹ mod 2^k (k bits), `mtilde` = M~ = (M' mod 2^k)·M (the
    /// modulus it reduces by) and `prefactor` = C = 2^(2k(m+2)) mod M.
    fn constants(&self) -> Vec<Reg> {
        let k = self.k as usize;
        vec![
            Reg {
                name: "mprime",
                bits: k,
                value: Big::from_u64(neg_inv(self.n.digits()[0], self.k)),
            },
            Reg {
                name: "mtilde",
                bits: self.n.bits() + k,
                value: self.m_tilde.clone(),
            },
            Reg {
                name: "prefactor",
                bits: self.n.bits(),
                value: self.pre_factor.clone(),
            },
        ]
    }

    /// Table 1: 1000 / T of the smallest design holding M (the radix-16
    /// row, or the radix-2 row for \[8\]'s design).
    fn clock_mhz(&self) -> f64 {
        1000.0 / table1_row(self.design, self.n.bits()).2
    }
}

/// The array for modulus `n`; `radix` is k (default 4, the paper's; 1 to
/// 16). Errors as [`BlumPaar::new`].
pub fn build(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    Ok(Box::new(BlumPaar::new(n, radix.unwrap_or(DEFAULT_RADIX))?))
}

/// Reference \[8\]'s radix-2 design for modulus `n`; `radix` must be `None`
/// or 1 ([`HwError::Radix`] otherwise). Other errors as [`BlumPaar::new`].
pub fn build_radix2(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    if let Some(k) = radix.filter(|&k| k != 1) {
        return Err(HwError::Radix {
            arch: RADIX2.name,
            radix: k,
            allowed: "1 (radix 2)",
        });
    }
    Ok(Box::new(BlumPaar::radix2(n)?))
}
