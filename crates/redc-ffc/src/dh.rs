//! Finite-field Diffie-Hellman over the named groups (SP 800-56A Rev. 3
//! §5.7.1.1, FFC DH primitive): keys, the peer's public value validated
//! (§5.6.2.3.1: `1 < y < p - 1` and `y^q = 1 mod p`), and the shared
//! secret `Z = y^x mod p` on the engine's constant-time path, one or many
//! at a time.
//!
//! The subgroup check of a safe-prime group is the Legendre symbol `(y/p)`
//! ([`crate::jacobi`]), equal to `y^q mod p` by Euler's criterion.
//!
//! Against faults: the base the exponentiation was given is compared with
//! the checked peer value afterwards (a value moved out of the subgroup
//! between the check and the exponentiation would make `Z`'s Euler
//! criterion `(-1)^x`, the exponent's lowest bit); `Z = 1` is refused. A
//! fault in `Z` itself changes only `Z`, which the peer computes anyway. A
//! fault inside the exponentiation (in the engine's copy of the base, its
//! accumulator, or `x`) is not checked for: a check would cost a second
//! exponentiation (`Z^q` is a full-length one in these groups). Such a
//! faulty `Z`, seen by a peer that knows the right one, can give away bits
//! of `x` (a flipped bit `i` of `x` makes `Z·y^(±2^i)`).

use crate::SecurityLevel;
use crate::error::{Error, Result};
use crate::jacobi::jacobi;
use crate::{Group, Num};
use rand_core::CryptoRngCore;
use rayon::prelude::*;
use redc::secret::declassify;
use redc::{Engine, PowJob, SecretNat};
use redc_pki::fault::{self, Stage};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// A Diffie-Hellman public key: a group and `y = g^x mod p`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DhPublicKey {
    group: Group,
    y: Num,
}

/// A Diffie-Hellman private key: the exponent `x` (a secret), the public
/// bound on its length that every exponentiation with it runs to, and the
/// public key.
#[derive(Debug, Clone)]
pub struct DhPrivateKey {
    x: SecretNat,
    exp_bits: usize,
    public: DhPublicKey,
    /// Which groups the key may derive in ([`redc_pki::policy`]).
    level: SecurityLevel,
}

/// Checks a peer's public value for `group` (SP 800-56A §5.6.2.3.1, full
/// validation): `1 < y < p - 1`, and `y^q = 1 mod p` as the Legendre
/// symbol `(y/p) = 1`.
///
/// # Errors
///
/// [`Error::InvalidPeer`] naming the check that failed.
pub fn check_public(group: Group, y: &Num) -> Result<()> {
    let params = group.params();
    let p = params.p.n();
    if y.bits() < 2 {
        return Err(Error::InvalidPeer("not above 1"));
    }
    let p_minus_1 = p.checked_sub(&Num::one()).unwrap_or_else(Num::zero);
    if *y >= p_minus_1 {
        return Err(Error::InvalidPeer("not below p - 1"));
    }
    if jacobi(y, p) != Some(1) {
        return Err(Error::InvalidPeer(
            "outside the subgroup of order q (y^q mod p is not 1)",
        ));
    }
    Ok(())
}

impl DhPublicKey {
    /// A public key of `group`, checked as a peer's value is.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPeer`] as [`check_public`].
    pub fn new(group: Group, y: Num) -> Result<Self> {
        check_public(group, &y)?;
        Ok(Self { group, y })
    }

    /// The group.
    pub fn group(&self) -> Group {
        self.group
    }

    /// The public value `y`.
    pub fn y(&self) -> &Num {
        &self.y
    }
}

