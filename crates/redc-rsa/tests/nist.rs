//! NIST CAVP RSA vectors (FIPS 186-3 "RSA2VS"), from
//! `../shared/vectors/nist` beside the workspace (or `REDC_NIST_VECTORS`):
//!
//! - `SigGen15_186-3.txt`: RSASSA-PKCS1-v1_5 signatures must match byte for
//!   byte — through the full signing path (the primes recovered from `n`,
//!   `e`, `d`; CRT, blinding, the check with `e`) and, independently, as
//!   `EMSA-PKCS1-v1_5(M)^d mod n` by `redc::modpow`;
//! - `SigVerPSS_186-3.rsp`: RSASSA-PSS verification against the expected
//!   `Result = P/F`, with the salt length of `SaltVal` and with automatic
//!   salt-length detection.
//!
//! The files use CRLF line endings; odd-length hex is left-padded.

#![allow(clippy::print_stderr)]

mod scheme_support;

use rand_core::OsRng;
use redc::{PowOptions, modpow};
use redc_rsa::{HashAlg, Num, RsaPrivateKey, RsaPublicKey, pkcs1v15, pss};
use scheme_support::{hex, key_from_ned, num, workspace_root};
use std::path::PathBuf;

fn nist_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REDC_NIST_VECTORS") {
        let dir = PathBuf::from(dir);
        assert!(dir.is_dir(), "REDC_NIST_VECTORS={} is not a directory", dir.display());
        return Some(dir);
    }
    let default = workspace_root().join("../shared/vectors/nist");
    default.is_dir().then_some(default)
}

/// The `name = value` lines of a CAVP file (comments and blank lines
/// dropped, CRLF handled), with `[mod = N]` headers as `("mod", N)`.
fn records(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let l = l.trim_start_matches('[').trim_end_matches(']');
            l.split_once('=')
                .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        })
        .collect()
}

fn hash_named(name: &str) -> HashAlg {
    HashAlg::from_name(name).unwrap_or_else(|| panic!("unknown hash {name}"))
}

fn read(name: &str) -> Option<String> {
    let Some(dir) = nist_dir() else {
        eprintln!("nist: no vectors (set REDC_NIST_VECTORS or provide ../shared/vectors/nist); skipped");
        return None;
    };
    let path = dir.join(name);
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

#[test]
fn siggen15_pkcs1v15_signatures_match() {
    let Some(text) = read("SigGen15_186-3.txt") else { return };
    let (mut n, mut e) = (Num::zero(), Num::zero());
    let mut key: Option<RsaPrivateKey> = None;
    let mut d = Num::zero();
    let mut hash = HashAlg::Sha256;
    let mut msg = Vec::new();
    let mut count = 0;
    for (name, value) in records(&text) {
        match name.as_str() {
            "n" => n = num(&value),
            "e" => e = num(&value),
            "d" => {
                d = num(&value);
                key = Some(key_from_ned(&n, &e, &d).expect("SigGen15 key"));
            }
            "SHAAlg" => hash = hash_named(&value),
            "Msg" => msg = hex(&value),
            "S" => {
                let want = hex(&value);
                let key = key.as_ref().expect("key before signatures");
                let got = pkcs1v15::sign(key, hash, &msg, &mut OsRng).expect("sign");
                assert_eq!(got, want, "SigGen15 signature #{count} ({hash:?})");
                // Independently: EM^d mod n with the plain exponent.
                let k = key.public_key().size();
                let em = pkcs1v15::emsa_encode(hash, &hash.digest(&msg), k).expect("encode");
                let s = modpow(&Num::from_be_bytes(&em), &d, &n, PowOptions::default(), None).expect("modpow");
                assert_eq!(s.to_be_bytes_padded(k).expect("fits"), want, "SigGen15 modpow #{count}");
                pkcs1v15::verify(key.public_key(), hash, &msg, &want).expect("verify");
                count += 1;
            }
            _ => {}
        }
    }
    assert_eq!(count, 80, "SigGen15 has 80 signatures");
    eprintln!("SigGen15_186-3.txt: {count}/{count} signatures match");
}

#[test]
fn sigver_pss() {
    let Some(text) = read("SigVerPSS_186-3.rsp") else {
        return;
    };
    let (mut n, mut p, mut q) = (Num::zero(), Num::zero(), Num::zero());
    let (mut e, mut d) = (Num::zero(), Num::zero());
    let mut hash = HashAlg::Sha256;
    let (mut msg, mut sig, mut salt) = (Vec::new(), Vec::new(), Vec::new());
    let (mut total, mut passed, mut signed) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, value) in records(&text) {
        match name.as_str() {
            "n" => n = num(&value),
            "p" => p = num(&value),
            "q" => {
                q = num(&value);
                assert_eq!(p.mul(&q), n, "p·q = n");
            }
            "SHAAlg" => hash = hash_named(&value),
            "e" => e = num(&value),
            "d" => d = num(&value),
            "Msg" => msg = hex(&value),
            "S" => sig = hex(&value),
            // "00" stands for the empty salt (salt length 0 in the header).
            "SaltVal" => salt = if value == "00" { Vec::new() } else { hex(&value) },
            "Result" => {
                total += 1;
                let expect_pass = value.starts_with('P');
                let verdict = |s_len: Option<usize>| {
                    RsaPublicKey::new(n.clone(), e.clone())
                        .ok()
                        .is_some_and(|key| pss::verify(&key, hash, hash, s_len, &msg, &sig).is_ok())
                };
                let with_len = verdict(Some(salt.len()));
                let auto = verdict(None);
                if with_len == expect_pass && auto == expect_pass {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "case {total} ({hash:?}, {} bits, salt {}): expected {value}, got {with_len}/{auto}",
                        n.bits(),
                        salt.len()
                    ));
                }
                if expect_pass {
                    // The same parameters through our signer.
                    let key =
                        RsaPrivateKey::from_components(n.clone(), e.clone(), d.clone(), vec![p.clone(), q.clone()])
                            .expect("SigVerPSS key");
                    let s = pss::sign(&key, hash, hash, Some(salt.len()), &msg, &mut OsRng).expect("sign");
                    pss::verify(key.public_key(), hash, hash, Some(salt.len()), &msg, &s).expect("own signature");
                    signed += 1;
                }
            }
            _ => {}
        }
    }
    eprintln!("SigVerPSS_186-3.rsp: {passed}/{total} passed ({signed} re-signed)");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(total, 270);
}
