//! Batches of RSA primitives on the batch engine ([`redc::Engine`]).
//!
//! A private batch (RSADP / RSASP1, RFC 8017 §5.1.2, for every input) runs
//! in five steps, each one engine call or one parallel pass:
//!
//! 1. blinding: a fresh uniform `r` per input and `c' = c·r^e mod n`, the
//!    `r^e` of the whole batch as ONE public engine batch; the `r^-1` by
//!    Montgomery's batch-inversion trick, with one variable-time inversion
//!    per batch whose input is a uniformly random unit — or, when the CRT
//!    jobs of step 2 fill at most half of the lanes (a batch of one on
//!    IFMA), by Fermat, `(r mod r_i)^(r_i - 2) mod r_i`, as more lane jobs
//!    of step 2 (idle lanes cost nothing) recombined like the halves;
//! 2. CRT halves: `(c' mod r_i)^(d mod (r_i - 1)) mod r_i` for every input
//!    and every prime as separate lane jobs of ONE secret engine batch (the
//!    bound `exp_bits` is the public bit length of `r_i`): the halves of one
//!    operation are lanes of one group, eight lanes hold four two-prime
//!    operations, and a batch of one runs its halves side by side;
//! 3. Garner's recombination (RFC 8017 §5.1.2 step 2b, with the CRT
//!    coefficients of the key);
//! 4. the check `y^e = c' (mod n)` of every result as ONE public engine
//!    batch (the Bellcore fault attack): a mismatch is
//!    [`Error::FaultDetected`] for that input, and nothing is released;
//! 5. unblinding, `m = y·r^-1 mod n`, after checking `r·r^-1 = 1`.
//!
//! [`CrtMode::Fdfm`] and [`CrtMode::Plain`] (comparison modes) replace
//! steps 2 and 3 by their scalar code. An input that is not below `n` gets
//! [`Error::OutOfRange`] and leaves the others alone.

use crate::Num;
use crate::error::{Error, Result};
use crate::key::{CrtMode, PRODUCT, RsaPrivateKey, RsaPublicKey, random_below};
use rand_core::CryptoRngCore;
use rayon::prelude::*;
use redc::{Engine, EngineError, Modulus, MontElem, PowJob, Prepared, Secrecy};
use zeroize::Zeroizing;

/// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1) for every input, in order, on
/// `engine`: CRT with Garner's formula over every prime, blinded with a
/// fresh `r` per input, checked with the public exponent (see the module
/// documentation). Each answer is `c^d mod n`, or the error of that input.
pub fn rsa_private_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    inputs: &[Num],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Num>> {
    private_batch(engine, key, inputs, CrtMode::Garner, rng)
}

/// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2) for every input, in order: ONE
/// public engine batch of `m^e mod n` (windows depend on `e` only). An input
/// not below `n` gets [`Error::OutOfRange`].
pub fn rsa_public_batch(engine: &Engine, key: &RsaPublicKey, inputs: &[Num]) -> Vec<Result<Num>> {
    on_ok(in_range(key.n(), inputs), |xs| match key.prepared(engine) {
        Ok(n) => pow_e(engine, &n, key.e(), &xs)
            .into_iter()
            .map(|r| r.map_err(Error::from))
            .collect(),
        Err(e) => fail_all(xs.len(), &e),
    })
}

/// The private batch of the module documentation, with `mode`'s way of
/// combining the primes ([`RsaPrivateKey::rsadp`] is a batch of one).
pub(crate) fn private_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    inputs: &[Num],
    mode: CrtMode,
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Num>> {
    let public = key.public_key();
    let blinded = on_ok(in_range(public.n(), inputs), |cs| {
        // When the CRT jobs fill at most half of the lanes (a batch of one
        // on IFMA), r^-1 comes from Fermat in the idle lanes, for free;
        // otherwise from one batch inversion.
        let in_lanes = mode == CrtMode::Garner && 2 * cs.len() * key.primes().len() <= engine.lanes();
        blind(engine, public, &cs, !in_lanes, rng)
    });
    let raw = on_ok(blinded, |ops| match mode {
        CrtMode::Garner => crt(engine, key, ops),
        CrtMode::Fdfm => ops
            .into_par_iter()
            .map(|mut op| {
                op.y = Zeroizing::new(key.fdfm(&op.x)?);
                Ok(op)
            })
            .collect(),
        CrtMode::Plain => ops
            .into_par_iter()
            .map(|mut op| {
                op.y = Zeroizing::new(key.plain(&op.x));
                Ok(op)
            })
            .collect(),
    });
    let checked = on_ok(raw, |ops| check(engine, public, ops));
    let m = public.modulus();
    on_ok(checked, |ops| ops.into_par_iter().map(|op| unblind(m, &op)).collect())
}

