//! The Jacobi symbol `(a/n)`: Bernstein and Yang's divsteps in the
//! "positive" form libsecp256k1 uses for its Jacobi symbol (f and g stay
//! non-negative; each step halves g, or swaps the two and adds a multiple
//! of f to g, with the sign changes of the second supplement and of
//! quadratic reciprocity read off their low bits), 62 steps at a time from
//! the low 64 bits of f and g and then applied to the whole numbers as a
//! 2×2 matrix on 62-bit limbs. Every decision depends on low bits only, so
//! a batch is exact. The form has no proven step bound: after six steps per
//! bit without reaching `f = 1`, or when `gcd(a, n) > 1`, the answer comes
//! from Euclid's algorithm (Cohen, *A Course in Computational Algebraic
//! Number Theory*, Alg. 1.4.10, with Euclid's remainder in place of
//! subtraction), tens of times slower.
//!
//! For a prime `p` it is the Legendre symbol, and Euler's criterion makes it
//! equal to `a^((p-1)/2) mod p`: for a safe prime `p = 2q + 1`, `(y/p) = 1`
//! exactly when `y^q = 1 (mod p)`, the subgroup check of SP 800-56A
//! §5.6.2.3.1 step 3, for a few divisions instead of a full exponentiation.
//! Variable-time: for public values only (a peer's public key).

use redc::Nat;

/// `(a/n)` for an odd `n >= 3`: `1`, `-1`, or `0` when `gcd(a, n) > 1`.
/// `None` when `n` is even or below 3.
pub fn jacobi(a: &Nat<u64>, n: &Nat<u64>) -> Option<i8> {
    if !n.is_odd() || n.bits() < 2 {
        return None;
    }
    let a = a.rem(n)?;
    if a.is_zero() {
        return Some(0);
    }
    divsteps(&a, n).or_else(|| euclid(&a, n))
}

/// The low 62 bits of every limb.
const M62: u64 = u64::MAX >> 2;

/// `x` as `len` limbs of 62 bits, little-endian.
fn limbs62(x: &Nat<u64>, len: usize) -> Vec<i64> {
    let digit = |j: usize| x.digits().get(j).copied().unwrap_or(0);
    (0..len)
        .map(|i| {
            let (word, shift) = (62 * i / 64, 62 * i % 64);
            let bits = match shift {
                0 => digit(word),
                s => (digit(word) >> s) | (digit(word + 1) << (64 - s)),
            };
            (bits & M62) as i64
        })
        .collect()
}

