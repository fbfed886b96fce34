//! Bulk signing and verification: a 2048-bit key signs a batch of
//! messages with RSASSA-PSS in one engine batch (the SIMD lanes and every
//! core), then the signatures are verified in one batch, one tampered.
//!
//! Run: `cargo run --release --example batch_sign -p redc-rsa`.

#![allow(clippy::print_stdout)] // an example shows its results on stdout

use rand_core::OsRng;
use redc::Engine;
use redc_rsa::keygen::{DEFAULT_E, generate};
use redc_rsa::padding::Pss;
use redc_rsa::scheme::Batch;
use redc_rsa::{Error, HashAlg, Num};
use std::time::Instant;

fn main() {
    let key = generate(2048, &Num::from_u64(DEFAULT_E), &|_| {}).expect("a key");
    let engine = Engine::detect();
    let messages: Vec<Vec<u8>> = (0..64).map(|i| format!("record {i}").into_bytes()).collect();
    let messages: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();

    let start = Instant::now();
    let signatures: Vec<Vec<u8>> = key
        .sign_batch(
            &engine,
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: None,
            },
            Batch::Messages(&messages),
            &mut OsRng,
        )
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("every message signs");
    println!(
        "{} PSS signatures on the {} backend in {:.1} ms",
        signatures.len(),
        engine.name(),
        start.elapsed().as_secs_f64() * 1e3
    );

    // Verify them all, the fourth against another message.
    let mut items: Vec<(&[u8], &[u8])> = messages
        .iter()
        .copied()
        .zip(signatures.iter().map(Vec::as_slice))
        .collect();
    items[3].0 = b"not record 3";
    let verdicts = key.public_key().verify_batch(
        &engine,
        Pss {
            hash: HashAlg::Sha256,
            mgf_hash: HashAlg::Sha256,
            salt_len: None,
        },
        Batch::Messages(&items.iter().map(|p| p.0).collect::<Vec<_>>()),
        &items.iter().map(|p| p.1).collect::<Vec<_>>(),
    );
    let valid = verdicts.iter().filter(|v| v.is_ok()).count();
    assert_eq!(valid, 63);
    assert_eq!(verdicts[3], Err(Error::Verification));
    println!("{valid} of {} verify; the tampered one does not", verdicts.len());
}

#[cfg(test)]
mod tests {
    /// `cargo test` runs the example.
    #[test]
    fn runs() {
        super::main();
    }
}
