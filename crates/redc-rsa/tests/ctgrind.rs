//! The secret-taint check (issue "constant time proven by a tool"): every
//! private path run under Valgrind's memcheck with every secret marked
//! undefined, so that control flow or a memory address computed from a
//! secret is reported as a use of an uninitialised value (the method of
//! ctgrind, BoringSSL's constant-time validation and libsecp256k1's
//! `valgrind_ctime_test`). Memcheck sees branches and addresses, not
//! instructions whose latency depends on their operands.
//!
//! Built only with the feature `ctgrind`, and meant for optimised code
//! without debug assertions (`.ci/run` runs `cargo test -p redc-rsa
//! --release --features ctgrind --test ctgrind`; a debug build's overflow
//! checks and `subtle`'s debug assertions are branches on secrets, so the
//! tests refuse it). With the feature, `redc::SecretNat` marks its digits
//! undefined when it is made and defined when it is revealed;
//! `redc::secret::declassify` and `redc::secret::taint::declassified` are
//! where a secret becomes public on purpose (a key's checks, the e-check, a
//! rejected random candidate, an OAEP padding error, a message's length);
//! everything else derived from a secret stays undefined.
//!
//! The parent test generates the keys with `openssl genpkey` (RSA: 2048
//! bits, 2049 bits, three primes of 3072 bits, an RSASSA-PSS key restricted
//! to SHA-256; an ffdhe2048 Diffie-Hellman
//! key; a (2048, 256) DSA key: `redc-ffc`'s private paths, a
//! dev-dependency here, are checked by the same harness), then runs this same test binary
//! under `valgrind --tool=memcheck --error-exitcode=99` once per path (the
//! `child` test, told which path by `REDC_CTGRIND_PATH`): each must end
//! with no error. The controls must be caught: a branch and a table index
//! on a fresh secret, and a branch on a digit of a private exponent read
//! from a PEM file, RSA's `d` and the DH and DSA keys' `x` (so a key's
//! secrets are marked as they are loaded).
//!
//! What the check covers and what it does not:
//! - the key is loaded inside Valgrind, but only its domains (the modulus
//!   checks, `R^2 mod p`) and the Fermat test run on marked values: parsing
//!   the file and the variable-time `Nat` arithmetic of loading
//!   (`d mod (p - 1)`, the CRT coefficient, the product check) work on
//!   revealed values by design, once per key; so does key generation
//!   (rejected prime candidates, `d = e^-1 mod lcm` by Euclid), which is
//!   not run, and writing a key out; a DH key's and a DSA key's `x` are
//!   marked as they are read (their range checks and a DH key's exponent
//!   bound are declassified on purpose);
//! - DSA signing reveals `g^k mod p` to reduce it mod `q` (its residue `r`
//!   is published), and the finished `s`;
//! - the envelope is checked up to the unwrapped AES key: the `aes-gcm`
//!   crate's tag comparison ends in a branch on its accept or reject;
//! - `Engine::modexp_batch` (raw modexp) takes its exponent as public;
//! - Valgrind 3.19 reports neither AVX-512 nor ADX, so the portable 64-bit
//!   kernels (`fios.rs`, `sqr.rs`) run here: the `mulx`/`adcx`/`adox`
//!   kernel and the IFMA kernels are outside this check (the timing test
//!   `benches/timing.rs` measures them).

#![allow(clippy::print_stderr)]

mod ctgrind_support;
mod scheme_support;

use ctgrind_support::{ERROR_EXIT, release_only, report};
use rand_core::{OsRng, RngCore};
use redc::SecretNat;
use redc::secret::taint;
use redc_ffc::dh::{self, DhPrivateKey};
use redc_ffc::dsa::{DsaPrivateKey, Nonce};
use redc_rsa::hazmat::{CrtMode, rsadp_with};
use redc_rsa::padding::{Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};
use redc_rsa::{HashAlg, Num, RsaPrivateKey, envelope, hazmat, rsa_private_batch};
use scheme_support::{TempDir, openssl};
use std::path::Path;

/// A checked path: its name and what it runs on the loaded keys.
type PathFn = fn(&Keys);

