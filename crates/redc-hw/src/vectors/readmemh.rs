//! The `$readmemh` format of the vectors (IEEE 1364-2005 §17.2.9): one
//! memory file per word, digit layout, trace and clock-trace register, one
//! hexadecimal word per line, case-major; `manifest.json` describing every
//! memory, and `vectors.vh`, the shapes as Verilog `localparam`s.

use serde_json::{Value, json};

use super::{Case, File, Operation, Vectors, pretty, widths};
use crate::{Big, Paper, Step};

impl Vectors {
    /// What `a.mem`, `b.mem` and `result.mem` hold, for the manifest.
    fn operand_form(&self) -> &'static str {
        if self.spec.op == Operation::Crt {
            return "RSA CRT decryptions: c.mem is the cipher text (below n), p.mem, q.mem and d.mem the key (e = 65537), result.mem c^d mod n fully reduced, crt_*.mem what the host loads (the manifest's crt_loaded), phase_*.mem each phase's clock cycles (the manifest's phases) and cycles.mem their sum";
        }
        if self.spec.op.exp_bits().is_some() {
            return "exponentiations: a.mem is the base (below n), e.mem the exponent (its top bit set), result.mem a^e mod n fully reduced, products.mem the Montgomery products the paper's exponentiator ran, cycles.mem their clock cycles";
        }
        match self.spec.arch.paper() {
            Paper::CarrySave => {
                "carry-save: a1.mem and a2.mem are the pair (A1, A2), b1.mem and b2.mem (B1, B2), s1.mem and s2.mem the output pair (S1, S2); a.mem, b.mem and result.mem their values A1 + A2, B1 + B2, S1 + S2"
            }
            _ => {
                "whole binary numbers a and b; a design splits them into its digits (FDFM: 17-bit digits x_0 .. x_(d-1), least significant first)"
            }
        }
    }

    /// Clock-trace registers and widths.
    fn clock_widths(&self) -> Vec<(&'static str, usize)> {
        widths(self.cases.first().and_then(|c| c.clocks.first()))
    }

    pub(super) fn memories(&self) -> Vec<File> {
        let cycles_bits = self
            .cases
            .iter()
            .map(|c| 64 - c.cycles.leading_zeros() as usize)
            .max()
            .unwrap_or(1)
            .max(1);
        // (file stem, the paper's register for a trace, width, words)
        let mut mems: Vec<(String, Option<&str>, usize, Vec<Big>)> = Vec::new();
        if let Some(first) = self.cases.first() {
            for (k, (name, bits, _)) in self.words(first).into_iter().enumerate() {
                let words = self.cases.iter().map(|c| self.words(c).swap_remove(k).2).collect();
                mems.push((name, None, bits, words));
            }
        }
        // The datapath's digit layout of the operands and results: each
        // word of n, a, b, c, p, q and result (those the case has) as digits_per_case digits of
        // digit_bits bits, least significant first (not for the bit-serial
        // carry-save forms, whose registers take whole words).
        let per_case = self.digits_per_case();
        if per_case > 0
            && let Some(first) = self.cases.first()
        {
            let w = self.digit_bits as usize;
            let layout: Vec<(usize, String)> = self
                .words(first)
                .into_iter()
                .enumerate()
                .filter(|(_, (name, _, _))| ["n", "a", "b", "c", "p", "q", "result"].contains(&name.as_str()))
                .map(|(k, (name, _, _))| (k, name))
                .collect();
            for (k, name) in layout {
                let words = self
                    .cases
                    .iter()
                    .flat_map(|c| {
                        let v = self.words(c).swap_remove(k).2;
                        (0..per_case).map(move |i| v.shr(i * w).low_bits(w))
                    })
                    .collect();
                mems.push((format!("{name}_digits"), None, w, words));
            }
        }
        mems.push((
            "cycles".into(),
            None,
            cycles_bits,
            self.cases.iter().map(|c| Big::from_u64(c.cycles)).collect(),
        ));
        // A CRT decryption's phases, one memory each (phase_1 .. phase_P),
        // as wide as cycles.mem; the manifest names them.
        let phase_names: Vec<&'static str> = self
            .cases
            .first()
            .and_then(|c| c.crt.as_ref())
            .map(|x| x.phases.iter().map(|(name, _)| *name).collect())
            .unwrap_or_default();
        for k in 0..phase_names.len() {
            let words = self
                .cases
                .iter()
                .map(|c| Big::from_u64(c.crt.as_ref().map_or(0, |x| x.phases[k].1)))
                .collect();
            mems.push((format!("phase_{}", k + 1), None, cycles_bits, words));
        }
        let phases: Vec<Value> = phase_names
            .iter()
            .enumerate()
            .map(|(k, name)| json!({"file": format!("phase_{}.mem", k + 1), "phase": name}))
            .collect();
        let crt_loaded: Vec<Value> = self
            .cases
            .first()
            .and_then(|c| c.crt.as_ref())
            .map(|x| {
                x.loaded
                    .iter()
                    .map(|r| json!({"name": r.name, "file": format!("crt_{}.mem", r.name), "width": r.bits}))
                    .collect()
            })
            .unwrap_or_default();
        let per_register = |prefix: &str, widths: Vec<(&'static str, usize)>, of: fn(&Case) -> &[Step]| {
            widths
                .into_iter()
                .enumerate()
                .map(|(k, (name, bits))| {
                    let words = self
                        .cases
                        .iter()
                        .flat_map(|c| of(c).iter().map(move |s| s.regs[k].value.clone()))
                        .collect();
                    (format!("{prefix}_{}", plain(name)), Some(name), bits, words)
                })
                .collect::<Vec<_>>()
        };
        mems.extend(per_register("trace", self.register_widths(), |c| &c.trace));
        let clocks = self.cases.first().map_or(0, |c| c.clocks.len());
        if clocks > 0 {
            let cycle_bits = (usize::BITS - clocks.leading_zeros()) as usize;
            let cycles = self
                .cases
                .iter()
                .flat_map(|c| c.clocks.iter().map(|s| Big::from_u64(s.iteration as u64)))
                .collect();
            mems.push(("clock_cycle".into(), None, cycle_bits, cycles));
            mems.extend(per_register("clock", self.clock_widths(), |c| &c.clocks));
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
        let constants: Vec<Value> = self
            .cases
            .first()
            .map(|c| {
                c.constants
                    .iter()
                    .map(|k| json!({"name": k.name, "file": format!("const_{}.mem", k.name), "width": k.bits}))
                    .collect()
            })
            .unwrap_or_default();
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
            "operation": match self.spec.op {
                Operation::Product => "product",
                Operation::Exponentiation(_) => "exponentiation",
                Operation::Crt => "crt",
            },
            "exponent_bits": self.spec.op.exp_bits(),
            "phases": phases,
            "crt_loaded": crt_loaded,
            "steps_per_case": steps,
            "clocks_per_case": clocks,
            "digits_per_case": self.digits_per_case(),
            "words": "one per line, hexadecimal, most significant digit first (big-endian), zero-padded to the width; case i is word i of every per-case memory (n, r2, a, b, result, cycles, the carry-save words, const_*, and for a CRT decryption c, p, q, d, crt_* and phase_*), words i·steps_per_case to (i + 1)·steps_per_case - 1 of a trace_* memory (one per iteration, in order) and words i·clocks_per_case to (i + 1)·clocks_per_case - 1 of a clock_* memory (one per clock; clock_cycle.mem gives the cycle, from 1, counted from the clock edge after start), and words i·digits_per_case to (i + 1)·digits_per_case - 1 of a *_digits memory (the same number in the datapath's digit_bits-bit digits, least significant digit first: the circuit's RAM layout)",
            "r2": format!("R^2 mod n with R = 2^{} (a·(R^2 mod n) enters the circuit's Montgomery form)", self.r_log2),
            "operands": self.operand_form(),
            "constants": constants,
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
        files.push(File {
            name: "vectors.vh".into(),
            contents: self.verilog_header(steps, clocks, cycles_bits, phase_names.len()),
        });
        files
    }

    /// Digits of `digit_bits` bits that hold every operand and result word
    /// (n, a, b, c, p, q, result): the depth per case of the `*_digits.mem`
    /// memories; 0 for the bit-serial carry-save forms (1- and 2-bit
    /// digits), which have none.
    fn digits_per_case(&self) -> usize {
        let w = self.digit_bits as usize;
        if w <= 2 {
            return 0;
        }
        self.operand_bits.max(self.spec.bits).div_ceil(w)
    }

    /// `vectors.vh`: the memories' shapes as Verilog `localparam`s, for a
    /// testbench to `` `include `` inside its module.
    fn verilog_header(&self, steps: usize, clocks: usize, cycles_bits: usize, phases: usize) -> String {
        let params = [
            ("BITS", self.spec.bits, "bits of n"),
            ("COUNT", self.cases.len(), "cases"),
            ("OPERAND_BITS", self.operand_bits, "width of a.mem, b.mem, result.mem"),
            ("DIGIT_BITS", self.digit_bits as usize, "digit width of the datapath"),
            ("DIGITS", self.digits, "the paper's size parameter"),
            ("R_LOG2", self.r_log2, "result = a*b*2^-R_LOG2 mod n"),
            ("CYCLE_BITS", cycles_bits, "width of cycles.mem"),
            ("STEPS", steps, "trace_* words per case"),
            ("CLOCKS", clocks, "clock_* words per case (0: no clock trace)"),
            (
                "EXP_BITS",
                self.spec.op.exp_bits().unwrap_or(0),
                "bits of e.mem (0: products, not exponentiations)",
            ),
            ("PHASES", phases, "phase_*.mem memories (0: not a CRT decryption)"),
            (
                "DIGITS_PER_CASE",
                self.digits_per_case(),
                "*_digits.mem words per case (0: none)",
            ),
        ];
        let mut out = format!("// {}\n// paper: {}\n", self.header(), self.paper());
        for (name, v, what) in params {
            out += &format!("localparam integer {name} = {v}; // {what}\n");
        }
        out
    }
}

/// A register's name as a plain file-name part, which no shell expands:
/// letters and digits kept, `+` dropped, any other run of characters one
/// `_` (none at either end): the radix-4 digit `{a2i+1,a2i}` of 003's
/// Alg. II gives `a2i1_a2i`.
pub(crate) fn plain(name: &str) -> String {
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
