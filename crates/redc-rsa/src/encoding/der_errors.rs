//! Why DER that should be a key does not decode, said so its owner can act:
//! the error of a failed decoding, named by what was being read, and the
//! one failure the `der` decoder only calls "malformed": a negative
//! INTEGER (two's complement, X.690 §8.3) in a PKCS#1 key (RFC 8017 A.1),
//! bare or inside PKCS#8 (RFC 5208) or SPKI (RFC 5280).

use crate::error::Error;
use der::asn1::AnyRef;
use der::{Decode, Reader, Tagged};

/// An `Error::Encoding` with what was being decoded and why it failed.
pub(super) fn encoding(what: &str, err: impl core::fmt::Display) -> Error {
    Error::Encoding(format!("{what}: {err}"))
}

/// Why `der`, read as `what`, failed to decode: `err`, or that one of its
/// INTEGERs is negative (the decoder only says "malformed").
pub(super) fn decoding(what: &str, der: &[u8], err: impl core::fmt::Display) -> Error {
    if has_negative_integer(der, 0) {
        negative(what)
    } else {
        encoding(what, err)
    }
}

/// The error for a negative INTEGER in `what`.
pub(super) fn negative(what: &str) -> Error {
    Error::Encoding(format!(
        "{what}: an INTEGER is negative (RSA key numbers are positive: DER's INTEGER is two's \
         complement, so a value with its top bit set needs a leading zero byte)"
    ))
}

/// Whether `der` has the shape of an RSA key with a negative INTEGER in
/// it: PKCS#1 (a SEQUENCE of INTEGERs, a private key's other primes as a
/// last SEQUENCE of SEQUENCEs of INTEGERs), or PKCS#8 `PrivateKeyInfo` and
/// SPKI with such a PKCS#1 key in their OCTET or BIT STRING. Anything else
/// (another kind of DER) is not looked into. `depth` counts the wrappers.
pub(super) fn has_negative_integer(der: &[u8], depth: usize) -> bool {
    let negative = |(tag, body): &(u8, &[u8])| *tag == 0x02 && body.first().is_some_and(|b| b & 0x80 != 0);
    let Some(fields) = sequence(der) else {
        return false;
    };
    let integer = |f: &(u8, &[u8])| f.0 == 0x02;
    match fields.as_slice() {
        // SPKI { AlgorithmIdentifier, BIT STRING { unused bits, PKCS#1 } }.
        [(0x30, _), (0x03, bits)] if depth == 0 => {
            bits.split_first().is_some_and(|(_, key)| has_negative_integer(key, 1))
        }
        // PKCS#8 { INTEGER, AlgorithmIdentifier, OCTET STRING { PKCS#1 }, .. }.
        [version, (0x30, _), (0x04, key), ..] if depth == 0 && integer(version) => {
            negative(version) || has_negative_integer(key, 1)
        }
        // PKCS#1: INTEGERs, then a private key's other primes.
        [ints @ .., last] if ints.iter().all(integer) => {
            ints.iter().any(negative)
                || negative(last)
                || (last.0 == 0x30
                    && sequence_of(last.1).is_some_and(|infos| {
                        infos
                            .iter()
                            .any(|info| info.0 == 0x30 && sequence_of(info.1).is_some_and(|f| f.iter().any(negative)))
                    }))
        }
        _ => false,
    }
}

/// The fields of `der` if it is exactly one SEQUENCE of whole TLVs.
pub(super) fn sequence(der: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let any = AnyRef::from_der(der).ok()?;
    (any.tag() == der::Tag::Sequence)
        .then(|| sequence_of(any.value()))
        .flatten()
}

/// The TLVs (tag byte, contents) that make up `body` exactly, read by the
/// `der` crate.
pub(super) fn sequence_of(body: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let mut reader = der::SliceReader::new(body).ok()?;
    let mut out = Vec::new();
    while !reader.is_finished() {
        let any: AnyRef<'_> = reader.decode().ok()?;
        out.push((any.tag().octet(), any.value()));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DER TLV with a short-form length.
    fn t(tag: u8, body: &[u8]) -> Vec<u8> {
        [&[tag, body.len() as u8][..], body].concat()
    }

    #[test]
    fn negative_integers_are_found_in_key_shapes_only() {
        let (neg, pos) = (t(0x02, &[0x80, 1]), t(0x02, &[0x7f, 1]));
        let pkcs1 = |n: &[u8]| t(0x30, &[n, &t(0x02, &[3])].concat());
        assert!(has_negative_integer(&pkcs1(&neg), 0));
        assert!(!has_negative_integer(&pkcs1(&pos), 0));
        // The other primes of a multi-prime key.
        let info = t(0x30, &[pos.as_slice(), &neg, &pos].concat());
        let private = t(0x30, &[pos.as_slice(), &pos, &t(0x30, &info)].concat());
        assert!(has_negative_integer(&private, 0));
        // Wrapped in SPKI and PKCS#8.
        let alg = t(0x30, &t(0x05, &[]));
        let spki = t(
            0x30,
            &[alg.as_slice(), &t(0x03, &[&[0][..], &pkcs1(&neg)].concat())].concat(),
        );
        assert!(has_negative_integer(&spki, 0));
        let pkcs8 = t(0x30, &[t(0x02, &[0]).as_slice(), &alg, &t(0x04, &pkcs1(&neg))].concat());
        assert!(has_negative_integer(&pkcs8, 0));
        // Not keys: a SEC1-like key with a negative INTEGER in its OCTET
        // STRING, a certificate-like nesting, a SPKI inside a SPKI.
        let sec1 = t(0x30, &[t(0x02, &[1]).as_slice(), &t(0x04, &pkcs1(&neg))].concat());
        assert!(!has_negative_integer(&sec1, 0));
        assert!(!has_negative_integer(&t(0x30, &t(0x30, &neg)), 0));
        let nested = t(0x30, &[alg.as_slice(), &t(0x03, &[&[0][..], &spki].concat())].concat());
        assert!(!has_negative_integer(&nested, 0));
    }

    #[test]
    fn what_is_not_der_is_not_looked_into() {
        // Indefinite length, five length bytes, a length past the end, cut
        // short, bytes after the SEQUENCE.
        for bad in [
            &[0x30, 0x80, 0x02, 0x01, 0x80, 0, 0][..],
            &[0x30, 0x85, 1, 0, 0, 0, 0],
            &[0x30, 0x84, 0xff, 0xff, 0xff, 0xff, 0x02, 0x01, 0x80],
            &[0x30, 0x03, 0x02, 0x01],
            &[0x30],
            &[0x30, 0x03, 0x02, 0x01, 0x80, 0x00],
        ] {
            assert!(!has_negative_integer(bad, 0), "{bad:x?}");
        }
        assert!(has_negative_integer(&[0x30, 0x03, 0x02, 0x01, 0x80], 0));
    }
}
