//! `redc modexp --batch`: JSON Lines `{"base", "exp", "mod"}` in,
//! `{"result": ...}` out (see [`crate::jsonl`]): line by line on the
//! reference `modpow`, or [`jsonl::CHUNK`] lines at a time on the batch
//! engine (`--backend`, `REDC_BACKEND`).

use crate::args::{WordArg, with_word};
use crate::jsonl::{self, LineError};
use crate::number::{Number, format};
use redc::{Engine, EngineError, Job, PowOptions, modpow};
use serde_json::{Map, Value, json};
use std::path::Path;
use std::process::ExitCode;

/// Answer every line of `input` (a file, or stdin for `-`) in order.
pub(crate) fn run(
    input: &Path,
    output: Option<&Path>,
    opts: PowOptions,
    word: WordArg,
    hex: bool,
) -> anyhow::Result<ExitCode> {
    jsonl::run(input, "--batch", output, |obj| {
        with_word!(word, answer(obj, opts, hex)).map(|r| json!({ "result": r }))
    })
}

/// Answer every line of `input` in order on `engine`, a chunk of lines per
/// [`Engine::modexp_batch`] call.
pub(crate) fn run_on_engine(
    input: &Path,
    output: Option<&Path>,
    engine: &Engine,
    hex: bool,
) -> anyhow::Result<ExitCode> {
    jsonl::run_chunked(
        input,
        "--batch",
        output,
        jsonl::CHUNK,
        |obj| {
            let (b, e, n) = (number(obj, "base")?, number(obj, "exp")?, number(obj, "mod")?);
            Ok(Job {
                base: b.to_nat(),
                exp: e.to_nat(),
                modulus: n.to_nat(),
            })
        },
        |jobs| {
            engine
                .modexp_batch(&jobs)
                .into_iter()
                .map(|r| match r {
                    Ok(x) => Ok(json!({ "result": format(&x, hex) })),
                    Err(e @ EngineError::ZeroModulus) => Err(LineError::field("mod", e)),
                    Err(e) => Err(LineError::line(e.to_string())),
                })
                .collect()
        },
    )
}

/// One number field: a JSON integer or a string (decimal or 0x-hex).
fn number(obj: &Map<String, Value>, name: &'static str) -> Result<Number, LineError> {
    let v = obj.get(name).ok_or_else(|| LineError {
        field: Some(name),
        message: format!("missing field \"{name}\""),
    })?;
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => {
            return Err(LineError::field(
                name,
                format!("expected a number or a string, found {}", kind(other)),
            ));
        }
    };
    text.parse::<Number>().map_err(|e| LineError::field(name, e))
}

/// Answer one object.
fn answer<W: redc::Word>(obj: &Map<String, Value>, opts: PowOptions, hex: bool) -> Result<String, LineError> {
    let (b, e, n) = (number(obj, "base")?, number(obj, "exp")?, number(obj, "mod")?);
    let result =
        modpow::<W>(&b.to_nat(), &e.to_nat(), &n.to_nat(), opts, None).map_err(|err| LineError::field("mod", err))?;
    Ok(format(&result, hex))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
