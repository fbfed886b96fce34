//! The CUDA kernels' logic, run on the CPU by `redc-cuda-sim` (the same
//! source, a fiber per GPU thread), against num-bigint's `modpow` for every
//! (threads per number, digits) kernel and both secrecies, plus the exact
//! product counts of `redc_cuda::count`.

mod common;

use common::{digits_of, n0inv};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use redc::engine::device::DeviceBatch;
use redc_cuda::Secrecy;
use redc_cuda::count::multiplies_per_pow;

/// Threads per number of the kernels.
const THREADS: [usize; 5] = [1, 4, 8, 16, 32];

/// One exponentiation: modulus, base, exponent.
struct Job {
    n: BigUint,
    base: BigUint,
    exp: BigUint,
}

/// A random number of exactly `bits` bits (top bit set), odd when `odd`.
fn random_bits(rng: &mut ChaCha8Rng, bits: usize, odd: bool) -> BigUint {
    if bits == 0 {
        return BigUint::zero();
    }
    let mut words = vec![0u32; bits.div_ceil(32)];
    words.iter_mut().for_each(|w| *w = rng.next_u32());
    let mut x = BigUint::from_slice(&words) % (BigUint::one() << bits);
    x.set_bit(bits as u64 - 1, true);
    if odd {
        x.set_bit(0, true);
    }
    x
}

/// Runs `jobs` on kernel (threads, digits, secrecy) with bound `exp_bits`
/// and checks every result against `modpow`.
fn check(threads: usize, digits: usize, secrecy: Secrecy, exp_bits: usize, jobs: &[Job]) {
    let exp_words = exp_bits.div_ceil(32) + 1; // one spare zero word
    let (mut modulus, mut n0, mut r2, mut base, mut exp) = (vec![], vec![], vec![], vec![], vec![]);
    for job in jobs {
        assert!(job.exp.bits() as usize <= exp_bits);
        modulus.extend(digits_of(&job.n, digits));
        n0.push(n0inv(&job.n));
        r2.extend(digits_of(&((BigUint::one() << (64 * digits)) % &job.n), digits));
        base.extend(digits_of(&job.base, digits));
        exp.extend(digits_of(&job.exp, exp_words));
    }
    let batch = DeviceBatch {
        digits,
        count: jobs.len(),
        modulus: &modulus,
        n0inv: &n0,
        r2: &r2,
        base: &base,
        exp: &exp,
        exp_words,
        exp_bits,
    };
    let out = redc_cuda_sim::launch(threads, secrecy, &batch).expect("a kernel for every valid pair");
    for (k, job) in jobs.iter().enumerate() {
        let got = BigUint::from_slice(&out[k * digits..(k + 1) * digits]);
        let want = job.base.modpow(&job.exp, &job.n);
        assert_eq!(
            got, want,
            "t{threads} n{digits} {secrecy:?} exp_bits {exp_bits}: job {k}: {}^{} mod {}",
            job.base, job.exp, job.n
        );
    }
}

/// Moduli of several lengths for a class: full length, one bit shorter,
/// about half, the all-ones one, and tiny ones.
fn moduli(rng: &mut ChaCha8Rng, digits: usize) -> Vec<BigUint> {
    let bits = 32 * digits;
    vec![
        random_bits(rng, bits, true),
        random_bits(rng, bits - 1, true),
        random_bits(rng, bits / 2 + 7, true),
        (BigUint::one() << bits) - 1u32,
        BigUint::from(3u32),
        (BigUint::one() << 32) + 15u32,
    ]
}

/// Jobs on every modulus: bases 0, 1, n - 1 and random, exponents 0, 1, 2,
/// full length (`exp_bits` bits) and half length, paired so that each
/// modulus meets every exponent and the bases rotate.
fn jobs(rng: &mut ChaCha8Rng, digits: usize, exp_bits: usize) -> Vec<Job> {
    let mut jobs = vec![];
    for (m, n) in moduli(rng, digits).into_iter().enumerate() {
        let exps = [
            BigUint::zero(),
            BigUint::one(),
            BigUint::from(2u32),
            random_bits(rng, exp_bits, false),
            random_bits(rng, exp_bits / 2, false),
        ];
        for (e, exp) in exps.into_iter().enumerate() {
            let random = random_bits(rng, 32 * digits, false) % &n;
            let base = [BigUint::zero(), BigUint::one(), &n - 1u32, random][(m + e) % 4].clone();
            jobs.push(Job {
                n: n.clone(),
                base,
                exp,
            });
        }
    }
    jobs
}

