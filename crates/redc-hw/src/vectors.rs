//! Testbench vectors: random products run through a model, written as one
//! `$readmemh` file per memory, as annotated text, or as JSON.
//!
//! Every case has its own random modulus of exactly `bits` bits, so every
//! case has the same digit count, iteration count and register widths, and
//! a testbench memory per register holds `count × steps` words, case-major.
//! The same seed gives the same files, bit for bit.

use serde_json::{Value, json};

use crate::random::Seeded;
use crate::{Arch, Big, HwError, Step, build};

/// How the vectors are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `vectors.txt`: each case as `name = 0x…` lines, then its trace.
    Hex,
    /// One file per memory (`n.mem`, `r2.mem` (`R^2 mod n`), `a.mem`,
    /// `b.mem`, `result.mem`, `cycles.mem`, `trace_<reg>.mem` with the register's name in plain
    /// characters), one word per line in hex without a prefix, as
    /// Verilog's `$readmemh` reads them, plus `manifest.json` giving each
    /// memory's width and depth (and a trace's register as the paper
    /// writes it) and the paper's citation.
    Readmemh,
    /// `vectors.json`: every case with its trace.
    Json,
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// The architecture.
    pub arch: &'static Arch,
    /// Bits of every modulus (at least 2).
    pub bits: usize,
    /// Digit width where the architecture takes one.
    pub radix: Option<u32>,
    /// Number of cases.
    pub count: usize,
    /// Seed of the generator.
    pub seed: u64,
}

/// One output file: a name inside the output directory and its contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// File name (no directories).
    pub name: String,
    /// Its full contents.
    pub contents: String,
}

/// One random product through the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Modulus.
    pub n: Big,
    /// First operand.
    pub a: Big,
    /// Second operand.
    pub b: Big,
    /// The circuit's output.
    pub result: Big,
    /// Its clock cycles.
    pub cycles: u64,
    /// State after every iteration.
    pub trace: Vec<Step>,
}

/// The cases and the parameters every one of them shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vectors {
    /// What was asked for.
    pub spec: Spec,
    /// Digit width of the datapath.
    pub digit_bits: u32,
    /// The paper's size parameter (d, m, k, s).
    pub digits: usize,
    /// log2 R: `result ≡ a·b·2^(-r_log2) (mod n)`.
    pub r_log2: usize,
    /// Bits of an operand or result word (`operand_bound − 1`).
    pub operand_bits: usize,
    /// The cases.
    pub cases: Vec<Case>,
}

/// Runs `spec.count` random products (operands uniform below the circuit's
/// bound) through the model. `progress` is told after every case.
pub fn generate(spec: Spec, progress: &dyn Fn(usize)) -> Result<Vectors, HwError> {
    if spec.bits < 2 {
        return Err(HwError::Modulus(format!(
            "{} bits: moduli need at least 2 bits",
            spec.bits
        )));
    }
    let mut rng = Seeded::new(spec.seed);
    let mut cases = Vec::with_capacity(spec.count);
    let mut operand_bits = 1;
    for i in 0..spec.count {
        let n = rng.odd_modulus(spec.bits);
        let circuit = build(spec.arch, &n, spec.radix)?;
        let bound = circuit.operand_bound();
        let a = rng.below(&bound);
        let b = rng.below(&bound);
        let mut trace = Vec::new();
        let run = circuit.multiply(&a, &b, Some(&mut trace))?;
        // The bound may depend on the modulus (Blum–Paar's 2M~): the
        // memories are as wide as the widest case needs.
        operand_bits = operand_bits.max(word_bits(&bound));
        cases.push(Case {
            n,
            a,
            b,
            result: run.value,
            cycles: run.cycles,
            trace,
        });
        progress(i + 1);
    }
    let shape = build(spec.arch, &Seeded::new(spec.seed).odd_modulus(spec.bits), spec.radix)?;
    let (digit_bits, digits, r_log2) = (shape.digit_bits(), shape.digits(), shape.r_log2());
    Ok(Vectors {
        spec,
        digit_bits,
        digits,
        r_log2,
        operand_bits,
        cases,
    })
}

/// Bits of the widest value below `bound`.
fn word_bits(bound: &Big) -> usize {
    bound.checked_sub(&Big::one()).map_or(1, |m| m.bits().max(1))
}

