/* Variant 20 (small_01): tiny products as dot products on the CUDA cores,
 * in bf16, f16 or fp32.
 *
 * The region it serves: products so small that a tensor-core rung spends
 * its time starting, not computing. Variant 17 launches 384 threads with
 * 225 KB of shared memory per CTA, initializes its barriers, builds tensor
 * maps and fills 128 x 256 x 64 tiles: at 24 x 2 x 36 it computes 32,768
 * multiply-adds per unit of k to keep 48 of them, and a tile with rows the TMA cannot
 * address is copied by its producer warpgroup element by element. Here a
 * product of m n k multiply-adds is m n dot products of length k, and each
 * is given to a group of G threads of one 256-thread block:
 *
 *   - G is a power of two, the smallest at least k / 16 (1 to 256), so that
 *     a thread adds at most 16 products of the k (more past k = 4096);
 *     256 / G outputs per block. A long k with a small C (7 x 20 x 3383:
 *     140 outputs) gets 256 threads per output, each 14 terms; a short k
 *     with a large C (820 x 105 x 1) one thread per output;
 *   - thread t of a group adds the terms t, t + G, t + 2G, ... of its
 *     output in that order, in fp32 (fmaf). It issues the 32 loads of 16
 *     terms before the first of their multiply-adds (past k, term k - 1
 *     is loaded again and not added), so that it waits for memory once per
 *     16 terms, not once per term: from a cold L2 on the H100, 1 x 3 x
 *     1990 (fp32) took 10.7 us with the loads beside their multiply-adds
 *     and 6.2 us so (gemm/tuning/tiles-h100/latency.txt). Then the group
 *     adds its G partial sums in a fixed tree: warp shuffles
 *     (__shfl_xor_sync, 16, 8, ..., 1 apart) within a warp, and for G >
 *     32 the warps' sums through shared memory, warp 0 of the group
 *     first. No atomics: the same bits on every run;
 *   - consecutive groups take consecutive columns of a row of C, so with
 *     G = 1 the loads of B (stored k x n) and the stores of C are
 *     coalesced; with G >= 2 the lanes of a group walk k, coalesced for A
 *     stored m x k and B stored n x k (y = x W^T);
 *   - elements are loaded one by one (2 bytes, or 4 for fp32), so any
 *     leading dimension, any element alignment, either layout of each
 *     operand and a batch (strides, 0 broadcasts) cost nothing extra;
 *     the epilogue (alpha, beta, bias, ReLU or GELU) is common.cuh's,
 *     applied in fp32 before the one rounding of C; beta = 0 never reads C.
 *
 * What bounds it: no operand is reused from registers or shared memory,
 * so each multiply-add costs two loads (through L1, which holds the
 * operands after their first touch): 2 m n k loads, where a 128 x 256 x 64
 * k-tile of variant 17 brings 384 x 64 elements for 2,097,152
 * multiply-adds. That is why it serves the tiny regions only
 * (GK_GEMM_AUTO's rules, gk/gemm.h, "Tiny products", every type: a short
 * k with few outputs; a k from 9 to 191 with few multiply-adds; a few
 * outputs with a long k), where a launch of a few microseconds is what
 * the whole product costs, and where the tiled rungs would wait for their
 * k-tiles one after another. Measured figures are on gemm/README.md.
 *
 * Precision: the k terms are exact products of 16-bit numbers in fp32
 * (fp32 inputs: fmaf's one rounding per term), added in fp32 in an order
 * of their own (the bound of gemm_ref.h counts additions in any order),
 * then alpha, beta, bias and the activation, and one rounding to C's type
 * (BF16 or FP16; fp32 C: none more). With fp32 inputs it is an fp32
 * product (gk_gemm_variant_precision: GK_GEMM_FP32), whatever
 * desc.compute allows.
 *
 * Sources: the dot-product form of matrix multiplication and the tree
 * reduction within a block (PMPP, chapters 3 and 10); warp shuffles (CUDA
 * C++ Programming Guide, "Warp Shuffle Functions").
 *
 * Build alone: nvcc -c small_01_dot.cu (next to common.cuh, which it
 * includes); any architecture from sm_80.
 */
