//! Helpers shared by the scheme tests (OAEP, PSS, PKCS#1 v1.5): hex, keys
//! from their integers (recovering `p`, `q` from `n`, `e`, `d` when a vector
//! gives no primes), fixed test keys, temporary directories, and the
//! `openssl` command, and the engine of every backend this CPU can run. Keys never go through `encoding.rs`: the tests build
//! them from integers, so they check the schemes alone.

#![allow(dead_code)]

use redc::{PowOptions, modpow};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{Num, RsaPrivateKey};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes from hex text; an odd number of digits is left-padded with a 0.
pub(crate) fn hex(s: &str) -> Vec<u8> {
    let s = s.trim();
    let padded;
    let s = if s.len() % 2 == 1 {
        padded = format!("0{s}");
        padded.as_str()
    } else {
        s
    };
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|_| panic!("bad hex {s:?}")))
        .collect()
}

/// Lower-case hex of bytes.
pub(crate) fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A number from hex text (leading zeros and odd lengths allowed).
pub(crate) fn num(s: &str) -> Num {
    Num::from_be_bytes(&hex(s))
}

/// `p` and `q` (larger first) from `n`, `e`, `d`, by the classical
/// randomized reduction (NIST SP 800-56B Appendix C.2), with small bases.
pub(crate) fn recover_primes(n: &Num, e: &Num, d: &Num) -> Option<(Num, Num)> {
    let one = Num::one();
    let k = d.mul(e).checked_sub(&one)?;
    let t = k.trailing_zeros()?;
    let r = k.shr(t);
    let n1 = n.checked_sub(&one)?;
    for g in [
        2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71,
    ] {
        let mut y = modpow(&Num::from_u64(g), &r, n, PowOptions::default(), None).ok()?;
        if y == one || y == n1 {
            continue;
        }
        for _ in 0..t {
            let x = y.mul(&y).rem(n)?;
            if x == one {
                let p = y.checked_sub(&one)?.gcd(n);
                let (q, rest) = n.divrem(&p)?;
                if !rest.is_zero() || p.is_one() || q.is_one() {
                    return None;
                }
                return Some(if p > q { (p, q) } else { (q, p) });
            }
            if x == n1 {
                break;
            }
            y = x;
        }
    }
    None
}

/// A private key from `n`, `e`, `d`, recovering the primes (at security
/// level 0: vector files hold small keys on purpose).
pub(crate) fn key_from_ned(n: &Num, e: &Num, d: &Num) -> Result<RsaPrivateKey, String> {
    let (p, q) = recover_primes(n, e, d).ok_or("could not recover the primes from n, e, d")?;
    RsaPrivateKey::from_components(n.clone(), e.clone(), d.clone(), vec![p, q])
        .map(|k| k.with_security_level(SecurityLevel::NONE))
        .map_err(|e| e.to_string())
}

/// A fixed test key given by `p`, `q` and `d` in hex, `e = 65537` (at
/// security level 0: the fixed keys are small on purpose).
pub(crate) struct FixedKey {
    /// First prime.
    pub(crate) p: &'static str,
    /// Second prime.
    pub(crate) q: &'static str,
    /// The private exponent exactly as the key file had it.
    pub(crate) d: &'static str,
}

impl FixedKey {
    /// The key.
    pub(crate) fn key(&self) -> RsaPrivateKey {
        let (p, q) = (num(self.p), num(self.q));
        RsaPrivateKey::from_components(p.mul(&q), Num::from_u64(65537), num(self.d), vec![p, q])
            .expect("fixed test key")
            .with_security_level(SecurityLevel::NONE)
    }
}

