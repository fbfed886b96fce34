//! The scalar backend: portable 64-bit digits, one exponentiation at a time.

use super::{Num, Secrecy};
use crate::exp::{default_window, sliding, window};
use crate::mont::{Modulus, Product};

/// A prepared modulus for the scalar backend.
pub(crate) struct Ctx {
    modulus: Modulus<u64>,
}

impl Ctx {
    /// Pre: `n` odd, `n >= 3`.
    pub(crate) fn new(n: &Num) -> Ctx {
        Ctx {
            modulus: Modulus::new(n).expect("caller checked n odd and >= 3"),
        }
    }
}

/// `base^exp mod n`. Pre: `base < n`, `exp < 2^exp_bits`.
pub(crate) fn pow(ctx: &Ctx, base: &Num, exp: &Num, exp_bits: usize, secrecy: Secrecy) -> Num {
    let mut mm = ctx.modulus.multiplier(Product::Cios);
    let b = mm.to_mont(base);
    let x = match secrecy {
        Secrecy::Secret => window::pow(&mut mm, &b, exp, exp_bits, default_window(exp_bits), None),
        Secrecy::Public => sliding::pow_vartime(&mut mm, &b, exp, default_window(exp.bits()), None),
    };
    mm.from_mont(&x)
}
