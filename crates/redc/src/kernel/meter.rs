//! Operation counting for the product schedules, as in Koç, Acar and
//! Kaliski's analysis that 000_be478b6750af4540.txt §2.2 follows.
//!
//! Every schedule is written against a [`Meter`] (taken by shared reference,
//! so a load can be an argument of a multiply-accumulate). Production code uses
//! [`NoMeter`], whose methods are empty and vanish after inlining; the
//! instrumented mode passes an [`OpCounts`] and gets, per product:
//!
//! - `mul`: word multiplications `w × w -> 2w`;
//! - `add`: word additions (adding one digit into a double-digit sum counts
//!   one; so `(C, S) := t + a·b + C` is one multiplication and two additions);
//! - `read`/`write`: loads and stores of digits of the arrays `a`, `b`, `n`,
//!   the scratch `t` (and `m` in FIPS) and the result. Carries, sums and the
//!   per-row quotient digit live in registers and are not counted.
//!
//! The helpers below are the only way the schedules touch memory or the
//! multiplier, so the counts are exactly what the code does.

use crate::word::Word;
use core::cell::Cell;

/// Receives one event per word operation of a Montgomery product.
pub trait Meter {
    /// `k` word multiplications.
    fn mul(&self, k: u64);
    /// `k` word additions.
    fn add(&self, k: u64);
    /// `k` digit loads.
    fn read(&self, k: u64);
    /// `k` digit stores.
    fn write(&self, k: u64);
}

/// The production meter: counts nothing, costs nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoMeter;

impl Meter for NoMeter {
    #[inline(always)]
    fn mul(&self, _: u64) {}
    #[inline(always)]
    fn add(&self, _: u64) {}
    #[inline(always)]
    fn read(&self, _: u64) {}
    #[inline(always)]
    fn write(&self, _: u64) {}
}

/// Word operation counts (the instrumented mode).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpCounts {
    mul: Cell<u64>,
    add: Cell<u64>,
    read: Cell<u64>,
    write: Cell<u64>,
}

impl OpCounts {
    /// Word multiplications so far.
    pub fn muls(&self) -> u64 {
        self.mul.get()
    }
    /// Word additions so far.
    pub fn adds(&self) -> u64 {
        self.add.get()
    }
    /// Digit loads so far.
    pub fn reads(&self) -> u64 {
        self.read.get()
    }
    /// Digit stores so far.
    pub fn writes(&self) -> u64 {
        self.write.get()
    }
}

impl Meter for OpCounts {
    fn mul(&self, k: u64) {
        self.mul.set(self.mul.get() + k);
    }
    fn add(&self, k: u64) {
        self.add.set(self.add.get() + k);
    }
    fn read(&self, k: u64) {
        self.read.set(self.read.get() + k);
    }
    fn write(&self, k: u64) {
        self.write.set(self.write.get() + k);
    }
}

/// Load `x[i]`.
#[inline(always)]
pub(crate) fn ld<T: Copy, M: Meter>(m: &M, x: &[T], i: usize) -> T {
    m.read(1);
    x[i]
}

/// Store `x[i] := v`.
#[inline(always)]
pub(crate) fn st<T: Copy, M: Meter>(m: &M, x: &mut [T], i: usize, v: T) {
    m.write(1);
    x[i] = v;
}

/// `(C, S) := t + a·b + c`; returns `(S, C)`.
#[inline(always)]
pub(crate) fn mac<W: Word, M: Meter>(m: &M, t: W, a: W, b: W, c: W) -> (W, W) {
    m.mul(1);
    m.add(2);
    W::mac(t, a, b, c)
}

/// `(C, S) := a + b` for digits `a`, `b` (`C` in {0, 1}); returns `(S, C)`.
#[inline(always)]
pub(crate) fn add2<W: Word, M: Meter>(m: &M, a: W, b: W) -> (W, W) {
    m.add(1);
    W::adc(a, b, W::ZERO)
}

/// The quotient digit `q := t · n0' mod 2^w`.
#[inline(always)]
pub(crate) fn quotient<W: Word, M: Meter>(m: &M, t: W, n0: W) -> W {
    m.mul(1);
    t.wrapping_mul(n0)
}

/// Koç's `ADD(t[i], C)` over a fixed window: add `c` at `t[i]` and carry
/// through `t[i+1..end]`, touching every digit of the window whatever the
/// values (constant-time). The caller guarantees no carry leaves the window.
#[inline(always)]
pub(crate) fn add_fixed<W: Word, M: Meter>(m: &M, t: &mut [W], i: usize, end: usize, c: W) {
    let mut c = c;
    for k in i..end {
        let (s, c2) = add2(m, ld(m, t, k), c);
        st(m, t, k, s);
        c = c2;
    }
    debug_assert_eq!(c, W::ZERO, "carry left the fixed window");
}

/// Koç's `ADD(t[i], C)` as he wrote it: ripple the carry up from `t[i]`
/// until it is absorbed. The number of steps depends on the data.
#[inline(always)]
pub(crate) fn add_ripple_vartime<W: Word, M: Meter>(m: &M, t: &mut [W], i: usize, c: W) {
    let mut c = c;
    let mut k = i;
    while c != W::ZERO && k < t.len() {
        let (s, c2) = add2(m, ld(m, t, k), c);
        st(m, t, k, s);
        c = c2;
        k += 1;
    }
}
