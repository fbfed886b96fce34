//! The AVX-512 IFMA backend: up to eight independent exponentiations per
//! group, one per 64-bit lane, with 52-bit digits (multi-buffer). A group
//! of five to eight runs on 512-bit vectors; one of up to four on 256-bit
//! vectors, where a product takes 0.80 of the time at 1024 bits and 0.86 at
//! 2048 (`redc bench`'s per-product table, the project's Xeon; with 6-bit
//! windows, full RSA-2048 batches in groups of four ran 5,267 private
//! operations per second against 7,082 in groups of eight, so the wide
//! vectors stay for full groups). Two jobs of
//! 20 to 80 digits (and one of 30) run on the 2-way horizontal kernel
//! (`ifma/lanes/pairs.rs`: both numbers spread across the lanes), which
//! does half the multiply-adds of four vertical lanes: two secret 1024-bit
//! exponentiations in 242 µs, four (vertical, 256-bit) in 283 µs, eight
//! (512-bit) in 353 µs, on the project's Xeon, one thread, with the windows
//! of `window`. A job alone of 20, 40, 60 or 80 digits runs on the 1-way
//! kernel (`ifma/lanes/single.rs`: its number alone across the lanes): on
//! the project's Zen 4, one secret 2048-/3072-/4096-bit exponentiation
//! (`redc bench`'s modexp latency) in 0.85 / 3.01 / 6.93 ms, where the
//! 2-way kernel took 1.38 / 4.37 / 9.12 ms. The SIMD code is `ifma/lanes.rs`; this
//! file sizes the classes, prepares moduli and lays a group's jobs out in
//! lanes.
//!
//! Constant time: every lane runs the same instruction sequence; a secret
//! group's windows cover the largest public bound of its jobs; the window
//! table is read by the shared select with per-lane masks; the final
//! subtraction is the shared one, per lane by mask. Public exponents that
//! are the same in every lane (RSA's `e`) take the sliding-window driver;
//! different public exponents take the fixed windows.

mod lanes;

use super::backend::{Backend, BackendError, Task};
use crate::kernel::window::default_window;
use crate::kernel::{Consts, neg_inv};
use crate::nat::Nat;
use crate::nat::limbs;
use crate::secret::SecretNat;
use core::arch::x86_64::{__cpuid, __cpuid_count};
use lanes::{DIGIT, Exponents, Input, LANES, Token, Vector, Y, Z, pairs, single};
use std::sync::Arc;
use zeroize::{Zeroize, Zeroizing};

/// The digit counts `D` with a compiled kernel; a modulus below
/// `2^size_bits` uses the smallest `D` with `4n < 2^(52·D)`, that is
/// `52·D >= size_bits + 2` (up to 8318-bit moduli).
const CLASSES: [usize; 8] = [10, 20, 30, 40, 60, 80, 120, 160];

/// The IFMA backend: only [`Ifma::detect`] makes one.
#[derive(Debug, Clone, Copy)]
pub struct Ifma {
    token: Token,
    /// This CPU's first-level data cache in bytes, where CPUID says it
    /// (the window widths of [`window`] follow it).
    l1d: Option<usize>,
}

impl Ifma {
    /// The backend, if this CPU has AVX-512F and AVX-512 IFMA.
    pub fn detect() -> Option<Ifma> {
        Token::detect().map(|token| Ifma {
            token,
            l1d: l1d_bytes(),
        })
    }

