//! One Montgomery product and one squaring of each of redc's kernels,
//! beside OpenSSL 4's `BN_mod_mul_montgomery` (feature `openssl4`): time,
//! core cycles ([`Clock`]) and the share of the multiplier port limit
//! reached, that is the kernel's multiply instructions per call over the
//! most the core issues in the cycles it took. The instruction counts are
//! the kernels' own ([`redc::Domain::multiplies`],
//! [`redc::engine::ifma::Layout::madds`] and `square_madds`); OpenSSL's are not ours to state,
//! so its share is not given.

use super::cycles::Clock;
use super::{CHAIN, Num, rate};
use anyhow::{Context, anyhow};
use redc::{Domain, PowOptions, SecretNat, modpow};

/// Products per call of an IFMA chain; a second chain of none takes the
/// call's fixed cost (conversions, entry into and exit from Montgomery
/// form) out.
#[cfg(target_arch = "x86_64")]
const IFMA_CHAIN: usize = 512;

/// The name of OpenSSL 4's row.
pub(super) const OPENSSL4: &str = "OpenSSL 4 BN_mod_mul_montgomery";

/// A product and a squaring of one kernel.
#[derive(Debug, Clone)]
pub(super) struct Kernel {
    pub(super) bits: usize,
    pub(super) name: String,
    /// Numbers multiplied by one call (lanes).
    pub(super) numbers: usize,
    /// Whether it runs on 512-bit vectors (at [`Clock::hz512`]).
    pub(super) wide: bool,
    /// Nanoseconds per call: product, squaring.
    pub(super) ns: [f64; 2],
    /// Multiply instructions per call (product, squaring) and the most the
    /// core issues per cycle.
    pub(super) limit: Option<([usize; 2], f64)>,
}

impl Kernel {
    /// Core cycles per call: product, squaring.
    pub(super) fn cycles(&self, clock: &Clock) -> [f64; 2] {
        self.ns.map(|ns| ns * clock.hz_for(self.wide) / 1e9)
    }

    /// The share of the port limit: product, squaring.
    pub(super) fn of_limit(&self, clock: &Clock) -> Option<[f64; 2]> {
        let (instrs, per_cycle) = self.limit?;
        let cycles = self.cycles(clock);
        Some([0, 1].map(|i| instrs[i] as f64 / per_cycle / cycles[i]))
    }
}

/// Every kernel of `backends` on `n` (of `bits` bits), and OpenSSL 4's
/// with `openssl` (when linked in), on the input `x < n`, `seconds` per
/// figure; each of redc's kernels is checked against [`modpow`] before it
/// is timed.
pub(super) fn measure(
    bits: usize,
    n: &Num,
    x: &Num,
    backends: &[&str],
    openssl: bool,
    clock: Option<&Clock>,
    seconds: f64,
) -> anyhow::Result<Vec<Kernel>> {
    let mut out = Vec::new();
    if backends.contains(&"scalar") {
        out.push(scalar(bits, n, x, clock, seconds)?);
    }
    #[cfg(target_arch = "x86_64")]
    if backends.contains(&"ifma")
        && let Some(k) = redc::engine::ifma::Ifma::detect()
    {
        for layout in redc::engine::ifma::Layout::ALL {
            if let Some(kernel) = ifma(k, layout, bits, n, x, clock, seconds)? {
                out.push(kernel);
            }
        }
    }
    #[cfg(feature = "openssl4")]
    if openssl {
        let (product, square) = super::openssl4::montgomery_rates(n, x, seconds)?;
        out.push(Kernel {
            bits,
            name: OPENSSL4.to_owned(),
            numbers: 1,
            wide: false,
            ns: [1e9 / product, 1e9 / square],
            limit: None,
        });
    }
    #[cfg(not(feature = "openssl4"))]
    let _ = openssl;
    Ok(out)
}

