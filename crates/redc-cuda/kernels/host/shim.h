// The CUDA names the kernels use, for a host build (g++): the threads of a
// warp are cooperative fibers on one OS thread (host/sim.cpp), switched at
// every shuffle and ballot, so warp-synchronous code runs unchanged.
//
// Only what the kernels need is here: no shared memory and no __syncthreads
// (the warps of a block never talk to each other), so sim.cpp runs the warps
// of a block one after another. A shuffle or ballot writes this lane's value
// into an exchange slot, yields to the other lanes of the warp, then reads;
// the slots alternate between two buffers, so one yield per call suffices.
#ifndef REDC_HOST_SHIM_H
#define REDC_HOST_SHIM_H

#define __global__
#define __device__
#define __forceinline__ inline

struct SimDim3 {
    unsigned x, y, z;
};

/// Set by the scheduler before each switch into a fiber.
extern thread_local SimDim3 threadIdx, blockIdx, blockDim, gridDim;

/// 32x32->64 products counted on this OS thread (every fiber of it).
extern thread_local unsigned long long redc_sim_mul_count;
#define REDC_COUNT_MUL() (++redc_sim_mul_count)

/// The carry flag of the carry-chain instructions (arith.cuh), 0 or 1.
extern thread_local unsigned redc_sim_carry;

unsigned __shfl_sync(unsigned mask, unsigned var, int src_lane, int width = 32);
unsigned __shfl_down_sync(unsigned mask, unsigned var, unsigned delta, int width = 32);
unsigned __shfl_up_sync(unsigned mask, unsigned var, unsigned delta, int width = 32);
unsigned __ballot_sync(unsigned mask, int predicate);

#endif
