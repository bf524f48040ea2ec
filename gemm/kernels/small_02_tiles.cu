/* Variant 21 (small_02): mid-size products on 64 x 64 tiles of mma.sync,
 * many small CTAs per SM, any layout and alignment; bf16 and f16, and
 * fp32 on TF32.
 *
 * The region it serves: products too large for variant 20's dot products
 * (each multiply-add there costs two loads) and too small, or too oddly
 * shaped, to fill the H100 with variant 17's 128 x 256 tiles. At 1024^3
 * variant 17 has 32 tiles for 132 SMs, one CTA of 384 threads and 225 KB
 * of shared memory each, so three quarters of the SMs idle; at 2464 x 151 x
 * 57 (rows of 57 and 151 elements: not 16-byte units, so the TMA cannot
 * address them) its producer warpgroup copies each stage element by
 * element for 20 x 1 tiles. Here a tile is 64 x 64 of C, a CTA 128
 * threads, so that a large C has eight times as many tiles as variant
 * 17's (1024^3: 256; 2464 x 151 x 57: 117), and up to 4 CTAs share an SM:
 *
 *   - 4 warps as 2 x 2, each owning 32 x 32 of the tile: 2 m16 x 4 n8
 *     accumulator tiles (32 fp32 registers per thread), fed per k16-step by
 *     2 ldmatrix.x4 for A and 2 for B (each B one gives two n8 tiles) for 8
 *     mma.sync m16n8k16 (common.cuh's wrappers, bf16 or f16 in, fp32
 *     accumulation);
 *   - k-tiles of 64: per k-tile and CTA, 64 x 64 elements of A and of B
 *     (8 KB each) for 64 x 64 x 64 multiply-adds: 32 per element loaded
 *     (variant 17's tile: 85.3), the price of eight times as many tiles;
 *   - shared memory in the operands' own orientation (rows along the
 *     stored matrix's contiguous dimension), so that every layout is one
 *     copy path: A stored m x k (op_a = N) or k x m (T), B stored k x n (N)
 *     or n x k (T). ldmatrix reads a K-major tile as it is and an MN-major
 *     one with .trans (PTX ISA: it transposes each 8 x 8 matrix of 16-bit
 *     elements on the way), which hands every lane the mma's fragments in
 *     both cases;
 *   - rows padded from 128 to 144 bytes (64 + 8 elements): the 8 rows an
 *     ldmatrix matrix names lie 36 words apart, i.e. 4 banks on from one
 *     to the next, so each matrix's eight 16-byte rows cover all 32 banks
 *     once (one wavefront per matrix); a warp's 16-byte copies fill 4
 *     padded rows of 128 bytes each, one wavefront per row, the least that
 *     512 bytes take;
 *   - where every row of A and B starts on a 16-byte boundary (base
 *     aligned, leading dimension and batch stride multiples of 8 elements)
 *     the tiles come in by cp.async (16 bytes per thread and chunk, zero
 *     fill past the matrix) into 3 stages, 2 k-tiles in flight while a
 *     third is computed: 3 x 18 KB = 54 KB per CTA, 4 CTAs per SM (a
 *     fourth stage, tried for grids of one wave, changed nothing
 *     measurable at 256^3 and 512^3 on the H100: 7.7 and 10.3 us);
 *   - elsewhere each thread loads its 8 chunks of the next k-tile element
 *     by element (2-byte loads: any leading dimension, any 2-byte
 *     alignment) into 32 registers while the warps compute the current
 *     one, and stores them into the other of 2 stages after it: one
 *     barrier per k-tile, 36 KB per CTA (a copy from the 4-byte words
 *     that hold each chunk, 4 or 5 loads instead of 8, was timed on an
 *     H200 and not kept: 96 to 128 registers with A and B as stored,
 *     one CTA fewer per SM, and the BF16 sweep slower in geometric mean;
 *     gemm/README.md, Variant 21);
 *   - the tiles of all products of a batch form one grid, one CTA per tile
 *     (walked grid-stride past 2^31 - 1); the epilogue (alpha, beta, bias,
 *     ReLU or GELU, rounded once to C's type) is common.cuh's store_tile:
 *     the mma's accumulator fragment (d0, d1 in row g, d2, d3 in row g + 8,
 *     columns 2t, 2t + 1) is the wgmma's m64nNk16 layout of one warp;
 *     with a 16-bit C whose rows are not all 4-byte aligned (an odd ldc)
 *     it moves each row's values by a lane so that they still leave in
 *     4-byte words (store_tile_realigned: 5364 x 1407 x 20 took 0.0468 ms
 *     with 2-byte stores, 0.0316 with these; gemm/README.md).
 *
 * What bounds it: it is the Ampere way (as variant 13, on an eighth of
 * its tile), so at large sizes it stays far below variant 17's wgmma
 * rate; AUTO (gk/gemm.h) gives it the middle region only, where the tile
 * count and the start of a CTA matter more than the rate of one SM. Each
 * warp issues 8 mma per 4 ldmatrix and waits for its copies once per
 * k-tile; the 4 CTAs of an SM overlap one another's waits. Measured figures
 * are on gemm/README.md.
 *
 * fp32 operands run on TF32 (gk_gemm_ex's F32; GK_GEMM_AUTO with compute
 * TF32) in the same tiles, CTAs, stages and epilogue (C in fp32, pairs of
 * floats), with these differences:
 *   - a k-tile is 32 floats deep, so that a K-major row is still 128 bytes
 *     and every operand's tile still 8 KB (9,216 bytes padded): a
 *     K-major one 64 rows of 36 floats, an MN-major one 32 rows (k) of 72;
 *   - ldmatrix moves 16-bit elements (its .trans would cut a float in
 *     two), so each fragment element is one 4-byte shared load, rounded to
 *     TF32 in its register (cvt.rna) and fed to mma.sync m16n8k8: per
 *     k8-step and warp 2 x 4 loads for A and 4 x 2 for B, 16 loads and 16
 *     roundings for 8 mma of 1,024 multiply-adds each (the 16-bit path:
 *     4 ldmatrix.x4 for 8 mma of 2,048). The paddings keep those loads
 *     conflict-free (ktile_tf32 counts the banks);
 *   - the register path loads floats one by one (any 4-byte alignment),
 *     the cp.async path needs rows of whole 16-byte units (lda, ldb,
 *     strides multiples of 4 floats).
 * TF32 runs at half the 16-bit rate per SM on the H100, and each fragment
 * element costs a load and a rounding, so its mid region ends sooner
 * (gk/gemm.h, GK_GEMM_MID_TF32_MAX_MNK).
 *
 * Precision: exact products of 16-bit numbers accumulated in fp32 by the
 * tensor cores, one k16 step after another (a split product: each slice
 * so, then the slices added in a fixed order); alpha, beta, bias and the
 * activation in fp32; one rounding to C's type. fp32 operands: each
 * rounded to TF32 (to nearest, ties away from zero), products and sums
 * in fp32 by the tensor cores, k8 step after k8 step; C stored in fp32.
 *
 * Sources: PTX ISA (mma.m16n8k16 and m16n8k8 .tf32 fragments, ldmatrix and
 * .trans, cvt.rna.tf32.f32, cp.async and its zero fill); the CUDA C++ Programming Guide ("Asynchronous Data
 * Copies"); the multistage pipeline and padded shared memory of PMPP
 * (chapters 5-6) and NVIDIA's CUTLASS documentation ("Efficient GEMM in
 * CUDA").
 *
 * Build alone: nvcc -c small_02_tiles.cu (next to common.cuh, which it
 * includes); any architecture from sm_80.
 */
