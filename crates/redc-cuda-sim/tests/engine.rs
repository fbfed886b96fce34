//! The whole engine path on the CUDA kernels, without a GPU: redc's
//! `Engine::with_device` over the kernels compiled for the host
//! (`redc_cuda_sim::Sim`), one thread per number and eight, against
//! num-bigint — mixed sizes (moduli above the largest device class stay on
//! the CPU), and RSA private and public batches whose blinding, CRT halves
//! and checks all run as device batches. On a machine where
//! `redc_cuda::Gpu::open` succeeds, the same cases also run on the GPU.

#![allow(clippy::print_stderr)] // names the GPU cases skipped without one

use num_bigint::BigUint;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use redc::{Engine, Job};
use redc_cuda_sim::Sim;
use redc_rsa::{Num, RsaPrivateKey, rsa_private_batch, rsa_public_batch};
use std::sync::Arc;

fn engines() -> Vec<(String, Engine)> {
    let mut out: Vec<(String, Engine)> = [1, 8]
        .into_iter()
        .map(|t| (format!("sim T<={t}"), Engine::with_device(Arc::new(Sim::new(t)))))
        .collect();
    let cache = redc_cuda::cache_dir(|name| std::env::var_os(name));
    match redc_cuda::Gpu::open(None, cache.as_deref()) {
        Ok(gpu) => out.push(("gpu".to_owned(), Engine::with_device(Arc::new(gpu)))),
        Err(e) => eprintln!("SKIPPED gpu: {e}"),
    }
    out
}

fn big(x: &Num) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

fn num(x: &BigUint) -> Num {
    Num::from_be_bytes(&x.to_bytes_be())
}

fn random(rng: &mut ChaCha8Rng, bits: usize) -> BigUint {
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    rng.fill_bytes(&mut bytes);
    let x = BigUint::from_bytes_be(&bytes) >> (8 * bytes.len() - bits);
    x | (BigUint::from(1u8) << (bits - 1))
}

#[test]
fn modexp_batches_of_mixed_sizes_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    // Every device class, class edges, and moduli for the CPU (4097 bits).
    let sizes = [3usize, 64, 512, 513, 1024, 1536, 2048, 3000, 4096, 4097];
    let mut cases = Vec::new();
    for (i, &bits) in sizes.iter().enumerate() {
        for k in 0..2 + i % 2 {
            let n = random(&mut rng, bits) | BigUint::from(1u8);
            let b = random(&mut rng, bits + 9);
            // Short exponents on big classes keep the simulated warps quick.
            let e = random(&mut rng, if bits > 1024 { 48 } else { bits.max(2) } - k);
            cases.push((b, e, n));
        }
    }
    let jobs: Vec<Job> = cases
        .iter()
        .map(|(b, e, n)| Job {
            base: num(b),
            exp: num(e),
            modulus: num(n),
        })
        .collect();
    for (name, engine) in engines() {
        for ((b, e, n), r) in cases.iter().zip(engine.modexp_batch(&jobs)) {
            assert_eq!(big(&r.unwrap()), b.modpow(e, n), "{name}: {} bits", n.bits());
        }
    }
}

#[test]
fn rsa_batches_on_the_device_match_the_oracle() {
    let e = Num::from_u64(65537);
    // Small for the simulated warps, on purpose: at security level 1.
    let key: RsaPrivateKey = redc_rsa::keygen::generate(1024, &e, &|_| {})
        .unwrap()
        .with_security_level(redc_rsa::policy::SecurityLevel::new(1).unwrap());
    let (n, d) = (big(key.public_key().n()), big(&key.d().reveal()));
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut inputs = vec![Num::zero(), Num::one(), num(&(&n - 1u8))];
    inputs.extend((0..6).map(|_| num(&(random(&mut rng, 1100) % &n))));
    for (name, engine) in engines() {
        let private = rsa_private_batch(&engine, &key, &inputs, &mut rand_core::OsRng);
        let public = rsa_public_batch(&engine, key.public_key(), &inputs);
        for ((x, m), c) in inputs.iter().zip(private).zip(public) {
            assert_eq!(big(&m.unwrap().reveal()), big(x).modpow(&d, &n), "{name}: private");
            assert_eq!(big(&c.unwrap()), big(x).modpow(&big(&e), &n), "{name}: public");
        }
    }
}
