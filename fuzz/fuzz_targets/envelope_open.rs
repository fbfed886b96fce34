//! The file envelope readers `redc_rsa::envelope::open` and `open_as`: the
//! header of either version (magic, version, chunk size, recipient count,
//! key ids, wrapped-key lengths, wrapped keys, nonce prefix) and the chunk
//! stream (AES-256-GCM chunks, the final-chunk flag, truncation,
//! extension).
//!
//! Input: `[mode] [envelope]`. `mode` bit 0: 0 the wrapped key is the AES
//! key itself (a dummy key wrapping, so the stream is reached at no RSA
//! cost), 1 the wrapped key is unwrapped with RSA-OAEP-SHA256 under the
//! fixed 1024-bit key; bit 1: 0 `open` (each entry tried), 1 `open_as` the
//! recipient 0x11 x 32 (as `redc decrypt` finds its entry). Each input is opened twice:
//! from one slice, and through a reader that hands out 1 to 7 bytes per
//! call (short reads).
//!
//! Checks: no panic; on success the plaintext written is as long as the
//! count returned and the progress reports grow to it; both ways of reading
//! give the same answer and the same output.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::{Input, key_1024, rng};
use redc_rsa::padding::Oaep;
use redc_rsa::{HashAlg, Result, envelope};
use std::io::Read;
use zeroize::Zeroizing;

/// A reader that hands out at most a few bytes per call.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.1 = self.1 % 7 + 1;
        let n = buf.len().min(self.0.len()).min(self.1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn open_once(mode: u8, bytes: &[u8], trickle: bool) -> (Result<u64>, Vec<u8>) {
    let mut out = Vec::new();
    let mut last = 0u64;
    let mut progress = |n: u64| {
        assert!(n >= last, "progress went back");
        last = n;
    };
    let unwrap = |w: &[u8]| -> Result<Zeroizing<Vec<u8>>> {
        if mode & 1 == 0 {
            Ok(Zeroizing::new(w.to_vec()))
        } else {
            key_1024().decrypt(
                Oaep {
                    hash: HashAlg::Sha256,
                    mgf_hash: HashAlg::Sha256,
                    label: <[u8]>::to_vec(&[]),
                },
                w,
                &mut rng(1),
            )
        }
    };
    // The recipient `open_as` looks for (mode bit 1).
    let id = [0x11u8; envelope::KEY_ID_LEN];
    let r = match (trickle, mode & 2 != 0) {
        (false, false) => envelope::open(bytes, &mut out, unwrap, &mut progress),
        (false, true) => envelope::open_as(bytes, &mut out, &id, unwrap, &mut progress),
        (true, false) => envelope::open(Trickle(bytes, 0), &mut out, unwrap, &mut progress),
        (true, true) => envelope::open_as(Trickle(bytes, 0), &mut out, &id, unwrap, &mut progress),
    };
    if let Ok(n) = r {
        assert_eq!(n, last, "progress does not end at the count");
    }
    (r, out)
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let mode = input.byte();
    let bytes = input.rest();
    let (r, out) = open_once(mode, bytes, false);
    if let Ok(n) = &r {
        assert_eq!(*n, out.len() as u64);
    }
    // Same bytes, other way of reading: same answer.
    let (r2, out2) = open_once(mode, bytes, true);
    assert_eq!(r, r2);
    assert_eq!(out, out2);
});
