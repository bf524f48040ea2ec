/* Variant 21 (small_02): mid-size products on 64 x 64 tiles of mma.sync,
 * many small CTAs per SM, any layout and alignment.
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
 *     barrier per k-tile, 36 KB per CTA;
 *   - the tiles of all products of a batch form one grid, one CTA per tile
 *     (walked grid-stride past 2^31 - 1); the epilogue (alpha, beta, bias,
 *     ReLU or GELU, rounded once to C's type) is common.cuh's store_tile:
 *     the mma's accumulator fragment (d0, d1 in row g, d2, d3 in row g + 8,
 *     columns 2t, 2t + 1) is the wgmma's m64nNk16 layout of one warp.
 *
 * What bounds it: it is the Ampere way (as variant 13, on an eighth of
 * its tile), so at large sizes it stays far below variant 17's wgmma
 * rate; AUTO (gk/gemm.h) gives it the middle region only, where the tile
 * count and the start of a CTA matter more than the rate of one SM. Each
 * warp issues 8 mma per 4 ldmatrix and waits for its copies once per
 * k-tile; the 4 CTAs of an SM overlap one another's waits. Measured figures
 * are on gemm/README.md.
 *
 * Precision: exact products of 16-bit numbers accumulated in fp32 by the
 * tensor cores, one k16 step after another (a split product: each slice
 * so, then the slices added in a fixed order); alpha, beta, bias and the
 * activation in fp32; one rounding to C's type.
 *
 * Sources: PTX ISA (mma.m16n8k16 fragments, ldmatrix and .trans, cp.async
 * and its zero fill); the CUDA C++ Programming Guide ("Asynchronous Data
 * Copies"); the multistage pipeline and padded shared memory of PMPP
 * (chapters 5-6) and NVIDIA's CUTLASS documentation ("Efficient GEMM in
 * CUDA").
 *
 * Build alone: nvcc -c small_02_tiles.cu (next to common.cuh, which it
 * includes); any architecture from sm_80.
 */
#include "common.cuh"

namespace {

constexpr int kBM = 64, kBN = 64, kBK = 64; /* the CTA's tile of C, and its k-tile */
constexpr int kThreads = 128;               /* 4 warps as 2 (m) x 2 (n), 32 x 32 each */
constexpr int kPitch = kBK + 8;             /* elements per shared-memory row: 144 bytes */
constexpr int kTileBytes = 64 * kPitch * 2; /* one operand's k-tile: 64 rows, 9,216 bytes */
constexpr int kStageBytes = 2 * kTileBytes; /* A and B: 18,432 */
constexpr int kAsyncStages = 3, kRegStages = 2;
constexpr int kChunks = 64 * 64 / 8 / kThreads; /* 16-byte chunks per thread, operand and k-tile: 4 */
static_assert(kBM == 64 && kBN == 64 && kBK == 64, "every tile is 64 x 64 in either orientation");
static_assert((kPitch * 2) % 16 == 0 && (kPitch * 2 / 4) % 32 == 4, "rows 16-byte aligned, 4 banks apart");
static_assert(kAsyncStages * kStageBytes <= 227 * 1024 / 4, "4 CTAs per SM");

struct Params {
    const unsigned short *a, *b;
    void *c;
    const void *bias;
    size_t lda, ldb, ldc, stride_a, stride_b, stride_c;
    size_t units; /* tiles_m tiles_n batch (split-K: tiles_m tiles_n splits) */
    unsigned m, n, k, tiles_n, tiles;
    unsigned kt_per; /* split-K: product z is slice z, k-tiles z kt_per ..; 0: all */
    float alpha, beta;
    int epi;
    bool c_vec, bias_vec;
};

/* A k-tile of a stored operand: rows r0 .. r0 + 63 (below `rows`) by
 * columns c0 .. c0 + 63 (below `cols`, the contiguous dimension). */
struct View {
    const unsigned short *src;
    size_t ld;
    unsigned rows, cols, r0, c0;
};
/* A's (kT: stored k x m) and B's (kT: stored n x k) k-tile kt at (bm, bn). */
template <bool kT> __device__ __forceinline__ View a_view(const unsigned short *a, const Params &p, unsigned bm, unsigned kt)
{
    return kT ? View{a, p.lda, p.k, p.m, kt * kBK, bm} : View{a, p.lda, p.m, p.k, bm, kt * kBK};
}
template <bool kT> __device__ __forceinline__ View b_view(const unsigned short *b, const Params &p, unsigned bn, unsigned kt)
{
    return kT ? View{b, p.ldb, p.n, p.k, bn, kt * kBK} : View{b, p.ldb, p.k, p.n, kt * kBK, bn};
}

/* Thread t copies chunk column t % 8 (elements 8 (t % 8) ..) of the tile
 * rows t / 8 + 16 c, c = 0 .. 3: eight threads read one row's 128 bytes. */
__device__ __forceinline__ uint32_t chunk_dst(uint32_t tile, int tid, int c)
{
    return tile + (uint32_t)(((tid >> 3) + 16 * c) * kPitch + 8 * (tid & 7)) * 2u;
}
/* 16-byte rows: cp.async with zero fill (src_bytes 0 .. 16). */
__device__ __forceinline__ void copy_async(uint32_t tile, const View &v, int tid)
{
    const unsigned col = v.c0 + 8u * (unsigned)(tid & 7);
    const int bytes = col >= v.cols ? 0 : (v.cols - col >= 8u ? 16 : 2 * (int)(v.cols - col));
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        const unsigned row = v.r0 + (unsigned)(tid >> 3) + 16u * c;
        const bool in = row < v.rows && bytes > 0;
        cp_async16(chunk_dst(tile, tid, c), in ? v.src + (size_t)row * v.ld + col : v.src, in ? bytes : 0);
    }
}
/* Any rows: the thread's 4 chunks element by element into registers (two
 * elements per word, the lower column in the low half), zeros outside. */
