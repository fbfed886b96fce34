//! `redc vectors`: testbench vectors from a circuit model (redc-hw).
//!
//! Everything is computed before the first file is written; each file is
//! then written under a temporary name and renamed into place, so an error
//! leaves no half-written file.

use crate::args::{VectorFormat, VectorsArgs};
use crate::failure::bad_input;
use crate::output::Sink;
use crate::sim::{hw_error, parse_arch};
use redc_hw::vectors::{Format, Spec, generate};
use std::io::Write;
use std::process::ExitCode;

/// Run `redc vectors`.
pub(crate) fn run(a: &VectorsArgs) -> anyhow::Result<ExitCode> {
    let arch = parse_arch(&a.arch)?;
    let format = match a.format {
        VectorFormat::Hex => Format::Hex,
        VectorFormat::Readmemh => Format::Readmemh,
        VectorFormat::Json => Format::Json,
    };
    match std::fs::metadata(&a.output) {
        Ok(m) if !m.is_dir() => return Err(bad_input!("-o {}: not a directory", a.output.display())),
        Ok(_) => {}
        Err(_) => std::fs::create_dir_all(&a.output)
            .map_err(|e| bad_input!("-o {}: cannot create the directory: {e}", a.output.display()))?,
    }
    let spec = Spec {
        arch,
        bits: a.bits as usize,
        radix: a.radix,
        count: a.count as usize,
        seed: a.seed,
    };
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
    for f in &files {
        let mut sink = Sink::open(Some(&a.output.join(&f.name)))?;
        sink.writer().write_all(f.contents.as_bytes())?;
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
