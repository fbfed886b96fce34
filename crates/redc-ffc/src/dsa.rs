//! DSA (FIPS 186-4 §4): domain parameters, keys, signing with a hedged
//! (RFC 6979 with random bytes mixed in, the default), deterministic (RFC
//! 6979) or random nonce, verification, one or many at a time on the
//! engine.
//!
//! | file | holds |
//! |---|---|
//! | `dsa/fixed_base.rs` | `g^e` for public `e` from a table made once per parameter set |
//! | `dsa/generate.rs` | the probable primes of A.1.1.2 (and their validation, A.1.1.3, from the same loop), the generator of A.2.1 |
//! | `dsa/nonce.rs` | RFC 6979 §3.2's deterministic nonce, hedged by §3.6's additional data or not, and the random one of B.2.2 |
//! | `dsa/signature.rs` | `(r, s)` in DER and in IEEE P1363 form, and a public key's encoder and decoder of either |
//! | `dsa/sign.rs` | signing, batched |
//! | `dsa/check.rs` | the check of a deterministic signature before release |
//! | `dsa/verify.rs` | verification, batched |
//! | `dsa/scheme.rs` | the keys' typed methods: `sign`, `sign_prehashed`, `sign_batch`, `verify`, `verify_prehashed`, `verify_batch` |

mod check;
mod fixed_base;
mod generate;
mod nonce;
mod scheme;
mod sign;
mod signature;
mod verify;

pub use generate::{Seed, generate_params};
pub use nonce::Nonce;
pub use sign::sign_batch;
pub use signature::{SigEncoding, Signature};
pub use verify::verify_batch;

use crate::error::{Error, Result};
use crate::{ModP, ModQ, Num, PublicModulus};
use redc::secret::declassify;
use redc::{PublicExpJob, SecretNat};
use std::sync::{Arc, OnceLock};
use subtle::ConstantTimeEq;

/// The (L, N) pairs of FIPS 186-4 §4.2: the bit lengths of `p` and `q`.
/// (1024, 160) is read and verified (legacy, as FIPS 186-5 keeps it), never
/// generated.
pub const SIZES: [(usize, usize); 4] = [(1024, 160), (2048, 224), (2048, 256), (3072, 256)];

/// Miller–Rabin rounds for `p` and `q`, generated or validated: FIPS 186-4
/// Table C.1's count for Miller–Rabin alone at L = 3072 (64; 56 at 2048
/// and 40 at 1024), for every size. A composite candidate fails the first
/// round almost always, so the count costs once per prime found.
pub const MR_ROUNDS: usize = 64;

/// The hashes of DSA: SHA-1 and SHA-2 (FIPS 186-4 §5), those RFC 6979's
/// nonces run HMAC with; [`sign_batch`] refuses any other for a
/// [`Nonce::Deterministic`] or [`Nonce::Hedged`] signature.
pub const HASHES: [crate::HashAlg; 7] = [
    crate::HashAlg::Sha1,
    crate::HashAlg::Sha224,
    crate::HashAlg::Sha256,
    crate::HashAlg::Sha384,
    crate::HashAlg::Sha512,
    crate::HashAlg::Sha512_224,
    crate::HashAlg::Sha512_256,
];

/// The pairs [`generate_params`] makes.
pub const GENERATED_SIZES: [(usize, usize); 3] = [(2048, 224), (2048, 256), (3072, 256)];

/// DSA domain parameters `(p, q, g)`, checked on construction: (L, N) one
/// of [`SIZES`], `p` and `q` odd, `q | p - 1`, `1 < g < p`, `g^q = 1 mod
/// p`. [`DsaParams::validate`] adds the primality tests (and A.1.1.3 when
/// the generation seed is known).
#[derive(Debug)]
pub struct DsaParams {
    p: PublicModulus<ModP>,
    q: PublicModulus<ModQ>,
    g: Num,
    seed: Option<Seed>,
    /// The fixed-base table of `g`, made at the first verification.
    fixed_g: OnceLock<fixed_base::FixedBase>,
}

