/* Shared by the tuning harnesses in this folder (tf32_heights.cu,
 * ffma_split.cu, fp32_split10.cu), not part of the library: operands drawn
 * uniformly from [-1, 1) by a hash of their index, cold-L2 timing with CUDA
 * events (a 256 MB memset before every run, the first `warm` runs
 * dropped, the median of the rest, in microseconds), and the largest
 * difference between two results over the largest |reference|. */
#ifndef GK_GEMM_TUNING_HARNESS_CUH
#define GK_GEMM_TUNING_HARNESS_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stddef.h>
#include <algorithm>
#include <vector>

static float med(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

__global__ void fill(float *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; x *= 3266489917u; x ^= x >> 16;
        p[i] = (float)(x >> 8) / 8388608.0f - 1.0f;
    }
}

/* timer(f): f() queued `runs` times on the default stream, each after the
 * flush; the median of the last runs - warm, in microseconds. */
struct ColdTimer {
    static constexpr size_t kFlush = (size_t)256 << 20;
    int runs, warm;
    char *flush = nullptr;
    cudaEvent_t e0, e1;
    ColdTimer(int runs_, int warm_) : runs(runs_), warm(warm_)
    {
        cudaMalloc(&flush, kFlush);
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
    }
    template <class F> float operator()(F f)
    {
        std::vector<float> t;
        for (int r = 0; r < runs; r++) {
            cudaMemsetAsync(flush, r, kFlush);
            cudaEventRecord(e0);
            f();
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms;
            cudaEventElapsedTime(&ms, e0, e1);
            if (r >= warm) t.push_back(ms * 1000);
        }
        return med(t);
    }
};

/* max |c - ref| / max |ref| over count floats on the device (1e30 for a
 * NaN); h1 and h2 hold at least count floats. */
static double rel_diff(const float *c, const float *ref, size_t count, std::vector<float> &h1, std::vector<float> &h2)
{
    cudaMemcpy(h1.data(), c, count * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(h2.data(), ref, count * 4, cudaMemcpyDeviceToHost);
    double d = 0, big = 0;
    for (size_t i = 0; i < count; i++) {
        d = fmax(d, fabs((double)h1[i] - h2[i]));
        big = fmax(big, fabs((double)h2[i]));
    }
    return isnan(d) ? 1e30 : d / (big > 0 ? big : 1);
}

#endif
