//! The sections of `redc demo` on redc's own arithmetic, beside its speed
//! table ([`Options::demo`](crate::Options::demo)): a trace per exponent
//! bit (000 §3.2), every product schedule (000 §2.2, 001 Alg. 1) with every
//! exponentiation schedule on one 2048-bit exponentiation, an even modulus,
//! and RSA on the same arithmetic, the private operation in each CRT mode
//! of 001 §4. Each is the demo's text, or a value whose `Display` is.

use rand_core::OsRng;
use redc::exp::Trace;
use redc::{Nat, PowOptions, Product, Schedule, modpow};
use redc_rsa::HashAlg;
use redc_rsa::hazmat::{CrtMode, rsadp_with};
use redc_rsa::padding::{Oaep, Pss};
use std::fmt;
use std::time::Instant;

/// Deterministic pseudo-random bytes (splitmix64): the same inputs on
/// every run.
pub fn splitmix_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

/// The demo's trace per exponent bit, as 000 §3.2 debugged its circuit:
/// `0x12345678^11 mod 0xfffefff1` at 8-bit digits, the SOS product,
/// left to right.
pub fn trace_example() -> String {
    let (b, e, n) = (
        Nat::<u8>::from_u64(0x1234_5678),
        Nat::from_u64(0b1011),
        Nat::from_u64(0xfffe_fff1),
    );
    let opts = PowOptions {
        product: Product::Sos,
        schedule: Schedule::Ltr,
    };
    let mut trace = Trace::new();
    let r = modpow(&b, &e, &n, opts, Some(&mut trace)).expect("modulus is not zero");
    format!(
        "\n== Trace per exponent bit, as 000 §3.2 debugged (w = 8, 32-bit modulus) ==\n\
         0x12345678^11 mod 0xfffefff1, SOS product, left-to-right\n{}= 0x{}\n",
        trace.table(&n, opts.product, opts.schedule),
        r.to_hex()
    )
}

/// The demo's even modulus, `pow(3, 10^6, 2^64 · 1000003)`: Montgomery
/// for the odd part, CRT with 2^64.
pub fn even_modulus() -> String {
    let n = Nat::<u32>::from_u64(1_000_003).shl(64);
    let r = modpow(
        &Nat::from_u64(3),
        &Nat::from_u64(1_000_000),
        &n,
        PowOptions::default(),
        None,
    )
    .expect("modulus is not zero");
    format!(
        "\n== Any modulus, even ones too: n = 2^t·m, Montgomery mod m, CRT ==\npow(3, 1000000, 2^64·1000003) = {r}\n"
    )
}

/// One exponentiation `base^exp mod modulus` run with every [`Product`] ×
/// [`Schedule`]: the time of each and whether all agree.
#[derive(Debug, Clone)]
pub struct ScheduleGrid {
    /// The base, below the modulus.
    pub base: Nat<u64>,
    /// The exponent.
    pub exp: Nat<u64>,
    /// The modulus: odd, its top bit set.
    pub modulus: Nat<u64>,
    /// Per product schedule, in [`Product::ALL`]'s order, the milliseconds
    /// of each exponentiation schedule in [`Schedule::ALL`]'s order.
    pub millis: Vec<(Product, Vec<f64>)>,
    /// The first result.
    pub result: Nat<u64>,
    /// Whether every result equals the first.
    pub agree: bool,
}

/// The grid on `bytes`-byte operands drawn by [`splitmix_bytes`]
/// (seeds 1, 2, 3: the modulus, the base reduced by it, the exponent).
pub fn schedule_grid(bytes: usize) -> ScheduleGrid {
    let mut nb = splitmix_bytes(1, bytes);
    nb[0] |= 0x80;
    nb[bytes - 1] |= 1;
    let modulus = Nat::<u64>::from_be_bytes(&nb);
    let base = Nat::from_be_bytes(&splitmix_bytes(2, bytes))
        .rem(&modulus)
        .unwrap_or_default();
    let exp = Nat::from_be_bytes(&splitmix_bytes(3, bytes));
    let mut first: Option<Nat<u64>> = None;
    let mut agree = true;
    let millis = Product::ALL
        .into_iter()
        .map(|product| {
            let row = Schedule::ALL
                .into_iter()
                .map(|schedule| {
                    let t = Instant::now();
                    let r = modpow(&base, &exp, &modulus, PowOptions { product, schedule }, None)
                        .expect("modulus is not zero");
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    agree &= first.get_or_insert_with(|| r.clone()) == &r;
                    ms
                })
                .collect();
            (product, row)
        })
        .collect();
    let result = first.unwrap_or_default();
    ScheduleGrid {
        base,
        exp,
        modulus,
        millis,
        result,
        agree,
    }
}

/// The table of times, then the verdict with the result's first 16 hex digits.
impl fmt::Display for ScheduleGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<8}", "")?;
        for s in Schedule::ALL {
            write!(f, "{:>10}", s.name())?;
        }
        writeln!(f)?;
        for (product, row) in &self.millis {
            write!(f, "{:<8}", product.name())?;
            for ms in row {
                write!(f, "{ms:>8.1}ms")?;
            }
            writeln!(f)?;
        }
        let hex = self.result.to_hex();
        writeln!(
            f,
            "all 30 results {}: 0x{}…",
            if self.agree { "identical" } else { "DIFFER (bug!)" },
            &hex[..16.min(hex.len())]
        )
    }
}