    /// For each job `(n, b)`, `b^(count+1) mod n` by `count` Montgomery
    /// products `x := x·b`, or with `square` `b^(2^count) mod n` by `count`
    /// squarings, one after another on the kernel of `layout`, each job in
    /// its own lane (idle lanes repeat the first): the products of an
    /// exponentiation without its windows, to time one product at a time
    /// (`redc bench`) and to test each kernel. Besides the `count` products
    /// it converts to and from 52-bit digits and makes three (`R mod n`,
    /// and into and out of Montgomery form). For public inputs: it compares
    /// and returns them in variable time.
    ///
    /// `None` unless there are 1 to `layout.numbers()` jobs, each `n` an odd
    /// modulus `>= 3` of one class that `layout` takes ([`Layout::takes`])
    /// and each `b < n`.
    pub fn chain(
        &self,
        layout: Layout,
        jobs: &[(&Nat<u64>, &Nat<u64>)],
        count: usize,
        square: bool,
    ) -> Option<Vec<Nat<u64>>> {
        if !(1..=layout.numbers()).contains(&jobs.len()) {
            return None;
        }
        let mut prepared = Vec::with_capacity(jobs.len());
        for &(n, b) in jobs {
            let c = Arc::new(Consts::new(n.digits()).ok()?);
            let d = self.class(n.bits()).filter(|&d| layout.takes(d) && b < n)?;
            let ctx = self.prepare(&c, d);
            prepared.push((c, ctx, b.to_digits_padded(n.digits().len())));
        }
        if prepared.windows(2).any(|w| w[0].1.n.len() != w[1].1.n.len()) {
            return None;
        }
        let tasks: Vec<Task<'_, IfmaCtx>> = prepared
            .iter()
            .map(|(c, ctx, base)| Task {
                ctx,
                modulus: c,
                base,
                exp: &[],
                exp_bits: 0,
            })
            .collect();
        let out = self.group(layout, &tasks, &Exponents::Chain { count, square });
        Some(out.into_iter().map(SecretNat::into_revealed).collect())
    }
}

/// The four IFMA kernels (one product of each multiplies a different
/// count of numbers); an exponentiation group takes one by its size
/// (`Layout::for_group`), [`Ifma::chain`] any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Layout {
    /// One number spread across the lanes of 256-bit vectors (the 1-way
    /// horizontal kernel, `ifma/lanes/single.rs`); classes of 20, 40, 60
    /// and 80 digits.
    One,
    /// Two numbers spread across the lanes of 256-bit vectors (the 2-way
    /// horizontal kernel, `ifma/lanes/pairs.rs`, with its wide product and
    /// squaring in `ifma/lanes/pairs/`); classes of 20 to 80 digits.
    Pair,
    /// Four numbers, one per lane of a 256-bit vector.
    Four,
    /// Eight numbers, one per lane of a 512-bit vector.
    Eight,
}

