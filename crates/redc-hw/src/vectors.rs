//! Testbench vectors: random products run through a model, written as one
//! `$readmemh` file per memory, as annotated text, or as JSON.
//!
//! Every case has its own random modulus of exactly `bits` bits, so every
//! case has the same digit count, iteration count and register widths, and
//! a testbench memory per register holds `count × steps` words, case-major.
//! The same seed gives the same files, bit for bit.
//!
//! The cases are drawn or given and run through the model in `cases`; the
//! formats are written in `text` (annotated text and JSON) and `readmemh`
//! (memory files, manifest and Verilog header).

mod cases;
mod readmemh;
mod text;

pub use self::cases::{bytes_per_case, from_cases, generate};
pub(crate) use self::readmemh::plain;

use serde_json::Value;

use crate::carry_save::Pair;
use crate::{Arch, Big, CrtKey, Reg, Step};

/// How the vectors are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `vectors.txt`: each case as `name = 0x…` lines, then its trace.
    Hex,
    /// One file per memory (`n.mem`, `r2.mem` (`R^2 mod n`), `a.mem`,
    /// `b.mem`, the carry-save words `a1.mem` .. `s2.mem` where the
    /// circuit has them, `result.mem`, `const_<name>.mem` per constant,
    /// `cycles.mem`, `trace_<reg>.mem` per register of the iteration trace
    /// and, where the model has a clock-level schedule, `clock_cycle.mem`
    /// and `clock_<reg>.mem` per register, the names in plain characters),
    /// one word per line in hex without a prefix, as Verilog's `$readmemh`
    /// reads them; `manifest.json` giving each memory's width and depth (and
    /// a trace's register as the paper writes it), the layout and the
    /// paper's citation; and `vectors.vh`, the shapes as Verilog
    /// `localparam`s.
    Readmemh,
    /// `vectors.json`: every case with its trace.
    Json,
}

impl Format {
    /// Every format, in the order above.
    pub const ALL: [Format; 3] = [Format::Hex, Format::Readmemh, Format::Json];

    /// The name options spell it with (`hex`, `readmemh`, `json`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Hex => "hex",
            Format::Readmemh => "readmemh",
            Format::Json => "json",
        }
    }

    /// What the format writes, in a line.
    pub fn describe(self) -> &'static str {
        match self {
            Format::Hex => "vectors.txt: name = 0x… lines per case, then the trace",
            Format::Readmemh => {
                "One $readmemh file per memory (n, r2, a, b, result, constants, cycles, trace_<reg>, clock_<reg>), manifest.json and vectors.vh"
            }
            Format::Json => "vectors.json",
        }
    }
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
    /// What every case is.
    pub op: Operation,
}

/// What a case runs through the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// One Montgomery product, as the circuit leaves it.
    Product,
    /// `a^e mod n` by the paper's exponentiator, for exponents of exactly
    /// this many bits.
    Exponentiation(usize),
    /// An RSA decryption `c^d mod n` with the CRT as the paper runs it
    /// (001 §4 Steps 1–4, 002 §5.2), on a random key of `bits` bits (at
    /// least 32) with e = 65537: for the architectures with a CRT model
    /// ([`crate::crt_support`]).
    Crt,
}

impl Operation {
    /// The exponent length of an exponentiation.
    fn exp_bits(self) -> Option<usize> {
        match self {
            Self::Exponentiation(bits) => Some(bits),
            _ => None,
        }
    }
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
    /// State after every clock, where the model has a clock-level schedule
    /// ([`Circuit::clock_trace`](crate::Circuit::clock_trace)); else empty.
    pub clocks: Vec<Step>,
    /// The circuit's constants for this modulus ([`Circuit::constants`](crate::Circuit::constants)).
    pub constants: Vec<Reg>,
    /// The carry-save words, for the carry-save multipliers (003).
    pub parts: Option<Parts>,
    /// For an exponentiation: the exponent and the products it took (then
    /// `a` is the base, `b` is 0 and `result` is `a^e mod n`, fully reduced).
    pub exp: Option<ExpCase>,
    /// For a CRT decryption: the key, what the host loads and the phases'
    /// cycles (then `a` is the cipher text c, `b` is 0 and `result` is
    /// `c^d mod n`, fully reduced).
    pub crt: Option<CrtCase>,
}

/// A CRT decryption case's key, host-loaded values and phases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrtCase {
    /// The key (n, p, q, d).
    pub key: CrtKey,
    /// What the host loads ([`crate::CrtRun::loaded`]).
    pub loaded: Vec<Reg>,
    /// The cycles of each phase, in order ([`crate::CrtRun::phases`]).
    pub phases: Vec<(&'static str, u64)>,
}

/// An exponentiation case's exponent and product count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpCase {
    /// The exponent (its top bit set).
    pub e: Big,
    /// Montgomery products the exponentiator ran.
    pub products: u64,
}

/// One carry-save case's words (003 §II): the operands as the pairs
/// (A1, A2) and (B1, B2), both words nonzero in general, and the output
/// pair (S1, S2); `a = A1 + A2`, `b = B1 + B2`, `result = S1 + S2`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parts {
    /// A1, A2.
    pub a: Pair,
    /// B1, B2.
    pub b: Pair,
    /// S1, S2.
    pub s: Pair,
}

/// One case given by the caller instead of drawn: the modulus, the
/// operands and, for the carry-save multipliers, the second words A2, B2
/// of the pairs (`None`: 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    /// Modulus (its bit length must be the spec's).
    pub n: Big,
    /// First operand (for carry-save, A1).
    pub a: Big,
    /// Second operand (for carry-save, B1).
    pub b: Big,
    /// A2 and B2 of the carry-save pairs.
    pub second: Option<(Big, Big)>,
    /// For an exponentiation: the exponent (then `a` is the base, below n,
    /// and `b` is ignored; the spec's operation must be an exponentiation
    /// by exponents of its length).
    pub e: Option<Big>,
}

