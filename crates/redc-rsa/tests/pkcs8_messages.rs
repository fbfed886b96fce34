//! Every failure to decrypt an encrypted PKCS#8 key names its real cause:
//! a PBKDF2 iteration count of 0 or past 2^32 is out of range (not "not
//! PBES2", not "wrong password"), an unsupported scheme is named, and only
//! a wrong password is a wrong password. The keys are built field by field
//! (RFC 8018 §A.2, §A.4; RFC 5958 §3), as no tool writes such counts.

use redc_rsa::{Error, read_private_key};

/// One DER TLV.
fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    match content.len() {
        n @ 0..=127 => out.push(n as u8),
        n @ 128..=255 => out.extend([0x81, n as u8]),
        n => out.extend([0x82, (n >> 8) as u8, n as u8]),
    }
    out.extend_from_slice(content);
    out
}

fn seq(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

/// An `EncryptedPrivateKeyInfo` with PBES2, PBKDF2-HMAC-SHA256 of the
/// iteration count `count` (big-endian INTEGER content) and AES-256-CBC.
fn encrypted_key(count: &[u8]) -> Vec<u8> {
    let oid = |der: &[u8]| tlv(0x06, der);
    let pbes2 = oid(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d]);
    let pbkdf2 = oid(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0c]);
    let hmac_sha256 = oid(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x09]);
    let aes256_cbc = oid(&[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a]);
    let params = seq(&[
        tlv(0x04, &[7; 16]),
        tlv(0x02, count),
        seq(&[hmac_sha256, tlv(0x05, &[])]),
    ]);
    let algorithm = seq(&[
        pbes2,
        seq(&[seq(&[pbkdf2, params]), seq(&[aes256_cbc, tlv(0x04, &[9; 16])])]),
    ]);
    seq(&[algorithm, tlv(0x04, &[0x5a; 48])])
}

fn message(der: &[u8]) -> String {
    read_private_key(der, Some(b"password")).unwrap_err().to_string()
}

#[test]
fn iteration_counts_out_of_range_are_named() {
    for (count, shown) in [
        (&[0x00][..], "0"),
        (&[0x01, 0x00, 0x00, 0x00, 0x01][..], "4294967297"),
        (&[0x00, 0x98, 0x96, 0x81][..], "10000001"),
    ] {
        let err = message(&encrypted_key(count));
        assert!(
            err.contains(&format!(
                "PBKDF2 iteration count {shown} is out of range (1 to 10000000 accepted)"
            )),
            "{shown}: {err}"
        );
        assert!(
            !err.contains("not supported") && !err.contains("wrong password"),
            "{err}"
        );
    }
}

#[test]
fn negative_counts_and_unreadable_pbes2_parameters_are_named() {
    let err = message(&encrypted_key(&[0xff]));
    assert!(err.contains("PBKDF2 iteration count is negative"), "{err}");
    // A count that is not an INTEGER at all: PBES2, unreadable, never
    // "re-encrypt it with PBES2".
    let mut der = encrypted_key(&[0x08, 0x00]);
    let at = der.windows(4).position(|w| w == [0x02, 0x02, 0x08, 0x00]).unwrap();
    der[at] = 0x04;
    let err = message(&der);
    assert!(err.contains("(PBES2): its parameters cannot be read"), "{err}");
    assert!(!err.contains("re-encrypt"), "{err}");
}

#[test]
fn a_count_in_range_with_the_wrong_key_material_is_a_wrong_password() {
    // 2048 iterations: accepted; the data was never encrypted with this
    // password, which is all the reader can tell.
    let err = read_private_key(&encrypted_key(&[0x08, 0x00]), Some(b"password")).unwrap_err();
    assert_eq!(err, Error::WrongPassword);
}

#[test]
fn an_unknown_scheme_is_named() {
    let mut der = encrypted_key(&[0x08, 0x00]);
    // PBES2 -> 1.2.840.113549.1.5.99: the OID's last arc changed in place.
    let at = der
        .windows(9)
        .position(|w| w == [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d]);
    der[at.unwrap() + 8] = 0x63;
    let err = message(&der);
    assert!(err.contains("1.2.840.113549.1.5.99 (PKCS#5) is not supported"), "{err}");
}
