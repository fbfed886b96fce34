//! Blum and Paar's high-radix Montgomery exponentiator: a systolic array of
//! radix-2^k processing elements (paper `002_aa2657bb2bc73547.txt`, §3.1
//! Alg. 3.1, §3.2 Alg. 3.2, §4.2–4.4 the unit, the array and the
//! exponentiator, §5 Tables 1–4, §6–7 the comparison figures).
//!
//! # The multiplication (Alg. 3.2, after Orup)
//!
//! With `M' = -M^(-1) mod 2^k` and `M~ = (M' mod 2^k)·M`, `M~ ≡ -1 (mod 2^k)`,
//! so the quotient digit is simply `q_i = S_i mod 2^k` and the loop is
//!
//! ```text
//! S_0 = 0;  for i = 0 ..= m+2:  q_i = S_i mod 2^k;  S_(i+1) = (S_i + q_i·M~)/2^k + a_i·B
//! ```
//!
//! `S_(m+3) = (A·B + Q·M~) / 2^(k(m+2))` for the one `Q < 2^(k(m+2))` that
//! makes the division exact — [`crate::reference::mont_product_exact`] with
//! modulus `M~` and `r = k(m+2)` — hence `S_(m+3) ≡ A·B·2^(-k(m+2))` modulo
//! `M~` and modulo `M`: the paper's `R = 2^(k(m+2))` is [`Circuit::r_log2`].
//!
//! **Size parameter.** `m = ceil(bits(M)/k)`, the number of k-bit digits of
//! `M` (Alg. 3.2 writes `M = Σ_(i<m) 2^(ki) m_i`); `m = 128` for a 512-bit
//! modulus at k = 4 is what Tables 2–4 are computed with. Then `M~ < 2^(k(m+1))`
//! (m+1 digits), `B` has m+2 digits and `A` m+3 digits with `a_(m+2) = 0`, as
//! Alg. 3.2 states. Alg. 3.2 prints the precondition as `4M~ < 2^(km)`, which
//! fails for this m (M~ ≥ M ≥ 2^(k(m-1)), usually much more); the bound the
//! algorithm needs for `A, B < 2M~ ⇒ S_(m+3) < 2M~` is `4M~ < 2^(k(m+2))`,
//! and that holds for every odd M and every k, since
//! `4M~ < 4(2^k-1)·2^(km) ≤ 2^(k(m+2))`. The model uses that reading (a test
//! shows the printed one failing).
//!
//! # The array (§4.2, §4.3)
//!
//! m+3 units, numbered 0 ..= m+2 from the right. Unit `j` holds digit `j` of
//! `S` (k bits; unit m+2 holds the top digit, the "temporarily occurring
//! overflow") and computes column `j` of `S_i + q_i·M~ + 2^k·a_i·B`:
//!
//! ```text
//! t_j = s_j + M~RAM_j[q_i] + BRAM_j[a_i] + c_j,   c_(j+1) = t_j >> k,   s_(j-1) ← t_j mod 2^k
//! ```
//!
//! `M~RAM_j[t]` is digit j of `t·M~` (units 0 ..= m+1; unit m+2 has no M~-RAM,
//! as the paper says), `BRAM_j[t]` is digit j−1 of `t·B` (units 1 ..= m+2; unit
//! 0 has no B-RAM, as the paper says; unit m+2's word is `t·B >> k(m+1)`, k+1
//! bits, because `B < 2M~` has one bit in digit m+1 — "the most significant
//! bit of B"). Three k-bit operands and a carry never exceed k+2 bits (the
//! paper's "internal bit length"), so carries are at most 2. Unit 0's column
//! is always 0 mod 2^k ("the four result bits S3...0 are always equal to
//! zero"); `S_out` → `S_in` of the unit to the right is the division by 2^k,
//! and unit m+2 keeps its own overflow `t_(m+2) >> k` as the new top digit.
//! `S_i < 2^k·B + M~ < 2^(k(m+3))` for every i, so m+3 digits always suffice.
//! The model evaluates each iteration as one sweep from unit 0 to unit m+2,
//! the order in which the skewed systolic schedule evaluates the columns, so
//! every unit produces the values the array produces. The RAM rows are
//! filled as the circuit fills them: `t·X = (t−1)·X + X`, one B/M~-adder pass
//! per multiple, the carries propagating to the units on the left.
//!
//! # Cycles (§4.2–4.4, §5)
//!
//! A *slot* is one B operand with up to two A operands: the squaring and the
//! multiplication of Alg. 3.1 share `B = Z_i`, so one set of B multiples
//! serves both. The slot takes
//!
//! * `2^k − 2` cycles to fill the B-RAM: rows 0 (zero) and 1 (`B` as loaded)
//!   need no addition, rows 2 ..= 2^k−1 one each;
//! * `2(m+3)` cycles for the m+3 iterations, each unit alternating between
//!   the two interleaved products (the paper's "2(m+3) cycles for the whole
//!   algorithm"; a lone product leaves every other cycle idle).
//!
//! At k = 4 that is `14 + 2(m+3) = 2m + 20`, the paper's figure for "a
//! squaring or multiplication" (§4.3). The paper's text says "2^k clock cycles
//! for calculating the 2^k multiples" and later "2^k − 1"; only 2^k − 2
//! agrees with 2m + 20 (a test shows it). The M~-RAM is filled once when the
//! modulus is loaded and is not counted, like the paper's parameter loading;
//! nor is the drain latency of m + 2 cycles after the last slot (§4.4: it
//! overlaps the next exponentiation).
//!
//! # Exponentiation (Alg. 3.1, §3.2 pre- and post-computation)
//!
//! Right-to-left square-and-multiply for an n-bit exponent (n =
//! `exp.bits()`) in n + 2 slots, `(n+2)(2m+20)` cycles at k = 4 (§4.4; §5.1's
//! `2(n+2)(m+10)`; §5.2's `2·19(m+10)` for F4 = 2^16+1, n = 17):
//!
//! 1. pre-computation: `Z_0 = MONT(X, C)` and `P_0 = MONT(1, C)` in one slot,
//!    `C = 2^(2k(m+2)) mod M` (the paper's pre-computation factor, stored
//!    with the modulus);
//! 2. for i = 0 ..= n−1: `Z_(i+1) = MONT(Z_i, Z_i)` and, where `e_i = 1`,
//!    `P_(i+1) = MONT(P_i, Z_i)` in one slot;
//! 3. post-computation: `MONT(P_n, 1)`.
//!
//! The post-computation's output is at most `M~` (not below `M`: §3.2 is
//! silent on this); the host reduces it modulo M (at most `M' mod 2^k`
//! subtractions of M), which [`Circuit::exponentiate`] does.
//!
//! # RSA (§5.2)
//!
//! [`crt_decrypt`] runs `c^(d mod (p−1)) mod p` and `c^(d mod (q−1)) mod q`
//! on two half-size arrays, one after the other (`parallel = false`: one
//! array, cycles add up) or at once (`parallel = true`: two arrays, the
//! longer one counts). `c mod p`, `d mod (p−1)` and the recombination
//! (Garner) are host work the paper does not count.
//!
//! # Clock (Table 1)
//!
//! [`Circuit::clock_mhz`] is `1000 / T` for Table 1's radix-16 period `T` of
//! the smallest design (160, 256, 512, 768, 1024 bits) that holds the
//! modulus, the 1024-bit one beyond. Table 1 measures k = 4 only; other k
//! report the same clock. Table 4's parallel CRT designs run at the clock of
//! the full-size design (two half-size arrays take the full-size device:
//! 0.79 ms and 3.10 ms need 20.7 ns and 21.9 ns), its serial ones at the
//! half-size design's.

