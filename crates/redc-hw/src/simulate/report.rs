//! [`SimReport`]: what one run of [`super::simulate`] found, rendered as
//! the text of `redc sim` (`Display`) or as JSON ([`SimReport::json`]).

use crate::{Arch, Big};
use serde_json::{Value, json};
use std::fmt;

/// One checked product of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductRun {
    /// Its clock cycles.
    pub cycles: u64,
    /// The multipliers' utilization, where the model counts it.
    pub utilization: Option<f64>,
    /// Its trace, when one was asked for.
    pub vcd: Option<VcdTrace>,
}

/// A product's trace as VCD.
#[derive(Debug, Clone, PartialEq)]
pub struct VcdTrace {
    /// The file name the report gives it (the caller writes `text` there).
    pub file: String,
    /// Rows of the trace.
    pub rows: usize,
    /// What a row stands for: `clock` or `iteration`.
    pub per: &'static str,
    /// The VCD text.
    pub text: String,
}

/// What the run computed after the product.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// One exponentiation, checked against redc's `modpow`.
    Exponentiation {
        /// The exponent.
        exponent: Big,
        /// How it was chosen (`worst: 1024 bits, all ones`, ...).
        what: String,
        /// By the Montgomery powering ladder (004 §6).
        ladder: bool,
        /// Products it took.
        products: u64,
        /// Its clock cycles.
        cycles: u64,
    },
    /// A CRT decryption, checked against redc's `modpow`.
    Crt {
        /// The halves in parallel.
        parallel: bool,
        /// Its clock cycles.
        cycles: u64,
        /// The cycles of each phase of the paper's equation.
        phases: Vec<(&'static str, u64)>,
        /// 001 Eq. 10's worst case (FDFM): both half exponents' one bits
        /// and its cycles, which set the throughput.
        worst: Option<(usize, u64)>,
    },
}

/// The throughput of a processor of several circuits.
#[derive(Debug, Clone, PartialEq)]
pub struct Throughput {
    /// Circuits.
    pub cores: u32,
    /// Cycles for one operation on each.
    pub cycles: u64,
    /// Kilobits of modulus per second, all circuits together.
    pub kbit_per_s: f64,
    /// Whether `cycles` includes loading the operands.
    pub loading: bool,
}

/// The circuit a report's product ran on.
#[derive(Debug, Clone, PartialEq)]
pub struct CircuitInfo {
    /// Its modulus (a prime of the key for CRT).
    pub modulus: Big,
    /// The datapath's digit width.
    pub digit_bits: u32,
    /// The size parameter (digits, units, ...).
    pub size_parameter: usize,
    /// `log2 R`.
    pub r_log2: usize,
    /// The operand bound, as `n`, `2n` or `2^k`.
    pub bound: String,
    /// Its own clock in its paper, MHz.
    pub clock_mhz: f64,
}

/// What one run found.
#[derive(Debug, Clone, PartialEq)]
pub struct SimReport {
    /// The architecture run.
    pub arch: &'static Arch,
    /// The modulus's (or key's) size in bits.
    pub bits: usize,
    /// The seed.
    pub seed: u64,
    /// What was run on (`random 1024-bit modulus`, the CRT key).
    pub what: String,
    /// The circuit the product ran on.
    pub circuit: CircuitInfo,
    /// The clock the times are at.
    pub mhz: f64,
    /// Whether the clock was given rather than the paper's.
    pub mhz_given: bool,
    /// The checked product.
    pub product: ProductRun,
    /// The exponentiation or CRT decryption.
    pub body: Body,
    /// The processor's throughput.
    pub throughput: Throughput,
}

