//! 001 §5.3 and Table 3's rule: run times and the throughput of many cores.

use super::crt::{crt_worst_case, total};
use super::{DIGIT_BITS, digits_for};

/// Run time in milliseconds of `cycles` at `mhz`.
pub fn time_ms(cycles: u64, mhz: f64) -> f64 {
    cycles as f64 / (mhz * 1e3)
}

/// Throughput in kbit/s of `cores` cores that each decrypt one `bits`-bit
/// block every `time_ms` milliseconds (Table 3's rule: bits / time).
pub fn throughput_kbps(bits: usize, cores: u32, time_ms: f64) -> f64 {
    bits as f64 * f64::from(cores) / time_ms
}

/// Worst-case throughput of `cores` FDFM cores decrypting `bits`-bit RSA
/// blocks with CRT at `mhz`, kbit/s: [`crt_worst_case`] with the model's
/// digits ([`digits_for`] of `bits` and `bits / 2`), loading excluded as in
/// Table 3 (the next block can be shifted in while the cores compute).
pub fn decryption_throughput_kbps(bits: usize, cores: u32, mhz: f64) -> f64 {
    let d2 = digits_for(bits / 2);
    let cycles = total(&crt_worst_case(digits_for(bits), d2, DIGIT_BITS as usize * d2));
    throughput_kbps(bits, cores, time_ms(cycles, mhz))
}
