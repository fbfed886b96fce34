//! `redc modexp --batch`: JSON Lines in, one JSON line out per input line.

use crate::args::{WordArg, with_word};
use crate::failure::bad_input;
use crate::number::{Number, format};
use crate::output::Sink;
use anyhow::Context;
use redc::{PowOptions, Word, modpow};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// One bad input line: which field (if one) and why.
struct LineError {
    field: Option<&'static str>,
    message: String,
}

impl LineError {
    fn new(field: Option<&'static str>, message: impl Into<String>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

/// Answer every line of `input` (a file, or stdin for `-`) in order.
/// Exit status 0 when every line was answered, 2 when any line was bad
/// (after all lines are answered).
pub(crate) fn run(
    input: &Path,
    output: Option<&Path>,
    opts: PowOptions,
    word: WordArg,
    hex: bool,
) -> anyhow::Result<ExitCode> {
    let reader: Box<dyn Read> = if input.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(input).map_err(|e| bad_input!("--batch {}: {}", input.display(), e))?)
    };
    let mut sink = Sink::open(output)?;
    let mut progress = Progress::new();
    let (mut lines, mut bad) = (0usize, 0usize);
    for raw in BufReader::new(reader).split(b'\n') {
        let raw = raw.with_context(|| format!("cannot read {}", input.display()))?;
        lines += 1;
        let answer = match with_word!(word, answer_line(&raw, opts, hex)) {
            Ok(result) => json!({ "result": result }),
            Err(e) => {
                bad += 1;
                let mut obj = json!({ "line": lines, "error": format!("line {lines}: {}", e.message) });
                if let Some(field) = e.field {
                    obj["field"] = json!(field);
                }
                obj
            }
        };
        writeln!(sink.writer(), "{answer}").context("cannot write output")?;
        progress.tick(lines);
    }
    progress.done(lines);
    sink.finish()?;
    if bad > 0 {
        eprintln_one(&format!(
            "redc: {bad} of {lines} lines had errors (see their \"error\" fields)"
        ));
        return Ok(ExitCode::from(crate::failure::BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}

fn eprintln_one(s: &str) {
    let _ = writeln!(std::io::stderr(), "{s}");
}

/// Parse and answer one line.
fn answer_line<W: Word>(raw: &[u8], opts: PowOptions, hex: bool) -> Result<String, LineError> {
    let text = std::str::from_utf8(raw).map_err(|_| LineError::new(None, "not UTF-8 text"))?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(LineError::new(None, "empty line (expected a JSON object)"));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| LineError::new(None, format!("not JSON: {e}")))?;
    let Value::Object(obj) = value else {
        return Err(LineError::new(None, "not a JSON object"));
    };
    let field = |name: &'static str| -> Result<Number, LineError> {
        let v = obj
            .get(name)
            .ok_or_else(|| LineError::new(Some(name), format!("missing field \"{name}\"")))?;
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => {
                return Err(LineError::new(
                    Some(name),
                    format!("field \"{name}\": expected a number or a string, found {}", kind(other)),
                ));
            }
        };
        text.parse::<Number>()
            .map_err(|e| LineError::new(Some(name), format!("field \"{name}\": {e}")))
    };
    let (b, e, n) = (field("base")?, field("exp")?, field("mod")?);
    let result = modpow::<W>(&b.to_nat(), &e.to_nat(), &n.to_nat(), opts, None)
        .map_err(|err| LineError::new(Some("mod"), format!("field \"mod\": {err}")))?;
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

/// A line count on stderr, refreshed at most every 200 ms, only when stderr
/// is a terminal.
struct Progress {
    on: bool,
    last: Instant,
}

impl Progress {
    fn new() -> Self {
        Self {
            on: std::io::stderr().is_terminal(),
            last: Instant::now(),
        }
    }

    fn tick(&mut self, lines: usize) {
        if self.on && self.last.elapsed() > Duration::from_millis(200) {
            self.last = Instant::now();
            let _ = write!(std::io::stderr(), "\rredc: {lines} lines answered");
        }
    }

    fn done(&self, lines: usize) {
        if self.on {
            let _ = writeln!(std::io::stderr(), "\rredc: {lines} lines answered");
        }
    }
}