/// Secret numbers, wiped on drop (one per input, or one per prime).
type Secrets = Vec<Zeroizing<Num>>;

/// One private operation in flight.
struct Op {
    /// The blinding factor `r`, uniform in `[1, n)`.
    r: Zeroizing<Num>,
    /// `r^-1 mod n` in Montgomery form: from the batch inversion, or (while
    /// `None`) still to come from the CRT lanes.
    r_inv: Option<MontElem<u64>>,
    /// The blinded input `c' = c·r^e mod n`.
    x: Zeroizing<Num>,
    /// `c'^d mod n` once computed (zero before).
    y: Zeroizing<Num>,
}

/// Step 1: blind every input `c < n` with a fresh `r`; with `invert`, find
/// every `r^-1` too (one batch inversion).
fn blind(
    engine: &Engine,
    public: &RsaPublicKey,
    cs: &[&Num],
    invert: bool,
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Op>> {
    let n = match public.prepared(engine) {
        Ok(n) => n,
        Err(e) => return fail_all(cs.len(), &e),
    };
    let (rs, inverses) = match draw(public, cs.len(), invert, rng) {
        Ok(drawn) => drawn,
        Err(e) => return fail_all(cs.len(), &e),
    };
    let r_e = pow_e(engine, &n, public.e(), &rs.iter().map(|r| &**r).collect::<Vec<_>>());
    let inverses: Vec<Option<MontElem<u64>>> = match inverses {
        Some(inverses) => inverses.into_iter().map(Some).collect(),
        None => rs.iter().map(|_| None).collect(),
    };
    let m = public.modulus();
    cs.par_iter()
        .zip(rs)
        .zip(inverses)
        .zip(r_e)
        .map(|(((c, r), r_inv), r_e)| {
            let r_e = Zeroizing::new(r_e?);
            // c < n (checked) and r^e < n (the engine reduces): never None.
            let x = mul_mod(m, c, &r_e).ok_or(Error::FaultDetected)?;
            Ok(Op {
                r,
                r_inv,
                x: Zeroizing::new(x),
                y: Zeroizing::default(),
            })
        })
        .collect()
}

/// `count` blinding factors `r`, uniform in `[1, n)`, and with `invert`
/// their inverses modulo `n` in Montgomery form.
fn draw(
    public: &RsaPublicKey,
    count: usize,
    invert: bool,
    rng: &mut impl CryptoRngCore,
) -> Result<(Secrets, Option<Vec<MontElem<u64>>>)> {
    let n = public.n();
    loop {
        let rs = (0..count)
            .map(|_| random_below(n, rng).map(Zeroizing::new))
            .collect::<Result<Vec<_>>>()?;
        if !invert {
            return Ok((rs, None));
        }
        let a = Zeroizing::new(random_below(n, rng)?);
        if let Some(inverses) = invert_all(public, &rs, &a) {
            return Ok((rs, Some(inverses)));
        }
    }
}

/// Montgomery's batch-inversion trick: `r_i^-1 mod n` in Montgomery form
/// for every `r_i` from ONE inversion, of `(r_1···r_k)·α` with `α` (whose
/// Montgomery digits are `a`) uniform and independent, so that the
/// variable-time inversion sees only a uniformly random unit (as key.rs did
/// per operation with `r·a`). `None` when that product is not a unit (a
/// random value sharing a prime with `n`: negligible).
fn invert_all(public: &RsaPublicKey, rs: &[Zeroizing<Num>], a: &Num) -> Option<Vec<MontElem<u64>>> {
    let m = public.modulus();
    let rs: Vec<MontElem<u64>> = rs.par_iter().map(|r| mont_form(m, r)).collect::<Option<_>>()?;
    let alpha = m.elem_from_mont_digits(a)?;
    let r2 = m.elem_from_mont_digits(&m.r2_mod_n())?;
    let mut mm = m.multiplier(PRODUCT);
    // prefix[i] = r_1···r_(i+1), in Montgomery form.
    let mut prefix: Vec<MontElem<u64>> = Vec::with_capacity(rs.len());
    for r in &rs {
        let next = match prefix.last() {
            Some(p) => mm.mul(p, r),
            None => r.clone(),
        };
        prefix.push(next);
    }
    let Some(all) = prefix.last() else {
        return Some(Vec::new());
    };
    let masked = mm.mul(all, &alpha);
    let masked = Zeroizing::new(mm.from_mont(&masked));
    let inv = m.elem_from_mont_digits(&Zeroizing::new(masked.inv_mod(public.n())?))?;
    // MonPro(inv, α·R) = (r_1···r_k)^-1 as plain digits; ·R^2 makes it Montgomery form.
    let plain = mm.mul(&inv, &alpha);
    let mut acc = mm.mul(&plain, &r2);
    // Walk back: r_i^-1 = (r_1···r_i)^-1 · (r_1···r_(i-1)).
    let mut inverses = Vec::with_capacity(rs.len());
    for i in (1..rs.len()).rev() {
        inverses.push(mm.mul(&acc, &prefix[i - 1]));
        acc = mm.mul(&acc, &rs[i]);
    }
    inverses.push(acc);
    inverses.reverse();
    Some(inverses)
}

/// Steps 2 and 3 with Garner's formula: every half of every operation in
/// one secret engine batch, then the recombination. An operation still
/// without `r^-1` adds the lane jobs `(r mod p_i)^(p_i - 2) mod p_i`
/// (Fermat) and recombines them into `r^-1 mod n`.
fn crt(engine: &Engine, key: &RsaPrivateKey, ops: Vec<Op>) -> Vec<Result<Op>> {
    let primes = match key.prepared_primes(engine) {
        Ok(p) => p,
        Err(e) => return fail_all(ops.len(), &e),
    };
    let exps = key.crt_exponents();
    let fermat: Secrets = key
        .primes()
        .iter()
        .map(|p| Zeroizing::new(p.checked_sub(&Num::from_u64(2)).unwrap_or_default()))
        .collect();
    // Per operation: x mod p_i, and r mod p_i while r^-1 is missing.
    let residues: Vec<(Secrets, Secrets)> = ops
        .par_iter()
        .map(|op| {
            let rs = if op.r_inv.is_none() {
                key.residues(&op.r)
            } else {
                Vec::new()
            };
            (key.residues(&op.x), rs)
        })
        .collect();
    let jobs: Vec<PowJob<'_>> = residues
        .iter()
        .flat_map(|(xs, rs)| {
            let x_jobs = xs.iter().zip(&exps).map(|(x, d)| (x, *d));
            let r_jobs = rs.iter().zip(&fermat).map(|(r, f)| (r, &**f));
            x_jobs
                .chain(r_jobs)
                .zip(primes.iter().cycle())
                .map(|((base, exp), p)| PowJob {
                    base,
                    exp,
                    exp_bits: p.bits(),
                    modulus: p,
                })
        })
        .collect();
    let mut halves = engine
        .pow_batch(&jobs, Secrecy::Secret)
        .into_iter()
        .map(|h| h.map(Zeroizing::new));
    type Halves = core::result::Result<Secrets, EngineError>;
    let per_op: Vec<(Halves, Halves)> = residues
        .iter()
        .map(|(xs, rs)| {
            let ys = halves.by_ref().take(xs.len()).collect();
            (ys, halves.by_ref().take(rs.len()).collect())
        })
        .collect();
    let m = key.public_key().modulus();
    ops.into_par_iter()
        .zip(per_op)
        .map(|(mut op, (ys, r_invs))| {
            op.y = Zeroizing::new(key.recombine(&ys?));
            let r_invs = r_invs?;
            if !r_invs.is_empty() {
                let r_inv = Zeroizing::new(key.recombine(&r_invs));
                op.r_inv = Some(mont_form(m, &r_inv).ok_or(Error::FaultDetected)?);
            }
            Ok(op)
        })
        .collect()
}

/// Step 4: `y^e mod n` for every result as one public engine batch; only
/// the results that give back their blinded input go on.
fn check(engine: &Engine, public: &RsaPublicKey, ops: Vec<Op>) -> Vec<Result<Op>> {
    let n = match public.prepared(engine) {
        Ok(n) => n,
        Err(e) => return fail_all(ops.len(), &e),
    };
    let ys: Vec<&Num> = ops.iter().map(|op| &*op.y).collect();
    let back = pow_e(engine, &n, public.e(), &ys);
    ops.into_iter()
        .zip(back)
        .map(|(op, back)| match back.map(Zeroizing::new) {
            Ok(x) if x == op.x => Ok(op),
            // A wrong result, or one not below n.
            _ => Err(Error::FaultDetected),
        })
        .collect()
}

/// Step 5: `m = y·r^-1 mod n`, one Montgomery product (`y` as Montgomery
/// digits times `r^-1` in Montgomery form gives the plain product), after
/// checking `r·r^-1 = 1` the same way: a fault in `r^-1` (or an `r` that
/// shares a prime with `n`) would otherwise slip past the check of step 4.
fn unblind(m: &Modulus<u64>, op: &Op) -> Result<Num> {
    let r_inv = op.r_inv.as_ref().ok_or(Error::FaultDetected)?;
    let (r, y) = (m.elem_from_mont_digits(&op.r), m.elem_from_mont_digits(&op.y));
    let (r, y) = r.zip(y).ok_or(Error::FaultDetected)?;
    let mut mm = m.multiplier(PRODUCT);
    if digits(&mm.mul(&r, r_inv)) != Num::one() {
        return Err(Error::FaultDetected);
    }
    Ok(digits(&mm.mul(&y, r_inv)))
}

/// `x·R mod n` (Montgomery form) for `x < n` in one product and in
/// constant time: `MonPro(x, R^2 mod n)`. `None` if `x` is not below `n`.
fn mont_form(m: &Modulus<u64>, x: &Num) -> Option<MontElem<u64>> {
    let (x, r2) = (m.elem_from_mont_digits(x)?, m.elem_from_mont_digits(&m.r2_mod_n())?);
    Some(m.multiplier(PRODUCT).mul(&x, &r2))
}

/// `a·b mod n` for `a, b < n` in two Montgomery products and in constant
/// time: `MonPro(MonPro(a, b), R^2 mod n)`, the operands taken as
/// Montgomery digits as they are. `None` if an operand is not below `n`.
fn mul_mod(m: &Modulus<u64>, a: &Num, b: &Num) -> Option<Num> {
    let (a, b) = (m.elem_from_mont_digits(a)?, m.elem_from_mont_digits(b)?);
    let r2 = m.elem_from_mont_digits(&m.r2_mod_n())?;
    let mut mm = m.multiplier(PRODUCT);
    let ab = mm.mul(&a, &b);
    Some(digits(&mm.mul(&ab, &r2)))
}

/// The digits of a Montgomery element as a number.
fn digits(x: &MontElem<u64>) -> Num {
    Num::from_digits(x.digits().to_vec())
}

/// `x^e mod n` for every `x < n` as one engine batch with
/// [`Secrecy::Public`]: `e` is public, and only it decides the windows.
fn pow_e(engine: &Engine, n: &Prepared, e: &Num, xs: &[&Num]) -> Vec<core::result::Result<Num, EngineError>> {
    let jobs: Vec<PowJob<'_>> = xs
        .iter()
        .map(|x| PowJob {
            base: x,
            exp: e,
            exp_bits: e.bits(),
            modulus: n,
        })
        .collect();
    engine.pow_batch(&jobs, Secrecy::Public)
}

/// Every input below `n`, or [`Error::OutOfRange`].
fn in_range<'a>(n: &Num, inputs: &'a [Num]) -> Vec<Result<&'a Num>> {
    inputs
        .iter()
        .map(|x| if x < n { Ok(x) } else { Err(Error::OutOfRange) })
        .collect()
}

/// Run `step` once on the items still in play (the `Ok`s, in order; not at
/// all when there are none) and put its answers, one per item, back in
/// their places; errors stay where they are.
pub(crate) fn on_ok<T, U>(items: Vec<Result<T>>, step: impl FnOnce(Vec<T>) -> Vec<Result<U>>) -> Vec<Result<U>> {
    let mut live = Vec::new();
    let slots: Vec<Option<Error>> = items
        .into_iter()
        .map(|item| match item {
            Ok(x) => {
                live.push(x);
                None
            }
            Err(e) => Some(e),
        })
        .collect();
    let mut answers = if live.is_empty() { Vec::new() } else { step(live) }.into_iter();
    slots
        .into_iter()
        .map(|slot| match slot {
            Some(e) => Err(e),
            None => answers.next().expect("a step answers every item"),
        })
        .collect()
}

/// The same error for each of `len` items (a step that cannot run at all).
fn fail_all<U>(len: usize, e: &Error) -> Vec<Result<U>> {
    (0..len).map(|_| Err(e.clone())).collect()
}
