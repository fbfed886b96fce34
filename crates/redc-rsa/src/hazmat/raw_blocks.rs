//! Textbook RSA over a whole stream, block by block: the insecure mode of
//! 000_be478b6750af4540.txt §5 (`redc encrypt --raw-blocks`), kept to
//! reproduce the paper's experiment.
//!
//! The format: an 8-byte big-endian plaintext length, then for each block
//! of `k - 1` plaintext bytes (the last one shorter) `m^e mod n` in `k`
//! bytes, `k` the modulus length. Deterministic and malleable by design:
//! never a way to protect data.

use super::{raw_private, raw_public};
use crate::error::Error;
use crate::key::{RsaPrivateKey, RsaPublicKey};
use rand_core::CryptoRngCore;
use std::io::{Read, Write};

/// Why a stream could not be encrypted or decrypted block by block.
#[derive(Debug, thiserror::Error)]
pub enum RawBlocksError {
    /// The input could not be read.
    #[error("cannot read the input: {0}")]
    Read(std::io::Error),
    /// The output could not be written.
    #[error("cannot write the output: {0}")]
    Write(std::io::Error),
    /// The RSA operation on a block failed.
    #[error(transparent)]
    Rsa(Error),
    /// The input is shorter than its 8-byte length.
    #[error("not a raw-blocks stream (shorter than its 8-byte length)")]
    NoLength,
    /// The input ends inside a block or before its last block.
    #[error("the raw-blocks stream is truncated")]
    Truncated,
    /// A block decrypts to a number longer than its share of the
    /// plaintext (this many bytes): the wrong key, or a corrupted file.
    #[error("a block does not decrypt to {0} bytes (wrong key or corrupted stream)")]
    BadBlock(usize),
    /// The input goes on after its last block.
    #[error("the raw-blocks stream has bytes after its last block")]
    TrailingBytes,
}

/// Encrypts all of `input` into `output`. The input is read into memory
/// first (the length leads), which suits the paper's experiment, not large
/// files.
///
/// **Hazardous**: textbook RSA, as [`raw_public`].
///
/// # Errors
///
/// [`RawBlocksError::Read`], [`RawBlocksError::Write`], and
/// [`RawBlocksError::Rsa`] as [`raw_public`].
pub fn encrypt(key: &RsaPublicKey, input: &mut dyn Read, output: &mut dyn Write) -> Result<(), RawBlocksError> {
    let mut data = Vec::new();
    input.read_to_end(&mut data).map_err(RawBlocksError::Read)?;
    let write = |out: &mut dyn Write, bytes: &[u8]| out.write_all(bytes).map_err(RawBlocksError::Write);
    write(output, &(data.len() as u64).to_be_bytes())?;
    for chunk in data.chunks(key.size() - 1) {
        write(output, &raw_public(key, chunk).map_err(RawBlocksError::Rsa)?)?;
    }
    Ok(())
}

/// Decrypts the output of [`encrypt`] from `input` into `output`, block by
/// block; `rng` draws the blinding.
///
/// **Hazardous**: a raw private-key oracle, as [`raw_private`].
///
/// # Errors
///
/// [`RawBlocksError::NoLength`], [`RawBlocksError::Truncated`],
/// [`RawBlocksError::BadBlock`] and [`RawBlocksError::TrailingBytes`] for a
/// stream that is not one of [`encrypt`]'s under this key, and the errors
/// of reading, writing and [`raw_private`].
pub fn decrypt(
    key: &RsaPrivateKey,
    input: &mut dyn Read,
    output: &mut dyn Write,
    rng: &mut impl CryptoRngCore,
) -> Result<(), RawBlocksError> {
    let k = key.public_key().size();
    let mut len = [0u8; 8];
    if read_full(input, &mut len)? != 8 {
        return Err(RawBlocksError::NoLength);
    }
    let mut left = u64::from_be_bytes(len);
    let mut c = vec![0u8; k];
    while left > 0 {
        if read_full(input, &mut c)? != k {
            return Err(RawBlocksError::Truncated);
        }
        let m = raw_private(key, &c, rng).map_err(RawBlocksError::Rsa)?;
        let take = left.min((k - 1) as u64) as usize;
        // m is k bytes; the block's bytes are its last `take` bytes.
        if m[..k - take].iter().any(|&b| b != 0) {
            return Err(RawBlocksError::BadBlock(take));
        }
        output.write_all(&m[k - take..]).map_err(RawBlocksError::Write)?;
        left -= take as u64;
    }
    if read_full(input, &mut c[..1])? != 0 {
        return Err(RawBlocksError::TrailingBytes);
    }
    Ok(())
}

/// Fills `buf` as far as the input allows; the number of bytes read.
fn read_full(input: &mut dyn Read, buf: &mut [u8]) -> Result<usize, RawBlocksError> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(RawBlocksError::Read(e)),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::OsRng;

    #[test]
    fn round_trip_and_malformed_streams() {
        let (key, _, _) = crate::test_key();
        let msg: Vec<u8> = (0..300u16).map(|i| i as u8).collect();
        let mut sealed = Vec::new();
        encrypt(key.public_key(), &mut &msg[..], &mut sealed).unwrap();
        assert_eq!(sealed.len(), 8 + 3 * key.public_key().size());
        let mut out = Vec::new();
        decrypt(&key, &mut &sealed[..], &mut out, &mut OsRng).unwrap();
        assert_eq!(out, msg);
        let open = |bytes: &[u8]| decrypt(&key, &mut &bytes[..], &mut Vec::new(), &mut OsRng);
        assert!(matches!(open(&sealed[..5]), Err(RawBlocksError::NoLength)));
        assert!(matches!(
            open(&sealed[..sealed.len() - 1]),
            Err(RawBlocksError::Truncated)
        ));
        assert!(matches!(
            open(&[&sealed[..], &[0]].concat()),
            Err(RawBlocksError::TrailingBytes)
        ));
        let mut short = sealed.clone();
        short[..8].copy_from_slice(&1u64.to_be_bytes());
        assert!(matches!(open(&short[..]), Err(RawBlocksError::BadBlock(1))));
    }
}
