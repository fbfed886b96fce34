//! 004 §2 Algorithm 1 on the arrays' registers, word by word: the quotient
//! block (§4.1.3), the systolic PE (Figure 2) and the multiplexed core's
//! multiplier block and PE (Figures 9 and 10).

use super::Layout;
use super::Perin;
use crate::{Big, Reg};

/// The state of the datapath during one product (registers of §4).
pub(super) struct Datapath<'a> {
    pub(super) model: &'a Perin,
    pub(super) mask: u64,
    /// The words of A (read one per iteration) and B (in the PEs / cores).
    pub(super) a: Vec<u64>,
    pub(super) b: Vec<u64>,
    /// S_i, one word per PE.
    pub(super) s: Vec<u64>,
    pub(super) a_i: u64,
    pub(super) q_i: u64,
    /// Carry registers of each word: systolic C; multiplexed C_SaB, C_qN,
    /// C_PE.
    pub(super) carries: Vec<Vec<u64>>,
}

impl Datapath<'_> {
    /// Quotient block (§4.1.3, Figure 5; Algorithm 1 line 3):
    /// q_i = ((S^0 + a_i·b_0 mod 2^k)·N') mod 2^k.
    pub(super) fn quotient(&mut self, i: usize) {
        self.a_i = self.a[i];
        let low = (self.a_i * self.b[0]) & self.mask;
        self.q_i = (((self.s[0] + low) & self.mask) * self.model.n_prime) & self.mask;
    }

    /// Word j of S_{i+1} = (S_i + q_i·N + a_i·B)/2^k (Algorithm 1 line 4):
    /// PE j+1 writes word j−1 of S_{i+1} (PE1 discards its zero word); PE_m
    /// also writes word m−1 from its carries.
    pub(super) fn word(&mut self, j: usize) {
        let (k, mask, m) = (self.model.k, self.mask, self.model.m);
        let (a_i, q_i, b_j, n_j, s_j) = (self.a_i, self.q_i, self.b[j], self.model.n_words[j], self.s[j]);
        let carry_in = |c: &[u64]| if j == 0 { 0 } else { c[j - 1] };
        let (word, top) = match self.model.layout {
            Layout::Multiplexed => {
                // Multiplier block (Figure 9): S_i + a_i·B and q_i·N, k-bit carries.
                let sab = s_j + a_i * b_j + carry_in(&self.carries[0]);
                let qn = q_i * n_j + carry_in(&self.carries[1]);
                // PE (Figure 10): the two low words and a one-bit carry.
                let pe = (sab & mask) + (qn & mask) + carry_in(&self.carries[2]);
                let c = [sab >> k, qn >> k, pe >> k];
                for (reg, value) in self.carries.iter_mut().zip(c) {
                    reg[j] = value;
                }
                (pe & mask, c[0] + c[1] + c[2])
            }
            Layout::Systolic => {
                // Systolic PE (Figure 2): low product words added, then S_j and the carry.
                let (ab, qn) = (a_i * b_j, q_i * n_j);
                let x = (ab & mask) + (qn & mask);
                let y = (x & mask) + s_j + carry_in(&self.carries[0]);
                let c = (ab >> k) + (qn >> k) + (x >> k) + (y >> k);
                self.carries[0][j] = c;
                (y & mask, c)
            }
        };
        if j > 0 {
            self.s[j - 1] = word;
        }
        if j == m - 1 {
            self.s[j] = top;
        }
    }

    /// The registers after an iteration, in a fixed order.
    pub(super) fn regs(&self) -> Vec<Reg> {
        let (k, m) = (self.model.k as usize, self.model.m);
        let word = |name, value| Reg {
            name,
            bits: k,
            value: Big::from_u64(value),
        };
        let mut regs = vec![word("a_i", self.a_i), word("q_i", self.q_i)];
        let carry_regs: &[(&'static str, usize)] = match self.model.layout {
            Layout::Multiplexed => &[("C_SaB", k), ("C_qN", k), ("C_PE", 1)],
            Layout::Systolic => &[("C", k + 1)],
        };
        for (&(name, w), c) in carry_regs.iter().zip(&self.carries) {
            regs.push(Reg {
                name,
                bits: w * m,
                value: pack(c, w),
            });
        }
        regs.push(Reg {
            name: "S",
            bits: k * m,
            value: pack(&self.s, k),
        });
        regs
    }
}

/// `x` as `m` words of `k` bits (high words beyond m dropped; callers keep
/// x below 2^{km}).
pub(super) fn to_words(x: &Big, k: u32, m: usize) -> Vec<u64> {
    let digits = x.to_digits_padded((m * k as usize).div_ceil(64));
    let per = 64 / k as usize;
    (0..m)
        .map(|j| (digits[j / per] >> ((j % per) * k as usize)) & ((1u64 << k) - 1))
        .collect()
}

/// The number whose `w`-bit fields are `values` (field j at bit j·w).
pub(super) fn pack(values: &[u64], w: usize) -> Big {
    let mut digits = vec![0u64; (values.len() * w).div_ceil(64) + 1];
    for (j, &v) in values.iter().enumerate() {
        let (d, off) = (j * w / 64, j * w % 64);
        digits[d] |= v << off;
        if off + w > 64 {
            digits[d + 1] |= v >> (64 - off);
        }
    }
    Big::from_digits(digits)
}