impl DsaParams {
    /// Parameters read from a key or given by hand, with the checks of the
    /// type's docs (a few public exponentiations, no primality test).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameters`] naming the value that fails.
    pub fn new(p: Num, q: Num, g: Num) -> Result<Self> {
        let (l, n) = (p.bits(), q.bits());
        if !SIZES.contains(&(l, n)) {
            return Err(Error::InvalidParameters(format!(
                "(L, N) = ({l}, {n}) bits for (p, q); FIPS 186-4 allows (1024, 160), (2048, 224), (2048, 256), (3072, 256)"
            )));
        }
        let bad = |what: &str| Error::InvalidParameters(what.into());
        let p = PublicModulus::new(p).map_err(|_| bad("p is even"))?;
        let q = PublicModulus::<ModQ>::new(q).map_err(|_| bad("q is even"))?;
        let p_minus_1 = p.n().checked_sub(&Num::one()).unwrap_or_default();
        if !p_minus_1.rem(q.n()).is_some_and(|r| r.is_zero()) {
            return Err(bad("q does not divide p - 1"));
        }
        if g.bits() < 2 || g >= *p.n() {
            return Err(bad("g is not in [2, p - 1]"));
        }
        if !has_order_q(&p, q.n(), &g) {
            return Err(bad("g^q mod p is not 1"));
        }
        Ok(Self {
            p,
            q,
            g,
            seed: None,
            fixed_g: OnceLock::new(),
        })
    }

    /// The prime `p`.
    pub fn p(&self) -> &Num {
        self.p.n()
    }

    /// The prime `q`.
    pub fn q(&self) -> &Num {
        self.q.n()
    }

    /// The generator `g`.
    pub fn g(&self) -> &Num {
        &self.g
    }

    /// (L, N).
    pub fn sizes(&self) -> (usize, usize) {
        (self.p().bits(), self.q().bits())
    }

    /// The generation seed and counter, for parameters made here.
    pub fn seed(&self) -> Option<&Seed> {
        self.seed.as_ref()
    }

    /// The same parameters with a seed and counter to validate them by
    /// (FIPS 186-4 A.1.1.3), as a file that carries them gives.
    pub fn with_seed(&self, seed: Seed) -> Self {
        Self {
            p: self.p.clone(),
            q: self.q.clone(),
            g: self.g.clone(),
            seed: Some(seed),
            fixed_g: OnceLock::new(),
        }
    }

    /// Full validation (FIPS 186-4 A.1.1.3 and A.2.2 where it applies):
    /// with the seed, `p` and `q` regenerated from it and compared; without,
    /// `p` and `q` tested for primality ([`MR_ROUNDS`] Miller–Rabin rounds:
    /// parameters from elsewhere may be chosen to pass fewer). The checks
    /// of [`DsaParams::new`] hold already.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameters`] naming the failing value; [`Error::Rng`].
    pub fn validate(&self, rng: &mut impl rand_core::CryptoRngCore) -> Result<()> {
        if let Some(seed) = &self.seed {
            return generate::check_seed(self, seed);
        }
        for (name, n) in [("q", self.q()), ("p", self.p())] {
            if !redc::prime::is_probable_prime(n, MR_ROUNDS, rng).map_err(|_| Error::Rng)? {
                return Err(Error::InvalidParameters(format!("{name} is not prime")));
            }
        }
        Ok(())
    }

    pub(crate) fn modulus_p(&self) -> &PublicModulus<ModP> {
        &self.p
    }

    pub(crate) fn modulus_q(&self) -> &PublicModulus<ModQ> {
        &self.q
    }

    /// `g`'s fixed-base table for exponents below `q` (made once).
    pub(crate) fn fixed_g(&self) -> &fixed_base::FixedBase {
        self.fixed_g
            .get_or_init(|| fixed_base::FixedBase::new(self.p.domain(), &self.g, self.q().bits()))
    }

    /// `h` as an integer: its leftmost `min(N, outlen)` bits (FIPS 186-4
    /// §4.6, RFC 6979 §2.3.2's `bits2int`).
    pub(crate) fn digest_int(&self, digest: &[u8]) -> Num {
        let n = self.q().bits();
        let z = Num::from_be_bytes(digest);
        let len = 8 * digest.len();
        if len > n { z.shr(len - n) } else { z }
    }
}

impl PartialEq for DsaParams {
    fn eq(&self, other: &Self) -> bool {
        self.p() == other.p() && self.q() == other.q() && self.g == other.g
    }
}

impl Eq for DsaParams {}

