//! A statistical timing test in the manner of dudect (Reparaz, Balasch and
//! Verbauwhede, "Dude, is my code constant time?", DATE 2017), for what the
//! Valgrind taint check cannot run: the AVX-512 IFMA kernels (and any other
//! backend the engine names).
//!
//! Each test times one operation on inputs of two classes, drawn in random
//! order, every input prepared before the clock starts; Welch's t-test then
//! compares the two distributions of times, on all measurements and on
//! those below each of several percentiles (outliers of a shared machine
//! cropped, as dudect does). `|t|` above 4.5 is evidence of a leak; below,
//! none was found with this many measurements. Not a CI gate: run it on a
//! quiet machine.
//!
//! ```text
//! cargo bench -p redc-rsa --bench timing -- [--backend NAME] [--lanes L]
//!     [--bits B] [--measurements N] [--fixed HEX | --fixed-message HEX]
//!     [--test private|pkcs1v15|raw-on-padding|pow|control]...
//! ```
//!
//! - `private`: the RSA private operation (blinded, CRT, checked) on one
//!   fixed input against random inputs, all below `n` and of the same
//!   length (`--fixed HEX` chooses the fixed input instead: a short one
//!   such as `2` tells whether the input's length shows; `--fixed-message
//!   HEX` fixes the secret result instead, the input being `HEX^e mod n`:
//!   a short one tells whether the result's length shows);
//! - `pkcs1v15`: PKCS#1 v1.5 decryption of valid ciphertexts against
//!   invalid ones (random blocks; the Marvin attack's question), with
//!   implicit rejection;
//! - `raw-on-padding`: the private operation alone (`hazmat::raw_private`)
//!   on the `pkcs1v15` test's two classes of ciphertexts: whether a
//!   difference there comes from the arithmetic or from the decoding;
//! - `pow`: one secret exponentiation `b^x mod n` on the engine
//!   (`Engine::pow`, a job alone: on IFMA the 1-way kernel for moduli of
//!   519 to 1038 and 1559 to 4158 bits, the path of a lone DH derivation
//!   or DSA signature), a fixed base and exponent against random ones,
//!   each one byte shorter than `n` with its top bit set;
//! - `control`: a deliberately variable-time operation (`redc::modpow`, a
//!   sliding-window power meant for public exponents, of an exponent of at
//!   most 16 set bits against a random one), which must show a leak: the
//!   harness can see one.
//!
//! `--lanes L` runs `L` inputs of the same class as one engine batch (one
//! measurement): on the IFMA backend, 4 or more fill its vector lanes.
//! `--measurements` is per class (default 1,000,000).
//!
//! Each answer is dropped after the clock stops. A decrypted message's
//! length is its receiver's to know — the sender's length for valid
//! padding, a synthetic one under implicit rejection — and freeing and
//! wiping it takes time that follows that length: timed with the
//! operation, it showed as `|t|` = 22 and 24 for `pkcs1v15` on the IFMA
//! backend (1024-bit key, 10^6 measurements per class, two runs), against
//! 2.6 with the drop outside the clock and 2.5 for `raw-on-padding`. What
//! the caller does with the message (copy it, parse it, free it) can show
//! its length; the decryption itself does not.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng};
use redc::Engine;
use redc::engine::set_default_engine;
use redc_rsa::keygen::generate;
use redc_rsa::padding::Pkcs1v15Encrypt;
use redc_rsa::{Num, RsaPrivateKey, rsa_private_batch};
use std::hint::black_box;
use std::time::Instant;

/// The usual threshold: above it, the two classes differ.
const THRESHOLD: f64 = 4.5;
/// The percentiles below which measurements are kept for the cropped tests
/// (from the first [`CALIBRATION`] measurements).
const PERCENTILES: [f64; 5] = [0.5, 0.75, 0.9, 0.95, 0.99];
const CALIBRATION: usize = 10_000;
/// Inputs prepared per class at a time (before any clock starts).
const POOL: usize = 1024;

/// Welch's t-test, accumulated online (Welford's mean and variance).
#[derive(Clone, Copy, Default)]
struct Welch {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1.0;
        let delta = x - self.mean[class];
        self.mean[class] += delta / self.n[class];
        self.m2[class] += delta * (x - self.mean[class]);
    }

    fn t(&self) -> f64 {
        let var = |c: usize| self.m2[c] / (self.n[c] - 1.0).max(1.0);
        let se = (var(0) / self.n[0].max(1.0) + var(1) / self.n[1].max(1.0)).sqrt();
        if se == 0.0 {
            0.0
        } else {
            (self.mean[0] - self.mean[1]) / se
        }
    }
}

