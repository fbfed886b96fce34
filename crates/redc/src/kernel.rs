//! The kernel layer: what every Montgomery path of redc is built from.
//!
//! - [`consts`]: the modulus constants `n0' = -n^-1 mod 2^w` for any digit
//!   width `w <= 64`, `R mod n` and `R^2 mod n`, computed in one place.

pub mod consts;
