//! Modular addition and subtraction of residues, branch-free: the
//! additions of Montgomery-form values in Garner's recombination, the FDFM
//! CRT (001_24b3bbce8c558126.txt §4 Step 4) and the division-free
//! reductions.

use super::subtract::sub_if_not_less;
use crate::kernel::meter::NoMeter;
use crate::word::Word;
use subtle::Choice;

/// `out := a + b mod n`. Pre: `out`, `a`, `b`, `n`, `spare` have `s`
/// digits; `a, b < n`. Post: `out < n`. Constant time: the sum goes
/// through the shared final subtraction.
pub fn add_mod<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W], spare: &mut [W]) {
    let mut carry = W::ZERO;
    for ((d, &x), &y) in spare.iter_mut().zip(a).zip(b) {
        (*d, carry) = W::adc(x, y, carry);
    }
    sub_if_not_less(&NoMeter, out, spare, carry, n);
}

/// `out := a - b mod n`. Pre: `out`, `a`, `b`, `n` have `s` digits;
/// `a, b < n`. Post: `out < n`. Constant time: subtract, then add `n`
/// back under a mask when it borrowed.
pub fn sub_mod<W: Word>(out: &mut [W], a: &[W], b: &[W], n: &[W]) {
    let mut borrow = W::ZERO;
    for ((d, &x), &y) in out.iter_mut().zip(a).zip(b) {
        (*d, borrow) = W::sbb(x, y, borrow);
    }
    let mask = W::mask(Choice::from(borrow.to_u64() as u8 & 1));
    let mut carry = W::ZERO;
    for (d, &v) in out.iter_mut().zip(n) {
        (*d, carry) = W::adc(*d, v & mask, carry);
    }
}
