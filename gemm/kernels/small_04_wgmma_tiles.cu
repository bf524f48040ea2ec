/* Variant 23 (small_04): mid-size products on Hopper's wgmma: 128 x 128 or
 * 128 x 64 tiles, one per CTA, fed by the TMA; bf16 and f16, any layout.
 *
 * The region it serves: products from about 256^3 to 2048^3 whose rows the
 * TMA can address. Variant 21 fills the GPU there with 64 x 64 tiles, but
 * on mma.sync, the Ampere way: per k16-step each warp reads its fragments
 * with ldmatrix before the mma can start, and at 1024^3 it runs well below
 * the wgmma rate (the page's table). Variant 17 has the rate but not the
 * tiles: its 128 x 256 tile gives 1024^3 32 tiles for 132 SMs. Here the
 * block tile is variant 17's with a narrower n: 128 x kBN, kBN = 128 or
 * 64, which the launcher picks from the shape (below):
 *
 *   - two consumer warpgroups, each owning 64 rows x kBN columns: one
 *     wgmma m64nNk16 per k16-step (sm90.cuh's wgmma_m64nNk16_any, N = 128:
 *     64 fp32 accumulators per thread; N = 64: 32), reading A and B from
 *     shared memory through descriptors, so no warp loads a fragment;
 *   - a producer warpgroup whose thread 0 queues each k-tile of 64 with the
 *     TMA (A: one box of 64 k x 128 rows, or two of 64 m x 64 k; B: kBN / 64
 *     panels of 64 n x 64 k, or one box of 64 k x kBN n-rows) into a ring
 *     of stages, each with a full and an empty mbarrier: variant 16's
 *     pipeline (producer waits for a stage to be released, consumers for its
 *     bytes). 128 x 64 tiles take 8 stages of 24 KB (192 KB: 7 k-tiles in
 *     flight while one is computed), 128 x 128 tiles 4 of 32 KB (128 KB);
 *     either way one CTA per SM (see "Stages" below);
 *   - the descriptors of variant 17 (sm90.cuh's desc16_a, desc16_b) in
 *     every layout: A stored m x k or k x m, B k x n or n x k, each kept in
 *     its stored orientation with the TMA's 128-byte swizzle, and the
 *     wgmma's transpose bits say which is which;
 *   - one tile per CTA, the tiles of all products of a batch (or all slices
 *     of a split k) in one grid: no persistence. A mid-size product has one
 *     or two waves of tiles, so the next tile's loads have little to hide
 *     behind, and each CTA's first k-tile meets the launch alone;
 *   - the epilogue through shared memory and the TMA store when beta = 0
 *     and C's rows are TMA-addressable (sm90.cuh's store_tile_tma, variant
 *     17's: "The store" below), else from registers (common.cuh's
 *     store_tile); either way alpha, beta, bias, ReLU or GELU in fp32,
 *     rounded once to C's type; or a split slice's fp32 partials
 *     (store_partial) for split_k.cu's fixed-order sum.
 *
 * Counted per CTA and k-tile (kBN = 128): 16 KB of A and 16 KB of B for
 * 128 x 128 x 64 multiply-adds, 32 per byte loaded (variant 17: 42.7;
 * variant 21's 64 x 64: 16). The two warpgroups' 8 wgmma m64n128k16 read
 * 2 KB of A and 4 KB of B from shared memory for 131,072 multiply-adds
 * each (21.3 per byte; m64n256k16: 25.6; m64n64k16: 16).
 *
 * The width (run_ex): kBN = 128 when 128 x 128 tiles give at least
 * GKS4_WIDE_MIN_TILES (default 128) CTAs over the products (or the slices
 * of a split), else kBN = 64, whose twice as many CTAs trade 25% more
 * bytes per multiply-add for SMs that would otherwise idle. At 1024^3 the
 * two give 64 and 128 CTAs (H100, cuBLAS's time over ours, same run,
 * cold L2: 0.67 and 0.77 with 4 stages each).
 *
 * Stages (GKS4_STAGES_NARROW, GKS4_STAGES_WIDE): a mid-size product has at
 * most about one CTA per SM, each waiting on L2 for every k-tile, so the
 * ring's depth sets how much of that wait is hidden. Measured on the H100
 * (same run as cuBLAS, cold L2; the ratio is cuBLAS's time over ours), 128 x
 * 64 tiles with 4, 6 and 8 stages: 1024^3 0.77, 0.81, 0.88; 512^3 0.86,
 * 0.89, 0.93; 768^3 0.73, 0.74, 0.79. Four 24 KB stages would let two CTAs
 * share an SM, which nothing here gains from. 128 x 128 tiles with 4, 5
 * and 6 stages: 1024^3 0.67, 0.66, 0.67; 2048^3 0.73 each. Hence 8 and 4.
 * (gemm/tuning/wgmma_stages.cu times the two widths of one build against
 * cuBLAS; gemm/tuning/tiles-h100/wgmma_stages.txt holds the three builds'
 * output. Those ratios are from before the TMA store below, with C stored
 * from registers.) The width's and the stages' choices still hold with
 * it (wgmma_fixed.txt, build 5: 1024^3 8.80 us on 128 x 64 tiles, 11.10 on
 * 128 x 128; 1536^3, 144 wide tiles, 23.58 against 24.19; 2048^3 32.22
 * against 40.80).
 *
 * The store. A mid-size product's CTAs all compute one tile and reach
 * their epilogue together, at the end of the kernel, so the time it takes
 * to write C adds to the whole. Measured on an H100 (gemm/tuning/
 * wgmma_fixed.cu, cold L2, medians, 2026-11-27; tiles-h100/wgmma_fixed.txt:
 * five builds of this file), 128 x 64 tiles at 1024 x 1024 x 64 (one
 * k-tile each) and 1024^3, against cuBLAS BF16's 5.47 and 8.58 us:
 *
 *   epilogue                                        1024 x 1024 x 64   1024^3
 *   4-byte pair stores from registers                       7.49 us  10.69
 *   the same, short path (no bounds or beta tests)          7.39     10.56
 *   16-byte stores after a quad transpose (store_tile)      7.01     10.11
 *   stmatrix into shared memory, then the TMA store         5.57      8.80
 *   no store at all (not a GEMM: the cost's measure)        4.83      8.06
 *
 * From registers, a warp's store instruction writes 8 rows of 16 bytes
 * (pairs) or 64 bytes (16-byte stores); through the TMA each consumer warp
 * writes its 16 x kBN slab into its own buffer (2 KB for kBN = 64, 4 KB
 * for 128: 16 or 32 KB per CTA beside the ring) with kBN / 16 stmatrix.x4
 * per lane (4 or 8), and one thread hands it to the TMA as boxes of 16 rows x 128
 * bytes, which the TMA writes as whole lines and clips at m and n. Lane 0
 * of each warp waits for its stores (cp.async.bulk.wait_group 0) before
 * the CTA ends. With beta != 0 (C is read) or rows the TMA cannot
 * address, the store is store_tile's.
 *
 * Tried and left out: pairs of CTAs in a cluster of 2 that split a tile's
 * k-tiles in halves and add them through distributed shared memory (one
 * warpgroup of each CTA sends its 64 rows of sums into the peer's shared
 * memory, st.shared::cluster, and the other adds and stores; one launch,
 * the same bits every run). Each CTA then loads half the bytes of its
 * tile, but the pair costs a cluster barrier and a 16 or 32 KB exchange:
 * at 1024^3 128 x 128 tiles in pairs took 11.42 us against 10.11 for
 * unpaired 128 x 64 tiles, and at 256^3 128 x 64 tiles 7.10 against 6.43
 * (both with the 16-byte stores; wgmma_fixed.txt, build 4). Where they won
 * (512 x 512 x 2048: 10.98 against 12.48; 384 x 384 x 4096: 14.75 against
 * 19.17), k is long enough for the split below.
 *
 * Tried and left out: clusters of 2 CTAs side by side that share A by
 * TMA multicast (variant 17's step 2, along n), which cut the bytes each
 * 128 x 64 CTA asks of L2 per k-tile from 24 KB to 16 KB. It was slower
 * (same harness, 8 stages: 1024^3 0.78 against 0.87 without, 512^3 0.73
 * against 0.93; tiles-h100/wgmma_stages.txt): each SM still receives
 * 24 KB per k-tile, and (a reading, not a profile) the pair waits for its
 * slower CTA at every stage.
 *
 * Rows the TMA cannot address (a leading dimension or batch stride not a
 * multiple of 8 elements) are first copied with padded rows into gk_gemm_ex's
 * workspace, as variant 17 does (its header: "Padded copies"), and read
 * with the TMA: 1025 x 1023 x 1027 (every row odd) takes 0.0290 ms against
 * variant 21's 0.0452 and cuBLAS BF16's 0.0350, 513 x 511 x 515 0.0171
 * against 0.0243 and 0.0159, 255 x 257 x 253 0.0139 against 0.0145 and
 * 0.0105 (H100, gk_bench medians, cold L2, 2026-11-26,
 * gemm/tuning/tiles-h100/padded_bf16.json and padded_bf16_small.json).
 * The copies cost two more launches, which lose on small or short-k
 * products (gemm/README.md, "Rows the TMA cannot address"), so
 * GK_GEMM_AUTO gives such rows to 23 through gk_gemm_ex only past the
 * edges gk/gemm.h names (GK_GEMM_PAD_*). The copies and this kernel are
 * programmatic dependent launches (common.cuh: pad_into, pdl_wait; the
 * launch in run), so each launch's latency overlaps the grid before it:
 * on an H200, 513 x 511 x 515 took 0.0129-0.0131 ms against 0.0164-0.0165
 * without, 1025 x 1023 x 1027 0.0237-0.0238 against 0.0274-0.0275
 * (gemm/tuning/pdl-h200; the edges were measured without it, on an
 * H100). Without a workspace (gk_gemm_bf16), a
 * base not 16-byte aligned, and k = 0 run the same kernel in gather mode:
 * the producer warpgroup's 128 threads load each stage element by element
 * (common.cuh's Bf16Slab, 2-byte loads, any alignment), write it with
 * st.shared in the TMA's swizzled layout, fence it to the async proxy and
 * arrive on the stage's full barrier (count 128): correct for every shape,
 * not fast; GK_GEMM_AUTO sends such calls to variant 21.
 *
 * Sources: PTX ISA (wgmma.mma_async and its shared-memory matrix
 * descriptors, cp.async.bulk.tensor, mbarrier phases and expect_tx,
 * fence.proxy.async); CUDA C++ Programming Guide ("Tensor Memory Access");
 * NVIDIA CUTLASS documentation (warp-specialized sm90 kernels, tile shapes
 * for small problems).
 *
 * Build alone: nvcc -gencode arch=compute_90a,code=sm_90a -c small_04_wgmma_tiles.cu
 *   (next to sm90.cuh and common.cuh; with another architecture it builds
 *   as the stubs that report "not supported")
 */