/// Approximate bytes one case of `spec` takes in memory (its trace
/// dominates), from one probe case: callers multiply by the count to refuse
/// requests that would not fit.
pub fn bytes_per_case(spec: Spec) -> Result<u64, HwError> {
    let probe = generate(Spec { count: 1, ..spec }, &|_| ())?;
    let regs = || probe.cases.iter().flat_map(|c| &c.trace).flat_map(|s| &s.regs);
    // A register value is a heap vector (header, allocator overhead, digits)
    // plus, in the text written, about a quarter of its bits.
    let trace: u64 = regs()
        .map(|r| 64 + 8 * r.bits.div_ceil(64) as u64 + r.bits as u64 / 4)
        .sum();
    Ok(trace + spec.bits as u64)
}

impl Vectors {
    /// The files of `format`.
    pub fn files(&self, format: Format) -> Vec<File> {
        match format {
            Format::Hex => vec![File {
                name: "vectors.txt".into(),
                contents: self.text(),
            }],
            Format::Json => vec![File {
                name: "vectors.json".into(),
                contents: pretty(&self.json()),
            }],
            Format::Readmemh => self.memories(),
        }
    }

    fn header(&self) -> String {
        format!(
            "redc vectors: {} {}-bit moduli, {} cases, seed {}; result = a*b*2^-{} mod n (as the circuit leaves it)",
            self.spec.arch.name(),
            self.spec.bits,
            self.cases.len(),
            self.spec.seed,
            self.r_log2
        )
    }

