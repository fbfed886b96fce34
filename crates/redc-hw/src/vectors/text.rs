//! The two single-file formats of the vectors: `vectors.txt`, every case
//! as annotated `name = 0x…` lines with its trace, and `vectors.json`
//! (RFC 8259), the same with the shared parameters and the paper's
//! citation.

use serde_json::{Value, json};

use super::Vectors;
use crate::Step;

impl Vectors {
    pub(super) fn text(&self) -> String {
        let mut out = format!("# {}\n# paper: {}\n", self.header(), self.paper());
        for (i, c) in self.cases.iter().enumerate() {
            out += &format!("\n# case {i}\n");
            for (name, _, v) in self.words(c) {
                out += &format!("{name} = 0x{}\n", v.to_hex());
            }
            out += &format!("cycles = {}\n", c.cycles);
            for (name, cycles) in c.crt.iter().flat_map(|x| &x.phases) {
                out += &format!("phase {name}: {cycles} cycles\n");
            }
            for s in &c.trace {
                out += &format!("step {}: {}\n", s.iteration, regs_text(s));
            }
            for s in &c.clocks {
                out += &format!("clock {}: {}\n", s.iteration, regs_text(s));
            }
        }
        out
    }

    pub(super) fn json(&self) -> Value {
        let steps = |steps: &[Step], key: &str| -> Vec<Value> {
            steps
                .iter()
                .map(|s| {
                    let regs: serde_json::Map<String, Value> = s
                        .regs
                        .iter()
                        .map(|r| (r.name.to_string(), json!(format!("0x{}", r.value.to_hex()))))
                        .collect();
                    json!({ key: s.iteration, "regs": regs })
                })
                .collect()
        };
        let cases: Vec<Value> = self
            .cases
            .iter()
            .map(|c| {
                let mut v = serde_json::Map::new();
                for (name, _, w) in self.words(c) {
                    v.insert(name, json!(format!("0x{}", w.to_hex())));
                }
                v.insert("cycles".into(), json!(c.cycles));
                if let Some(x) = &c.crt {
                    let phases: Vec<Value> = x
                        .phases
                        .iter()
                        .map(|(name, cycles)| json!({"phase": name, "cycles": cycles}))
                        .collect();
                    v.insert("phases".into(), json!(phases));
                }
                v.insert("trace".into(), json!(steps(&c.trace, "iteration")));
                if !c.clocks.is_empty() {
                    v.insert("clocks".into(), json!(steps(&c.clocks, "cycle")));
                }
                Value::Object(v)
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
}

/// A step's registers as `name=0x…` words.
fn regs_text(s: &Step) -> String {
    let regs: Vec<String> = s
        .regs
        .iter()
        .map(|r| format!("{}=0x{}", r.name, r.value.to_hex()))
        .collect();
    regs.join(" ")
}
