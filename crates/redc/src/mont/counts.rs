//! Word operations per Montgomery product, per schedule: the comparison of
//! Koç, Acar and Kaliski that 000 §2.2 follows (`redc counts`). Each
//! figure is metered ([`OpCounts`]) on one real product, not derived from
//! a formula.

use super::{Modulus, OpCounts, Product};
use crate::nat::Nat;
use crate::word::Word;

/// The counts of one product of two `s`-digit residues (all digits of the
/// operands and modulus set, so every carry path is exercised); `s >= 1`.
pub fn count<W: Word>(product: Product, s: usize) -> OpCounts {
    let n = Nat::<W>::from_digits(vec![W::MAX; s]);
    let modulus = Modulus::new(&n).expect("2^(sw) - 1 is odd and at least 3");
    let a = modulus.to_mont(&n.shr(1), product);
    let b = modulus.to_mont(&n.shr(3), product);
    let mut mm = modulus.metered(product, OpCounts::default());
    let mut out = a.clone();
    mm.mul_into(&mut out, &a, &b);
    mm.meter().clone()
}

/// One row of the comparison: a size, a schedule, its counts and its
/// scratch digits ([`Product::scratch_len`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRow {
    /// Digits of the modulus.
    pub s: usize,
    /// The schedule.
    pub product: Product,
    /// Its metered word operations ([`count`]).
    pub counts: OpCounts,
    /// Its scratch space, in digits.
    pub scratch: usize,
}

/// Every (size, schedule) of `digits` × [`Product::ALL`], in that order.
pub fn rows<W: Word>(digits: &[usize]) -> Vec<CountRow> {
    digits
        .iter()
        .flat_map(|&s| {
            Product::ALL.into_iter().map(move |product| CountRow {
                s,
                product,
                counts: count::<W>(product, s),
                scratch: product.scratch_len::<W>(s),
            })
        })
        .collect()
}

/// [`rows`] as a Markdown table under a title naming the word size.
pub fn table<W: Word>(digits: &[usize]) -> String {
    let mut out = format!(
        "word operations per Montgomery product, w = {} (mul = 2s² + s for every schedule)\n\n",
        W::BITS
    );
    out.push_str("| s | schedule | mul | add | read | write | scratch digits |\n");
    out.push_str("|---:|---|---:|---:|---:|---:|---:|\n");
    for r in rows::<W>(digits) {
        let c = &r.counts;
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            r.s,
            r.product.name(),
            c.muls(),
            c.adds(),
            c.reads(),
            c.writes(),
            r.scratch,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schedule_multiplies_2s2_plus_s_times() {
        // Koç, Acar, Kaliski (000 §2.2): 2s² + s word products for each.
        for r in rows::<u32>(&[1, 4, 8]).into_iter().chain(rows::<u64>(&[3, 16])) {
            let s = r.s as u64;
            assert_eq!(r.counts.muls(), 2 * s * s + s, "{r:?}");
            assert!(r.counts.adds() > 0 && r.counts.reads() > 0 && r.counts.writes() > 0);
        }
        assert_eq!(rows::<u8>(&[2, 5]).len(), 2 * Product::ALL.len());
    }

    #[test]
    fn table_has_a_line_per_row() {
        let t = table::<u32>(&[8]);
        assert!(t.starts_with("word operations per Montgomery product, w = 32"));
        assert_eq!(t.lines().filter(|l| l.starts_with("| 8 |")).count(), Product::ALL.len());
        assert!(t.contains("| 8 | cios | 136 |"), "{t}");
    }
}
