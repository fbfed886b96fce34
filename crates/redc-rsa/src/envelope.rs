//! The file envelope: a fresh AES-256-GCM key, wrapped by the caller (RSA-OAEP
//! in `redc encrypt`), and the data streamed in authenticated chunks.
//!
//! This module does not depend on RSA: [`seal`] and [`open`] take the key
//! wrapping and unwrapping as closures, so any key-encapsulation method can
//! be plugged in (the tests use a dummy one).
//!
//! # Format
//!
//! All integers are big-endian. An envelope is a header followed by one or
//! more chunks; nothing may follow the final chunk. Version 1 wraps the key
//! once, for one anonymous recipient ([`seal`]); version 2 wraps it once per
//! recipient, each entry under its recipient's key id ([`seal_for`]: one
//! file any of them opens). [`open`] and [`open_as`] read both.
//!
//! ## Version 1
//!
//! ```text
//! header:
//!   magic          8 bytes   b"REDC-ENV"                      (MAGIC)
//!   version        1 byte    0x01                             (VERSION)
//!   chunk_size     u32       plaintext bytes per full chunk,
//!                            MIN_CHUNK_SIZE..=MAX_CHUNK_SIZE  (default 65536)
//!   wrapped_len    u16       1..=MAX_WRAPPED_KEY_LEN
//!   wrapped_key    wrapped_len bytes   wrap(K) for the AES-256 key K
//!   nonce_prefix   7 bytes   random                           (NONCE_PREFIX_LEN)
//! chunk i (i = 0, 1, 2, ...):
//!   ciphertext     len_i bytes
//!   tag            16 bytes  (TAG_LEN)
//! ```
//!
//! The header is therefore `HEADER_FIXED_LEN + wrapped_len` bytes long.
//!
//! ## Version 2
//!
//! ```text
//! header:
//!   magic          8 bytes   b"REDC-ENV"
//!   version        1 byte    0x02                             (VERSION_MULTI)
//!   chunk_size     u32       as in version 1
//!   recipients     u16       1..=MAX_RECIPIENTS
//!   per recipient, in the order given to seal_for:
//!     key_id       32 bytes  the recipient's KeyId (for redc: SHA-256 of
//!                            its DER SubjectPublicKeyInfo, key_id_of)
//!     wrapped_len  u16       1..=MAX_WRAPPED_KEY_LEN
//!     wrapped_key  wrapped_len bytes   wrap_i(K), the same K for everyone
//!   nonce_prefix   7 bytes   random
//! chunks: as in version 1.
//! ```
//!
//! The header is `HEADER_FIXED_LEN + Σ (KEY_ID_LEN + 2 + wrapped_len_i)`
//! bytes long (the 2-byte field that version 1 gives the wrapped-key
//! length is the recipient count here), at most about 1 MiB (256 recipients of 4096-byte wrapped
//! keys). The key ids are in the clear: whoever holds the file sees whom it
//! is for (no recipient anonymity). A reader that does not know version 2
//! (redc before it) refuses the file as an unsupported version.
//!
//! ## Both versions
//!
//! Chunk `i` is `AES-256-GCM(K, nonce_i, aad = header, plaintext_i)`, the
//! ciphertext (same length as the plaintext) followed by the 16-byte tag,
//! where:
//!
//! - `header` is every byte of the header above, from the magic to the end
//!   of the nonce prefix, so tampering with any header field makes every
//!   chunk fail to authenticate;
//! - `nonce_i = nonce_prefix (7) || i as u32 (4) || last (1)`, 12 bytes, with
//!   `last = 0x01` for the final chunk and `0x00` for every other one: the
//!   STREAM construction of Hoang, Reyhanitabar, Rogaway and Vizár (2015);
//! - the plaintext is cut into `chunk_size`-byte pieces; every chunk except
//!   the final one carries exactly `chunk_size` plaintext bytes, and the
//!   final chunk carries `0..chunk_size` bytes (strictly fewer than
//!   `chunk_size`). An input whose length is a multiple of `chunk_size`
//!   (including the empty input) thus ends with an empty final chunk (a lone
//!   16-byte tag). At most 2^32 chunks: the index must fit in 32 bits.
//!
//! The sealed length of an `n`-byte input is therefore the header's length
//! plus `n + (n / chunk_size + 1) * TAG_LEN` (in version 1,
//! `HEADER_FIXED_LEN + wrapped_len + n + (n / chunk_size + 1) * TAG_LEN`).
//!
//! A reader reads `chunk_size + TAG_LEN` bytes at a time: a full read is a
//! non-final chunk; a short read (which means the input has ended) is the
//! final chunk, which must be at least `TAG_LEN` bytes long. Because of the
//! index in the nonce, reordered, duplicated or dropped chunks fail to
//! authenticate; because of the `last` flag, truncation at a chunk boundary
//! (a non-final chunk read as final, or no final chunk at all) is detected,
//! and so are bytes appended after the final chunk (they turn it into a
//! longer or a full chunk, which then fails to authenticate). Because the
//! header is the associated data of every chunk, a header taken from one
//! envelope does not open the chunks of another.
//!
//! # Memory and secrets
//!
//! Both directions use one buffer of `chunk_size + TAG_LEN` bytes for the
//! whole stream (plus the header: at most `HEADER_FIXED_LEN +
//! MAX_WRAPPED_KEY_LEN` bytes in version 1, about 1 MiB in version 2):
//! memory is flat in the input size. [`open`] checks every count and length
//! field against its cap before allocating. The raw AES
//! key and the chunk buffer (which holds plaintext) are zeroized when
//! dropped. (The AES key schedule inside `aes-gcm` is wiped only when that
//! crate's `zeroize` feature and the `aes` crate's `zeroize` feature are
//! enabled.)
//!
//! # Partial output
//!
//! [`open`] writes the plaintext of a chunk only after that chunk has
//! authenticated, but a later chunk may still fail (tampering, truncation),
//! after earlier chunks were written. **A caller must discard everything
//! written to `output` when [`open`] returns an error**; the `redc` CLI
//! writes to a temporary file and renames it only on success.

