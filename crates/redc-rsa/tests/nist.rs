//! NIST CAVP RSA signature vectors (FIPS 186-2 and 186-3): every CAVP file
//! under the directory named by `REDC_NIST_VECTORS` (default
//! `../shared/vectors/nist` beside the workspace; sub-directories too), and
//! the committed files of `tests/data/nist` (cases whose fields are
//! reordered, and a SigVer file with no private exponent). A file is a
//! CAVP file when its name starts with `SigGen`, `SigVer` or `KeyGen`, or
//! its text with `# CAVS`, and it ends in `.txt` or `.rsp`; anything else
//! (`SOURCE.txt`, a README) is ignored. The kind comes from the name
//! (`SigGen15`, `SigGenPSS`, `SigVer15`, `SigVerPSS`) and must agree with
//! the header's description; X9.31 files (`SigGenRSA`, `SigVerRSA`, or a
//! header naming X9.31) and key-generation files (`KeyGen`) are named and
//! skipped; any other kind fails the test, never skipped.
//!
//! - SigGen: `S` must verify (PSS, MGF1 with the message hash: with the
//!   salt length of `SaltVal` or the header's `# Salt len`, and with
//!   automatic detection). Where the file gives a nonzero `d` (the 186-2
//!   `.txt` files, `SigGen15_186-3.txt`), `S` must also come out byte for
//!   byte from the key recovered from `n`, `e`, `d`: through the full
//!   signing path (PKCS#1 v1.5: `sign`; PSS: `emsa_pss_encode` with
//!   `SaltVal`, then `raw_private`, i.e. CRT, blinding and the check with
//!   `e`) and, independently, as `EM^d mod n` by `redc::modpow`.
//! - SigVer: the verdict must equal `Result = P/F` (PSS: with `SaltVal`'s
//!   length and with detection); each `P` case with a nonzero `d` is
//!   re-signed as above, byte for byte. A SigVer file without a private
//!   exponent (absent, or `d = 0`) is verified only.
//!
//! Cases: a file is read as blocks of `name = value` lines separated by
//! blank lines. A block with `Msg` is one case, its fields in any order; a
//! block without sets values that persist until overwritten (`n` once per
//! section in 186-2 files, `p`, `q`); a `[mod = N]` header starts afresh.
//! In a file without blank lines between cases, a field seen twice in a
//! block starts the next case (there, a key that changes between cases
//! with no `[mod = N]` line, its fields before the case's own, cannot be
//! told apart from the previous case's and is not supported). The files use CRLF line endings; odd-length
//! hex is left-padded.

#![allow(clippy::print_stderr)]

mod scheme_support;

use rand_core::OsRng;
use redc::{PowOptions, modpow};
use redc_rsa::padding::{Pkcs1v15Sign, Pss};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{HashAlg, Num, RsaPrivateKey, RsaPublicKey, hazmat, pkcs1v15, pss};
use scheme_support::{hex, key_from_ned, num, to_hex, workspace_root};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The kinds of CAVP RSA file this runner knows.
#[derive(Clone, Copy)]
enum Kind {
    SigGen15,
    SigGenPss,
    SigVer15,
    SigVerPss,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::SigGen15, Kind::SigGenPss, Kind::SigVer15, Kind::SigVerPss];

    /// The start of the file name.
    fn name(self) -> &'static str {
        match self {
            Kind::SigGen15 => "SigGen15",
            Kind::SigGenPss => "SigGenPSS",
            Kind::SigVer15 => "SigVer15",
            Kind::SigVerPss => "SigVerPSS",
        }
    }

    fn is_pss(self) -> bool {
        matches!(self, Kind::SigGenPss | Kind::SigVerPss)
    }

    fn is_ver(self) -> bool {
        matches!(self, Kind::SigVer15 | Kind::SigVerPss)
    }

    /// Does a header description (`"SigGen PKCS#1 Ver 1.5"`, `"FIPS186-3 -
    /// SigVer RSA PKCS#1 RSASSA-PSS"`, ...) name this kind?
    fn described_by(self, description: &str) -> bool {
        let d = description.replace(' ', "");
        let op = if self.is_ver() { "SigVer" } else { "SigGen" };
        let scheme = if self.is_pss() {
            "PKCS#1RSASSA-PSS"
        } else {
            "PKCS#1Ver1.5"
        };
        d.contains(op) && d.contains(scheme)
    }
}