#include "sm90.cuh"

#include <string.h>

#ifndef __CUDA_ARCH_FEAT_SM90_ALL
#pragma nv_diag_suppress 177 /* the stub leaves the helpers unused */
#endif

#ifndef GKS4_WIDE_MIN_TILES
#define GKS4_WIDE_MIN_TILES 128
#endif
/* Stages of the ring for each width (header: "Stages"). */
#ifndef GKS4_STAGES_NARROW
#define GKS4_STAGES_NARROW 8
#endif
#ifndef GKS4_STAGES_WIDE
#define GKS4_STAGES_WIDE 4
#endif

namespace {

constexpr int kBM = 128, kBK = 64, kKSteps = kBK / 16;
constexpr int kThreads = 384;                    /* 2 consumer warpgroups, then the producer warpgroup */
constexpr int kProducerThreads = 128;
constexpr int kConsumerWarps = 8;                /* each releases a stage once: the empty barrier's count */
constexpr int kABytes = kBM * kBK * 2;           /* 16 KB: one A slab */
constexpr int kPanelBytes = 64 * kBK * 2;        /* 8 KB: 64 columns x 64 k-rows, or 64 rows x 64 k */

/* The tile of width kBN: its B slab, ring, accumulators and CTAs per SM. */
template <int kBN> struct Tile {
    static_assert(kBN == 64 || kBN == 128, "128 x 64 or 128 x 128 tiles");
    static constexpr int kBBytes = kBK * kBN * 2;   /* 8 or 16 KB */
    static constexpr int kPanels = kBN / 64;        /* B's MN-major panels */
    static constexpr int kAcc = kBN / 2;            /* accumulators per thread of a 64 x kBN warpgroup tile */
    static constexpr int kStages = kBN == 64 ? GKS4_STAGES_NARROW : GKS4_STAGES_WIDE;
    /* The TMA store's buffers (sm90.cuh's store_tile_tma): one per consumer warp, 2 or 4 KB. */
    static constexpr int kEpiBytes = kConsumerWarps * EpiTma<kAcc>::kWarpBytes;
    /* The stages from a 1024-byte boundary (slack), the store's buffers, then the 2 kStages barriers. */
    static constexpr size_t kSmem = (size_t)kStages * (kABytes + kBBytes) + kEpiBytes + 1024 + 2 * kStages * 8;
    /* CTAs per SM that the shared memory allows (228 KB per SM, 1 KB of it reserved per CTA). */
    static constexpr int kPerSm = 2 * (kSmem + 1024) <= 228u * 1024u ? 2 : 1;
    static_assert(kStages >= 2 && kSmem <= 227u * 1024u, "2 stages or more, within sm_90's 227 KB per block");
};

/* What a launch needs besides the tensor maps. Strides are 0 when batch = 1. */
struct Params {
    const unsigned short *a, *b; /* gather mode */
    size_t lda, ldb, ldc;
    size_t stride_a, stride_b, stride_c;
    void *c;
    const void *bias;
    unsigned m, n, k, tiles_m, tiles_n;
    float alpha, beta;
    int epi;         /* gk_gemm_epilogue: 0 none, 1 bias, 2 + ReLU, 3 + GELU */
    unsigned kt_per; /* split-K (fp32 partials): slice z takes k-tiles z kt_per ..; 0: all */
    bool c_vec, c_tma, bias_vec, a_batched, b_batched;
};

template <bool kF16> struct Elem {
    typedef __nv_bfloat16 T;
};
template <> struct Elem<true> {
    typedef __half T;
};

/* The producer thread queues k-tile kt of the tile (bm, bn) of product z
 * into stage `slab`: one arrive.expect_tx with the stage's bytes, then the
 * boxes. A box that leaves the matrix (past m, n or k, or wholly outside
 * it) is zero-filled by the TMA and still counts its full bytes. */
template <int kBN, bool kAT, bool kBT>
__device__ __forceinline__ void load_stage(const CUtensorMap *map_a, const CUtensorMap *map_b, uint32_t as,
                                           uint32_t bs, uint32_t full, unsigned kt, unsigned bm, unsigned bn,
                                           int za, int zb)
{
    mbar_arrive_expect_tx(full, (uint32_t)(kABytes + Tile<kBN>::kBBytes));
    const int kk = (int)(kt * kBK);
    if constexpr (kAT) {
        tma_load_3d(as, map_a, (int)bm, kk, za, full);
        tma_load_3d(as + kPanelBytes, map_a, (int)bm + 64, kk, za, full);
    } else {
        tma_load_3d(as, map_a, kk, (int)bm, za, full);
    }
    if constexpr (kBT) {
        tma_load_3d(bs, map_b, kk, (int)bn, zb, full);
    } else {
#pragma unroll
        for (int p = 0; p < Tile<kBN>::kPanels; ++p)
            tma_load_3d(bs + p * kPanelBytes, map_b, (int)bn + 64 * p, kk, zb, full);
    }
}

/* Gather mode: producer thread t's share of k-tile kt, element by element
 * (common.cuh's Bf16Slab loaders, any 2-byte alignment, zeros outside the
 * matrix), in the same swizzled layout as the TMA's boxes: a K-major slab
 * (A stored m x k, B stored n x k) by rows, an MN-major one (A stored k x
 * m, B k x n) by k-rows in panels of 64 columns. */
template <int kBN, bool kAT, bool kBT>
__device__ __forceinline__ void gather_stage(uint32_t as, uint32_t bs, const unsigned short *a,
                                             const unsigned short *b, const Params &prm, unsigned kt, unsigned bm,
                                             unsigned bn, int t)
{
    if constexpr (kAT)
        Bf16Slab<kBM, kBM, kBK, kProducerThreads>::template load_b_tile<false>(as, a, prm.lda, prm.m, prm.k, bm, kt, t);
    else
        Bf16Slab<kBM, kBM, kBK, kProducerThreads>::template load_a_tile<false>(as, a, prm.lda, prm.m, prm.k, bm, kt, t);
    if constexpr (kBT)
        Bf16Slab<kBN, 64, kBK, kProducerThreads>::template load_a_tile<false>(bs, b, prm.ldb, prm.n, prm.k, bn, kt, t);
    else
        Bf16Slab<kBM, kBN, kBK, kProducerThreads>::template load_b_tile<false>(bs, b, prm.ldb, prm.n, prm.k, bn, kt, t);
}

/* One k-tile of consumer warpgroup wg: kKSteps wgmma m64nNk16 on its 64
 * rows, one commit group, then a wait until at most this group runs (the
 * previous k-tile's wgmma, and their reads of its stage, are done). */
template <int kBN, bool kF16, bool kAT, bool kBT>
__device__ __forceinline__ void wgmma_ktile(float (&d)[kBN / 2], uint32_t as, uint32_t bs, int wg)
{
    acc_fence(d);
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < kKSteps; ++s)
        wgmma_m64nNk16_any<kBN, kF16, kAT ? 1 : 0, kBT ? 0 : 1>(d, desc16_a<kAT>(as, wg, s), desc16_b<kBT>(bs, s));
    wgmma_commit();
    wgmma_wait<1>();
    acc_fence(d);
}

