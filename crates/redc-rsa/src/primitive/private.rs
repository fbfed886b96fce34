//! The private operation RSADP / RSASP1 (RFC 8017 §5.1.2) for a batch of
//! inputs on the engine, in five steps, each made of engine calls and
//! parallel passes (and, in step 2, a short chain over the chunks of
//! Montgomery's trick):
//!
//! 1. blinding: each input takes the next pair `(r^e, r^-1)` of the key's
//!    blinding chain (module `blinding`) while it has uses left; the others
//!    draw a fresh `r` (statistically uniform, on every core: [`draw`]) and
//!    get `r^e` from ONE public-exponent engine batch; `c' = c·r^e mod n`;
//! 2. CRT halves: `(c' mod r_i)^(d mod (r_i - 1)) mod r_i` for every input
//!    and every prime as separate lane jobs of ONE secret engine batch (the
//!    bound `exp_bits` is the public length of `r_i`): the halves of one
//!    operation are lanes of one group, eight lanes hold four two-prime
//!    operations, and a batch of one runs its halves side by side. The
//!    fresh `r`s are inverted in the same batch, by Montgomery's trick (its
//!    running products in chunks, one per core, the chunks' totals chained)
//!    and ONE constant-time inversion of their product `P` by Fermat,
//!    `(P mod r_i)^(r_i - 2) mod r_i`, as more lane jobs recombined like
//!    the halves (no variable-time inversion anywhere);
//! 3. Garner's recombination ([`crate::crt::recombine`]), on every core;
//! 4. unblinding, `m = y·r^-1 mod n`;
//! 5. the check `m^e = c (mod n)` of every result as ONE public-exponent
//!    engine batch: it catches a fault in any step before (the Bellcore
//!    attack on the halves, a wrong `r^e` or `r^-1`, for any `c` that is a
//!    unit modulo `n`: `c = 0` passes whatever the pair); a mismatch is
//!    [`Error::FaultDetected`] for that input, nothing of it is released,
//!    and the key's blinding chain is dropped. A fresh pair that passed
//!    with `c ≠ 0` renews the chain (a pair faulty modulo one prime that
//!    slipped through with `c ≡ 0` there is caught on its next use).
//!
//! Every value is a [`SecretNat`] or a [`Residue`] modulo `n`; the glue
//! (reductions, products, Garner) runs on the same 64-bit kernels as the
//! exponentiations. [`CrtMode::Fdfm`] and [`CrtMode::Plain`] (comparison
//! modes) replace the halves and Garner by their scalar code. An input that
//! is not below `n` gets [`Error::OutOfRange`] and leaves the others alone.

use super::{fail_all, in_range, on_ok, pow_e};
use crate::Num;
use crate::blinding::Pair;
use crate::crt::{self, CrtMode};
use crate::error::{Error, Result};
use crate::fault::{self, Stage};
use crate::key::RsaPrivateKey;
use crate::role::N;
use aes::Aes256;
use aes::Block;
use aes::cipher::{BlockEncrypt, KeyInit};
use rand_core::CryptoRngCore;
use rayon::prelude::*;
use redc::secret::declassify;
use redc::{Domain, Engine, EngineError, PowJob, Residue, SecretNat};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// The private batch of the module documentation, with `mode`'s way of
/// combining the primes.
pub(crate) fn private_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    inputs: &[Num],
    mode: CrtMode,
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<SecretNat>> {
    if let Err(e) = key.check_policy() {
        return fail_all(inputs.len(), &e);
    }
    // Each input with its slot in the batch (what a test's fault names).
    let slotted = in_range(key.public_key().n(), inputs)
        .into_iter()
        .enumerate()
        .map(|(slot, c)| c.map(|c| (slot, c)))
        .collect();
    let blinded = on_ok(slotted, |cs| blind(engine, key, &cs, rng));
    let raw = on_ok(blinded, |ops| match mode {
        CrtMode::Garner => halves(engine, key, ops, true),
        scalar => {
            let ops = ops
                .into_par_iter()
                .map(|mut op| {
                    op.y = match scalar {
                        CrtMode::Fdfm => crt::fdfm(key, &op.x)?,
                        _ => crt::plain(key, &op.x),
                    };
                    Ok(op)
                })
                .collect();
            on_ok(ops, |ops| halves(engine, key, ops, false))
        }
    });
    let answers = on_ok(raw, |ops| check(engine, key, ops));
    fault::disarm();
    answers
}

