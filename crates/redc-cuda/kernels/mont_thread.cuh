// Montgomery product and squaring with one thread per number (T = 1).
//
// CIOS, Coarsely Integrated Operand Scanning (Koc, Acar, Kaliski, "Analyzing
// and comparing Montgomery multiplication algorithms", IEEE Micro 1996; the
// schedule 000_be478b6750af4540.txt section 2.2 calls the most efficient):
// one row t += a * b[i], then one reduction row t = (t + q * n) / 2^32 with
// q = t[0] * n0 mod 2^32, so t never exceeds N + 2 digits. The squaring
// computes each a[i] * a[j] (i < j) once, doubles, adds the diagonal, then
// runs the N reduction rows of SOS (separated operand scanning, same paper).
//
// Common contract: N digits, R = 2^(32 N), n odd and < R, n0 = -n^-1 mod
// 2^32, a, b < n. Result r = a * b * R^-1 mod n, fully reduced (< n); r may
// alias a or b. The digit loops have fixed bounds: the time depends on N only.
#ifndef REDC_MONT_THREAD_CUH
#define REDC_MONT_THREAD_CUH

#include "arith.cuh"

/// r = t + top * R reduced once by n, by a mask. Pre: t + top * R < 2n.
template <int N>
__device__ __forceinline__ void subtract_once(Digits<N>& r, const Digits<N>& t, u32 top, const Digits<N>& n) {
    Digits<N> d;
    u32 borrow = sub_digits(d, t, n, 0);
    pick(r, mask_of(top | (borrow ^ 1u)), d, t);
}

/// CIOS: 2 N^2 + N products (N^2 for a * b, N^2 + N for the reduction).
template <int N>
__device__ void mont_mul_thread(Digits<N>& r, const Digits<N>& a, const Digits<N>& b, const Digits<N>& n, u32 n0) {
    Digits<N> t;
    for (int j = 0; j < N; ++j) t.d[j] = 0;
    u32 hi = 0;  // digit N of t (at most 1 between rows)
    for (int i = 0; i < N; ++i) {
        u64 c = 0;
        for (int j = 0; j < N; ++j) {
            c = mul_wide(a.d[j], b.d[i]) + t.d[j] + (c >> 32);
            t.d[j] = (u32)c;
        }
        u64 top = (u64)hi + (c >> 32);
        u32 q = mul_lo(t.d[0], n0);
        c = mul_wide(q, n.d[0]) + t.d[0];  // low word is zero by the choice of q
        for (int j = 1; j < N; ++j) {
            c = mul_wide(q, n.d[j]) + t.d[j] + (c >> 32);
            t.d[j - 1] = (u32)c;
        }
        top += c >> 32;
        t.d[N - 1] = (u32)top;
        hi = (u32)(top >> 32);
    }
    subtract_once(r, t, hi, n);  // t < 2n since a * b < n * R
}

/// Dedicated squaring: N(N-1)/2 + N products for a^2, N^2 + N for the
/// reduction, N^2 + 2N + N(N-1)/2 in all (against 2 N^2 + N for mont_mul).
template <int N>
__device__ void mont_sqr_thread(Digits<N>& r, const Digits<N>& a, const Digits<N>& n, u32 n0) {
    u32 t[2 * N];
    for (int k = 0; k < 2 * N; ++k) t[k] = 0;
    // Off-diagonal products a[i] * a[j], i < j, each once.
    for (int i = 0; i < N; ++i) {
        u64 c = 0;
        for (int j = i + 1; j < N; ++j) {
            c = mul_wide(a.d[i], a.d[j]) + t[i + j] + (c >> 32);
            t[i + j] = (u32)c;
        }
        t[i + N] = (u32)(c >> 32);
    }
    // Double them (their sum is below R^2 / 2, so no bit leaves the top).
    for (int k = 2 * N - 1; k > 0; --k) t[k] = (t[k] << 1) | (t[k - 1] >> 31);
    t[0] <<= 1;
    // Add the diagonal a[i]^2 at digit 2i (the total a^2 < R^2 fits).
    u64 c = 0;
    for (int i = 0; i < N; ++i) {
        c = mul_wide(a.d[i], a.d[i]) + t[2 * i] + (c >> 32);
        t[2 * i] = (u32)c;
        c = (u64)t[2 * i + 1] + (c >> 32);
        t[2 * i + 1] = (u32)c;
    }
    // Montgomery reduction, one row per low digit; `top` is digit 2N.
    u32 top = 0;
    for (int i = 0; i < N; ++i) {
        u32 q = mul_lo(t[i], n0);
        c = 0;
        for (int j = 0; j < N; ++j) {
            c = mul_wide(q, n.d[j]) + t[i + j] + (c >> 32);
            t[i + j] = (u32)c;
        }
        u64 s = (u64)t[i + N] + (c >> 32) + top;
        t[i + N] = (u32)s;
        top = (u32)(s >> 32);
    }
    Digits<N> high;
    for (int j = 0; j < N; ++j) high.d[j] = t[N + j];
    subtract_once(r, high, top, n);  // (a^2 + q n) / R < 2n
}

/// The one-thread schedule as seen by exp.cuh.
template <int N>
struct Single {
    static const int K = N;
    static __device__ void mul(Digits<K>& r, const Digits<K>& a, const Digits<K>& b, const Digits<K>& n, u32 n0) {
        mont_mul_thread<N>(r, a, b, n, n0);
    }
    static __device__ void sqr(Digits<K>& r, const Digits<K>& a, const Digits<K>& n, u32 n0) {
        mont_sqr_thread<N>(r, a, n, n0);
    }
    /// A decision shared by every thread that must take it together: here, one.
    static __device__ bool any(u32 pred) { return pred != 0; }
    /// This thread's digits of 1.
    static __device__ void one(Digits<K>& x) {
        for (int j = 0; j < K; ++j) x.d[j] = 0;
        x.d[0] = 1;
    }
};

#endif
