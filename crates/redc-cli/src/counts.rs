//! `redc counts`: word operations per Montgomery product, per schedule —
//! the comparison of Koç, Acar and Kaliski that 000 §2.2 follows.

use crate::args::{CountsArgs, with_word};
use redc::Word;
use redc::mont::counts::{self, table};
use std::io::Write;
use std::process::ExitCode;

/// Run `redc counts`.
pub(crate) fn run(a: &CountsArgs) -> anyhow::Result<ExitCode> {
    let digits: Vec<usize> = a.digits.iter().map(|&d| d as usize).collect();
    let text = if a.json {
        with_word!(a.word, json_lines(&digits))
    } else {
        with_word!(a.word, table(&digits))
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The counts as JSON Lines: one object per size and schedule.
fn json_lines<W: Word>(digits: &[usize]) -> String {
    counts::rows::<W>(digits)
        .into_iter()
        .map(|r| {
            let c = &r.counts;
            let line = serde_json::json!({
                "w": W::BITS, "s": r.s, "schedule": r.product.name(), "mul": c.muls(), "add": c.adds(),
                "read": c.reads(), "write": c.writes(), "scratch_digits": r.scratch,
            });
            format!("{line}\n")
        })
        .collect()
}
