//! The core clock and the multipliers' limits, measured in the bench's own
//! run (the bench's guests have no performance counters): core cycles per
//! second from a chain of dependent register `add`s (one cycle each on every
//! x86-64 core), alone and beside one 512-bit multiply-add per cycle (a core
//! may run slower while 512-bit vectors are busy: the project's Xeon ran
//! the chain at 4.2 GHz alone and 3.9 GHz beside them), and the most
//! 64-bit multiplies (`mulx`) and IFMA multiply-adds (`vpmadd52luq` on 256-
//! and 512-bit vectors) per cycle from independent instructions back to
//! back. They turn the per-product times into cycles and into a share of
//! the multiplier port limit. Inline assembly, so that the instruction
//! counts are exact; every instruction set is detected at run time first.
#![allow(unsafe_code)]

use std::time::{Duration, Instant};

/// The clock and the multipliers' issue rates of this machine.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clock {
    /// Core cycles per second.
    pub(super) hz: f64,
    /// Core cycles per second while 512-bit vectors are busy.
    pub(super) hz512: Option<f64>,
    /// `mulx` per cycle at the limit (BMI2).
    pub(super) mulx: Option<f64>,
    /// `vpmadd52luq` per cycle on 256-bit vectors (AVX-512 IFMA and VL).
    pub(super) madd256: Option<f64>,
    /// `vpmadd52luq` per cycle on 512-bit vectors (AVX-512 IFMA), at the
    /// clock of [`Clock::hz512`].
    pub(super) madd512: Option<f64>,
}

/// Instructions per loop pass of each probe.
#[cfg(target_arch = "x86_64")]
const BLOCK: u64 = 64;

impl Clock {
    /// Core cycles per second of a kernel on 512-bit vectors (`wide`) or not.
    pub(super) fn hz_for(&self, wide: bool) -> f64 {
        match (wide, self.hz512) {
            (true, Some(h)) => h,
            _ => self.hz,
        }
    }

    /// Measure, about `seconds` in all; `None` off x86-64.
    pub(super) fn measure(seconds: f64) -> Option<Clock> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let each = seconds / 5.0;
            let hz = best_rate(each, adds);
            let ifma = has!("avx512f") && has!("avx512ifma");
            // SAFETY (each probe below): its instruction sets were detected
            // on the line that calls it.
            let hz512 = ifma.then(|| best_rate(each, |n| unsafe { adds_beside_madd512(n) }));
            Some(Clock {
                hz,
                hz512,
                mulx: has!("bmi2").then(|| best_rate(each, |n| unsafe { mulx(n) }) / hz),
                madd256: (ifma && has!("avx512vl")).then(|| best_rate(each, |n| unsafe { madd256(n) }) / hz),
                madd512: hz512.map(|h| best_rate(each, |n| unsafe { madd512(n) }) / h),
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = seconds;
            None
        }
    }
}

/// The most instructions per second of `probe` (which runs `BLOCK·n`
/// instructions) over passes of about 10 ms for `seconds`: a limit is a
/// best case, so the fastest pass counts.
#[cfg(target_arch = "x86_64")]
fn best_rate(seconds: f64, probe: impl Fn(u64)) -> f64 {
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let mut n = 1024u64;
    let start = Instant::now();
    let mut best = 0.0f64;
    while start.elapsed() < budget {
        let t = Instant::now();
        probe(n);
        let dt = t.elapsed().as_secs_f64();
        best = best.max((BLOCK * n) as f64 / dt);
        if dt < 0.01 {
            n *= 2;
        }
    }
    best
}

/// `BLOCK·n` register `add`s, each on the result of the one before.
#[cfg(target_arch = "x86_64")]
fn adds(n: u64) {
    let (mut x, one) = (0u64, 1u64);
    // SAFETY: register arithmetic only; the loop counts `n` down to zero.
    unsafe {
        core::arch::asm!(
            "2:",
            ".rept 64",
            "add {x}, {one}",
            ".endr",
            "dec {n}",
            "jnz 2b",
            x = inout(reg) x,
            one = in(reg) one,
            n = inout(reg) n.max(1) => _,
            options(nomem, nostack),
        );
    }
    std::hint::black_box(x);
}

/// `BLOCK·n` independent `mulx` (each reads the same two registers).
///
/// # Safety
///
/// The CPU must have BMI2.
#[cfg(target_arch = "x86_64")]
unsafe fn mulx(n: u64) {
    // SAFETY: the caller's contract: the CPU has BMI2; registers only.
    unsafe {
        core::arch::asm!(
            "2:",
            ".rept 32",
            "mulx r8, r9, {a}",
            "mulx r10, r11, {a}",
            ".endr",
            "dec {n}",
            "jnz 2b",
            a = in(reg) 0x9e37_79b9_7f4a_7c15_u64,
            n = inout(reg) n.max(1) => _,
            in("rdx") 0x2545_f491_4f6c_dd1d_u64,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _,
            options(nomem, nostack),
        );
    }
}

/// Runs `BLOCK·n` `vpmadd52luq` on the registers named by `$r` (`ymm` or
/// `zmm`): sixteen independent accumulators, four times per pass, enough
/// to cover the instruction's latency at two per cycle. The CPU must have
/// `$features` (the caller's contract).
#[cfg(target_arch = "x86_64")]
macro_rules! madd_probe {
    ($name:ident, $features:literal, $r:literal) => {
        #[target_feature(enable = $features)]
        unsafe fn $name(n: u64) {
            // SAFETY: the caller detected the features; registers only (the
            // System V ABI leaves every vector register to the callee).
            unsafe {
                core::arch::asm!(
                    "2:",
                    ".rept 4",
                    ".irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
                    concat!("vpmadd52luq ", $r, "\\k, ", $r, "16, ", $r, "17"),
                    ".endr",
                    ".endr",
                    "dec rcx",
                    "jnz 2b",
                    "vzeroupper",
                    inout("rcx") n.max(1) => _,
                    clobber_abi("sysv64"),
                    options(nomem, nostack),
                );
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
madd_probe!(madd256, "avx512f,avx512vl,avx512ifma", "ymm");
#[cfg(target_arch = "x86_64")]
madd_probe!(madd512, "avx512f,avx512ifma", "zmm");

/// `BLOCK·n` dependent `add`s as in [`adds`], each beside one 512-bit
/// `vpmadd52luq` (sixteen independent accumulators): the chain's pace is
/// the clock while the 512-bit multipliers are busy (at one multiply-add
/// per cycle they are not the limit).
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512 IFMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn adds_beside_madd512(n: u64) {
    // SAFETY: the caller's contract; registers only (the System V ABI
    // leaves every vector register to the callee).
    unsafe {
        core::arch::asm!(
            "2:",
            ".rept 4",
            ".irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
            "add rax, rsi",
            "vpmadd52luq zmm\\k, zmm16, zmm17",
            ".endr",
            ".endr",
            "dec rcx",
            "jnz 2b",
            "vzeroupper",
            inout("rax") 0u64 => _,
            in("rsi") 1u64,
            inout("rcx") n.max(1) => _,
            clobber_abi("sysv64"),
            options(nomem, nostack),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probes run and give figures in the range of real cores (their
    /// values are the bench's business, not a test's).
    #[test]
    fn the_probes_run() {
        let Some(c) = Clock::measure(0.1) else { return };
        assert!(c.hz > 1e8 && c.hz < 1e11, "{c:?}");
        for x in [c.mulx, c.madd256, c.madd512].into_iter().flatten() {
            assert!(x > 0.05 && x < 16.0, "{c:?}");
        }
    }
}
