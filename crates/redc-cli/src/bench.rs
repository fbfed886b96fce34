//! `redc bench`: the arguments turned into [`redc_bench::Options`], a
//! spinner while [`redc_bench::measure`] runs, and its report written as
//! text, JSON (`--json`) and SVG (`--plot`).

use crate::args::BenchArgs;
use crate::backend::BackendArg;
use crate::failure::bad_input;
use crate::output::Sink;
use redc_bench::{Options, Report};
use redc_cuda::select;
use std::path::Path;
use std::process::ExitCode;

/// The options of a command line; an unavailable backend is bad input.
fn options(a: &BenchArgs) -> anyhow::Result<Options> {
    let requested: Vec<usize> = match (a.sizes.is_empty(), a.quick) {
        (true, true) => vec![2048],
        (true, false) => redc_bench::SIZES.to_vec(),
        (false, _) => a.sizes.iter().map(|&b| b as usize).collect(),
    };
    let mut sizes = Vec::new();
    for b in requested {
        if !sizes.contains(&b) {
            sizes.push(b);
        }
    }
    if a.gpu_only && a.backend != BackendArg::Cuda {
        return Err(bad_input!("--gpu-only measures the GPU: it needs --backend cuda"));
    }
    if a.gpu_batch.is_some() && !matches!(a.backend, BackendArg::Cuda | BackendArg::Auto) {
        return Err(bad_input!(
            "--gpu-batch sizes the GPU's batches: it needs --backend cuda or auto"
        ));
    }
    let (backends, gpu) = match a.backend {
        // The GPU beside every CPU backend of the machine.
        BackendArg::Cuda => {
            crate::backend::engine(Some(a.backend))?;
            (select::usable_cpu(), true)
        }
        // `auto` never fails: the GPU when one is usable.
        BackendArg::Auto => (select::usable_cpu(), select::gpu().is_ok()),
        // One CPU backend, by name.
        cpu => {
            crate::backend::engine(Some(cpu))?;
            (vec![cpu.name()], false)
        }
    };
    if let Some(dir) = a.crypto_mb.as_deref().filter(|d| !d.is_dir()) {
        return Err(bad_input!("--crypto-mb {}: not a directory", dir.display()));
    }
    let cpu = !a.gpu_only;
    Ok(Options {
        sizes,
        backends: if cpu { backends } else { Vec::new() },
        gpu,
        cpu,
        gpu_batch: a.gpu_batch.map(|n| n as usize),
        seconds: a.seconds.unwrap_or(if a.quick { 0.2 } else { 1.0 }),
        threads: a.threads.map_or_else(rayon::current_num_threads, |t| t as usize),
        openssl: cpu && !a.no_openssl,
        gmp: cpu && !a.no_gmp,
        crypto_mb: (cpu && !a.no_crypto_mb).then(|| a.crypto_mb.clone()),
        products: cpu,
        ffc: cpu && !a.no_ffc,
    })
}

/// Run `redc bench`.
pub(crate) fn run(a: &BenchArgs) -> anyhow::Result<ExitCode> {
    let opts = options(a)?;
    // Open the outputs first: a bad path fails before minutes of measuring,
    // and nothing half-written is left if the bench fails.
    let json = a
        .json
        .as_deref()
        .map(|p| Sink::open_public(Some(p), "--json"))
        .transpose()?;
    if let Some(path) = a.plot.as_deref()
        && path.extension().is_some_and(|ext| !ext.eq_ignore_ascii_case("svg"))
    {
        return Err(bad_input!(
            "--plot {}: the chart is written as SVG only; name the file .svg (and convert it, e.g. with rsvg-convert)",
            path.display()
        ));
    }
    let plot = a
        .plot
        .as_deref()
        .map(|p| Sink::open_public(Some(p), "--plot"))
        .transpose()?;
    let report = measure(&opts)?;
    let to_stdout = |p: &Option<std::path::PathBuf>| p.as_deref() == Some(Path::new("-"));
    if !to_stdout(&a.json) && !to_stdout(&a.plot) {
        let mut out = Sink::open(None)?;
        out.writer().write_all(report.text().as_bytes())?;
        out.finish()?;
    }
    if let Some(mut sink) = json {
        let text = serde_json::to_string_pretty(&report.json())?;
        writeln!(sink.writer(), "{text}")?;
        sink.finish()?;
    }
    if let Some(mut sink) = plot {
        sink.writer().write_all(report.svg()?.as_bytes())?;
        sink.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// [`redc_bench::measure`] with a spinner on a terminal saying what it
/// measures (`redc bench`, and `redc demo`'s short table).
pub(crate) fn measure(opts: &Options) -> anyhow::Result<Report> {
    let bar = crate::progress::spinner("bench".to_owned());
    let status = |msg: String| {
        if let Some(bar) = &bar {
            bar.set_message(msg);
        }
    };
    let report = redc_bench::measure(opts, &status);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    report
}
