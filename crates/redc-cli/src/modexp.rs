//! `redc modexp`: one exponentiation (optionally traced) or a batch.

use crate::args::{ModexpArgs, with_word};
use crate::backend;
use crate::batch;
use crate::failure::bad_input;
use crate::number::{Integer, format};
use crate::output::Sink;
use redc::exp::{Trace, TraceRow};
use redc::{Modulus, Nat, PowOptions, Word, modpow};
use std::process::ExitCode;

/// Run `redc modexp`.
pub(crate) fn run(a: &ModexpArgs) -> anyhow::Result<ExitCode> {
    let (product, schedule, word) = a.reference();
    let opts = PowOptions {
        product: product.into(),
        schedule: schedule.into(),
    };
    if let Some(path) = &a.batch {
        // The batch engine unless the reference modpow is asked for.
        if a.reference_asked() {
            return batch::run(path, a.output.as_deref(), opts, word, a.hex);
        }
        let engine = backend::engine(a.backend)?;
        return batch::run_on_engine(path, a.output.as_deref(), &engine, a.hex);
    }
    if a.backend.is_some() {
        return Err(bad_input!(
            "--backend runs a --batch on the batch engine; it needs --batch"
        ));
    }
    let (Some(base), Some(exp), Some(modulus)) = (&a.base, &a.exp, &a.modulus) else {
        return Err(bad_input!("BASE, EXP and MOD are required without --batch"));
    };
    let mut text = with_word!(word, single(base, exp, modulus, opts, a.hex, a.trace))?;
    if a.json {
        text = format!("{}\n", serde_json::json!({ "result": text.trim_end() }));
    }
    let mut sink = Sink::open(a.output.as_deref())?;
    sink.writer().write_all(text.as_bytes())?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The output of one exponentiation: the trace table if asked, then the
/// result line. Signs as Python's `pow(base, exp, mod)`: a negative base is
/// reduced into `[0, |mod|)`, a negative exponent raises the base's inverse
/// modulo `|mod|` (an error without one), and a negative modulus gives the
/// result in `(mod, 0]`; the trace shows the exponentiation modulo `|mod|`.
fn single<W: Word>(
    base: &Integer,
    exp: &Integer,
    modulus: &Integer,
    opts: PowOptions,
    hex: bool,
    trace: bool,
) -> anyhow::Result<String> {
    let n = modulus.magnitude.to_nat::<W>();
    if n.is_zero() {
        return Err(bad_input!("MOD: modulus is zero"));
    }
    let mut b = base.magnitude.to_nat::<W>();
    if base.negative {
        let r = b.rem(&n).unwrap_or_else(Nat::zero);
        b = n.checked_sub(&r).filter(|_| !r.is_zero()).unwrap_or(r);
    }
    if exp.negative && !n.is_one() {
        b = b
            .inv_mod(&n)
            .ok_or_else(|| bad_input!("BASE: not invertible modulo MOD, so EXP cannot be negative"))?;
    }
    let e = exp.magnitude.to_nat::<W>();
    let mut rows = Trace::new();
    let result = modpow(&b, &e, &n, opts, trace.then_some(&mut rows)).map_err(|err| bad_input!("MOD: {err}"))?;
    let mut out = String::new();
    if trace {
        out.push_str(&trace_table(&n, &rows, opts));
    }
    if modulus.negative && !result.is_zero() {
        out.push('-');
        out.push_str(&format(&n.checked_sub(&result).unwrap_or_default(), hex));
    } else {
        out.push_str(&format(&result, hex));
    }
    out.push('\n');
    Ok(out)
}

/// The trace as a text table, with the Montgomery constants of the odd part
/// of the modulus as a header.
pub(crate) fn trace_table<W: Word>(n: &Nat<W>, trace: &Trace<W>, opts: PowOptions) -> String {
    let t = n.trailing_zeros().unwrap_or(0);
    let m = n.shr(t);
    let mut out = String::new();
    let Ok(modulus) = Modulus::new(&m) else {
        out.push_str(&format!(
            "# no Montgomery exponentiation: the odd part of the modulus is {m}\n"
        ));
        return out;
    };
    out.push_str(&format!(
        "# product {}, schedule {}, w = {}, s = {}, m = 0x{}{}\n",
        opts.product.name(),
        opts.schedule.name(),
        W::BITS,
        modulus.len(),
        m.to_hex(),
        if t > 0 {
            format!(" (odd part of MOD = 2^{t}·m)")
        } else {
            String::new()
        },
    ));
    out.push_str(&format!(
        "# n0' = 0x{:x}, R mod m = 0x{}, R^2 mod m = 0x{}\n",
        modulus.n0_inv().to_u64(),
        modulus.r_mod_n().to_hex(),
        modulus.r2_mod_n().to_hex()
    ));
    out.push_str(&format_rows(&trace.rows));
    out
}

/// One line per register per row: step, bit, digit, operation, register,
/// Montgomery form, plain value (both hexadecimal).
fn format_rows<W: Word>(rows: &[TraceRow<W>]) -> String {
    let mut lines = vec![[
        "step".to_owned(),
        "bit".to_owned(),
        "e".to_owned(),
        "op".to_owned(),
        "reg".to_owned(),
        "montgomery".to_owned(),
        "value".to_owned(),
    ]];
    for (step, row) in rows.iter().enumerate() {
        for reg in &row.regs {
            lines.push([
                step.to_string(),
                row.bit.map_or_else(|| "-".to_owned(), |b| b.to_string()),
                if row.bit.is_some() {
                    row.digit.to_string()
                } else {
                    "-".to_owned()
                },
                row.op.to_owned(),
                reg.name.to_owned(),
                format!("0x{}", reg.mont.to_hex()),
                format!("0x{}", reg.value.to_hex()),
            ]);
        }
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| lines.iter().map(|l| l[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &wd))| if c == 6 { cell.clone() } else { format!("{cell:<wd$}") })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
