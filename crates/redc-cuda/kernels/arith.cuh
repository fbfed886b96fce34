// Word arithmetic: the one 32x32->64 product and branch-free digit chains.
//
// Every digit product of the kernels goes through mul_wide, so the host
// build (host/shim.h defines REDC_COUNT_MUL) counts them exactly; on the GPU
// the hook is empty. Nothing here branches on data: masks select values.
#ifndef REDC_ARITH_CUH
#define REDC_ARITH_CUH

#include "types.cuh"

#ifndef REDC_COUNT_MUL
#define REDC_COUNT_MUL()
#endif

/// a * b as a full 64-bit product (the only multiplication of the kernels).
__device__ __forceinline__ u64 mul_wide(u32 a, u32 b) {
    REDC_COUNT_MUL();
    return (u64)a * b;
}

/// a * b mod 2^32 (a low-half product, counted like any other).
__device__ __forceinline__ u32 mul_lo(u32 a, u32 b) { return (u32)mul_wide(a, b); }

// Carry chains: the PTX instructions that read and write the carry flag
// (`mad.lo.cc`, `madc.hi.cc`, `addc`...), so that a digit product costs two
// multiply-adds and no separate additions. On the GPU each is one inline
// `asm volatile` statement (kept in order, so the flag passes from one to
// the next); in the host build the flag is a variable of the OS thread
// (shim.h), which a chain may use because no chain spans a shuffle or a
// ballot (the only points where the host build switches threads). A digit
// product is counted at its low half: every product of a chain has exactly
// one low and one high half.
#ifdef __CUDA_ARCH__
#define REDC_CC_OP(name, ptx)                                                        \
    __device__ __forceinline__ u32 name(u32 a, u32 b, u32 c) {                      \
        u32 r;                                                                       \
        asm volatile(ptx " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));   \
        return r;                                                                    \
    }
#define REDC_CC_ADD(name, ptx)                                                       \
    __device__ __forceinline__ u32 name(u32 a, u32 b) {                              \
        u32 r;                                                                       \
        asm volatile(ptx " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));               \
        return r;                                                                    \
    }
REDC_CC_OP(mad_lo_cc_raw, "mad.lo.cc.u32")
REDC_CC_OP(madc_lo_cc_raw, "madc.lo.cc.u32")
REDC_CC_OP(mad_hi_cc, "mad.hi.cc.u32")
REDC_CC_OP(madc_hi_cc, "madc.hi.cc.u32")
REDC_CC_ADD(add_cc, "add.cc.u32")
REDC_CC_ADD(addc_cc, "addc.cc.u32")
REDC_CC_ADD(addc, "addc.u32")
#undef REDC_CC_OP
#undef REDC_CC_ADD
#else
/// Sets the host build's carry flag from a sum of at most 2^33 - 1.
__device__ __forceinline__ u32 redc_cc_set(u64 s, bool set) {
    if (set) redc_sim_carry = (u32)(s >> 32);
    return (u32)s;
}
__device__ __forceinline__ u32 mad_lo_cc_raw(u32 a, u32 b, u32 c) {
    return redc_cc_set((u64)(u32)((u64)a * b) + c, true);
}
__device__ __forceinline__ u32 madc_lo_cc_raw(u32 a, u32 b, u32 c) {
    return redc_cc_set((u64)(u32)((u64)a * b) + c + redc_sim_carry, true);
}
__device__ __forceinline__ u32 mad_hi_cc(u32 a, u32 b, u32 c) {
    return redc_cc_set((((u64)a * b) >> 32) + c, true);
}
__device__ __forceinline__ u32 madc_hi_cc(u32 a, u32 b, u32 c) {
    return redc_cc_set((((u64)a * b) >> 32) + c + redc_sim_carry, true);
}
__device__ __forceinline__ u32 add_cc(u32 a, u32 b) { return redc_cc_set((u64)a + b, true); }
__device__ __forceinline__ u32 addc_cc(u32 a, u32 b) { return redc_cc_set((u64)a + b + redc_sim_carry, true); }
__device__ __forceinline__ u32 addc(u32 a, u32 b) { return redc_cc_set((u64)a + b + redc_sim_carry, false); }
#endif

/// lo(a * b) + c, carry out to the flag (counted as one digit product).
__device__ __forceinline__ u32 mad_lo_cc(u32 a, u32 b, u32 c) {
    REDC_COUNT_MUL();
    return mad_lo_cc_raw(a, b, c);
}

/// lo(a * b) + c + carry, carry out to the flag (counted as one digit product).
__device__ __forceinline__ u32 madc_lo_cc(u32 a, u32 b, u32 c) {
    REDC_COUNT_MUL();
    return madc_lo_cc_raw(a, b, c);
}

/// All ones when bit = 1, zero when bit = 0. Pre: bit is 0 or 1.
__device__ __forceinline__ u32 mask_of(u32 bit) { return 0u - bit; }

/// 1 when x == y, else 0, without a branch.
__device__ __forceinline__ u32 eq_bit(u32 x, u32 y) {
    u32 z = x ^ y;
    return ((z | (0u - z)) >> 31) ^ 1u;
}

/// r = mask ? a : b digit by digit. Pre: mask is all ones or zero; r may alias a or b.
template <int K>
__device__ __forceinline__ void pick(Digits<K>& r, u32 mask, const Digits<K>& a, const Digits<K>& b) {
    for (int j = 0; j < K; ++j) r.d[j] = (a.d[j] & mask) | (b.d[j] & ~mask);
}

/// x += c; returns the carry out (0 or 1). Pre: c < 2^32.
template <int K>
__device__ __forceinline__ u32 add_word(Digits<K>& x, u32 c) {
    for (int j = 0; j < K; ++j) {
        u64 s = (u64)x.d[j] + c;
        x.d[j] = (u32)s;
        c = (u32)(s >> 32);
    }
    return c;
}

/// d = x - y - borrow; returns the borrow out (0 or 1). Pre: borrow is 0 or 1.
template <int K>
__device__ __forceinline__ u32 sub_digits(Digits<K>& d, const Digits<K>& x, const Digits<K>& y, u32 borrow) {
    for (int j = 0; j < K; ++j) {
        u64 s = (u64)x.d[j] - y.d[j] - borrow;
        d.d[j] = (u32)s;
        borrow = (u32)(s >> 63);
    }
    return borrow;
}

/// 1 when every digit of x equals y's, else 0 (no early exit).
template <int K>
__device__ __forceinline__ u32 equal_digits(const Digits<K>& x, const Digits<K>& y) {
    u32 diff = 0;
    for (int j = 0; j < K; ++j) diff |= x.d[j] ^ y.d[j];
    return eq_bit(diff, 0);
}

/// 1 when every digit of x is 0xffffffff (a carry in would pass through).
template <int K>
__device__ __forceinline__ u32 all_ones(const Digits<K>& x) {
    u32 all = 0xffffffffu;
    for (int j = 0; j < K; ++j) all &= x.d[j];
    return eq_bit(all, 0xffffffffu);
}

#endif
