//! The envelope's header (the format of the module documentation, versions
//! 1 and 2): its start (magic, version, chunk size) for the writers, and
//! the reader of either version, which checks every count and length
//! against its cap before anything is allocated from it.

use std::io::Read;

use super::chunks::read_full;
use super::{
    HEADER_FIXED_LEN, KEY_ID_LEN, KeyId, MAGIC, MAX_CHUNK_SIZE, MAX_RECIPIENTS, MAX_WRAPPED_KEY_LEN, MIN_CHUNK_SIZE,
    NONCE_PREFIX_LEN, VERSION, VERSION_MULTI,
};
use crate::error::{Error, Result};

/// Magic, version and chunk size: the start of every header.
pub(super) fn header_start(version: u8, chunk_size: usize) -> Result<Vec<u8>> {
    let chunk_field = u32::try_from(chunk_size).map_err(|_| chunk_size_error(chunk_size))?;
    let mut header = Vec::with_capacity(HEADER_FIXED_LEN + MAX_WRAPPED_KEY_LEN);
    header.extend_from_slice(&MAGIC);
    header.push(version);
    header.extend_from_slice(&chunk_field.to_be_bytes());
    Ok(header)
}

/// A parsed header: every byte of it (the chunks' associated data), the
/// chunk size, each recipient's id (none in version 1) and the range of
/// its wrapped key in the header, and the nonce prefix.
pub(super) struct Header {
    pub(super) bytes: Vec<u8>,
    pub(super) chunk_size: usize,
    pub(super) entries: Vec<(Option<KeyId>, std::ops::Range<usize>)>,
    pub(super) prefix: [u8; NONCE_PREFIX_LEN],
}

/// Reads and checks a header of either version; every length is checked
/// against its cap before anything is allocated from it.
pub(super) fn read_header(input: &mut impl Read) -> Result<Header> {
    let mut bytes = vec![0u8; MAGIC.len() + 1 + 4];
    read_header_part(input, &mut bytes)?;
    if bytes[..MAGIC.len()] != MAGIC {
        return Err(Error::Envelope("not a redc envelope (bad magic bytes)".into()));
    }
    let version = bytes[MAGIC.len()];
    if version != VERSION && version != VERSION_MULTI {
        return Err(Error::Envelope(format!(
            "unsupported envelope version {version} (this build reads versions {VERSION} and {VERSION_MULTI})"
        )));
    }
    let at = MAGIC.len() + 1;
    let chunk_field = u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let chunk_size = usize::try_from(chunk_field).map_err(|_| chunk_size_error(usize::MAX))?;
    check_chunk_size(chunk_size)?;
    let count = if version == VERSION {
        1
    } else {
        let count = usize::from(u16::from_be_bytes(
            read_more(input, &mut bytes, 2)?.try_into().unwrap_or_default(),
        ));
        if !(1..=MAX_RECIPIENTS).contains(&count) {
            return Err(Error::Envelope(format!(
                "recipient count {count} out of range (1..={MAX_RECIPIENTS})"
            )));
        }
        count
    };
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        let id = if version == VERSION {
            None
        } else {
            let mut id = [0u8; KEY_ID_LEN];
            id.copy_from_slice(read_more(input, &mut bytes, KEY_ID_LEN)?);
            Some(id)
        };
        let len = usize::from(u16::from_be_bytes(
            read_more(input, &mut bytes, 2)?.try_into().unwrap_or_default(),
        ));
        check_wrapped_len(len)?;
        read_more(input, &mut bytes, len)?;
        entries.push((id, bytes.len() - len..bytes.len()));
    }
    let mut prefix = [0u8; NONCE_PREFIX_LEN];
    prefix.copy_from_slice(read_more(input, &mut bytes, NONCE_PREFIX_LEN)?);
    Ok(Header {
        bytes,
        chunk_size,
        entries,
        prefix,
    })
}

/// Reads `len` more header bytes onto `bytes`; returns them.
fn read_more<'b>(input: &mut impl Read, bytes: &'b mut Vec<u8>, len: usize) -> Result<&'b [u8]> {
    let start = bytes.len();
    bytes.resize(start + len, 0);
    read_header_part(input, &mut bytes[start..])?;
    Ok(&bytes[start..])
}

fn chunk_size_error(chunk_size: usize) -> Error {
    Error::Envelope(format!(
        "chunk size {chunk_size} out of range ({MIN_CHUNK_SIZE}..={MAX_CHUNK_SIZE})"
    ))
}

pub(super) fn check_chunk_size(chunk_size: usize) -> Result<()> {
    if (MIN_CHUNK_SIZE..=MAX_CHUNK_SIZE).contains(&chunk_size) {
        Ok(())
    } else {
        Err(chunk_size_error(chunk_size))
    }
}

/// Checks a wrapped-key length and returns it as the header's u16 field.
pub(super) fn check_wrapped_len(len: usize) -> Result<u16> {
    match u16::try_from(len) {
        Ok(field) if (1..=MAX_WRAPPED_KEY_LEN).contains(&len) => Ok(field),
        _ => Err(Error::Envelope(format!(
            "wrapped key length {len} out of range (1..={MAX_WRAPPED_KEY_LEN})"
        ))),
    }
}

/// Reads exactly `buf.len()` header bytes; a short input is a truncated header.
fn read_header_part(input: &mut impl Read, buf: &mut [u8]) -> Result<()> {
    if read_full(input, buf)? < buf.len() {
        return Err(Error::Envelope("truncated header".into()));
    }
    Ok(())
}
