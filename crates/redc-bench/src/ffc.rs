//! The finite-field rows of `redc bench`: Diffie-Hellman derivation in the
//! RFC 7919 group of each of the bench's sizes that has one (ffdhe2048,
//! 3072, 4096, ...; the group's exponent size, 225 bits at 2048, as
//! `openssl speed ffdh2048` and OpenSSL's keys use), and DSA signing and
//! verification at (2048, 256) when 2048 is among the sizes (`openssl
//! speed dsa2048`'s size). redc runs its batch forms (`derive_batch`,
//! `sign_batch` with random nonces, `verify_batch`); every first batch is
//! checked before it is timed: each derived secret against the peer's own
//! derivation with our public value, each signature by verification, every
//! verification true and a changed signature false.

use super::openssl::{Alg, OpenSsl};
use super::{Mode, Operation, Options, Row, all_ok, rate};
use anyhow::{Context, anyhow, bail};
use rand_core::OsRng;
use rayon::ThreadPool;
use redc::Engine;
use redc_ffc::dh::{DhPrivateKey, derive_batch};
use redc_ffc::dsa::{DsaPrivateKey, Nonce, Signature, generate_params, sign_batch, verify_batch};
use redc_ffc::{Group, HashAlg, Num};
use std::sync::Arc;

/// The DH sizes of the bench's `sizes`: those with an ffdhe group.
pub(super) fn dh_sizes(sizes: &[usize]) -> Vec<usize> {
    sizes.iter().copied().filter(|&b| ffdhe(b).is_some()).collect()
}

/// The DSA sizes of the bench's `sizes`: 2048 (`openssl speed`'s largest).
pub(super) fn dsa_sizes(sizes: &[usize]) -> Vec<usize> {
    sizes.iter().copied().filter(|&b| b == 2048).collect()
}

fn ffdhe(bits: usize) -> Option<Group> {
    Group::ALL
        .into_iter()
        .find(|g| g.name().starts_with("ffdhe") && g.bits() == bits)
}

/// One DH size's key, peers and the secrets the peers derive.
pub(super) struct DhWork {
    pub(super) key: DhPrivateKey,
    pub(super) peers: Vec<DhPrivateKey>,
    /// `peer.derive(key's y)` for each peer: what our derivations must give.
    pub(super) expected: Vec<Vec<u8>>,
}

impl DhWork {
    fn new(group: Group, count: usize) -> anyhow::Result<DhWork> {
        let fresh = || DhPrivateKey::generate(group, None, &mut OsRng).map_err(|e| anyhow!("DH keygen: {e}"));
        let key = fresh()?;
        let peers = (0..count).map(|_| fresh()).collect::<anyhow::Result<Vec<_>>>()?;
        let expected = peers
            .iter()
            .map(|p| p.derive(key.public_key().y()).map(|z| z.to_vec()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow!("DH derive: {e}"))?;
        Ok(DhWork { key, peers, expected })
    }

    fn derive(&self, engine: &Engine, count: usize) -> anyhow::Result<Vec<Vec<u8>>> {
        let items: Vec<(&DhPrivateKey, &Num)> = self.peers[..count]
            .iter()
            .map(|p| (&self.key, p.public_key().y()))
            .collect();
        Ok(all_ok(derive_batch(engine, &items))?
            .iter()
            .map(|z| z.to_vec())
            .collect())
    }
}

/// The DSA key, digests and signatures of one run.
pub(super) struct DsaWork {
    pub(super) key: DsaPrivateKey,
    pub(super) digests: Vec<Vec<u8>>,
    pub(super) sigs: Vec<Signature>,
}

impl DsaWork {
    fn new(count: usize) -> anyhow::Result<DsaWork> {
        let params = generate_params(2048, 256, &mut OsRng).map_err(|e| anyhow!("DSA parameters: {e}"))?;
        let key = DsaPrivateKey::generate(Arc::new(params), &mut OsRng).map_err(|e| anyhow!("DSA keygen: {e}"))?;
        let digests: Vec<Vec<u8>> = (0..count)
            .map(|i| HashAlg::Sha256.digest(&(i as u64).to_be_bytes()))
            .collect();
        let refs: Vec<&[u8]> = digests.iter().map(Vec::as_slice).collect();
        let engine = redc::engine::default_engine();
        let sigs = all_ok(sign_batch(
            engine,
            &key,
            HashAlg::Sha256,
            &refs,
            Nonce::Random,
            &mut OsRng,
        ))?;
        Ok(DsaWork { key, digests, sigs })
    }

    fn sign(&self, engine: &Engine, count: usize) -> anyhow::Result<Vec<Signature>> {
        let refs: Vec<&[u8]> = self.digests[..count].iter().map(Vec::as_slice).collect();
        all_ok(sign_batch(
            engine,
            &self.key,
            HashAlg::Sha256,
            &refs,
            Nonce::Random,
            &mut OsRng,
        ))
    }

    fn verify(&self, engine: &Engine, sigs: &[Signature]) -> Vec<bool> {
        let public = self.key.public_key();
        let items: Vec<_> = self
            .digests
            .iter()
            .zip(sigs)
            .map(|(d, s)| (public, d.as_slice(), s))
            .collect();
        verify_batch(engine, &items)
    }

