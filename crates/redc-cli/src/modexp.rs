//! `redc modexp`: one exponentiation (optionally traced) or a batch.

use crate::args::{ModexpArgs, with_word};
use crate::backend;
use crate::batch;
use crate::failure::bad_input;
use crate::number::{Integer, format};
use crate::output::Sink;
use redc::exp::Trace;
use redc::{PowOptions, SignedPow, SignedPowError, Word, modpow};
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
/// result line. Signs as Python's `pow(base, exp, mod)` ([`SignedPow`]);
/// the trace shows the exponentiation modulo `|mod|`.
fn single<W: Word>(
    base: &Integer,
    exp: &Integer,
    modulus: &Integer,
    opts: PowOptions,
    hex: bool,
    trace: bool,
) -> anyhow::Result<String> {
    let signed = |x: &Integer| (x.negative, x.magnitude.to_nat::<W>());
    let p = SignedPow::new(signed(base), signed(exp), signed(modulus)).map_err(|err| match err {
        SignedPowError::ZeroModulus => bad_input!("MOD: modulus is zero"),
        SignedPowError::NotInvertible => bad_input!("BASE: not invertible modulo MOD, so EXP cannot be negative"),
    })?;
    let mut rows = Trace::new();
    let result = modpow(&p.base, &p.exp, &p.modulus, opts, trace.then_some(&mut rows))
        .map_err(|err| bad_input!("MOD: {err}"))?;
    let mut out = String::new();
    if trace {
        out.push_str(&rows.table(&p.modulus, opts.product, opts.schedule));
    }
    let (negative, r) = p.signed(result);
    if negative {
        out.push('-');
    }
    out.push_str(&format(&r, hex));
    out.push('\n');
    Ok(out)
}