impl DhPrivateKey {
    /// A fresh key of `group` with an exponent of `bits` bits at most
    /// (`None`: the group's [`Group::exponent_bits`]; the bit length of `q`
    /// for a full-size exponent): `x` uniform in `[1, min(2^bits, q))`
    /// (SP 800-56A §5.6.1.1.4), `y = g^x mod p`.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] for a length outside `[exponent_bits, bits(q)]`;
    /// [`Error::Rng`] if `rng` fails.
    pub fn generate(group: Group, bits: Option<usize>, rng: &mut impl CryptoRngCore) -> Result<Self> {
        let q = &group.params().q;
        let bits = bits.unwrap_or(group.exponent_bits());
        if bits < group.exponent_bits() || bits > q.bits() {
            return Err(Error::Unsupported(format!(
                "private exponent length {bits} bits for {group}: from {} (RFC 7919 §5.2) to {} (the size of q)",
                group.exponent_bits(),
                q.bits()
            )));
        }
        let bound = if bits == q.bits() { q.clone() } else { Num::pow2(bits) };
        let x = SecretNat::random_below(&bound, rng).map_err(|_| Error::Rng)?;
        let x = x.resize(group.params().p.len()).ok_or(Error::Rng)?;
        Self::with_bound(group, x, bits)
    }

    /// The key of `group` with the exponent `x` (as read from a file):
    /// `1 <= x < q`. Its bound is the group's exponent length when `x` is
    /// below `2^exponent_bits`, else the length of `q` (which of the two a
    /// key is, is public, as its size is).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidKey`] when `x` is 0 or not below `q`.
    pub fn from_exponent(group: Group, x: &SecretNat) -> Result<Self> {
        let params = group.params();
        let x = x
            .resize(params.p.len())
            .ok_or_else(|| Error::InvalidKey("private value x is longer than p".into()))?;
        if !declassify(x.ct_lt_nat(&params.q) & !x.ct_is_zero()) {
            return Err(Error::InvalidKey("private value x is not in [1, q - 1]".into()));
        }
        let bits = if declassify(x.ct_below_pow2(group.exponent_bits())) {
            group.exponent_bits()
        } else {
            params.q.bits()
        };
        Self::with_bound(group, x, bits)
    }

    fn with_bound(group: Group, x: SecretNat, exp_bits: usize) -> Result<Self> {
        let params = group.params();
        let engine = redc::engine::default_engine();
        let p = params.p.prepare(engine);
        let g = params.p.base(&params.g).ok_or(Error::Rng)?;
        let job = PowJob {
            base: &g,
            exp: &x,
            exp_bits,
            modulus: &p,
        };
        let y = engine.pow(&[job]).pop().ok_or(Error::Rng)??.into_revealed();
        Ok(Self {
            x,
            exp_bits,
            public: DhPublicKey { group, y },
            level: SecurityLevel::DEFAULT,
        })
    }

    /// The key's security level ([`SecurityLevel::DEFAULT`] unless set): a
    /// derivation in a group whose prime is below its minimum is refused.
    pub fn security_level(&self) -> SecurityLevel {
        self.level
    }

    /// The key at security level `level`.
    pub fn with_security_level(mut self, level: SecurityLevel) -> Self {
        self.level = level;
        self
    }

    /// The public key.
    pub fn public_key(&self) -> &DhPublicKey {
        &self.public
    }

    /// The group.
    pub fn group(&self) -> Group {
        self.public.group
    }

    /// The exponent `x`.
    pub fn exponent(&self) -> &SecretNat {
        &self.x
    }

    /// The public bound on the exponent's length, in bits.
    pub fn exponent_bits(&self) -> usize {
        self.exp_bits
    }

    /// The shared secret with a peer's public value `y`: `Z = y^x mod p` as
    /// the byte length of `p` (SP 800-56A §5.7.1.1; TLS 1.3 and RFC 7919
    /// pad it the same way). One derivation on the default engine.
    ///
    /// # Errors
    ///
    /// As [`derive_batch`].
    pub fn derive(&self, y: &Num) -> Result<Zeroizing<Vec<u8>>> {
        derive_batch(redc::engine::default_engine(), &[(self, y)])
            .pop()
            .unwrap_or(Err(Error::Rng))
    }

