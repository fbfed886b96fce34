//! The envelope's chunk stream: each chunk AES-256-GCM under the nonce
//! `nonce_prefix || index || last`, the STREAM construction of Hoang,
//! Reyhanitabar, Rogaway and Vizár (2015), with the header as associated
//! data; the writer of the chunks and the reads they are made of.

use std::io::{ErrorKind, Read, Write};

use aes_gcm::aead::AeadInPlace;
use aes_gcm::aead::generic_array::GenericArray;
use aes_gcm::{Aes256Gcm, KeyInit};
use zeroize::Zeroizing;

use super::{KEY_LEN, NONCE_PREFIX_LEN, TAG_LEN};
use crate::error::{Error, Result};

/// Writes `header`, then `input` in authenticated chunks under `key`.
pub(super) fn seal_chunks<R: Read, W: Write>(
    mut input: R,
    mut output: W,
    key: &[u8; KEY_LEN],
    prefix: &[u8; NONCE_PREFIX_LEN],
    header: &[u8],
    chunk_size: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<u64> {
    output.write_all(header).map_err(io_error)?;
    let cipher = Aes256Gcm::new(GenericArray::from_slice(&key[..]));
    let mut buf = Zeroizing::new(vec![0u8; chunk_size + TAG_LEN]);
    let mut index: u32 = 0;
    let mut total: u64 = 0;
    loop {
        let n = read_full(&mut input, &mut buf[..chunk_size])?;
        let last = n < chunk_size;
        let nonce = chunk_nonce(prefix, index, last);
        let tag = cipher
            .encrypt_in_place_detached(GenericArray::from_slice(&nonce), header, &mut buf[..n])
            .map_err(|_| Error::Envelope("chunk encryption failed".into()))?;
        buf[n..n + TAG_LEN].copy_from_slice(&tag);
        output.write_all(&buf[..n + TAG_LEN]).map_err(io_error)?;
        total += n as u64;
        progress(total);
        if last {
            break;
        }
        index = index
            .checked_add(1)
            .ok_or_else(|| Error::Envelope("input too large: more than 2^32 chunks".into()))?;
    }
    output.flush().map_err(io_error)?;
    Ok(total)
}

/// The 12-byte GCM nonce of chunk `index`: prefix || index (u32 BE) || last.
pub(super) fn chunk_nonce(prefix: &[u8; NONCE_PREFIX_LEN], index: u32, last: bool) -> [u8; 12] {
    let mut nonce = [0u8; 12];
    nonce[..NONCE_PREFIX_LEN].copy_from_slice(prefix);
    nonce[NONCE_PREFIX_LEN..NONCE_PREFIX_LEN + 4].copy_from_slice(&index.to_be_bytes());
    nonce[11] = u8::from(last);
    nonce
}

/// Fills `buf` from `input` until it is full or the input ends; returns the
/// number of bytes read (less than `buf.len()` only at the end of input).
pub(super) fn read_full(input: &mut impl Read, buf: &mut [u8]) -> Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(io_error(e)),
        }
    }
    Ok(filled)
}

#[expect(clippy::needless_pass_by_value, reason = "used as `map_err(io_error)`")]
pub(super) fn io_error(e: std::io::Error) -> Error {
    Error::Io(e.to_string())
}
