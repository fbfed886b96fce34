//! Weak keys refused when loaded from files, as the CLI loads them
//! (`read_key` on the file's bytes), each with a message naming the reason:
//! a modulus with a small prime factor (n = 3·q as SPKI and PKCS#1, a
//! private key with p = 3), a prime far below its share of the modulus
//! (p = 1048583, above the trial-division bound of 2^20), a composite "prime", and
//! negative INTEGERs; the same construction with real primes loads. The
//! primes come from one 1024-bit key made by redc's key generation.

mod scheme_support;

use der::asn1::UintRef;
use der::{Decode, Encode};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{Error, Num, read_key};
use scheme_support::TempDir;
use std::sync::OnceLock;

/// Two 512-bit primes.
fn primes() -> &'static (Num, Num) {
    static P: OnceLock<(Num, Num)> = OnceLock::new();
    P.get_or_init(|| {
        let key = redc_rsa::keygen::generate(1024, &Num::from_u64(65537), &|_| ())
            .unwrap()
            .with_security_level(SecurityLevel::NONE);
        let p = key.primes();
        (p[0].reveal(), p[1].reveal())
    })
}

fn uint(x: &Num) -> Vec<u8> {
    x.to_be_bytes()
}

fn one() -> Num {
    Num::one()
}

/// PKCS#1 `RSAPrivateKey` DER of the two "primes" `p`, `q` with `e = 65537`
/// and `d`, `dP`, `dQ`, `qInv` computed from them (consistent, whatever
/// `p` and `q` are, as long as the inverses exist).
fn private_der(p: &Num, q: &Num) -> Vec<u8> {
    let e = Num::from_u64(65537);
    let (pm1, qm1) = (p.checked_sub(&one()).unwrap(), q.checked_sub(&one()).unwrap());
    let lcm = pm1.mul(&qm1).divrem(&pm1.gcd(&qm1)).unwrap().0;
    let d = e.inv_mod(&lcm).expect("e is invertible");
    let (dp, dq) = (d.rem(&pm1).unwrap(), d.rem(&qm1).unwrap());
    let q_inv = q.inv_mod(p).expect("q is invertible mod p");
    let fields = [p.mul(q), e, d, p.clone(), q.clone(), dp, dq, q_inv].map(|x| uint(&x));
    let u = |i: usize| UintRef::new(&fields[i]).unwrap();
    pkcs1::RsaPrivateKey {
        modulus: u(0),
        public_exponent: u(1),
        private_exponent: u(2),
        prime1: u(3),
        prime2: u(4),
        exponent1: u(5),
        exponent2: u(6),
        coefficient: u(7),
        other_prime_infos: None,
    }
    .to_der()
    .unwrap()
}

/// PKCS#1 `RSAPublicKey` DER of `n` with `e = 65537`.
fn public_der(n: &Num) -> Vec<u8> {
    let (n, e) = (uint(n), uint(&Num::from_u64(65537)));
    pkcs1::RsaPublicKey {
        modulus: UintRef::new(&n).unwrap(),
        public_exponent: UintRef::new(&e).unwrap(),
    }
    .to_der()
    .unwrap()
}

/// A DER TLV (lengths in short or long form).
fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    match body.len() {
        l @ 0..=0x7f => out.push(l as u8),
        l @ 0x80..=0xff => out.extend([0x81, l as u8]),
        l => out.extend([0x82, (l >> 8) as u8, l as u8]),
    }
    out.extend_from_slice(body);
    out
}

/// `SubjectPublicKeyInfo` DER around PKCS#1 `RSAPublicKey` DER.
fn spki(pkcs1: &[u8]) -> Vec<u8> {
    // AlgorithmIdentifier { rsaEncryption, NULL }.
    let alg = [
        0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
    ];
    let mut bits = vec![0u8];
    bits.extend_from_slice(pkcs1);
    tlv(0x30, &[alg.as_slice(), &tlv(0x03, &bits)].concat())
}

/// The error of reading `der` from a file, as DER and as PEM with `label`.
fn refused(der: &[u8], label: &str) -> Vec<Error> {
    let dir = TempDir::new("weak-keys");
    let pem = der::pem::encode_string(label, der::pem::LineEnding::LF, der).unwrap();
    [("key.der", der.to_vec()), ("key.pem", pem.into_bytes())]
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.path(name);
            std::fs::write(&path, bytes).unwrap();
            read_key(&std::fs::read(&path).unwrap(), None).expect_err("a weak key was accepted")
        })
        .collect()
}

fn assert_refused(der: &[u8], label: &str, what: &str) {
    for err in refused(der, label) {
        assert!(err.to_string().contains(what), "message {err} should name {what:?}");
    }
}

#[test]
fn a_modulus_with_a_small_factor_is_refused() {
    let (_, q) = primes();
    let n = Num::from_u64(3).mul(q);
    assert_refused(
        &public_der(&n),
        "RSA PUBLIC KEY",
        "modulus has the small prime factor 3",
    );
    assert_refused(
        &spki(&public_der(&n)),
        "PUBLIC KEY",
        "modulus has the small prime factor 3",
    );
    // A private key with p = 3: its modulus is refused first.
    let der = private_der(&Num::from_u64(3), q);
    assert_refused(&der, "RSA PRIVATE KEY", "modulus has the small prime factor 3");
    // The largest prime below the bound, 65521.
    assert_refused(
        &public_der(&Num::from_u64(65521).mul(q)),
        "RSA PUBLIC KEY",
        "small prime factor 65521",
    );
}