use std::io::{Read, Write};

use aes_gcm::aead::AeadInPlace;
use aes_gcm::aead::generic_array::GenericArray;
use aes_gcm::{Aes256Gcm, KeyInit};
use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use crate::error::{Error, Result};

mod chunks;
mod header;
mod rsa;

pub use rsa::{rsa_key_id, rsa_unwrap};

use self::chunks::{chunk_nonce, io_error, read_full, seal_chunks};
use self::header::{Header, check_chunk_size, check_wrapped_len, header_start, read_header};

/// The first eight bytes of every envelope.
pub const MAGIC: [u8; 8] = *b"REDC-ENV";
/// The format version [`seal`] writes (one anonymous recipient); both
/// versions are read.
pub const VERSION: u8 = 1;
/// Plaintext bytes per chunk that [`seal`] uses.
pub const DEFAULT_CHUNK_SIZE: usize = 64 * 1024;
/// The smallest chunk size accepted (in a header or by [`seal_with_chunk_size`]).
pub const MIN_CHUNK_SIZE: usize = 16;
/// The largest chunk size accepted: [`open`] allocates one buffer of this
/// size plus [`TAG_LEN`] at most.
pub const MAX_CHUNK_SIZE: usize = 1 << 20;
/// The longest wrapped key accepted: an RSA-OAEP ciphertext under a modulus
/// of up to 32768 bits.
pub const MAX_WRAPPED_KEY_LEN: usize = 4096;
/// Length of the AES-256-GCM key that is wrapped.
pub const KEY_LEN: usize = 32;
/// Length of the random nonce prefix in the header.
pub const NONCE_PREFIX_LEN: usize = 7;
/// Length of the GCM tag that ends every chunk.
pub const TAG_LEN: usize = 16;
/// Length of a version 1 header without the wrapped key: magic, version,
/// chunk size, wrapped-key length and nonce prefix.
pub const HEADER_FIXED_LEN: usize = MAGIC.len() + 1 + 4 + 2 + NONCE_PREFIX_LEN;
/// The format version [`seal_for`] writes: one wrapped key per recipient,
/// each under its [`KeyId`].
pub const VERSION_MULTI: u8 = 2;
/// The most recipients of one envelope (a header of at most
/// `MAX_RECIPIENTS · (KEY_ID_LEN + 2 + MAX_WRAPPED_KEY_LEN)` bytes).
pub const MAX_RECIPIENTS: usize = 256;
/// Length of a [`KeyId`].
pub const KEY_ID_LEN: usize = 32;

