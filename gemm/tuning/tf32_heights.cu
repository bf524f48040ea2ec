/* Tuning harness, not part of the library: variant 12's tile heights
 * (12_tf32_wgmma.cu, "Narrow tiles") against cuBLAS TF32. Cold L2 (a
 * 256 MB memset before each run), medians of 40 runs after 5 warm-ups,
 * C = A B (nn) and C = A B^T (nt), dense row-major operands drawn uniformly
 * from [-1, 1). Each height is timed alone (launch<kBM, ...>, the tensor
 * maps encoded at every call as the library does), then launcher's pick
 * (launch_any); every height's C is compared with cuBLAS TF32's (the
 * largest difference over the largest |C|: both round the operands to
 * TF32, so a few 2^-11 of k-sums at most).
 * Build: nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a \
 *          -o tf32_heights gemm/tuning/tf32_heights.cu -lcublas
 * tiles-h100/tf32_heights.txt holds its output. */
#include "../kernels/12_tf32_wgmma.cu"
#include <cublas_v2.h>
#include <stdio.h>
#include <math.h>
#include <vector>
#include <algorithm>
#include "harness.cuh"
int main()
{
    const size_t maxe = (size_t)4096 * 4096;
    float *a, *b, *c, *c2;
    cudaMalloc(&a, maxe * 4); cudaMalloc(&b, maxe * 4); cudaMalloc(&c, maxe * 4); cudaMalloc(&c2, maxe * 4);
    fill<<<1024, 256>>>(a, maxe, 1u); fill<<<1024, 256>>>(b, maxe, 2u);
    cublasHandle_t hd; cublasCreate(&hd);
    cublasSetMathMode(hd, CUBLAS_TF32_TENSOR_OP_MATH);
    int sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    ColdTimer timeit(45, 5);
    std::vector<float> h1(maxe), h2(maxe);
    auto diff = [&](size_t m, size_t n) { return rel_diff(c, c2, m * n, h1, h2); };
    const int shapes[][3] = {{256, 256, 256}, {512, 512, 512}, {768, 768, 768}, {1024, 1024, 1024},
                             {1536, 1536, 1536}, {2048, 2048, 2048}, {4096, 4096, 4096}, {1024, 256, 1024},
                             {256, 4096, 1024}, {991, 132, 3663}, {1000, 1000, 1000}, {3000, 700, 1500}};
    printf("%s, %d SMs; times in us (cold L2, medians), rel = max|C - C_cublas| / max|C_cublas|\n",
           "variant 12 tile heights", sms);
    for (int tb = 0; tb < 2; tb++)
        for (auto &s : shapes) {
            const int m = s[0], n = s[1], k = s[2];
            float one = 1, zero = 0;
            const size_t ldb = tb ? k : n;
            float tc = timeit([&]() {
                cublasGemmEx(hd, tb ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, (int)ldb, a,
                             CUDA_R_32F, k, &zero, c2, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
            });
            Args p;
            memset(&p, 0, sizeof(p));
            p.a = a, p.b = b, p.c = c, p.lda = k, p.ldb = ldb, p.ldc = n;
            p.m = m, p.n = n, p.k = k, p.batch = 1, p.alpha = 1, p.beta = 0;
            auto go = [&](int bm) {
                if (tb) {
                    if (bm == 256) launch<256, true, false>(0, p, 0);
                    else if (bm == 128) launch<128, true, false>(0, p, 0);
                    else if (bm == 64) launch<64, true, false>(0, p, 0);
                    else launch_any<true, false>(0, p, 0);
                } else {
                    if (bm == 256) launch<256, false, false>(0, p, 0);
                    else if (bm == 128) launch<128, false, false>(0, p, 0);
                    else if (bm == 64) launch<64, false, false>(0, p, 0);
                    else launch_any<false, false>(0, p, 0);
                }
            };
            printf("%s %dx%dx%d cublas %.2f |", tb ? "nt" : "nn", m, n, k, tc);
            for (int bm : {256, 128, 64, 0}) {
                cudaMemset(c, 0xff, (size_t)m * n * 4);
                go(bm);
                cudaError_t err = cudaDeviceSynchronize();
                const double rel = diff(m, n);
                float t = timeit([&]() { go(bm); });
                if (bm) printf(" h%d %.2f (%.2fx, rel %.1e)", bm, t, tc / t, rel);
                else printf(" pick h%d %.2f (%.2fx)", pick_bm(m, n, 1, sms), t, tc / t);
                if (err != cudaSuccess) printf(" ERR %s", cudaGetErrorString(err));
            }
            printf("\n");
            fflush(stdout);
        }
    return 0;
}
