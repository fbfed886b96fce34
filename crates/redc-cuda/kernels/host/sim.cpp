// Host launcher of the kernels of ../redc.cu: runs a 1-D grid block by block
// and warp by warp; the 32 threads of a warp are fibers on this OS thread,
// switched round-robin at every shuffle and ballot (see shim.h).
//
// A fiber is started once through ucontext (makecontext/swapcontext) and then
// switched with _setjmp/_longjmp, which save no signal mask: swapcontext
// makes a system call per switch (measured on a 2-core x86-64: about 200 ns
// per switch against 15 ns). Divergence, some lanes of a
// warp finished while others wait at a shuffle or ballot, aborts the process
// with a message: on a GPU it would be undefined behaviour.
#undef _FORTIFY_SOURCE  // __longjmp_chk rejects jumps between fiber stacks
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include <vector>

#include "shim.h"

thread_local SimDim3 threadIdx, blockIdx, blockDim, gridDim;
thread_local unsigned long long redc_sim_mul_count;
thread_local unsigned redc_sim_carry;

#include "../redc.cu"

namespace {

const unsigned WARP = 32;
/// Stack per fiber: the largest kernel (T = 1, N = 128) keeps a 16-entry
/// table and a few numbers of 128 digits, about 12 KiB.
const size_t STACK_BYTES = 256 * 1024;

typedef void (*Kernel)(const u32*, const u32*, const u32*, const u32*, const u32*, u32*, u32, u32, u32);

struct Args {
    Kernel kernel;
    const u32 *modulus, *n0inv, *r2, *base, *exp;
    u32* out;
    u32 count, exp_words, exp_bits;
};

struct Fiber {
    ucontext_t start;
    jmp_buf resume;
    unsigned steps;  // shuffles and ballots passed
};

/// One warp in flight on this OS thread.
struct Warp {
    Fiber fibers[WARP];
    unsigned slots[2][WARP];  // exchange buffers, alternating per step
    unsigned current;         // the running lane
    unsigned first_thread;    // threadIdx.x of lane 0
    unsigned finished;
    ucontext_t home_start;
    jmp_buf home;
    const Args* args;
};

thread_local Warp* warp;

[[noreturn]] void diverged(const char* what) {
    fprintf(stderr, "redc-cuda-sim: warp divergence in block %u, lane %u: %s\n", blockIdx.x, warp->current, what);
    abort();
}

[[noreturn]] void enter(unsigned lane) {
    warp->current = lane;
    threadIdx.x = warp->first_thread + lane;
    _longjmp(warp->fibers[lane].resume, 1);
}

/// Runs the kernel once on this fiber's stack, then moves to the next lane.
void fiber_main() {
    Fiber& self = warp->fibers[warp->current];
    if (_setjmp(self.resume) == 0) swapcontext(&self.start, &warp->home_start);  // started; park
    const Args& a = *warp->args;
    a.kernel(a.modulus, a.n0inv, a.r2, a.base, a.exp, a.out, a.count, a.exp_words, a.exp_bits);
    Fiber& me = warp->fibers[warp->current];
    warp->finished += 1;
    for (unsigned l = 0; l < WARP; ++l) {
        if (warp->fibers[l].steps != me.steps) diverged("a lane exited while others wait at a shuffle");
    }
    if (warp->current + 1 < WARP) enter(warp->current + 1);
    _longjmp(warp->home, 1);
}

/// Passes control to the next lane; returns when every lane has reached the same point.
__attribute__((noinline)) void yield() {
    if (warp->finished != 0) diverged("a shuffle or ballot after other lanes exited");
    Fiber& self = warp->fibers[warp->current];
    self.steps += 1;
    if (_setjmp(self.resume) == 0) enter((warp->current + 1) % WARP);
}

/// Writes v to this lane's exchange slot, waits for the warp, returns lane `src`'s slot.
unsigned exchange(unsigned v, unsigned src) {
    unsigned* slot = warp->slots[warp->fibers[warp->current].steps & 1];
    slot[warp->current] = v;
    yield();
    return slot[src];
}

void run_warp(Warp& w, std::vector<char>& stacks) {
    warp = &w;
    w.finished = 0;
    for (unsigned l = 0; l < WARP; ++l) {
        Fiber& f = w.fibers[l];
        f.steps = 0;
        getcontext(&f.start);
        f.start.uc_stack.ss_sp = stacks.data() + l * STACK_BYTES;
        f.start.uc_stack.ss_size = STACK_BYTES;
        f.start.uc_link = nullptr;
        makecontext(&f.start, fiber_main, 0);
        w.current = l;
        swapcontext(&w.home_start, &f.start);  // returns once the fiber parked
    }
    if (_setjmp(w.home) == 0) enter(0);
}

}  // namespace

