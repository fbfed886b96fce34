//! The bench's figures as a Markdown table with ratios and targets, and as
//! JSON.

use super::cycles::Clock;
use super::gpu::GpuRow;
use super::products::{Kernel, OPENSSL4};
use super::{Mode, Operation, Report, Row};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The engine a target compares redc with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Versus {
    /// `openssl speed`.
    OpenSsl,
    /// OpenSSL 4.0 linked in (feature `openssl4`): the newest, so the
    /// anchor of the RSA targets when measured.
    OpenSsl4,
    /// GMP's `mpz_powm`.
    Gmp,
    /// Intel's crypto_mb, eight RSA private operations a call: the batch
    /// anchor of the CPU-kernel issue's targets when loaded.
    CryptoMb,
}

impl Versus {
    /// The anchor's name in the table and the chart.
    pub(super) fn name(self) -> &'static str {
        match self {
            Versus::OpenSsl => "OpenSSL",
            Versus::OpenSsl4 => "OpenSSL 4",
            Versus::Gmp => "GMP",
            Versus::CryptoMb => "crypto_mb",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Versus::OpenSsl => "openssl",
            Versus::OpenSsl4 => "openssl4",
            Versus::Gmp => "gmp",
            Versus::CryptoMb => "crypto_mb",
        }
    }
}

/// A speed goal: redc's fastest backend at least `min` times `versus`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Target {
    pub(super) versus: Versus,
    pub(super) min: f64,
}

/// The goal of a row, if it has one. Batched RSA private against
/// crypto_mb when it was measured: at least 1.1×. Against OpenSSL 4 when it was
/// measured (the CPU-speed issue's targets): RSA private and public, one
/// operation, no slower; batched private at least 2×, batched public 3×.
/// Otherwise against `openssl speed`: RSA-2048 private latency no worse;
/// batched RSA private at least 2× at 2048 bits and 3× at 3072 and 4096;
/// batched public at least 1.5×. Batched modexp at 1024..4096 bits at
/// least 2× GMP's `mpz_powm`. DH and DSA (the finite-field issue's goals),
/// against OpenSSL 4 when measured, else `openssl speed`: one DH
/// derivation no slower, batched DH derivation and DSA verification at
/// least 2×. Batched goals hold per core, so they apply on one thread and
/// on all.
pub(super) fn target(row: &Row) -> Option<Target> {
    let batch = row.mode != Mode::Latency;
    let ffc = match (row.op, batch) {
        (Operation::DhDerive, false) => Some(1.0),
        (Operation::DhDerive | Operation::DsaVerify, true) => Some(2.0),
        _ => None,
    };
    if matches!(row.op, Operation::DhDerive | Operation::DsaSign | Operation::DsaVerify) {
        let versus = if row.openssl4.is_some() {
            Versus::OpenSsl4
        } else {
            Versus::OpenSsl
        };
        return ffc.map(|min| Target { versus, min });
    }
    if row.op == Operation::RsaPrivate && batch && row.crypto_mb.is_some() {
        return Some(Target {
            versus: Versus::CryptoMb,
            min: 1.1,
        });
    }
    if row.openssl4.is_some() {
        let min = match (row.op, batch) {
            (Operation::RsaPrivate | Operation::RsaPublic, false) => 1.0,
            (Operation::RsaPrivate, true) => 2.0,
            (Operation::RsaPublic, true) => 3.0,
            _ => return None,
        };
        return Some(Target {
            versus: Versus::OpenSsl4,
            min,
        });
    }
    let (versus, min) = match (row.op, row.bits, batch) {
        (Operation::RsaPrivate, 2048, false) => (Versus::OpenSsl, 1.0),
        (Operation::RsaPrivate, 2048, true) => (Versus::OpenSsl, 2.0),
        (Operation::RsaPrivate, 3072 | 4096, true) => (Versus::OpenSsl, 3.0),
        (Operation::RsaPublic, _, true) => (Versus::OpenSsl, 1.5),
        (Operation::Modexp, 1024..=4096, true) => (Versus::Gmp, 2.0),
        _ => return None,
    };
    Some(Target { versus, min })
}