__device__ __forceinline__ void load_regs(uint32_t (&x)[kChunks][4], const View &v, int tid)
{
    const unsigned col = v.c0 + 8u * (unsigned)(tid & 7);
    const int count = col >= v.cols ? 0 : (v.cols - col >= 8u ? 8 : (int)(v.cols - col));
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        const unsigned row = v.r0 + (unsigned)(tid >> 3) + 16u * c;
        const int cnt = row < v.rows ? count : 0;
        const unsigned short *p = v.src + (row < v.rows ? (size_t)row * v.ld + col : 0);
#pragma unroll
        for (int w = 0; w < 4; ++w) {
            const uint32_t lo = 2 * w < cnt ? __ldg(p + 2 * w) : 0u;
            const uint32_t hi = 2 * w + 1 < cnt ? __ldg(p + 2 * w + 1) : 0u;
            x[c][w] = lo | (hi << 16);
        }
    }
}
__device__ __forceinline__ void store_regs(uint32_t tile, const uint32_t (&x)[kChunks][4], int tid)
{
#pragma unroll
    for (int c = 0; c < kChunks; ++c) st_shared16(chunk_dst(tile, tid, c), x[c][0], x[c][1], x[c][2], x[c][3]);
}

/* One k-tile of warp (wm, wn) from stage (sa, sb): 4 k16-steps of 2 x 4
 * mma. Lane l names row l % 8 of matrix l / 8 (q = l / 8) of each
 * ldmatrix.x4. A K-major (op_a = N, stored [m][k]): matrices (rows 0-7, k
 * 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15) = a0 .. a3; MN-major (T,
 * stored [k][m], .trans): the same four, named by k-row. B MN-major (op_b =
 * N, stored [k][n], .trans) and K-major (T, stored [n][k]): (n 0-7, k 0-7),
 * (n 0-7, k 8-15) = b0, b1 of n8 tile 2jj, then n 8-15 for tile 2jj + 1. */