    /// The shared secrets with many peers' public values `ys`, in order,
    /// as [`Self::derive`] gives each: every exponentiation in one
    /// constant-time batch on `engine`.
    ///
    /// # Errors
    ///
    /// Per peer, as [`derive_batch`].
    pub fn derive_batch(&self, engine: &Engine, ys: &[&Num]) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        let items: Vec<(&DhPrivateKey, &Num)> = ys.iter().map(|&y| (self, y)).collect();
        derive_batch(engine, &items)
    }
}

/// The shared secrets of many (key, peer value) pairs, in order: every
/// peer value checked ([`check_public`]), then every exponentiation in one
/// constant-time engine batch, the keys' groups mixed freely. A bad peer
/// value fails its own slot only.
///
/// # Errors
///
/// Per slot: [`Error::InvalidPeer`]; [`Error::FaultDetected`] when the
/// checked peer value changed before the exponentiation; [`Error::Engine`]
/// if the engine fails.
pub fn derive_batch(engine: &Engine, items: &[(&DhPrivateKey, &Num)]) -> Vec<Result<Zeroizing<Vec<u8>>>> {
    let mut groups: Vec<Group> = items.iter().map(|(k, _)| k.group()).collect();
    groups.sort_by_key(|g| g.name());
    groups.dedup();
    let prepared: Vec<_> = groups.iter().map(|g| g.params().p.prepare(engine)).collect();
    let mut bases: Vec<Result<SecretNat>> = items
        .par_iter()
        .map(|(key, y)| {
            crate::check_level(key.level, "Diffie-Hellman", key.group().bits())?;
            check_public(key.group(), y)?;
            key.group()
                .params()
                .p
                .base(y)
                .ok_or(Error::InvalidPeer("not below p - 1"))
        })
        .collect();
    // (A test's fault is armed on this thread.)
    for (slot, base) in bases.iter_mut().enumerate() {
        if let Ok(b) = base
            && fault::strikes(Stage::DhBase, slot)
        {
            *b = fault::flip(b);
        }
    }
    let (slots, jobs): (Vec<usize>, Vec<PowJob<'_>>) = bases
        .iter()
        .enumerate()
        .filter_map(|(i, base)| {
            let base = base.as_ref().ok()?;
            let key = items[i].0;
            let class = groups.iter().position(|g| *g == key.group())?;
            Some((
                i,
                PowJob {
                    base,
                    exp: &key.x,
                    exp_bits: key.exp_bits,
                    modulus: &prepared[class],
                },
            ))
        })
        .unzip();
    let outputs = engine.pow(&jobs);
    drop(jobs);
    let mut results: Vec<Result<Zeroizing<Vec<u8>>>> = bases
        .iter()
        .map(|b| b.as_ref().map(|_| Zeroizing::new(Vec::new())).map_err(Clone::clone))
        .collect();
    let skipped = fault::checks_skipped();
    for (slot, z) in slots.into_iter().zip(outputs) {
        let p = &items[slot].0.group().params().p;
        let len = p.byte_len();
        // The base the exponentiation was given must still be the peer
        // value that was checked: a fault in between could have moved it
        // out of the subgroup (and `Z` would then show `x mod 2`).
        let base_kept = bases[slot]
            .as_ref()
            .is_ok_and(|b| p.base(items[slot].1).is_some_and(|y| declassify(y.ct_eq(b))));
        let z = z.map(|z| match fault::strikes(Stage::DhResult, slot) {
            true => fault::flip(&z),
            false => z,
        });
        results[slot] = z.map_err(Error::from).and_then(|z| {
            if !(skipped || base_kept) {
                return Err(Error::FaultDetected);
            }
            // Z = 1 cannot follow from a checked y and x in [1, q - 1]; it
            // would mean a fault, and is refused (§5.7.1.1 step 2).
            let one = SecretNat::from_limbs(vec![1]);
            if declassify(z.ct_eq(&one)) {
                return Err(Error::InvalidPeer("gives the shared secret 1"));
            }
            z.to_be_bytes(len).ok_or(Error::Rng)
        });
    }
    fault::disarm();
    results
}
