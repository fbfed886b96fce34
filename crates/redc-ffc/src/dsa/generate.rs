//! Domain parameter generation, FIPS 186-4 Appendix A: the probable primes
//! `p` and `q` of A.1.1.2 from a seed with SHA-256 (one loop that A.1.1.3's
//! validation replays from the same seed), and the unverifiable generator
//! of A.2.1.

use super::{DsaParams, GENERATED_SIZES, MR_ROUNDS};
use crate::Num;
use crate::error::{Error, Result};
use rand_core::CryptoRngCore;
use rayon::prelude::*;
use redc::prime::{has_small_factor, is_probable_prime};
use sha2::{Digest, Sha256};

/// SHA-256's output length, A.1.1.2's `outlen`.
const OUTLEN: usize = 256;

/// What A.1.1.3 needs to validate `p` and `q`: the `domain_parameter_seed`
/// (N bits) and the counter at which `p` was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    /// `domain_parameter_seed`.
    pub seed: Vec<u8>,
    /// `counter`.
    pub counter: usize,
}

/// New parameters of (L, N), one of [`GENERATED_SIZES`]: seeds drawn from
/// `rng` until A.1.1.2 gives a `q` and then a `p`; `g` by A.2.1 with `h = 2,
/// 3, ...`. The prime candidates of a seed are tested on every core.
///
/// # Errors
///
/// [`Error::Unsupported`] for another (L, N); [`Error::Rng`].
pub fn generate_params(l: usize, n: usize, rng: &mut impl CryptoRngCore) -> Result<DsaParams> {
    if !GENERATED_SIZES.contains(&(l, n)) {
        return Err(Error::Unsupported(format!(
            "DSA parameters of (L, N) = ({l}, {n}); redc generates (2048, 224), (2048, 256), (3072, 256)"
        )));
    }
    loop {
        let mut seed = vec![0u8; n / 8];
        rng.try_fill_bytes(&mut seed).map_err(|_| Error::Rng)?;
        if let Some((p, q, counter)) = primes_from_seed(l, n, &seed, rng)? {
            let g = generator(&p, &q)?;
            let mut params = DsaParams::new(p, q, g)?;
            params.seed = Some(Seed { seed, counter });
            return Ok(params);
        }
    }
}

/// A.1.1.3: `p` and `q` regenerated from the seed must be the parameters'
/// own, at the same counter.
pub(super) fn check_seed(params: &DsaParams, seed: &Seed) -> Result<()> {
    let (l, n) = params.sizes();
    if seed.seed.len() * 8 < n {
        return Err(Error::InvalidParameters("seed shorter than N bits".into()));
    }
    let found = primes_from_seed(l, n, &seed.seed, &mut rand_core::OsRng)?;
    match found {
        Some((p, q, counter)) if p == *params.p() && q == *params.q() && counter == seed.counter => Ok(()),
        _ => Err(Error::InvalidParameters(
            "p and q are not the primes their seed and counter give (FIPS 186-4 A.1.1.3)".into(),
        )),
    }
}

fn probable_prime(n: &Num, rng: &mut impl CryptoRngCore) -> Result<bool> {
    Ok(!has_small_factor(n) && is_probable_prime(n, MR_ROUNDS, rng).map_err(|_| Error::Rng)?)
}

/// `Hash(x mod 2^seedlen)` as an integer.
fn hash_int(x: &Num, seedlen: usize) -> Num {
    let bytes = x.low_bits(seedlen).to_be_bytes_padded(seedlen / 8).unwrap_or_default();
    Num::from_be_bytes(&Sha256::digest(&bytes))
}

/// A.1.1.2 steps 6–11 for one seed: `q`, then `p` at the first counter
/// below 4L that gives a prime; `None` when `q` is composite or no counter
/// does. Each counter's candidate is independent of the others, so they are
/// built and tested on every core, and the first prime in counter order is
/// taken, as the serial loop would.
fn primes_from_seed(
    l: usize,
    n: usize,
    seed: &[u8],
    rng: &mut impl CryptoRngCore,
) -> Result<Option<(Num, Num, usize)>> {
    let seedlen = 8 * seed.len();
    let s = Num::from_be_bytes(seed);
    let u = hash_int(&s, seedlen).low_bits(n - 1);
    let q = Num::pow2(n - 1).add(&u).add(&Num::one());
    let q = if u.is_odd() {
        q.checked_sub(&Num::one()).unwrap_or_default()
    } else {
        q
    };
    if !probable_prime(&q, rng)? {
        return Ok(None);
    }
    let blocks = l.div_ceil(OUTLEN) - 1;
    let b = l - 1 - blocks * OUTLEN;
    let two_q = q.shl(1);
    let candidate = |counter: usize| -> Option<Num> {
        let offset = 1 + counter * (blocks + 1);
        let mut w = Num::zero();
        for j in 0..=blocks {
            let v = hash_int(&s.add(&Num::from_u64((offset + j) as u64)), seedlen);
            let v = if j == blocks { v.low_bits(b) } else { v };
            w = w.add(&v.shl(j * OUTLEN));
        }
        let x = w.add(&Num::pow2(l - 1));
        let c = x.rem(&two_q)?;
        let p = x.checked_sub(&c)?.add(&Num::one());
        (p.bits() == l).then_some(p)
    };
    let found = (0..4 * l)
        .into_par_iter()
        .map(|counter| {
            let p = candidate(counter).filter(|p| !has_small_factor(p))?;
            let prime = is_probable_prime(&p, MR_ROUNDS, &mut rand_core::OsRng).ok()?;
            prime.then_some((p, counter))
        })
        .find_first(Option::is_some)
        .flatten();
    Ok(found.map(|(p, counter)| (p, q, counter)))
}

/// A.2.1: `g = h^((p-1)/q) mod p` for the first `h = 2, 3, ...` that gives
/// `g != 1`.
fn generator(p: &Num, q: &Num) -> Result<Num> {
    let e = p
        .checked_sub(&Num::one())
        .and_then(|pm1| pm1.divrem(q))
        .map(|(e, _)| e)
        .ok_or_else(|| Error::InvalidParameters("q does not divide p - 1".into()))?;
    let domain = redc::Domain::<crate::ModP>::public(p).map_err(|_| Error::InvalidParameters("p is even".into()))?;
    for h in 2..u64::MAX {
        let base = domain.enter(&redc::SecretNat::from_limbs(vec![h]));
        let g = domain.leave(&domain.pow_vartime(&base, &e)).into_revealed();
        if !g.is_one() {
            return Ok(g);
        }
    }
    Err(Error::InvalidParameters("no generator".into()))
}