impl Given {
    /// The spec that runs this one case on `arch` with [`from_cases`]: the
    /// modulus's bit length, one case, and a product or, with an exponent,
    /// an exponentiation by exponents of its length (at least 1 bit).
    pub fn spec(&self, arch: &'static Arch, radix: Option<u32>, seed: u64) -> Spec {
        Spec {
            arch,
            bits: self.n.bits(),
            radix,
            count: 1,
            seed,
            op: match &self.e {
                Some(e) => Operation::Exponentiation(e.bits().max(1)),
                None => Operation::Product,
            },
        }
    }
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
            "redc vectors: {} {}-bit moduli, {} case{}, seed {}; {}",
            self.spec.arch.name(),
            self.spec.bits,
            self.cases.len(),
            if self.cases.len() == 1 { "" } else { "s" },
            self.spec.seed,
            match self.spec.op {
                Operation::Exponentiation(b) =>
                    format!("result = a^e mod n (fully reduced), e of {b} bits, by the paper's exponentiator"),
                Operation::Crt =>
                    "result = c^d mod n (fully reduced), an RSA CRT decryption as the paper runs it".into(),
                Operation::Product => format!("result = a*b*2^-{} mod n (as the circuit leaves it)", self.r_log2),
            }
        )
    }

    /// The architecture's paper, as users see it named.
    fn paper(&self) -> &'static crate::Citation {
        self.spec.arch.paper().citation()
    }

    /// A case's single words in file order, with their widths: n, R^2 mod
    /// n, then for a product a, b, the carry-save words where there are any
    /// and the result, for an exponentiation the base a, the exponent e, the
    /// result and the product count, for a CRT decryption the cipher text
    /// c, p, q, d, the result and what the host loads as `crt_<name>`; then
    /// the constants as `const_<name>`.
    fn words(&self, c: &Case) -> Vec<(String, usize, Big)> {
        let (bits, op) = (self.spec.bits, self.operand_bits);
        let mut out = vec![
            ("n".to_owned(), bits, c.n.clone()),
            ("r2".to_owned(), bits, self.r2(&c.n)),
        ];
        let mut push = |name: &str, width: usize, v: &Big| out.push((name.to_owned(), width, v.clone()));
        if let Some(x) = &c.crt {
            push("c", bits, &c.a);
            push("p", x.key.p.bits(), &x.key.p);
            push("q", x.key.q.bits(), &x.key.q);
            push("d", bits, &x.key.d);
            push("result", bits, &c.result);
            for r in &x.loaded {
                push(&format!("crt_{}", r.name), r.bits, &r.value);
            }
        } else if let Some(x) = &c.exp {
            push("a", bits, &c.a);
            push("e", self.spec.op.exp_bits().unwrap_or_else(|| x.e.bits()), &x.e);
            push("result", bits, &c.result);
            push("products", 64, &Big::from_u64(x.products));
        } else {
            push("a", op, &c.a);
            push("b", op, &c.b);
            if let Some(p) = &c.parts {
                // The output pair's words are one bit wider than an operand's (003: S1, S2 of k + 2 bits).
                for (name, width, v) in [
                    ("a1", op, &p.a.x1),
                    ("a2", op, &p.a.x2),
                    ("b1", op, &p.b.x1),
                    ("b2", op, &p.b.x2),
                    ("s1", op + 1, &p.s.x1),
                    ("s2", op + 1, &p.s.x2),
                ] {
                    push(name, width, v);
                }
            }
            push("result", op, &c.result);
        }
        for k in &c.constants {
            push(&format!("const_{}", k.name), k.bits, &k.value);
        }
        out
    }

    /// `R^2 mod n`, `R = 2^r_log2`: the constant that takes an operand
    /// into the circuit's Montgomery form.
    fn r2(&self, n: &Big) -> Big {
        Big::pow2(2 * self.r_log2).rem(n).unwrap_or_else(Big::zero)
    }

    /// Trace registers and widths (the first case's; every case has the same).
    fn register_widths(&self) -> Vec<(&'static str, usize)> {
        widths(self.cases.first().and_then(|c| c.trace.first()))
    }
}

/// Registers and widths of a step (every step of a trace has the same).
fn widths(step: Option<&Step>) -> Vec<(&'static str, usize)> {
    step.map(|s| s.regs.iter().map(|r| (r.name, r.bits)).collect())
        .unwrap_or_default()
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("JSON values always serialise");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_case_makes_its_own_spec() {
        let arch = Arch::ALL[0];
        let n = crate::random::Seeded::new(5).odd_modulus(48);
        let product = Given {
            n,
            a: Big::from_u64(3),
            b: Big::from_u64(5),
            second: None,
            e: None,
        };
        let spec = product.spec(arch, None, 9);
        assert_eq!((spec.arch, spec.bits, spec.count, spec.seed), (arch, 48, 1, 9));
        assert_eq!(spec.op, Operation::Product);
        let v = from_cases(spec, std::slice::from_ref(&product)).unwrap();
        assert_eq!(v.cases.len(), 1);
        let exp = |e: u64| {
            Given {
                e: Some(Big::from_u64(e)),
                ..product.clone()
            }
            .spec(arch, Some(4), 0)
            .op
        };
        assert_eq!(exp(0b1011), Operation::Exponentiation(4));
        assert_eq!(exp(0), Operation::Exponentiation(1));
    }
}
