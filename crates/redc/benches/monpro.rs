//! Criterion benchmarks for the Montgomery product and modular exponentiation.
//!
//! Two groups:
//!
//! - `monpro`: one Montgomery product, `Multiplier::mul_into` into a
//!   preallocated `MontElem`, for every product schedule (`sos`, `cios`,
//!   `fios`, `fips`, `cihs`, `radix`) × digit width `w` in {8, 16, 32, 64} ×
//!   modulus size in {1024, 2048, 4096} bits. Ids look like
//!   `monpro/cios/w64/2048`.
//! - `modexp_2048`: a full 2048-bit modular exponentiation with a 2048-bit
//!   exponent at `w = 64` with the CIOS product (into Montgomery form, the
//!   exponentiation schedule, back out), for every exponentiation schedule
//!   (`ltr`, `rtl`, `ladder`, `window`, `sliding`), next to
//!   `num-bigint`'s `BigUint::modpow` on the same inputs (`num-bigint`).
//!   Ids look like `modexp_2048/window` and `modexp_2048/num-bigint`.
//!
//! Moduli and operands are fixed pseudo-random numbers (splitmix64 over
//! bytes, fixed seeds), the same at every digit width, so rows compare like
//! with like; each `monpro` iteration multiplies the next pair from a pool of
//! 16 operands (see [`POOL`]), so the timing of data-dependent schedules is
//! not flattered by branch prediction. Measurement times are kept short so the whole run takes a few
//! minutes on a small machine.
//!
//! Run everything with
//!
//! ```text
//! cargo bench -p redc --bench monpro
//! ```
//!
//! or a subset by passing a criterion filter (a regular expression on ids):
//!
//! ```text
//! cargo bench -p redc --bench monpro -- monpro/cios
//! cargo bench -p redc --bench monpro -- modexp_2048
//! ```

#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use num_bigint::BigUint;
use redc::{Modulus, Nat, Product, Schedule, Word};

/// Modulus sizes of the `monpro` group, in bits.
const SIZES: [usize; 3] = [1024, 2048, 4096];

/// Deterministic pseudo-random bytes (splitmix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `bits / 8` big-endian bytes (`bits` a multiple of 8).
    fn bytes(&mut self, bits: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(bits / 8);
        while out.len() < bits / 8 {
            out.extend_from_slice(&self.next_u64().to_be_bytes());
        }
        out.truncate(bits / 8);
        out
    }
}

/// Operands per size. The `monpro` group cycles through them, so that a
/// schedule whose running time depends on the data (FIOS's rippling carry)
/// is not measured on one operand pair whose branch pattern the CPU's branch
/// predictor can learn: with one fixed pair, FIOS at `w = 8`, 1024 bits
/// measured about 1.7× faster than on varying operands, while the
/// constant-time schedules were unaffected.
const POOL: usize = 16;

/// The benchmark inputs of one size, as big-endian bytes: an odd modulus of
/// exactly `bits` bits and [`POOL`] operands below it.
struct Inputs {
    n: Vec<u8>,
    ops: Vec<Vec<u8>>,
}

impl Inputs {
    fn new(bits: usize, seed: u64) -> Self {
        let mut rng = SplitMix64(seed);
        let mut n = rng.bytes(bits);
        n[0] |= 0x80; // exactly `bits` bits
        *n.last_mut().expect("bits >= 8") |= 1; // odd
        let ops = (0..POOL)
            .map(|_| {
                let mut x = rng.bytes(bits);
                x[0] &= 0x7f; // below 2^(bits-1) <= n
                x
            })
            .collect();
        Self { n, ops }
    }
}

fn bench_monpro_width<W: Word>(group: &mut BenchmarkGroup<'_, WallTime>, bits: usize, inputs: &Inputs) {
    let n = Nat::<W>::from_be_bytes(&inputs.n);
    let modulus = Modulus::new(&n).expect("odd modulus >= 3");
    assert_eq!(modulus.bits(), bits);
    for product in Product::ALL {
        let mut mm = modulus.multiplier(product);
        let ops: Vec<_> = inputs
            .ops
            .iter()
            .map(|x| mm.to_mont(&Nat::<W>::from_be_bytes(x)))
            .collect();
        let mut out = modulus.one();
        let mut k = 0;
        let id = format!("{}/w{}/{}", product.name(), W::BITS, bits);
        group.bench_function(id, |bench| {
            bench.iter(|| {
                k = (k + 1) % POOL;
                let (a, b) = (&ops[k], &ops[(k + 1) % POOL]);
                mm.mul_into(black_box(&mut out), black_box(a), black_box(b));
            });
        });
        black_box(&out);
    }
}

fn monpro(c: &mut Criterion) {
    let mut group = c.benchmark_group("monpro");
    group
        .sample_size(15)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    for (i, bits) in SIZES.into_iter().enumerate() {
        let inputs = Inputs::new(bits, 0x5eed_0000 + i as u64);
        bench_monpro_width::<u8>(&mut group, bits, &inputs);
        bench_monpro_width::<u16>(&mut group, bits, &inputs);
        bench_monpro_width::<u32>(&mut group, bits, &inputs);
        bench_monpro_width::<u64>(&mut group, bits, &inputs);
    }
    group.finish();
}

fn modexp_2048(c: &mut Criterion) {
    const BITS: usize = 2048;
    let inputs = Inputs::new(BITS, 0xe4_0000);
    let (base, exp) = (&inputs.ops[0], &inputs.ops[1]);

    let n = Nat::<u64>::from_be_bytes(&inputs.n);
    let modulus = Modulus::new(&n).expect("odd modulus >= 3");
    let base_nat = Nat::<u64>::from_be_bytes(base);
    let mut exp_bytes = exp.clone();
    exp_bytes[0] |= 0x80; // a full 2048-bit exponent
    let exp_nat = Nat::<u64>::from_be_bytes(&exp_bytes);
    assert_eq!(exp_nat.bits(), BITS);

    let n_big = BigUint::from_bytes_be(&inputs.n);
    let base_big = BigUint::from_bytes_be(base);
    let exp_big = BigUint::from_bytes_be(&exp_bytes);
    let expected = base_big.modpow(&exp_big, &n_big).to_bytes_be();

    let mut group = c.benchmark_group("modexp_2048");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));

    for schedule in Schedule::ALL {
        let mut mm = modulus.multiplier(Product::Cios);
        let mut run = |base: &Nat<u64>, exp: &Nat<u64>| {
            let b = mm.to_mont(base);
            let x = schedule.pow(&mut mm, &b, exp, None);
            mm.from_mont(&x)
        };
        // Not a benchmark of a wrong answer.
        assert_eq!(run(&base_nat, &exp_nat).to_be_bytes(), expected, "{}", schedule.name());
        group.bench_function(schedule.name(), |bench| {
            bench.iter(|| run(black_box(&base_nat), black_box(&exp_nat)));
        });
    }

    group.bench_function("num-bigint", |bench| {
        bench.iter(|| black_box(&base_big).modpow(black_box(&exp_big), black_box(&n_big)));
    });
    group.finish();
}

criterion_group!(benches, monpro, modexp_2048);
criterion_main!(benches);