/// Every private path the check runs, one Valgrind run each.
const PATHS: &[(&str, PathFn)] = &[
    ("load-and-fermat", |_| {}),
    ("rsadp-garner", |k| rsadp(&k.k2048, CrtMode::Garner)),
    ("rsadp-fdfm", |k| rsadp(&k.k2048, CrtMode::Fdfm)),
    ("rsadp-plain", |k| rsadp(&k.k2048, CrtMode::Plain)),
    ("rsadp-three-primes", |k| rsadp(&k.k3prime, CrtMode::Garner)),
    ("rsadp-2049-bits", |k| rsadp(&k.k2049, CrtMode::Garner)),
    ("blinding-chain-renewed", blinding_chain),
    ("private-batch", private_batch),
    ("sign-pss", sign_pss),
    ("sign-rsassa-pss-key", sign_pss_key),
    ("sign-pkcs1v15", sign_pkcs1v15),
    ("decrypt-oaep", decrypt_oaep),
    ("decrypt-pkcs1v15-implicit-rejection", decrypt_pkcs1v15),
    ("envelope-key-unwrap", envelope_unwrap),
    ("dh-derive", dh_derive),
    ("dh-derive-batch", dh_derive_batch),
    ("dsa-sign-rfc6979", |k| dsa_sign(k, Nonce::Deterministic)),
    ("dsa-sign-random", |k| dsa_sign(k, Nonce::Random)),
    ("dsa-sign-hedged", |k| dsa_sign(k, Nonce::Hedged)),
];

/// The keys every child loads (inside Valgrind: loading is checked too).
struct Keys {
    k2048: RsaPrivateKey,
    k2049: RsaPrivateKey,
    k3prime: RsaPrivateKey,
    /// An RSASSA-PSS key (id-RSASSA-PSS, restricted to SHA-256, salt 32).
    pss: RsaPrivateKey,
    dh: DhPrivateKey,
    dsa: DsaPrivateKey,
}

/// The key files the parent writes: name, bits, primes.
const KEY_FILES: [(&str, usize, usize); 3] = [("k2048", 2048, 2), ("k2049", 2049, 2), ("k3prime", 3072, 3)];

/// A Diffie-Hellman or DSA key file of the parent's, read by `redc-ffc`.
fn load_ffc(dir: &Path, name: &str) -> redc_ffc::AnyKey {
    let pem = std::fs::read(dir.join(format!("{name}.pem"))).expect("key file");
    redc_ffc::read_key(&pem).expect("openssl's key loads")
}

fn load(dir: &Path, name: &str) -> RsaPrivateKey {
    let pem = std::fs::read_to_string(dir.join(format!("{name}.pem"))).expect("key file");
    RsaPrivateKey::from_pkcs8_pem(&pem).expect("openssl's key loads")
}

/// A random input below `n`: `n`'s bytes less its top byte.
fn input(key: &RsaPrivateKey) -> Num {
    let mut bytes = vec![0u8; key.public_key().size() - 1];
    OsRng.fill_bytes(&mut bytes);
    Num::from_be_bytes(&bytes)
}

/// Reveal a secret result for the harness's own check of it (outside the
/// checked code: the caller of a decryption owns its plaintext).
fn public(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    taint::declassify(&mut out[..]);
    out
}

/// One blinded private operation in `mode`, checked against the public
/// operation.
fn rsadp(key: &RsaPrivateKey, mode: CrtMode) {
    let c = input(key);
    let m = rsadp_with(redc::engine::default_engine(), key, &c, mode, &mut OsRng).expect("rsadp");
    assert_eq!(key.public_key().rsaep(&m.reveal()).expect("rsaep"), c);
}

/// More operations than a blinding chain has uses: fresh pairs, the
/// chain's squarings, its renewal.
fn blinding_chain(k: &Keys) {
    for _ in 0..40 {
        let c = input(&k.k2048);
        let m = k.k2048.rsadp(&c, &mut OsRng).expect("rsadp");
        assert_eq!(k.k2048.public_key().rsaep(&m.reveal()).expect("rsaep"), c);
    }
}

/// A batch of fresh blinding factors, inverted together (Montgomery's
/// trick and one Fermat inversion).
fn private_batch(k: &Keys) {
    let key = &k.k2048;
    let cs: Vec<Num> = (0..5).map(|_| input(key)).collect();
    let engine = redc::engine::default_engine();
    for (m, c) in rsa_private_batch(engine, key, &cs, &mut OsRng).into_iter().zip(&cs) {
        assert_eq!(&key.public_key().rsaep(&m.expect("batch").reveal()).expect("rsaep"), c);
    }
}