/* The consumer warpgroups' part of tile_body: the k-loop, releasing each
 * stage to the producer, then the epilogue: through the TMA (store_tile_tma,
 * into the warp's buffer at ring.extra) when c_tma, else from registers. */
template <int kBN, bool kTma, bool kF16, bool kAT, bool kBT, bool kF32C>
__device__ __forceinline__ void consume(const Ring &ring, const CUtensorMap *map_c, const Params &prm, unsigned z,
                                        unsigned bm, unsigned bn, unsigned kt0, unsigned kt1, int wg, int warp,
                                        int lane)
{
    typedef Tile<kBN> TL;
    typedef typename Elem<kF16>::T T;
    float d[TL::kAcc];
#pragma unroll
    for (int j = 0; j < TL::kAcc; ++j) d[j] = 0.0f;
    for (unsigned kt = kt0; kt < kt1; ++kt) {
        const unsigned i = kt - kt0;
        const int slab = (int)(i % TL::kStages);
        mbar_wait(ring.full0 + 8 * slab, (i / TL::kStages) & 1u);
        __syncwarp(); /* the wgmma are .sync.aligned: the warp's lanes converge */
        wgmma_ktile<kBN, kF16, kAT, kBT>(d, ring.as0 + slab * kABytes, ring.bs0 + slab * TL::kBBytes, wg);
        if (i > 0 && lane == 0) mbar_arrive(ring.empty0 + 8 * (int)((i - 1) % TL::kStages));
    }
    wgmma_wait<0>();
    acc_fence(d);

    const unsigned row0 = bm + 64u * (unsigned)wg + 16u * (unsigned)(warp & 3);
    if constexpr (kF32C) {
        store_partial<TL::kAcc>(d, static_cast<float *>(prm.c) + (size_t)z * prm.stride_c, prm.ldc, prm.m, prm.n, row0,
                                bn, lane, prm.alpha, prm.c_vec);
    } else if (kTma && prm.c_tma) {
        const T *const bias = static_cast<const T *>(prm.bias);
        const uint32_t buf = ring.extra + (uint32_t)(warp * EpiTma<TL::kAcc>::kWarpBytes);
        switch (prm.epi) {
        case 0:
            store_tile_tma<TL::kAcc, 0, T>(d, map_c, (int)z, buf, prm.m, prm.n, row0, bn, lane, prm.alpha, bias,
                                           prm.bias_vec);
            break;
        case 1:
            store_tile_tma<TL::kAcc, 1, T>(d, map_c, (int)z, buf, prm.m, prm.n, row0, bn, lane, prm.alpha, bias,
                                           prm.bias_vec);
            break;
        case 2:
            store_tile_tma<TL::kAcc, 2, T>(d, map_c, (int)z, buf, prm.m, prm.n, row0, bn, lane, prm.alpha, bias,
                                           prm.bias_vec);
            break;
        default:
            store_tile_tma<TL::kAcc, 3, T>(d, map_c, (int)z, buf, prm.m, prm.n, row0, bn, lane, prm.alpha, bias,
                                           prm.bias_vec);
            break;
        }
        if (lane == 0) bulk_wait_all(); /* the stores have read the buffer (and written C) before the CTA ends */
    } else {
        T *const c = static_cast<T *>(prm.c) + (size_t)z * prm.stride_c;
        const T *const bias = static_cast<const T *>(prm.bias);
        switch (prm.epi) { /* uniform: one instance of the epilogue per kind */
        case 0:
            store_tile<TL::kAcc, 0, T>(d, c, prm.ldc, prm.m, prm.n, row0, bn, lane, prm.alpha, prm.beta, prm.c_vec);
            break;
        case 1:
            store_tile<TL::kAcc, 1, T>(d, c, prm.ldc, prm.m, prm.n, row0, bn, lane, prm.alpha, prm.beta, prm.c_vec,
                                       bias, prm.bias_vec);
            break;
        case 2:
            store_tile<TL::kAcc, 2, T>(d, c, prm.ldc, prm.m, prm.n, row0, bn, lane, prm.alpha, prm.beta, prm.c_vec,
                                       bias, prm.bias_vec);
            break;
        default:
            store_tile<TL::kAcc, 3, T>(d, c, prm.ldc, prm.m, prm.n, row0, bn, lane, prm.alpha, prm.beta, prm.c_vec,
                                       bias, prm.bias_vec);
            break;
        }
    }
}