/// The workspace root (`crates/redc-rsa/../..`).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A directory under the system temp dir, removed on drop.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    /// A fresh directory whose name has the process id, a counter and the time.
    pub(crate) fn new(tag: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "redc-rsa-{tag}-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        Self(dir)
    }

    /// A path inside the directory.
    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Write `bytes` to the file `name` inside the directory; its path.
    pub(crate) fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("write temp file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Run `openssl` with `args`; the output whatever the exit status.
pub(crate) fn openssl_output(args: &[&str]) -> Output {
    Command::new("openssl")
        .args(args)
        .output()
        .expect("the openssl command must be installed for the interop tests")
}

/// Run `openssl` with `args`; panics with its stderr if it fails.
pub(crate) fn openssl(args: &[&str]) -> Output {
    let out = openssl_output(args);
    assert!(
        out.status.success(),
        "openssl {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The named integers of `openssl pkey -text -noout` (modulus,
/// publicExponent, privateExponent, prime1, prime2, ...).
pub(crate) fn parse_openssl_text(text: &str) -> Vec<(String, Num)> {
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.starts_with(' ') || line.starts_with('\t') {
            if let Some(last) = fields.last_mut() {
                last.1.extend(line.trim().chars().filter(|c| *c != ':'));
            }
        } else if let Some((name, rest)) = line.split_once(':') {
            let rest = rest.trim();
            // "publicExponent: 65537 (0x10001)"
            let value = match rest.split_once("(0x") {
                Some((_, hexpart)) => hexpart.trim_end_matches(')').to_owned(),
                None => String::new(),
            };
            fields.push((name.trim().to_owned(), value));
        }
    }
    fields
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k, num(&v)))
        .collect()
}

/// Generate an RSA key of `bits` bits with `openssl genpkey` into
/// `dir/name.pem` (and the public key into `dir/name.pub.pem`); the key
/// rebuilt from the integers `openssl pkey -text` prints.
pub(crate) fn openssl_genkey(dir: &TempDir, name: &str, bits: usize) -> (PathBuf, PathBuf, RsaPrivateKey) {
    let key_path = dir.path(&format!("{name}.pem"));
    let pub_path = dir.path(&format!("{name}.pub.pem"));
    let kp = key_path.to_str().expect("utf-8 temp path");
    let pp = pub_path.to_str().expect("utf-8 temp path");
    let bits_opt = format!("rsa_keygen_bits:{bits}");
    openssl(&["genpkey", "-algorithm", "RSA", "-pkeyopt", &bits_opt, "-out", kp]);
    openssl(&["pkey", "-in", kp, "-pubout", "-out", pp]);
    let text = openssl(&["pkey", "-in", kp, "-noout", "-text"]);
    let fields = parse_openssl_text(&String::from_utf8_lossy(&text.stdout));
    let get = |k: &str| {
        fields
            .iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("openssl pkey -text printed no {k}"))
    };
    let key = RsaPrivateKey::from_components(
        get("modulus"),
        get("publicExponent"),
        get("privateExponent"),
        vec![get("prime1"), get("prime2")],
    )
    .expect("openssl key accepted")
    .with_security_level(SecurityLevel::NONE);
    (key_path, pub_path, key)
}

pub(crate) const K1024: FixedKey = FixedKey {
    p: concat!(
        "fdae9764aa04ae2e77bebee4c57011625d0db40c810fb3de249607d1c7cc76407b467fbf0a809ad1f9fafd0c24528325",
        "757fd60ac66fdd6cfbf4c96bbaf63147",
    ),
    q: concat!(
        "ec9c17171e7c303d8d63f61b86574ebcd00860f472434cfc826e185f5971c123fb24a6a9686e34477640014269f4678f",
        "d99a1cf8e41a2c68aacd84e964fea2f9",
    ),
    d: concat!(
        "9eacd6ec6d4e9de974411f62028b20c4b964f6b49b7216525f5caff1a9ee07286d5ba70013200d9fdde3ece67a6006e7",
        "d59ceff94c4589038eee6b17b8061399ba2f993c465c2940cb18f97420e175ddb9a4c480bdd8c2f5f5b6212578358761",
        "9ad90d66bf5611564c0b7ecee7ce8cbcde6affd90e6f007b7fb6aa27c3b9841",
    ),
};