/// Exponent bound of the differential tests: full length on one thread for
/// the small classes; shorter where the simulation is slow (the schedule, not
/// the exponent's length, is under test: every window runs the same code).
fn exp_bits_for(threads: usize, digits: usize) -> usize {
    match (threads, digits) {
        (1, d) if d <= 32 => 32 * d,
        (1, _) => 160,
        _ => 40,
    }
}

/// Every kernel of one class, both secrecies, against the oracle.
fn class(digits: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(digits as u64);
    for threads in THREADS.into_iter().filter(|&t| digits.is_multiple_of(t)) {
        let exp_bits = exp_bits_for(threads, digits);
        let jobs = jobs(&mut rng, digits, exp_bits);
        for secrecy in [Secrecy::Secret, Secrecy::Public] {
            check(threads, digits, secrecy, exp_bits, &jobs);
            // A single job: partly filled warp and block, every group on job 0.
            check(threads, digits, secrecy, exp_bits + 3, &jobs[18..19]);
        }
    }
}

#[test]
fn class_16() {
    class(16);
}

#[test]
fn class_32() {
    class(32);
}

#[test]
fn class_48() {
    class(48);
}

#[test]
fn class_64() {
    class(64);
}

#[test]
fn class_96() {
    class(96);
}

#[test]
fn class_128() {
    class(128);
}

/// The host counter equals `count::multiplies_per_pow` for every kernel.
#[test]
fn product_counts_match_the_formula() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for digits in redc_cuda::CLASSES {
        for threads in THREADS.into_iter().filter(|&t| digits.is_multiple_of(t)) {
            let n = random_bits(&mut rng, 32 * digits - 3, true);
            for (secrecy, exp_bits, exp) in [
                (Secrecy::Secret, 0, 0u32),
                (Secrecy::Secret, 13, 0x1234),
                (Secrecy::Public, 12, 0b1011_0110_1101),
                (Secrecy::Public, 20, 0b1011_0110_1101),
                (Secrecy::Public, 5, 0),
            ] {
                let job = Job {
                    n: n.clone(),
                    base: BigUint::from(5u32),
                    exp: BigUint::from(exp),
                };
                redc_cuda_sim::reset_multiplies();
                check(threads, digits, secrecy, exp_bits, std::slice::from_ref(&job));
                let (length, ones) = (job.exp.bits() as usize, exp.count_ones() as usize);
                let per_pow = match secrecy {
                    Secrecy::Secret => multiplies_per_pow(digits, threads, secrecy, exp_bits, 0),
                    Secrecy::Public => multiplies_per_pow(digits, threads, secrecy, length, ones),
                };
                let groups = redc_cuda_sim::groups_launched(threads, 1) as u64;
                assert_eq!(
                    redc_cuda_sim::multiplies(),
                    groups * per_pow,
                    "t{threads} n{digits} {secrecy:?} exp_bits {exp_bits}"
                );
            }
        }
    }
}

/// A pair without a kernel is refused, not run.
#[test]
fn unknown_pairs_are_refused() {
    let n = BigUint::from(7u32);
    let modulus = digits_of(&n, 16);
    let one = digits_of(&BigUint::one(), 16);
    let batch = DeviceBatch {
        digits: 16,
        count: 1,
        modulus: &modulus,
        n0inv: &[n0inv(&n)],
        r2: &one,
        base: &one,
        exp: &[3],
        exp_words: 1,
        exp_bits: 2,
    };
    assert!(redc_cuda_sim::launch(32, Secrecy::Public, &batch).is_err());
    assert!(redc_cuda_sim::launch(2, Secrecy::Public, &batch).is_err());
}
