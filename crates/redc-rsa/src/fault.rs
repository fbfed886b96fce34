//! Fault injection, for tests only (feature `fault-injection`): the stages
//! and switches of [`redc_pki::fault`] (see there for what each stage
//! corrupts and how a test arms one), and the near miss that only an RSA
//! key can compute.

pub use redc_pki::fault::*;

use crate::{Num, RsaPrivateKey};
use redc::SecretNat;

/// `(c + 2^64 mod n)^d mod n` for the key's `d`, in `n`'s digit count: the
/// [`Stage::NearMiss`] replacement (computed with the variable-time
/// reference `modpow`; tests only).
pub(crate) fn near_miss(key: &RsaPrivateKey, c: &SecretNat) -> SecretNat {
    let n = key.public_key().n();
    let shifted = c.reveal().add(&Num::from_digits(vec![0, 1])).rem(n).unwrap_or_default();
    let m = redc::modpow(&shifted, &key.d().reveal(), n, redc::PowOptions::default(), None).unwrap_or_default();
    SecretNat::from_nat(&m, n.digits().len()).unwrap_or_else(|| SecretNat::zero(n.digits().len()))
}