/// Thousands separated by commas.
fn grouped(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `cycles` at `mhz` as a readable duration.
fn duration(cycles: u64, mhz: f64) -> String {
    let us = cycles as f64 / mhz;
    if us >= 1e6 {
        format!("{:.3} s", us / 1e6)
    } else if us >= 1e3 {
        format!("{:.3} ms", us / 1e3)
    } else {
        format!("{us:.3} µs")
    }
}

impl fmt::Display for SimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mhz = self.mhz;
        let clock_note = if self.mhz_given || mhz == self.circuit.clock_mhz {
            String::new()
        } else {
            format!(
                " (the whole processor's; the circuit alone: {} MHz)",
                (self.circuit.clock_mhz * 1e4).round() / 1e4
            )
        };
        writeln!(f, "redc sim {}: {} (seed {})", self.arch.name(), self.what, self.seed)?;
        writeln!(f, "  paper           {}", self.arch.paper().citation())?;
        writeln!(
            f,
            "  datapath        {}-bit digits, size parameter {}, R = 2^{}, inputs below {}",
            self.circuit.digit_bits, self.circuit.size_parameter, self.circuit.r_log2, self.circuit.bound
        )?;
        writeln!(f, "  clock           {} MHz{clock_note}", (mhz * 1e4).round() / 1e4)?;
        let p = &self.product;
        write!(
            f,
            "  product         ok: a·b·2^-{} mod n equals redc's reference\n                  {} cycles, {}",
            self.circuit.r_log2,
            grouped(p.cycles),
            duration(p.cycles, mhz)
        )?;
        if let Some(u) = p.utilization {
            write!(f, "; multiplier utilization {:.1}%", 100.0 * u)?;
        }
        writeln!(f)?;
        if let Some(v) = &p.vcd {
            writeln!(f, "  vcd             {}: {} rows, one per {}", v.file, v.rows, v.per)?;
        }
        match &self.body {
            Body::Exponentiation {
                what,
                ladder,
                products,
                cycles,
                ..
            } => {
                let how = if *ladder {
                    " (Montgomery powering ladder, 004 §6)"
                } else {
                    ""
                };
                write!(
                    f,
                    "  exponent        {what}\n  exponentiation  ok{how}: equals redc's modpow\n                  {} products, {} cycles, {}\n",
                    grouped(*products),
                    grouped(*cycles),
                    duration(*cycles, mhz)
                )?;
            }
            Body::Crt {
                parallel,
                cycles,
                phases,
                worst,
            } => {
                let mode = if *parallel {
                    "two halves in parallel"
                } else {
                    "halves one after the other"
                };
                write!(
                    f,
                    "  CRT decryption  ok: c^d mod n equals redc's modpow ({mode})\n                  {} cycles, {}\n",
                    grouped(*cycles),
                    duration(*cycles, mhz)
                )?;
                let width = phases.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(0);
                for (name, cycles) in phases {
                    writeln!(f, "                    {name:<width$}  {:>12} cycles", grouped(*cycles))?;
                }
                if let Some((exp_bits, timed)) = worst {
                    writeln!(
                        f,
                        "  worst case      Eq. 10, both half exponents {exp_bits} one bits (Table 2): {} cycles, {}",
                        grouped(*timed),
                        duration(*timed, mhz)
                    )?;
                }
            }
        }
        let t = &self.throughput;
        let (core, op) = if t.cores == 1 {
            ("core", "operation")
        } else {
            ("cores", "operations")
        };
        let loading = if t.loading { ", operand loading included" } else { "" };
        writeln!(
            f,
            "  throughput      {} {core}: {:.3} kbit/s ({} cycles for {} {op}{loading})",
            t.cores,
            t.kbit_per_s,
            grouped(t.cycles),
            t.cores
        )
    }
}

impl SimReport {
    /// Every figure as JSON (`redc sim --json`).
    pub fn json(&self) -> Value {
        let mhz = self.mhz;
        let p = &self.product;
        let mut product = json!({
            "ok": true, "cycles": p.cycles, "time_us": p.cycles as f64 / mhz, "utilization": p.utilization,
        });
        if let Some(v) = &p.vcd {
            product["vcd"] = json!({ "file": v.file, "rows": v.rows, "per": v.per });
        }
        let t = &self.throughput;
        let mut out = json!({
            "arch": self.arch.name(),
            "paper": self.arch.paper().file(),
            "citation": self.arch.paper().citation().json(),
            "bits": self.bits,
            "seed": self.seed,
            "modulus": format!("0x{}", self.circuit.modulus.to_hex()),
            "digit_bits": self.circuit.digit_bits,
            "size_parameter": self.circuit.size_parameter,
            "r_log2": self.circuit.r_log2,
            "mhz": mhz,
            "circuit_mhz": self.circuit.clock_mhz,
            "product": product,
            "throughput": { "cores": t.cores, "cycles": t.cycles, "kbit_per_s": t.kbit_per_s },
        });
        match &self.body {
            Body::Exponentiation {
                exponent,
                what,
                ladder,
                products,
                cycles,
            } => {
                out["exponent"] =
                    json!({ "value": format!("0x{}", exponent.to_hex()), "bits": exponent.bits(), "what": what });
                out["exponentiation"] = json!({
                    "ok": true, "ladder": ladder, "products": products, "cycles": cycles, "time_us": *cycles as f64 / mhz,
                });
            }
            Body::Crt {
                parallel,
                cycles,
                phases,
                worst,
            } => {
                if let Some((exp_bits, timed)) = worst {
                    out["worst_case"] =
                        json!({ "exp_bits": exp_bits, "cycles": timed, "time_us": *timed as f64 / mhz });
                }
                out["crt"] = json!({
                    "ok": true,
                    "parallel": parallel,
                    "cycles": cycles,
                    "time_us": *cycles as f64 / mhz,
                    "phases": phases.iter().map(|(n, c)| json!({ "phase": n, "cycles": c })).collect::<Vec<_>>(),
                });
            }
        }
        out
    }
}
