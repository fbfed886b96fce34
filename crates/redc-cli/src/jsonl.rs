//! The JSON Lines driver shared by the batch commands: one JSON object per
//! input line, one JSON line out per input line, in order.
//!
//! A bad line gets `{"line": N, "error": "line N: ...", "field": ...}` and
//! the other lines are still answered; the exit status is then 2. An `"id"`
//! field of an input line (any JSON value) is echoed in its answer, error
//! or not, so that answers can be joined to requests after sharding. Lines are
//! read with a length cap (a longer line is an error line, not an
//! out-of-memory), a UTF-8 byte-order mark on the first line is ignored, a
//! key given twice in one object is an error, and each answer is flushed as
//! soon as it is written, so the command can be driven line by line. The
//! commands that run on the batch engine answer up to [`CHUNK`] lines at a
//! time ([`run_chunked`]); a chunk never waits for input that is not there.

use crate::failure::{BAD_INPUT, bad_input};
use crate::output::Sink;
use anyhow::Context;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// A batch command's run: its engine (`--backend`, `REDC_BACKEND`), then
/// [`run_chunked`] over its `--in` and `-o`, [`CHUNK`] lines a chunk, each
/// chunk answered by `answer` on the engine (one engine batch).
pub(crate) fn run_batch<T>(
    io: &crate::args::BatchIo,
    prepare: impl FnMut(&Map<String, Value>) -> Result<T, LineError>,
    mut answer: impl FnMut(&redc::Engine, Vec<T>) -> Vec<Result<Value, LineError>>,
) -> anyhow::Result<ExitCode> {
    let engine = crate::backend::engine(io.backend)?;
    run_chunked(&io.input, "--in", io.output.as_deref(), CHUNK, prepare, |items| {
        answer(&engine, items)
    })
}

/// A hexadecimal field of a batch line (an optional `0x`).
pub(crate) fn field_hex(obj: &Map<String, Value>, name: &'static str) -> Result<Vec<u8>, LineError> {
    match obj.get(name) {
        Some(Value::String(s)) => crate::keyfile::hex_bytes(s).map_err(|m| LineError::field(name, m)),
        Some(_) => Err(LineError::field(name, "expected a hexadecimal string")),
        None => Err(LineError {
            field: Some(name),
            message: format!("missing field \"{name}\""),
        }),
    }
}

/// The longest input line, in bytes.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// Why one line could not be answered: the field (if one) and the message.
pub(crate) struct LineError {
    pub(crate) field: Option<&'static str>,
    pub(crate) message: String,
}

impl LineError {
    /// An error about the line as a whole.
    pub(crate) fn line(message: impl Into<String>) -> Self {
        Self {
            field: None,
            message: message.into(),
        }
    }

    /// An error about one field; the message is prefixed with its name.
    pub(crate) fn field(name: &'static str, message: impl core::fmt::Display) -> Self {
        Self {
            field: Some(name),
            message: format!("field \"{name}\": {message}"),
        }
    }
}

/// A JSON object whose keys are unique.
struct UniqueObject(Map<String, Value>);

impl<'de> Deserialize<'de> for UniqueObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = UniqueObject;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<UniqueObject, A::Error> {
                let mut map = Map::new();
                while let Some((k, v)) = access.next_entry::<String, Value>()? {
                    if map.contains_key(&k) {
                        return Err(serde::de::Error::custom(format!("field \"{k}\" given twice")));
                    }
                    map.insert(k, v);
                }
                Ok(UniqueObject(map))
            }
        }
        d.deserialize_map(V)
    }
}

/// Parse one line into an object.
fn parse_line(raw: &[u8], first: bool) -> Result<Map<String, Value>, LineError> {
    let raw = if first {
        raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw)
    } else {
        raw
    };
    let text = std::str::from_utf8(raw).map_err(|_| LineError::line("not UTF-8 text"))?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(LineError::line("empty line (expected a JSON object)"));
    }
    match serde_json::from_str::<UniqueObject>(text) {
        Ok(obj) => Ok(obj.0),
        Err(e) if e.is_data() && text.trim_start().starts_with('{') => Err(LineError::line(e.to_string())),
        Err(e) if e.is_data() => Err(LineError::line("not a JSON object")),
        Err(e) => Err(LineError::line(format!("not JSON: {e}"))),
    }
}

/// Read one line of at most [`MAX_LINE`] bytes (without the newline);
/// `None` at the end; `Some(Err(len))` for a longer line, which is skipped.
fn next_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Result<(), usize>>> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        len += part.len();
        if len <= MAX_LINE {
            buf.extend_from_slice(part);
        }
        let consumed = done.unwrap_or(chunk.len());
        r.consume(consumed);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    Ok(Some(if len > MAX_LINE { Err(len) } else { Ok(()) }))
}

/// Answer every line of `input` (`-` for stdin) with `answer`, writing to
/// `output` (stdout if `None` or `-`). `what` names the input option.
pub(crate) fn run(
    input: &Path,
    what: &str,
    output: Option<&Path>,
    answer: impl FnMut(&Map<String, Value>) -> Result<Value, LineError>,
) -> anyhow::Result<ExitCode> {
    run_chunked(input, what, output, 1, answer, |answers| {
        answers.into_iter().map(Ok).collect()
    })
}

/// Lines answered together by the batch commands that run on the engine.
pub(crate) const CHUNK: usize = 256;