/// Speed of redc's fastest backend over `versus` (above 1: redc is faster).
pub(super) fn ratio(row: &Row, versus: Versus) -> Option<f64> {
    Some(row.best()? / row.anchor(versus)?)
}

/// Whether the row meets its target; `None` without a target or a figure.
fn met(row: &Row) -> Option<bool> {
    let t = target(row)?;
    ratio(row, t.versus).map(|r| r >= t.min)
}

/// The mode as the table shows it.
fn mode_label(row: &Row) -> String {
    match row.mode {
        Mode::Latency => "latency".to_owned(),
        Mode::OneCore => "batch, 1 thread".to_owned(),
        Mode::AllCores => format!("batch, {} threads", row.threads),
    }
}

/// A figure in the row's unit: time per operation for latency rows,
/// operations per second otherwise.
fn figure(mode: Mode, ops_per_s: Option<f64>) -> String {
    match (mode, ops_per_s) {
        (_, None) => "-".to_owned(),
        (Mode::Latency, Some(r)) => {
            let us = 1e6 / r;
            match us {
                x if x < 10.0 => format!("{x:.2} µs"),
                x if x < 1000.0 => format!("{x:.1} µs"),
                x => format!("{:.2} ms", x / 1e3),
            }
        }
        (_, Some(r)) => format!("{r:.0}/s"),
    }
}

/// The CPU table: redc's backends beside the anchors, with the ratios.
fn cpu_text(out: &mut String, report: &Report) {
    let anchors: Vec<Versus> = [
        (Versus::OpenSsl, true),
        (Versus::OpenSsl4, report.openssl4.is_some()),
        (Versus::Gmp, true),
        (Versus::CryptoMb, report.crypto_mb.is_some()),
    ]
    .into_iter()
    .filter_map(|(v, shown)| shown.then_some(v))
    .collect();
    let mut header: Vec<String> = ["operation", "bits", "mode"].map(str::to_owned).to_vec();
    header.extend(report.backends.iter().map(|b| format!("redc {b}")));
    header.extend(anchors.iter().map(|v| v.name().to_owned()));
    header.extend(anchors.iter().map(|v| format!("redc/{}", v.name())));
    header.extend(["target", "met"].map(str::to_owned));
    let mut lines = vec![header];
    for row in &report.rows {
        let mut cells = vec![row.op.name().to_owned(), row.bits.to_string(), mode_label(row)];
        cells.extend(row.redc.iter().map(|&(_, r)| figure(row.mode, Some(r))));
        for &versus in &anchors {
            cells.push(figure(row.mode, row.anchor(versus)));
        }
        for &versus in &anchors {
            cells.push(ratio(row, versus).map_or_else(|| "-".to_owned(), |r| format!("{r:.2}×")));
        }
        cells.push(target(row).map_or_else(String::new, |t| format!("≥ {:.1}× {}", t.min, t.versus.name())));
        cells.push(
            match (target(row), met(row)) {
                (None, _) => "",
                (Some(_), None) => "n/a",
                (Some(_), Some(true)) => "yes",
                (Some(_), Some(false)) => "NO",
            }
            .to_owned(),
        );
        lines.push(cells);
    }
    // Names, modes and targets to the left, figures to the right.
    let cols = lines[0].len();
    let left: Vec<bool> = (0..cols).map(|c| c == 0 || c == 2 || c + 2 >= cols).collect();
    out.push_str(&markdown(&lines, &left));
    out.push_str(
        "\nRatios: speed of redc's fastest backend over the other (above 1: redc is faster); \
         latency rows compare times per operation, batch rows operations per second.\n",
    );
}