/// A restricted RSASSA-PSS key read from its PKCS#8 file signs with its
/// own parameters (the restriction's checks read public values only).
fn sign_pss_key(k: &Keys) {
    let sig = k
        .pss
        .sign(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: None,
            },
            b"message",
            &mut OsRng,
        )
        .expect("sign");
    k.pss
        .public_key()
        .verify(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: Some(32),
            },
            b"message",
            &sig,
        )
        .expect("verify");
}

fn sign_pss(k: &Keys) {
    for key in [&k.k2048, &k.k2049] {
        let sig = key
            .sign(
                Pss {
                    hash: HashAlg::Sha256,
                    mgf_hash: HashAlg::Sha256,
                    salt_len: None,
                },
                b"message",
                &mut OsRng,
            )
            .expect("sign");
        key.public_key()
            .verify(
                Pss {
                    hash: HashAlg::Sha256,
                    mgf_hash: HashAlg::Sha256,
                    salt_len: None,
                },
                b"message",
                &sig,
            )
            .expect("verify");
    }
}

fn sign_pkcs1v15(k: &Keys) {
    let sig = k
        .k2048
        .sign(Pkcs1v15Sign::new(HashAlg::Sha256), b"message", &mut OsRng)
        .expect("sign");
    k.k2048
        .public_key()
        .verify(Pkcs1v15Sign::new(HashAlg::Sha256), b"message", &sig)
        .expect("verify");
}

/// A valid ciphertext, then invalid ones: a random block, and a block with
/// the wrong label (the padding checks fail at different places).
fn decrypt_oaep(k: &Keys) {
    let key = &k.k2048;
    let ct = key
        .public_key()
        .encrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            b"secret",
            &mut OsRng,
        )
        .unwrap();
    let m = key
        .decrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            &ct,
            &mut OsRng,
        )
        .expect("valid");
    assert_eq!(public(&m), b"secret");
    let bad = key.decrypt(
        Oaep {
            hash: HashAlg::Sha256,
            mgf_hash: HashAlg::Sha256,
            label: <[u8]>::to_vec(b"other"),
        },
        &ct,
        &mut OsRng,
    );
    assert!(matches!(bad, Err(redc_rsa::Error::Decryption)));
    let random = hazmat::raw_public(key.public_key(), &input(key).to_be_bytes()).unwrap();
    let bad = key.decrypt(
        Oaep {
            hash: HashAlg::Sha256,
            mgf_hash: HashAlg::Sha256,
            label: <[u8]>::to_vec(b""),
        },
        &random,
        &mut OsRng,
    );
    assert!(matches!(bad, Err(redc_rsa::Error::Decryption)));
}

/// A valid ciphertext and an invalid one (implicit rejection: a synthetic
/// message, by the same code path).
fn decrypt_pkcs1v15(k: &Keys) {
    let key = &k.k2048;
    let ct = key
        .public_key()
        .encrypt(Pkcs1v15Encrypt, b"secret", &mut OsRng)
        .unwrap();
    let m = key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).expect("valid");
    assert_eq!(public(&m), b"secret");
    let random = hazmat::raw_public(key.public_key(), &input(key).to_be_bytes()).unwrap();
    let synthetic = key
        .decrypt(Pkcs1v15Encrypt, &random, &mut OsRng)
        .expect("implicit rejection");
    assert_eq!(
        public(&synthetic),
        public(&key.decrypt(Pkcs1v15Encrypt, &random, &mut OsRng).unwrap())
    );
}

/// An envelope sealed to the key and opened: the AES key unwrapped by
/// OAEP-SHA256 decryption, then the chunks. The check ends at the
/// unwrapped key: the chunks' AES-GCM tag comparison inside the `aes-gcm`
/// crate ends in a branch on its (public) accept or reject, which cannot be
/// marked from here, so the key is revealed to the chunk layer.
fn envelope_unwrap(k: &Keys) {
    let key = &k.k2048;
    let mut sealed = Vec::new();
    let wrap = |aes: &[u8; envelope::KEY_LEN]| {
        key.public_key().encrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            aes,
            &mut OsRng,
        )
    };
    envelope::seal(&b"plaintext"[..], &mut sealed, wrap, &mut OsRng, &mut |_| {}).expect("seal");
    let mut opened = Vec::new();
    let unwrap = |wrapped: &[u8]| {
        let mut aes = key.decrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            wrapped,
            &mut OsRng,
        )?;
        taint::declassify(&mut aes[..]);
        Ok(aes)
    };
    envelope::open(&sealed[..], &mut opened, unwrap, &mut |_| {}).expect("open");
    assert_eq!(public(&opened), b"plaintext");
}