#include "common.cuh"

namespace {

using namespace tiles64; /* common.cuh: the tiles, copies, k-loop and launch this variant shares with 22 */

/* One k-tile of warp (wm, wn) from stage (sa, sb), 16-bit types: 4
 * k16-steps of 2 x 4 mma. Lane l names row l % 8 of matrix l / 8 (q = l /
 * 8) of each ldmatrix.x4. A K-major (op_a = N, stored [m][k]): matrices
 * (rows 0-7, k 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15) = a0 .. a3;
 * MN-major (T, stored [k][m], .trans): the same four, named by k-row. B
 * MN-major (op_b = N, stored [k][n], .trans) and K-major (T, stored
 * [n][k]): (n 0-7, k 0-7), (n 0-7, k 8-15) = b0, b1 of n8 tile 2jj, then n
 * 8-15 for tile 2jj + 1. */
template <typename T, bool kAT, bool kBT>
__device__ __forceinline__ void ktile16(float (&acc)[2][16], uint32_t sa, uint32_t sb, int wm, int wn, int lane)
{
    constexpr int kPitch = Tile<T, true>::kPitch, kBK = Geo<T>::kBK; /* 72 in either orientation */
    static_assert(Tile<T, false>::kPitch == kPitch && (kPitch * 2 / 4) % 32 == 4, "rows 4 banks apart");
    const int q = lane >> 3, r = lane & 7;
#pragma unroll
    for (int s = 0; s < kBK / 16; ++s) {
        uint32_t af[2][4], bf[2][4];
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int m0 = wm * 32 + i * 16 + (q & 1) * 8, k0 = s * 16 + (q >> 1) * 8;
            const int off = kAT ? (k0 + r) * kPitch + m0 : (m0 + r) * kPitch + k0;
            ldmatrix_x4<kAT>(af[i], sa + 2u * (uint32_t)off);
        }
#pragma unroll
        for (int jj = 0; jj < 2; ++jj) {
            const int n0 = wn * 32 + jj * 16 + (q >> 1) * 8, k0 = s * 16 + (q & 1) * 8;
            const int off = kBT ? (n0 + r) * kPitch + k0 : (k0 + r) * kPitch + n0;
            ldmatrix_x4<!kBT>(bf[jj], sb + 2u * (uint32_t)off);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                mma16816<T>(*reinterpret_cast<float(*)[4]>(&acc[i][4 * j]), af[i][0], af[i][1], af[i][2], af[i][3],
                            bf[j >> 1][2 * (j & 1)], bf[j >> 1][2 * (j & 1) + 1]);
    }
}

/* The same for fp32 operands on TF32: 4 k8-steps of 2 x 4 mma m16n8k8.
 * ldmatrix moves 16-bit elements (its .trans would split a float), so
 * each fragment element is one 4-byte shared load, rounded to TF32 in the
 * register (common.cuh's to_tf32): per k8-step and warp 2 x 4 for A and 4
 * x 2 for B, 16 loads for 8 mma. Lane 4g + t reads A(m + g, k + t) and B(k
 * + t, n + g) (and the +8 rows, +4 k): in a K-major tile (pitch 36 words)
 * that word is 36 g + t + const, bank 4 g + t; in an MN-major one (pitch
 * 72 words) 72 t + g + const, bank 8 t + g: 32 distinct banks either way,
 * one wavefront per load. */
template <bool kAT, bool kBT>
__device__ __forceinline__ void ktile_tf32(float (&acc)[2][16], const float *sa, const float *sb, int wm, int wn,
                                           int lane)
{
    constexpr int pa = Tile<float, !kAT>::kPitch, pb = Tile<float, kBT>::kPitch;
    static_assert((Tile<float, true>::kPitch % 32) == 4 && (Tile<float, false>::kPitch % 32) == 8, "banks");
    const int g = lane >> 2, t = lane & 3;
    /* A(m, k) and B(k, n) of the k-tile, in their stored orientation. */
    auto A = [&](int m, int k) { return to_tf32(kAT ? sa[k * pa + m] : sa[m * pa + k]); };
    auto B = [&](int k, int n) { return to_tf32(kBT ? sb[n * pb + k] : sb[k * pb + n]); };
#pragma unroll
    for (int s = 0; s < Geo<float>::kBK / 8; ++s) {
        const int k = 8 * s + t;
        uint32_t af[2][4], bf[4][2];
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int m = wm * 32 + 16 * i + g;
            af[i][0] = A(m, k), af[i][1] = A(m + 8, k), af[i][2] = A(m, k + 4), af[i][3] = A(m + 8, k + 4);
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int n = wn * 32 + 8 * j + g;
            bf[j][0] = B(k, n), bf[j][1] = B(k + 4, n);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                mma_tf32(*reinterpret_cast<float(*)[4]>(&acc[i][4 * j]), af[i], bf[j][0], bf[j][1]);
    }
}

template <typename T, bool kAT, bool kBT>
__device__ __forceinline__ void ktile(float (&acc)[2][16], const unsigned char *smem, uint32_t s0, int stage, int wm,
                                      int wn, int lane)
{
    const int off = stage * kStageBytes;
    if constexpr (Geo<T>::kE == 4)
        ktile_tf32<kAT, kBT>(acc, reinterpret_cast<const float *>(smem + off),
                             reinterpret_cast<const float *>(smem + off + kTileBytes), wm, wn, lane);
    else
        ktile16<T, kAT, kBT>(acc, s0 + (uint32_t)off, s0 + (uint32_t)(off + kTileBytes), wm, wn, lane);
}

/* kF32C: C is fp32, a split product's partials (alpha only, no epilogue).
 * A is K-major unless kAT, B K-major when kBT. */
template <typename T, bool kAT, bool kBT, bool kAsync, bool kF32C>
__global__ void __launch_bounds__(kThreads) tiles_kernel(const Params p)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t s0 = smem_u32(smem);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp >> 1, wn = warp & 1;
    for (size_t u = blockIdx.x; u < p.units; u += gridDim.x) {
        const Unit w = unit_of<T, kF32C>(p, u);
        float acc[2][16];
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 16; ++j) acc[i][j] = 0.0f;
        mainloop<T, kAT, kBT, kAsync>(p, w, s0, tid,
                                      [&](int stage) { ktile<T, kAT, kBT>(acc, smem, s0, stage, wm, wn, lane); });