/* The ring (as variant 16's, one tile per CTA): k-tile i (0 .. kt1 - kt0 -
 * 1) lives in stage i % kStages as its use i / kStages. full[s] completes
 * use u when its bytes have landed (TMA: one arrive.expect_tx and the
 * transactions; gather: 128 arrivals, each after its thread's stores and
 * fence.proxy.async); a consumer waits on parity u & 1. empty[s] completes
 * use u when the 8 consumer warps released it (after the wgmma.wait_group
 * that retired its reads); the producer waits on parity (u - 1) & 1 before
 * writing use u >= 1. Neither waiter can be two phases off: the producer
 * writes use u + 1 only after every consumer warp released use u, which
 * each does after waiting for it. The last k-tile's stage is never
 * released: nobody waits for it. */
template <int kBN, bool kTma, bool kF16, bool kAT, bool kBT, bool kF32C>
__device__ __forceinline__ void tile_body(const CUtensorMap *map_a, const CUtensorMap *map_b, const CUtensorMap *map_c,
                                          const Params &prm)
{
    typedef Tile<kBN> TL;
    extern __shared__ __align__(128) unsigned char smem[];
    const Ring ring = ring_layout<TL::kStages, kABytes, TL::kBBytes, TL::kEpiBytes>(smem);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wg = warp >> 2; /* wg 2: the producer */

    /* This CTA's unit: tile t of product (or slice) z; rows of tiles, n fastest. */
    const unsigned tiles = prm.tiles_m * prm.tiles_n;
    const unsigned z = blockIdx.x / tiles, t = blockIdx.x - z * tiles;
    const unsigned bm = (t / prm.tiles_n) * kBM, bn = (t % prm.tiles_n) * kBN;
    const unsigned ktiles = (prm.k + kBK - 1) / kBK;
    unsigned kt0 = 0, kt1 = ktiles;
    if (kF32C && prm.kt_per != 0) { /* slice z of a split k (the launcher makes none empty) */
        kt0 = z * prm.kt_per;
        kt1 = ktiles - kt0 < prm.kt_per ? ktiles : kt0 + prm.kt_per;
    }

    if (tid == 0) {
        init_ring<TL::kStages>(ring.full0, ring.empty0, kTma ? 1u : (unsigned)kProducerThreads, kConsumerWarps);
        if constexpr (kTma) {
            prefetch_tensormap(map_a);
            prefetch_tensormap(map_b);
        }
    }
    __syncthreads();

    if (wg == 2) {
        /* ---- The producer warpgroup: TMA mode, its thread 0 alone (the TMA
         * completes on its own); gather mode, all 128 threads. */
        const int pt = tid - 2 * 128;
        if (!kTma || pt == 0) {
            const int za = prm.a_batched ? (int)z : 0, zb = prm.b_batched ? (int)z : 0;
            const unsigned short *const a = kTma ? nullptr : prm.a + (size_t)z * prm.stride_a;
            const unsigned short *const b = kTma ? nullptr : prm.b + (size_t)z * prm.stride_b;
            for (unsigned kt = kt0; kt < kt1; ++kt) {
                const unsigned i = kt - kt0;
                const int slab = (int)(i % TL::kStages);
                const uint32_t as = ring.as0 + slab * kABytes, bs = ring.bs0 + slab * TL::kBBytes;
                const uint32_t full = ring.full0 + 8 * slab;
                if (i >= (unsigned)TL::kStages) mbar_wait(ring.empty0 + 8 * slab, (i / TL::kStages - 1) & 1u);
                if constexpr (kTma) {
                    load_stage<kBN, kAT, kBT>(map_a, map_b, as, bs, full, kt, bm, bn, za, zb);
                } else {
                    gather_stage<kBN, kAT, kBT>(as, bs, a, b, prm, kt, bm, bn, pt);
                    fence_proxy_async(); /* this thread's st.shared, visible to the wgmma's async-proxy reads */
                    mbar_arrive(full);
                }
            }
        }
    } else {
        /* ---- The consumer warpgroups: rows bm + 64 wg .. + 63 of the tile. */
        consume<kBN, kTma, kF16, kAT, kBT, kF32C>(ring, map_c, prm, z, bm, bn, kt0, kt1, wg, warp, lane);
    }
}

