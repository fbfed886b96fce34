//! `redc sim`: the arguments turned into a [`SimSpec`], one run of
//! [`redc_hw::simulate::simulate`] behind a spinner, its [`SimReport`]
//! printed as text or JSON and its VCD trace written; `--table PAPER`
//! prints the paper's tables beside the models' figures.

use crate::args::SimArgs;
use crate::failure::bad_input;
use crate::output::Sink;
use redc_hw::simulate::{SimError, SimReport, SimSpec};
use redc_hw::{Arch, HwError, Paper, table};
use std::io::Write;
use std::process::ExitCode;

/// Run `redc sim`.
pub(crate) fn run(a: &SimArgs) -> anyhow::Result<ExitCode> {
    if let Some(paper) = &a.table {
        return tables(paper, a.json);
    }
    let name = a.arch.as_deref().unwrap_or_default();
    let arch = parse_arch(name)?;
    let spec = SimSpec {
        bits: a.bits as usize,
        seed: a.seed,
        radix: a.radix,
        exp: a.exp.clone(),
        cores: a.cores,
        mhz: a.mhz,
        ladder: a.ladder,
        crt: a.crt,
        parallel: a.parallel,
        vcd: a.vcd.as_ref().map(|p| p.display().to_string()),
    };
    let what = if a.crt { "CRT decryption" } else { "exponentiation" };
    let bar = crate::progress::spinner(format!("simulating a {}-bit {what} on {}", spec.bits, arch.name()));
    let report = redc_hw::simulate::simulate(arch, &spec);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report: SimReport = report.map_err(sim_error)?;
    if let (Some(path), Some(trace)) = (a.vcd.as_deref(), &report.product.vcd) {
        let mut sink = Sink::open_public(Some(path), "--vcd")?;
        sink.writer().write_all(trace.text.as_bytes())?;
        sink.finish()?;
    }
    let text = if a.json {
        format!("{}\n", serde_json::to_string_pretty(&report.json())?)
    } else {
        report.to_string()
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The architecture named `name`, or a bad-input error listing them.
pub(crate) fn parse_arch(name: &str) -> anyhow::Result<&'static Arch> {
    Arch::from_name(name).ok_or_else(|| {
        let all: Vec<&str> = Arch::ALL.iter().map(|a| a.name()).collect();
        bad_input!("ARCH: unknown architecture '{name}'; one of {}", all.join(", "))
    })
}

/// A run's error: bad input naming its option, or a model that disagrees
/// with the reference (a failure, exit status 1).
fn sim_error(e: SimError) -> anyhow::Error {
    match e {
        SimError::Input(m) => bad_input!("{m}"),
        SimError::Hw(e) => hw_error(e),
        SimError::Disagrees(m) => anyhow::anyhow!("{m}"),
    }
}

/// A model error as bad input naming the option it came from.
pub(crate) fn hw_error(e: HwError) -> anyhow::Error {
    match e {
        HwError::Radix { .. } => bad_input!("--{e}"),
        HwError::Modulus(_) => bad_input!("--bits: {e}"),
        // The message starts with the option's name: `--crt: ...`, `--parallel: ...`.
        HwError::Unsupported { option: Some(_), .. } => bad_input!("--{e}"),
        other => bad_input!("{other}"),
    }
}

/// `redc sim --table PAPER`.
fn tables(paper: &str, as_json: bool) -> anyhow::Result<ExitCode> {
    let papers = Paper::select(paper).ok_or_else(|| {
        let all: Vec<&str> = Paper::all().into_iter().map(Paper::name).collect();
        bad_input!("--table: unknown paper '{paper}'; one of {}, all", all.join(", "))
    })?;
    let tables = table::of_papers(&papers);
    let unexplained: usize = tables.iter().map(|(_, t)| t.unexplained().len()).sum();
    let text = if as_json {
        format!("{}\n", serde_json::to_string_pretty(&table::json(&tables))?)
    } else {
        table::markdown(&tables)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    if unexplained > 0 {
        anyhow::bail!("{unexplained} figures differ from the paper without a note");
    }
    Ok(ExitCode::SUCCESS)
}
