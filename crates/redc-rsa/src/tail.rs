//! The message at the end of a decoded block (OAEP's `DB`, PKCS#1 v1.5's
//! `EM`), taken out without a secret-dependent address or length.
//!
//! Where the message starts is secret until the caller receives it (its
//! length tells valid padding from a synthetic message under implicit
//! rejection); slicing at that index would copy a secret number of bytes
//! from a secret address. Instead the block is shifted left by the index
//! in constant time — one pass per bit of the index, each moving every
//! byte by `2^j` places or not — and only then is the message's length
//! revealed, as the length of the answer (the method of OpenSSL's
//! `ossl_rsa_padding_check_PKCS1_type_2`).

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroizing;

/// `block[start..]`, for a secret `start <= block.len()`: `O(n log n)`
/// selects over the whole block, then the revealed length `n - start`.
pub(crate) fn tail(block: &[u8], start: usize) -> Zeroizing<Vec<u8>> {
    let len = block.len();
    let mut buf = Zeroizing::new(block.to_vec());
    let mut next = Zeroizing::new(vec![0u8; len]);
    let mut j = 0;
    while j < usize::BITS && 1usize << j < len {
        let shift = 1usize << j;
        let on = Choice::from(((start >> j) & 1) as u8);
        for i in 0..len {
            let moved = buf.get(i + shift).copied().unwrap_or(0);
            next[i] = u8::conditional_select(&buf[i], &moved, on);
        }
        core::mem::swap(&mut buf, &mut next);
        j += 1;
    }
    // The answer's length, which its receiver learns anyway.
    buf.truncate(redc::secret::taint::declassified(len - start));
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_start_of_every_small_block() {
        for len in 0..=40 {
            let block: Vec<u8> = (1..=len as u8).collect();
            for start in 0..=len {
                assert_eq!(&tail(&block, start)[..], &block[start..], "len {len}, start {start}");
            }
        }
        let block: Vec<u8> = (0..=255).collect();
        assert_eq!(&tail(&block, 200)[..], &block[200..]);
    }
}