        /* The epilogue: warp (wm, wn) stores rows bm + 32 wm + 16 i .., columns bn + 32 wn ... */
        T *const c = static_cast<T *>(p.c) + w.z * p.stride_c;
        const T *const bias = static_cast<const T *>(p.bias);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const unsigned row0 = w.bm + 32u * wm + 16u * i, col0 = w.bn + 32u * wn;
            if constexpr (kF32C) {
                store_partial<16>(acc[i], static_cast<float *>(p.c) + w.z * p.stride_c, p.ldc, p.m, p.n, row0, col0,
                                  lane, p.alpha, p.c_vec);
                continue;
            }
            switch (p.epi) { /* uniform */
            case 0: store_tile<16, 0, T>(acc[i], c, p.ldc, p.m, p.n, row0, col0, lane, p.alpha, p.beta, p.c_vec); break;
            case 1:
                store_tile<16, 1, T>(acc[i], c, p.ldc, p.m, p.n, row0, col0, lane, p.alpha, p.beta, p.c_vec, bias,
                                     p.bias_vec);
                break;
            case 2:
                store_tile<16, 2, T>(acc[i], c, p.ldc, p.m, p.n, row0, col0, lane, p.alpha, p.beta, p.c_vec, bias,
                                     p.bias_vec);
                break;
            default:
                store_tile<16, 3, T>(acc[i], c, p.ldc, p.m, p.n, row0, col0, lane, p.alpha, p.beta, p.c_vec, bias,
                                     p.bias_vec);
                break;
            }
        }
    }
}

