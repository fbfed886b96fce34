//! 000's cost parameters of the engine and the host (assumptions set from
//! the paper's measurements) and how Step 1 of the product runs (Fig. 6–8).

use crate::HwError;

/// Cost parameters of the engine and the host. Every figure is an
/// assumption of the model (the paper prints no clock, depth or link rate);
/// the defaults come from the paper's own measurements as each field says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Engine (DFE stream) clock in MHz. Default 100 MHz: a typical DFE
    /// stream clock; the paper prints none. Converts cycles to seconds.
    pub clock_mhz: f64,
    /// Pipeline depth of the Fig. 5 multiplier graph, engine cycles from a
    /// pair entering to its `hi`/`low` leaving. Default 12 (partial
    /// products, then the carry adders); the paper gives none, and at its
    /// sizes the fill is below 0.01% of a run.
    pub depth: u64,
    /// Multipliers (lanes) working side by side, each taking one pair per
    /// cycle. Default 1 (Table 2); Table 3 uses 2 and 4.
    pub lanes: u32,
    /// Engine cycles to start one run through the host API. Default 128 000
    /// (1.28 ms at 100 MHz): §4.2 measures 41 ms for 32 runs of a 32-digit
    /// stream, 41/32 = 1.281 ms a run, almost all of it start-up.
    pub startup: u64,
    /// Bits per engine cycle the host link carries each way. A pair needs
    /// `2w` bits in (and `2w` out). Default 176 (2.2 GB/s at 100 MHz, a
    /// sustained PCIe rate): 2.75 pairs per cycle at `w = 32`, so two lanes
    /// run at full rate and four are link-bound, the shape of Table 3
    /// (61% → 69% at 400 MB, not the 75% four full lanes would give).
    pub link_bits: u64,
    /// Host clock cycles per engine cycle. Default 30 (a 3 GHz host beside
    /// the 100 MHz engine).
    pub host_ratio: u64,
    /// Host cycles of one `w × w` word product (the profiled `mult32x32`).
    /// Default 20: with [`Params::host_acc`] it makes an inner iteration 46
    /// host cycles (15.3 ns at 3 GHz; Table 2's CPU column gives 15.2 to
    /// 16.0 ns) of which word products are 43% (Table 1: 43.08%).
    pub host_mul: u64,
    /// Host cycles of the rest of one inner iteration of Fig. 3/Fig. 4:
    /// adding the product and the carry into `t`, the loop. Default 26.
    pub host_acc: u64,
    /// Host cycles of one digit step of a carry transfer, `ADD` ripple,
    /// subtraction or doubling. Default 4: Table 2's 400-MB DFE time leaves
    /// about 1.2 ns a pair for the host's carry transfer.
    pub host_add: u64,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            clock_mhz: 100.0,
            depth: 12,
            lanes: 1,
            startup: 128_000,
            link_bits: 176,
            host_ratio: 30,
            host_mul: 20,
            host_acc: 26,
            host_add: 4,
        }
    }
}

impl Params {
    /// The same parameters with `lanes` multipliers (Table 3).
    pub fn with_lanes(self, lanes: u32) -> Self {
        Self { lanes, ..self }
    }

    /// Seconds that `cycles` engine cycles take at [`Params::clock_mhz`].
    pub fn seconds(&self, cycles: u64) -> f64 {
        cycles as f64 / (self.clock_mhz * 1e6)
    }

    /// Checks the parameters a model can run with: at least one lane (at
    /// most 1024), a link of at least one bit, a host ratio of at least 1,
    /// a depth of at most 2^16 and a positive clock.
    pub fn validate(&self) -> Result<(), HwError> {
        let bad = |what: &str| Err(HwError::unsupported(format!("dataflow parameters: {what}")));
        if !(1..=1024).contains(&self.lanes) {
            return bad("lanes must be 1 to 1024");
        }
        if self.link_bits == 0 {
            return bad("link_bits must be at least 1");
        }
        if self.host_ratio == 0 {
            return bad("host_ratio must be at least 1");
        }
        if self.depth > 1 << 16 {
            return bad("depth must be at most 65536");
        }
        if !(self.clock_mhz.is_finite() && self.clock_mhz > 0.0) {
            return bad("clock_mhz must be positive");
        }
        Ok(())
    }
}

/// How Step 1 (Fig. 3 a) of the product runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Offload {
    /// The reference host code: Fig. 3 a on the host, `s²` inner iterations
    /// per block (the "CPU" columns of Tables 2 and 3).
    Host,
    /// Fig. 6 for one block, Fig. 7 for many: one DFE run per row `i` and
    /// block, `b[i]` a constant, `a` streamed; `B·s` runs.
    PerBlock,
    /// Fig. 8: `b[i]` repeated in a second stream beside the `a` of every
    /// block, so one run per row serves all blocks; `s` runs.
    Streamed,
}