/// The input buffer: room for a few hundred lines of RSA-4096 numbers.
const READ_BUFFER: usize = 1 << 18;

/// Like [`run`], for work done many lines at a time: `prepare` turns each
/// line into an item (or a line error), and `answer` answers the items of
/// up to `chunk` consecutive lines at once, one answer per item, in order.
/// Lines keep their order and their own errors in the output.
///
/// A chunk also ends when no further input is buffered (before a read that
/// could block), so a driver that writes one line and waits for its answer
/// still gets it.
pub(crate) fn run_chunked<T>(
    input: &Path,
    what: &str,
    output: Option<&Path>,
    chunk: usize,
    mut prepare: impl FnMut(&Map<String, Value>) -> Result<T, LineError>,
    mut answer: impl FnMut(Vec<T>) -> Vec<Result<Value, LineError>>,
) -> anyhow::Result<ExitCode> {
    let reader: Box<dyn Read> = if input.as_os_str() == "-" {
        Box::new(crate::stdin::take(what)?)
    } else {
        Box::new(std::fs::File::open(input).map_err(|e| bad_input!("{what} {}: {e}", input.display()))?)
    };
    let mut reader = BufReader::with_capacity(READ_BUFFER, reader);
    let mut sink = Sink::open(output)?;
    let mut progress = Progress::new();
    let (mut lines, mut bad) = (0usize, 0usize);
    let mut buf = Vec::new();
    let mut pending: Vec<Line<T>> = Vec::with_capacity(chunk);
    while let Some(read) =
        next_line(&mut reader, &mut buf).map_err(|e| bad_input!("{what} {}: {e}", input.display()))?
    {
        lines += 1;
        pending.push(match read {
            Err(len) => Line {
                id: None,
                item: Err(LineError::line(format!(
                    "line is {len} bytes long, more than the limit of {MAX_LINE}"
                ))),
            },
            Ok(()) => match parse_line(&buf, lines == 1) {
                Ok(obj) => Line {
                    id: obj.get("id").cloned(),
                    item: prepare(&obj),
                },
                Err(e) => Line { id: None, item: Err(e) },
            },
        });
        if pending.len() >= chunk || reader.buffer().is_empty() {
            let first = lines + 1 - pending.len();
            bad += write_chunk(&mut sink, first, std::mem::take(&mut pending), &mut answer)?;
            progress.tick(lines);
        }
    }
    let first = lines + 1 - pending.len();
    bad += write_chunk(&mut sink, first, pending, &mut answer)?;
    progress.done(lines);
    sink.finish()?;
    if bad > 0 {
        let _ = writeln!(
            std::io::stderr(),
            "redc: {bad} of {lines} lines had errors (see their \"error\" fields)"
        );
        return Ok(ExitCode::from(BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}

/// One input line: its `"id"` (echoed in the answer) and its item or error.
struct Line<T> {
    id: Option<Value>,
    item: Result<T, LineError>,
}

/// Answer the prepared lines `first, first + 1, ...` (their items in one
/// call of `answer`), write one output line each, flush; the number of
/// error lines.
fn write_chunk<T>(
    sink: &mut Sink,
    first: usize,
    lines: Vec<Line<T>>,
    answer: &mut impl FnMut(Vec<T>) -> Vec<Result<Value, LineError>>,
) -> anyhow::Result<usize> {
    let mut items = Vec::new();
    let (errors, ids): (Vec<Option<LineError>>, Vec<Option<Value>>) = lines
        .into_iter()
        .map(|line| match line.item {
            Ok(item) => {
                items.push(item);
                (None, line.id)
            }
            Err(e) => (Some(e), line.id),
        })
        .unzip();
    let mut answers = if items.is_empty() { Vec::new() } else { answer(items) }.into_iter();
    let mut bad = 0;
    let w = sink.writer();
    for (i, (error, id)) in errors.into_iter().zip(ids).enumerate() {
        let result = match error {
            Some(e) => Err(e),
            None => answers
                .next()
                .unwrap_or_else(|| Err(LineError::line("internal error: no answer for this line"))),
        };
        let mut out = result.unwrap_or_else(|e| {
            bad += 1;
            let line = first + i;
            let mut obj = json!({ "line": line, "error": format!("line {line}: {}", e.message) });
            if let Some(field) = e.field {
                obj["field"] = json!(field);
            }
            obj
        });
        if let (Some(id), Some(obj)) = (id, out.as_object_mut()) {
            obj.insert("id".to_owned(), id);
        }
        writeln!(w, "{out}").context("cannot write output")?;
    }
    w.flush().context("cannot write output")?;
    Ok(bad)
}

/// A line count on stderr, refreshed at most every 200 ms, only when stderr
/// is a terminal and the work takes long enough to show.
struct Progress {
    on: bool,
    shown: bool,
    last: Instant,
}

impl Progress {
    fn new() -> Self {
        Self {
            on: std::io::stderr().is_terminal(),
            shown: false,
            last: Instant::now(),
        }
    }

    fn tick(&mut self, lines: usize) {
        if self.on && self.last.elapsed() > Duration::from_millis(200) {
            self.last = Instant::now();
            self.shown = true;
            let _ = write!(std::io::stderr(), "\rredc: {lines} lines answered");
        }
    }

    fn done(&self, lines: usize) {
        if self.shown {
            let _ = writeln!(std::io::stderr(), "\rredc: {lines} lines answered");
        }
    }
}