pub(crate) const DRAFT_K2048: FixedKey = FixedKey {
    p: concat!(
        "f8f5ad6ba828931bea459b8a3f6dc041d23482409c2571e963f31f748602a256371b3883ed459ecf970526459edd16e0",
        "5522f5a45d94751b2ec2daf272c7f8816a52c00d18080171634da899d7973222f51b937630548696a9f7d8c24a59497c",
        "1efcd455cfb97ee86d2b6d34972b332fda303f04999b4eb6b5cc0bb33e7761dd",
    ),
    q: concat!(
        "ce7a2e3b49a90b96330a12dc682bdfbdfbae8dd6dc03b6147aefbd575743f0f6da4d86235061b71afd9cad2d34025e56",
        "ac86b0f7743eb35e1acbca237895424465b706ed22175e5718c8c70b6703ea8f6b510f945be48e5a36bb3c3c91732b58",
        "9dfc05d72d80903194452bda21348647ec72943f11a846e62faebe8eb536b0fd",
    ),
    d: concat!(
        "1455010e0f2d587663a666a6ff1ccdbbf0edd8100646d02a023922908992c4ad39e5565929726ef6508c3a71158ef0b6",
        "ff751d39d07580bb2d2f063210442d0603ff50dbbd7b35fe2c9bb19a47a1af85a4c24901e02ca8b58b7919b20edf32aa",
        "cfbf51adb4bc4b61b9b7e968caa4d570f70ef18d8063228893e47d439efca793259bcf2cd108a3d8688cdf078e7ac799",
        "969f2339d2c1f522b969684629a933baaec2681625eab84f4e56f4447e9d88fb9a199cf71023e0e257b14441b33c84d3",
        "bc67ca8031d2612618103a7a0a40844262f75d8890cd616e51f9035488fd6e099de8ff6d65a4ff118254807c9f58d2fb",
        "ba8ba151dc8c68be349c977a204e04c1",
    ),
};

pub(crate) const DRAFT_K2049: FixedKey = FixedKey {
    p: concat!(
        "188f69360f01e18d9a2de295253d252c31e4476cea5ff7bf8413df7fde356523cdc976805f84fc0ddec770df06ced065",
        "c811348754b346af169756877fd3b3d568682c8787d0b314ef6ac67d65e8133398b62a083c0f8765c5ad40d5a81f9bbd",
        "ce2527ed7e95008cb1029cb4cabd1f9e9bedfc286c96552255da7eab192178ef7",
    ),
    q: concat!(
        "dec7cf11dade83a4c43d2f80197f21fd5d46fd57b431f44fe81a1de37f6a091ffc0464ed971dc8508835ade6cc5f566f",
        "3965613a8b36798c92e6e23f52ef907e9567e341bebc5337189625fbbeab1f3b7b3f92ffb2681e6ef5a784a8c2d78f7c",
        "2d89aaaa24d2cedbd06681cfe65c36c7bfa3c5ba135162222ef5c2e914c98361",
    ),
    d: concat!(
        "119c2b3f50a7ad6152679d7ff510958ac2d8ca6f0028592f332d55a16736178a8e67f17e705ce300e3e8754725100601",
        "3f974d0a3db49ef344ca5a26a34c0450704d0e422e0ce23a69425c15fefb6f26e106eeff64cc8b9d7442e4da4e8c8500",
        "8eaeb365859a2294fa3937bc26be56332e7d81e2c160ef635cc528aa7be55e633a723dbc1e16ba29e52b29aef2f9e565",
        "4fdc0666bb0fc254acbe80e63874f0f5f020782e3c9dcfc2520d0c9c4a7b634e4503fbb493e1aafeeb3f88bd7a133987",
        "25dae6fe399e775cd5d4cf09fc838347c4c98dab1a4883cce620513615afaa10a63368e6d7b79df4166ab162739ef515",
        "a4402ee1e0601c5a55bc71df0e30edf81",
    ),
};