/// The fields of a case that never carry over to the next one.
const CASE_FIELDS: [&str; 4] = ["Msg", "S", "SaltVal", "Result"];

fn nist_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REDC_NIST_VECTORS") {
        let dir = PathBuf::from(dir);
        assert!(dir.is_dir(), "REDC_NIST_VECTORS={} is not a directory", dir.display());
        return Some(dir);
    }
    let default = workspace_root().join("../shared/vectors/nist");
    default.is_dir().then_some(default)
}

/// Every CAVP file under `dir`, with its text.
fn cavp_files(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path();
        if path.is_dir() {
            cavp_files(&path, out);
            continue;
        }
        let name = file_name(&path);
        if !(name.ends_with(".txt") || name.ends_with(".rsp")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if ["SigGen", "SigVer", "KeyGen"].iter().any(|p| name.starts_with(p)) || text.starts_with("# CAVS") {
            out.push((path, text));
        }
    }
}

fn file_name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("?")
}

/// The kinds this runner names and skips: X9.31 signatures and key
/// generation.
const SKIPPED: [(&str, &str); 3] = [
    ("SigGenRSA", "X9.31 signature generation"),
    ("SigVerRSA", "X9.31 signature verification"),
    ("KeyGen", "key generation"),
];

/// The kind named by the file name, checked against the header's
/// description when it has one; `Ok(Err(why))` for a kind that is named
/// and skipped.
fn kind_of(name: &str, text: &str) -> Result<Result<Kind, &'static str>, String> {
    let description = text
        .lines()
        .filter(|l| l.starts_with('#'))
        .find_map(|l| l.split('"').nth(1));
    if let Some((_, why)) = SKIPPED.iter().find(|(prefix, _)| name.starts_with(prefix)) {
        return Ok(Err(why));
    }
    if description.is_some_and(|d| d.replace(' ', "").contains("X9.31")) {
        return Ok(Err("X9.31"));
    }
    let known: Vec<_> = Kind::ALL.iter().map(|k| k.name()).collect();
    let kind = Kind::ALL
        .into_iter()
        .find(|k| name.starts_with(k.name()))
        .ok_or_else(|| format!("unknown kind of CAVP file (header {description:?}; known: {known:?})"))?;
    match description {
        Some(d) if !kind.described_by(d) => Err(format!("named {}, but the header says {d:?}", kind.name())),
        _ => Ok(Ok(kind)),
    }
}

/// The blocks of `name = value` lines of a CAVP file, as separated by
/// blank lines (comments dropped, CRLF handled), with `[mod = N]` headers
/// as `("mod", N)`.
fn blocks(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out = vec![Vec::new()];
    for line in text.lines().map(str::trim).filter(|l| !l.starts_with('#')) {
        if line.is_empty() {
            if out.last().is_some_and(|b| !b.is_empty()) {
                out.push(Vec::new());
            }
            continue;
        }
        let line = line.trim_start_matches('[').trim_end_matches(']');
        if let Some((k, v)) = line.split_once('=') {
            out.last_mut().unwrap().push((k.trim().to_owned(), v.trim().to_owned()));
        }
    }
    out.retain(|b| !b.is_empty());
    out
}

/// The values in force for the current case.
#[derive(Default)]
struct Fields(HashMap<String, String>);

impl Fields {
    fn get(&self, name: &str) -> Result<&str, String> {
        self.0.get(name).map(String::as_str).ok_or_else(|| format!("no {name}"))
    }

    fn num(&self, name: &str) -> Result<Num, String> {
        self.get(name).map(num)
    }

    fn hex(&self, name: &str) -> Result<Vec<u8>, String> {
        self.get(name).map(hex)
    }