/// Names a recipient in a version 2 header, so that a reader finds its
/// entry without trying the others; for redc's RSA keys, [`key_id_of`]
/// their SubjectPublicKeyInfo.
pub type KeyId = [u8; KEY_ID_LEN];

/// The key id of a public key given as DER SubjectPublicKeyInfo: its
/// SHA-256 (what `openssl pkey -pubin -outform DER | sha256sum` prints).
pub fn key_id_of(spki_der: &[u8]) -> KeyId {
    use sha2::Digest;
    sha2::Sha256::digest(spki_der).into()
}

/// Wraps the fresh AES key for one recipient (`1..=MAX_WRAPPED_KEY_LEN`
/// bytes out).
pub type Wrap<'a> = Box<dyn Fn(&[u8; KEY_LEN]) -> Result<Vec<u8>> + 'a>;

/// One recipient of [`seal_for`]: its key id, and how to wrap the AES key
/// for it.
pub struct Recipient<'a> {
    /// The id written beside the wrapped key.
    pub id: KeyId,
    /// Wraps the fresh key for this recipient.
    pub wrap: Wrap<'a>,
}

/// Seals `input` into `output` with a fresh AES-256-GCM key and chunks of
/// [`DEFAULT_CHUNK_SIZE`] bytes (see the [module documentation](self) for
/// the format).
///
/// `wrap` receives the fresh key and returns its wrapped form (for `redc`,
/// the RSA-OAEP-SHA256 ciphertext of the key), which must be
/// `1..=MAX_WRAPPED_KEY_LEN` bytes long. `rng` draws the key and the nonce
/// prefix. `progress` is called after each chunk with the number of
/// plaintext bytes processed so far. Returns the number of plaintext bytes.
///
/// # Errors
///
/// [`Error::Rng`] if the generator fails, any error of `wrap`,
/// [`Error::Envelope`] for a wrapped key of a bad length or an input of more
/// than 2^32 chunks, [`Error::Io`] for a failure to read or write.
pub fn seal<R: Read, W: Write>(
    input: R,
    output: W,
    wrap: impl FnOnce(&[u8; KEY_LEN]) -> Result<Vec<u8>>,
    rng: &mut impl CryptoRngCore,
    progress: &mut dyn FnMut(u64),
) -> Result<u64> {
    seal_with_chunk_size(input, output, wrap, rng, progress, DEFAULT_CHUNK_SIZE)
}

/// [`seal`] with a chosen chunk size (`MIN_CHUNK_SIZE..=MAX_CHUNK_SIZE`
/// plaintext bytes per chunk); [`open`] reads the chunk size from the
/// header. Small chunks serve tests that exercise many chunk boundaries.
///
/// # Errors
///
/// As [`seal`], and [`Error::Envelope`] for a chunk size out of range.
pub fn seal_with_chunk_size<R: Read, W: Write>(
    input: R,
    output: W,
    wrap: impl FnOnce(&[u8; KEY_LEN]) -> Result<Vec<u8>>,
    rng: &mut impl CryptoRngCore,
    progress: &mut dyn FnMut(u64),
    chunk_size: usize,
) -> Result<u64> {
    check_chunk_size(chunk_size)?;
    let (key, prefix) = fresh_key(rng)?;
    let wrapped = wrap(&key)?;
    let wrapped_len = check_wrapped_len(wrapped.len())?;
    let mut header = header_start(VERSION, chunk_size)?;
    header.extend_from_slice(&wrapped_len.to_be_bytes());
    header.extend_from_slice(&wrapped);
    header.extend_from_slice(&prefix);
    seal_chunks(input, output, &key, &prefix, &header, chunk_size, progress)
}