/// A shared secret with a fresh peer (generated here: its exponent is
/// marked as it is made), checked against the peer's own derivation.
fn dh_derive(k: &Keys) {
    let peer = DhPrivateKey::generate(k.dh.group(), None, &mut OsRng).expect("peer key");
    let z = k.dh.derive(peer.public_key().y()).expect("derive");
    let z2 = peer.derive(k.dh.public_key().y()).expect("derive");
    assert_eq!(public(&z), public(&z2));
}

/// Five derivations in one engine batch, one with a bad peer value.
fn dh_derive_batch(k: &Keys) {
    let peers: Vec<Num> = (0..5)
        .map(|_| {
            DhPrivateKey::generate(k.dh.group(), None, &mut OsRng)
                .expect("peer")
                .public_key()
                .y()
                .clone()
        })
        .chain([Num::one()])
        .collect();
    let items: Vec<(&DhPrivateKey, &Num)> = peers.iter().map(|y| (&k.dh, y)).collect();
    let out = dh::derive_batch(redc::engine::default_engine(), &items);
    assert!(out[..5].iter().all(Result::is_ok) && out[5].is_err());
}

/// A signature with `nonce`, verified.
fn dsa_sign(k: &Keys, nonce: Nonce) {
    let digest = HashAlg::Sha256.digest(b"message");
    let sig = k
        .dsa
        .sign_prehashed(HashAlg::Sha256, &digest, nonce, &mut OsRng)
        .expect("sign");
    k.dsa.public_key().verify_prehashed(&digest, &sig).expect("verify");
}

/// The control's secret: one random digit, marked like every secret.
fn control_secret() -> SecretNat {
    SecretNat::from_limbs(vec![OsRng.next_u64()])
}

/// Leaky on purpose: a branch on a secret bit.
#[inline(never)]
fn leaky_branch(secret: &SecretNat) -> u64 {
    if std::hint::black_box(secret.limbs()[0]) & 1 == 1 {
        std::hint::black_box(3)
    } else {
        eprintln!("even");
        7
    }
}

/// Leaky on purpose: a table read at a secret index.
#[inline(never)]
fn leaky_index(secret: &SecretNat) -> u64 {
    let table: Vec<u64> = (0..256).collect();
    std::hint::black_box(table[(secret.limbs()[0] & 0xff) as usize])
}

/// Leaky on purpose: a branch on a digit of a private exponent loaded
/// from a file.
#[inline(never)]
fn leaky_key(key: &RsaPrivateKey) -> u64 {
    leaky_branch(key.d())
}

/// The key directory the parent named.
fn keys_dir_of_child() -> std::path::PathBuf {
    std::path::PathBuf::from(std::env::var_os("REDC_CTGRIND_KEYS").expect("keys dir"))
}

/// The runs of this binary under Valgrind with the parent's keys in `keys`.
fn valgrind(path: &str, keys: &Path) -> (Option<i32>, String) {
    ctgrind_support::valgrind(path, &[("REDC_CTGRIND_KEYS", keys)])
}