    /// The private key of `n`, `e`, `d` (with `p`, `q` when given, else
    /// recovered), built once per key.
    fn key<'a>(&self, keys: &'a mut HashMap<[String; 3], RsaPrivateKey>) -> Result<&'a RsaPrivateKey, String> {
        let id = [self.get("n")?, self.get("e")?, self.get("d")?].map(str::to_owned);
        if !keys.contains_key(&id) {
            let (n, e, d) = (self.num("n")?, self.num("e")?, self.num("d")?);
            let key = match (self.num("p"), self.num("q")) {
                (Ok(p), Ok(q)) => RsaPrivateKey::from_components(n, e, d, vec![p, q])
                    .map(|k| k.with_security_level(SecurityLevel::NONE))
                    .map_err(|e| e.to_string()),
                _ => key_from_ned(&n, &e, &d),
            }
            .map_err(|e| format!("key rejected: {e}"))?;
            keys.insert(id.clone(), key);
        }
        Ok(&keys[&id])
    }
}

/// One case; `Ok(true)` when `S` was also reproduced byte for byte.
fn run_case(
    kind: Kind,
    f: &Fields,
    header_salt: Option<usize>,
    keys: &mut HashMap<[String; 3], RsaPrivateKey>,
) -> Result<bool, String> {
    let (n, e) = (f.num("n")?, f.num("e")?);
    let sha = f.get("SHAAlg")?;
    let hash = HashAlg::from_name(sha).ok_or_else(|| format!("unknown hash {sha}"))?;
    let (msg, sig) = (f.hex("Msg")?, f.hex("S")?);
    // "00" stands for the empty salt (salt length 0 in the header).
    let salt = f
        .get("SaltVal")
        .ok()
        .filter(|_| kind.is_pss())
        .map(|s| if s == "00" { Vec::new() } else { hex(s) });
    let expect = f.get("Result").map_or(true, |r| r.starts_with('P'));

    let public = RsaPublicKey::new(n.clone(), e).map(|k| k.with_security_level(SecurityLevel::NONE));
    let verdicts: Vec<bool> = if kind.is_pss() {
        let salt_len = salt.as_ref().map(Vec::len).or(header_salt);
        [salt_len, None]
            .map(|len| {
                public.as_ref().is_ok_and(|k| {
                    k.verify(
                        Pss {
                            hash,
                            mgf_hash: hash,
                            salt_len: len,
                        },
                        &msg,
                        &sig,
                    )
                    .is_ok()
                })
            })
            .to_vec()
    } else {
        vec![
            public
                .as_ref()
                .is_ok_and(|k| k.verify(Pkcs1v15Sign::new(hash), &msg, &sig).is_ok()),
        ]
    };
    if verdicts.iter().any(|&v| v != expect) {
        let want = f.get("Result").unwrap_or("P");
        return Err(format!("{sha}: expected {want}, verified {verdicts:?}"));
    }

    // Byte-exact signing: a valid signature, a nonzero d, and for PSS the salt.
    let (true, Ok(d)) = (expect, f.num("d")) else {
        return Ok(false);
    };
    if d.is_zero() {
        return Ok(false);
    }
    let (digest, k) = (hash.digest(&msg), n.bits().div_ceil(8));
    let em = match (kind.is_pss(), &salt) {
        (false, _) => pkcs1v15::emsa_encode(hash, &digest, k),
        (true, Some(salt)) => pss::emsa_pss_encode(hash, hash, &digest, salt, n.bits() - 1),
        (true, None) => return Ok(false),
    }
    .map_err(|e| format!("encoding: {e}"))?;
    let key = f.key(keys)?;
    let signed = if kind.is_pss() {
        hazmat::raw_private(key, &em, &mut OsRng).map(|s| s.to_vec())
    } else {
        key.sign(Pkcs1v15Sign::new(hash), &msg, &mut OsRng)
    }
    .map_err(|e| format!("signing: {e}"))?;
    let plain = modpow(&Num::from_be_bytes(&em), &d, &n, PowOptions::default(), None)
        .map_err(|e| format!("modpow: {e}"))?
        .to_be_bytes_padded(k)
        .ok_or("EM^d mod n does not fit")?;
    for (how, got) in [("signer", signed), ("EM^d mod n", plain)] {
        if got != sig {
            return Err(format!("{sha}: {how} gave {}", to_hex(&got)));
        }
    }
    Ok(true)
}

/// The outcome of one file.
struct Tally {
    kind: Kind,
    cases: usize,
    passed: usize,
    exact: usize,
    failures: Vec<String>,
}