use redc::kernel::consts::neg_inv;

use crate::table::{Entry, Table};
use crate::{Arch, Big, Circuit, CrtKey, CrtRun, CrtSupport, ExpRun, HwError, Paper, ProductRun, Reg, Step};

/// The systolic array as the registry lists it: the halves of a CRT
/// decryption run on one array after the other or on two at once (§5.2).
pub static ARCH: Arch = Arch {
    name: "blum-paar",
    paper: Paper::BlumPaar,
    build,
    crt: CrtSupport::SerialOrParallel(crt_decrypt),
};

/// The paper's digit width: k = 4, radix 16 (§4.1).
pub const DEFAULT_RADIX: u32 = 4;

/// The widest digit the model takes: k = 16 (RAMs of 2^16 words per unit;
/// the paper rules k > 4 out for area and pre-computation time, §4.1).
pub const MAX_RADIX: u32 = 16;

/// The paper's file.
const PAPER: &str = "002_aa2657bb2bc73547.txt";

/// Table 1, radix 16: design size in bits, CLBs, clock period in ns.
const TABLE1: [(usize, u32, f64); 5] = [
    (160, 1219, 20.8),
    (256, 1818, 21.3),
    (512, 3413, 20.7),
    (768, 5071, 20.1),
    (1024, 6633, 21.9),
];