/// The CRT halves of one operation, as the engine answered them.
type Halves = core::result::Result<Vec<SecretNat>, EngineError>;

/// One private operation in flight.
struct Op {
    /// Its place in the batch.
    slot: usize,
    /// The input `c < n`, in `n`'s digit count.
    c: SecretNat,
    /// Its blinding factor `r` and `r^e`, in Montgomery form.
    r: Residue<N>,
    r_e: Residue<N>,
    /// `r^-1` in Montgomery form; `None` while it is still to come from the
    /// inversion of step 2 (a freshly drawn `r`).
    r_inv: Option<Residue<N>>,
    /// Whether `r` was drawn for this batch (and may renew the chain).
    fresh: bool,
    /// The blinded input `c' = c·r^e mod n`.
    x: SecretNat,
    /// `c'^d mod n` once computed (zero before).
    y: SecretNat,
}

/// Step 1: blind every input `c < n` with the key's chain or a fresh `r`.
fn blind(engine: &Engine, key: &RsaPrivateKey, cs: &[(usize, &Num)], rng: &mut impl CryptoRngCore) -> Vec<Result<Op>> {
    let public = key.public_key();
    let n = public.domain();
    let chained = key.blinding.take(n, cs.len());
    let fresh = match draw(engine, key, cs.len() - chained.len(), rng) {
        Ok(fresh) => fresh,
        Err(e) => return fail_all(cs.len(), &e),
    };
    let pairs = chained
        .into_iter()
        .map(|p| Ok((p.r, p.r_e, Some(p.r_inv))))
        .chain(fresh.into_iter().map(|p| p.map(|(r, r_e)| (r, r_e, None))));
    let len = public.n().digits().len();
    cs.par_iter()
        .zip(pairs.collect::<Vec<_>>())
        .map(|(&(slot, c), pair)| {
            let (r, r_e, r_inv) = pair?;
            // c < n in n's digit count (checked); r^e in Montgomery form:
            // one product gives the plain c·r^e.
            let c = SecretNat::from_nat(c, len).ok_or(Error::OutOfRange)?;
            let x = n.mul_plain(&c, &r_e).ok_or(Error::FaultDetected)?;
            Ok(Op {
                slot,
                c,
                fresh: r_inv.is_none(),
                r,
                r_e,
                r_inv,
                x,
                y: SecretNat::zero(len),
            })
        })
        .collect()
}

/// A fresh blinding factor `r` and `r^e`, in Montgomery form.
type Drawn = (Residue<N>, Residue<N>);

