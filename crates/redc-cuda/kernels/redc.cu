// The batched modular exponentiation kernels: redc_pow_t{T}_n{N}_{s|p}.
//
// One job per group of T consecutive threads of the 1-D grid (thread g serves
// job g / T with rank g % T). Every operand is little-endian u32 digits, job
// after job, as redc's DeviceBatch. Pre: blockDim.x is a multiple of 32 and
// of T; per job n odd, 3 <= n < 2^(32N), base < n, n0inv = -n^-1 mod 2^32,
// r2 = 2^(64N) mod n, e < 2^exp_bits, exp_bits <= 32 * exp_words. Post:
// out[job * N ..] = base^e mod n < n for every job < count. Groups past the
// last job compute on job count - 1 (so the warp's shuffles stay uniform) and
// write nothing. `_s` kernels (secret exponents and bases) run a fixed number
// of windows and never branch or index memory on secrets; `_p` may do both.
#ifndef REDC_CU
#define REDC_CU

#include "exp.cuh"
#include "mont_coop.cuh"
#include "mont_thread.cuh"

/// The schedule of T threads per number.
template <int T, int N>
struct ScheduleOf {
    typedef Coop<T, N> type;
};
template <int N>
struct ScheduleOf<1, N> {
    typedef Single<N> type;
};

template <int K>
__device__ __forceinline__ void load(Digits<K>& x, const u32* from) {
    for (int j = 0; j < K; ++j) x.d[j] = from[j];
}

template <int T, int N, bool SECRET>
__device__ __forceinline__ void pow_entry(const u32* modulus, const u32* n0inv, const u32* r2, const u32* base,
                                          const u32* exp, u32* out, u32 count, u32 exp_words, u32 exp_bits) {
    typedef typename ScheduleOf<T, N>::type S;
    const u32 g = blockIdx.x * blockDim.x + threadIdx.x;
    const bool live = g / T < count;
    const u64 job = live ? g / T : count - 1;
    const u64 at = job * N + (g % T) * S::K;
    Digits<S::K> n, r, b, x;
    load(n, modulus + at);
    load(r, r2 + at);
    load(b, base + at);
    const u32* e = exp + job * exp_words;
    if (SECRET) {
        pow_secret<S>(x, b, r, n, n0inv[job], e, exp_bits);
    } else {
        pow_public<S>(x, b, r, n, n0inv[job], e, exp_bits);
    }
    if (live) {
        for (int j = 0; j < S::K; ++j) out[at + j] = x.d[j];
    }
}

#define REDC_KERNEL(T, N, SUFFIX, SECRET)                                                                    \
    extern "C" __global__ void redc_pow_t##T##_n##N##_##SUFFIX(const u32* modulus, const u32* n0inv,       \
                                                              const u32* r2, const u32* base, const u32* exp, \
                                                              u32* out, u32 count, u32 exp_words,           \
                                                              u32 exp_bits) {                               \
        pow_entry<T, N, SECRET>(modulus, n0inv, r2, base, exp, out, count, exp_words, exp_bits);           \
    }

/// Both kernels of one (T, N): N % T == 0, T in {1, 4, 8, 16, 32}.
#define REDC_ENTRY(T, N)            \
    REDC_KERNEL(T, N, s, true)      \
    REDC_KERNEL(T, N, p, false)

#ifndef REDC_CUSTOM_ENTRIES
#include "entries.cuh"
#endif

#endif