impl Layout {
    /// Every layout, in the order of the group sizes they take.
    pub const ALL: [Layout; 4] = [Layout::One, Layout::Pair, Layout::Four, Layout::Eight];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Layout::One => "1-way ymm",
            Layout::Pair => "2-way ymm",
            Layout::Four => "4-lane ymm",
            Layout::Eight => "8-lane zmm",
        }
    }

    /// Numbers multiplied by one product.
    pub fn numbers(self) -> usize {
        match self {
            Layout::One => 1,
            Layout::Pair => 2,
            Layout::Four => Y::LANES,
            Layout::Eight => Z::LANES,
        }
    }

    /// Bits per vector register.
    pub fn vector_bits(self) -> usize {
        64 * match self {
            Layout::One | Layout::Pair | Layout::Four => Y::LANES,
            Layout::Eight => Z::LANES,
        }
    }

    /// Whether this layout has a kernel for `digits`-digit numbers (a
    /// class of [`Backend::class`]).
    pub fn takes(self, digits: usize) -> bool {
        CLASSES.contains(&digits)
            && match self {
                Layout::One => single::takes(digits),
                Layout::Pair => (pairs::MIN_DIGITS..=pairs::MAX_DIGITS).contains(&digits),
                Layout::Four | Layout::Eight => true,
            }
    }

    /// `vpmadd52luq`/`vpmadd52huq` instructions in one product of
    /// `digits`-digit numbers, counted from the kernels' code: the vertical
    /// product (`lanes.rs`, `amm`) makes `4·D + 1` per step, `D` steps; the
    /// 1-way one (`lanes/single.rs`, `amm`) `4·D/4 + 4` per step, `D`
    /// steps, and one before them; the
    /// 2-way one below 30 digits (`pairs.rs`, `amm`) `4·D/2 + 4` per step,
    /// `D` steps, and one before them; from 30 digits on
    /// (`lanes/pairs/sos.rs`) `4·H + 2` per pass of its `H = D/2` passes
    /// over the rows and `4·H + 3` per step of its reduction
    /// (`lanes/pairs/reduce.rs`), `H` steps.
    pub fn madds(self, digits: usize) -> usize {
        match self {
            Layout::One => digits * (digits + 4) + 1,
            Layout::Pair if digits < pairs::SOS_DIGITS => digits * (2 * digits + 4) + 1,
            Layout::Pair => (4 * digits * digits + 5 * digits) / 2,
            Layout::Four | Layout::Eight => digits * (4 * digits + 1),
        }
    }

    /// `vpmadd52luq`/`vpmadd52huq` instructions in one squaring of
    /// `digits`-digit numbers, counted from the kernels' code (the 1-way
    /// kernel squares with its product): the vertical
    /// squaring (`lanes/square.rs`, `ams`) makes `D·(D + 1)` for the square
    /// (each cross product once, then doubled, and the diagonal) and `4·D`
    /// per pass of its reduction, `D/2` passes; the 2-way one
    /// (`lanes/pairs/square.rs`, from 30 digits; below, its product,
    /// [`Layout::madds`]) `2·H² + 5·H - 1` for the square of its `H = D/2`
    /// vectors and `4·H + 3` per step of its reduction, `H` steps.
    pub fn square_madds(self, digits: usize) -> usize {
        match self {
            Layout::One => self.madds(digits),
            Layout::Pair if digits < pairs::SOS_DIGITS => self.madds(digits),
            Layout::Pair => (3 * digits * digits + 8 * digits) / 2 - 1,
            Layout::Four | Layout::Eight => 3 * digits * digits + digits,
        }
    }

    /// The layout of a group of `jobs` jobs of `digits` digits: one job of
    /// 20, 40, 60 or 80 digits alone in the 1-way horizontal layout, two of
    /// 20 to 80 digits (or one of 30) side by side in the 2-way one, up to
    /// four (and one or two of 10 digits) on the 256-bit vertical kernel,
    /// more on the 512-bit one.
    fn for_group(jobs: usize, digits: usize) -> Layout {
        if jobs == 1 && Layout::One.takes(digits) {
            Layout::One
        } else if jobs <= 2 && Layout::Pair.takes(digits) {
            Layout::Pair
        } else if jobs <= Y::LANES {
            Layout::Four
        } else {
            Layout::Eight
        }
    }
}

/// A modulus in `D` 52-bit digits with `k0 = -n^-1 mod 2^52` and
/// `R^2 mod n` for `R = 2^(52·D)`. Wiped on drop (it may be a prime).
pub struct IfmaCtx {
    n: Zeroizing<Vec<u64>>,
    k0: u64,
    r2: Zeroizing<Vec<u64>>,
}

impl Drop for IfmaCtx {
    /// `k0` gives away `n mod 2^52` (the rest wipes itself).
    fn drop(&mut self) {
        self.k0.zeroize();
    }
}

impl Backend for Ifma {
    type Ctx = IfmaCtx;