/// `count` fresh blinding factors `r` below `n`, with `r^e` (one
/// public-exponent engine batch), both in Montgomery form.
///
/// Each `r` is at least 64 random bits more than `n` has, reduced modulo
/// `n`: its distance from uniform is below 2^-64 (FIPS 186-5 B.4.1's
/// "extra random bits"), so no draw is rejected. The bits are AES-256 in
/// counter mode under one key from the caller's generator (SP 800-90A's
/// CTR_DRBG construction), every factor on its own core: drawn one by one
/// from the operating system, each factor cost a system call, and beside
/// a GPU that serial loop was most of a batch's time on the host.
fn draw(
    engine: &Engine,
    key: &RsaPrivateKey,
    count: usize,
    rng: &mut impl CryptoRngCore,
) -> Result<Vec<Result<Drawn>>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let public = key.public_key();
    let n = public.prepared(engine);
    let domain = public.domain();
    // Whole AES blocks per factor, one digit more than n at least.
    let digits = (public.n().digits().len() + 1).next_multiple_of(2);
    let mut seed = Zeroizing::new([0u8; 32]);
    rng.try_fill_bytes(&mut seed[..]).map_err(|_| Error::Rng)?;
    let cipher = Aes256::new((&*seed).into());
    let drawn: Vec<(Residue<N>, SecretNat)> = (0..count)
        .into_par_iter()
        .map(|slot| {
            let mut bytes = Zeroizing::new(vec![0u8; 8 * digits]);
            for (i, block) in bytes.chunks_exact_mut(16).enumerate() {
                let counter = (slot * digits / 2 + i) as u128;
                block.copy_from_slice(&counter.to_le_bytes());
                cipher.encrypt_block(Block::from_mut_slice(block));
            }
            let x = SecretNat::from_be_bytes(&bytes, digits).unwrap_or_else(|| SecretNat::zero(digits));
            let r = domain.enter(&x);
            let plain = domain.leave(&r);
            (r, plain)
        })
        .collect();
    let r_e = pow_e(
        engine,
        &n,
        public.e(),
        &drawn.iter().map(|(_, r)| r).collect::<Vec<_>>(),
    );
    Ok(drawn
        .into_par_iter()
        .zip(r_e)
        .map(|((r, _), r_e)| Ok((r, domain.enter(&r_e?))))
        .collect())
}

