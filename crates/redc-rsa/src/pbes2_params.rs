//! Why an encrypted PKCS#8 key's PBES2 parameters cannot be used, named
//! precisely: an iteration count of 0 or beyond what is accepted (one past
//! 2^32 does not even fit the `pkcs5` crate's type, which made such a key
//! read as "not PBES2"), so that no such key is ever reported as "not
//! PBES2" or as a wrong password (RFC 8018 §A.2 and §A.4 give the shapes).

use der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use der::{Decode, Reader, SliceReader};

/// PBES2 (RFC 8018 §A.4).
pub(crate) const PBES2_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.13");
/// PBKDF2 (RFC 8018 §A.2).
const PBKDF2_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5.12");

/// The accepted PBKDF2 iteration counts, `1..=max`, as a refusal of
/// `count`, the big-endian two's-complement content of a DER INTEGER (in
/// decimal, or its size when it does not fit 64 bits; a negative one as
/// such), or `None` when `count` is accepted.
pub(crate) fn refuse_count(count: &[u8], max: u32) -> Option<String> {
    if count.first().is_some_and(|&b| b & 0x80 != 0) {
        return Some(format!(
            "encrypted PKCS#8 (PBES2): the PBKDF2 iteration count is negative (1 to {max} accepted)"
        ));
    }
    let digits: Vec<u8> = count.iter().copied().skip_while(|&b| b == 0).collect();
    let value = match digits.len() {
        0..=8 => {
            let mut word = [0u8; 8];
            word[8 - digits.len()..].copy_from_slice(&digits);
            u64::from_be_bytes(word).to_string()
        }
        n => format!("a {}-byte number", n),
    };
    let small = digits.len() <= 4 && {
        let mut word = [0u8; 4];
        word[4 - digits.len()..].copy_from_slice(&digits);
        (1..=max).contains(&u32::from_be_bytes(word))
    };
    (!small).then(|| {
        format!("encrypted PKCS#8 (PBES2): the PBKDF2 iteration count {value} is out of range (1 to {max} accepted)")
    })
}

/// For the DER of an `EncryptedPrivateKeyInfo` with PBES2 and PBKDF2 whose
/// iteration count is refused by [`refuse_count`]: that refusal. `None`
/// for anything else (another scheme or KDF, or no such shape).
pub(crate) fn refused_iterations(der: &[u8], max: u32) -> Option<String> {
    let mut reader = SliceReader::new(der).ok()?;
    let count = reader
        .sequence(|info| {
            let count = info.sequence(|alg| {
                let oid = ObjectIdentifier::decode(alg)?;
                let params = alg.sequence(|pbes2| {
                    let count = pbes2.sequence(|kdf| {
                        let oid = ObjectIdentifier::decode(kdf)?;
                        let count = kdf.sequence(|p| {
                            OctetStringRef::decode(p)?;
                            // Any INTEGER, negative or not minimally
                            // encoded too: its content as written.
                            let count = AnyRef::decode(p)?;
                            if der::Tagged::tag(&count) != der::Tag::Integer {
                                return Err(der::Tag::Integer.value_error());
                            }
                            while !p.is_finished() {
                                AnyRef::decode(p)?;
                            }
                            Ok(count.value().to_vec())
                        })?;
                        Ok((oid == PBKDF2_OID).then_some(count))
                    })?;
                    AnyRef::decode(pbes2)?;
                    Ok(count)
                })?;
                Ok((oid == PBES2_OID).then_some(params).flatten())
            })?;
            OctetStringRef::decode(info)?;
            Ok(count)
        })
        .ok()??;
    refuse_count(&count, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_refused_outside_one_to_max_and_named() {
        assert_eq!(refuse_count(&[0x08, 0x00], 10_000), None);
        assert_eq!(refuse_count(&[0x00, 0x01], 10_000), None);
        let zero = refuse_count(&[0], 10_000).unwrap();
        assert!(
            zero.contains("iteration count 0 is out of range (1 to 10000 accepted)"),
            "{zero}"
        );
        let past = refuse_count(&[1, 0, 0, 0, 1], 10_000).unwrap();
        assert!(past.contains("count 4294967297 is out"), "{past}");
        let huge = refuse_count(&[1; 9], 10_000).unwrap();
        assert!(huge.contains("a 9-byte number"), "{huge}");
        assert!(refuse_count(&[0, 0, 0x27, 0x11], 10_000).is_some());
        let negative = refuse_count(&[0xff], 10_000).unwrap();
        assert!(negative.contains("is negative"), "{negative}");
    }
}
