//! The cases of a set of vectors: drawn at random from a seed (a random
//! modulus of exactly `bits` bits per case, operands uniform below the
//! circuit's bound, a random pair for the carry-save multipliers, RSA CRT
//! keys) or given by the caller, each run through the architecture's model
//! as its paper describes it (see the architecture's citation).

use super::{Case, CrtCase, ExpCase, Given, Operation, Parts, Spec, Vectors};
use crate::carry_save::{CarrySave, Pair};
use crate::random::Seeded;
use crate::{Big, Circuit, CrtKey, HwError, Paper, Reg, build, crt_decrypt};

/// Runs `spec.count` random products through the model: every case a
/// random modulus of exactly `spec.bits` bits and operands uniform below
/// the circuit's bound; for the carry-save multipliers each operand is
/// split into a random pair (A1, A2). `progress` is told after every case.
pub fn generate(spec: Spec, progress: &dyn Fn(usize)) -> Result<Vectors, HwError> {
    check_bits(spec.bits)?;
    if spec.op == Operation::Crt {
        crate::crt_request(spec.arch, spec.bits, false)?;
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