/// One test: how to make an input of a class, and the timed operation
/// (its answer is dropped after the clock stops: freeing and wiping it,
/// whose time follows the answer's length, is the caller's business).
trait Target {
    type Input;
    type Output;
    fn input(&mut self, class: usize) -> Self::Input;
    fn run(&mut self, input: &Self::Input) -> Self::Output;
}

/// The RSA private operation, one fixed input against random inputs, all
/// below `n` with the same byte length.
struct Private<'a> {
    engine: &'a Engine,
    key: &'a RsaPrivateKey,
    lanes: usize,
    fixed: Num,
    rng: ChaCha20Rng,
}

/// A random number of `size - 1` bytes with its top byte set (so below a
/// `size`-byte `n`, and every input the same length).
fn below_n(size: usize, rng: &mut ChaCha20Rng) -> Num {
    let mut bytes = vec![0u8; size - 1];
    rng.fill_bytes(&mut bytes);
    bytes[0] |= 0x80;
    Num::from_be_bytes(&bytes)
}

impl Target for Private<'_> {
    type Input = Vec<Num>;
    type Output = Vec<redc_rsa::Result<redc::SecretNat>>;
    fn input(&mut self, class: usize) -> Vec<Num> {
        let size = self.key.public_key().size();
        (0..self.lanes)
            .map(|_| {
                if class == 0 {
                    self.fixed.clone()
                } else {
                    below_n(size, &mut self.rng)
                }
            })
            .collect()
    }
    fn run(&mut self, input: &Vec<Num>) -> Self::Output {
        black_box(rsa_private_batch(self.engine, self.key, input, &mut self.rng))
    }
}

/// PKCS#1 v1.5 decryption, valid against invalid padding (one at a time,
/// on the default engine, which is the named backend's).
struct Pkcs1v15<'a> {
    key: &'a RsaPrivateKey,
    rng: ChaCha20Rng,
}

impl Target for Pkcs1v15<'_> {
    type Input = Vec<u8>;
    type Output = redc_rsa::Result<zeroize::Zeroizing<Vec<u8>>>;
    fn input(&mut self, class: usize) -> Vec<u8> {
        let public = self.key.public_key();
        if class == 0 {
            let mut msg = [0u8; 48];
            self.rng.fill_bytes(&mut msg);
            public.encrypt(Pkcs1v15Encrypt, &msg, &mut self.rng).expect("encrypt")
        } else {
            let mut bytes = vec![0u8; public.size() - 1];
            self.rng.fill_bytes(&mut bytes);
            redc_rsa::hazmat::raw_public(public, &bytes).expect("a random block")
        }
    }
    fn run(&mut self, ct: &Vec<u8>) -> Self::Output {
        black_box(self.key.decrypt(Pkcs1v15Encrypt, ct, &mut self.rng))
    }
}

/// The private operation alone on the same two classes of ciphertexts as
/// [`Pkcs1v15`] (valid against invalid padding once decrypted): whether a
/// difference comes from the arithmetic or from the decoding after it.
struct RawOnPadding<'a>(Pkcs1v15<'a>);

impl Target for RawOnPadding<'_> {
    type Input = Vec<u8>;
    type Output = redc_rsa::Result<zeroize::Zeroizing<Vec<u8>>>;
    fn input(&mut self, class: usize) -> Vec<u8> {
        self.0.input(class)
    }
    fn run(&mut self, ct: &Vec<u8>) -> Self::Output {
        black_box(redc_rsa::hazmat::raw_private(self.0.key, ct, &mut self.0.rng))
    }
}

/// One secret exponentiation on the engine, a fixed base and exponent
/// against random ones (each as [`below_n`] makes them).
struct Pow<'a> {
    engine: &'a Engine,
    n: redc::Prepared,
    size: usize,
    fixed: (redc::SecretNat, redc::SecretNat),
    rng: ChaCha20Rng,
}

