//! A DSA signature `(r, s)` and its two encodings: DER (`Dss-Sig-Value`,
//! RFC 3279 §2.2.2: a SEQUENCE of two INTEGERs, as OpenSSL writes it) and
//! IEEE P1363 (`r || s`, each as many bytes as `q`). Reading is strict:
//! DER only (no BER length forms, no padding, no negative numbers), nothing
//! after the signature, P1363 of exactly `2·len(q)` bytes.

use super::DsaPublicKey;
use crate::Num;
use crate::error::{Error, Result};
use der::asn1::{SequenceOf, UintRef};
use der::{Decode, Encode};

/// `(r, s)`, public numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// `r`.
    pub r: Num,
    /// `s`.
    pub s: Num,
}

impl Signature {
    /// Reads a DER `Dss-Sig-Value`.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for anything but one strict DER SEQUENCE of
    /// two non-negative INTEGERs.
    pub fn from_der(bytes: &[u8]) -> Result<Self> {
        let seq = SequenceOf::<UintRef<'_>, 2>::from_der(bytes).map_err(|_| Error::Verification)?;
        let [r, s] = [seq.get(0), seq.get(1)];
        let (Some(r), Some(s)) = (r, s) else {
            return Err(Error::Verification);
        };
        let sig = Self {
            r: Num::from_be_bytes(r.as_bytes()),
            s: Num::from_be_bytes(s.as_bytes()),
        };
        // The decoder is strict DER; encoding again and comparing leaves no
        // doubt that nothing else was accepted.
        if sig.to_der()? != bytes {
            return Err(Error::Verification);
        }
        Ok(sig)
    }

    /// Writes the DER `Dss-Sig-Value`.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_der(&self) -> Result<Vec<u8>> {
        // Zero as one zero byte (an INTEGER has at least one content byte).
        let bytes = |x: &Num| if x.is_zero() { vec![0] } else { x.to_be_bytes() };
        let (r, s) = (bytes(&self.r), bytes(&self.s));
        let encoding = |e: der::Error| Error::Encoding(format!("DSA signature: {e}"));
        let mut seq = SequenceOf::<UintRef<'_>, 2>::new();
        seq.add(UintRef::new(&r).map_err(encoding)?).map_err(encoding)?;
        seq.add(UintRef::new(&s).map_err(encoding)?).map_err(encoding)?;
        seq.to_der().map_err(encoding)
    }

    /// Reads `r || s`, each `q_len` bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for another length.
    pub fn from_p1363(bytes: &[u8], q_len: usize) -> Result<Self> {
        if bytes.len() != 2 * q_len {
            return Err(Error::Verification);
        }
        let (r, s) = bytes.split_at(q_len);
        Ok(Self {
            r: Num::from_be_bytes(r),
            s: Num::from_be_bytes(s),
        })
    }

    /// Writes `r || s`, each `q_len` bytes.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] when `r` or `s` is longer than `q_len` bytes.
    pub fn to_p1363(&self, q_len: usize) -> Result<Vec<u8>> {
        let part = |x: &Num| {
            x.to_be_bytes_padded(q_len)
                .ok_or_else(|| Error::Encoding(format!("DSA signature: a value longer than {q_len} bytes")))
        };
        Ok([part(&self.r)?, part(&self.s)?].concat())
    }
}

/// The two encodings of a [`Signature`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SigEncoding {
    /// DER `Dss-Sig-Value` (RFC 3279 §2.2.2), as OpenSSL writes it.
    Der,
    /// IEEE P1363: `r || s`, each as many bytes as `q`.
    P1363,
}

impl SigEncoding {
    /// Both, DER first (OpenSSL's).
    pub const ALL: [SigEncoding; 2] = [SigEncoding::Der, SigEncoding::P1363];

    /// The name options spell it with (`der`, `p1363`).
    pub fn name(self) -> &'static str {
        match self {
            SigEncoding::Der => "der",
            SigEncoding::P1363 => "p1363",
        }
    }

    /// What the encoding is, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            SigEncoding::Der => "DER `Dss-Sig-Value` (RFC 3279), as `openssl dgst -sign` writes",
            SigEncoding::P1363 => "IEEE P1363: r || s, each as long as q",
        }
    }
}

impl DsaPublicKey {
    /// The bytes of `sig` in `encoding`, P1363's halves as long as this
    /// key's `q`.
    ///
    /// # Errors
    ///
    /// As [`Signature::to_der`] and [`Signature::to_p1363`].
    pub fn encode_signature(&self, sig: &Signature, encoding: SigEncoding) -> Result<Vec<u8>> {
        match encoding {
            SigEncoding::Der => sig.to_der(),
            SigEncoding::P1363 => sig.to_p1363(self.q_len()),
        }
    }

    /// A signature for this key read from `bytes` in `encoding`.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for bytes that are not a signature in
    /// `encoding` (as [`Signature::from_der`] and [`Signature::from_p1363`]).
    pub fn decode_signature(&self, bytes: &[u8], encoding: SigEncoding) -> Result<Signature> {
        match encoding {
            SigEncoding::Der => Signature::from_der(bytes),
            SigEncoding::P1363 => Signature::from_p1363(bytes, self.q_len()),
        }
    }

    /// The length of `q` in bytes: that of each half of a P1363 signature.
    pub fn q_len(&self) -> usize {
        self.params().q().bits().div_ceil(8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn der_round_trips_and_refuses_what_is_not_der() {
        let sig = Signature {
            r: Num::from_u64(0x80),
            s: Num::from_u64(1),
        };
        let der = sig.to_der().unwrap();
        assert_eq!(der, [0x30, 7, 2, 2, 0, 0x80, 2, 1, 1]);
        assert_eq!(Signature::from_der(&der).unwrap(), sig);
        for bad in [
            vec![0x30, 7, 2, 2, 0, 0x80, 2, 1, 1, 0],    // trailing byte
            vec![0x30, 0x81, 7, 2, 2, 0, 0x80, 2, 1, 1], // long-form length
            vec![0x30, 8, 2, 3, 0, 0, 0x80, 2, 1, 1],    // padded r
            vec![0x30, 6, 2, 1, 0x80, 2, 1, 1],          // negative r
            vec![0x30, 3, 2, 1, 1],                      // one integer
            vec![0x30, 9, 2, 1, 1, 2, 1, 1, 2, 1, 1],    // three
        ] {
            assert!(Signature::from_der(&bad).is_err(), "{bad:02x?}");
        }
    }

    #[test]
    fn p1363_has_fixed_lengths() {
        let sig = Signature {
            r: Num::from_u64(5),
            s: Num::from_u64(0x1234),
        };
        let bytes = sig.to_p1363(3).unwrap();
        assert_eq!(bytes, [0, 0, 5, 0, 0x12, 0x34]);
        assert_eq!(Signature::from_p1363(&bytes, 3).unwrap(), sig);
        assert!(Signature::from_p1363(&bytes[1..], 3).is_err());
    }
}