/// The text report: a header, the table, the notes.
pub(super) fn text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "redc bench: {}, {} cores, {} threads, {} s per measurement",
        report.cpu, report.cores, report.threads, report.seconds
    );
    let _ = writeln!(
        out,
        "OpenSSL: {}{}; GMP: {}{}\n",
        report.openssl.as_deref().unwrap_or("not run"),
        report
            .openssl4
            .as_deref()
            .map_or_else(String::new, |v| format!("; OpenSSL 4 (linked in): {v}")),
        report.gmp.as_deref().unwrap_or("not loaded"),
        report
            .crypto_mb
            .as_deref()
            .map_or_else(String::new, |v| format!("; crypto_mb: {v}"))
    );
    if !report.rows.is_empty() {
        cpu_text(&mut out, report);
    }
    if let Some((clock, kernels)) = &report.products {
        products_text(&mut out, clock.as_ref(), kernels);
    }
    if let Some((device, rows)) = &report.gpu {
        gpu_text(&mut out, device, rows);
    }
    for note in &report.notes {
        let _ = writeln!(out, "Note: {note}");
    }
    out
}

/// OpenSSL 4's time per product and squaring at `bits`, if measured.
fn openssl4_ns(kernels: &[Kernel], bits: usize) -> Option<[f64; 2]> {
    kernels
        .iter()
        .find(|k| k.bits == bits && k.name == OPENSSL4)
        .map(|k| k.ns)
}

/// Per number, speed of redc's kernel `k` over OpenSSL 4: product, squaring.
fn per_number_vs_openssl4(k: &Kernel, kernels: &[Kernel]) -> Option<[f64; 2]> {
    if k.name == OPENSSL4 {
        return None;
    }
    let o = openssl4_ns(kernels, k.bits)?;
    Some([0, 1].map(|i| o[i] * k.numbers as f64 / k.ns[i]))
}

/// The table of one product and squaring per kernel.
fn products_text(out: &mut String, clock: Option<&Clock>, kernels: &[Kernel]) {
    let _ = match clock {
        Some(c) => writeln!(
            out,
            "\nOne Montgomery product and squaring, one thread; core clock {:.2} GHz{} (chains of dependent adds); \
             the most per cycle: mulx {}, vpmadd52luq {} on 256-bit and {} on 512-bit vectors\n",
            c.hz / 1e9,
            c.hz512.map_or_else(String::new, |h| format!(
                ", {:.2} GHz while 512-bit vectors are busy",
                h / 1e9
            )),
            per_cycle(c.mulx),
            per_cycle(c.madd256),
            per_cycle(c.madd512),
        ),
        None => writeln!(
            out,
            "\nOne Montgomery product and squaring, one thread (no clock on this CPU)\n"
        ),
    };
    let header = [
        "bits",
        "kernel",
        "numbers",
        "product",
        "square",
        "cycles",
        "cycles/number",
        "of port limit",
        "per number vs OpenSSL 4",
    ];
    let mut lines = vec![header.map(str::to_owned).to_vec()];
    let pair = |x: Option<[f64; 2]>, f: &dyn Fn(f64) -> String| {
        x.map_or_else(|| "-".to_owned(), |[p, s]| format!("{} / {}", f(p), f(s)))
    };
    for k in kernels {
        let cycles = clock.map(|c| k.cycles(c));
        lines.push(vec![
            k.bits.to_string(),
            k.name.clone(),
            k.numbers.to_string(),
            format!("{:.0} ns", k.ns[0]),
            format!("{:.0} ns", k.ns[1]),
            pair(cycles, &|c| format!("{c:.0}")),
            pair(cycles.map(|c| c.map(|x| x / k.numbers as f64)), &|c| format!("{c:.0}")),
            pair(clock.and_then(|c| k.of_limit(c)), &|f| format!("{:.0}%", 100.0 * f)),
            pair(per_number_vs_openssl4(k, kernels), &|r| format!("{r:.2}×")),
        ]);
    }
    let left: Vec<bool> = (0..header.len()).map(|c| c == 1).collect();
    out.push_str(&markdown(&lines, &left));
    out.push_str(
        "\nnumbers: numbers multiplied by one call (lanes); cycles and the port limit's share are product / square. \
         of port limit: the kernel's multiply instructions per call (mulx, or vpmadd52luq/huq, counted from its code) \
         over the most the core issues in the cycles it took. Each IFMA figure is a call of 512 products one after \
         another less a call of none, over 512. OpenSSL's instruction counts are not redc's to state: it has no share.\n",
    );
}

