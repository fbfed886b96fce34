//! The multiplier-bound ceiling of a GPU: operations per second if every SM
//! issued nothing but 32-bit integer multiplies, every clock. A measured
//! rate divided by it says how much of the multipliers a kernel uses.

use crate::DeviceInfo;

/// 32-bit integer multiply (and multiply-add) instructions per SM per
/// clock: 64 for compute capabilities 7.0 to 9.0 in the arithmetic
/// instruction throughput table of the CUDA C++ Programming Guide (taken
/// as the same for newer devices until measured).
pub const INT32_MULTIPLIES_PER_SM_CLOCK: u64 = 64;

/// Multiply instructions per 32x32->64 product: the low and the high half
/// are separate instructions (`mul.lo`/`mad.lo` and `mul.hi`/`mad.hi`).
pub const INSTRUCTIONS_PER_PRODUCT: u64 = 2;

/// Operations per second on `info`'s device if each took
/// `multiplies_per_op` 32x32->64 products (e.g. from
/// [`count::multiplies_per_pow`](crate::count::multiplies_per_pow)) and the
/// multipliers did nothing else: `sm_count * 64 * clock /
/// (2 * multiplies_per_op)`. Infinite for zero products.
pub fn ceiling(info: &DeviceInfo, multiplies_per_op: u64) -> f64 {
    let instructions_per_s =
        f64::from(info.sm_count) * INT32_MULTIPLIES_PER_SM_CLOCK as f64 * f64::from(info.clock_khz) * 1e3;
    instructions_per_s / (INSTRUCTIONS_PER_PRODUCT * multiplies_per_op) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h200() -> DeviceInfo {
        DeviceInfo {
            name: "NVIDIA H200".into(),
            sm_count: 132,
            cc_major: 9,
            cc_minor: 0,
            clock_khz: 1_980_000,
        }
    }

    #[test]
    fn h200_issues_16_7_tera_multiplies_per_second() {
        // 132 SMs * 64 per clock * 1.98 GHz = 1.67270e13 instructions/s,
        // two per product.
        assert_eq!(ceiling(&h200(), 1), 132.0 * 64.0 * 1.98e9 / 2.0);
        assert!((ceiling(&h200(), 1) - 8.36352e12).abs() < 1e3);
    }

    #[test]
    fn an_rsa_2048_private_operation() {
        // Two 1024-bit exponentiations of 32 digits, about 1024 squarings
        // and 256 + 16 multiplies each at 2 * 32^2 + 32 products: about
        // 5.3e6 products, hence about 1.57 million operations per second.
        let products = 2 * (1024 + 256 + 16) * (2 * 32 * 32 + 32);
        let ops = ceiling(&h200(), products);
        assert!((1.5e6..1.6e6).contains(&ops), "{ops}");
        assert_eq!(ceiling(&h200(), 2 * products), ops / 2.0);
    }

    #[test]
    fn zero_products_have_no_ceiling() {
        assert_eq!(ceiling(&h200(), 0), f64::INFINITY);
    }
}