template <typename T, bool kAT, bool kBT, bool kF32C>
cudaError_t launch(const Params &p, bool async, cudaStream_t stream)
{
    return launch_units(async ? tiles_kernel<T, kAT, kBT, true, kF32C> : tiles_kernel<T, kAT, kBT, false, kF32C>, p,
                        async, stream);
}
/* The layout's instance: A stored k x m when op_a is T, B stored n x k when op_b is T. */
template <typename T, bool kF32C> cudaError_t launch_layout(int op_a, int op_b, const Params &p, bool async, cudaStream_t stream)
{
    switch (2 * (op_a != 0) + (op_b != 0)) {
    case 0: return launch<T, false, false, kF32C>(p, async, stream);
    case 1: return launch<T, false, true, kF32C>(p, async, stream);
    case 2: return launch<T, true, false, kF32C>(p, async, stream);
    default: return launch<T, true, true, kF32C>(p, async, stream);
    }
}
template <bool kF32C> cudaError_t launch_type(int type, int op_a, int op_b, const Params &p, bool async, cudaStream_t stream)
{
    switch (type) {
    case 0: return launch_layout<float, kF32C>(op_a, op_b, p, async, stream);
    case 1: return launch_layout<__nv_bfloat16, kF32C>(op_a, op_b, p, async, stream);
    default: return launch_layout<__half, kF32C>(op_a, op_b, p, async, stream);
    }
}

} // namespace

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): type 0
 * f32 (on TF32), 1 bf16, 2 f16; op_a, op_b 0 as stored, 1 transposed;
 * strides read when batch > 1; epilogue 0-3 with bias. */