template <int kBN, bool kTma, bool kF16, bool kAT, bool kBT, bool kF32C>
__global__ void __launch_bounds__(kThreads, Tile<kBN>::kPerSm)
gemm16_wgmma_tiles(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_c, const __grid_constant__ Params prm)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    pdl_wait(); /* a programmatic dependent launch (run, below; common.cuh) */
    tile_body<kBN, kTma, kF16, kAT, kBT, kF32C>(&map_a, &map_b, &map_c, prm);
#else
    sm90a_stub(prm.m, prm.n); /* not compiled for sm_90a: a stub, never launched (sm90.cuh) */
#endif
}

/* One instance: TMA mode where A's and B's rows (and strides) allow it and
 * the driver takes the maps, else gather mode (fp32 partials: TMA mode
 * only, cudaErrorNotSupported otherwise). `units`: tiles x products (or
 * slices), one CTA each. */
template <int kBN, bool kF16, bool kAT, bool kBT, bool kF32C>
cudaError_t run(Params prm, const void *a, const void *b, size_t batch, size_t units, cudaStream_t stream)
{
    const CUtensorMapDataType dtype = kF16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    const size_t m = prm.m, n = prm.n, k = prm.k;
    CUtensorMap map_a, map_b, map_c;
    memset(&map_a, 0, sizeof(map_a));
    memset(&map_b, 0, sizeof(map_b));
    memset(&map_c, 0, sizeof(map_c)); /* never read without c_tma */
    prm.c_tma = false;
    bool tma = k > 0 && tma_addressable(a, prm.lda, 2) && tma_addressable(b, prm.ldb, 2) &&
               (prm.stride_a * 2) % 16 == 0 && (prm.stride_b * 2) % 16 == 0;
    if (tma) {
        PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
        const cudaError_t err = get_encode_tiled(&encode);
        if (err != cudaSuccess) return err;
        /* A: m x k stored (op_a = N; boxes of 64 k x 128 rows) or k x m (T;
         * 64 m x 64 k). B: k x n (N; 64 n x 64 k) or n x k (T; 64 k x kBN n). */
        tma = map_batched(encode, &map_a, dtype, 2, a, kAT ? k : m, kAT ? m : k, prm.lda, prm.a_batched, batch,
                          prm.stride_a, 64, kAT ? 64 : kBM) == cudaSuccess &&
              map_batched(encode, &map_b, dtype, 2, b, kBT ? n : k, kBT ? k : n, prm.ldb, prm.b_batched, batch,
                          prm.stride_b, 64, kBT ? kBN : kBK) == cudaSuccess;
        /* C through the TMA store (header: "The store") when beta = 0 (C
         * is not read) and its rows (and the products' strides) are
         * TMA-addressable: boxes of 64 columns x 16 rows, a warp's rows. */
        prm.c_tma = tma && !kF32C && prm.beta == 0.0f && tma_addressable(prm.c, prm.ldc, 2) &&
                    (prm.stride_c * 2) % 16 == 0 &&
                    map_batched(encode, &map_c, dtype, 2, prm.c, m, n, prm.ldc, batch > 1, batch, prm.stride_c,
                                EpiTma<Tile<kBN>::kAcc>::kBoxCols, EpiTma<Tile<kBN>::kAcc>::kRows) == cudaSuccess;
    }
    if (!tma && kF32C) return cudaErrorNotSupported; /* gemm.c then runs the product unsplit */
    prm.a = static_cast<const unsigned short *>(a);
    prm.b = static_cast<const unsigned short *>(b);
    auto kernel = tma ? gemm16_wgmma_tiles<kBN, true, kF16, kAT, kBT, kF32C>
                      : gemm16_wgmma_tiles<kBN, false, kF16, kAT, kBT, kF32C>;
    cudaError_t err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Tile<kBN>::kSmem);
    if (err != cudaSuccess) return err;
    /* A programmatic dependent launch (common.cuh): after padded copies, or
     * before split_k.cu's sum, the launch's latency overlaps the grid before. */
    err = launch_pdl(true, kernel, dim3((unsigned)units), dim3(kThreads), Tile<kBN>::kSmem, stream, map_a, map_b, map_c,
                     prm);
    return err != cudaSuccess ? err : cudaGetLastError();
}