/// redc's scalar kernel ([`Domain::mul_assign`], [`Domain::sqr_assign`]),
/// each call on the previous result in place, as `BN_mod_mul_montgomery`
/// writes into its result.
fn scalar(bits: usize, n: &Num, x: &Num, clock: Option<&Clock>, seconds: f64) -> anyhow::Result<Kernel> {
    enum M {}
    let d = Domain::<M>::public(n).map_err(|e| anyhow!("{e}"))?;
    let b = d.enter(&SecretNat::from_nat(x, d.len()).context("an input is longer than n")?);
    let mut a = b.clone();
    d.mul_assign(&mut a, &b);
    d.sqr_assign(&mut a);
    let want = modpow(x, &Num::from_u64(4), n, PowOptions::default(), None).map_err(|e| anyhow!("{e}"))?;
    if d.leave(&a).reveal() != want {
        return Err(anyhow!("redc's scalar product is wrong at {bits} bits"));
    }
    let product = rate(seconds, CHAIN, || {
        for _ in 0..CHAIN {
            d.mul_assign(&mut a, &b);
        }
        Ok(())
    })?;
    let square = rate(seconds, CHAIN, || {
        for _ in 0..CHAIN {
            d.sqr_assign(&mut a);
        }
        Ok(())
    })?;
    std::hint::black_box(&a);
    let mulx = adx();
    let (p, s) = d.multiplies();
    Ok(Kernel {
        bits,
        name: format!("redc scalar{}", if mulx { " (mulx)" } else { "" }),
        numbers: 1,
        wide: false,
        ns: [1e9 / product, 1e9 / square],
        limit: clock.and_then(|c| c.mulx).filter(|_| mulx).map(|m| ([p, s], m)),
    })
}

/// Whether the scalar kernel runs on `mulx`, `adcx` and `adox`.
fn adx() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// One IFMA layout ([`redc::engine::ifma::Ifma::chain`]), or `None` when
/// it has no kernel for `n`'s class: time per product is that of a chain
/// of [`IFMA_CHAIN`] less that of a chain of none, over [`IFMA_CHAIN`].
#[cfg(target_arch = "x86_64")]
fn ifma(
    k: redc::engine::ifma::Ifma,
    layout: redc::engine::ifma::Layout,
    bits: usize,
    n: &Num,
    x: &Num,
    clock: Option<&Clock>,
    seconds: f64,
) -> anyhow::Result<Option<Kernel>> {
    use redc::Backend as _;
    let Some(class) = k.class(n.bits()).filter(|&d| layout.takes(d)) else {
        return Ok(None);
    };
    let chain = |count: usize, square: bool| {
        k.chain(layout, &[(n, x)], count, square)
            .ok_or_else(|| anyhow!("the IFMA {} kernel refused a {bits}-bit modulus", layout.name()))
    };
    for (square, exp) in [(false, Num::from_u64(4)), (true, Num::from_u64(8))] {
        let want = modpow(x, &exp, n, PowOptions::default(), None).map_err(|e| anyhow!("{e}"))?;
        if chain(3, square)? != [want] {
            return Err(anyhow!("the IFMA {} kernel is wrong at {bits} bits", layout.name()));
        }
    }
    let mut ns = [0.0; 2];
    for (i, square) in [false, true].into_iter().enumerate() {
        let call = |count: usize, seconds: f64| -> anyhow::Result<f64> {
            let r = rate(seconds, 1, || {
                chain(count, square).map(|y| drop(std::hint::black_box(y)))
            })?;
            Ok(1e9 / r)
        };
        let (long, none) = (call(IFMA_CHAIN, seconds)?, call(0, seconds / 2.0)?);
        anyhow::ensure!(
            long > none,
            "the IFMA {} chain at {bits} bits took no longer than its fixed cost: the machine is too noisy",
            layout.name()
        );
        ns[i] = (long - none) / IFMA_CHAIN as f64;
    }
    let madds = [layout.madds(class), layout.square_madds(class)];
    let per_cycle = clock.and_then(|c| {
        if layout.vector_bits() == 512 {
            c.madd512
        } else {
            c.madd256
        }
    });
    Ok(Some(Kernel {
        bits,
        name: format!("redc ifma {}", layout.name()),
        numbers: layout.numbers(),
        wide: layout.vector_bits() == 512,
        ns,
        limit: per_cycle.map(|m| (madds, m)),
    }))
}