/// A per-cycle limit, or `-` where the CPU lacks the instruction.
fn per_cycle(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |x| format!("{x:.2}"))
}

/// The products' figures in JSON.
fn products_json(clock: Option<&Clock>, kernels: &[Kernel]) -> Value {
    let rows: Vec<Value> = kernels
        .iter()
        .map(|k| {
            let cycles = clock.map(|c| k.cycles(c));
            let share = clock.and_then(|c| k.of_limit(c));
            let vs = per_number_vs_openssl4(k, kernels);
            let one = |i: usize| {
                json!({
                    "ns": k.ns[i],
                    "cycles": cycles.map(|c| c[i]),
                    "multiply_instructions": k.limit.map(|(m, _)| m[i]),
                    "of_port_limit": share.map(|f| f[i]),
                    "per_number_vs_openssl4": vs.map(|r| r[i]),
                })
            };
            json!({
                "bits": k.bits,
                "kernel": k.name,
                "numbers": k.numbers,
                "product": one(0),
                "square": one(1),
            })
        })
        .collect();
    json!({
        "clock": clock.map(|c| json!({
            "core_hz": c.hz,
            "core_hz_512bit_busy": c.hz512,
            "mulx_per_cycle": c.mulx,
            "madd256_per_cycle": c.madd256,
            "madd512_per_cycle": c.madd512,
        })),
        "kernels": rows,
    })
}

/// The GPU's table: whole-device rates beside the multiplier ceiling.
fn gpu_text(out: &mut String, device: &str, rows: &[GpuRow]) {
    let _ = writeln!(out, "\nGPU: {device}\n");
    let header = [
        "operation",
        "bits",
        "batch",
        "threads/number",
        "redc cuda",
        "products/op",
        "ceiling",
        "of ceiling",
        "host part",
        "target",
        "met",
    ];
    let mut lines = vec![header.map(str::to_owned).to_vec()];
    let or_dash = |x: Option<String>| x.unwrap_or_else(|| "-".to_owned());
    for row in rows {
        lines.push(vec![
            row.op.name().to_owned(),
            row.bits.to_string(),
            row.batch.to_string(),
            or_dash(row.threads.map(|t| t.to_string())),
            format!("{:.0}/s", row.rate),
            or_dash(row.multiplies.map(|m| m.to_string())),
            or_dash(row.ceiling.map(|c| format!("{c:.0}/s"))),
            or_dash(row.fraction().map(|f| format!("{:.1}%", 100.0 * f))),
            format!("{:.0}%", 100.0 * row.host_share),
            row.op
                .target(row.bits)
                .map_or_else(String::new, |t| format!("≥ {t:.0}/s")),
            match row.met() {
                None => "",
                Some(true) => "yes",
                Some(false) => "NO",
            }
            .to_owned(),
        ]);
    }
    let cols = header.len();
    let left: Vec<bool> = (0..cols).map(|c| c == 0 || c + 2 >= cols).collect();
    out.push_str(&markdown(&lines, &left));
    out.push_str(
        "\nceiling: operations per second if every SM issued only the 32-bit multiplies of the counted \
         products (2 instructions per 32x32->64 product, 64 per SM per clock); products/op are counted from \
         the kernels' schedules (redc_cuda::count), checked against the host build's counter. host part: the \
         share of the wall time spent outside the GPU's batches (packing, blinding, residues, Garner, checks). \
         To compare the schedules, run again with REDC_CUDA_THREADS=1, 4, 8, 16 or 32 (e.g. --sizes \
         1024,1536,2048), or run crates/redc-cuda/examples/sweep.rs.\n",
    );
}