/* The width for `units_wide` CTAs of 128 x 128 tiles (header: "The width"). */
inline bool wide(size_t units_wide) { return units_wide >= (size_t)GKS4_WIDE_MIN_TILES; }

/* Every instance of a width: type (bf16, f16) x layouts x (C or partials). */
template <int kBN, bool kF32C>
cudaError_t run_width(int type, int op_a, int op_b, const Params &prm, const void *a, const void *b, size_t batch,
                      size_t units, cudaStream_t stream)
{
    switch (4 * (type == 2) + 2 * (op_a != 0) + (op_b != 0)) {
    case 0: return run<kBN, false, false, false, kF32C>(prm, a, b, batch, units, stream);
    case 1: return run<kBN, false, false, true, kF32C>(prm, a, b, batch, units, stream);
    case 2: return run<kBN, false, true, false, kF32C>(prm, a, b, batch, units, stream);
    case 3: return run<kBN, false, true, true, kF32C>(prm, a, b, batch, units, stream);
    case 4: return run<kBN, true, false, false, kF32C>(prm, a, b, batch, units, stream);
    case 5: return run<kBN, true, false, true, kF32C>(prm, a, b, batch, units, stream);
    case 6: return run<kBN, true, true, false, kF32C>(prm, a, b, batch, units, stream);
    default: return run<kBN, true, true, true, kF32C>(prm, a, b, batch, units, stream);
    }
}

