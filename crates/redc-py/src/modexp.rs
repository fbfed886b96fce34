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
use redc::{SignedPow, SignedPowError};
use redc_rsa::Num;

/// A signed integer: `(negative, big-endian magnitude)`.
type Signed = (bool, Vec<u8>);

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
    // Each slot: its problem, a known answer (|m| = 1), or its error.
    enum Slot {
        Run(SignedPow<u64>),
        Zero,
        Failed(PyErr),
    }
    let num = |x: &Signed| (x.0, Num::from_be_bytes(&x.1));
    let slots: Vec<Slot> = (0..bases.len())
        .map(|i| match SignedPow::new(num(&bases[i]), num(&exps[i]), num(&mods[i])) {
            Err(SignedPowError::ZeroModulus) => {
                Slot::Failed(bad(&label(mod_what, i), "pow() 3rd argument cannot be 0"))
            }
            Err(SignedPowError::NotInvertible) => Slot::Failed(bad(
                &label(base_what, i),
                "base is not invertible for the given modulus",
            )),
            Ok(p) if p.modulus.is_one() => Slot::Zero,
            Ok(p) => Slot::Run(p),
        })
        .collect();
    // The engine wants the base below the modulus.
    let jobs: Vec<Job> = slots
        .iter()
        .filter_map(|s| match s {
            Slot::Run(p) => Some(Job {
                base: p.base.rem(&p.modulus).unwrap_or_default(),
                exp: p.exp.clone(),
                modulus: p.modulus.clone(),
            }),
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
            Slot::Run(p) => match results.next() {
                // A negative modulus: the result in (m, 0], as Python's.
                Some(Ok(r)) => {
                    let (negative, r) = p.signed(r);
                    signed(py, negative, &r)
                }
                Some(Err(e)) => bad(&label(mod_what, i), e).into_value(py).into_any(),
                None => bad(&label(mod_what, i), "no answer from the engine")
                    .into_value(py)
                    .into_any(),
            },
        })
        .collect())
}
