//! A model's trace as a Value Change Dump (IEEE 1364 §18), for a waveform
//! viewer beside an RTL simulation's own VCD.
//!
//! One `$var` per register (named in plain characters, as the vectors'
//! files are), a `clk` that rises at every row, and each row's values at
//! its rising edge. A clock trace ([`Circuit::clock_trace`](crate::Circuit::clock_trace))
//! gives one row per clock at the circuit's clock period; an iteration
//! trace one row per iteration, one time unit apart (the VCD says which).

use std::fmt::Write;

use crate::vectors::plain;
use crate::{Big, Step};

/// What one row of a trace stands for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rows {
    /// One clock: rows are `period_ps` picoseconds apart.
    Clock {
        /// The clock period in picoseconds (at least 2).
        period_ps: u64,
    },
    /// One iteration of the main loop: rows are one time unit apart.
    Iteration,
}

/// The VCD of `steps` (every step with the same registers, as every trace
/// has) under module `scope`, with `comment` in its header.
pub fn render(scope: &str, comment: &str, steps: &[Step], rows: Rows) -> String {
    let (timescale, period, what) = match rows {
        Rows::Clock { period_ps } => ("1ps", period_ps.max(2), "one row per clock"),
        Rows::Iteration => (
            "1ns",
            2,
            "one row per iteration, two time units apart (not clock cycles)",
        ),
    };
    let mut out = String::new();
    let _ = writeln!(out, "$version redc {} $end", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(out, "$comment {comment}; {what} $end");
    let _ = writeln!(out, "$timescale {timescale} $end");
    let _ = writeln!(out, "$scope module {} $end", plain(scope));
    let regs: Vec<(&str, usize)> = steps
        .first()
        .map(|s| s.regs.iter().map(|r| (r.name, r.bits)).collect())
        .unwrap_or_default();
    let _ = writeln!(out, "$var wire 1 ! clk $end");
    for (k, (name, bits)) in regs.iter().enumerate() {
        let _ = writeln!(out, "$var wire {bits} {} {} $end", id(k), plain(name));
    }
    out += "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\n";
    for (k, (_, bits)) in regs.iter().enumerate() {
        out += &value(*bits, "0", &id(k));
    }
    out += "$end\n";
    let mut last: Vec<String> = vec![String::new(); regs.len()];
    for (row, step) in steps.iter().enumerate() {
        let t = (row as u64 + 1) * period;
        let _ = writeln!(out, "#{t}\n1!");
        for (k, r) in step.regs.iter().enumerate() {
            let bin = binary(&r.value);
            if bin != last[k] {
                out += &value(regs[k].1, &bin, &id(k));
                last[k] = bin;
            }
        }
        let _ = writeln!(out, "#{}\n0!", t + period / 2);
    }
    out
}

/// `v` in binary without leading zeros (`0` for zero).
fn binary(v: &Big) -> String {
    let bits: String = v
        .to_hex()
        .chars()
        .map(|c| format!("{:04b}", c.to_digit(16).unwrap_or(0)))
        .collect();
    let trimmed = bits.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".to_owned()
    } else {
        trimmed.to_owned()
    }
}

/// A value change: `0x`/`1x` for one bit, `b… x` for a vector.
fn value(bits: usize, bin: &str, id: &str) -> String {
    if bits == 1 {
        format!("{bin}{id}\n")
    } else {
        format!("b{bin} {id}\n")
    }
}

/// The identifier of register `k`: printable characters from `"` on (`!` is clk).
fn id(k: usize) -> String {
    let mut k = k;
    let mut s = String::new();
    loop {
        s.push(char::from(b'"' + (k % 92) as u8));
        k /= 92;
        if k == 0 {
            return s;
        }
        k -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reg;

    fn step(i: usize, a: u64, b: u64) -> Step {
        Step {
            iteration: i,
            regs: vec![
                Reg {
                    name: "q",
                    bits: 4,
                    value: Big::from_u64(a),
                },
                Reg {
                    name: "{c+1}",
                    bits: 1,
                    value: Big::from_u64(b),
                },
            ],
        }
    }

    #[test]
    fn rows_become_value_changes_at_rising_edges() {
        let vcd = render(
            "fdfm",
            "test",
            &[step(1, 5, 1), step(2, 5, 0)],
            Rows::Clock { period_ps: 2970 },
        );
        assert!(vcd.contains("$timescale 1ps $end"));
        assert!(vcd.contains("$var wire 4 \" q $end"));
        assert!(vcd.contains("$var wire 1 # c1 $end"), "{vcd}");
        assert!(vcd.contains("#2970\n1!\nb101 \"\n1#\n#4455\n0!\n"), "{vcd}");
        // Row 2: q unchanged (no change written), the bit falls.
        assert!(vcd.contains("#5940\n1!\n0#\n#7425\n0!\n"), "{vcd}");
    }

    #[test]
    fn identifiers_are_distinct_and_printable() {
        let ids: std::collections::BTreeSet<String> = (0..10_000).map(id).collect();
        assert_eq!(ids.len(), 10_000);
        assert!(ids.iter().all(|s| s.bytes().all(|b| (b'"'..=b'~').contains(&b))));
    }
}
