//! The constant-time table read of every fixed-window exponentiation in
//! redc (teaching schedules, scalar kernels, IFMA lanes): the defence
//! against cache-timing attacks on the window table (Percival 2005).

use super::limb::Limb;
use zeroize::Zeroize;

/// The largest table [`select`] reads: windows of up to 8 bits.
pub const MAX_TABLE: usize = 256;

/// The most digits gathered per pass over the table ([`Limb::CHUNK`]).
const MAX_CHUNK: usize = 16;

/// `out := table[idx]` in every lane (each lane its own index), touching
/// every entry.
///
/// Pre: `table.len() <= MAX_TABLE`; every entry and `out` have the same
/// number of digits; every lane's index is below `table.len()`.
///
/// Constant time: the masks are computed arithmetically for every entry
/// and put behind one optimisation barrier, then each entry is read in full
/// and merged under its mask, so neither a branch nor a memory address
/// depends on the index. The result is gathered [`Limb::CHUNK`] digits at a
/// time in registers: one load and one merge per digit and entry, no store.
#[inline(always)]
pub fn select<L: Limb, T: AsRef<[L]>>(out: &mut [L], table: &[T], idx: L::Index) {
    debug_assert!(table.len() <= MAX_TABLE, "select: table of {} entries", table.len());
    let len = table.len().min(MAX_TABLE);
    let mut masks = [L::Mask::default(); MAX_TABLE];
    for (v, mask) in masks.iter_mut().enumerate().take(len) {
        *mask = L::index_is(v as u64, idx);
    }
    core::hint::black_box(&mut masks);
    let chunk = L::CHUNK.min(MAX_CHUNK);
    for (c, o) in out.chunks_mut(chunk).enumerate() {
        let mut acc = [L::zero(); MAX_CHUNK];
        for (entry, &mask) in table.iter().zip(&masks) {
            for (a, &y) in acc[..chunk].iter_mut().zip(&entry.as_ref()[c * chunk..]) {
                *a = L::pick(*a, y, mask);
            }
        }
        o.copy_from_slice(&acc[..o.len()]);
        acc[..chunk].iter_mut().for_each(Zeroize::zeroize);
    }
    masks[..len].iter_mut().for_each(Zeroize::zeroize);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_of_every_width() {
        for len in [1usize, 2, 7, 8, 9, 17] {
            let table: Vec<Vec<u16>> = (0..64u16)
                .map(|v| (0..len as u16).map(|j| v * 100 + j).collect())
                .collect();
            for d in [0u64, 1, 31, 63] {
                let mut out = vec![0u16; len];
                select(&mut out, &table, d);
                assert_eq!(out, table[d as usize], "len {len} d {d}");
            }
        }
    }
}