/// The GPU's figures in JSON.
fn gpu_json(device: &str, rows: &[GpuRow]) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "operation": r.op.key(),
                "bits": r.bits,
                "batch": r.batch,
                "ops_per_s": r.rate,
                "threads_per_number": r.threads,
                "products_per_op": r.multiplies,
                "ceiling_ops_per_s": r.ceiling,
                "fraction_of_ceiling": r.fraction(),
                "host_share": r.host_share,
                "target": r.op.target(r.bits).map(|t| json!({ "min_ops_per_s": t, "met": r.met() })),
            })
        })
        .collect();
    json!({ "device": device, "rows": rows })
}

/// A Markdown table padded to line up; column `c` is left-aligned where
/// `left[c]`, right-aligned otherwise.
fn markdown(lines: &[Vec<String>], left: &[bool]) -> String {
    let widths: Vec<usize> = (0..left.len())
        .map(|c| lines.iter().map(|l| l[c].chars().count()).max().unwrap_or(0).max(3))
        .collect();
    let mut rule: Vec<String> = Vec::new();
    for (&w, &l) in widths.iter().zip(left) {
        rule.push(format!("{}{}", "-".repeat(w - 1), if l { '-' } else { ':' }));
    }
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let cells: Vec<String> = line
            .iter()
            .zip(widths.iter().zip(left))
            .map(|(s, (&w, &l))| if l { format!("{s:<w$}") } else { format!("{s:>w$}") })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
        if i == 0 {
            let _ = writeln!(out, "| {} |", rule.join(" | "));
        }
    }
    out
}

/// One engine's figure in JSON: rate, rate per thread, time per operation.
fn figure_json(ops_per_s: Option<f64>, threads: usize) -> Value {
    ops_per_s.map_or(Value::Null, |r| {
        json!({
            "ops_per_s": r,
            "ops_per_s_per_core": r / threads as f64,
            "us_per_op": 1e6 / r,
        })
    })
}

/// Every figure, with the machine, as JSON.
pub(super) fn json(report: &Report) -> Value {
    let rows: Vec<Value> = report
        .rows
        .iter()
        .map(|row| {
            let redc: serde_json::Map<String, Value> = row
                .redc
                .iter()
                .map(|&(b, r)| (b.to_owned(), figure_json(Some(r), row.threads)))
                .collect();
            json!({
                "operation": row.op.key(),
                "bits": row.bits,
                "mode": row.mode.key(),
                "threads": row.threads,
                "redc": redc,
                "openssl": figure_json(row.openssl, row.threads),
                "openssl4": figure_json(row.openssl4, row.threads),
                "gmp": figure_json(row.gmp, row.threads),
                "crypto_mb": figure_json(row.crypto_mb, row.threads),
                "redc_vs_openssl": ratio(row, Versus::OpenSsl),
                "redc_vs_openssl4": ratio(row, Versus::OpenSsl4),
                "redc_vs_gmp": ratio(row, Versus::Gmp),
                "redc_vs_crypto_mb": ratio(row, Versus::CryptoMb),
                "target": target(row).map(|t| json!({
                    "versus": t.versus.key(),
                    "min_ratio": t.min,
                    "met": met(row),
                })),
            })
        })
        .collect();
    json!({
        "machine": {
            "cpu": report.cpu,
            "cores": report.cores,
            "threads": report.threads,
            "backends": report.backends,
            "openssl": report.openssl,
            "openssl4": report.openssl4,
            "gmp": report.gmp,
            "crypto_mb": report.crypto_mb,
            "redc": env!("CARGO_PKG_VERSION"),
        },
        "seconds_per_measurement": report.seconds,
        "rows": rows,
        "gpu": report.gpu.as_ref().map(|(device, rows)| gpu_json(device, rows)),
        "products": report.products.as_ref().map(|(clock, kernels)| products_json(clock.as_ref(), kernels)),
        "notes": report.notes,
    })
}
