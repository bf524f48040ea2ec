/* Tuning harness, not part of the library: variant 22 (small_03_ffma.cu)
 * unsplit and split into S = 2 .. 16 slices (its one-launch split and
 * split_k.cu's sum, as GK_GEMM_AUTO runs them), against cuBLAS fp32 and
 * against a previous form of the kernel ("old": the file given by -DOLD22,
 * e.g. from `git show 2554d4e:gemm/kernels/small_03_ffma.cu > old22.cu`
 * with its `extern "C"` names renamed to old_run* and its #include line
 * removed: common.cuh is already in). C = A B, dense
 * row-major operands drawn uniformly from [-1, 1); cold L2 (a 256 MB
 * memset before each run), medians of 40 runs after 5 warm-ups.
 * Build: nvcc -std=c++17 -gencode arch=compute_90,code=sm_90 -DOLD22=\"old22.cu\" \
 *          -o ffma_split gemm/tuning/ffma_split.cu -lcublas
 * tiles-h100/ffma_split.txt holds its output (old: the kernel at 2554d4e,
 * which read B MN-major 4 bytes at a time). */
#include "../kernels/small_03_ffma.cu"
#include "../split_k.cu"
namespace old {
#include OLD22
}
#include <cublas_v2.h>
#include <stdio.h>
#include <math.h>
#include <vector>
#include <algorithm>
#include "harness.cuh"
int main(int argc, char **argv)
{
    const size_t maxe = (size_t)4100 * 4100 * 3;
    float *a, *b, *c, *c2, *ws;
    cudaMalloc(&a, maxe * 4); cudaMalloc(&b, maxe * 4); cudaMalloc(&c, maxe * 4); cudaMalloc(&c2, maxe * 4);
    cudaMalloc(&ws, (size_t)256 << 20);
    fill<<<1024, 256>>>(a, maxe, 1u); fill<<<1024, 256>>>(b, maxe, 2u);
    cublasHandle_t hd; cublasCreate(&hd);
    ColdTimer timeit(45, 5);
    std::vector<float> h1(maxe), h2(maxe);
    auto diff = [&](size_t m, size_t n) { return rel_diff(c, c2, m * n, h1, h2); };
    const int shapes[][3] = {{256, 256, 256}, {512, 512, 512}, {768, 768, 768}, {1024, 1024, 1024}, {1024, 1024, 2048},
                             {1536, 1536, 1536}, {2048, 2048, 2048}, {865, 950, 6788}, {1000, 1000, 1000},
                             {270, 193, 307}, {778, 4215, 372}, {2871, 4283, 80}, {3304, 5715, 122}, {1024, 256, 1024},
                             {455, 3178, 185}, {379, 434, 5136}, {991, 132, 3663}, {2275, 70, 408}, {5364, 1407, 20},
                             {640, 640, 2048}, {384, 1024, 4096}, {1200, 1300, 900}, {600, 700, 1500}};
    printf("times in us (cold L2, medians of 40); rel = max|C - C_cublas| / max|C_cublas|\n");
    for (auto &s : shapes) {
        const size_t m = s[0], n = s[1], k = s[2];
        const float one = 1.0f, zero = 0.0f;
        float tc = timeit([&] { cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, (int)n, a, (int)k, &zero, c2, (int)n); });
        float t0 = timeit([&] { old::old_run(m, n, k, 1.0f, a, k, b, n, 0.0f, c, n, 0); });
        double r0 = diff(m, n);
        cudaMemcpy(c2, c, m * n * 4, cudaMemcpyDeviceToDevice);
        float t1 = timeit([&] { gk_gemm_small_03_ffma_run(m, n, k, 1.0f, a, k, b, n, 0.0f, c, n, 0); });
        double r1 = diff(m, n); /* against old: 0 expected */
        printf("%zux%zux%zu tiles %zu cublas %.1f | old %.1f (%.3fx, rel %.1e) | new %.1f (%.3fx, vs old %.1e)", m, n, k,
               ((m + 63) / 64) * ((n + 63) / 64), tc, t0, tc / t0, r0, t1, tc / t1, r1);
        const int ss[] = {2, 3, 4, 6, 8, 12, 16};
        for (int sp : ss) {
            size_t kc = (k + sp - 1) / sp; kc = (kc + 63) / 64 * 64;
            size_t S = (k + kc - 1) / kc;
            if (S != (size_t)sp || S * m * n * 4 > ((size_t)256 << 20)) continue;
            float t2 = timeit([&] {
                gk_gemm_small_03_ffma_run_split(0, 0, 0, m, n, k, kc, S, a, k, b, n, ws, 0);
                gk_gemm_split_k_sum(0, ws, S, m, n, 1.0f, 0.0f, c, n, 0, nullptr, 0);
            });
            printf(" | S%zu %.1f (%.3fx)", S, t2, tc / t2);
        }
        printf("\n"); fflush(stdout);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return 0;
}