pub(crate) const DRAFT_K4096: FixedKey = FixedKey {
    p: concat!(
        "c999f139aa1c997549611b86ba802ce2ad7958446d0b1127f9a6a253213ee77c2576e63ee2af7857a95037338cd73433",
        "f48ed0d4154966becd88c2d7b872fc9b99b9e509860268cbe27a7ab6b284fd4bec11593d62b6e0bec60f70f4901d92b7",
        "66e7903fafe8a8c5e0080f538a76598eb46c726fdbeeb0dbcb33fc6aca37223afc7f858cd14e75667b6a95b827f1a375",
        "a016778b993dca819a9e288e1b9253f96428aa9ad5ab544e4957b140e727aebeab798692b09d82c2c96a72ad7e998965",
        "b83686501204fb9efc80c65257b3189b8572b454b2096c5c853b24455f31c96e573214ab76144caa298f14a3dbe11699",
        "b8612536fe1e3f051a446f167ad293cb",
    ),
    q: concat!(
        "b6b03a685ae6e015827bea2674acb71ef949d1c3b7e2c92cfbdcf722ae4cbba2176e6b033cdd5b86e8c971613813aef3",
        "45290c51b7f9206fd4999aa563e1309d3c6fab95b7e1df59c2b39a3bb485d5c295c9605e99c3edd715c5507eceb238a1",
        "840fb92f73196f73422881163b5702fedae50f63c3f6a52b9b461e3aa230a4dab04f9d4bc03a2cb0b95a7ff1c7b8bd60",
        "f8384f6a306c4bb500ad59c35073b225a28a710ffe89c43bdb8b70242e6867653c15435a6fb132f149fb4178332d0628",
        "70c989332a9daa2d0efbcfe44e423c5636e7869498b22e2212cb93a97f37edac423b1db6d18a315f216d70a412e4b632",
        "5cf95dd3429bf0f350df3d6cfb1d2787",
    ),
    d: concat!(
        "1505339c19f5774d33c44dd426e3ad783b5b267385aedb75811a8a3542887107a4e0dab700c698c33519a3567e398238",
        "201a61ffef2fe1d2c048fea577b17620bf3d30e46eae9c039f500c04e8936977fc90db3a5b052402fc00238ec66fd867",
        "17834492daf799a4cde1837d78fa869481d8b86a6c1354bbbb269f5ee4ac4b165c7042eb900ea51de1d8ebb652ed41f4",
        "bff472ced74f3c9632034682ff67c1a3f0e8701090fe0eda84bce7e9578b10bed21d9add6067a61f1d53ef3e08a64ab0",
        "ef195cadfd48f192e8894e87da360e4197404ef33d511551fc4d4daed1c8d794ffb49d1eed316388256c78360b02465e",
        "c92ab2f0447a63e1368a6433fc50c540c00282771ec35ba57b29f95e078e28dd578ee771004faf63b72e7fd5de756a80",
        "927cf0c5aa0b791f0ccc2d13e6fcc8b137449f13a9bf918a1d19affe007d1365499cf399429b377f5ff6cc0bcefe4124",
        "cb8185bab65bfd35f716fe6fe26afe8e6936050a5489a7bc9f8f9b4b4568c1d6284dcb1ce89bde8e03d7d6d51df9045d",
        "7785c32d83ba5fe2983c0e42a12ee067a2de6933204100d9fe13975eed6bada474d9fbde582976d12a1340cdabdc90a4",
        "aee2b714634e5c0641284bcd825a0fd6f34c8831e47fb414818ee32ccee4125e94f485360eb8e81a6266c2863f2f4f85",
        "8840d9428fbcac1b621744b9bde93b8a6e6929fd584ea116bb69866cebb34f83",
    ),
};

/// An engine on every CPU backend this machine can run; each one it cannot
/// is named on stderr (a CPU without IFMA skips that backend).
#[allow(clippy::print_stderr)]
pub(crate) fn engines() -> Vec<redc::Engine> {
    redc::engine::backend_names()
        .into_iter()
        .filter_map(|b| match redc::Engine::named(b) {
            Ok(e) => Some(e),
            Err(err) => {
                eprintln!("SKIPPED {b}: {err}");
                None
            }
        })
        .collect()
}