/* The tile counts of both widths; false when a grid of them would not fit
 * one launch (2^31 - 1 CTAs) or a coordinate an int. */
bool count_units(size_t m, size_t n, size_t count, size_t *units_wide, size_t *units_narrow, unsigned *tiles_m)
{
    const size_t tm = (m + kBM - 1) / kBM, tn_wide = (n + 127) / 128, tn_narrow = (n + 63) / 64;
    if (m > 0x7fffffffu || n > 0x7fffffffu || count > 0x7fffffffu) return false;
    *units_wide = tm * tn_wide * count;
    *units_narrow = tm * tn_narrow * count;
    *tiles_m = (unsigned)tm;
    return tm * tn_narrow <= 0x7fffffffu && *units_narrow <= 0x7fffffffu;
}

} // namespace

/* The workspace gk_gemm_ex asks for (gemm/variants.h): the padded copies
 * of A and B where their rows are not whole 16-byte units (common.cuh,
 * padded_pair16), (size_t)-1 at 2^62 bytes or more; 0 otherwise. */
extern "C" size_t gk_gemm_small_04_wgmma_tiles_scratch(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch,
                                                       size_t stride_a, size_t stride_b, size_t lda, size_t ldb)
{
    return padded_pair16(op_a, op_b, m, n, k, batch, stride_a, stride_b, lda, ldb).bytes;
}

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): type 1
 * bf16, 2 f16; op_a, op_b 0 as stored, 1 transposed; strides read when
 * batch > 1; epilogue 0-3 with bias; a workspace of the size
 * gk_gemm_small_04_wgmma_tiles_scratch gives, or NULL. */
