//! The num-bigint helpers shared by the tests of DSA and DH (`dh.rs`,
//! `dsa.rs`, `faults.rs`, `typed_api.rs`).

#![allow(dead_code)] // each test file uses its own part

use num_bigint::BigUint;
use redc_ffc::Num;
use redc_ffc::dsa::{DsaPrivateKey, Signature};

/// `n` as a num-bigint value.
pub(crate) fn big(n: &Num) -> BigUint {
    BigUint::from_bytes_be(&n.to_be_bytes())
}

/// DSA verification (FIPS 186-4 §4.7) in num-bigint: whether `sig` is
/// `key`'s signature of `digest`.
pub(crate) fn reference_verify(key: &DsaPrivateKey, digest: &[u8], sig: &Signature) -> bool {
    let p = key.params();
    let (pp, q, g, y) = (big(p.p()), big(p.q()), big(p.g()), big(key.public_key().y()));
    let (r, s) = (big(&sig.r), big(&sig.s));
    let zero = BigUint::from(0u8);
    if r == zero || s == zero || r >= q || s >= q {
        return false;
    }
    let w = s.modpow(&(&q - 2u8), &q);
    let z = BigUint::from_bytes_be(digest) >> (8 * digest.len()).saturating_sub(q.bits() as usize);
    let (u1, u2) = (z * &w % &q, &r * &w % &q);
    (g.modpow(&u1, &pp) * y.modpow(&u2, &pp) % &pp % &q) == r
}
