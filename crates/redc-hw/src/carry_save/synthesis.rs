//! 003's Tables I and II as printed: the synthesis results (device, clock,
//! slices, throughput) of the multipliers and the RSA processors, which the
//! models take as given; the clock of each at its size.

use super::{CarrySave, RADIX2};
use crate::Arch;

/// One row of Table I or II as printed.
pub(super) struct Row {
    pub(super) k: usize,
    pub(super) device: &'static str,
    pub(super) mhz: f64,
    pub(super) mhz_decimals: u32,
    pub(super) slices: f64,
    pub(super) mbps: f64,
    pub(super) mbps_decimals: u32,
}

/// A [`Row`] from the printed figures, each with its printed decimals.
const fn row(k: usize, device: &'static str, mhz: (f64, u32), slices: f64, mbps: (f64, u32)) -> Row {
    Row {
        k,
        device,
        mhz: mhz.0,
        mhz_decimals: mhz.1,
        slices,
        mbps: mbps.0,
        mbps_decimals: mbps.1,
    }
}

/// Table I (the multipliers), Algo1.
const TABLE1_ALG1: [Row; 3] = [
    row(512, "XC2V1500", (122.03, 2), 5782.0, (121.55, 2)),
    row(1024, "XC2V3000", (111.32, 2), 11520.0, (111.10, 2)),
    row(2048, "XC2V6000", (90.73, 2), 23108.0, (90.64, 2)),
];
/// Table I, Algo2.
const TABLE1_ALG2: [Row; 3] = [
    row(512, "XC4VSX35", (179.746, 3), 4187.0, (179.746, 3)),
    row(1024, "XC4VSX35", (161.645, 3), 8724.0, (161.645, 3)),
    row(2048, "XC4VSX55", (131.032, 3), 17520.0, (131.032, 3)),
];
/// Table II (the RSA processors), Algo1.
pub(super) const TABLE2_ALG1: [Row; 2] = [
    row(512, "XC2V3000", (96.27, 2), 11196.0, (4.79, 2)),
    row(1024, "XC2V6000", (93.34, 2), 22075.0, (4.66, 2)),
];
/// Table II, Algo2.
const TABLE2_ALG2: [Row; 2] = [
    row(512, "XC4VSX35", (138.293, 3), 13676.0, (6.90, 2)),
    row(1024, "XC4VSX35", (123.211, 3), 28891.0, (6.16, 2)),
];

/// Table I's rows of `arch` (Algo1 for [`RADIX2`], Algo2 for the other).
pub(super) fn table1_rows(arch: &Arch) -> &'static [Row] {
    if *arch == RADIX2 { &TABLE1_ALG1 } else { &TABLE1_ALG2 }
}

/// Table II's rows of `arch` (Algo1 for [`RADIX2`], Algo2 for the other).
pub(super) fn table2_rows(arch: &Arch) -> &'static [Row] {
    if *arch == RADIX2 { &TABLE2_ALG1 } else { &TABLE2_ALG2 }
}

/// The row of the smallest bit length at least `k`, else the largest.
pub(super) fn row_for(rows: &'static [Row], k: usize) -> &'static Row {
    rows.iter().find(|r| r.k >= k).unwrap_or(&rows[rows.len() - 1])
}

impl CarrySave {
    /// The RSA processor's clock (Table II) for this architecture at this size.
    pub(super) fn rsa_clock_mhz(&self) -> f64 {
        row_for(table2_rows(self.arch), self.k).mhz
    }
}