/// The Table 1 row of the smallest design that holds a `bits`-bit modulus
/// (the 1024-bit row beyond 1024 bits).
fn table1_row(bits: usize) -> (usize, u32, f64) {
    TABLE1
        .into_iter()
        .find(|&(size, _, _)| size >= bits)
        .unwrap_or(TABLE1[4])
}

/// The multiples `0·X, 1·X, ..., (2^k−1)·X` as the units' RAMs hold them:
/// row `t`, word `w` is digit `w` of `t·X` (k bits; the top word keeps
/// whatever carry reaches it).
#[derive(Debug, Clone)]
struct Ram {
    /// Words per row (one per unit that has this RAM).
    words: usize,
    /// Digit width k.
    k: u32,
    /// `2^k` rows of `words` words, row-major.
    data: Vec<u32>,
}

impl Ram {
    /// The RAM with rows 0 (zero) and 1 (`base`, as loaded) written and the
    /// other rows still to be filled by [`Ram::fill`].
    fn new(base: &[u32], k: u32) -> Self {
        let words = base.len();
        let mut data = vec![0u32; words << k];
        data[words..2 * words].copy_from_slice(base);
        Self { words, k, data }
    }

    /// One B/M~-adder pass: row `t` = row `t−1` + row 1, the carries
    /// propagating to the left (`2 <= t < 2^k`).
    fn fill(&mut self, t: usize) {
        let (w, k) = (self.words, self.k);
        let mask = (1u32 << k) - 1;
        let mut carry = 0u32;
        for i in 0..w {
            let v = self.data[(t - 1) * w + i] + self.data[w + i] + carry;
            let top = i + 1 == w;
            self.data[t * w + i] = if top { v } else { v & mask };
            carry = v >> k;
        }
    }

    /// Row `t`: the words the units read at address `t`.
    fn row(&self, t: u32) -> &[u32] {
        let start = t as usize * self.words;
        &self.data[start..start + self.words]
    }
}

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

/// What one clock cycle of a slot does.
#[derive(Debug, Clone, Copy)]
enum Cycle {
    /// The B/M~-adder writes B-RAM row `t` (`t·B`).
    Multiple(usize),
    /// Iteration `i` of Alg. 3.2 for the product in phase `phase` (0: the
    /// squaring or lone product, 1: the interleaved multiplication).
    Iteration { i: usize, phase: usize },
}

/// One slot of the exponentiator (Alg. 3.1 with §3.2's pre- and
/// post-computation).
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// `Z_0 = MONT(X, C)`, `P_0 = MONT(1, C)`.
    Pre,
    /// Exponent bit `i`: `Z_(i+1) = MONT(Z_i, Z_i)`, `P_(i+1) = MONT(P_i, Z_i)` if `e_i = 1`.
    Bit(usize),
    /// `MONT(P_n, 1)`.
    Post,
}

/// The slots for an `n`-bit exponent: n + 2 of them.
fn slots(n: usize) -> impl Iterator<Item = Slot> {
    std::iter::once(Slot::Pre)
        .chain((0..n).map(Slot::Bit))
        .chain(std::iter::once(Slot::Post))
}