/// Steps 2 and 3: with `with_x`, every half of every operation in one
/// secret engine batch and Garner's recombination; in the same batch, the
/// Fermat jobs `(P mod r_i)^(r_i - 2) mod r_i` of the product `P` of the
/// fresh `r`s, recombined into `P^-1` and walked back into each `r^-1`
/// (Montgomery's trick).
fn halves(engine: &Engine, key: &RsaPrivateKey, mut ops: Vec<Op>, with_x: bool) -> Vec<Result<Op>> {
    let primes = key.prepared_primes(engine);
    let n = key.public_key().domain();
    // Montgomery's trick in chunks, one per core: each chunk's running
    // products of its fresh r (in Montgomery form), on its own core; then
    // the running products of the chunks' totals, whose last is P.
    let fresh: Vec<usize> = (0..ops.len()).filter(|&i| ops[i].r_inv.is_none()).collect();
    let chunk = fresh.len().div_ceil(rayon::current_num_threads()).max(MIN_CHUNK);
    let prefixes: Vec<Vec<Residue<N>>> = fresh
        .par_chunks(chunk)
        .map(|idx| running(n, idx.iter().map(|&i| &ops[i].r)))
        .collect();
    let totals: Vec<&Residue<N>> = prefixes.iter().filter_map(|p| p.last()).collect();
    let prefix = running(n, totals.iter().copied());
    let xs: Vec<Vec<SecretNat>> = if with_x {
        ops.par_iter().map(|op| crt::residues(key, &op.x)).collect()
    } else {
        Vec::new()
    };
    let ps = prefix
        .last()
        .map(|p| crt::residues(key, &n.leave(p)))
        .unwrap_or_default();
    let exps = key.crt_exponents();
    let fermat = key.fermat_exponents();
    let jobs: Vec<PowJob<'_>> = xs
        .iter()
        .flat_map(|xs| xs.iter().zip(exps.iter().copied()))
        .chain(ps.iter().zip(fermat))
        .zip(primes.iter().cycle())
        .map(|((base, exp), p)| PowJob {
            base,
            exp,
            // The prime's public bound (`d_i`, `r_i - 2 < r_i`).
            exp_bits: p.bits(),
            modulus: p,
        })
        .collect();
    let answers = if jobs.is_empty() { Vec::new() } else { engine.pow(&jobs) };
    let mut answers = answers.into_iter();
    // Each operation's answers taken in full before any error is looked
    // at, so that one failed job cannot shift the answers of the others.
    let mut take = |count: usize| -> Halves { answers.by_ref().take(count).collect::<Vec<_>>().into_iter().collect() };
    let mut ys: Vec<Halves> = xs.iter().map(|xs| take(xs.len())).collect();
    for (y, op) in ys.iter_mut().zip(&ops) {
        if let Ok(halves) = y
            && fault::strikes(Stage::Half, op.slot)
        {
            halves[0] = fault::flip(&halves[0]);
        }
    }
    // P^-1, walked back into each chunk's total^-1, then (each chunk on
    // its own core) into each r^-1.
    let inverse =
        (!fresh.is_empty()).then(|| -> Result<Residue<N>> { Ok(n.enter(&crt::recombine(key, &take(ps.len())?)?)) });
    let mut failed: Option<Error> = None;
    match inverse {
        Some(Ok(acc)) => {
            let chunk_inverses = inverses(n, acc, &totals, &prefix);
            let r_invs: Vec<Vec<Residue<N>>> = fresh
                .par_chunks(chunk)
                .zip(prefixes.par_iter())
                .zip(chunk_inverses)
                .map(|((idx, prefix), acc)| {
                    let rs: Vec<&Residue<N>> = idx.iter().map(|&i| &ops[i].r).collect();
                    inverses(n, acc, &rs, prefix)
                })
                .collect();
            for (&i, r_inv) in fresh.iter().zip(r_invs.into_iter().flatten()) {
                ops[i].r_inv = Some(r_inv);
            }
        }
        Some(Err(e)) => failed = Some(e),
        None => {}
    }
    // Garner's recombination on every core.
    let mut ys = ys.into_iter();
    let paired: Vec<(Op, Option<Halves>)> = ops.into_iter().map(|op| (op, ys.next())).collect();
    let mut done: Vec<Result<Op>> = paired
        .into_par_iter()
        .map(|(mut op, halves)| {
            if op.r_inv.is_none() {
                return Err(failed.clone().unwrap_or(Error::FaultDetected));
            }
            if let Some(halves) = halves {
                op.y = crt::recombine(key, &halves?)?;
            }
            Ok(op)
        })
        .collect();
    // (A test's fault is armed on this thread.)
    for op in done.iter_mut().flatten() {
        if fault::strikes(Stage::Garner, op.slot) {
            op.y = fault::flip(&op.y);
        }
    }
    done
}

/// The fewest fresh factors a chunk of Montgomery's trick takes. Chunking
/// adds no products (a chunk boundary trades the three of the chain for
/// three on the chunks' totals), but each chunk is a rayon task and a
/// link of the totals' serial chain: small batches keep one.
const MIN_CHUNK: usize = 64;

/// The running products `x_0`, `x_0·x_1`, ... of `xs` (Montgomery form).
fn running<'a>(n: &Domain<N>, xs: impl IntoIterator<Item = &'a Residue<N>>) -> Vec<Residue<N>> {
    let mut out: Vec<Residue<N>> = Vec::new();
    for x in xs {
        out.push(out.last().map_or_else(|| x.clone(), |p| n.mul(p, x)));
    }
    out
}

/// Every `x_i^-1` of `xs`, in order, from `acc = (x_0···x_(k-1))^-1` and
/// the running products `prefix` of `xs` ([`running`]): `x_i^-1 =
/// P_i^-1 · P_(i-1)` and `P_(i-1)^-1 = P_i^-1 · x_i`, from the last down.
fn inverses(n: &Domain<N>, mut acc: Residue<N>, xs: &[&Residue<N>], prefix: &[Residue<N>]) -> Vec<Residue<N>> {
    let mut out = Vec::with_capacity(xs.len());
    for k in (1..xs.len()).rev() {
        out.push(n.mul(&acc, &prefix[k - 1]));
        acc = n.mul(&acc, xs[k]);
    }
    out.push(acc);
    out.reverse();
    out
}