    /// The architecture's paper, as users see it named.
    fn paper(&self) -> &'static crate::Citation {
        self.spec.arch.paper().citation()
    }

    fn text(&self) -> String {
        let mut out = format!("# {}\n# paper: {}\n", self.header(), self.paper());
        for (i, c) in self.cases.iter().enumerate() {
            out += &format!("\n# case {i}\n");
            for (name, v) in [("n", &c.n), ("a", &c.a), ("b", &c.b), ("result", &c.result)] {
                out += &format!("{name} = 0x{}\n", v.to_hex());
            }
            out += &format!("cycles = {}\n", c.cycles);
            for s in &c.trace {
                let regs: Vec<String> = s
                    .regs
                    .iter()
                    .map(|r| format!("{}=0x{}", r.name, r.value.to_hex()))
                    .collect();
                out += &format!("step {}: {}\n", s.iteration, regs.join(" "));
            }
        }
        out
    }

    fn json(&self) -> Value {
        let cases: Vec<Value> = self
            .cases
            .iter()
            .map(|c| {
                let trace: Vec<Value> = c
                    .trace
                    .iter()
                    .map(|s| {
                        let regs: serde_json::Map<String, Value> = s
                            .regs
                            .iter()
                            .map(|r| (r.name.to_string(), json!(format!("0x{}", r.value.to_hex()))))
                            .collect();
                        json!({ "iteration": s.iteration, "regs": regs })
                    })
                    .collect();
                json!({
                    "n": format!("0x{}", c.n.to_hex()),
                    "a": format!("0x{}", c.a.to_hex()),
                    "b": format!("0x{}", c.b.to_hex()),
                    "result": format!("0x{}", c.result.to_hex()),
                    "cycles": c.cycles,
                    "trace": trace,
                })
            })
            .collect();
        json!({
            "arch": self.spec.arch.name(),
            "paper": self.paper().file,
            "citation": self.paper().json(),
            "bits": self.spec.bits,
            "seed": self.spec.seed,
            "digit_bits": self.digit_bits,
            "size_parameter": self.digits,
            "r_log2": self.r_log2,
            "register_widths": self.register_widths().into_iter().map(|(n, w)| json!({"name": n, "bits": w})).collect::<Vec<_>>(),
            "cases": cases,
        })
    }

    /// `R^2 mod n`, `R = 2^r_log2`: the constant that takes an operand
    /// into the circuit's Montgomery form.
    fn r2(&self, n: &Big) -> Big {
        Big::pow2(2 * self.r_log2).rem(n).unwrap_or_else(Big::zero)
    }

    /// What `a.mem`, `b.mem` and `result.mem` hold, for the manifest.
    fn operand_form(&self) -> &'static str {
        match self.spec.arch.paper() {
            crate::Paper::CarrySave => {
                "binary: a.mem is the carry-save pair (A1, A2) = (a, 0), b.mem (B1, B2) = (b, 0); result.mem is S1 + S2, the pair's value"
            }
            _ => "whole binary numbers a and b (not the circuit's digit or RAM layout)",
        }
    }

    /// Trace registers and widths (the first case's; every case has the same).
    fn register_widths(&self) -> Vec<(&'static str, usize)> {
        self.cases
            .first()
            .and_then(|c| c.trace.first())
            .map(|s| s.regs.iter().map(|r| (r.name, r.bits)).collect())
            .unwrap_or_default()
    }

    fn memories(&self) -> Vec<File> {
        let cycles_bits = self
            .cases
            .iter()
            .map(|c| 64 - c.cycles.leading_zeros() as usize)
            .max()
            .unwrap_or(1)
            .max(1);
        // (file stem, the paper's register for a trace, width, words)
        let mut mems: Vec<(String, Option<&str>, usize, Vec<Big>)> = vec![
            (
                "n".into(),
                None,
                self.spec.bits,
                self.cases.iter().map(|c| c.n.clone()).collect(),
            ),
            (
                "r2".into(),
                None,
                self.spec.bits,
                self.cases.iter().map(|c| self.r2(&c.n)).collect(),
            ),
            (
                "a".into(),
                None,
                self.operand_bits,
                self.cases.iter().map(|c| c.a.clone()).collect(),
            ),
            (
                "b".into(),
                None,
                self.operand_bits,
                self.cases.iter().map(|c| c.b.clone()).collect(),
            ),
            (
                "result".into(),
                None,
                self.operand_bits,
                self.cases.iter().map(|c| c.result.clone()).collect(),
            ),
            (
                "cycles".into(),
                None,
                cycles_bits,
                self.cases.iter().map(|c| Big::from_u64(c.cycles)).collect(),
            ),
        ];
        for (k, (name, bits)) in self.register_widths().into_iter().enumerate() {
            let words = self
                .cases
                .iter()
                .flat_map(|c| c.trace.iter().map(move |s| s.regs[k].value.clone()))
                .collect();
            mems.push((format!("trace_{}", plain(name)), Some(name), bits, words));
        }
        let steps = self.cases.first().map_or(0, |c| c.trace.len());
        let mut files: Vec<File> = mems
            .iter()
            .map(|(name, register, bits, words)| {
                let digits = bits.div_ceil(4).max(1);
                let what = register.map_or_else(String::new, |r| format!(" (register {r})"));
                let mut contents = format!(
                    "// {}\n// paper: {}\n// memory {name}{what}: {bits}-bit words, depth {}\n",
                    self.header(),
                    self.paper(),
                    words.len()
                );
                for w in words {
                    contents += &format!("{:0>digits$}\n", w.to_hex());
                }
                File {
                    name: format!("{name}.mem"),
                    contents,
                }
            })
            .collect();
        let manifest = json!({
            "arch": self.spec.arch.name(),
            "paper": self.paper().file,
            "citation": self.paper().json(),
            "bits": self.spec.bits,
            "seed": self.spec.seed,
            "count": self.cases.len(),
            "digit_bits": self.digit_bits,
            "size_parameter": self.digits,
            "r_log2": self.r_log2,
            "steps_per_case": steps,
            "words": "one per line, hexadecimal, most significant digit first, zero-padded to the width; case i is word i of n, r2, a, b, result and cycles, and words i·steps_per_case to (i + 1)·steps_per_case - 1 of a trace (one per iteration, in order)",
            "r2": format!("R^2 mod n with R = 2^{} (a·(R^2 mod n) enters the circuit's Montgomery form)", self.r_log2),
            "operands": self.operand_form(),
            "memories": mems.iter().map(|(name, register, bits, words)| {
                let mut m = json!({"file": format!("{name}.mem"), "width": bits, "depth": words.len()});
                if let Some(r) = register {
                    m["register"] = json!(r);
                }
                m
            }).collect::<Vec<_>>(),
        });
        files.push(File {
            name: "manifest.json".into(),
            contents: pretty(&manifest),
        });
        files
    }
}

/// A register's name as a plain file-name part, which no shell expands:
/// letters and digits kept, `+` dropped, any other run of characters one
/// `_` (none at either end): the radix-4 digit `{a2i+1,a2i}` of 003's
/// Alg. II gives `a2i1_a2i`.
fn plain(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if c != '+' && !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("JSON values always serialise");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn register_names_become_plain_file_names() {
        assert_eq!(plain("{a2i+1,a2i}"), "a2i1_a2i");
        assert_eq!(plain("{q2i+1,q2i}"), "q2i1_q2i");
        assert_eq!(plain("S1"), "S1");
        assert_eq!(plain("C_a"), "C_a");
        assert_eq!(plain("x[i]"), "x_i");
    }
}
