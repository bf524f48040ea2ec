/* Split-K (GK_GEMM_AUTO's configuration of variants 10, 12, 21 and 22 for
 * fp32 storage, and of variants 17, 21 and 23 for BF16 and F16): the sum of
 * the slices, in a fixed order.
 *
 * The region it serves: products with few output tiles and a long k. At
 * 256 x 256 x 65536 variant 12's tiles of 256 x 128 are 2 for 132 SMs, and
 * each walks 2048 k-tiles alone: 130 SMs idle. Splitting k into S slices
 * of kc (a multiple of the 32-deep k-tile) makes S times as many units of
 * work, and the slices are an ordinary strided batch of the rung itself:
 * product z reads A's columns (op_a = N; rows for T) and B's rows (op_b =
 * N; columns for T) z kc .. z kc + kc - 1, so A_z = A + z kc (or + z kc
 * lda) and B_z = B + z kc ldb (or + z kc), and writes its partial product,
 * alpha = 1, beta = 0, no epilogue, into P_z, a dense m x n slab of fp32 in
 * the workspace. gemm.c makes that batched call (and one more for a
 * shorter last slice; variants 17, 21, 22 and 23 instead compute every
 * slice, the shorter last one too, in one launch), then this file's kernel
 * finishes C:
 *
 *     C = epilogue(alpha (P_0 + P_1 + ... + P_{S-1}) + beta C + bias)
 *
 * with the S partials added in that order, from z = 0 up, for every
 * element: the same bits on every run (no atomics, no order that depends on
 * timing), as the rung itself gives. The price is the partials' traffic:
 * S m n floats written by the products and read here (8 S m n bytes), and
 * one more launch. At 256 x 256 x 65536 with S = 64 that is 32 MB, about
 * 10 us at the H100's 3.35 TB/s, against the 2048 k-tiles a tile would
 * walk alone. The rule for S is gk/gemm.h's (GK_GEMM_AUTO).
 *
 * Precision: each partial is the rung's fp32 (or TF32-product) sum of kc
 * terms, and the S partials are added in fp32: the sums of the k terms in
 * another order, with the same bound (gemm_ref.h's u32 sqrt(k + 2) term
 * counts additions in any order); alpha scales the total once, as in the
 * rung, and a 16-bit C is rounded once, after the epilogue, as the rung
 * rounds it.
 *
 * The kernel: a grid-stride loop over groups of 4 consecutive elements of
 * the m x n (size_t indices), consecutive threads on consecutive groups, so
 * every partial's read and C's read and write are coalesced; where n is a
 * multiple of 4 a group's 4 partials of one slice are one 16-byte load;
 * beta = 0 never reads C; the epilogue is common.cuh's epilogue_apply, its
 * kind and C's type switched once per launch into one instance each.
 *
 * Its launch is on the critical path: the product's last CTA ends, then
 * the sum starts and reads partials the product has just written, mostly
 * from L2. Two things shorten that, measured on an H200 against the form
 * before them (gemm/tuning/splitsum-h200, cold L2, medians, BF16 auto):
 *
 *   - Loads in flight. With 16 slices or more each thread issues 16
 *     slices' loads (64 registers of float4) before the first of their
 *     adds, one trip to L2 where 4 loads at a time took 4: 128 x 128 x
 *     65536 (66 slices) 26.1 -> 22.0 us. Below 16 slices the loop is
 *     unrolled by 4 with every SM full of threads: at 2 slices the 16-load
 *     form, with a quarter of the threads, was slower (100 x 3000 x 5000
 *     28.7 -> 29.5 us).
 *   - A programmatic dependent launch (sm_90 and later: the
 *     programmatic-stream-serialization attribute here, griddepcontrol.wait
 *     at the kernel's start; CUDA C++ Programming Guide, "Programmatic
 *     Dependent Launch"): the runtime prepares the sum's launch while the
 *     product runs, and the wait returns when the product's grid has
 *     finished and its writes are visible. 1.2 to 1.6 us on every split
 *     product timed (256 x 256 x 65536: 32.4 -> 30.8 us). The products do
 *     not execute griddepcontrol.launch_dependents, so the sum's blocks
 *     still start after the product's last block: variant 23 doing so at
 *     its start or after its last load gained nothing.
 *
 * Together, in one run: 256 x 256 x 65536 from 33.1-33.6 to 30.7-30.9 us
 * (cuBLAS BF16 30.5-30.6: 0.91x to 0.99x), 128 x 128 x 65536 26.0-26.4 to
 * 20.6-20.8 (19.0-19.2: 0.73x to 0.92x), 384 x 384 x 4096 13.0-13.5 to
 * 11.7-11.9; in fp32 and TF32 1% to 9% faster (gemm/tuning/splitsum-h200,
 * run3).
 *
 * Sources: split-K ("slice-K") as in NVIDIA CUTLASS's documentation
 * ("Efficient GEMM in CUDA": parallelized reductions), and Osama et al.,
 * "Stream-K" (PPoPP 2023), for why few tiles and a long k starve a GPU.
 *
 * It lives beside gemm.c, not in kernels/: it is not a rung but the
 * library's last step of a split product (kernels/common.cuh gives it the
 * epilogue).
 */
