/* Tuning harness, not part of the library: fp32 products with a long k
 * split along k on variant 10 (S = min(ceil(128 / tiles), floor(k / 512))
 * slices of its 128 x 256 tiles, kc a multiple of 32, run as gemm.c runs
 * them: a strided batch of slices, one more call for a shorter last slice)
 * and on variant 22 (GK_GEMM_AUTO's rule for 22, gk/gemm.h), each summed by
 * split_k.cu, against cuBLAS fp32. C = A B, dense row-major operands drawn
 * uniformly from [-1, 1); cold L2 (a 256 MB memset before each run),
 * medians of 20 runs after 5 warm-ups; rel = max|C - C_cublas| / max|C_cublas|.
 * Build: nvcc -std=c++17 -gencode arch=compute_90,code=sm_90 \
 *          -o fp32_split10 gemm/tuning/fp32_split10.cu -lcublas
 * tiles-h100/fp32_split10.txt holds its output. */
#include "../kernels/common.cuh"
#include "../split_k.cu"
namespace k10 {
#include "../kernels/10_tuned_fp32.cu"
}
namespace k22 {
#include "../kernels/small_03_ffma.cu"
}
#include <cublas_v2.h>
#include <stdio.h>
#include <math.h>
#include <vector>
#include <algorithm>
#include "harness.cuh"
int main()
{
    const size_t maxe = (size_t)1 << 26;
    float *a, *b, *c, *c2, *ws, *ws2;
    cudaMalloc(&a, maxe * 4); cudaMalloc(&b, maxe * 4); cudaMalloc(&c, maxe * 4); cudaMalloc(&c2, maxe * 4);
    cudaMalloc(&ws, (size_t)512 << 20); cudaMalloc(&ws2, (size_t)256 << 20);
    fill<<<1024, 256>>>(a, maxe, 1u); fill<<<1024, 256>>>(b, maxe, 2u);
    cublasHandle_t hd; cublasCreate(&hd);
    ColdTimer timeit(25, 5);
    std::vector<float> h1(1 << 22), h2(1 << 22);
    auto diff = [&](size_t m, size_t n) { return rel_diff(c, c2, m * n, h1, h2); };
    const int shapes[][3] = {{991, 132, 3663}, {379, 434, 5136}, {49, 105, 2599}, {640, 640, 2048}, {384, 1024, 4096},
                             {256, 256, 65536}, {600, 700, 4096}, {1000, 1000, 4096}, {865, 950, 6788}, {2000, 300, 8192},
                             {11, 3373, 4414}, {7, 6174, 4117}, {70, 18, 2173}, {1024, 512, 8192}, {512, 512, 16384}};
    printf("times in us (cold L2, medians of 20); S10 = 10's rule, S22 = 22's rule\n");
    for (auto &s : shapes) {
        const size_t m = s[0], n = s[1], k = s[2];
        const float one = 1.0f, zero = 0.0f;
        float tc = timeit([&] { cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, (int)n, a, (int)k, &zero, c2, (int)n); });
        const size_t t10 = ((m + 127) / 128) * ((n + 255) / 256);
        size_t s10 = (128 + t10 - 1) / t10; if (s10 > k / 512) s10 = k / 512;
        size_t kc10 = ((k + s10 - 1) / s10 + 31) / 32 * 32, S10 = (k + kc10 - 1) / kc10;
        float ta = timeit([&] {
            size_t full = k / kc10, last = k - full * kc10;
            k10::gk_gemm_10_tuned_fp32_run_ex(0, 0, 0, m, n, kc10, 1.0f, a, k, kc10, b, n, kc10 * n, 0.0f, ws, n, m * n, full, 0, nullptr, ws2, 0);
            if (last) k10::gk_gemm_10_tuned_fp32_run_ex(0, 0, 0, m, n, last, 1.0f, a + full * kc10, k, 0, b + full * kc10 * n, n, 0, 0.0f, ws + full * m * n, n, 0, 1, 0, nullptr, ws2, 0);
            gk_gemm_split_k_sum(0, ws, full + (last ? 1 : 0), m, n, 1.0f, 0.0f, c, n, 0, nullptr, 0);
        });
        double ra = diff(m, n);
        const size_t t22 = ((m + 63) / 64) * ((n + 63) / 64);
        size_t s22 = t22 <= 198 ? 528 / t22 : 1; { size_t mk = t22 > 132 ? 256 : 64; if (s22 > k / mk) s22 = k / mk; }
        size_t kc22 = ((k + s22 - 1) / s22 + 63) / 64 * 64, S22 = (k + kc22 - 1) / kc22;
        float tb = timeit([&] {
            if (S22 > 1) {
                k22::gk_gemm_small_03_ffma_run_split(0, 0, 0, m, n, k, kc22, S22, a, k, b, n, ws, 0);
                gk_gemm_split_k_sum(0, ws, S22, m, n, 1.0f, 0.0f, c, n, 0, nullptr, 0);
            } else k22::gk_gemm_small_03_ffma_run(m, n, k, 1.0f, a, k, b, n, 0.0f, c, n, 0);
        });
        double rb = diff(m, n);
        printf("%zux%zux%zu (2^%.1f) cublas %.1f | 10 tiles %zu S%zu %.1f (%.3fx %.0e) | 22 tiles %zu S%zu %.1f (%.3fx %.0e)\n", m, n, k,
               log2((double)m * n * k), tc, t10, S10, ta, tc / ta, ra, t22, S22, tb, tc / tb, rb);
        fflush(stdout);
    }
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
