//! `redc counts`: word operations per Montgomery product, per schedule —
//! the comparison of Koç, Acar and Kaliski that 000 §2.2 follows.

use crate::args::{CountsArgs, with_word};
use redc::{Modulus, Nat, OpCounts, Product, Word};
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

/// The counts of one product of two `s`-digit residues (all digits of the
/// operands and modulus set, so every carry path is exercised).
pub(crate) fn count<W: Word>(product: Product, s: usize) -> OpCounts {
    let n = Nat::<W>::from_digits(vec![W::MAX; s]);
    let modulus = Modulus::new(&n).expect("2^(sw) - 1 is odd and at least 3");
    let a = modulus.to_mont(&n.shr(1), product);
    let b = modulus.to_mont(&n.shr(3), product);
    let mut mm = modulus.metered(product, OpCounts::default());
    let mut out = a.clone();
    mm.mul_into(&mut out, &a, &b);
    mm.meter().clone()
}

/// Every (size, schedule) of `digits`: the counts and the scratch digits.
fn rows<W: Word>(digits: &[usize]) -> impl Iterator<Item = (usize, Product, OpCounts, usize)> + '_ {
    digits.iter().flat_map(|&s| {
        Product::ALL
            .into_iter()
            .map(move |product| (s, product, count::<W>(product, s), product.scratch_len::<W>(s)))
    })
}

/// The counts as JSON Lines: one object per size and schedule.
fn json_lines<W: Word>(digits: &[usize]) -> String {
    rows::<W>(digits)
        .map(|(s, product, c, scratch)| {
            let line = serde_json::json!({
                "w": W::BITS, "s": s, "schedule": product.name(), "mul": c.muls(), "add": c.adds(),
                "read": c.reads(), "write": c.writes(), "scratch_digits": scratch,
            });
            format!("{line}\n")
        })
        .collect()
}

/// A Markdown table of the counts for each size in `digits`.
pub(crate) fn table<W: Word>(digits: &[usize]) -> String {
    let mut out = format!(
        "word operations per Montgomery product, w = {} (mul = 2s² + s for every schedule)\n\n",
        W::BITS
    );
    out.push_str("| s | schedule | mul | add | read | write | scratch digits |\n");
    out.push_str("|---:|---|---:|---:|---:|---:|---:|\n");
    for (s, product, c, scratch) in rows::<W>(digits) {
        out.push_str(&format!(
            "| {s} | {} | {} | {} | {} | {} | {scratch} |\n",
            product.name(),
            c.muls(),
            c.adds(),
            c.reads(),
            c.writes(),
        ));
    }
    out
}
