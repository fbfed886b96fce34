//! Testbench vectors: random products run through a model, written as one
//! `$readmemh` file per memory, as annotated text, or as JSON.
//!
//! Every case has its own random modulus of exactly `bits` bits, so every
//! case has the same digit count, iteration count and register widths, and
//! a testbench memory per register holds `count × steps` words, case-major.
//! The same seed gives the same files, bit for bit.

use serde_json::{Value, json};

use crate::carry_save::{CarrySave, Pair};
use crate::random::Seeded;
use crate::{Arch, Big, Circuit, CrtKey, HwError, Paper, Reg, Step, build, crt_decrypt};

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
    /// ([`Circuit::clock_trace`]); else empty.
    pub clocks: Vec<Step>,
    /// The circuit's constants for this modulus ([`Circuit::constants`]).
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

/// Runs `spec.count` random products through the model: every case a
/// random modulus of exactly `spec.bits` bits and operands uniform below
/// the circuit's bound; for the carry-save multipliers each operand is
/// split into a random pair (A1, A2). `progress` is told after every case.
pub fn generate(spec: Spec, progress: &dyn Fn(usize)) -> Result<Vectors, HwError> {
    check_bits(spec.bits)?;
    if spec.op == Operation::Crt {
        crate::crt_support(spec.arch, false)?;
        if spec.bits < 32 {
            return Err(HwError::Modulus(format!(
                "{} bits: a CRT key needs at least 32",
                spec.bits
            )));
        }
    }
    let mut rng = Seeded::new(spec.seed);
    let mut cases = Vec::with_capacity(spec.count);
    for i in 0..spec.count {
        if spec.op == Operation::Crt {
            let key = rng.crt_key(spec.bits);
            let c = rng.below(&key.n);
            cases.push(crt_case(spec, key, c)?);
            progress(i + 1);
            continue;
        }
        let n = rng.odd_modulus(spec.bits);
        if let Some(bits) = spec.op.exp_bits() {
            let base = rng.below(&n);
            let e = rng.bits(bits.saturating_sub(1)).add(&Big::pow2(bits.max(1) - 1));
            cases.push(exp_case(spec, n, base, e)?);
            progress(i + 1);
            continue;
        }
        let bound = build(spec.arch, &n, spec.radix)?.operand_bound();
        let (a, b) = (rng.below(&bound), rng.below(&bound));
        let second = (spec.arch.paper() == Paper::CarrySave).then(|| {
            let a2 = rng.below(&a.add(&Big::one()));
            let b2 = rng.below(&b.add(&Big::one()));
            (a2, b2)
        });
        let given = match second {
            Some((a2, b2)) => Given {
                a: a.checked_sub(&a2).expect("A2 <= a"),
                b: b.checked_sub(&b2).expect("B2 <= b"),
                n,
                second: Some((a2, b2)),
                e: None,
            },
            None => Given {
                n,
                a,
                b,
                second: None,
                e: None,
            },
        };
        cases.push(run_case(spec, &given)?);
        progress(i + 1);
    }
    finish(spec, cases)
}

/// The vectors of the caller's own cases (`spec.count` and `spec.seed` are
/// ignored; each modulus must have `spec.bits` bits).
///
/// Errors: [`HwError::Modulus`] for a modulus of another length or one the
/// architecture refuses, [`HwError::Operand`] for an operand out of range,
/// [`HwError::Unsupported`] for second words on a multiplier that has none
/// or for [`Operation::Crt`].
pub fn from_cases(spec: Spec, given: &[Given]) -> Result<Vectors, HwError> {
    check_bits(spec.bits)?;
    if spec.op == Operation::Crt {
        return Err(HwError::unsupported(
            "CRT vectors are drawn at random (generate); given cases are products or exponentiations",
        ));
    }
    let cases = given.iter().map(|g| run_case(spec, g)).collect::<Result<Vec<_>, _>>()?;
    finish(spec, cases)
}

/// One CRT decryption of `c` with `key` as the paper runs it.
fn crt_case(spec: Spec, key: CrtKey, c: Big) -> Result<Case, HwError> {
    let run = crt_decrypt(spec.arch, &key, &c, spec.radix, false)?;
    // Every constant of the decryption's runs is in `loaded` (crt_*).
    let mut case = whole_operation(key.n.clone(), c, run.value, run.cycles, Vec::new());
    case.crt = Some(CrtCase {
        key,
        loaded: run.loaded,
        phases: run.phases,
    });
    Ok(case)
}

/// A case of a whole operation on `a` (no second operand, no traces); the
/// caller says which operation.
fn whole_operation(n: Big, a: Big, result: Big, cycles: u64, constants: Vec<Reg>) -> Case {
    Case {
        constants,
        n,
        a,
        b: Big::zero(),
        result,
        cycles,
        trace: Vec::new(),
        clocks: Vec::new(),
        parts: None,
        exp: None,
        crt: None,
    }
}