template <typename T, bool kAT, bool kBT>
__device__ __forceinline__ void ktile(float (&acc)[2][16], uint32_t sa, uint32_t sb, int wm, int wn, int lane)
{
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

/* kF32C: C is fp32, a split product's partials (alpha only, no epilogue). */
template <typename T, bool kAT, bool kBT, bool kAsync, bool kF32C>
__global__ void __launch_bounds__(kThreads) tiles_kernel(const Params p)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t s0 = smem_u32(smem);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp >> 1, wn = warp & 1;
    const unsigned ktiles = (p.k + kBK - 1) / kBK;
    for (size_t u = blockIdx.x; u < p.units; u += gridDim.x) {
        const size_t z = u / p.tiles;
        const unsigned t = (unsigned)(u - z * p.tiles);
        const unsigned bm = t / p.tiles_n * kBM, bn = t % p.tiles_n * kBN;
        const unsigned short *const a = p.a + z * p.stride_a, *const b = p.b + z * p.stride_b;
        /* This unit's k-tiles kt0 .. kt0 + nkt - 1: all of them, or slice
         * z's (the launcher makes every slice non-empty). */
        unsigned kt0 = 0, nkt = ktiles;
        if (kF32C && p.kt_per != 0) {
            kt0 = (unsigned)z * p.kt_per;
            nkt = ktiles - kt0 < p.kt_per ? ktiles - kt0 : p.kt_per;
        }
        float acc[2][16];
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 16; ++j) acc[i][j] = 0.0f;

        if constexpr (kAsync) {
            /* Stages kt % 3: k-tiles kt + 1 and kt + 2 in flight while kt is
             * computed. One group per k-tile (empty past the last), so that
             * wait_group 1 always means "k-tile kt has landed". */
#pragma unroll
            for (int s = 0; s < kAsyncStages - 1; ++s) {
                if ((unsigned)s < nkt) {
                    const uint32_t st = s0 + (uint32_t)(s * kStageBytes);
                    copy_async(st, a_view<kAT>(a, p, bm, kt0 + s), tid);
                    copy_async(st + kTileBytes, b_view<kBT>(b, p, bn, kt0 + s), tid);
                }
                cp_async_commit();
            }
            for (unsigned kt = 0; kt < nkt; ++kt) {
                cp_async_wait<kAsyncStages - 2>();
                /* k-tile kt is visible to every warp, and every warp is done
                 * with k-tile kt - 1, whose stage the copy below refills. */
                __syncthreads();
                const unsigned nk = kt + kAsyncStages - 1;
                if (nk < nkt) {
                    const uint32_t st = s0 + (uint32_t)((nk % kAsyncStages) * kStageBytes);
                    copy_async(st, a_view<kAT>(a, p, bm, kt0 + nk), tid);
                    copy_async(st + kTileBytes, b_view<kBT>(b, p, bn, kt0 + nk), tid);
                }
                cp_async_commit();
                const uint32_t st = s0 + (uint32_t)((kt % kAsyncStages) * kStageBytes);
                ktile<T, kAT, kBT>(acc, st, st + kTileBytes, wm, wn, lane);
            }
            cp_async_wait<0>(); /* only empty groups remain; none may outlive the CTA */
        } else {
            uint32_t xa[kChunks][4], xb[kChunks][4];
            if (nkt > 0) {
                load_regs(xa, a_view<kAT>(a, p, bm, kt0), tid);
                load_regs(xb, b_view<kBT>(b, p, bn, kt0), tid);
                store_regs(s0, xa, tid);
                store_regs(s0 + kTileBytes, xb, tid);
                __syncthreads();
            }
            for (unsigned kt = 0; kt < nkt; ++kt) {
                /* The next k-tile's loads are in flight during this one's mma. */
                const bool more = kt + 1 < nkt;
                if (more) {
                    load_regs(xa, a_view<kAT>(a, p, bm, kt0 + kt + 1), tid);
                    load_regs(xb, b_view<kBT>(b, p, bn, kt0 + kt + 1), tid);
                }
                const uint32_t st = s0 + (uint32_t)((kt & 1) * kStageBytes);
                ktile<T, kAT, kBT>(acc, st, st + kTileBytes, wm, wn, lane);
                if (more) {
                    /* The other stage was last read in k-tile kt - 1, before
                     * the barrier that ended it. */
                    const uint32_t nx = s0 + (uint32_t)(((kt + 1) & 1) * kStageBytes);
                    store_regs(nx, xa, tid);
                    store_regs(nx + kTileBytes, xb, tid);
                }
                __syncthreads();
            }
        }

        /* The epilogue: warp (wm, wn) stores rows bm + 32 wm + 16 i .., columns bn + 32 wn ... */
        T *const c = static_cast<T *>(p.c) + z * p.stride_c;
        const T *const bias = static_cast<const T *>(p.bias);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const unsigned row0 = bm + 32u * wm + 16u * i, col0 = bn + 32u * wn;
            if constexpr (kF32C) {
                store_partial<16>(acc[i], static_cast<float *>(p.c) + z * p.stride_c, p.ldc, p.m, p.n, row0, col0,
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
        /* No warp's next copies overwrite a stage another warp still reads
         * (the async loop's last k-tile has no barrier after it). */
        if (kAsync) __syncthreads();
    }
}

/* Every row of an operand (every product's) starts on a 16-byte boundary. */
bool rows16(const void *p, size_t ld, size_t stride, bool batched)
{
    return (uintptr_t)p % 16 == 0 && ld % 8 == 0 && (!batched || stride % 8 == 0);
}

template <typename T, bool kAT, bool kBT, bool kF32C>
cudaError_t launch(const Params &p, bool async, cudaStream_t stream)
{
    auto kernel = async ? tiles_kernel<T, kAT, kBT, true, kF32C> : tiles_kernel<T, kAT, kBT, false, kF32C>;
    const int smem = (async ? kAsyncStages : kRegStages) * kStageBytes;
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess) return err;
    const size_t blocks = p.units < 0x7fffffffu ? p.units : 0x7fffffffu;
    kernel<<<(unsigned)blocks, kThreads, smem, stream>>>(p);
    return cudaGetLastError();
}

} // namespace

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): type 1
 * bf16, 2 f16; op_a, op_b 0 as stored, 1 transposed; strides read when
 * batch > 1; epilogue 0-3 with bias. */
