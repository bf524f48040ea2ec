/* Split-K (GK_GEMM_AUTO's configuration of variants 10 and 12 for fp32
 * storage, and of variants 17 and 21 for BF16 and F16): the sum of the slices, in
 * a fixed order.
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
 * shorter last slice; variants 17 and 21 instead compute every slice, the
 * shorter last one too, in one launch, storing fp32 partials of their
 * 16-bit inputs), then this file's kernel finishes C:
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
 * multiple of 4 a group's 4 partials of one slice are one 16-byte load,
 * and the slices' loop is unrolled by 4 (4 loads in flight per thread);
 * beta = 0 never reads C; the epilogue is common.cuh's epilogue_apply, its
 * kind and C's type switched once per launch into one instance each.
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

/* Each thread finishes 4 consecutive elements i .. i + 3 of the m n (a
 * grid-stride loop over groups of 4). kVec: n is a multiple of 4, so a
 * group never crosses a row and its partials are one 16-byte load per
 * slice (the partials start 256-byte aligned and m n is a multiple of 4);
 * else element by element. The slices are added from z = 0 up, 4 loads in
 * flight per step of the unrolled loop, the same order for every element. */
template <int kEpi, typename T, bool kVec>
__global__ void __launch_bounds__(256) split_k_sum(const float *__restrict__ partials, size_t splits, size_t m,
                                                  size_t n, float alpha, float beta, T *__restrict__ c, size_t ldc,
                                                  const T *__restrict__ bias)
{
    const size_t mn = m * n, groups = (mn + 3) / 4, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += stride) {
        const size_t i0 = 4 * g;
        float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        if constexpr (kVec) {
#pragma unroll 4
            for (size_t z = 0; z < splits; ++z) { /* z = 0 first, always */
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

template <typename T, bool kVec>
void launch_sum(unsigned blocks, const float *partials, size_t splits, size_t m, size_t n, float alpha, float beta,
                void *c, size_t ldc, int epilogue, const void *bias, cudaStream_t stream)
{
    T *const ct = static_cast<T *>(c);
    const T *const bt = static_cast<const T *>(bias);
    switch (epilogue) {
    case 0: split_k_sum<0, T, kVec><<<blocks, 256, 0, stream>>>(partials, splits, m, n, alpha, beta, ct, ldc, bt); break;
    case 1: split_k_sum<1, T, kVec><<<blocks, 256, 0, stream>>>(partials, splits, m, n, alpha, beta, ct, ldc, bt); break;
    case 2: split_k_sum<2, T, kVec><<<blocks, 256, 0, stream>>>(partials, splits, m, n, alpha, beta, ct, ldc, bt); break;
    default: split_k_sum<3, T, kVec><<<blocks, 256, 0, stream>>>(partials, splits, m, n, alpha, beta, ct, ldc, bt); break;
    }
}

template <typename T>
void launch_type(bool vec, unsigned blocks, const float *partials, size_t splits, size_t m, size_t n, float alpha,
                 float beta, void *c, size_t ldc, int epilogue, const void *bias, cudaStream_t stream)
{
    if (vec)
        launch_sum<T, true>(blocks, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
    else
        launch_sum<T, false>(blocks, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
}

} // namespace

/* Queue C = epilogue(alpha sum_z P_z + beta C + bias) over the `splits`
 * dense m x n partials at `partials` (gemm.c's split-K; m, n >= 1; type 0
 * f32, 1 bf16, 2 f16: C's and the bias's element). */
extern "C" cudaError_t gk_gemm_split_k_sum(int type, const float *partials, size_t splits, size_t m, size_t n,
                                           float alpha, float beta, void *c, size_t ldc, int epilogue,
                                           const void *bias, cudaStream_t stream)
{
    int dev = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    const size_t want = (m * n + 1023) / 1024, cap = (size_t)sms * 8;
    const unsigned blocks = (unsigned)(want < cap ? want : cap);
    const bool vec = n % 4 == 0 && ((uintptr_t)partials & 15u) == 0;
    if (type == 1)
        launch_type<__nv_bfloat16>(vec, blocks, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
    else if (type == 2)
        launch_type<__half>(vec, blocks, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
    else
        launch_type<float>(vec, blocks, partials, splits, m, n, alpha, beta, c, ldc, epilogue, bias, stream);
    return cudaGetLastError();
}