/// One exponentiation `base^e mod n` by the circuit's own exponentiator.
fn exp_case(spec: Spec, n: Big, base: Big, e: Big) -> Result<Case, HwError> {
    let circuit = build(spec.arch, &n, spec.radix)?;
    let run = circuit.exponentiate(&base, &e)?;
    let mut case = whole_operation(n, base, run.value, run.cycles, circuit.constants());
    case.exp = Some(ExpCase {
        e,
        products: run.products,
    });
    Ok(case)
}

fn check_bits(bits: usize) -> Result<(), HwError> {
    if bits < 2 {
        return Err(HwError::Modulus(format!("{bits} bits: moduli need at least 2 bits")));
    }
    Ok(())
}

/// One case through the model: the product, its iteration and clock
/// traces, the constants and, for carry-save, the pairs.
fn run_case(spec: Spec, g: &Given) -> Result<Case, HwError> {
    if g.n.bits() != spec.bits {
        return Err(HwError::Modulus(format!(
            "n has {} bits, not the {} of the other cases",
            g.n.bits(),
            spec.bits
        )));
    }
    if let Some(e) = &g.e {
        return exp_case(spec, g.n.clone(), g.a.clone(), e.clone());
    }
    let circuit = build(spec.arch, &g.n, spec.radix)?;
    let mut trace = Vec::new();
    let (a, b, result, cycles, parts) = if spec.arch.paper() == Paper::CarrySave {
        let (a2, b2) = g.second.clone().unwrap_or_default();
        let pa = Pair {
            x1: g.a.clone(),
            x2: a2,
        };
        let pb = Pair {
            x1: g.b.clone(),
            x2: b2,
        };
        let run = CarrySave::new(spec.arch, &g.n, spec.radix)?.multiply_pairs(&pa, &pb, Some(&mut trace))?;
        let parts = Parts {
            a: pa,
            b: pb,
            s: run.value,
        };
        (
            parts.a.value(),
            parts.b.value(),
            parts.s.value(),
            run.cycles,
            Some(parts),
        )
    } else {
        if g.second.is_some() {
            return Err(HwError::unsupported(format!(
                "{} takes binary operands: no second words",
                spec.arch.name()
            )));
        }
        let run = circuit.multiply(&g.a, &g.b, Some(&mut trace))?;
        (g.a.clone(), g.b.clone(), run.value, run.cycles, None)
    };
    let clocks = circuit.clock_trace(&a, &b).transpose()?.unwrap_or_default();
    Ok(Case {
        constants: circuit.constants(),
        n: g.n.clone(),
        a,
        b,
        result,
        cycles,
        trace,
        clocks,
        parts,
        exp: None,
        crt: None,
    })
}

/// The vectors of `cases`, with the shape every case shares.
fn finish(spec: Spec, cases: Vec<Case>) -> Result<Vectors, HwError> {
    let shape: Box<dyn Circuit> = match cases.first() {
        Some(c) => build(spec.arch, &c.n, spec.radix)?,
        None => build(spec.arch, &Seeded::new(spec.seed).odd_modulus(spec.bits), spec.radix)?,
    };
    // The bound may depend on the modulus (Blum–Paar's 2M~): the memories
    // are as wide as the widest case needs.
    let mut operand_bits = word_bits(&shape.operand_bound());
    for c in &cases {
        operand_bits = operand_bits.max(word_bits(&build(spec.arch, &c.n, spec.radix)?.operand_bound()));
    }
    Ok(Vectors {
        spec,
        digit_bits: shape.digit_bits(),
        digits: shape.digits(),
        r_log2: shape.r_log2(),
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
    let regs = || {
        probe
            .cases
            .iter()
            .flat_map(|c| c.trace.iter().chain(&c.clocks))
            .flat_map(|s| &s.regs)
    };
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

    fn text(&self) -> String {
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

    fn json(&self) -> Value {
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

    /// `R^2 mod n`, `R = 2^r_log2`: the constant that takes an operand
    /// into the circuit's Montgomery form.
    fn r2(&self, n: &Big) -> Big {
        Big::pow2(2 * self.r_log2).rem(n).unwrap_or_else(Big::zero)
    }

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

    /// Trace registers and widths (the first case's; every case has the same).
    fn register_widths(&self) -> Vec<(&'static str, usize)> {
        widths(self.cases.first().and_then(|c| c.trace.first()))
    }

    /// Clock-trace registers and widths.
    fn clock_widths(&self) -> Vec<(&'static str, usize)> {
        widths(self.cases.first().and_then(|c| c.clocks.first()))
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

/// Registers and widths of a step (every step of a trace has the same).
fn widths(step: Option<&Step>) -> Vec<(&'static str, usize)> {
    step.map(|s| s.regs.iter().map(|r| (r.name, r.bits)).collect())
        .unwrap_or_default()
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