/// Run one file; `Ok(Err(why))` for a kind named and skipped, `Err` for
/// an unknown kind.
fn run_file(name: &str, text: &str) -> Result<Result<Tally, &'static str>, String> {
    let kind = match kind_of(name, text)? {
        Ok(kind) => kind,
        Err(why) => return Ok(Err(why)),
    };
    let header_salt = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("# Salt len:"))
        .and_then(|v| v.trim().parse().ok());
    let (mut fields, mut keys) = (Fields::default(), HashMap::new());
    let mut t = Tally {
        kind,
        cases: 0,
        passed: 0,
        exact: 0,
        failures: Vec::new(),
    };
    let mut run = |fields: &mut Fields, t: &mut Tally| {
        t.cases += 1;
        match run_case(kind, fields, header_salt, &mut keys) {
            Ok(exact) => {
                t.passed += 1;
                t.exact += usize::from(exact);
            }
            Err(why) => t.failures.push(format!(
                "case {} (mod {}): {why}",
                t.cases,
                fields.get("mod").unwrap_or("?")
            )),
        }
        for f in CASE_FIELDS {
            fields.0.remove(f);
        }
    };
    for block in blocks(text) {
        // The fields this block set since its last case.
        let mut seen: Vec<String> = Vec::new();
        for (field, value) in block {
            if field == "mod" || seen.contains(&field) {
                if seen.iter().any(|f| f == "Msg") {
                    run(&mut fields, &mut t);
                }
                seen.clear();
            }
            if field == "mod" {
                fields.0.clear();
            }
            seen.push(field.clone());
            fields.0.insert(field, value);
        }
        if seen.iter().any(|f| f == "Msg") {
            run(&mut fields, &mut t);
        }
    }
    if t.cases == 0 {
        t.failures.push("no cases".into());
    }
    Ok(Ok(t))
}

/// Run every CAVP file under `dir`, printing a line per file; the problems.
fn run_dir(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    cavp_files(dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no CAVP RSA files in {}", dir.display());

    // One thread per file: the signing files dominate the run time.
    let results: Vec<Result<Result<Tally, &str>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|(path, text)| s.spawn(|| run_file(file_name(path), text)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("runner panicked".into())))
            .collect()
    });

    let mut problems = Vec::new();
    for ((path, _), result) in files.iter().zip(&results) {
        let name = path.strip_prefix(dir).unwrap_or(path).display();
        match result {
            Ok(Ok(t)) => {
                eprintln!(
                    "{name}: {}, {} cases, {} passed, {} failed ({} signed byte for byte)",
                    t.kind.name(),
                    t.cases,
                    t.passed,
                    t.cases - t.passed,
                    t.exact
                );
                problems.extend(t.failures.iter().map(|f| format!("{name}: {f}")));
            }
            Ok(Err(why)) => eprintln!("{name}: skipped ({why}: not implemented by redc)"),
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    problems
}

#[test]
fn nist_cavp_rsa() {
    let Some(dir) = nist_dir() else {
        eprintln!("nist: no vectors (set REDC_NIST_VECTORS or provide ../shared/vectors/nist); skipped");
        return;
    };
    let problems = run_dir(&dir);
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The committed files: a SigGenPSS file whose cases give their fields in
/// every order (`SaltVal` after `S`, `Msg` last, ...), one without blank
/// lines between cases, and a SigVer15 file without a private exponent
/// (`d = 0`), all of them passing, with every case counted.
#[test]
fn nist_files_with_reordered_fields_and_no_private_exponent() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nist");
    let problems = run_dir(&dir);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let count = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        match run_file(name, &text) {
            Ok(Ok(t)) => (t.cases, t.passed, t.exact),
            other => panic!("{name}: {:?}", other.map(|r| r.map(|t| t.cases))),
        }
    };
    assert_eq!(count("SigGenPSS_reordered.txt"), (6, 6, 6));
    assert_eq!(count("SigGenPSS_no_blank_lines.txt"), (6, 6, 6));
    assert_eq!(count("SigVer15_no_d.rsp"), (6, 6, 0));
    assert!(matches!(run_file("SigGenRSA_186-2.txt", "# CAVS 11.4\n"), Ok(Err(_))));
    assert!(run_file("SigGenFoo.txt", "# CAVS 11.4\n").is_err());
}