#include "kernels/common.cuh"

namespace {

constexpr int kSumThreads = 128; /* per block */
/* From kSumChunk slices up, each thread issues kSumChunk slices' loads
 * before their adds: one trip to L2 for 16 slices where 4 loads at a time
 * took 4. */
constexpr int kSumChunk = 16;

/* Each thread finishes 4 consecutive elements i .. i + 3 of the m n (a
 * grid-stride loop over groups of 4), adding the slices from z = 0 up, the
 * same order for every element. kVec: n is a multiple of 4, so a group
 * never crosses a row and its partials are one 16-byte load per slice (the
 * partials start 256-byte aligned and m n is a multiple of 4); else element
 * by element. kChunk = kSumChunk (kVec only): the loads of 16 slices (64
 * registers) are issued before the first of their adds, which then run in
 * order; the 1 in __launch_bounds__ lets ptxas keep them all (96
 * registers: without it, it held about 3 in flight at 42). kChunk 1: the
 * slices' loop unrolled by 4 (4 loads in flight), no minimum of blocks (a
 * 0 there emits none: ptxas takes 32 registers, so an SM holds 2048
 * threads): the form for few slices, where one thread has little to
 * overlap. */
template <int kEpi, typename T, bool kVec, int kChunk>
__global__ void __launch_bounds__(kSumThreads, kChunk > 1 ? 1 : 0)
split_k_sum(const float *__restrict__ partials, size_t splits, size_t m, size_t n, float alpha, float beta,
            T *__restrict__ c, size_t ldc, const T *__restrict__ bias)
{
    pdl_wait(); /* a programmatic dependent launch (the launcher; common.cuh): the product may still be running */
    const size_t mn = m * n, groups = (mn + 3) / 4, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
        const size_t i0 = 4 * g;
        float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        if constexpr (kVec) {
            size_t z = 0;
            if constexpr (kChunk > 1) {
                for (; z + kChunk <= splits; z += kChunk) {
                    float4 v[kChunk];
#pragma unroll
                    for (int j = 0; j < kChunk; ++j)
                        v[j] = __ldg(reinterpret_cast<const float4 *>(partials + (z + j) * mn + i0));
#pragma unroll
                    for (int j = 0; j < kChunk; ++j) s[0] += v[j].x, s[1] += v[j].y, s[2] += v[j].z, s[3] += v[j].w;
                }
            }
#pragma unroll 4
            for (; z < splits; ++z) { /* z = 0 first, always */
                const float4 v = __ldg(reinterpret_cast<const float4 *>(partials + z * mn + i0));
                s[0] += v.x, s[1] += v.y, s[2] += v.z, s[3] += v.w;
            }
        } else {
            const int cnt = mn - i0 < 4 ? (int)(mn - i0) : 4;
#pragma unroll 4
            for (size_t z = 0; z < splits; ++z)
                for (int e = 0; e < cnt; ++e) s[e] += __ldg(partials + z * mn + i0 + e);
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const size_t i = i0 + e;
            if (i >= mn) break;
            const size_t row = i / n, col = i - row * n;
            T *const p = c + row * ldc + col;
            const float v = beta == 0.0f ? alpha * s[e] : alpha * s[e] + beta * CElem<T>::to_float(*p);
            *p = CElem<T>::from_float(epilogue_apply<kEpi>(v, kEpi != 0 ? CElem<T>::to_float(bias[col]) : 0.0f));
        }
    }
}

