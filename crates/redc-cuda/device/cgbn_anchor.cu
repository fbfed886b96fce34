// The open anchor of redc's GPU measurements: NVlabs CGBN's powm_odd
// sample (samples/sample_03_powm/powm_odd.cu of github.com/NVlabs/CGBN,
// fetched beside redc and never committed), its fixed-window kernel timed at
// the sizes of redc's sweep, for each CGBN threads-per-instance count.
//
// Built by device/prepare.sh (and again by device/run.sh where the GPU
// machine has nvcc):
//   nvcc -O3 -arch=sm_90 -I CGBN/include -I CGBN/samples/sample_03_powm \
//        cgbn_anchor.cu -o cgbn_anchor -lgmp
// Prints one JSON line per configuration: instances, the median of five
// timed launches (CUDA events, after one warm-up), exponentiations per
// second, and how many of the first 16 results GMP's mpz_powm confirms.
// CGBN offers 8 threads per instance up to 2048 bits only (its division
// helpers stop there), 16 and 32 at every size.
// The sample's inputs: random moduli (odd, top bit not forced), bases below
// them, random exponents as long as the modulus. CGBN is not constant time.
#define main cgbn_sample_main
#include "powm_odd.cu"
#undef main

#include <algorithm>
#include <vector>

template <uint32_t TPI, uint32_t BITS, uint32_t WINDOW>
static void measure(uint32_t sm_count) {
    typedef powm_params_t<TPI, BITS, WINDOW> params;
    typedef typename powm_odd_t<params>::instance_t instance_t;
    // Two waves of 2048 resident threads per SM.
    const uint32_t count = 2 * sm_count * 2048 / TPI;
    instance_t* instances = powm_odd_t<params>::generate_instances(count);
    instance_t* gpu;
    cgbn_error_report_t* report;
    CUDA_CHECK(cudaMalloc((void**)&gpu, sizeof(instance_t) * count));
    CUDA_CHECK(cudaMemcpy(gpu, instances, sizeof(instance_t) * count, cudaMemcpyHostToDevice));
    CUDA_CHECK(cgbn_error_report_alloc(&report));
    const uint32_t tpb = 128, ipb = tpb / TPI, blocks = (count + ipb - 1) / ipb;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<float> ms;
    for (int rep = 0; rep < 6; rep++) {
        CUDA_CHECK(cudaEventRecord(start));
        kernel_powm_odd<params><<<blocks, tpb>>>(report, gpu, count);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaGetLastError());
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        if (rep > 0) ms.push_back(t);
    }
    CGBN_CHECK(report);
    CUDA_CHECK(cudaMemcpy(instances, gpu, sizeof(instance_t) * count, cudaMemcpyDeviceToHost));
    int verified = 0;
    mpz_t x, p, m, computed, correct;
    mpz_inits(x, p, m, computed, correct, NULL);
    for (int i = 0; i < 16; i++) {
        to_mpz(x, instances[i].x._limbs, BITS / 32);
        to_mpz(p, instances[i].power._limbs, BITS / 32);
        to_mpz(m, instances[i].modulus._limbs, BITS / 32);
        to_mpz(computed, instances[i].result._limbs, BITS / 32);
        mpz_powm(correct, x, p, m);
        verified += mpz_cmp(correct, computed) == 0;
    }
    mpz_clears(x, p, m, computed, correct, NULL);
    std::vector<float> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const float median = sorted[sorted.size() / 2];
    printf("{\"anchor\":\"cgbn powm_odd fixed window\",\"bits\":%u,\"tpi\":%u,\"window_bits\":%u,\"instances\":%u,"
           "\"median_ms\":%.4f,\"runs_ms\":[%.4f,%.4f,%.4f,%.4f,%.4f],\"pow_per_s\":%.1f,\"verified_of_16\":%d}\n",
           BITS, TPI, WINDOW, count, median, ms[0], ms[1], ms[2], ms[3], ms[4], count / (median * 1e-3), verified);
    fflush(stdout);
    free(instances);
    CUDA_CHECK(cudaFree(gpu));
    CUDA_CHECK(cgbn_error_report_free(report));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
}

int main() {
    int sm_count = 0;
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
    measure<8, 1024, 5>(sm_count);
    measure<16, 1024, 5>(sm_count);
    measure<32, 1024, 5>(sm_count);
    measure<8, 2048, 5>(sm_count);
    measure<16, 2048, 5>(sm_count);
    measure<32, 2048, 5>(sm_count);
    measure<16, 3072, 5>(sm_count);
    measure<32, 3072, 5>(sm_count);
    measure<16, 4096, 5>(sm_count);
    measure<32, 4096, 5>(sm_count);
    return 0;
}