#include "common.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kTerms = 16; /* a thread's terms per batch of loads: all of them up to k = 4096 */

struct Params {
    const void *a, *b; /* elements of T: 16-bit, or float */
    void *c;
    const void *bias;
    size_t sa_i, sa_k, sb_j, sb_k; /* A(i, kk) = a[i sa_i + kk sa_k]; B(kk, j) = b[kk sb_k + j sb_j] */
    size_t ldc, stride_a, stride_b, stride_c;
    size_t m, n, k, mn, total; /* total = m n batch outputs */
    float alpha, beta;
    unsigned g_log2; /* G = 1 << g_log2 threads per output */
};

/* Element i of a T array as a float: bf16 and f16 through common.cuh's
 * CElem, float as it is. */
template <typename T> struct Elem {
    __device__ static __forceinline__ float load(const void *p, size_t i)
    {
        T x;
        const unsigned short bits = __ldg(static_cast<const unsigned short *>(p) + i);
        memcpy(&x, &bits, sizeof bits);
        return CElem<T>::to_float(x);
    }
};
template <> struct Elem<float> {
    __device__ static __forceinline__ float load(const void *p, size_t i)
    {
        return __ldg(static_cast<const float *>(p) + i);
    }
};

template <typename T, int kEpi> __global__ void __launch_bounds__(kThreads) dot_kernel(const Params p)
{
    __shared__ float warp_sum[kThreads / 32];
    const unsigned G = 1u << p.g_log2, per_block = kThreads >> p.g_log2;
    const unsigned tid = threadIdx.x, group = tid >> p.g_log2, t = tid & (G - 1u), warp = tid >> 5;
    /* Every thread of the block runs every iteration (the loop is the
     * block's), so that the shuffles and barriers below see all of them. */
    for (size_t base = (size_t)blockIdx.x * per_block; base < p.total; base += (size_t)gridDim.x * per_block) {
        const size_t o = base + group;
        const bool live = o < p.total;
        size_t z = 0, i = 0, j = 0;
        float s = 0.0f;
        if (live) {
            z = o / p.mn;
            const size_t r = o - z * p.mn;
            i = r / p.n, j = r - i * p.n;
            const T *ap = static_cast<const T *>(p.a) + z * p.stride_a + i * p.sa_i;
            const T *bp = static_cast<const T *>(p.b) + z * p.stride_b + j * p.sb_j;
            /* kTerms terms at a time: every load of a batch is issued
             * before the first multiply-add waits, so a thread's (up to 16)
             * terms cost one trip to memory, not one per term. */
            for (size_t k0 = t; k0 < p.k; k0 += (size_t)kTerms * G) {
                float x[kTerms], y[kTerms];
#pragma unroll
                for (int u = 0; u < kTerms; ++u) {
                    /* Past k, term k - 1 again (not added below): loads
                     * without a condition, which the compiler issues
                     * together ahead of the multiply-adds. */
                    const size_t kk = k0 + (size_t)u * G < p.k ? k0 + (size_t)u * G : p.k - 1;
                    x[u] = Elem<T>::load(ap, kk * p.sa_k);
                    y[u] = Elem<T>::load(bp, kk * p.sb_k);
                }
#pragma unroll
                for (int u = 0; u < kTerms; ++u)
                    if (k0 + (size_t)u * G < p.k) s = fmaf(x[u], y[u], s);
            }
        }
        /* The group's G sums in a fixed tree: within the warp (lanes of a
         * group differ in their low g_log2 bits), then across its warps. */
        const unsigned lanes = G < 32u ? G : 32u;
        for (unsigned off = lanes >> 1; off >= 1u; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (G > 32u) {
            if ((tid & 31u) == 0u) warp_sum[warp] = s;
            __syncthreads();
            if (t == 0u) {
                s = 0.0f;
                for (unsigned w = 0; w < G / 32u; ++w) s += warp_sum[warp + w]; /* warp 0 of the group first */
            }
            __syncthreads(); /* warp_sum is read before the next iteration writes it */
        }
        if (live && t == 0u) {
            T *const cp = static_cast<T *>(p.c) + z * p.stride_c + i * p.ldc + j;
            float v = p.alpha * s;
            if (p.beta != 0.0f) v += p.beta * CElem<T>::to_float(*cp);
            const float bias = kEpi != 0 ? CElem<T>::to_float(static_cast<const T *>(p.bias)[j]) : 0.0f;
            *cp = CElem<T>::from_float(epilogue_apply<kEpi>(v, bias));
        }
    }
}

template <typename T>
cudaError_t launch(const Params &p, int epilogue, unsigned blocks, cudaStream_t stream)
{
    switch (epilogue) {
    case 0: dot_kernel<T, 0><<<blocks, kThreads, 0, stream>>>(p); break;
    case 1: dot_kernel<T, 1><<<blocks, kThreads, 0, stream>>>(p); break;
    case 2: dot_kernel<T, 2><<<blocks, kThreads, 0, stream>>>(p); break;
    default: dot_kernel<T, 3><<<blocks, kThreads, 0, stream>>>(p); break;
    }
    return cudaGetLastError();
}

} // namespace

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): type 0
 * f32, 1 bf16, 2 f16; op_a, op_b 0 as stored, 1 transposed; strides read
 * when batch > 1; epilogue 0-3 with bias. */