impl<'a> Pow<'a> {
    fn new(engine: &'a Engine, key: &RsaPrivateKey, mut rng: ChaCha20Rng) -> Pow<'a> {
        let n = key.public_key().n();
        let size = key.public_key().size();
        let fixed = (secret_below_n(size, &mut rng), secret_below_n(size, &mut rng));
        Pow {
            engine,
            n: engine.prepare(n).expect("an odd modulus"),
            size,
            fixed,
            rng,
        }
    }
}

/// [`below_n`] as a secret of `n`'s digit count.
fn secret_below_n(size: usize, rng: &mut ChaCha20Rng) -> redc::SecretNat {
    let x = below_n(size, rng);
    redc::SecretNat::from_nat(&x, size.div_ceil(8)).expect("below n")
}

impl Target for Pow<'_> {
    type Input = (redc::SecretNat, redc::SecretNat);
    type Output = Vec<Result<redc::SecretNat, redc::EngineError>>;
    fn input(&mut self, class: usize) -> Self::Input {
        if class == 0 {
            self.fixed.clone()
        } else {
            (
                secret_below_n(self.size, &mut self.rng),
                secret_below_n(self.size, &mut self.rng),
            )
        }
    }
    fn run(&mut self, (base, exp): &Self::Input) -> Self::Output {
        let job = redc::PowJob {
            base,
            exp,
            exp_bits: 8 * self.size,
            modulus: &self.n,
        };
        black_box(self.engine.pow(&[job]))
    }
}

/// The control: a variable-time power whose exponent has 16 set bits in
/// class 0 and is random in class 1.
struct Control<'a> {
    key: &'a RsaPrivateKey,
    rng: ChaCha20Rng,
}

impl Target for Control<'_> {
    type Input = Num;
    type Output = Num;
    fn input(&mut self, class: usize) -> Num {
        let bits = self.key.public_key().bits();
        let mut bytes = vec![0u8; bits / 8];
        if class == 0 {
            for _ in 0..16 {
                let i = (self.rng.next_u32() as usize) % bytes.len();
                bytes[i] |= 1 << (self.rng.next_u32() % 8);
            }
        } else {
            self.rng.fill_bytes(&mut bytes);
        }
        Num::from_be_bytes(&bytes)
    }
    fn run(&mut self, e: &Num) -> Num {
        let n = self.key.public_key().n();
        black_box(redc::modpow(&Num::from_u64(3), e, n, redc::PowOptions::default(), None).unwrap_or_default())
    }
}

/// The result of one test.
struct Outcome {
    /// `|t|` over all measurements, then below each percentile.
    t: Vec<f64>,
    /// Mean time of each class, ns.
    mean: [f64; 2],
    per_class: usize,
}

impl Outcome {
    fn max_t(&self) -> (f64, String) {
        let labels = std::iter::once("all".to_owned()).chain(PERCENTILES.iter().map(|p| format!("p{}", p * 100.0)));
        self.t
            .iter()
            .zip(labels)
            .map(|(t, l)| (t.abs(), l))
            .fold((0.0, String::new()), |a, b| if b.0 > a.0 { b } else { a })
    }
}

/// Time `measurements` operations per class in random order.
fn measure<T: Target>(target: &mut T, measurements: usize, label: &str) -> Outcome {
    let mut order = ChaCha20Rng::from_rng(OsRng).expect("seed");
    let mut pools: [Vec<T::Input>; 2] = [Vec::new(), Vec::new()];
    let mut used = [0usize; 2];
    let mut all = Welch::default();
    let mut cropped = [Welch::default(); PERCENTILES.len()];
    let mut calibration: Vec<f64> = Vec::with_capacity(CALIBRATION);
    let mut thresholds: Option<Vec<f64>> = None;
    // Answers are kept and dropped a pool at a time, outside the clock.
    let mut outputs: Vec<T::Output> = Vec::with_capacity(POOL);
    let start = Instant::now();
    let mut next_report = 0.1;
    while used[0] < measurements || used[1] < measurements {
        let class = match (used[0] < measurements, used[1] < measurements) {
            (true, true) => (order.next_u32() & 1) as usize,
            (true, false) => 0,
            _ => 1,
        };
        if pools[class].is_empty() {
            pools[class] = (0..POOL).map(|_| target.input(class)).collect();
        }
        let input = pools[class].pop().expect("a pool of inputs");
        let t0 = Instant::now();
        let output = target.run(&input);
        let dt = t0.elapsed().as_nanos() as f64;
        outputs.push(output);
        if outputs.len() == POOL {
            outputs.clear();
        }
        drop(input);
        used[class] += 1;
        all.push(class, dt);
        match &thresholds {
            Some(th) => {
                for (w, &limit) in cropped.iter_mut().zip(th) {
                    if dt < limit {
                        w.push(class, dt);
                    }
                }
            }
            None => {
                calibration.push(dt);
                if calibration.len() == CALIBRATION {
                    calibration.sort_by(f64::total_cmp);
                    let at = |p: f64| calibration[((CALIBRATION - 1) as f64 * p) as usize];
                    thresholds = Some(PERCENTILES.iter().map(|&p| at(p)).collect());
                }
            }
        }
        let done = (used[0] + used[1]) as f64 / (2 * measurements) as f64;
        if done >= next_report {
            eprintln!(
                "  {label}: {:.0}% ({} measurements, {:.0} s), |t| = {:.2}",
                done * 100.0,
                used[0] + used[1],
                start.elapsed().as_secs_f64(),
                all.t().abs()
            );
            next_report += 0.1;
        }
    }
    let mut t = vec![all.t()];
    t.extend(cropped.iter().map(Welch::t));
    Outcome {
        t,
        mean: all.mean,
        per_class: measurements,
    }
}

