//! `redc vectors`: testbench vectors from a circuit model (redc-hw).
//!
//! Everything is computed before the first file is written (a request that
//! would need more than 1 GiB is refused up front); every file is then
//! written under a temporary name and only then renamed into place, so an
//! error in computing or creating leaves nothing behind.

use crate::args::VectorsArgs;
use crate::failure::bad_input;
use crate::output::Sink;
use crate::sim::{hw_error, parse_arch};
use redc_hw::vectors::{Given, Operation, Spec, bytes_per_case, from_cases, generate};
use redc_hw::{Big, HwError};
use std::io::Write;
use std::process::ExitCode;

/// The most memory a request may take (its traces, held until written).
const MAX_BYTES: u64 = 1 << 30;

/// Run `redc vectors`.
pub(crate) fn run(a: &VectorsArgs) -> anyhow::Result<ExitCode> {
    let arch = parse_arch(&a.arch)?;
    let format = a.format.0;
    if let Ok(m) = std::fs::metadata(&a.output)
        && !m.is_dir()
    {
        return Err(bad_input!("-o {}: not a directory", a.output.display()));
    }
    let vectors = match &a.n {
        Some(n) => {
            let hex = |v: &Option<String>, field: &str| v.as_deref().map(|t| parse_big(t, field)).transpose();
            let n = parse_big(n, "--n")?;
            let given = Given {
                a: hex(&a.a, "--a")?.unwrap_or_default(),
                b: hex(&a.b, "--b")?.unwrap_or_default(),
                e: hex(&a.e, "--e")?,
                second: match (hex(&a.a2, "--a2")?, hex(&a.b2, "--b2")?) {
                    (None, None) => None,
                    (a2, b2) => Some((a2.unwrap_or_default(), b2.unwrap_or_default())),
                },
                n,
            };
            if given.e.is_none() && a.b.is_none() {
                return Err(bad_input!("--b: a product needs --b (or --e for an exponentiation)"));
            }
            let spec = given.spec(arch, a.radix, a.seed);
            if given.second.is_some() && arch.paper() != redc_hw::Paper::CarrySave {
                let field = if a.a2.is_some() { "--a2" } else { "--b2" };
                return Err(bad_input!(
                    "{field}: {} takes binary operands; only the carry-save multipliers have second words",
                    arch.name()
                ));
            }
            from_cases(spec, &[given]).map_err(|e| match e {
                // Name the option: --a for a (the base, or the pair A1 + A2), --b for b.
                HwError::Operand { name, bound } => {
                    let field = if name == "base" { "a" } else { name };
                    bad_input!(
                        "--{field}: the operand (with a carry-save pair, A1 + A2 or B1 + B2) must be below {bound}"
                    )
                }
                HwError::Modulus(m) => bad_input!("--n: {m}"),
                e => hw_error(e),
            })?
        }
        None => {
            let count = a.count.expect("clap requires --count without --n");
            let spec = Spec {
                arch,
                bits: a.bits as usize,
                radix: a.radix,
                count: count as usize,
                seed: a.seed,
                op: match (a.crt, a.exponent_bits) {
                    (true, _) => Operation::Crt,
                    (false, Some(b)) => Operation::Exponentiation(b as usize),
                    (false, None) => Operation::Product,
                },
            };
            // Refuses what the model cannot run (--crt below 32 bits or on
            // a circuit without CRT) before any case is drawn.
            let need = bytes_per_case(spec).map_err(hw_error)?.saturating_mul(count);
            if need > MAX_BYTES {
                return Err(bad_input!(
                    "--count: {} cases of {} at {} bits need about {} MiB; at most {} MiB (fewer cases or fewer bits)",
                    count,
                    arch.name(),
                    a.bits,
                    need >> 20,
                    MAX_BYTES >> 20
                ));
            }
            let bar = crate::progress::counter(count, format!("{} vectors", arch.name()));
            let vectors = generate(spec, &|done| {
                if let Some(b) = &bar {
                    b.set_position(done as u64);
                }
            });
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            vectors.map_err(hw_error)?
        }
    };
    let files = vectors.files(format);
    std::fs::create_dir_all(&a.output)
        .map_err(|e| bad_input!("-o {}: cannot create the directory: {e}", a.output.display()))?;
    // Every file is created (under a temporary name) before any is moved
    // into place, so a bad path leaves the directory as it was.
    let mut sinks = Vec::with_capacity(files.len());
    for f in &files {
        sinks.push(Sink::open_public(Some(&a.output.join(&f.name)), "--output")?);
    }
    for (sink, f) in sinks.iter_mut().zip(&files) {
        sink.writer().write_all(f.contents.as_bytes())?;
    }
    for sink in sinks {
        sink.finish()?;
    }
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    writeln!(
        std::io::stderr(),
        "redc: wrote {} in {}",
        names.join(", "),
        a.output.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A number in hexadecimal (an optional `0x`, at most 4096 bits); `field`
/// names the option in errors.
fn parse_big(text: &str, field: &str) -> anyhow::Result<Big> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    let v = Big::from_hex(digits).map_err(|e| bad_input!("{field}: '{text}' is not a hexadecimal number: {e}"))?;
    if v.bits() > 4096 {
        return Err(bad_input!("{field}: {} bits; at most 4096", v.bits()));
    }
    Ok(v)
}
