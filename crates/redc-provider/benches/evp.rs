//! RSA signatures through OpenSSL's EVP API (`EVP_PKEY_sign` of a SHA-256
//! digest, PKCS#1 v1.5), with this provider and with the default provider
//! of the same libcrypto, in the same run:
//!
//! - one at a time, the latency a program sees without asynchronous jobs;
//!   beside them the same signature by redc-rsa called directly
//!   (`sign_prehashed`): what the provider's boundary adds;
//! - with 8 and 16 asynchronous jobs in flight, driven as an event-driven
//!   server drives them (`tests/evp`): the throughput a server with
//!   `ssl-mode-async` sees, the provider batching the paused jobs' private
//!   operations across the engine's lanes.
//!
//! `cargo bench -p redc-provider --bench evp [-- SECONDS]`: keys of 2048,
//! 3072 and 4096 bits made by `openssl genpkey`; rounds alternate between
//! the columns; each figure is the median of 5 rounds (wall clock, one
//! thread driving the jobs). Every provider's signature is checked by the
//! other provider's verification before the timing counts.
#![allow(missing_docs, clippy::print_stdout)]

#[path = "../tests/evp/mod.rs"]
mod evp;

use redc_rsa::pkcs1v15::Pkcs1v15Sign;
use redc_rsa::{HashAlg, OsRng};
use std::path::Path;
use std::time::Instant;

/// The median of `times`.
fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Runs `op` (returning how many signatures it made) for `seconds`; the
/// signatures per second.
fn rate(seconds: f64, mut op: impl FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let mut count = 0;
    while start.elapsed().as_secs_f64() < seconds {
        count += op();
    }
    count as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let seconds: f64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1.0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("redc-provider-bench");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    evp::load_providers(&dir);
    let digest = [0x5au8; 32];
    println!("RSA sign of a SHA-256 digest, PKCS#1 v1.5, EVP_PKEY_sign; {seconds} s per round, 5 rounds, medians");
    println!();
    println!(
        "| bits | redc provider, one at a time | default provider | redc / default | redc-rsa direct | redc, 8 async jobs | redc, 16 async jobs | default, async jobs | redc 16 jobs / default |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for bits in [2048, 3072, 4096] {
        let key = evp::key(&dir, bits);
        let pem = std::fs::read(dir.join(format!("{bits}.pem"))).unwrap();
        let providers = ["provider=redc", "provider=default"];
        let signers = providers.map(|p| evp::context(key, p, true));
        // Each provider's signature verifies under the other.
        for (i, &s) in signers.iter().enumerate() {
            let verifier = evp::context(key, providers[1 - i], false);
            assert!(
                evp::verifies(verifier, &evp::sign(s, &digest), &digest),
                "{} at {bits} bits",
                providers[i]
            );
            evp::free_context(verifier);
        }
        let direct = redc_rsa::read_private_key(&pem, None).unwrap();
        let padding = Pkcs1v15Sign::new(HashAlg::Sha256);
        let jobs = |propq: &str, n: usize| {
            let ctxs: Vec<_> = (0..n).map(|_| evp::context(key, propq, true)).collect();
            let digests: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; 32]).collect();
            (ctxs, digests)
        };
        let (redc8, d8) = jobs(providers[0], 8);
        let (redc16, d16) = jobs(providers[0], 16);
        let (default16, _) = jobs(providers[1], 16);
        let mut rates: [Vec<f64>; 6] = Default::default();
        for _ in 0..5 {
            for (column, r) in rates.iter_mut().enumerate() {
                r.push(match column {
                    0 | 1 => rate(seconds, || usize::from(!evp::sign(signers[column], &digest).is_empty())),
                    2 => rate(seconds, || {
                        let sig = direct.sign_prehashed(padding, &digest, &mut OsRng);
                        usize::from(sig.is_ok())
                    }),
                    3 => rate(seconds, || evp::sign_in_jobs(&redc8, &d8).0.len()),
                    4 => rate(seconds, || evp::sign_in_jobs(&redc16, &d16).0.len()),
                    _ => rate(seconds, || evp::sign_in_jobs(&default16, &d16).0.len()),
                });
            }
        }
        let [one, default, direct_rate, eight, sixteen, default_jobs] = rates.map(median);
        let us = |r: f64| 1e6 / r;
        println!(
            "| {bits} | {:.1} µs | {:.1} µs | {:.2}× | {:.1} µs | {eight:.0}/s | {sixteen:.0}/s | {default_jobs:.0}/s | {:.2}× |",
            us(one),
            us(default),
            one / default,
            us(direct_rate),
            sixteen / default_jobs
        );
        for ctx in signers.into_iter().chain(redc8).chain(redc16).chain(default16) {
            evp::free_context(ctx);
        }
    }
}