extern "C" cudaError_t gk_gemm_small_02_tiles_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                    float alpha, const void *a, size_t lda, size_t stride_a,
                                                    const void *b, size_t ldb, size_t stride_b, float beta, void *c,
                                                    size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                    const void *bias, void *workspace, cudaStream_t stream)
{
    (void)workspace; /* needs none */
    if (type < 0 || type > 2) return cudaErrorNotSupported;
    Params p;
    cudaError_t err = init_params(p, m, n, k, a, lda, b, ldb);
    if (err != cudaSuccess) return err;
    const bool async = ex_params(p, type, k, a, lda, stride_a, b, ldb, stride_b, c, ldc, stride_c, batch, alpha, beta,
                                 epilogue, bias);
    if (p.units == 0) return cudaSuccess;
    return launch_type<false>(type, op_a, op_b, p, async, stream);
}

/* Split-K's first step (gemm.c, GK_GEMM_AUTO): the fp32 partials of one
 * product (type 0 f32 on TF32, 1 bf16, 2 f16), alpha = 1, into `splits`
 * dense m x n slabs at `partials` (slab z = the k-tiles z kc / kBK .. of
 * the product, kc a multiple of 64, every slice non-empty: splits = ceil(k
 * / kc)), in one launch: the units are the tiles of each slice, as if the
 * slices were a batch, with A and B addressed whole (the copies zero-fill
 * past k, so the last slice may be shorter). Any layout and alignment. */
extern "C" cudaError_t gk_gemm_small_02_tiles_run_split(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                       size_t kc, size_t splits, const void *a, size_t lda,
                                                       const void *b, size_t ldb, float *partials,
                                                       cudaStream_t stream)
{
    if (type < 0 || type > 2) return cudaErrorNotSupported;
    Params p;
    const cudaError_t err = split_params(p, type, m, n, k, kc, splits, a, lda, b, ldb, partials);
    if (err != cudaSuccess || p.units == 0) return err;
    return launch_type<true>(type, op_a, op_b, p, split_async(type, a, lda, b, ldb), stream);
}

/* gk_gemm_bf16's entry point: bf16, as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_small_02_tiles_run(size_t m, size_t n, size_t k, float alpha, const void *a,
                                                 size_t lda, const void *b, size_t ldb, float beta, void *c,
                                                 size_t ldc, cudaStream_t stream)
{
    return gk_gemm_small_02_tiles_run_ex(1, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                         nullptr, stream);
}

/* gk_gemm's entry point for fp32 storage: on TF32, as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_small_02_tiles_run_tf32(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                      size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                      size_t ldc, cudaStream_t stream)
{
    return gk_gemm_small_02_tiles_run_ex(0, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                         nullptr, stream);
}