extern "C" cudaError_t gk_gemm_small_04_wgmma_tiles_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                    float alpha, const void *a, size_t lda, size_t stride_a,
                                                    const void *b, size_t ldb, size_t stride_b, float beta, void *c,
                                                    size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                    const void *bias, void *workspace, cudaStream_t stream)
{
    if (type != 1 && type != 2) return cudaErrorNotSupported; /* 16-bit types only */
    int dev = 0;
    cudaError_t err = require_cc(9, 0, &dev);
    if (err != cudaSuccess) return err;
    size_t units_wide = 0, units_narrow = 0;
    unsigned tiles_m = 0;
    if (!count_units(m, n, batch, &units_wide, &units_narrow, &tiles_m) || k > 0xffffffffu)
        return cudaErrorInvalidConfiguration;
    if (workspace != nullptr) {
        /* Rows the TMA cannot address, copied with padded rows into the
         * workspace first (common.cuh, pad_pair16); without one, gathered. */
        const PaddedPair pp = padded_pair16(op_a, op_b, m, n, k, batch, stride_a, stride_b, lda, ldb);
        err = pad_pair16(pp, op_a, op_b, m, n, k, workspace, &a, &lda, &stride_a, &b, &ldb, &stride_b, stream);
        if (err != cudaSuccess) return err;
    }
    const bool batched = batch > 1;
    Params prm;
    memset(&prm, 0, sizeof(prm));
    prm.lda = lda;
    prm.ldb = ldb;
    prm.ldc = ldc;
    prm.stride_a = batched ? stride_a : 0;
    prm.stride_b = batched ? stride_b : 0;
    prm.stride_c = batched ? stride_c : 0;
    prm.a_batched = batched && stride_a != 0;
    prm.b_batched = batched && stride_b != 0;
    prm.c = c;
    prm.bias = bias;
    prm.m = (unsigned)m;
    prm.n = (unsigned)n;
    prm.k = (unsigned)k;
    prm.tiles_m = tiles_m;
    prm.alpha = alpha;
    prm.beta = beta;
    prm.epi = epilogue;
    /* Pairs of C (and of the bias) as 4-byte accesses where every product's rows allow it. */
    prm.c_vec = ((uintptr_t)c & 3u) == 0 && ldc % 2 == 0 && prm.stride_c % 2 == 0;
    prm.bias_vec = ((uintptr_t)bias & 3u) == 0;
    if (wide(units_wide)) {
        prm.tiles_n = (unsigned)((n + 127) / 128);
        return run_width<128, false>(type, op_a, op_b, prm, a, b, batch, units_wide, stream);
    }
    prm.tiles_n = (unsigned)((n + 63) / 64);
    return run_width<64, false>(type, op_a, op_b, prm, a, b, batch, units_narrow, stream);
}

/* Split-K's first step (gemm.c, GK_GEMM_AUTO; gk_gemm_split_run_fn): the
 * fp32 partials of one 16-bit product, alpha = 1, into `splits` dense m x n
 * slabs (slice z: the k-tiles z kc / 64 .., every slice non-empty), in one
 * launch whose units are the tiles of every slice. TMA mode only:
 * cudaErrorNotSupported, with nothing launched, where the rows of A or B
 * are not TMA-addressable. */
extern "C" cudaError_t gk_gemm_small_04_wgmma_tiles_run_split(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                       size_t kc, size_t splits, const void *a, size_t lda,
                                                       const void *b, size_t ldb, float *partials,
                                                       cudaStream_t stream)
{
    if ((type != 1 && type != 2) || kc % kBK != 0 || kc == 0 || splits < 1 || (splits - 1) * kc >= k ||
        splits * kc < k)
        return cudaErrorNotSupported;
    int dev = 0;
    cudaError_t err = require_cc(9, 0, &dev);
    if (err != cudaSuccess) return err;
    size_t units_wide = 0, units_narrow = 0;
    unsigned tiles_m = 0;
    if (!count_units(m, n, splits, &units_wide, &units_narrow, &tiles_m) || k > 0xffffffffu)
        return cudaErrorInvalidConfiguration;
    Params prm;
    memset(&prm, 0, sizeof(prm));
    prm.lda = lda;
    prm.ldb = ldb;
    prm.ldc = n;
    prm.stride_c = m * n; /* slab z */
    prm.c = partials;
    prm.m = (unsigned)m;
    prm.n = (unsigned)n;
    prm.k = (unsigned)k;
    prm.tiles_m = tiles_m;
    prm.alpha = 1.0f;
    prm.kt_per = (unsigned)(kc / kBK);
    prm.c_vec = ((uintptr_t)partials & 7u) == 0 && n % 2 == 0;
    if (wide(units_wide)) {
        prm.tiles_n = (unsigned)((n + 127) / 128);
        return run_width<128, true>(type, op_a, op_b, prm, a, b, 1, units_wide, stream);
    }
    prm.tiles_n = (unsigned)((n + 63) / 64);
    return run_width<64, true>(type, op_a, op_b, prm, a, b, 1, units_narrow, stream);
}

/* gk_gemm_bf16's entry point: bf16, as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_small_04_wgmma_tiles_run(size_t m, size_t n, size_t k, float alpha, const void *a,
                                                 size_t lda, const void *b, size_t ldb, float beta, void *c,
                                                 size_t ldc, cudaStream_t stream)
{
    return gk_gemm_small_04_wgmma_tiles_run_ex(1, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                        nullptr, stream);
}