/// `x^q mod p == 1` for a public `x`, on the engine's public-exponent path.
fn has_order_q(p: &PublicModulus<ModP>, q: &Num, x: &Num) -> bool {
    let engine = redc::engine::default_engine();
    let prepared = p.prepare(engine);
    let job = PublicExpJob::<Num> {
        base: x,
        exp: q,
        modulus: &prepared,
    };
    engine
        .pow_vartime(&[job])
        .pop()
        .and_then(|r| r.ok())
        .is_some_and(|v| v.into_revealed().is_one())
}

/// A DSA public key: parameters and `y = g^x mod p`, checked on
/// construction (`1 < y < p`, `y^q = 1 mod p`: SP 800-89 §5.3.2's partial
/// validation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DsaPublicKey {
    params: Arc<DsaParams>,
    y: Num,
}

impl DsaPublicKey {
    /// The key `y` of `params`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`] when `y` is out of range or not of order `q`.
    pub fn new(params: Arc<DsaParams>, y: Num) -> Result<Self> {
        if y.bits() < 2 || y >= *params.p() {
            return Err(Error::InvalidKey("public value y is not in [2, p - 1]".into()));
        }
        if !has_order_q(&params.p, params.q(), &y) {
            return Err(Error::InvalidKey("public value y: y^q mod p is not 1".into()));
        }
        Ok(Self { params, y })
    }

    /// The domain parameters.
    pub fn params(&self) -> &Arc<DsaParams> {
        &self.params
    }

    /// `y`.
    pub fn y(&self) -> &Num {
        &self.y
    }
}

/// A DSA private key: parameters, `x` in `[1, q - 1]` (a secret of `q`'s
/// digit count) and the public key.
#[derive(Debug, Clone)]
pub struct DsaPrivateKey {
    x: SecretNat,
    public: DsaPublicKey,
    /// Which parameters the key may sign with ([`redc_pki::policy`]).
    level: crate::SecurityLevel,
}

impl DsaPrivateKey {
    /// A fresh key of `params` (FIPS 186-4 B.1.2: `x` uniform in `[1, q - 1]`
    /// by rejection, in constant time).
    ///
    /// # Errors
    ///
    /// [`Error::Rng`] if `rng` fails.
    pub fn generate(params: Arc<DsaParams>, rng: &mut impl rand_core::CryptoRngCore) -> Result<Self> {
        let x = SecretNat::random_below(params.q(), rng).map_err(|_| Error::Rng)?;
        Self::from_exponent(params, &x)
    }

    /// The key with exponent `x` (as read from a file): `0 < x < q`, and
    /// `y = g^x mod p` computed.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`] when `x` is out of range.
    pub fn from_exponent(params: Arc<DsaParams>, x: &SecretNat) -> Result<Self> {
        let q = params.q();
        let x = x
            .resize(params.q.len())
            .ok_or_else(|| Error::InvalidKey("private value x is longer than q".into()))?;
        if !declassify(x.ct_lt_nat(q) & !x.ct_is_zero()) {
            return Err(Error::InvalidKey("private value x is not in [1, q - 1]".into()));
        }
        let y = sign::g_pow(&params, &[&x]).pop().ok_or(Error::Rng)??.into_revealed();
        Ok(Self {
            x,
            public: DsaPublicKey { params, y },
            level: crate::SecurityLevel::DEFAULT,
        })
    }

    /// The key's security level ([`crate::SecurityLevel::DEFAULT`] unless
    /// set): signing with a `p` below its minimum is refused, (1024, 160)
    /// among them at the default level (SP 800-131A keeps it for
    /// verification).
    pub fn security_level(&self) -> crate::SecurityLevel {
        self.level
    }

    /// The key at security level `level`.
    pub fn with_security_level(mut self, level: crate::SecurityLevel) -> Self {
        self.level = level;
        self
    }

    /// The public key.
    pub fn public_key(&self) -> &DsaPublicKey {
        &self.public
    }

    /// The domain parameters.
    pub fn params(&self) -> &Arc<DsaParams> {
        &self.public.params
    }

    /// `x`.
    pub fn exponent(&self) -> &SecretNat {
        &self.x
    }

    /// Whether two keys hold the same `x` (constant time), for tests of
    /// encodings.
    pub fn same_secret(&self, other: &Self) -> bool {
        declassify(self.x.ct_eq(&other.x)) && self.public == other.public
    }
}