extern "C" cudaError_t gk_gemm_small_01_dot_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                  float alpha, const void *a, size_t lda, size_t stride_a,
                                                  const void *b, size_t ldb, size_t stride_b, float beta, void *c,
                                                  size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                  const void *bias, void *workspace, cudaStream_t stream)
{
    (void)workspace; /* needs none */
    if (type < 0 || type > 2) return cudaErrorNotSupported; /* f32, bf16, f16 */
    int dev = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    Params p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.b = b;
    p.c = c;
    p.bias = bias;
    p.sa_i = op_a ? 1 : lda, p.sa_k = op_a ? lda : 1; /* A stored m x k (N) or k x m (T) */
    p.sb_j = op_b ? ldb : 1, p.sb_k = op_b ? 1 : ldb; /* B stored k x n (N) or n x k (T) */
    p.ldc = ldc;
    const bool batched = batch > 1;
    p.stride_a = batched ? stride_a : 0, p.stride_b = batched ? stride_b : 0, p.stride_c = batched ? stride_c : 0;
    p.m = m, p.n = n, p.k = k, p.mn = m * n, p.total = m * n * batch; /* gk_gemm_ex keeps these below 2^62 */
    p.alpha = alpha, p.beta = beta;
    unsigned g = 0;
    while (g < 8 && ((size_t)1 << g) * 16 < k) ++g; /* G = 2^g >= k / 16, at most 256 */
    p.g_log2 = g;
    const size_t per_block = (size_t)kThreads >> g, want = (p.total + per_block - 1) / per_block;
    const size_t cap = (size_t)sms * 8; /* 8 blocks of 256 threads per SM: 2048 threads, the SM's most */
    const unsigned blocks = (unsigned)(want < cap ? want : cap);
    if (blocks == 0) return cudaSuccess;
    return type == 2   ? launch<__half>(p, epilogue, blocks, stream)
           : type == 1 ? launch<__nv_bfloat16>(p, epilogue, blocks, stream)
                       : launch<float>(p, epilogue, blocks, stream);
}

/* gk_gemm's entry point: f32, as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_small_01_dot_run_f32(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                   size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                   size_t ldc, cudaStream_t stream)
{
    return gk_gemm_small_01_dot_run_ex(0, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                       nullptr, stream);
}

/* gk_gemm_bf16's entry point: bf16, as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_small_01_dot_run(size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                                               const void *b, size_t ldb, float beta, void *c, size_t ldc,
                                               cudaStream_t stream)
{
    return gk_gemm_small_01_dot_run_ex(1, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                       nullptr, stream);
}
