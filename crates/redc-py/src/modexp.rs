//! Python's `pow(base, exp, mod)` as a batch on the engine, for every input
//! `pow` accepts: negative bases, negative exponents (the inverse, when it
//! exists), negative and even moduli. Integers cross as `(negative,
//! big-endian magnitude)`; the Python layer converts them.

use crate::engine::engine;
use crate::error::bad;
use crate::items::label;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use redc::engine::Job;
use redc_rsa::Num;

/// A signed integer: `(negative, big-endian magnitude)`.
type Signed = (bool, Vec<u8>);

/// The job for `pow(base, exp, m)` on `|m| >= 2` (the base reduced into
/// `[0, |m|)`, a negative exponent turned into the inverse's power), or
/// the error naming the base.
fn job(base: &Signed, exp: &Signed, m: &Num, base_what: &str) -> PyResult<Job> {
    let mut b = Num::from_be_bytes(&base.1)
        .rem(m)
        .ok_or_else(|| bad(base_what, "no remainder"))?;
    if base.0 && !b.is_zero() {
        b = m.checked_sub(&b).unwrap_or_default();
    }
    if exp.0 {
        b = b
            .inv_mod(m)
            .ok_or_else(|| bad(base_what, "base is not invertible for the given modulus"))?;
    }
    Ok(Job {
        base: b,
        exp: Num::from_be_bytes(&exp.1),
        modulus: m.clone(),
    })
}

/// `pow(b, e, m)` for the triples of `bases`, `exps`, `mods` (equal
/// lengths), in order: `(negative, magnitude)`, or the exception of that
/// item (`ValueError`s, as `pow`'s, naming `base_what[i]` or `mod_what[i]`).
#[pyfunction]
#[pyo3(signature = (bases, exps, mods, base_what, mod_what, backend = None))]
pub(crate) fn modexp_batch(
    py: Python<'_>,
    bases: Vec<Signed>,
    exps: Vec<Signed>,
    mods: Vec<Signed>,
    base_what: &str,
    mod_what: &str,
    backend: Option<&str>,
) -> PyResult<Vec<Py<PyAny>>> {
    if bases.len() != exps.len() || bases.len() != mods.len() {
        return Err(bad(
            "exponents",
            format!(
                "{} bases, {} exponents and {} moduli",
                bases.len(),
                exps.len(),
                mods.len()
            ),
        ));
    }
    let engine = engine(backend)?;
    // Each slot: its job, a known answer (|m| = 1), or its error.
    enum Slot {
        Run(Job, bool),
        Zero,
        Failed(PyErr),
    }
    let slots: Vec<Slot> = (0..bases.len())
        .map(|i| {
            let m = Num::from_be_bytes(&mods[i].1);
            if m.is_zero() {
                return Slot::Failed(bad(&label(mod_what, i), "pow() 3rd argument cannot be 0"));
            }
            if m.is_one() {
                return Slot::Zero;
            }
            match job(&bases[i], &exps[i], &m, &label(base_what, i)) {
                Ok(j) => Slot::Run(j, mods[i].0),
                Err(e) => Slot::Failed(e),
            }
        })
        .collect();
    let jobs: Vec<Job> = slots
        .iter()
        .filter_map(|s| match s {
            Slot::Run(j, _) => Some(j.clone()),
            _ => None,
        })
        .collect();
    let mut results = py.detach(|| engine.modexp_batch(&jobs)).into_iter();
    let signed = |py: Python<'_>, neg: bool, x: &Num| -> Py<PyAny> {
        let t = (neg, PyBytes::new(py, &x.to_be_bytes()));
        t.into_pyobject(py)
            .map_or_else(|e| e.into_value(py).into_any(), |t| t.into_any().unbind())
    };
    Ok(slots
        .into_iter()
        .enumerate()
        .map(|(i, slot)| match slot {
            Slot::Zero => signed(py, false, &Num::zero()),
            Slot::Failed(e) => e.into_value(py).into_any(),
            Slot::Run(j, neg_mod) => match results.next() {
                // A negative modulus: the result in (m, 0], as Python's.
                Some(Ok(r)) if neg_mod && !r.is_zero() => {
                    signed(py, true, &j.modulus.checked_sub(&r).unwrap_or_default())
                }
                Some(Ok(r)) => signed(py, false, &r),
                Some(Err(e)) => bad(&label(mod_what, i), e).into_value(py).into_any(),
                None => bad(&label(mod_what, i), "no answer from the engine")
                    .into_value(py)
                    .into_any(),
            },
        })
        .collect())
}
