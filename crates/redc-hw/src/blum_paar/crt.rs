//! 002 §5.2: RSA decryption with the CRT on two half-size arrays, one
//! after the other or at once.

use super::{BlumPaar, DEFAULT_RADIX, RADIX2};
use crate::{Big, Circuit, CrtKey, CrtRun, HwError, Reg};

/// Cycles of the two CRT halves together (§5.2): one array after the other,
/// or two arrays at once.
pub(super) fn crt_total(parallel: bool, p_cycles: u64, q_cycles: u64) -> u64 {
    if parallel {
        p_cycles.max(q_cycles)
    } else {
        p_cycles + q_cycles
    }
}

/// RSA decryption `c^d mod n` with the CRT on two half-size arrays (§5.2).
///
/// Preconditions (checked): `n = p·q` with p, q odd, at least 3 and coprime
/// ([`HwError::Modulus`]), `c < n` ([`HwError::Operand`]), k as in
/// [`BlumPaar::new`]. Phases: the exponentiations mod p and mod q
/// ([`Circuit::exponentiate`] each, `n_p + 2` slots for the `n_p`-bit
/// `d mod (p−1)`); `cycles` is their sum (`parallel = false`) or maximum
/// (`parallel = true`). Reductions and recombination are host work, uncounted.
/// `loaded`: per half (p first) what its array is loaded with, the
/// exponent `dp = d mod (p−1)`, `mtildep` = M~ and `prefactorp` = C (§3.2;
/// §6: "the modulus, the exponent and the pre-computation factor"), and the
/// reduced cipher text `cp = c mod p` it exponentiates; then `qinv = q^(−1)
/// mod p`, the host's recombination (Garner) constant, not loaded.
pub fn crt_decrypt(key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    let k = radix.unwrap_or(DEFAULT_RADIX);
    crt_on(&BlumPaar::new(&key.p, k)?, &BlumPaar::new(&key.q, k)?, key, c, parallel)
}

/// [`crt_decrypt`] on two arrays of reference \[8\]'s radix-2 design (Table
/// 4's radix-2 rows); `radix` must be `None` or 1.
pub fn crt_decrypt_radix2(key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    if let Some(k) = radix.filter(|&k| k != 1) {
        return Err(HwError::Radix {
            arch: RADIX2.name,
            radix: k,
            allowed: "1 (radix 2)",
        });
    }
    crt_on(&BlumPaar::radix2(&key.p)?, &BlumPaar::radix2(&key.q)?, key, c, parallel)
}

/// The CRT decryption on the half-size arrays for p and q.
fn crt_on(array_p: &BlumPaar, array_q: &BlumPaar, key: &CrtKey, c: &Big, parallel: bool) -> Result<CrtRun, HwError> {
    if key.p.mul(&key.q) != key.n {
        return Err(HwError::Modulus("CRT key: n is not p·q".into()));
    }
    if *c >= key.n {
        return Err(HwError::Operand {
            name: "c",
            bound: "n".into(),
        });
    }
    let q_inv = key
        .q
        .inv_mod(&key.p)
        .ok_or_else(|| HwError::Modulus("CRT key: p and q are not coprime".into()))?;
    let one = Big::one();
    let reduce = |x: &Big, m: &Big| x.rem(m).unwrap_or_else(Big::zero);
    let [dp, dq] = [&key.p, &key.q].map(|prime| reduce(&key.d, &prime.checked_sub(&one).unwrap_or_else(Big::zero)));
    let (cp, cq) = (reduce(c, &key.p), reduce(c, &key.q));
    let (run_p, run_q) = (array_p.exponentiate(&cp, &dp)?, array_q.exponentiate(&cq, &dq)?);
    // Garner: m = m_q + q·((m_p − m_q)·q^(-1) mod p).
    let diff = run_p
        .value
        .add(&key.p)
        .checked_sub(&run_q.value.rem(&key.p).unwrap_or_else(Big::zero));
    let h = diff
        .unwrap_or_else(Big::zero)
        .mul(&q_inv)
        .rem(&key.p)
        .unwrap_or_else(Big::zero);
    Ok(CrtRun {
        value: run_q.value.add(&key.q.mul(&h)),
        cycles: crt_total(parallel, run_p.cycles, run_q.cycles),
        phases: vec![
            ("c^(d mod (p-1)) mod p", run_p.cycles),
            ("c^(d mod (q-1)) mod q", run_q.cycles),
        ],
        loaded: [
            ("dp", key.p.bits(), dp),
            (
                "mtildep",
                key.p.bits() + array_p.digit_bits() as usize,
                array_p.m_tilde().clone(),
            ),
            ("prefactorp", key.p.bits(), array_p.pre_factor().clone()),
            ("cp", key.p.bits(), cp),
            ("dq", key.q.bits(), dq),
            (
                "mtildeq",
                key.q.bits() + array_q.digit_bits() as usize,
                array_q.m_tilde().clone(),
            ),
            ("prefactorq", key.q.bits(), array_q.pre_factor().clone()),
            ("cq", key.q.bits(), cq),
            ("qinv", key.p.bits(), q_inv),
        ]
        .into_iter()
        .map(|(name, bits, value)| Reg { name, bits, value })
        .collect(),
    })
}