fn keys_dir() -> TempDir {
    let dir = TempDir::new("ctgrind");
    let dh = dir.path("dh.pem");
    openssl(&[
        "genpkey",
        "-algorithm",
        "DH",
        "-pkeyopt",
        "group:ffdhe2048",
        "-out",
        dh.to_str().expect("utf-8"),
    ]);
    let params = dir.path("dsa-params.pem");
    let params = params.to_str().expect("utf-8 temp path");
    openssl(&[
        "genpkey",
        "-genparam",
        "-algorithm",
        "DSA",
        "-pkeyopt",
        "dsa_paramgen_bits:2048",
        "-pkeyopt",
        "dsa_paramgen_q_bits:256",
        "-out",
        params,
    ]);
    let dsa = dir.path("dsa.pem");
    openssl(&[
        "genpkey",
        "-paramfile",
        params,
        "-out",
        dsa.to_str().expect("utf-8 temp path"),
    ]);
    let pss = dir.path("pss.pem");
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA-PSS",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-pkeyopt",
        "rsa_pss_keygen_md:sha256",
        "-pkeyopt",
        "rsa_pss_keygen_mgf1_md:sha256",
        "-pkeyopt",
        "rsa_pss_keygen_saltlen:32",
        "-out",
        pss.to_str().expect("utf-8 temp path"),
    ]);
    for (name, bits, primes) in KEY_FILES {
        let path = dir.path(&format!("{name}.pem"));
        let p = path.to_str().expect("utf-8 temp path");
        let (bits, primes) = (format!("rsa_keygen_bits:{bits}"), format!("rsa_keygen_primes:{primes}"));
        openssl(&[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            &bits,
            "-pkeyopt",
            &primes,
            "-out",
            p,
        ]);
    }
    dir
}

#[test]
fn private_paths_branch_and_index_on_no_secret() {
    release_only();
    let dir = keys_dir();
    let mut failed = Vec::new();
    for (name, _) in PATHS {
        let t = std::time::Instant::now();
        let (status, stderr) = valgrind(name, &dir.path(""));
        eprintln!("ctgrind {name}: exit {status:?} in {:.1} s", t.elapsed().as_secs_f64());
        if status != Some(0) {
            eprintln!("{}", report(&stderr));
            failed.push(*name);
        }
    }
    assert!(
        failed.is_empty(),
        "secret-dependent branches or addresses in: {failed:?}"
    );
}

#[test]
fn the_check_catches_a_leak() {
    release_only();
    let dir = keys_dir();
    for control in [
        "leaky-branch",
        "leaky-index",
        "leaky-key",
        "leaky-dh-key",
        "leaky-dsa-key",
    ] {
        let (status, stderr) = valgrind(control, &dir.path(""));
        assert_eq!(status, Some(ERROR_EXIT), "{control} not caught:\n{stderr}");
        let function = if control.ends_with("-key") {
            "leaky_branch".to_owned()
        } else {
            control.replace('-', "_")
        };
        let caught = stderr.contains("uninitialised value") && stderr.contains(&function);
        assert!(caught, "{control}: the report does not name it:\n{}", report(&stderr));
        eprintln!("ctgrind {control}: caught");
    }
}

/// The child: one path, inside Valgrind (ignored unless the parent runs it).
#[test]
#[ignore = "run by the parent tests under Valgrind"]
fn child() {
    let Some(path) = ctgrind_support::child_path() else {
        return;
    };
    match path.as_str() {
        "leaky-branch" => drop(leaky_branch(&control_secret())),
        "leaky-index" => drop(leaky_index(&control_secret())),
        "leaky-key" => drop(leaky_key(&load(&keys_dir_of_child(), "k2048"))),
        "leaky-dh-key" | "leaky-dsa-key" => {
            let exponent = match load_ffc(&keys_dir_of_child(), &path["leaky-".len()..path.len() - 4]) {
                redc_ffc::AnyKey::DhPrivate(k) => k.exponent().clone(),
                redc_ffc::AnyKey::DsaPrivate(k) => k.exponent().clone(),
                _ => panic!("a private key"),
            };
            std::hint::black_box(leaky_branch(&exponent));
        }
        name => {
            let dir = keys_dir_of_child();
            let redc_ffc::AnyKey::DhPrivate(dh) = load_ffc(&dir, "dh") else {
                panic!("dh.pem is a DH private key")
            };
            let redc_ffc::AnyKey::DsaPrivate(dsa) = load_ffc(&dir, "dsa") else {
                panic!("dsa.pem is a DSA private key")
            };
            let keys = Keys {
                k2048: load(&dir, "k2048"),
                k2049: load(&dir, "k2049"),
                k3prime: load(&dir, "k3prime"),
                pss: load(&dir, "pss"),
                dh,
                dsa,
            };
            let (_, run) = PATHS.iter().find(|(n, _)| *n == name).expect("a known path");
            run(&keys);
        }
    }
    eprintln!("ctgrind child {path}: {} errors", taint::errors());
}
