//! An RSA key in PKCS#1 DER (RFC 8017 A.1.1, A.1.2), recognised by its
//! shape alone, so that the DH and DSA reader can name one without reading
//! RSA keys:
//!
//! - `RSAPrivateKey ::= SEQUENCE { version, n, e, d, p, q, dP, dQ, qInv,
//!   otherPrimeInfos OPTIONAL }`: nine INTEGERs, then at most one SEQUENCE;
//! - `RSAPublicKey ::= SEQUENCE { modulus, publicExponent }`: two
//!   non-negative INTEGERs with `n` odd, `e` odd and `3 <= e < n`, as an
//!   RSA public key must be (PKCS#3's `DHParameter { p, g = 2 }` is not).

use crate::Num;
use der::asn1::{AnyRef, SequenceOf};
use der::{Decode, Tag, Tagged};

/// Whether `der` has the shape of a PKCS#1 private or public key.
pub(super) fn is_pkcs1(der: &[u8]) -> bool {
    let Ok(fields) = SequenceOf::<AnyRef<'_>, 10>::from_der(der) else {
        return false;
    };
    let fields: Vec<&AnyRef<'_>> = fields.iter().collect();
    let integer = |f: &&AnyRef<'_>| f.tag() == Tag::Integer;
    match fields.as_slice() {
        [ints @ .., last] if ints.len() == 9 => ints.iter().all(integer) && last.tag() == Tag::Sequence,
        ints if ints.len() == 9 => ints.iter().all(integer),
        [n, e] if integer(n) && integer(e) => {
            let value = |f: &AnyRef<'_>| {
                let bytes = f.value();
                (bytes.first().is_some_and(|b| b & 0x80 == 0)).then(|| Num::from_be_bytes(bytes))
            };
            let (Some(n), Some(e)) = (value(n), value(e)) else {
                return false;
            };
            n.is_odd() && e.is_odd() && e >= Num::from_u64(3) && e < n
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_pkcs1;

    #[test]
    fn public_and_private_shapes() {
        // SEQUENCE { INTEGER 0x0b (n = 11), INTEGER 3 }.
        assert!(is_pkcs1(&[0x30, 0x06, 0x02, 0x01, 0x0b, 0x02, 0x01, 0x03]));
        // e even (a DHParameter's g = 2), e >= n, n even, e negative.
        assert!(!is_pkcs1(&[0x30, 0x06, 0x02, 0x01, 0x0b, 0x02, 0x01, 0x02]));
        assert!(!is_pkcs1(&[0x30, 0x06, 0x02, 0x01, 0x0b, 0x02, 0x01, 0x0d]));
        assert!(!is_pkcs1(&[0x30, 0x06, 0x02, 0x01, 0x0c, 0x02, 0x01, 0x03]));
        assert!(!is_pkcs1(&[0x30, 0x06, 0x02, 0x01, 0x0b, 0x02, 0x01, 0x83]));
        // Nine small INTEGERs, with and without an otherPrimeInfos SEQUENCE.
        let mut private = vec![0x30, 27];
        private.extend([0x02, 0x01, 0x01].repeat(9));
        assert!(is_pkcs1(&private));
        private[1] += 2;
        private.extend([0x30, 0x00]);
        assert!(is_pkcs1(&private));
        // Six INTEGERs: OpenSSL's traditional DSA private key.
        let mut dsa = vec![0x30, 18];
        dsa.extend([0x02, 0x01, 0x01].repeat(6));
        assert!(!is_pkcs1(&dsa));
    }
}