/// Steps 4 and 5: unblind every result, `m = y·r^-1` (one product of the
/// plain `y` by `r^-1` in Montgomery form), then check `m^e = c` as one
/// public-exponent engine batch; only the results that give back their
/// input are released. A fresh pair that passed renews the key's chain; a
/// fault drops it.
fn check(engine: &Engine, key: &RsaPrivateKey, mut ops: Vec<Op>) -> Vec<Result<SecretNat>> {
    let public = key.public_key();
    let n = public.prepared(engine);
    let domain = public.domain();
    for op in &mut ops {
        if let Some(r_inv) = &op.r_inv
            && fault::strikes(Stage::Blinding, op.slot)
        {
            op.r_inv = Some(domain.add(r_inv, &domain.one()));
        }
    }
    let ms: Vec<Result<(Op, SecretNat)>> = ops
        .into_par_iter()
        .map(|op| {
            let r_inv = op.r_inv.as_ref().ok_or(Error::FaultDetected)?;
            let m = domain.mul_plain(&op.y, r_inv).ok_or(Error::FaultDetected)?;
            Ok((op, m))
        })
        .collect();
    let checked = on_ok(ms, |mut ms| {
        for (op, m) in &mut ms {
            if fault::strikes(Stage::CheckInput, op.slot) {
                *m = fault::flip(m);
            } else if fault::strikes(Stage::NearMiss, op.slot) {
                *m = fault::near_miss(key, &op.c);
            }
        }
        let back = pow_e(engine, &n, public.e(), &ms.iter().map(|(_, m)| m).collect::<Vec<_>>());
        let skipped = fault::checks_skipped();
        ms.into_iter()
            .zip(back)
            .map(|((op, m), back)| match back {
                Ok(c) if skipped || declassify(c.ct_eq(&op.c)) => Ok((op, m)),
                // A wrong result, or one not below n.
                _ => {
                    fault::record_refused(&m);
                    Err(Error::FaultDetected)
                }
            })
            .collect()
    });
    if checked
        .iter()
        .any(|m| m.as_ref().is_err_and(|e| *e == Error::FaultDetected))
    {
        key.blinding.clear();
    } else if let Some(Ok((op, _))) = checked.iter().find(|m| {
        m.as_ref()
            .is_ok_and(|(op, _)| op.fresh && !declassify(op.c.ct_is_zero()))
    }) && let Some(r_inv) = &op.r_inv
    {
        key.blinding.renew(
            domain,
            &Pair {
                r: op.r.clone(),
                r_e: op.r_e.clone(),
                r_inv: r_inv.clone(),
            },
        );
    }
    checked.into_iter().map(|m| m.map(|(_, m)| m)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blinding::USES;
    use crate::hazmat::rsadp_with;
    use rand_core::OsRng;
    use redc::engine::{backend_names, default_engine};

    /// `c^d mod n` by num-bigint's oracle in `redc::modpow`'s reference path.
    fn oracle(key: &RsaPrivateKey, c: &Num) -> Num {
        let n = key.public_key().n();
        redc::modpow(c, &key.d().reveal(), n, redc::PowOptions::default(), None).unwrap()
    }

    #[test]
    fn the_blinding_chain_serves_renews_and_is_shared_between_threads() {
        let (key, c, expect) = crate::test_key();
        let n = key.public_key().domain();
        // Empty: the first operation draws r, inverts it by Fermat in the
        // lanes and leaves its square in the chain, with USES - 1 uses.
        assert!(key.blinding.take(n, 1).is_empty());
        assert_eq!(key.rsadp(&c, &mut OsRng).unwrap().reveal(), expect);
        let pairs = key.blinding.take(n, 2 * USES as usize);
        assert_eq!(pairs.len(), USES as usize - 1, "one use went to the batch that drew r");
        assert!(key.blinding.take(n, 1).is_empty(), "spent");
        // Each pair: r^e and r^-1 of its r, and r_(i+1) = r_i^2.
        let e = key.public_key().e();
        for (i, p) in pairs.iter().enumerate() {
            assert!(bool::from(n.pow_vartime(&p.r, e).ct_eq(&p.r_e)), "pair {i}: r^e");
            assert_eq!(n.leave(&n.mul(&p.r, &p.r_inv)).reveal(), Num::one(), "pair {i}: r·r^-1");
            if let Some(next) = pairs.get(i + 1) {
                assert!(bool::from(n.sqr(&p.r).ct_eq(&next.r)), "pair {i}: squared");
            }
        }
        // Through two renewals, from four threads at once, in batches of
        // one and of three: every answer right.
        std::thread::scope(|s| {
            for t in 0..4 {
                let (key, c, expect) = (&key, &c, &expect);
                s.spawn(move || {
                    for i in 0..USES {
                        if (t + i) % 5 == 0 {
                            let inputs = [c.clone(), Num::from_u64(u64::from(i) + 2), c.clone()];
                            let got = crate::rsa_private_batch(default_engine(), key, &inputs, &mut OsRng);
                            for (x, y) in inputs.iter().zip(got) {
                                assert_eq!(y.unwrap().reveal(), oracle(key, x));
                            }
                        } else {
                            assert_eq!(key.rsadp(c, &mut OsRng).unwrap().reveal(), *expect);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn a_batch_mixes_chained_and_fresh_factors_on_every_backend() {
        let (key, _, _) = crate::test_key();
        for name in backend_names() {
            let Ok(engine) = Engine::named(name) else { continue };
            // Prime the chain, then a batch longer than its uses: the first
            // inputs take chained pairs, the rest are drawn and inverted by
            // one Fermat inversion of their product.
            let first = crate::rsa_private_batch(&engine, &key, &[Num::from_u64(7)], &mut OsRng);
            assert_eq!(first[0].as_ref().unwrap().reveal(), oracle(&key, &Num::from_u64(7)));
            let inputs: Vec<Num> = (0..u64::from(USES) + 9).map(|i| Num::from_u64(i * 7919 + 2)).collect();
            for mode in [CrtMode::Garner, CrtMode::Fdfm, CrtMode::Plain] {
                let got = private_batch(&engine, &key, &inputs, mode, &mut OsRng);
                for (x, y) in inputs.iter().zip(got) {
                    assert_eq!(y.unwrap().reveal(), oracle(&key, x), "{name} {mode:?}");
                }
            }
        }
    }

    #[test]
    fn fresh_factors_are_inverted_in_chunks_on_every_core() {
        // On four threads, 301 fresh factors take chunks of 76, 76, 76 and
        // 73 (and MIN_CHUNK keeps small batches in one); a wrong inverse
        // would give a wrong answer, which the e-check refuses. A bad input
        // in the middle keeps its error and leaves the chunks alone. Then
        // the same batch again: the renewed chain's pairs serve the first
        // inputs, and the fresh factors after them are chunked.
        let (key, _, _) = crate::test_key();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        pool.install(|| {
            assert_eq!(301usize.div_ceil(rayon::current_num_threads()).max(MIN_CHUNK), 76);
            for name in backend_names() {
                let Ok(engine) = Engine::named(name) else { continue };
                key.blinding.clear();
                let mut inputs: Vec<Num> = (0..302u64).map(|i| Num::from_u64(i * 104_729 + 3)).collect();
                inputs[150] = key.public_key().n().clone();
                for pass in ["fresh", "chained then fresh"] {
                    let got = private_batch(&engine, &key, &inputs, CrtMode::Garner, &mut OsRng);
                    for (i, (x, y)) in inputs.iter().zip(got).enumerate() {
                        match i {
                            150 => assert_eq!(y.unwrap_err(), Error::OutOfRange, "{name} {pass}"),
                            _ => assert_eq!(y.unwrap().reveal(), oracle(&key, x), "{name} {pass} input {i}"),
                        }
                    }
                }
            }
        });
    }

    #[test]
    fn a_fault_in_the_chain_is_caught_and_drops_it() {
        let (key, c, expect) = crate::test_key();
        let n = key.public_key().domain();
        assert_eq!(key.rsadp(&c, &mut OsRng).unwrap().reveal(), expect);
        let good = key.blinding.take(n, 1).remove(0);
        let two = n.add(&n.one(), &n.one());
        let wrong = [
            Pair {
                r_e: n.mul(&good.r_e, &two),
                ..good.clone()
            },
            Pair {
                r_inv: n.mul(&good.r_inv, &two),
                ..good.clone()
            },
        ];
        for bad in &wrong {
            key.blinding.clear();
            key.blinding.renew(n, bad);
            // The chain hands out the square of the pair it was given.
            assert_eq!(key.rsadp(&c, &mut OsRng).err(), Some(Error::FaultDetected));
            assert!(key.blinding.take(n, 1).is_empty(), "dropped after the fault");
            assert_eq!(key.rsadp(&c, &mut OsRng).unwrap().reveal(), expect, "drawn afresh");
        }
    }

    #[test]
    fn every_mode_agrees_and_faults_are_caught() {
        let (key, c, expect) = crate::test_key();
        let n = key.public_key().n().clone();
        for mode in [CrtMode::Garner, CrtMode::Fdfm, CrtMode::Plain] {
            let got = rsadp_with(default_engine(), &key, &c, mode, &mut OsRng).unwrap();
            assert_eq!(got.reveal(), expect, "{mode:?}");
        }
        // 001 §4: Zp = q^(p-1) mod M, Zq = p^(q-1) mod M.
        let (p, q) = (key.primes()[0].reveal(), key.primes()[1].reveal());
        let (zp, zq) = key.fdfm_values().unwrap();
        let pm1 = p.checked_sub(&Num::one()).unwrap();
        let qm1 = q.checked_sub(&Num::one()).unwrap();
        let pow = |b: &Num, e: &Num| redc::modpow(b, e, &n, redc::PowOptions::default(), None).unwrap();
        assert_eq!(zp.reveal(), pow(&q, &pm1));
        assert_eq!(zq.reveal(), pow(&p, &qm1));
        // A faulty CRT half (the Bellcore attack) is detected, not released.
        let mut faulty = key;
        let wrong = faulty.crt.p.exp.reveal().add(&Num::one());
        faulty.crt.p.exp = SecretNat::from_nat(&wrong, faulty.crt.p.exp.len()).unwrap();
        assert_eq!(faulty.rsadp(&c, &mut OsRng).err(), Some(Error::FaultDetected));
        let fdfm = rsadp_with(default_engine(), &faulty, &c, CrtMode::Fdfm, &mut OsRng);
        assert_eq!(fdfm.err(), Some(Error::FaultDetected));
        assert_eq!(faulty.rsadp(&n, &mut OsRng).err(), Some(Error::OutOfRange));
        assert!(!format!("{faulty:?}").contains(&faulty.d().reveal().to_dec()[..8]));
        // On every backend, in a batch: every in-range input is caught, the
        // out-of-range one keeps its own error.
        for name in backend_names() {
            let Ok(engine) = Engine::named(name) else { continue };
            let inputs = [c.clone(), n.clone(), Num::from_u64(2), Num::from_u64(3)];
            let got: Vec<_> = crate::rsa_private_batch(&engine, &faulty, &inputs, &mut OsRng)
                .into_iter()
                .map(|r| r.err())
                .collect();
            let want = [
                Some(Error::FaultDetected),
                Some(Error::OutOfRange),
                Some(Error::FaultDetected),
                Some(Error::FaultDetected),
            ];
            assert_eq!(got, want, "{name}");
        }
    }
}
