// Fixed-width digits shared by the device and the host build.
//
// NVRTC has no <cstdint>, hence the typedefs. A number of N 32-bit digits is
// held little-endian in registers; a thread of a T-thread group holds the
// K = N / T consecutive digits starting at rank * K (Digits<K>).
#ifndef REDC_TYPES_CUH
#define REDC_TYPES_CUH

typedef unsigned int u32;
typedef unsigned long long u64;

/// K little-endian 32-bit digits, copyable as a value (tables, temporaries).
template <int K>
struct Digits {
    u32 d[K];
};

#endif