#[test]
fn prime_moduli_squares_and_factors_just_above_2_16_are_refused() {
    let (p, q) = primes();
    // A prime modulus (p itself, as a public key), p^2, and 65537·p (65537
    // is above the old trial bound of 2^16, below the new one of 2^20).
    assert_refused(&public_der(p), "RSA PUBLIC KEY", "the modulus is prime");
    assert_refused(
        &public_der(&p.mul(p)),
        "RSA PUBLIC KEY",
        "perfect power (an integer to the power 2)",
    );
    assert_refused(&public_der(&p.mul(p).mul(p)), "RSA PUBLIC KEY", "to the power 3");
    assert_refused(
        &spki(&public_der(&Num::from_u64(65537).mul(q))),
        "PUBLIC KEY",
        "small prime factor 65537",
    );
    // p·q itself loads.
    assert!(read_key(&public_der(&p.mul(q)), None).is_ok());
}

#[test]
fn a_prime_far_below_its_share_is_refused() {
    let (_, q) = primes();
    // 1048583 is prime and above the trial bound: the modulus passes the
    // trial division, the prime's size does not (21 bits, where half its
    // share of the 533-bit modulus is 133).
    let der = private_der(&Num::from_u64(1_048_583), q);
    assert_refused(&der, "RSA PRIVATE KEY", "prime 1 has 21 bits, far below its share");
}

#[test]
fn a_composite_prime_is_named() {
    let (p, q) = primes();
    let other = redc_rsa::keygen::generate(1024, &Num::from_u64(65537), &|_| ())
        .unwrap()
        .with_security_level(SecurityLevel::NONE);
    let r = other.primes()[0].reveal();
    // "p" = p·q (1024 bits, composite) and "q" = r: n = p·q·r, 1536 bits;
    // every consistency check holds, Fermat's test does not.
    let der = private_der(&p.mul(q), &r);
    assert_refused(&der, "RSA PRIVATE KEY", "prime 1 is composite");
    // The same as the second prime.
    let der = private_der(&r, &p.mul(q));
    assert_refused(&der, "RSA PRIVATE KEY", "prime 2 is composite");
}

#[test]
fn negative_integers_are_named() {
    let (p, q) = primes();
    let n = p.mul(q);
    // The modulus without its leading zero byte: its top bit makes it negative.
    let negative_n = tlv(0x02, &uint(&n));
    assert!(uint(&n)[0] & 0x80 != 0, "a 1024-bit modulus has its top bit set");
    let e = tlv(0x02, &uint(&Num::from_u64(65537)));
    let pkcs1 = tlv(0x30, &[negative_n, e].concat());
    assert_refused(&pkcs1, "RSA PUBLIC KEY", "an INTEGER is negative");
    assert_refused(&spki(&pkcs1), "PUBLIC KEY", "an INTEGER is negative");

    // A private key, PKCS#1 and PKCS#8, whose d lost its leading zero byte.
    let good = private_der(p, q);
    let key = pkcs1::RsaPrivateKey::from_der(&good).unwrap();
    let int = |x: UintRef<'_>| {
        let b = x.as_bytes();
        tlv(
            0x02,
            &if b[0] & 0x80 != 0 {
                [&[0u8][..], b].concat()
            } else {
                b.to_vec()
            },
        )
    };
    let d = key.private_exponent.as_bytes();
    let d = if d[0] & 0x80 != 0 {
        d.to_vec()
    } else {
        [&[0xff][..], d].concat()
    };
    let fields = [
        tlv(0x02, &[0]),
        int(key.modulus),
        int(key.public_exponent),
        tlv(0x02, &d),
        int(key.prime1),
        int(key.prime2),
        int(key.exponent1),
        int(key.exponent2),
        int(key.coefficient),
    ];
    let private = tlv(0x30, &fields.concat());
    assert_refused(&private, "RSA PRIVATE KEY", "an INTEGER is negative");
    let alg = [
        0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
    ];
    let pkcs8 = tlv(0x30, &[tlv(0x02, &[0]).as_slice(), &alg, &tlv(0x04, &private)].concat());
    assert_refused(&pkcs8, "PRIVATE KEY", "an INTEGER is negative");

    // Malformed but not negative (no e): the decoder's own message.
    let no_e = tlv(0x30, &tlv(0x02, &[&[0u8][..], &uint(&n)].concat()));
    for err in refused(&no_e, "RSA PUBLIC KEY") {
        assert!(!err.to_string().contains("negative"), "{err}");
    }
}

#[test]
fn a_good_key_still_loads() {
    // The same construction with two real primes (the share's boundary is
    // tested in `weak.rs`; OpenSSL's multi-prime keys load in keys.rs).
    let (p, q) = primes();
    assert!(read_key(&private_der(p, q), None).is_ok());
}
