//! `redc demo`: what redc does, on built-in values, in a screenful; each
//! section is a library's ([`redc_hw::sample`], [`redc_bench::tour`]).

use redc_bench::tour;
use std::io::Write;
use std::process::ExitCode;

/// Run `redc demo`.
pub(crate) fn run() -> anyhow::Result<ExitCode> {
    let mut out = redc_hw::sample::worked_example();
    out.push_str(&tour::trace_example());
    out.push_str("\n== 2048-bit modexp, every product schedule × exponentiation schedule (w = 64) ==\n");
    out.push_str(&tour::schedule_grid(256).to_string());
    out.push_str(&tour::even_modulus());
    out.push_str("\n== RSA on redc's arithmetic (2048 bits, e = 65537) ==\n");
    out.push_str(&tour::rsa_tour(2048)?.to_string());
    out.push_str(&redc_hw::sample::tour(1024)?);
    out.push_str("\n== Speed beside OpenSSL and GMP, RSA-2048, 0.2 s per figure (redc bench for more) ==\n");
    out.push_str(&crate::bench::measure(&redc_bench::Options::demo())?.text());
    out.push_str("\n== Koç's comparison, s = 16 digits ==\n");
    out.push_str(&redc::mont::counts::table::<u32>(&[16]));
    out.push_str(
        "\nMore: redc --help (modexp, counts, keygen, sign, verify, encrypt, decrypt, rsa, sim, vectors, bench)\n",
    );
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
