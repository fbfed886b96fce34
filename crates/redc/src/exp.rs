//! Exponentiation schedules over any [`Product`](crate::mont::Product) and any
//! digit width: one algorithm per file.
//!
//! | schedule | file | paper | time |
//! |---|---|---|---|
//! | left-to-right binary | `ltr.rs` | 000 Fig. 1, 001 Alg. 2, 004 Alg. 2 | variable |
//! | right-to-left, two chains | `rtl.rs` | 002 Alg. 3.1, 003 Alg. III | variable |
//! | Montgomery ladder | `ladder.rs` | 004 §6 (Joye–Yen) | constant |
//! | fixed window 2^k | `window.rs` | HAC 14.82 | constant (default) |
//! | sliding window | `sliding.rs` | HAC 14.85 | variable, public exponents |

pub mod ladder;
pub mod ltr;
pub mod rtl;
pub mod sliding;
pub mod trace;
mod trace_table;
pub mod window;

pub use crate::kernel::window::default_window;
pub use trace::{Trace, TraceReg, TraceRow};

use crate::mont::{Meter, MontElem, Multiplier};
use crate::nat::Nat;
use crate::word::Word;

/// Which exponentiation schedule to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Schedule {
    /// Left-to-right square-and-multiply (variable-time).
    Ltr,
    /// Right-to-left with independent squaring and multiplying chains
    /// (variable-time).
    Rtl,
    /// Montgomery powering ladder (constant-time).
    Ladder,
    /// Fixed 2^k window with constant-time table selection — the default.
    #[default]
    Window,
    /// Sliding window, public exponents only (variable-time).
    Sliding,
}

impl Schedule {
    /// Every schedule.
    pub const ALL: [Schedule; 5] = [
        Schedule::Ltr,
        Schedule::Rtl,
        Schedule::Ladder,
        Schedule::Window,
        Schedule::Sliding,
    ];

    /// The short lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Ltr => "ltr",
            Schedule::Rtl => "rtl",
            Schedule::Ladder => "ladder",
            Schedule::Window => "window",
            Schedule::Sliding => "sliding",
        }
    }

    /// One line saying what the schedule is (the help of `redc modexp
    /// --schedule`).
    pub fn describe(self) -> &'static str {
        match self {
            Schedule::Ltr => "Left-to-right square-and-multiply",
            Schedule::Rtl => "Right-to-left, independent squaring and multiplying chains",
            Schedule::Ladder => "Montgomery powering ladder",
            Schedule::Window => "Fixed 2^k window, constant-time table selection",
            Schedule::Sliding => "Sliding window (public exponents)",
        }
    }

    /// Is the sequence of operations independent of the exponent's bits
    /// (given a constant-time product)?
    pub fn is_constant_time(self) -> bool {
        matches!(self, Schedule::Ladder | Schedule::Window)
    }

    /// `base^exp` in Montgomery form by this schedule; windows of
    /// [`default_window`] bits. The constant-time schedules run over
    /// `exp.bits()` bits; call [`window::pow`] or [`ladder::pow`] directly to
    /// give a public bound instead.
    pub fn pow<W: Word, M: Meter>(
        self,
        mm: &mut Multiplier<'_, W, M>,
        base: &MontElem<W>,
        exp: &Nat<W>,
        trace: Option<&mut Trace<W>>,
    ) -> MontElem<W> {
        let bits = exp.bits();
        match self {
            Schedule::Ltr => ltr::pow_vartime(mm, base, exp, trace),
            Schedule::Rtl => rtl::pow_vartime(mm, base, exp, trace),
            Schedule::Ladder => ladder::pow(mm, base, exp, bits, trace),
            Schedule::Window => window::pow(mm, base, exp, bits, default_window(bits), trace),
            Schedule::Sliding => sliding::pow_vartime(mm, base, exp, default_window(bits), trace),
        }
    }
}