    fn name(&self) -> &'static str {
        "ifma"
    }

    fn lanes(&self) -> usize {
        LANES
    }

    fn class(&self, size_bits: usize) -> Option<usize> {
        CLASSES.into_iter().find(|&d| DIGIT * d >= size_bits + 2)
    }

    /// Up to 80 digits one or two jobs take a horizontal kernel (at 10
    /// digits the 256-bit lanes); the 2-way one already beats the scalar
    /// kernels (measured here,
    /// one secret 512-/1024-/2048-bit exponentiation: 42 µs / 242 µs /
    /// 1.40 ms against 61 µs / 256 µs / 1.62 ms; 4096 bits on the project's
    /// Zen 4, `redc bench`'s modexp latency, three runs: 0.64 to 0.72 of
    /// the scalar kernels' time); above, a lone job on four lanes is slower
    /// than scalar (measured at 4096 bits before the 2-way kernel took
    /// them: 20.8 ms against 11.7 ms).
    fn few_faster_on_scalar(&self, d: usize) -> bool {
        d > pairs::MAX_DIGITS
    }

    fn prepare(&self, c: &Arc<Consts>, d: usize) -> IfmaCtx {
        IfmaCtx {
            n: Zeroizing::new(to_digits52(c.n(), d)),
            k0: neg_inv(c.n()[0], DIGIT as u32),
            r2: Zeroizing::new(to_digits52(&c.pow2(2 * DIGIT * d), d)),
        }
    }

    fn pow(&self, tasks: &[Task<'_, IfmaCtx>]) -> Result<Vec<SecretNat>, BackendError> {
        let exp_bits = tasks.iter().map(|t| t.exp_bits).max().unwrap_or(0);
        Ok(self.run(tasks, exp_bits, None))
    }

    fn pow_vartime(&self, tasks: &[Task<'_, IfmaCtx>]) -> Result<Vec<SecretNat>, BackendError> {
        let shared = tasks.windows(2).all(|w| limbs::cmp(w[0].exp, w[1].exp).is_eq());
        let exp_bits = tasks.iter().map(|t| limbs::bits(t.exp)).max().unwrap_or(0);
        Ok(self.run(tasks, exp_bits, shared.then(|| tasks[0].exp)))
    }
}

impl Ifma {
    /// Run up to [`LANES`] tasks of one class as one group, on the layout
    /// of its size ([`Layout::for_group`]): fixed windows over `exp_bits`,
    /// or sliding windows over `shared`, the exponent of every lane.
    fn run(&self, tasks: &[Task<'_, IfmaCtx>], exp_bits: usize, shared: Option<&[u64]>) -> Vec<SecretNat> {
        assert!((1..=LANES).contains(&tasks.len()), "1 to {LANES} tasks per group");
        let d = tasks[0].ctx.n.len();
        // Sliding windows (a public exponent shared by every lane) read no
        // whole table: OpenSSL's thresholds.
        let width = match shared {
            Some(_) => default_window(exp_bits),
            None => window(exp_bits, (tasks.len() > Y::LANES).then_some(d), self.l1d),
        };
        // digits[w][l]: window w of lane l's exponent (zero for idle lanes).
        let windows = if shared.is_some() {
            0
        } else {
            exp_bits.div_ceil(width as usize)
        };
        let digits: Zeroizing<Vec<[u64; LANES]>> = Zeroizing::new(
            (0..windows)
                .map(|w| {
                    core::array::from_fn(|l| {
                        tasks
                            .get(l)
                            .map_or(0, |t| limbs::window(t.exp, w * width as usize, width as usize))
                    })
                })
                .collect(),
        );
        let exps = match shared {
            Some(exp) => Exponents::Shared { width, exp },
            None => Exponents::Windows { width, digits: &digits },
        };
        self.group(Layout::for_group(tasks.len(), d), tasks, &exps)
    }

    /// Run `tasks` (one class, at most `layout.numbers()`) as one group of
    /// `layout`, each lane reading its task's own digits (idle lanes repeat
    /// lane 0 and are discarded).
    fn group(&self, layout: Layout, tasks: &[Task<'_, IfmaCtx>], exps: &Exponents<'_>) -> Vec<SecretNat> {
        assert!(
            (1..=layout.numbers()).contains(&tasks.len()),
            "1 to {} tasks per group",
            layout.numbers()
        );
        let d = tasks[0].ctx.n.len();
        assert!(
            tasks.iter().all(|t| t.ctx.n.len() == d) && layout.takes(d),
            "one class of the layout per group"
        );
        let lane = |l: usize| &tasks[if l < tasks.len() { l } else { 0 }];
        let input = Input {
            n: core::array::from_fn(|l| lane(l).ctx.n.as_slice()),
            r2: core::array::from_fn(|l| lane(l).ctx.r2.as_slice()),
            base: core::array::from_fn(|l| lane(l).base),
            k0: core::array::from_fn(|l| lane(l).ctx.k0),
        };
        macro_rules! dispatch {
            ($($c:literal),*) => {
                match d {
                    $($c => run_class::<$c>(self.token, layout, &input, exps, tasks),)*
                    _ => unreachable!("prepare takes a class of CLASSES"),
                }
            };
        }
        dispatch!(10, 20, 30, 40, 60, 80, 120, 160)
    }
}

/// One group of class `D` on `layout`: the lanes' results on the stack (no
/// allocation beside the answers), wiped once they are copied out.
fn run_class<const D: usize>(
    token: Token,
    layout: Layout,
    input: &Input<'_>,
    exps: &Exponents<'_>,
    tasks: &[Task<'_, IfmaCtx>],
) -> Vec<SecretNat> {
    let mut out = [[0u64; LANES]; D];
    match layout {
        Layout::One => single::pow::<D>(token, input, exps, &mut out),
        Layout::Pair => pairs::pow::<D>(token, input, exps, &mut out),
        Layout::Four => lanes::pow::<Y, D>(token, input, exps, &mut out),
        Layout::Eight => lanes::pow::<Z, D>(token, input, exps, &mut out),
    }
    let answers = tasks
        .iter()
        .enumerate()
        .map(|(l, t)| from_digits52(out.iter().map(|v| v[l]), t.modulus.len()))
        .collect();
    out.zeroize();
    answers
}

/// The fixed-window width of the IFMA kernels for exponents of `bits` bits:
/// 4 from 240 bits up to 767 bits; on the wide (eight-lane) kernel, for
/// `wide = Some(D)` digits, also up to 2048 bits while its 4-bit table fits
/// in `l1d`, the CPU's first-level data cache (assumed when unknown); 5
/// above; below 240 bits [`default_window`] (OpenSSL's thresholds, which
/// give 6 from 672 bits).
///
/// Measured with the engine on the project's Sapphire Rapids guest (48 KiB
/// first-level data cache), one thread, exponents as long as the modulus,
/// the median of three runs of the best of 7-15, µs for windows 3 / 4 / 5 /
/// 6:
///
/// | bits | one job (2-way; at 4096 bits the 256-bit lanes, as then) | four (256-bit) | eight (512-bit) |
/// |---|---|---|---|
/// | 512 | 55.8 / 53.5 / 55.0 / 60.0 | 44.9 / 42.7 / 45.2 / 51.6 | 55.6 / 54.0 / 60.6 / 63.5 |
/// | 1024 | 256 / 242 / 242 / 249 | 298 / 283 / 283 / 299 | 374 / 353 / 358 / 441 |
/// | 1536 | 687 / 652 / 643 / 652 | 1281 / 1237 / 1219 / 1288 | 1557 / 1476 / 1520 / 1606 |
/// | 2048 | 1510 / 1423 / 1394 / 1461 | 3126 / 2920 / 2861 / 2951 | 3743 / 3576 / 3592 / 3689 |
/// | 3072 | 4775 / 4497 / 4364 / 4475 | 9856 / 9159 / 8962 / 8930 | 12644 / 12152 / 11995 / 12042 |
/// | 4096 | 22332 / 21519 / 20835 / 20909 | 22355 / 21305 / 20772 / 21013 | 29191 / 27764 / 27009 / 27205 |
///
/// A window's table is `2^k · D` vectors, read in full by every
/// constant-time select; on the wide kernel a 6-bit table of 1024-bit
/// numbers is 80 KiB, beyond the 48 KiB first-level cache, and takes 25%
/// longer than a 4-bit one. On the project's Zen 4 (32 KiB), eight jobs,
/// the median of the best of 7-9 over 3-8 runs, µs for windows 4 / 5 / 6:
/// 1024 bits (a 4-bit table of 20 KiB) 557 / 596 / 654, 1536 bits (30 KiB)
/// 1,897 / 1,837 (best runs 1,826 / 1,831: a tie), 2048 bits (40 KiB,
/// which it does not hold) 4,139 / 4,022: there 5 wins by 3%, where the
/// Xeon, which holds it, has 4 ahead by 0.5%. One job (the 1-way kernel)
/// and four: 4 and 5 within the noise, 6 slower.
fn window(bits: usize, wide: Option<usize>, l1d: Option<usize>) -> u32 {
    // Bytes of a 4-bit table of `D`-digit numbers on 512-bit vectors.
    let table4 = |d: usize| 16 * d * 64;
    match bits {
        0..=239 => default_window(bits),
        240..=767 => 4,
        768..=2048 if wide.is_some_and(|d| l1d.is_none_or(|c| table4(d) <= c)) => 4,
        _ => 5,
    }
}

/// The size in bytes of this CPU's first-level data cache, from CPUID's
/// deterministic cache parameters (leaf 4 on Intel, `0x8000_001D` on AMD),
/// or `None` where neither describes it (a hypervisor may hide them).
fn l1d_bytes() -> Option<usize> {
    [(0, 4), (0x8000_0000, 0x8000_001D)]
        .into_iter()
        .find_map(|(base, leaf)| {
            // A leaf above the highest one (read first) is not asked.
            (__cpuid(base).eax >= leaf).then_some(())?;
            (0..16)
                .map(|i| __cpuid_count(leaf, i))
                // Type (bits 4:0) 0: no more caches; 1: data, at level 1 (7:5).
                .take_while(|r| r.eax & 0x1f != 0)
                .find(|r| r.eax & 0x1f == 1 && (r.eax >> 5) & 7 == 1)
                .map(|r| {
                    let field = |x: u32, at: u32, bits: u32| ((x >> at) & ((1 << bits) - 1)) as usize + 1;
                    // Ways × partitions × line size × sets.
                    field(r.ebx, 22, 10) * field(r.ebx, 12, 10) * field(r.ebx, 0, 12) * (r.ecx as usize + 1)
                })
        })
}

/// `x` as `d` little-endian 52-bit digits. Pre: `x < 2^(52·d)`.
fn to_digits52(x: &[u64], d: usize) -> Vec<u64> {
    (0..d).map(|j| limbs::window(x, j * DIGIT, DIGIT)).collect()
}

/// The little-endian 52-bit digits `d` (each `< 2^52`) as `s` 64-bit
/// digits, written straight into the result. Pre: the value is below
/// `2^(64s)` (bits above are dropped).
fn from_digits52(d: impl IntoIterator<Item = u64>, s: usize) -> SecretNat {
    let mut out = vec![0u64; s];
    for (j, v) in d.into_iter().enumerate() {
        let (i, sh) = (j * DIGIT / 64, j * DIGIT % 64);
        if let Some(x) = out.get_mut(i) {
            *x |= v << sh;
        }
        if sh > 64 - DIGIT
            && let Some(x) = out.get_mut(i + 1)
        {
            *x |= v >> (64 - sh);
        }
    }
    SecretNat::from_limbs(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide kernel's 4-bit window up to 2048 bits while its table fits
    /// in the first-level data cache: at 2048 bits (40 digits, 40 KiB) on
    /// the Xeon's 48 KiB, not on Zen 4's 32 KiB; at 1536 bits (30 KiB) on
    /// both; assumed when the size is unknown. Four lanes and one job: 5.
    #[test]
    fn windows_follow_the_first_level_cache() {
        let (xeon, zen4) = (Some(48 << 10), Some(32 << 10));
        assert_eq!(window(2048, Some(40), xeon), 4);
        assert_eq!(window(2048, Some(40), zen4), 5);
        assert_eq!(window(2048, Some(40), None), 4);
        assert_eq!(window(1536, Some(30), zen4), 4);
        assert_eq!(window(1024, Some(20), zen4), 4);
        assert_eq!(window(2049, Some(60), xeon), 5);
        assert_eq!(window(2048, None, xeon), 5);
        assert_eq!(window(512, None, zen4), 4);
        assert_eq!(window(100, Some(10), zen4), default_window(100));
    }

    /// Where CPUID describes the first-level data cache, a size such
    /// caches have (16 KiB to 1 MiB).
    #[test]
    fn the_first_level_cache_is_read_plausibly() {
        if let Some(k) = Ifma::detect() {
            assert!(k.l1d.is_none_or(|c| (16 << 10..=1 << 20).contains(&c)), "{:?}", k.l1d);
        }
    }

    #[test]
    fn digit_conversions_round_trip() {
        let x = [0xcafe_babe_dead_beef_u64, 0x0fed_cba9_8765_4321, 0x1234_5678];
        assert_eq!(from_digits52(to_digits52(&x, 10), 3).limbs(), &x);
        assert_eq!(from_digits52(to_digits52(&[0, 0], 3), 2).limbs(), &[0, 0]);
    }
}
