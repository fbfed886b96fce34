//! `redc demo`: what redc does, on built-in values, in a screenful.

use crate::counts;
use redc::exp::Trace;
use redc::{Modulus, Nat, PowOptions, Product, Schedule, modpow};
use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Run `redc demo`.
pub(crate) fn run() -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    worked_example(&mut out);
    small_trace(&mut out);
    agreement(&mut out);
    even_modulus(&mut out);
    rsa(&mut out)?;
    hardware(&mut out)?;
    out.push_str("\n== Speed beside OpenSSL and GMP, RSA-2048, 0.2 s per figure (redc bench for more) ==\n");
    crate::bench::demo(&mut out)?;
    out.push_str("\n== Koç's comparison, s = 16 digits ==\n");
    out.push_str(&counts::table::<u32>(&[16]));
    out.push_str(
        "\nMore: redc --help (modexp, counts, keygen, sign, verify, encrypt, decrypt, rsa, sim, vectors, bench)\n",
    );
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// 001 §3.1: X = 147, Y = 92, M = 251, R = 2^8.
fn worked_example(out: &mut String) {
    let _ = writeln!(
        out,
        "== Montgomery product, the worked example of {} §3.1 (w = 8) ==",
        redc_hw::citation::FDFM.short()
    );
    let m = Modulus::<u8>::new(&Nat::from_u64(251)).expect("251 is odd");
    // The residue whose Montgomery digits are x is to_mont(x·R^-1 mod M);
    // R^-1 = 256^-1 mod 251 = 5^-1 mod 251 = 201.
    let raw = |x: u64| m.to_mont(&Nat::from_u64(x * 201 % 251), Product::Cios);
    let (x, y) = (raw(147), raw(92));
    let _ = writeln!(out, "M = 251, -M^-1 mod 2^8 = {}", m.n0_inv());
    for product in Product::ALL {
        let z = m.multiplier(product).mul(&x, &y);
        let _ = writeln!(
            out,
            "  {:<6} MonPro(147, 92) = 147·92·2^-8 mod 251 = {}",
            product.name(),
            z.digits()[0]
        );
    }
}

/// 000 §3.2: debug at w = 8 with a 32-bit modulus, per exponent bit.
fn small_trace(out: &mut String) {
    out.push_str("\n== Trace per exponent bit, as 000 §3.2 debugged (w = 8, 32-bit modulus) ==\n");
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
    let _ = writeln!(out, "0x12345678^11 mod 0xfffefff1, SOS product, left-to-right");
    out.push_str(&trace.table(&n, opts.product, opts.schedule));
    let _ = writeln!(out, "= 0x{}", r.to_hex());
}

