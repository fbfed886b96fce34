//! Writes the seed corpora `fuzz/corpus/<target>/seed-*` (usage:
//! `redc-fuzz-seeds CORPUS_DIR [WYCHEPROOF_DIR]`). Every seed is built from
//! the fixed keys of `fuzz/keys`, by the library itself (key files, signatures,
//! ciphertexts, envelopes, with a seeded generator so the output is the same
//! on every run), from the Wycheproof vectors of the Wycheproof key when
//! their directory is given, and from known corner cases. Files named
//! otherwise (the `regression-*` inputs) are left alone.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use redc_fuzz::{KEY_1024_PEM, KEY_WYCHEPROOF_PEM, PASSWORD, key_1024, key_wycheproof};
use redc_rsa::{HashAlg, Pbes2Kdf, RsaPrivateKey, RsaPublicKey, envelope, hazmat, oaep, pss};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod cli;
mod keys;
mod schemes;
mod wycheproof;

use cli::{batch_lines, modexp_cases, numbers};
use keys::key_files;
use schemes::{decryption, envelopes, signatures};
use wycheproof::{wycheproof_keys, wycheproof_schemes};

const KEY_3PRIMES_PEM: &str = include_str!("../../keys/rsa1024-3primes.pem");

/// The seeds of every target, by target and name.
#[derive(Default)]
struct Corpus(BTreeMap<&'static str, Vec<(String, Vec<u8>)>>);

impl Corpus {
    fn add(&mut self, target: &'static str, name: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.0.entry(target).or_default().push((name.into(), bytes.into()));
    }

    fn write(&self, dir: &Path) -> std::io::Result<()> {
        for (target, seeds) in &self.0 {
            let tdir = dir.join(target);
            std::fs::create_dir_all(&tdir)?;
            for entry in std::fs::read_dir(&tdir)? {
                let path = entry?.path();
                if path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
                {
                    std::fs::remove_file(path)?;
                }
            }
            for (name, bytes) in seeds {
                std::fs::write(tdir.join(format!("seed-{name}")), bytes)?;
            }
            let total: usize = seeds.iter().map(|(_, b)| b.len()).sum();
            println!("{target}: {} seeds, {total} bytes", seeds.len());
        }
        Ok(())
    }
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The index of `h` in `HashAlg::ALL` (the targets' hash byte).
fn hash_index(h: HashAlg) -> u8 {
    HashAlg::ALL.iter().position(|&x| x == h).expect("a hash of ALL") as u8
}

fn u16be(x: usize) -> [u8; 2] {
    u16::try_from(x).expect("fits in u16").to_be_bytes()
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: redc-fuzz-seeds CORPUS_DIR [WYCHEPROOF_DIR]"));
    let vectors = args.next().map(PathBuf::from);
    let mut c = Corpus::default();
    key_files(&mut c);
    signatures(&mut c);
    decryption(&mut c);
    envelopes(&mut c);
    numbers(&mut c);
    modexp_cases(&mut c);
    batch_lines(&mut c);
    match &vectors {
        Some(v) if v.is_dir() => {
            wycheproof_keys(&mut c, v);
            wycheproof_schemes(&mut c, v);
        }
        _ => eprintln!("seeds: no Wycheproof directory given or found; its seeds are left out"),
    }
    c.write(&dir).expect("write the corpus");
}
