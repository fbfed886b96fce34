//! `redc demo`: what redc does, on built-in values, in a screenful.

use redc::exp::Trace;
use redc::{Modulus, Nat, PowOptions, Product, Schedule, modpow};
use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

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
    out.push_str(&redc::mont::counts::table::<u32>(&[16]));
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

/// Every product × schedule on one 2048-bit exponentiation.
fn agreement(out: &mut String) {
    out.push_str("\n== 2048-bit modexp, every product schedule × exponentiation schedule (w = 64) ==\n");
    out.push_str(&redc_bench::tour::schedule_grid(256).to_string());
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
    out.push_str("\n== RSA on redc's arithmetic (2048 bits, e = 65537) ==\n");
    out.push_str(&redc_bench::tour::rsa_tour(2048)?.to_string());
    Ok(())
}

/// The papers' circuits (redc-hw): one 1024-bit product on every model,
/// checked against the reference, and 001 Table 2's 1024-bit row.
fn hardware(out: &mut String) -> anyhow::Result<()> {
    out.push_str("\n== The papers' circuits (redc sim): one product of a random 1024-bit modulus ==\n");
    for run in redc_hw::sample::products(1024, 1)? {
        let _ = writeln!(out, "{run}");
    }
    if let Some(e) = redc_hw::Paper::Fdfm.entry("R=1024", "clock cycles") {
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