extern "C" cudaError_t gk_gemm_small_02_tiles_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                    float alpha, const void *a, size_t lda, size_t stride_a,
                                                    const void *b, size_t ldb, size_t stride_b, float beta, void *c,
                                                    size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                    const void *bias, void *workspace, cudaStream_t stream)
{
    (void)workspace; /* needs none */
    if (type != 1 && type != 2) return cudaErrorNotSupported; /* 16-bit types only */
    /* ldmatrix, cp.async and mma.sync .bf16 exist from compute capability 8.0 on. */
    cudaError_t err = require_cc(8);
    if (err != cudaSuccess) return err;
    if (m > 0xffffffffu || n > 0xffffffffu || k > 0xffffffffu - kBK) return cudaErrorInvalidConfiguration;
    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0xffffffffu) return cudaErrorInvalidConfiguration;
    const bool batched = batch > 1;
    Params p;
    memset(&p, 0, sizeof p);
    p.a = static_cast<const unsigned short *>(a);
    p.b = static_cast<const unsigned short *>(b);
    p.c = c;
    p.bias = bias;
    p.lda = lda, p.ldb = ldb, p.ldc = ldc;
    p.stride_a = batched ? stride_a : 0, p.stride_b = batched ? stride_b : 0, p.stride_c = batched ? stride_c : 0;
    p.m = (unsigned)m, p.n = (unsigned)n, p.k = (unsigned)k;
    p.tiles_n = (unsigned)tiles_n, p.tiles = (unsigned)(tiles_m * tiles_n);
    p.units = tiles_m * tiles_n * batch; /* gk_gemm_ex keeps m n batch below 2^62 */
    p.alpha = alpha, p.beta = beta;
    p.epi = epilogue;
    /* C and the bias as 4-byte pairs where every product's rows allow it. */
    p.c_vec = ((uintptr_t)c & 3u) == 0 && ldc % 2 == 0 && p.stride_c % 2 == 0;
    p.bias_vec = ((uintptr_t)bias & 3u) == 0;
    if (p.units == 0) return cudaSuccess;
    const bool async = k > 0 && rows16(a, lda, stride_a, batched) && rows16(b, ldb, stride_b, batched);
    const int layout = 2 * (op_a != 0) + (op_b != 0);
    if (type == 2) {
        switch (layout) {
        case 0: return launch<__half, false, false, false>(p, async, stream);
        case 1: return launch<__half, false, true, false>(p, async, stream);
        case 2: return launch<__half, true, false, false>(p, async, stream);
        default: return launch<__half, true, true, false>(p, async, stream);
        }
    }
    switch (layout) {
    case 0: return launch<__nv_bfloat16, false, false, false>(p, async, stream);
    case 1: return launch<__nv_bfloat16, false, true, false>(p, async, stream);
    case 2: return launch<__nv_bfloat16, true, false, false>(p, async, stream);
    default: return launch<__nv_bfloat16, true, true, false>(p, async, stream);
    }
}