/// RSA on redc's arithmetic, timed: see [`rsa_tour`].
#[derive(Debug, Clone)]
pub struct RsaTour {
    /// Key generation, in milliseconds.
    pub keygen_ms: f64,
    /// Per CRT mode (its name): the private operation's milliseconds and
    /// whether its result equals the first mode's.
    pub private: Vec<(&'static str, f64, bool)>,
    /// The PSS-SHA256 signature's length in bytes.
    pub signature_len: usize,
    /// Whether the signature verifies.
    pub verifies: bool,
    /// The OAEP-SHA256 round trip's plaintext.
    pub plaintext: zeroize::Zeroizing<Vec<u8>>,
}

/// A fresh `bits`-bit key (e = 65537); `c^d mod n` in each [`CrtMode`]
/// (Garner, 001 §4's four FDFM steps, none), blinded and checked with e;
/// a PSS signature verified; an OAEP round trip.
pub fn rsa_tour(bits: usize) -> anyhow::Result<RsaTour> {
    let t = Instant::now();
    let key = redc_rsa::keygen::generate(bits, &Nat::from_u64(redc_rsa::keygen::DEFAULT_E), &|_| {})
        .map_err(|e| anyhow::anyhow!("keygen: {e}"))?;
    let keygen_ms = t.elapsed().as_secs_f64() * 1e3;
    let c = Nat::from_be_bytes(&splitmix_bytes(4, bits / 8 - 1));
    let mut first = None;
    let mut private = Vec::new();
    for (name, mode) in [
        ("Garner CRT", CrtMode::Garner),
        ("FDFM 4 steps", CrtMode::Fdfm),
        ("no CRT", CrtMode::Plain),
    ] {
        let t = Instant::now();
        let m = rsadp_with(redc::engine::default_engine(), &key, &c, mode, &mut OsRng)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?
            .reveal();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        private.push((name, ms, first.get_or_insert_with(|| m.clone()) == &m));
    }
    let msg = b"Montgomery, Modular multiplication without trial division, 1985";
    let pss = Pss::new(HashAlg::Sha256);
    let sig = key
        .sign(pss, msg, &mut OsRng)
        .map_err(|e| anyhow::anyhow!("sign: {e}"))?;
    let verifies = key.public_key().verify(pss, msg, &sig).is_ok();
    let oaep = Oaep::new(HashAlg::Sha256);
    let ct = key
        .public_key()
        .encrypt(&oaep, b"attack at dawn", &mut OsRng)
        .map_err(|e| anyhow::anyhow!("encrypt: {e}"))?;
    let plaintext = key
        .decrypt(oaep, &ct, &mut OsRng)
        .map_err(|e| anyhow::anyhow!("decrypt: {e}"))?;
    Ok(RsaTour {
        keygen_ms,
        private,
        signature_len: sig.len(),
        verifies,
        plaintext,
    })
}

/// One line per step: key generation, each CRT mode, PSS, OAEP.
impl fmt::Display for RsaTour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "keygen: {:.0} ms", self.keygen_ms)?;
        for (name, ms, same) in &self.private {
            writeln!(
                f,
                "  c^d mod n, {name:<12} {ms:>6.2} ms (blinded, checked with e){}",
                if *same { "" } else { "  DIFFERS (bug!)" }
            )?;
        }
        writeln!(
            f,
            "  PSS-SHA256 signature of {} bytes: {}",
            self.signature_len,
            if self.verifies { "verifies" } else { "FAILS" }
        )?;
        writeln!(
            f,
            "  OAEP-SHA256 round trip: {:?}",
            String::from_utf8_lossy(&self.plaintext)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn grid_agrees_with_num_bigint() {
        let g = schedule_grid(32);
        let big = |n: &Nat<u64>| BigUint::from_bytes_be(&n.to_be_bytes());
        assert!(g.agree);
        assert_eq!(g.millis.len(), Product::ALL.len());
        assert!(g.millis.iter().all(|(_, row)| row.len() == Schedule::ALL.len()));
        assert_eq!(big(&g.result), big(&g.base).modpow(&big(&g.exp), &big(&g.modulus)));
        assert!(g.to_string().contains("all 30 results identical: 0x"));
    }

    #[test]
    fn splitmix_is_deterministic() {
        assert_eq!(splitmix_bytes(5, 40), splitmix_bytes(5, 40));
        assert_ne!(splitmix_bytes(5, 40), splitmix_bytes(6, 40));
        assert_eq!(splitmix_bytes(5, 40)[..8], splitmix_bytes(5, 8)[..]);
    }

    #[test]
    fn rsa_tour_round_trips() {
        let t = rsa_tour(2048).unwrap();
        assert!(t.private.iter().all(|&(_, _, same)| same));
        assert_eq!((t.signature_len, t.verifies), (256, true));
        assert_eq!(t.plaintext.as_slice(), b"attack at dawn");
    }
}
