// Montgomery product with T threads per number (T = 4, 8, 16 or 32).
//
// Thread `rank` of a group holds the K = N / T consecutive digits starting at
// rank * K of every operand. The schedule is CIOS (Koc, Acar, Kaliski,
// "Analyzing and comparing Montgomery multiplication algorithms", 1996),
// spread over the group the way 000_be478b6750af4540.txt section 4 spreads
// the digit products over the lanes of a dataflow pipeline. Step i:
//   1. b[i] is broadcast from its owner;
//   2. every thread adds a * b[i] to its digits: two carry chains (arith.cuh),
//      the low halves of the products at their digit and the high halves one
//      digit up, leaving at most two words above its top digit;
//   3. q = t[0] n0 mod 2^32 is broadcast from rank 0 and every thread adds
//      q * n the same way;
//   4. t shifts down one digit: each thread takes the lowest digit of the
//      thread above (__shfl_down_sync; the top thread takes 0) into its top
//      digit, together with the words above its own top digit and its carry
//      from the step before; what overflows that digit (at most 3) stays with
//      the thread as its carry: it stands for a carry into the thread above,
//      which that thread's lowest digit brings down with the next shift.
// After the last step each thread hands its carry up (__shfl_up_sync; the
// top thread's is digit N of t), and the carries are resolved with one
// integer addition over ballot masks (carry lookahead); the final
// subtraction uses the same lookahead for the borrow and a mask for the
// choice.
//
// Groups share a warp when T < 32: every shuffle has width T, every thread of
// the warp executes the same shuffles, and the top thread of each group keeps
// its generate/propagate bits out of the ballots so that no carry crosses
// into the next group. Squaring is this product with b = a (no dedicated
// cooperative squaring).
//
// Contract: as mont_thread.cuh (a, b < n odd < R = 2^(32N), n0 = -n^-1 mod
// 2^32; r = a b R^-1 mod n < n, may alias a or b), with every thread of the
// warp calling together. Products: N (2K + 1) per thread, N (2N + T) per group.
#ifndef REDC_MONT_COOP_CUH
#define REDC_MONT_COOP_CUH

#include "arith.cuh"

#define REDC_FULL_WARP 0xffffffffu

/// This thread's lane in its warp (blockDim.x is a multiple of 32).
__device__ __forceinline__ u32 lane_id() { return threadIdx.x & 31u; }

/// The carry (or borrow) into this thread from the ranks below it in its
/// group, given each thread's generate bit g (a carry leaves it by itself) and
/// propagate bit p (a carry entering it leaves it). Pre: the top thread of
/// each group passes g = p = 0. Lookahead by one addition: in G + (G | P), the
/// carry into bit k is bit k of (G + (G | P)) ^ G ^ (G | P).
__device__ __forceinline__ u32 carry_in(u32 g, u32 p) {
    u32 gen = __ballot_sync(REDC_FULL_WARP, g);
    u32 any = gen | __ballot_sync(REDC_FULL_WARP, p);
    u32 carries = (any + gen) ^ any ^ gen;
    return (carries >> lane_id()) & 1u;
}

/// w[0..K+1] += x * y[0..K-1] (w[K], w[K+1] take what rises above digit
/// K - 1): the low halves in one carry chain, the high halves one digit up in
/// a second. Pre: w[K + 1] + 2 < 2^32.
template <int K>
__device__ __forceinline__ void mad_row(u32 (&w)[K + 2], u32 x, const Digits<K>& y) {
    w[0] = mad_lo_cc(x, y.d[0], w[0]);
    for (int j = 1; j < K; ++j) w[j] = madc_lo_cc(x, y.d[j], w[j]);
    w[K] = addc_cc(w[K], 0);
    w[K + 1] = addc(w[K + 1], 0);
    w[1] = mad_hi_cc(x, y.d[0], w[1]);
    for (int j = 1; j < K; ++j) w[j + 1] = madc_hi_cc(x, y.d[j], w[j + 1]);
    w[K + 1] = addc(w[K + 1], 0);
}

