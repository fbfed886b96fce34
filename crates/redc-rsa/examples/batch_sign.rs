//! Bulk signing and verification: a 2048-bit key signs a batch of
//! messages with RSASSA-PSS in one engine batch (the SIMD lanes and every
//! core), then the signatures are verified in one batch, one tampered.
//!
//! Run: `cargo run --release --example batch_sign -p redc-rsa`.

#![allow(clippy::print_stdout)] // an example shows its results on stdout

use rand_core::OsRng;
use redc::Engine;
use redc_rsa::keygen::{DEFAULT_E, generate};
use redc_rsa::{Error, HashAlg, Num, pss};
use std::time::Instant;

fn main() {
    let key = generate(2048, &Num::from_u64(DEFAULT_E), &|_| {}).expect("a key");
    let engine = Engine::detect();
    let messages: Vec<Vec<u8>> = (0..64).map(|i| format!("record {i}").into_bytes()).collect();
    let messages: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();

    let start = Instant::now();
    let signatures: Vec<Vec<u8>> = pss::sign_batch(
        &engine,
        &key,
        HashAlg::Sha256,
        HashAlg::Sha256,
        None,
        &messages,
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
    let verdicts = pss::verify_batch(
        &engine,
        key.public_key(),
        HashAlg::Sha256,
        HashAlg::Sha256,
        None,
        &items,
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
