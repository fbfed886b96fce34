//! 002 §4.2: the units' RAMs of multiples, `t·B` (B-RAM) and `t·M~`
//! (M~-RAM), filled by the B/M~-adder one row per cycle.

/// The multiples `0·X, 1·X, ..., (2^k−1)·X` as the units' RAMs hold them:
/// row `t`, word `w` is digit `w` of `t·X` (k bits; the top word keeps
/// whatever carry reaches it).
#[derive(Debug, Clone)]
pub(super) struct Ram {
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
    pub(super) fn new(base: &[u32], k: u32) -> Self {
        let words = base.len();
        let mut data = vec![0u32; words << k];
        data[words..2 * words].copy_from_slice(base);
        Self { words, k, data }
    }

    /// One B/M~-adder pass: row `t` = row `t−1` + row 1, the carries
    /// propagating to the left (`2 <= t < 2^k`).
    pub(super) fn fill(&mut self, t: usize) {
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
    pub(super) fn row(&self, t: u32) -> &[u32] {
        let start = t as usize * self.words;
        &self.data[start..start + self.words]
    }
}