/// Deterministic pseudo-random bytes (splitmix64).
fn bytes(seed: u64, len: usize) -> Vec<u8> {
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

/// Every product × schedule on one 2048-bit exponentiation.
fn agreement(out: &mut String) {
    out.push_str("\n== 2048-bit modexp, every product schedule × exponentiation schedule (w = 64) ==\n");
    let mut nb = bytes(1, 256);
    nb[0] |= 0x80;
    nb[255] |= 1;
    let n = Nat::<u64>::from_be_bytes(&nb);
    let b = Nat::from_be_bytes(&bytes(2, 256)).rem(&n).unwrap_or_default();
    let e = Nat::from_be_bytes(&bytes(3, 256));
    let mut first: Option<Nat<u64>> = None;
    let mut agree = true;
    let _ = write!(out, "{:<8}", "");
    for s in Schedule::ALL {
        let _ = write!(out, "{:>10}", s.name());
    }
    out.push('\n');
    for product in Product::ALL {
        let _ = write!(out, "{:<8}", product.name());
        for schedule in Schedule::ALL {
            let t = Instant::now();
            let r = modpow(&b, &e, &n, PowOptions { product, schedule }, None).expect("modulus is not zero");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let _ = write!(out, "{ms:>8.1}ms");
            agree &= first.get_or_insert_with(|| r.clone()) == &r;
        }
        out.push('\n');
    }
    let hex = first.map(|r| r.to_hex()).unwrap_or_default();
    let _ = writeln!(
        out,
        "all 30 results {}: 0x{}…",
        if agree { "identical" } else { "DIFFER (bug!)" },
        &hex[..16.min(hex.len())]
    );
}

/// pow(3, 10^6, 2^64 · 1000003): Montgomery for the odd part, CRT with 2^64.
fn even_modulus(out: &mut String) {
    out.push_str("\n== Any modulus, even ones too: n = 2^t·m, Montgomery mod m, CRT ==\n");
    let n = Nat::<u32>::from_u64(1_000_003).shl(64);
    let r = modpow(
        &Nat::from_u64(3),
        &Nat::from_u64(1_000_000),
        &n,
        PowOptions::default(),
        None,
    )
    .expect("modulus is not zero");
    let _ = writeln!(out, "pow(3, 1000000, 2^64·1000003) = {r}");
}

/// RSA on the same arithmetic: a fresh 2048-bit key, the private operation
/// in each CRT mode (001 §4), a PSS signature and an OAEP round trip.
fn rsa(out: &mut String) -> anyhow::Result<()> {
    use rand_core::OsRng;
    use redc_rsa::HashAlg;
    use redc_rsa::hazmat::{CrtMode, rsadp_with};
    use redc_rsa::padding::{Oaep, Pss};
    out.push_str("\n== RSA on redc's arithmetic (2048 bits, e = 65537) ==\n");
    let t = Instant::now();
    let key = redc_rsa::keygen::generate(2048, &Nat::from_u64(redc_rsa::keygen::DEFAULT_E), &|_| {})
        .map_err(|e| anyhow::anyhow!("keygen: {e}"))?;
    let _ = writeln!(out, "keygen: {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let c = Nat::from_be_bytes(&bytes(4, 255));
    let mut first = None;
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
        let same = first.get_or_insert_with(|| m.clone()) == &m;
        let _ = writeln!(
            out,
            "  c^d mod n, {name:<12} {ms:>6.2} ms (blinded, checked with e){}",
            if same { "" } else { "  DIFFERS (bug!)" }
        );
    }
    let msg = b"Montgomery, Modular multiplication without trial division, 1985";
    let pss = Pss::new(HashAlg::Sha256);
    let sig = key
        .sign(pss, msg, &mut OsRng)
        .map_err(|e| anyhow::anyhow!("sign: {e}"))?;
    let ok = key.public_key().verify(pss, msg, &sig).is_ok();
    let _ = writeln!(
        out,
        "  PSS-SHA256 signature of {} bytes: {}",
        sig.len(),
        if ok { "verifies" } else { "FAILS" }
    );
    let oaep = Oaep::new(HashAlg::Sha256);
    let ct = key
        .public_key()
        .encrypt(&oaep, b"attack at dawn", &mut OsRng)
        .map_err(|e| anyhow::anyhow!("encrypt: {e}"))?;
    let pt = key
        .decrypt(oaep, &ct, &mut OsRng)
        .map_err(|e| anyhow::anyhow!("decrypt: {e}"))?;
    let _ = writeln!(out, "  OAEP-SHA256 round trip: {:?}", String::from_utf8_lossy(&pt));
    Ok(())
}

/// The papers' circuits (redc-hw): one 1024-bit product on every model,
/// checked against the reference, and 001 Table 2's 1024-bit row.
fn hardware(out: &mut String) -> anyhow::Result<()> {
    use redc_hw::{Arch, Paper, build, random::Seeded, reference};
    out.push_str("\n== The papers' circuits (redc sim): one product of a random 1024-bit modulus ==\n");
    let mut rng = Seeded::new(1);
    let n = rng.odd_modulus(1024);
    for arch in Arch::ALL {
        let c = build(arch, &n, None)?;
        let bound = c.operand_bound();
        let (a, b) = (rng.below(&bound), rng.below(&bound));
        let run = c.multiply(&a, &b, None)?;
        let ok = reference::reduce(&run.value.shl(c.r_log2()), &n) == reference::reduce(&a.mul(&b), &n);
        let _ = writeln!(
            out,
            "{:<18} {:>9} cycles  {:>10.3} µs at {:>7.3} MHz  {}",
            arch.name(),
            run.cycles,
            run.cycles as f64 / c.clock_mhz(),
            c.clock_mhz(),
            if ok { "matches the reference" } else { "MISMATCH" }
        );
    }
    let row = Paper::Fdfm
        .tables()
        .into_iter()
        .flat_map(|t| t.entries)
        .find(|e| e.row == "R=1024" && e.column == "clock cycles");
    if let Some(e) = row {
        let _ = writeln!(
            out,
            "001 Table 2, 1024-bit CRT decryption: paper {} cycles, model {} (redc sim --table all)",
            e.paper.unwrap_or_default(),
            e.model
        );
    }
    out.push_str("The papers (000-004, cited by number above):\n");
    for c in redc_hw::Citation::ALL {
        let _ = writeln!(out, "  {c}");
    }
    Ok(())
}
