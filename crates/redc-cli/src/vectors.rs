//! `redc vectors`: testbench vectors from a circuit model (redc-hw).
//!
//! Everything is computed before the first file is written (a request that
//! would need more than 1 GiB is refused up front); every file is then
//! written under a temporary name and only then renamed into place, so an
//! error in computing or creating leaves nothing behind.

use crate::args::{VectorFormat, VectorsArgs};
use crate::failure::bad_input;
use crate::output::Sink;
use crate::sim::{hw_error, parse_arch};
use redc_hw::vectors::{Format, Spec, bytes_per_case, generate};
use std::io::Write;
use std::process::ExitCode;

/// The most memory a request may take (its traces, held until written).
const MAX_BYTES: u64 = 1 << 30;

/// Run `redc vectors`.
pub(crate) fn run(a: &VectorsArgs) -> anyhow::Result<ExitCode> {
    let arch = parse_arch(&a.arch)?;
    let format = match a.format {
        VectorFormat::Hex => Format::Hex,
        VectorFormat::Readmemh => Format::Readmemh,
        VectorFormat::Json => Format::Json,
    };
    if let Ok(m) = std::fs::metadata(&a.output)
        && !m.is_dir()
    {
        return Err(bad_input!("-o {}: not a directory", a.output.display()));
    }
    let spec = Spec {
        arch,
        bits: a.bits as usize,
        radix: a.radix,
        count: a.count as usize,
        seed: a.seed,
    };
    let need = bytes_per_case(spec).map_err(hw_error)?.saturating_mul(a.count);
    if need > MAX_BYTES {
        return Err(bad_input!(
            "--count: {} cases of {} at {} bits need about {} MiB; at most {} MiB (fewer cases or fewer bits)",
            a.count,
            arch.name(),
            a.bits,
            need >> 20,
            MAX_BYTES >> 20
        ));
    }
    let bar = crate::progress::counter(a.count, format!("{} vectors", arch.name()));
    let vectors = generate(spec, &|done| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let files = vectors.map_err(hw_error)?.files(format);
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
