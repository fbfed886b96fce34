//! `pow(base, exp, n)` as Python computes it, for any modulus (even ones
//! too), in each of Koç's product schedules and each exponentiation
//! schedule, with the per-bit trace of one run.
//!
//! Run: `cargo run --example pow -p redc`.

#![allow(clippy::print_stdout)] // an example shows its results on stdout

use redc::exp::Trace;
use redc::{Nat, PowOptions, Product, Schedule, modpow};

fn main() {
    let base: Nat<u64> = "0x12345678".parse().expect("a number");
    let exp: Nat<u64> = "11".parse().expect("a number");
    // Python: pow(0x12345678, 11, 0xfffefff1) == 0x9316d6ee.
    let n: Nat<u64> = "0xfffefff1".parse().expect("a number");
    for product in Product::ALL {
        for schedule in Schedule::ALL {
            let r = modpow(&base, &exp, &n, PowOptions { product, schedule }, None).expect("n >= 1");
            assert_eq!(r.to_hex(), "9316d6ee", "{} {}", product.name(), schedule.name());
        }
    }
    println!("pow(0x12345678, 11, 0xfffefff1) = 0x9316d6ee in every schedule");

    // An even modulus: Montgomery modulo the odd part, CRT with 2^t.
    let even: Nat<u64> = "1000000".parse().expect("a number");
    let r = modpow(
        &Nat::from_u64(2),
        &Nat::from_u64(100),
        &even,
        PowOptions::default(),
        None,
    )
    .expect("n >= 1");
    assert_eq!(r.to_dec(), "205376"); // pow(2, 100, 1000000)
    println!("pow(2, 100, 1000000) = {r}");

    // The rows of one left-to-right run, in and out of Montgomery form.
    let mut trace = Trace::new();
    let opts = PowOptions {
        product: Product::Cios,
        schedule: Schedule::Ltr,
    };
    modpow(&base, &exp, &n, opts, Some(&mut trace)).expect("n >= 1");
    for row in &trace.rows {
        let regs: Vec<String> = row
            .regs
            .iter()
            .map(|r| format!("{} = 0x{}", r.name, r.value.to_hex()))
            .collect();
        println!("bit {:?} {:<18} {}", row.bit, row.op, regs.join(", "));
    }
}

#[cfg(test)]
mod tests {
    /// `cargo test` runs the example.
    #[test]
    fn runs() {
        super::main();
    }
}