/// The command line: `--backend`, `--lanes`, `--bits`, `--measurements`,
/// `--test` (repeatable); `cargo bench`'s own `--bench` is ignored.
struct Args {
    backend: String,
    lanes: usize,
    bits: usize,
    measurements: usize,
    fixed: Option<Num>,
    fixed_message: Option<Num>,
    tests: Vec<String>,
}

fn args() -> Args {
    let mut a = Args {
        backend: "scalar".into(),
        lanes: 1,
        bits: 2048,
        measurements: 1_000_000,
        fixed: None,
        fixed_message: None,
        tests: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().unwrap_or_else(|| panic!("{name} needs a value"));
        let number = |name: &str, v: String| v.parse().unwrap_or_else(|_| panic!("{name}: not a number: {v}"));
        match flag.as_str() {
            "--backend" => a.backend = value("--backend"),
            "--lanes" => a.lanes = number("--lanes", value("--lanes")),
            "--bits" => a.bits = number("--bits", value("--bits")),
            "--measurements" => a.measurements = number("--measurements", value("--measurements")),
            "--test" => a.tests.push(value("--test")),
            "--fixed" | "--fixed-message" => {
                let hex = value(&flag);
                let x = Some(Num::from_hex(&hex).unwrap_or_else(|e| panic!("{flag} {hex}: {e}")));
                if flag == "--fixed" {
                    a.fixed = x;
                } else {
                    a.fixed_message = x;
                }
            }
            "--bench" => {}
            other => panic!("unknown argument {other} (see the file's documentation)"),
        }
    }
    if a.tests.is_empty() {
        a.tests = vec!["private".into(), "pkcs1v15".into(), "control".into()];
    }
    a
}

fn main() {
    let a = args();
    let engine = Engine::named(&a.backend).unwrap_or_else(|e| panic!("--backend {}: {e}", a.backend));
    // The single operations (pkcs1v15) run on the default engine: this one.
    set_default_engine(engine.clone()).unwrap_or_else(|_| panic!("the default engine was already set"));
    eprintln!("generating a {}-bit key", a.bits);
    // The timing test's own key, at level 0: it measures 1024-bit keys too.
    let key = generate(a.bits, &Num::from_u64(65537), &|_| {})
        .expect("keygen")
        .with_security_level(redc_rsa::policy::SecurityLevel::NONE);
    let seed = || ChaCha20Rng::from_rng(OsRng).expect("seed");
    println!(
        "| test | backend | lanes | key bits | measurements per class | mean ns (class 0 / 1) | max abs t | at | verdict |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for test in &a.tests {
        let label = format!("{test} on {} x{}", a.backend, a.lanes);
        let outcome = match test.as_str() {
            "private" => measure(
                &mut Private {
                    engine: &engine,
                    key: &key,
                    lanes: a.lanes,
                    fixed: match (&a.fixed, &a.fixed_message) {
                        (Some(c), _) => c.clone(),
                        (None, Some(m)) => key.public_key().rsaep(m).expect("--fixed-message below n"),
                        (None, None) => below_n(key.public_key().size(), &mut seed()),
                    },
                    rng: seed(),
                },
                a.measurements,
                &label,
            ),
            "pkcs1v15" => measure(&mut Pkcs1v15 { key: &key, rng: seed() }, a.measurements, &label),
            "raw-on-padding" => measure(
                &mut RawOnPadding(Pkcs1v15 { key: &key, rng: seed() }),
                a.measurements,
                &label,
            ),
            "pow" => measure(&mut Pow::new(&engine, &key, seed()), a.measurements, &label),
            "control" => measure(&mut Control { key: &key, rng: seed() }, a.measurements, &label),
            other => panic!("unknown test {other} (private, pkcs1v15, raw-on-padding, pow, control)"),
        };
        let (t, at) = outcome.max_t();
        let lanes = if test == "private" { a.lanes } else { 1 };
        let verdict = if t < THRESHOLD { "no leak found" } else { "LEAK" };
        println!(
            "| {test} | {} | {lanes} | {} | {} | {:.0} / {:.0} | {t:.2} | {at} | {verdict} |",
            a.backend, a.bits, outcome.per_class, outcome.mean[0], outcome.mean[1]
        );
    }
}