    /// Every signature of `sigs` verifies (with `engine`) and a changed one does not.
    fn check(&self, who: &str, engine: &Engine, sigs: &[Signature]) -> anyhow::Result<()> {
        let mut wrong = sigs.to_vec();
        if let Some(first) = wrong.first_mut() {
            first.s = first.s.add(&Num::one());
        }
        let good = self.verify(engine, sigs);
        let bad = self.verify(engine, &wrong);
        if good.iter().any(|v| !v) || bad.first() != Some(&false) {
            bail!("{who}: a DSA signature or verification is wrong; its speed is not reported");
        }
        Ok(())
    }
}

/// Every finite-field row of one run, for each mode and engine.
#[allow(clippy::too_many_arguments)]
pub(super) fn rows(
    opts: &Options,
    engines: &[Engine],
    pools: (&ThreadPool, &ThreadPool),
    modes: &[Mode],
    openssl: Option<&OpenSsl>,
    newest: &mut dyn FnMut(&Work<'_>) -> anyhow::Result<Vec<super::NewestFfcRate>>,
    status: &dyn Fn(String),
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<Row>> {
    let max_lanes = engines.iter().map(Engine::lanes).max().unwrap_or(1);
    let count = Mode::AllCores.batch(max_lanes, opts.threads);
    let mut rows = Vec::new();
    let mut run = |op: Operation, bits: usize, work: &Work<'_>, rows: &mut Vec<Row>| -> anyhow::Result<()> {
        let newest_rates = newest(work)?;
        for &mode in modes {
            let threads = if mode == Mode::AllCores { opts.threads } else { 1 };
            let pool = if mode == Mode::AllCores { pools.1 } else { pools.0 };
            let mut redc = Vec::new();
            for engine in engines {
                status(format!("redc {} {} {bits}, {}", engine.name(), op.name(), mode.key()));
                let n = mode.batch(engine.lanes(), threads);
                redc.push((engine.name(), pool.install(|| work.rate(engine, n, opts.seconds))?));
            }
            let (alg, private) = match op {
                Operation::DhDerive => (Alg::Ffdh, true),
                Operation::DsaSign => (Alg::Dsa, true),
                _ => (Alg::Dsa, false),
            };
            rows.push(Row {
                op,
                bits,
                mode,
                threads,
                redc,
                openssl: openssl.and_then(|o| o.rate(alg, bits, threads, private)),
                openssl4: newest_rates
                    .iter()
                    .find(|r| r.0 == (mode == Mode::AllCores))
                    .map(|r| r.1),
                gmp: None,
                crypto_mb: None,
            });
        }
        Ok(())
    };
    for bits in dh_sizes(&opts.sizes) {
        let group = ffdhe(bits).context("an ffdhe size")?;
        status(format!("{group}: {count} peer keys"));
        let dh = DhWork::new(group, count)?;
        for engine in engines {
            if dh.derive(engine, count)? != dh.expected {
                bail!(
                    "redc {}: a wrong {group} secret; its speed is not reported",
                    engine.name()
                );
            }
        }
        run(Operation::DhDerive, bits, &Work::Dh(&dh), &mut rows)?;
    }
    for bits in dsa_sizes(&opts.sizes) {
        notes.push(
            "`openssl speed dsa2048` signs with OpenSSL's built-in key, whose q has 160 bits: its exponents are \
             160 bits long where redc's and OpenSSL 4's, on the bench's (2048, 256) key, are 256; its DSA column \
             is not the same work, and the DSA targets are against OpenSSL 4 when it was measured."
                .to_owned(),
        );
        status(format!("DSA ({bits}, 256) parameters, key and {count} signatures"));
        let dsa = DsaWork::new(count)?;
        for engine in engines {
            dsa.check(&format!("redc {}", engine.name()), engine, &dsa.sign(engine, count)?)?;
        }
        run(Operation::DsaSign, bits, &Work::DsaSign(&dsa), &mut rows)?;
        run(Operation::DsaVerify, bits, &Work::DsaVerify(&dsa), &mut rows)?;
    }
    Ok(rows)
}

/// What a row times.
pub(super) enum Work<'a> {
    /// DH derivations with one key and many peers.
    Dh(&'a DhWork),
    /// DSA signatures of many digests.
    DsaSign(&'a DsaWork),
    /// DSA verifications of many signatures.
    DsaVerify(&'a DsaWork),
}

impl Work<'_> {
    /// redc's rate with batches of `count` on the current pool.
    fn rate(&self, engine: &Engine, count: usize, seconds: f64) -> anyhow::Result<f64> {
        match self {
            Work::Dh(dh) => rate(seconds, count, || dh.derive(engine, count).map(drop)),
            Work::DsaSign(dsa) => rate(seconds, count, || dsa.sign(engine, count).map(drop)),
            Work::DsaVerify(dsa) => rate(seconds, count, || {
                if dsa.verify(engine, &dsa.sigs[..count]).iter().all(|&v| v) {
                    Ok(())
                } else {
                    Err(anyhow!("a DSA verification failed while timed"))
                }
            }),
        }
    }
}