/// Seals `input` for every one of `recipients` (1..=[`MAX_RECIPIENTS`],
/// distinct ids): a version 2 envelope, the fresh AES key wrapped once per
/// recipient, opened by any of them with [`open_as`]. Otherwise as
/// [`seal`], with [`DEFAULT_CHUNK_SIZE`]-byte chunks.
///
/// # Errors
///
/// As [`seal`], and [`Error::Envelope`] for no recipient, too many, or two
/// with the same id.
pub fn seal_for<R: Read, W: Write>(
    input: R,
    output: W,
    recipients: &[Recipient<'_>],
    rng: &mut impl CryptoRngCore,
    progress: &mut dyn FnMut(u64),
) -> Result<u64> {
    if !(1..=MAX_RECIPIENTS).contains(&recipients.len()) {
        return Err(Error::Envelope(format!(
            "{} recipients; an envelope has 1 to {MAX_RECIPIENTS}",
            recipients.len()
        )));
    }
    for (i, r) in recipients.iter().enumerate() {
        if recipients[..i].iter().any(|other| other.id == r.id) {
            return Err(Error::Envelope(format!(
                "recipient {} is given twice (the same key id)",
                i + 1
            )));
        }
    }
    let chunk_size = DEFAULT_CHUNK_SIZE;
    let (key, prefix) = fresh_key(rng)?;
    let mut header = header_start(VERSION_MULTI, chunk_size)?;
    header.extend_from_slice(&u16::try_from(recipients.len()).unwrap_or(u16::MAX).to_be_bytes());
    for r in recipients {
        let wrapped = (r.wrap)(&key)?;
        header.extend_from_slice(&r.id);
        header.extend_from_slice(&check_wrapped_len(wrapped.len())?.to_be_bytes());
        header.extend_from_slice(&wrapped);
    }
    header.extend_from_slice(&prefix);
    seal_chunks(input, output, &key, &prefix, &header, chunk_size, progress)
}

/// A fresh AES key and nonce prefix from `rng`.
fn fresh_key(rng: &mut impl CryptoRngCore) -> Result<(Zeroizing<[u8; KEY_LEN]>, [u8; NONCE_PREFIX_LEN])> {
    let mut key = Zeroizing::new([0u8; KEY_LEN]);
    rng.try_fill_bytes(&mut key[..]).map_err(|_| Error::Rng)?;
    let mut prefix = [0u8; NONCE_PREFIX_LEN];
    rng.try_fill_bytes(&mut prefix).map_err(|_| Error::Rng)?;
    Ok((key, prefix))
}

/// Opens an envelope read from `input`, writing the plaintext to `output`
/// (see the [module documentation](self) for the format).
///
/// The header is parsed and checked (magic, version, chunk size, wrapped-key
/// length) before anything is allocated from it; `unwrap` then receives the
/// wrapped key and must return the 32-byte AES key (for `redc`, by
/// RSA-OAEP-SHA256 decryption); in a version 2 envelope it is given each
/// recipient's entry in turn until one unwraps ([`open_as`] goes straight to
/// its own). Each chunk's plaintext is written only
/// after that chunk authenticated; `progress` is called after each chunk
/// with the number of plaintext bytes written so far. Returns the number of
/// plaintext bytes.
///
/// **On error, earlier chunks may already have been written: the caller
/// must discard the output.**
///
/// # Errors
///
/// [`Error::Envelope`] for a malformed, truncated, reordered, extended or
/// tampered envelope (the message says which check failed), any error of
/// `unwrap` (e.g. [`Error::Decryption`] for a wrong key), [`Error::Io`] for
/// a failure to read or write.
pub fn open<R: Read, W: Write>(
    input: R,
    output: W,
    unwrap: impl FnMut(&[u8]) -> Result<Zeroizing<Vec<u8>>>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64> {
    open_with(input, output, None, unwrap, progress)
}

/// [`open`] for the recipient `id`: in a version 2 envelope only the entry
/// under `id` is unwrapped, and an envelope without one is refused by
/// naming the ids it has; a version 1 envelope has no ids and is opened as
/// by [`open`].
///
/// # Errors
///
/// As [`open`], and [`Error::NotARecipient`] when a version 2 envelope has
/// no entry for `id`.
pub fn open_as<R: Read, W: Write>(
    input: R,
    output: W,
    id: &KeyId,
    unwrap: impl FnMut(&[u8]) -> Result<Zeroizing<Vec<u8>>>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64> {
    open_with(input, output, Some(id), unwrap, progress)
}

/// Lower-case hexadecimal of the first 8 bytes of a key id, for messages.
fn short_id(id: &KeyId) -> String {
    id[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// [`open`] and [`open_as`]: the header, the AES key from the entry for
/// `id` (or the first entry that unwraps), then the chunks.
fn open_with<R: Read, W: Write>(
    mut input: R,
    mut output: W,
    id: Option<&KeyId>,
    mut unwrap: impl FnMut(&[u8]) -> Result<Zeroizing<Vec<u8>>>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64> {
    let Header {
        bytes: header,
        chunk_size,
        entries,
        prefix,
    } = read_header(&mut input)?;
    let candidates: Vec<&std::ops::Range<usize>> = match id {
        Some(id) if entries[0].0.is_some() => {
            let mine: Vec<_> = entries
                .iter()
                .filter(|(e, _)| e.as_ref() == Some(id))
                .map(|(_, r)| r)
                .collect();
            if mine.is_empty() {
                let ids: Vec<String> = entries.iter().filter_map(|(e, _)| e.as_ref().map(short_id)).collect();
                return Err(Error::NotARecipient {
                    key: short_id(id),
                    recipients: ids.join(", "),
                });
            }
            mine
        }
        _ => entries.iter().map(|(_, r)| r).collect(),
    };
    // The first entry that unwraps; the last error if none does.
    let mut key = Err(Error::Decryption);
    for range in candidates {
        key = unwrap(&header[range.clone()]);
        if key.is_ok() {
            break;
        }
    }
    let key = key?;
    if key.len() != KEY_LEN {
        return Err(Error::Envelope(format!(
            "the unwrapped key has {} bytes, expected {KEY_LEN}",
            key.len()
        )));
    }
    let cipher = Aes256Gcm::new(GenericArray::from_slice(&key[..]));
    drop(key);

    let mut buf = Zeroizing::new(vec![0u8; chunk_size + TAG_LEN]);
    let mut index: u32 = 0;
    let mut total: u64 = 0;
    loop {
        let n = read_full(&mut input, &mut buf[..])?;
        let last = n < chunk_size + TAG_LEN;
        if n < TAG_LEN {
            return Err(Error::Envelope(format!(
                "truncated: chunk {index} is missing or incomplete (no final chunk)"
            )));
        }
        let len = n - TAG_LEN;
        let nonce = chunk_nonce(&prefix, index, last);
        let (data, rest) = buf.split_at_mut(len);
        let tag = GenericArray::from_slice(&rest[..TAG_LEN]);
        cipher
            .decrypt_in_place_detached(GenericArray::from_slice(&nonce), &header, data, tag)
            .map_err(|_| {
                Error::Envelope(format!(
                    "chunk {index} failed authentication (wrong key, or the file was \
                     tampered with, truncated, reordered or extended)"
                ))
            })?;
        output.write_all(data).map_err(io_error)?;
        total += len as u64;
        progress(total);
        if last {
            break;
        }
        index = index
            .checked_add(1)
            .ok_or_else(|| Error::Envelope("too many chunks (more than 2^32)".into()))?;
    }
    output.flush().map_err(io_error)?;
    Ok(total)
}