/// The Blum–Paar array loaded with one modulus.
#[derive(Debug, Clone)]
pub struct BlumPaar {
    /// The user's modulus M.
    n: Big,
    /// Digit width k (radix 2^k).
    k: u32,
    /// Digits of M: `ceil(bits(M)/k)`.
    m: usize,
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
        if !(1..=MAX_RADIX).contains(&k) {
            return Err(HwError::Radix {
                arch: ARCH.name,
                radix: k,
                allowed: "1 to 16 (k bits, radix 2^k)",
            });
        }
        if !n.is_odd() || n.is_one() {
            return Err(HwError::Modulus(format!(
                "blum-paar needs an odd modulus M >= 3; got {}",
                if n.is_odd() { "M = 1" } else { "an even M" }
            )));
        }
        let m = n.bits().div_ceil(k as usize);
        // M' = −M^(−1) mod 2^k.
        let m_prime = neg_inv(n.digits()[0], k);
        let m_tilde = n.mul(&Big::from_u64(m_prime));
        let pre_factor = Big::pow2(2 * k as usize * (m + 2)).rem(n).unwrap_or_else(Big::zero);
        let mut m_ram = Ram::new(&split(&m_tilde, k, m + 2), k);
        for t in 2..1usize << k {
            m_ram.fill(t);
        }
        Ok(Self {
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

    /// Cycles of an exponentiation with an `exp_bits`-bit exponent, counted
    /// slot by slot as [`Circuit::exponentiate`] runs them (without running
    /// the products).
    pub fn exponentiation_cycles(&self, exp_bits: usize) -> u64 {
        slots(exp_bits).map(|_| self.product_cycles()).sum()
    }

    /// The clock cycles of one slot, in order.
    fn schedule(&self) -> impl Iterator<Item = Cycle> {
        let units = self.units();
        (2..1usize << self.k)
            .map(Cycle::Multiple)
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
    fn slot(&self, b: &Big, operands: &[&Big], mut trace: Option<&mut Vec<Step>>) -> (Vec<Big>, u64) {
        let (k, units) = (self.k, self.units());
        let mut b_ram = Ram::new(&split(b, k, self.m + 2), k);
        let a: Vec<Vec<u32>> = operands.iter().map(|x| split(x, k, units)).collect();
        let mut s = vec![vec![0u32; units]; a.len()];
        let mut cycles = 0u64;
        for cycle in self.schedule() {
            cycles += 1;
            match cycle {
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
        &ARCH
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

    /// `2^k − 2 + 2(m+3)` cycles, counted over the slot's schedule.
    fn product_cycles(&self) -> u64 {
        self.schedule().count() as u64
    }

    /// Alg. 3.1 with the pre- and post-computation of §3.2 (see the module
    /// docs); `n + 2` slots for an n-bit exponent. Precondition (checked):
    /// `base < M`. The output of the post-computation (at most M~) is
    /// reduced modulo M by the host.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        if *base >= self.n {
            return Err(HwError::Operand {
                name: "base",
                bound: "n".into(),
            });
        }
        let one = Big::one();
        let (mut z, mut p) = (Big::zero(), Big::zero());
        let (mut cycles, mut products) = (0u64, 0u64);
        for slot in slots(exp.bits()) {
            let (mut out, c) = match slot {
                Slot::Pre => self.slot(&self.pre_factor, &[base, &one], None),
                Slot::Bit(i) if exp.bit(i) => self.slot(&z, &[&z, &p], None),
                Slot::Bit(_) => self.slot(&z, &[&z], None),
                Slot::Post => self.slot(&one, &[&p], None),
            };
            cycles += c;
            products += out.len() as u64;
            match slot {
                Slot::Post => p = out.swap_remove(0),
                _ => {
                    if out.len() == 2 {
                        p = out.swap_remove(1);
                    }
                    z = out.swap_remove(0);
                }
            }
        }
        let value = p.rem(&self.n).unwrap_or_else(Big::zero);
        Ok(ExpRun {
            value,
            cycles,
            products,
        })
    }

    /// Table 1 (radix 16): 1000 / T of the smallest design holding M.
    fn clock_mhz(&self) -> f64 {
        1000.0 / table1_row(self.n.bits()).2
    }
}

/// The array for modulus `n`; `radix` is k (default 4, the paper's; 1 to
/// 16). Errors as [`BlumPaar::new`].
pub fn build(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    Ok(Box::new(BlumPaar::new(n, radix.unwrap_or(DEFAULT_RADIX))?))
}

/// Cycles of the two CRT halves together (§5.2): one array after the other,
/// or two arrays at once.
fn crt_total(parallel: bool, p_cycles: u64, q_cycles: u64) -> u64 {
    if parallel {
        p_cycles.max(q_cycles)
    } else {
        p_cycles + q_cycles
    }
}

/// RSA decryption `c^d mod n` with the CRT on two half-size arrays (§5.2).
///
/// Preconditions (checked): `n = p·q` with p, q odd, at least 3 and coprime
/// ([`HwError::Modulus`]), `c < n` ([`HwError::Operand`]), k as in
/// [`BlumPaar::new`]. Phases: the exponentiations mod p and mod q
/// ([`Circuit::exponentiate`] each, `n_p + 2` slots for the `n_p`-bit
/// `d mod (p−1)`); `cycles` is their sum (`parallel = false`) or maximum
/// (`parallel = true`). Reductions and recombination are host work, uncounted.
pub fn crt_decrypt(key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    let k = radix.unwrap_or(DEFAULT_RADIX);
    let (array_p, array_q) = (BlumPaar::new(&key.p, k)?, BlumPaar::new(&key.q, k)?);
    if key.p.mul(&key.q) != key.n {
        return Err(HwError::Modulus("CRT key: n is not p·q".into()));
    }
    if *c >= key.n {
        return Err(HwError::Operand {
            name: "c",
            bound: "n".into(),
        });
    }
    let q_inv = key
        .q
        .inv_mod(&key.p)
        .ok_or_else(|| HwError::Modulus("CRT key: p and q are not coprime".into()))?;
    let one = Big::one();
    let half = |array: &BlumPaar, prime: &Big| -> Result<ExpRun, HwError> {
        let reduce = |x: &Big, m: &Big| x.rem(m).unwrap_or_else(Big::zero);
        let exp = reduce(&key.d, &prime.checked_sub(&one).unwrap_or_else(Big::zero));
        array.exponentiate(&reduce(c, prime), &exp)
    };
    let (run_p, run_q) = (half(&array_p, &key.p)?, half(&array_q, &key.q)?);
    // Garner: m = m_q + q·((m_p − m_q)·q^(-1) mod p).
    let diff = run_p
        .value
        .add(&key.p)
        .checked_sub(&run_q.value.rem(&key.p).unwrap_or_else(Big::zero));
    let h = diff
        .unwrap_or_else(Big::zero)
        .mul(&q_inv)
        .rem(&key.p)
        .unwrap_or_else(Big::zero);
    Ok(CrtRun {
        value: run_q.value.add(&key.q.mul(&h)),
        cycles: crt_total(parallel, run_p.cycles, run_q.cycles),
        phases: vec![
            ("c^(d mod (p-1)) mod p", run_p.cycles),
            ("c^(d mod (q-1)) mod q", run_q.cycles),
        ],
    })
}

/// The k = 4 array for a `bits`-bit modulus (cycle counts and clock depend
/// on the size only; `2^bits − 1` stands for any such modulus).
fn array(bits: usize) -> BlumPaar {
    let n = Big::pow2(bits).checked_sub(&Big::one()).unwrap_or_else(Big::zero);
    BlumPaar::new(&n, DEFAULT_RADIX).unwrap_or_else(|e| unreachable!("2^{bits} - 1 is an odd modulus: {e}"))
}

/// Milliseconds for `cycles` at `clock_mhz`.
fn ms(cycles: u64, clock_mhz: f64) -> f64 {
    cycles as f64 / clock_mhz / 1000.0
}

/// Adds a time entry (ms, 2 decimals) and, where the model's figure at
/// Table 1's printed period differs from the paper's, the note that gives
/// the period the paper's figure implies.
fn push_time(table: &mut Table, row: &str, cycles: u64, clock_mhz: f64, paper: f64) {
    let entry = Entry::new(row, "T", "ms", Some(paper), 2, ms(cycles, clock_mhz));
    if entry.matches() {
        table.push(entry);
        return;
    }
    let period = 1000.0 / clock_mhz;
    let (lo, hi) = (
        (paper - 0.005) * 1e6 / cycles as f64,
        (paper + 0.005) * 1e6 / cycles as f64,
    );
    let note = table.note(format!(
        "{cycles} cycles × {period:.1} ns (Table 1) = {:.4} ms, which rounds to {:.2}; the printed {paper:.2} \
         needs a period in [{lo:.3}, {hi:.3}) ns, which overlaps the [{:.2}, {:.2}) ns that Table 1's \
         {period:.1} stands for: the paper computed with the unrounded period",
        entry.model,
        entry.model_rounded(),
        period - 0.05,
        period + 0.05,
    ));
    table.push_noted(entry, note);
}

/// Adds the CLB entry for `arrays` arrays of the `bits`-bit Table 1 design.
fn push_clbs(table: &mut Table, row: &str, bits: usize, arrays: u32, paper: f64, note: usize) {
    let clbs = f64::from(arrays * table1_row(bits).1);
    table.push_noted(Entry::new(row, "C", "CLBs", Some(paper), 0, clbs), note);
}

/// Adds the cycle count the paper prints only as a formula.
fn push_cycles(table: &mut Table, row: &str, cycles: u64, note: usize) {
    table.push_noted(Entry::new(row, "cycles", "cycles", None, 0, cycles as f64), note);
}

/// Note for the CLB columns.
const CLB_NOTE: &str = "CLBs are not modelled: the figure is Table 1's for the design used (one array of that size; \
     Table 4: one half-size array serially, two in parallel, 2×1818 = 3636 and 2×3413 = 6826), a consistency check \
     of the paper, not a model output";

/// The paper's tables beside the model's figures: Tables 2, 3 and 4
/// (radix-16 rows; the radix-2 rows belong to the earlier design, reference 8 of the paper) and
/// the figures of §6–7. Times are the model's cycle counts at Table 1's
/// clock periods.
pub fn tables() -> Vec<Table> {
    let (a256, a485, a512, a768, a970, a1024) =
        (array(256), array(485), array(512), array(768), array(970), array(1024));
    let exp_full = |a: &BlumPaar| a.exponentiation_cycles(a.n.bits());
    let f4_bits = 17;

    let mut t2 = Table::new(
        format!("{PAPER} Table 2"),
        "Full modular exponentiation, radix 16 (n-bit exponent)",
    );
    let clb = t2.note(CLB_NOTE);
    let cyc = t2.note(
        "the paper prints the formula 2(n+2)(m+10) (§5.1), no figure: the model counts n + 2 slots of \
         2^k − 2 + 2(m+3) = 2m + 20 cycles, m = n/4",
    );
    for (a, clbs, time) in [(&a512, 3413.0, 2.93), (&a768, 5071.0, 6.25), (&a1024, 6633.0, 11.95)] {
        let row = format!("{} bit", a.n.bits());
        push_clbs(&mut t2, &row, a.n.bits(), 1, clbs, clb);
        push_time(&mut t2, &row, exp_full(a), a.clock_mhz(), time);
        push_cycles(&mut t2, &row, exp_full(a), cyc);
    }

    let mut t3 = Table::new(
        format!("{PAPER} Table 3"),
        "RSA encryption with F4 = 2^16 + 1, radix 16",
    );
    let clb = t3.note(CLB_NOTE);
    let cyc = t3.note(
        "the paper prints the formula 2·19(m+10) (§5.2), no figure: the model counts 17 + 2 slots of 2m + 20 \
         cycles for the 17-bit exponent F4",
    );
    for (a, clbs, time) in [(&a512, 3413.0, 0.11), (&a1024, 6633.0, 0.22)] {
        let row = format!("{} bit", a.n.bits());
        push_clbs(&mut t3, &row, a.n.bits(), 1, clbs, clb);
        push_time(&mut t3, &row, a.exponentiation_cycles(f4_bits), a.clock_mhz(), time);
        push_cycles(&mut t3, &row, a.exponentiation_cycles(f4_bits), cyc);
    }

    let mut t4 = Table::new(format!("{PAPER} Table 4"), "RSA decryption with the CRT, radix 16");
    let clb = t4.note(CLB_NOTE);
    let cyc = t4.note(
        "the paper prints no cycle figure: the model's two half-size exponentiations with full-length \
         (n/2-bit) exponents, added (serial) or overlapped (parallel)",
    );
    let clock = t4.note(format!(
        "clock: serial runs at the half-size design's Table 1 period, parallel at the full-size design's (two \
         half-size arrays take the full-size device): 2×256 parallel at the 256-bit 21.3 ns would take {:.4} ms, \
         not 0.79; at 1024 bits §5.2's 'slower delay specifications of the larger devices' is 21.9 ns against 20.7",
        ms(exp_full(&a256), a256.clock_mhz())
    ));
    let crt_rows = [
        (&a256, &a512, 1818.0, 1.62, 3636.0, 0.79),
        (&a512, &a1024, 3413.0, 5.87, 6826.0, 3.10),
    ];
    for (half, full, c_serial, t_serial, c_parallel, t_parallel) in crt_rows {
        let h = exp_full(half);
        for (parallel, clbs, time) in [(false, c_serial, t_serial), (true, c_parallel, t_parallel)] {
            let row = format!(
                "{} bit, 2×{} {}",
                full.n.bits(),
                half.n.bits(),
                if parallel { "parallel" } else { "serial" }
            );
            let clock_mhz = if parallel { full.clock_mhz() } else { half.clock_mhz() };
            push_clbs(&mut t4, &row, half.n.bits(), 1 + u32::from(parallel), clbs, clb);
            push_time(&mut t4, &row, crt_total(parallel, h, h), clock_mhz, time);
            let last = t4.entries.len() - 1;
            t4.entries[last].note.get_or_insert(clock);
            push_cycles(&mut t4, &row, crt_total(parallel, h, h), cyc);
        }
    }

    vec![t2, t3, t4, sections_6_7(&a256, &a485, &a512, &a970, &a1024)]
}

/// §6–7's figures: the fastest decryption times, the 1024-bit clock and the
/// speed-ups over earlier work (whose times the paper quotes).
fn sections_6_7(a256: &BlumPaar, a485: &BlumPaar, a512: &BlumPaar, a970: &BlumPaar, a1024: &BlumPaar) -> Table {
    let mut t = Table::new(
        format!("{PAPER} §6–7"),
        "Fastest RSA decryption (CRT, parallel halves) and comparisons",
    );
    let parallel_ms = |half: &BlumPaar, full: &BlumPaar| {
        let h = half.exponentiation_cycles(half.n.bits());
        ms(crt_total(true, h, h), full.clock_mhz())
    };
    let (t512, t970, t1024) = (
        parallel_ms(a256, a512),
        parallel_ms(a485, a970),
        parallel_ms(a512, a1024),
    );
    t.push(Entry::new("512 bit, 2×256 parallel", "T", "ms", Some(0.8), 1, t512));
    t.push(Entry::new(
        "1024 bit, 2×512 parallel (also abstract, §7)",
        "T",
        "ms",
        Some(3.1),
        1,
        t1024,
    ));
    let n970 = t.note(format!(
        "the paper does not say how the 970-bit figure was computed; the model takes two 485-bit halves \
         (m = {}) in parallel at the 1024-bit design's {:.1} ns, {:.4} ms",
        a485.m,
        1000.0 / a970.clock_mhz(),
        t970
    ));
    t.push_noted(
        Entry::new("970 bit, 2×485 parallel", "T", "ms", Some(2.8), 1, t970),
        n970,
    );
    let clock = a1024.clock_mhz();
    let n_clock = t.note(format!(
        "1000 / {:.1} ns = {clock:.3} MHz rounds to {:.1}; the paper truncates to 45.6",
        1000.0 / clock,
        (clock * 10.0).round() / 10.0
    ));
    t.push_noted(
        Entry::new("1024-bit design (§7)", "clock", "MHz", Some(45.6), 1, clock),
        n_clock,
    );
    let speedups = [
        (
            "over 512-bit software, 9.1 ms [3] ('about 11')",
            9.1,
            t512,
            11.0,
            0,
            0.8,
        ),
        ("over 1024-bit software, 43.3 ms [15]", 43.3, t1024, 14.0, 0, 3.1),
        ("of [2]'s 512-bit FPGA, 1.7 ms", 1.7, t512, 2.1, 1, 0.8),
        ("of [2]'s 970-bit FPGA, 5.2 ms", 5.2, t970, 1.8, 1, 2.8),
    ];
    for (row, theirs, ours, paper, decimals, printed) in speedups {
        let entry = Entry::new(
            format!("speed-up {row}"),
            "factor",
            "×",
            Some(paper),
            decimals,
            theirs / ours,
        );
        if entry.matches() {
            t.push(entry);
        } else {
            let note = t.note(format!(
                "{theirs} / {ours:.4} = {:.3}; the paper divided by its rounded {printed} ms: {theirs} / {printed} = {:.3}",
                entry.model,
                theirs / printed
            ));
            t.push_noted(entry, note);
        }
    }
    t
}
