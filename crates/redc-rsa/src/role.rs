//! The roles a Montgomery domain of a key is branded with (`redc`'s
//! `Domain<Tag>`): a residue modulo `p` cannot meet one modulo `q`, nor one
//! modulo `n`. Used by the keys ([`crate::key`]), the CRT steps and the
//! blinding chain.

/// Residues modulo the public modulus `n`.
pub(crate) enum N {}
/// Residues modulo the first prime `p`.
pub(crate) enum P {}
/// Residues modulo the second prime `q`.
pub(crate) enum Q {}
/// Residues modulo one of the primes after the second (`r_3, r_4, ...`;
/// Garner's loop handles one of them at a time).
pub(crate) enum R {}