template <int T, int N>
__device__ void mont_mul_coop(Digits<N / T>& r, const Digits<N / T>& a, const Digits<N / T>& b,
                              const Digits<N / T>& n, u32 n0) {
    const int K = N / T;
    const u32 rank = lane_id() % T;
    const u32 top = eq_bit(rank, T - 1);  // 1 on the group's top thread
    Digits<K> t;
    for (int j = 0; j < K; ++j) t.d[j] = 0;
    u32 hi = 0;  // this thread's carry (on the top thread: digit N of t)
#pragma unroll 1
    for (int owner = 0; owner < T; ++owner) {
        for (int k = 0; k < K; ++k) {
            u32 w[K + 2];
            for (int j = 0; j < K; ++j) w[j] = t.d[j];
            w[K] = 0;
            w[K + 1] = 0;
            mad_row<K>(w, __shfl_sync(REDC_FULL_WARP, b.d[k], owner, T), a);
            // Every thread computes a q; rank 0's t[0] is t's lowest digit.
            u32 q = __shfl_sync(REDC_FULL_WARP, mul_lo(w[0], n0), 0, T);
            mad_row<K>(w, q, n);
            u32 above = __shfl_down_sync(REDC_FULL_WARP, w[0], 1, T) & mask_of(top ^ 1u);
            for (int j = 0; j + 1 < K; ++j) t.d[j] = w[j + 1];
            t.d[K - 1] = add_cc(w[K], above);
            u32 c = addc(w[K + 1], 0);
            t.d[K - 1] = add_cc(t.d[K - 1], hi);
            hi = addc(c, 0);
        }
    }
    // The carries handed up: rank 0 receives nothing, the top thread keeps
    // its carry as digit N.
    u32 pending = __shfl_up_sync(REDC_FULL_WARP, hi, 1, T) & mask_of(eq_bit(rank, 0) ^ 1u);
    // Resolve the pending carries: t + pending (carry out g), then the carry
    // from below (the group's lookahead).
    u32 g = add_word(t, pending);
    u32 p = all_ones(t);
    hi += g & top;
    u32 cin = carry_in(g & ~top, p & ~top);
    hi += add_word(t, cin) & top;
    // Now t + hi R < 2n: subtract n once when t + hi R >= n.
    Digits<K> d;
    u32 bg = sub_digits(d, t, n, 0);
    u32 bp = equal_digits(t, n);
    u32 bin = carry_in(bg & ~top, bp & ~top);
    u32 borrow = sub_digits(d, t, n, bin);
    u32 take = __shfl_sync(REDC_FULL_WARP, hi | (borrow ^ 1u), T - 1, T);
    pick(r, mask_of(take & 1u), d, t);
}

/// The cooperative schedule as seen by exp.cuh.
template <int T, int N>
struct Coop {
    static const int K = N / T;
    static __device__ void mul(Digits<K>& r, const Digits<K>& a, const Digits<K>& b, const Digits<K>& n, u32 n0) {
        mont_mul_coop<T, N>(r, a, b, n, n0);
    }
    static __device__ void sqr(Digits<K>& r, const Digits<K>& a, const Digits<K>& n, u32 n0) {
        mont_mul_coop<T, N>(r, a, a, n, n0);
    }
    /// Whether any thread of the warp has pred set: the same answer in every
    /// lane, so all groups of a warp run the same products (public data only).
    static __device__ bool any(u32 pred) { return __ballot_sync(REDC_FULL_WARP, pred != 0) != 0; }
    /// This thread's digits of 1.
    static __device__ void one(Digits<K>& x) {
        for (int j = 0; j < K; ++j) x.d[j] = 0;
        x.d[0] = eq_bit(lane_id() % T, 0);
    }
};

#endif