/// The matrix of 62 steps, scaled by 2^62: `[f, g] <- [u f + v g, q f + r g] / 2^62`.
struct Matrix {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// 62 positive divsteps on the low 64 bits of `f` (odd) and `g`, from
/// `eta` (minus Bernstein and Yang's delta): the new `eta` and the matrix;
/// bit 0 of `jac` flips each time the symbol `(g/f)` changes sign.
fn steps62(mut eta: i64, f0: u64, g0: u64, jac: &mut u32) -> (i64, Matrix) {
    let (mut u, mut v, mut q, mut r) = (1u64, 0u64, 0u64, 1u64);
    let (mut f, mut g) = (f0, g0);
    let mut left = 62u32;
    loop {
        // Halve g as often as it is even (up to the steps left): u and v
        // double, as the matrix is scaled by the steps done.
        let zeros = (g | (u64::MAX << left)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= i64::from(zeros);
        left -= zeros;
        // (2/f) = -1 for f = 3 or 5 mod 8: an odd number of halvings flips.
        *jac ^= zeros & ((f >> 1) ^ (f >> 2)) as u32;
        if left == 0 {
            break;
        }
        let (mask, w) = if eta < 0 {
            eta = -eta;
            core::mem::swap(&mut f, &mut g);
            core::mem::swap(&mut u, &mut q);
            core::mem::swap(&mut v, &mut r);
            // Reciprocity: both 3 mod 4 flips the sign.
            *jac ^= ((f & g) >> 1) as u32;
            let limit = (eta + 1).min(i64::from(left)) as u32;
            let mask = (u64::MAX >> (64 - limit)) & 63;
            // w = -g/f mod 64, as f^-1 = f (2 - f^2) mod 64 for odd f.
            (
                mask,
                f.wrapping_mul(g).wrapping_mul(f.wrapping_mul(f).wrapping_sub(2)) & mask,
            )
        } else {
            let limit = (eta + 1).min(i64::from(left)) as u32;
            let mask = (u64::MAX >> (64 - limit)) & 15;
            let inv = f.wrapping_add((f.wrapping_add(1) & 4) << 1);
            (mask, inv.wrapping_neg().wrapping_mul(g) & mask)
        };
        // Adding w f to g leaves (g/f) as it is and clears g's low bits.
        g = g.wrapping_add(f.wrapping_mul(w));
        q = q.wrapping_add(u.wrapping_mul(w));
        r = r.wrapping_add(v.wrapping_mul(w));
        debug_assert_eq!(g & mask, 0);
    }
    let m = Matrix {
        u: u as i64,
        v: v as i64,
        q: q as i64,
        r: r as i64,
    };
    (eta, m)
}

/// `[f, g] <- M [f, g] / 2^62` on the first `len` limbs (exact: the low 62
/// bits of both products are zero).
fn apply(len: usize, f: &mut [i64], g: &mut [i64], m: &Matrix) {
    let (mut cf, mut cg) = (0i128, 0i128);
    for i in 0..len {
        let (fi, gi) = (i128::from(f[i]), i128::from(g[i]));
        cf += i128::from(m.u) * fi + i128::from(m.v) * gi;
        cg += i128::from(m.q) * fi + i128::from(m.r) * gi;
        if i > 0 {
            f[i - 1] = (cf as u64 & M62) as i64;
            g[i - 1] = (cg as u64 & M62) as i64;
        } else {
            debug_assert_eq!((cf as u64 & M62, cg as u64 & M62), (0, 0));
        }
        cf >>= 62;
        cg >>= 62;
    }
    f[len - 1] = cf as i64;
    g[len - 1] = cg as i64;
}

/// `(a/n)` by batched positive divsteps for `0 < a < n`, `n` odd; `None`
/// when `f = 1` is not reached within six steps per bit (never seen for
/// coprime inputs, and always so when `gcd(a, n) > 1`).
fn divsteps(a: &Nat<u64>, n: &Nat<u64>) -> Option<i8> {
    let mut len = n.bits().div_ceil(62) + 1;
    let (mut f, mut g) = (limbs62(n, len), limbs62(a, len));
    let (mut eta, mut jac) = (-1i64, 0u32);
    let low = |x: &[i64], len: usize| x[0] as u64 | (if len > 1 { (x[1] as u64) << 62 } else { 0 });
    for _ in 0..(6 * n.bits()).div_ceil(62) + 4 {
        let m;
        (eta, m) = steps62(eta, low(&f, len), low(&g, len), &mut jac);
        apply(len, &mut f, &mut g, &m);
        if f[0] == 1 && f[1..len].iter().all(|&x| x == 0) {
            // f = 1: (g/1) = 1, and the sign is what the steps collected.
            return Some(if jac & 1 == 0 { 1 } else { -1 });
        }
        if len > 1 && f[len - 1] == 0 && g[len - 1] == 0 {
            len -= 1;
        }
    }
    None
}

/// `(a/n)` by Euclid's remainders (module docs), for `a < n`, `n` odd.
fn euclid(a: &Nat<u64>, n: &Nat<u64>) -> Option<i8> {
    let mut n = n.clone();
    let mut a = a.clone();
    let mut t = 1i8;
    while let Some(z) = a.trailing_zeros() {
        a = a.shr(z);
        let n8 = n.digits()[0] & 7;
        // (2/n) = -1 exactly when n = 3 or 5 (mod 8).
        if z % 2 == 1 && (n8 == 3 || n8 == 5) {
            t = -t;
        }
        // Quadratic reciprocity for odd a, n: a sign change when both are 3 mod 4.
        if a.digits()[0] & 3 == 3 && n8 & 3 == 3 {
            t = -t;
        }
        core::mem::swap(&mut a, &mut n);
        a = a.rem(&n)?;
    }
    Some(if n.is_one() { t } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Euler's criterion on small primes, every residue: the symbol against
    /// `a^((p-1)/2) mod p` by repeated multiplication.
    #[test]
    fn legendre_symbol_is_eulers_criterion_for_small_primes() {
        for p in [3u64, 5, 7, 11, 13, 17, 19, 23, 101, 103, 65537] {
            for a in 0..p.min(400) {
                let mut e = 1u64;
                for _ in 0..(p - 1) / 2 {
                    e = e * a % p;
                }
                let want = match e {
                    0 => 0,
                    1 => 1,
                    _ => -1,
                };
                assert_eq!(jacobi(&Nat::from_u64(a), &Nat::from_u64(p)), Some(want), "({a}/{p})");
            }
        }
    }

    /// The Jacobi symbol is multiplicative in n: (a/15) = (a/3)(a/5).
    #[test]
    fn jacobi_symbol_of_a_composite_is_the_product_over_its_factors() {
        for a in 0..60u64 {
            let a = Nat::from_u64(a);
            let [j3, j5, j15] = [3u64, 5, 15].map(|n| jacobi(&a, &Nat::from_u64(n)).unwrap());
            assert_eq!(j15, j3 * j5);
        }
    }

    /// The divsteps against Euclid's algorithm and Euler's criterion on
    /// random 2048-bit values modulo ffdhe2048's prime, and against Euclid
    /// on random odd moduli of many sizes (composite ones included, where
    /// common factors send the divsteps to Euclid).
    #[test]
    fn divsteps_agree_with_euclid_and_euler() {
        use rand_core::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6979);
        let mut random = |bits: usize| {
            let mut bytes = vec![0u8; bits.div_ceil(8)];
            rng.fill_bytes(&mut bytes);
            Nat::from_be_bytes(&bytes).low_bits(bits)
        };
        let group = crate::Group::Ffdhe2048.params();
        let (p, q) = (group.p.n(), &group.q);
        let (mut plus, mut minus) = (0, 0);
        for _ in 0..40 {
            let a = random(2048).rem(p).unwrap();
            let d = group.p.domain();
            let euler = d.leave(&d.pow_vartime(&d.enter(&redc::SecretNat::from_nat(&a, d.len()).unwrap()), q));
            let want = if euler.reveal().is_one() { 1 } else { -1 };
            assert_eq!(divsteps(&a, p), Some(want));
            assert_eq!(euclid(&a, p), Some(want));
            if want == 1 { plus += 1 } else { minus += 1 }
        }
        assert!(plus > 5 && minus > 5, "{plus} / {minus}");
        for bits in [2usize, 3, 62, 63, 64, 65, 124, 127, 128, 300, 1000] {
            for _ in 0..20 {
                let n = random(bits).add(&Nat::pow2(bits)).shl(1).add(&Nat::one());
                let a = random(bits + 8).rem(&n).unwrap();
                let want = euclid(&a, &n);
                assert_eq!(jacobi(&a, &n), want, "({a:?}/{n:?})");
                if want != Some(0) && !a.is_zero() {
                    assert_eq!(divsteps(&a, &n), want, "({a:?}/{n:?})");
                }
            }
        }
    }

    #[test]
    fn even_or_tiny_moduli_are_refused() {
        for n in [0u64, 1, 2, 4, 10] {
            assert_eq!(jacobi(&Nat::from_u64(3), &Nat::from_u64(n)), None);
        }
    }
}