unsigned __shfl_sync(unsigned, unsigned var, int src_lane, int width) {
    unsigned lane = warp->current;
    return exchange(var, (lane & ~(width - 1u)) + (src_lane & (width - 1)));
}

unsigned __shfl_down_sync(unsigned, unsigned var, unsigned delta, int width) {
    unsigned lane = warp->current;
    unsigned src = (lane % width) + delta < (unsigned)width ? lane + delta : lane;
    return exchange(var, src);
}

unsigned __shfl_up_sync(unsigned, unsigned var, unsigned delta, int width) {
    unsigned lane = warp->current;
    unsigned src = lane % width >= delta ? lane - delta : lane;
    return exchange(var, src);
}

unsigned __ballot_sync(unsigned, int predicate) {
    unsigned* slot = warp->slots[warp->fibers[warp->current].steps & 1];
    slot[warp->current] = predicate != 0;
    yield();
    unsigned bits = 0;
    for (unsigned l = 0; l < WARP; ++l) bits |= slot[l] << l;
    return bits;
}

namespace {

struct Entry {
    unsigned threads, digits;
    Kernel secret, public_;
};

#undef REDC_ENTRY
#define REDC_ENTRY(T, N) {T, N, redc_pow_t##T##_n##N##_s, redc_pow_t##T##_n##N##_p},
const Entry ENTRIES[] = {
#include "../entries.cuh"
};

}  // namespace

/// Runs kernel redc_pow_t{threads}_n{digits}_{s|p} over ceil(count * threads
/// / block_threads) blocks of block_threads threads. Returns 0, 1 for an
/// unknown (threads, digits), 2 for a block size that is not a positive
/// multiple of 32 and of threads, 3 for count = 0.
extern "C" int redc_sim_launch(unsigned threads, unsigned digits, int secret, unsigned block_threads,
                               const u32* modulus, const u32* n0inv, const u32* r2, const u32* base, const u32* exp,
                               u32* out, u32 count, u32 exp_words, u32 exp_bits) {
    const Entry* entry = nullptr;
    for (const Entry& e : ENTRIES) {
        if (e.threads == threads && e.digits == digits) entry = &e;
    }
    if (entry == nullptr) return 1;
    if (block_threads == 0 || block_threads % WARP != 0 || block_threads % threads != 0) return 2;
    if (count == 0) return 3;
    const Args args = {secret ? entry->secret : entry->public_, modulus, n0inv, r2, base, exp, out,
                       count, exp_words, exp_bits};
    const unsigned long long total = (unsigned long long)count * threads;
    const unsigned blocks = (unsigned)((total + block_threads - 1) / block_threads);
    std::vector<char> stacks(WARP * STACK_BYTES);
    Warp* w = new Warp();
    w->args = &args;
    blockDim = {block_threads, 1, 1};
    gridDim = {blocks, 1, 1};
    for (unsigned b = 0; b < blocks; ++b) {
        blockIdx = {b, 0, 0};
        for (unsigned first = 0; first < block_threads; first += WARP) {
            w->first_thread = first;
            run_warp(*w, stacks);
        }
    }
    delete w;
    warp = nullptr;
    return 0;
}

extern "C" unsigned long long redc_sim_multiplies(void) { return redc_sim_mul_count; }

extern "C" void redc_sim_reset_multiplies(void) { redc_sim_mul_count = 0; }