/* One launch of split_k_sum<kEpi, T, kVec, kChunk>, a programmatic
 * dependent launch where `pdl` (common.cuh). */
template <typename T, bool kVec, int kChunk>
cudaError_t launch_sum(unsigned blocks, bool pdl, const float *partials, size_t splits, size_t m, size_t n,
                       float alpha, float beta, void *c, size_t ldc, int epilogue, const void *bias,
                       cudaStream_t stream)
{
    void (*kernel)(const float *, size_t, size_t, size_t, float, float, T *, size_t, const T *) =
        epilogue == 0   ? split_k_sum<0, T, kVec, kChunk>
        : epilogue == 1 ? split_k_sum<1, T, kVec, kChunk>
        : epilogue == 2 ? split_k_sum<2, T, kVec, kChunk>
                        : split_k_sum<3, T, kVec, kChunk>;
    return launch_pdl(pdl, kernel, dim3(blocks), dim3(kSumThreads), 0, stream, partials, splits, m, n, alpha, beta,
                      static_cast<T *>(c), ldc, static_cast<const T *>(bias));
}

template <typename T>
cudaError_t launch_type(int sms, bool vec, bool pdl, const float *partials, size_t splits, size_t m, size_t n,
                        float alpha, float beta, void *c, size_t ldc, int epilogue, const void *bias,
                        cudaStream_t stream)
{
    /* One group of 4 elements per thread, up to a grid of 2048 threads per
     * SM (the unrolled-by-4 form) or 512 (the kSumChunk form, whose 96
     * registers a thread leave room for 5 blocks of 128 an SM); past that
     * the grid-stride loop. */
    const bool chunk = vec && splits >= (size_t)kSumChunk;
    const size_t per_block = 4 * (size_t)kSumThreads, want = (m * n + per_block - 1) / per_block;
    const size_t cap = (size_t)sms * (chunk ? 512 : 2048) / kSumThreads;
    const unsigned blocks = (unsigned)(want < cap ? want : cap);
    if (chunk)
        return launch_sum<T, true, kSumChunk>(blocks, pdl, partials, splits, m, n, alpha, beta, c, ldc, epilogue,
                                              bias, stream);
    if (vec)
        return launch_sum<T, true, 1>(blocks, pdl, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
    return launch_sum<T, false, 1>(blocks, pdl, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
}

} // namespace

/* Queue C = epilogue(alpha sum_z P_z + beta C + bias) over the `splits`
 * dense m x n partials at `partials` (gemm.c's split-K; m, n >= 1; type 0
 * f32, 1 bf16, 2 f16: C's and the bias's element). gemm.c queues it right
 * after the product that writes the partials, on the same stream. */
extern "C" cudaError_t gk_gemm_split_k_sum(int type, const float *partials, size_t splits, size_t m, size_t n,
                                           float alpha, float beta, void *c, size_t ldc, int epilogue,
                                           const void *bias, cudaStream_t stream)
{
    int dev = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    const bool vec = n % 4 == 0 && ((uintptr_t)partials & 15u) == 0;
    const bool pdl = pdl_supported(); /* sm_90 and later */
    if (type == 1)
        err = launch_type<__nv_bfloat16>(sms, vec, pdl, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias,
                                         stream);
    else if (type == 2)
        err = launch_type<__half>(sms, vec, pdl, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
    else
        err = launch_type<float>(sms, vec, pdl, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
    return err != cudaSuccess ? err : cudaGetLastError();
}
