/* Tuning harness, not part of the library: GK_GEMM_AUTO (gk_gemm_ex with a
 * workspace) against cuBLAS on small and latency-bound shapes, in fp32,
 * TF32 and BF16, C = A B with dense row-major operands drawn uniformly from
 * [-1, 1); cold L2 (a 256 MB memset before each run), medians of 40 runs
 * after 5 warm-ups. Linked against a built library, so that two builds of
 * it (before and after a change to its kernels) can be compared in one
 * session on one GPU:
 *   nvcc -std=c++17 -gencode arch=compute_90,code=sm_90 -I gemm/include \
 *        -I common/include -o latency gemm/tuning/latency.cu \
 *        build/gemm/libgpukernels_gemm.a build/common/libgpukernels_common.a -lcublas -lcuda
 * -DGK_LATENCY_ONLY_SMALL runs only the shapes AUTO gives variants 19 to 22
 * (a build linked with those variants' objects alone).
 * A second argument, a variant id, runs that variant (unsplit) instead.
 * Prints, per shape and type, AUTO's variant and time, cuBLAS's time, the
 * ratio, and max |C - C_cublas| / max |C_cublas|. */
#include "gk/gemm.h"
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <vector>
#include "harness.cuh"

__global__ void to_bf16(const float *x, __nv_bfloat16 *y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = __float2bfloat16(x[i]);
}
__global__ void from_bf16(const __nv_bfloat16 *x, float *y, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = __bfloat162float(x[i]);
}

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "build";
    const int fixed = argc > 2 ? atoi(argv[2]) : GK_GEMM_AUTO; /* a variant id: that variant, unsplit */
    const size_t maxe = (size_t)8192 * 8192;
    float *a, *b, *c, *c2, *cf;
    __nv_bfloat16 *ah, *bh, *ch, *ch2;
    void *ws;
    const size_t ws_max = (size_t)512 << 20;
    cudaMalloc(&a, maxe * 4); cudaMalloc(&b, maxe * 4); cudaMalloc(&c, maxe * 4); cudaMalloc(&c2, maxe * 4);
    cudaMalloc(&cf, maxe * 4);
    cudaMalloc(&ah, maxe * 2); cudaMalloc(&bh, maxe * 2); cudaMalloc(&ch, maxe * 2); cudaMalloc(&ch2, maxe * 2);
    cudaMalloc(&ws, ws_max);
    fill<<<1024, 256>>>(a, maxe, 1u); fill<<<1024, 256>>>(b, maxe, 2u);
    to_bf16<<<1024, 256>>>(a, ah, maxe); to_bf16<<<1024, 256>>>(b, bh, maxe);
    cublasHandle_t hd; cublasCreate(&hd);
    ColdTimer timeit(45, 5);
    std::vector<float> h1(maxe / 4), h2(maxe / 4);
    static const int shapes[][3] = {
        {1, 3, 93}, {1, 3, 1990}, {690, 1, 886}, {127, 69, 101}, {386, 53, 173}, {427, 95, 172}, {18, 1110, 184},
        {33, 1367, 98}, {915, 33, 99}, {14, 151, 120}, {86, 63, 39}, {270, 193, 307}, {49, 105, 2599},
        {486, 5, 3372}, {7586, 2, 1007}, {86, 553, 1208}, {1705, 4294, 2}, {1759, 46, 86}, {4996, 50, 208},
        {411, 6315, 19}, {863, 6617, 11}, {569, 20, 5870}, {790, 2111, 1}, {404, 1045, 3}, {4, 7, 16},
        {14, 9, 26}, {7883, 5, 130}, {8159, 7, 401}, {645, 6, 6925}, {959, 6, 6007}, {12, 559, 3603},
        {1, 3421, 1316}, {1, 4167, 2682}, {11, 3373, 4414}, {7, 6174, 4117}, {16, 8191, 8192}, {1, 8193, 8191},
        {1, 4168, 2688}, {1, 4167, 2688}, {1, 4168, 2682}, {1, 8192, 8192}, {16, 8192, 8192}, {4, 30001, 2048},
        {1, 4167, 4096}, {32, 4100, 4096}, {778, 4215, 372}, {991, 132, 3663},
        {379, 434, 5136}, {1024, 256, 1024}, {256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024},
        {2048, 2048, 2048}, {4097, 3001, 2049},
        /* a grid of few outputs and short k: where variant 20 ends */
        {1, 3, 16}, {1, 3, 40}, {1, 3, 150}, {4, 7, 40}, {4, 7, 93}, {4, 7, 150}, {16, 16, 16}, {16, 16, 40},
        {16, 16, 93}, {16, 16, 150}, {32, 64, 16}, {32, 64, 40}, {32, 64, 93}, {32, 64, 150}, {64, 128, 16},
        {64, 128, 40}, {64, 128, 93}, {64, 128, 150}, {128, 128, 16}, {128, 128, 40}, {128, 128, 93},
        {128, 128, 150}, {100, 300, 16}, {100, 300, 40}, {100, 300, 93}, {100, 300, 150}, {256, 256, 40},
        {256, 256, 93}};
    printf("%s: times in us (cold L2, medians of 40); rel = max|C - C_cublas| / max|C_cublas|\n", label);
    for (auto &s : shapes) {
        const size_t m = s[0], n = s[1], k = s[2];
        for (int ty = 0; ty < 4; ty++) {
            /* ty 3: BF16 with the weight stored n x k (op_b = T, y = x W^T), for m <= 64 */
            if (ty == 3 && m > 64) continue;
            const bool bf = ty >= 2;
            gk_gemm_desc d = gk_gemm_desc_init(bf ? GK_GEMM_TYPE_BF16 : GK_GEMM_TYPE_F32, m, n, k);
            if (ty == 1) d.compute = GK_GEMM_COMPUTE_TF32;
            if (ty == 3) d.op_b = GK_GEMM_OP_T;
            int v = -1;
            size_t splits = 0, wsb = 0;
            gk_gemm_auto_variant(&d, &v, &splits);
            if (fixed != GK_GEMM_AUTO) {
                /* 22 takes fp32 only; 21 takes fp32 as TF32 only. */
                if ((fixed == 22 && ty != 0) || (fixed == 21 && ty == 0)) continue;
                v = fixed, splits = 1;
            }
#ifdef GK_LATENCY_ONLY_SMALL
            /* Linked with variants 19-22 only (the rest stubbed out). */
            if (v < 19 || v > 22) continue;
#endif
            const void *pa = bf ? (const void *)ah : a, *pb = bf ? (const void *)bh : b;
            void *pc = bf ? (void *)ch : c;
            gk_status st = gk_gemm_ex(fixed, &d, pa, pb, pc, NULL, &wsb, 0);
            if (!gk_ok(st) || wsb > ws_max) { printf("%zux%zux%zu ty %d: query failed\n", m, n, k, ty); continue; }
            const float one = 1.0f, zero = 0.0f;
            float tc = timeit([&] {
                if (ty == 0)
                    cublasSgemm(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, (int)n, a, (int)k,
                                &zero, c2, (int)n);
                else if (ty == 1)
                    cublasGemmEx(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, CUDA_R_32F, (int)n, a,
                                 CUDA_R_32F, (int)k, &zero, c2, CUDA_R_32F, (int)n, CUBLAS_COMPUTE_32F_FAST_TF32,
                                 CUBLAS_GEMM_DEFAULT);
                else if (ty == 3)
                    cublasGemmEx(hd, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, bh, CUDA_R_16BF, (int)k,
                                 ah, CUDA_R_16BF, (int)k, &zero, ch2, CUDA_R_16BF, (int)n, CUBLAS_COMPUTE_32F,
                                 CUBLAS_GEMM_DEFAULT);
                else
                    cublasGemmEx(hd, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, bh, CUDA_R_16BF, (int)n,
                                 ah, CUDA_R_16BF, (int)k, &zero, ch2, CUDA_R_16BF, (int)n, CUBLAS_COMPUTE_32F,
                                 CUBLAS_GEMM_DEFAULT);
            });
            cudaMemset(pc, 0xff, m * n * (bf ? 2 : 4));
            float tg = timeit([&] { gk_gemm_ex(fixed, &d, pa, pb, pc, ws, &wsb, 0); });
            double rel = -1;
            if (m * n <= h1.size()) {
                if (bf) {
                    from_bf16<<<256, 256>>>(ch, cf, m * n);
                    from_bf16<<<256, 256>>>(ch2, c2, m * n);
                    rel = rel_diff(cf, c2, m * n, h1, h2);
                } else {
                    rel = rel_diff(c, c2, m * n, h1, h2);
                }
            }
            const cudaError_t e = cudaGetLastError();
            printf("%-16s %-5s auto %2d/%-2zu %8.1f  cublas %8.1f  %.3fx  rel %.1e%s\n",
                   (std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k)).c_str(),
                   ty == 0 ? "f32" : ty == 1 ? "tf32" : ty == 2 ? "bf16" : "bf16t", v, splits, tg, tc, tc / tg, rel,
                   e == cudaSuccess ? "" : cudaGetErrorString(e));
            fflush(stdout);
        }
    }
    return 0;
}
