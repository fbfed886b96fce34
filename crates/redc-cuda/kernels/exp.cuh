// Left-to-right exponentiation over a Montgomery schedule S (Single<N> or
// Coop<T, N>): S::K digits per thread, S::mul, S::sqr, S::any, S::one.
//
// Both functions take the job's modulus n (odd, < R = 2^(32N)), n0 = -n^-1 mod
// 2^32, r2 = R^2 mod n, base < n and the exponent words e, and return
// base^e mod n < n (1 mod n for e = 0). Into the Montgomery domain with
// mont(base, r2), out with mont(x, 1).
#ifndef REDC_EXP_CUH
#define REDC_EXP_CUH

#include "arith.cuh"

/// Bits per window of the secret exponentiation (it divides 32, so no window
/// straddles two exponent words).
constexpr int WINDOW = 4;
constexpr int TABLE = 1 << WINDOW;

/// `bits` bits of e starting at bit `at` (public position). Pre: they lie in one word.
__device__ __forceinline__ u32 exp_bits_at(const u32* e, u32 at, u32 bits) {
    return (e[at / 32] >> (at % 32)) & ((1u << bits) - 1u);
}

/// x = table[index], reading every entry and keeping one by mask.
template <int K>
__device__ __forceinline__ void table_read(Digits<K>& x, const Digits<K> (&table)[TABLE], u32 index) {
    for (int j = 0; j < K; ++j) x.d[j] = 0;
    for (int k = 0; k < TABLE; ++k) {
        u32 mask = mask_of(eq_bit((u32)k, index));
        for (int j = 0; j < K; ++j) x.d[j] |= table[k].d[j] & mask;
    }
}

/// Fixed window, constant time: exactly ceil(exp_bits / WINDOW) windows
/// whatever e holds, table reads by mask. Pre: e < 2^exp_bits and
/// ceil(exp_bits / WINDOW) * WINDOW bits of e are readable.
/// Products: 17 mul + max(W - 1, 0) (WINDOW sqr + 1 mul), W = ceil(exp_bits / WINDOW).
template <class S>
__device__ void pow_secret(Digits<S::K>& out, const Digits<S::K>& base, const Digits<S::K>& r2,
                           const Digits<S::K>& n, u32 n0, const u32* e, u32 exp_bits) {
    Digits<S::K> one;
    S::one(one);
    Digits<S::K> table[TABLE];  // table[k] = base^k R mod n
    S::mul(table[0], r2, one, n, n0);
    S::mul(table[1], base, r2, n, n0);
    for (int k = 2; k < TABLE; ++k) S::mul(table[k], table[k - 1], table[1], n, n0);
    const u32 windows = (exp_bits + WINDOW - 1) / WINDOW;
    Digits<S::K> x = table[0];
    for (u32 w = windows; w-- > 0;) {
        Digits<S::K> y;
        table_read(y, table, exp_bits_at(e, w * WINDOW, WINDOW));
        if (w + 1 == windows) {
            x = y;
        } else {
            for (int s = 0; s < WINDOW; ++s) S::sqr(x, x, n, n0);
            S::mul(x, x, y, n, n0);
        }
    }
    S::mul(out, x, one, n, n0);
}

/// Left-to-right binary, variable time: squares from the exponent's top set
/// bit on, multiplies at its one bits (with a cooperative schedule, whenever
/// any group of the warp needs it, keeping the product only where needed).
/// Pre: e < 2^exp_bits, exp_bits <= 32 * exp_words.
/// Products (T = 1, or a warp whose exponents agree): 3 mul + (L - 1) sqr +
/// h mul for an exponent of L >= 1 bits with h ones; 3 mul for e = 0.
template <class S>
__device__ void pow_public(Digits<S::K>& out, const Digits<S::K>& base, const Digits<S::K>& r2,
                           const Digits<S::K>& n, u32 n0, const u32* e, u32 exp_bits) {
    Digits<S::K> one, b, x;
    S::one(one);
    S::mul(b, base, r2, n, n0);
    S::mul(x, r2, one, n, n0);
    u32 started = 0;
    for (u32 i = exp_bits; i-- > 0;) {
        const u32 bit = exp_bits_at(e, i, 1);
        if (S::any(started)) S::sqr(x, x, n, n0);
        if (S::any(bit)) {
            Digits<S::K> y;
            S::mul(y, x, b, n, n0);
            if (bit) x = y;
        }
        started |= bit;
    }
    S::mul(out, x, one, n, n0);
}

#endif