/* Split-K's first step (gemm.c, GK_GEMM_AUTO): the fp32 partials of one
 * 16-bit product (type 1 bf16, 2 f16), alpha = 1, into `splits` dense m x n
 * slabs at `partials` (slab z = the k-tiles z kc / 64 .. of the product, kc
 * a multiple of 64, every slice non-empty: splits = ceil(k / kc)), in one
 * launch: the units are the tiles of each slice, as if the slices were a
 * batch, with A and B addressed whole (the copies zero-fill past k, so the
 * last slice may be shorter). Any layout and alignment. */
extern "C" cudaError_t gk_gemm_small_02_tiles_run_split(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                       size_t kc, size_t splits, const void *a, size_t lda,
                                                       const void *b, size_t ldb, float *partials,
                                                       cudaStream_t stream)
{
    if ((type != 1 && type != 2) || kc % kBK != 0 || kc == 0 || splits < 1 || (splits - 1) * kc >= k ||
        splits * kc < k)
        return cudaErrorNotSupported;
    cudaError_t err = require_cc(8);
    if (err != cudaSuccess) return err;
    if (m > 0xffffffffu || n > 0xffffffffu || k > 0xffffffffu - kBK) return cudaErrorInvalidConfiguration;
    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0xffffffffu || splits > 0xffffffffu) return cudaErrorInvalidConfiguration;
    Params p;
    memset(&p, 0, sizeof p);
    p.a = static_cast<const unsigned short *>(a);
    p.b = static_cast<const unsigned short *>(b);
    p.c = partials;
    p.lda = lda, p.ldb = ldb, p.ldc = n;
    p.stride_c = m * n; /* slab z */
    p.m = (unsigned)m, p.n = (unsigned)n, p.k = (unsigned)k;
    p.tiles_n = (unsigned)tiles_n, p.tiles = (unsigned)(tiles_m * tiles_n);
    p.units = tiles_m * tiles_n * splits;
    p.kt_per = (unsigned)(kc / kBK);
    p.alpha = 1.0f;
    p.c_vec = ((uintptr_t)partials & 7u) == 0 && n % 2 == 0;
    if (p.units == 0) return cudaSuccess;
    const bool async = rows16(a, lda, 0, false) && rows16(b, ldb, 0, false);
    switch (4 * (type == 2) + 2 * (op_a != 0) + (op_b != 0)) {
    case 0: return launch<__nv_bfloat16, false, false, true>(p, async, stream);
    case 1: return launch<__nv_bfloat16, false, true, true>(p, async, stream);
    case 2: return launch<__nv_bfloat16, true, false, true>(p, async, stream);
    case 3: return launch<__nv_bfloat16, true, true, true>(p, async, stream);
    case 4: return launch<__half, false, false, true>(p, async, stream);
    case 5: return launch<__half, false, true, true>(p, async, stream);
    case 6: return launch<__half, true, false, true>(p, async, stream);
    default: return launch<__half, true, true, true>(p, async, stream);
    }
}

/* gk_gemm_bf16's entry point: bf16, as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_small_02_tiles_run(size_t m, size_t n, size_t k, float alpha, const void *a,
                                                 size_t lda, const void *b, size_t ldb, float beta, void *c,
                                                 size_t ldc, cudaStream_t stream)
{
    return gk_gemm_small_02_tiles_run_ex(1, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                         nullptr, stream);
}
