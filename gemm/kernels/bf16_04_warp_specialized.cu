/* Variant 16 (bf16_04): warp specialization. A producer warpgroup issues
 * the TMA loads, two consumer warpgroups issue the wgmma, and the mbarriers
 * are all they share; setmaxnreg moves registers from the producer to the
 * consumers.
 *
 * The idea: in variant 15 thread 0 both computes and loads, so the refill of
 * a stage waits in warp 0's instruction stream (for the slowest warp's
 * release of the stage), and warpgroup 0's next wgmma waits behind that.
 * Here the block has 3 warpgroups (384 threads) with one job each:
 *   - warpgroup 0, the producer: one thread loops over the k-tiles, waits
 *     for a stage to be released (its empty mbarrier), and queues the next
 *     k-tile into it (arrive.expect_tx on its full mbarrier, 5 TMA boxes);
 *     the other 127 threads exit once the registers are handed over;
 *   - warpgroups 1 and 2, the consumers: each waits for a stage to be full,
 *     issues its 4 wgmma m64n256k16 on it, and releases the previous stage
 *     (lane 0 of each warp arrives on its empty barrier) once
 *     wgmma.wait_group 1 has retired the wgmma that read it.
 * No consumer thread ever waits for a refill to be issued, and the producer
 * waits for nothing but free stages: as in variant 15, 3 k-tiles are loaded
 * or loading ahead of the one being computed, but a stage's refill is queued
 * the moment the last consumer warp releases it, from a warp that has
 * nothing else to do. The two consumer warpgroups run decoupled from the
 * producer and from each other (the only block-wide barrier is the one
 * after the barriers' initialization).
 *
 * ---- Registers: setmaxnreg (PTX ISA) ------------------------------------------
 * 384 threads on a 65,536-register SM get at most 65,536 / 384 = 170, so
 * 168 registers each at launch (__launch_bounds__(384, 1); ptxas -v, CUDA
 * 13.0, sm_90a: 168 registers, 0 bytes of stack, no spills, no "wgmma
 * serialized" warning). Variant 14's consumer code already needs 170-182 and
 * holds 128 fp32 accumulators per thread. So, right after the roles split:
 *   setmaxnreg.dec.sync.aligned.u32 40    (the producer warpgroup)
 *   setmaxnreg.inc.sync.aligned.u32 232   (each consumer warpgroup)
 * The producer gives back 128 x (168 - 40) = 16,384 registers, exactly the
 * 256 x (232 - 168) the consumers take (inc waits until the pool holds
 * them): 128 x 40 + 256 x 232 = 64,512 of the 65,536. A consumer thread has
 * 232 registers for its 128 accumulators, descriptors and addresses.
 *
 * ---- Tile: 128 x 256 x 64, each consumer 64 x 256 (why not larger) -------------
 * - The accumulators of the block tile live in the consumers' registers:
 *   128 x 256 fp32 = 32,768 registers, half the register file. A 256 x 256
 *   tile would need all 65,536 for accumulators alone; 2 consumers of 128
 *   rows each would need 256 accumulators per thread, above setmaxnreg's
 *   256-register ceiling once addresses are counted.
 * - Between 128 x 256 and 256 x 128 (the same 32,768 accumulators and the
 *   same 85.3 multiply-adds per element loaded), 128 x 256 lets each
 *   consumer use the widest wgmma, m64n256k16: 262,144 multiply-adds per
 *   2 KB of A and 8 KB of B read from shared memory (25.6 per byte), where
 *   256 x 128's m64n128k16 reads 2 KB + 4 KB for 131,072 (21.3 per byte).
 *   It is also the tile of variants 14 and 15, so the step measures the
 *   specialization alone.
 * - Stages: 4 of 48 KB (the A slab 16 KB, the B slab 32 KB) = 192 KB; a 5th
 *   would make 240 KB, above sm_90's 227 KB per block. With 197,696 bytes of
 *   dynamic shared memory (192 KB + 64 bytes of mbarriers + 1 KB of
 *   alignment slack), 1 block per SM: 3 k-tiles = 144 KB loaded or loading
 *   ahead of the one being computed.
 *
 * ---- What waits on what ---------------------------------------------------------
 * Per stage s, two mbarriers (phases counted by use, parity (kt / 4) & 1):
 *   full[s]  (1 arrival + the bytes): the producer's arrive.expect_tx with
 *            the stage's bytes, completed by the TMA as they land; every
 *            consumer thread waits on it before its wgmma;
 *   empty[s] (8 arrivals): lane 0 of each consumer warp, after the
 *            wgmma.wait_group that retired its wgmma on the stage; the
 *            producer waits on it before queuing the stage's next k-tile
 *            (k-tile kt waits for the release of kt - 4: phase kt / 4 - 1).
 * The producer's first 4 k-tiles find the stages free. The descriptors,
 * swizzle, fences and accumulator layout are variant 14's; the TMA, the
 * tensor maps and the B panels outside n are variant 15's.
 *
 * What bounds it: the consumers' wgmma issue, the epilogue (the tensor cores
 * idle while each block stores its tile; a new block's prologue then fills
 * the pipeline again) and the tail of the grid (at 4096^3, 512 tiles over
 * the SMs). Variant 17 keeps the blocks resident (persistent tiles) to overlap
 * one tile's epilogue with the next tile's loads.
 *
 * Limits and fallbacks (as variant 15):
 * - sm_90a only (wgmma, setmaxnreg, the TMA and mbarrier forms used here):
 *   the code is compiled only where __CUDA_ARCH_FEAT_SM90_ALL is defined;
 *   elsewhere the kernels are stubs (a 1 KB static shared array that the
 *   launcher detects with cudaFuncGetAttributes) and the launcher returns
 *   cudaErrorNotSupported (GK_ERROR_UNSUPPORTED through gk_gemm_bf16), as it
 *   does on any GPU other than compute capability 9.0.
 * - Rows that the TMA cannot address take the cp.async path of variant 14:
 *   when A's or B's base address is not 16-byte aligned or its row stride in
 *   bytes (2 lda, 2 ldb) not a multiple of 16, or k = 0, the launcher runs
 *   variant 14's kernel, which sm90.cuh carries for variants 15 and 16. Both
 *   operands take the same path.
 * - Tensor maps made on the host at every call with cuTensorMapEncodeTiled,
 *   reached through cudaGetDriverEntryPointByVersion (nothing links
 *   libcuda), passed as const __grid_constant__ CUtensorMap parameters.
 * - Epilogue: variant 14's (guarded bf16 pair or element stores from
 *   registers, beta == 0 never reads C). 1-D grid of ceil(m/128) *
 *   ceil(n/256) blocks (at most 2^31 - 1), the L2 block swizzle of variant 14.
 *
 * Sources: PTX ISA (setmaxnreg; cp.async.bulk.tensor and "Tensor Copy";
 * mbarrier: init, arrive, expect-tx, try_wait.parity, phases; wgmma as in
 * variant 14); CUDA C++ Programming Guide ("Tensor Memory Access"); CUDA
 * Driver API (cuTensorMapEncodeTiled); NVIDIA CUTLASS documentation (the
 * warp-specialized kernel schedules: producer and consumer warpgroups,
 * register reallocation, the "cooperative" 128 x 256 tile split between two
 * consumers).
 *
 * Build alone: nvcc -gencode arch=compute_90a,code=sm_90a -c bf16_04_warp_specialized.cu
 *   (next to sm90.cuh and common.cuh, which it includes: the three files
 *   need nothing else but the CUDA toolkit; with -arch=sm_90 or -arch=sm_80
 *   it builds too, as the stubs that report "not supported")
 */
#include "sm90.cuh"

/* The wgmma and TMA code exists only in a device compilation for sm_90a,
 * where nvcc defines __CUDA_ARCH_FEAT_SM90_ALL (sm90.cuh). */
#ifndef __CUDA_ARCH_FEAT_SM90_ALL
#pragma nv_diag_suppress 177 /* the stub leaves the helpers unused */
#endif

#ifndef GKB4_GROUP_M
#define GKB4_GROUP_M 8
#endif

namespace {

/* The tile, its stages and their bytes (128 x 256 x 64, 4 stages of 48 KB)
 * are those of variants 14-17: sm90.cuh's bf16_tile. */
using namespace bf16_tile;
constexpr int kWarpgroups = kBM / 64;               /* 2 consumers: each owns 64 rows x all BN columns */
constexpr int kWsThreads = 3 * 128;                 /* 1 producer + 2 consumer warpgroups */
constexpr int kConsumerWarps = kWarpgroups * 4;     /* 8: each releases a stage once (the empty barrier's count) */
constexpr int kProducerRegs = 40, kConsumerRegs = 232; /* setmaxnreg: registers per thread after the split */
constexpr unsigned kGroupM = GKB4_GROUP_M;
static_assert(128 * kProducerRegs + kWarpgroups * 128 * kConsumerRegs <= 65536,
              "setmaxnreg: the warpgroups' registers fit the SM's 64K-register file");
static_assert(kProducerRegs % 8 == 0 && kConsumerRegs % 8 == 0 && kProducerRegs >= 24 && kConsumerRegs <= 256,
              "setmaxnreg takes multiples of 8 in 24 .. 256");

/* ---- The warp-specialized kernel ---------------------------------------------------- */
/* The producer thread queues k-tile kt into stage `slab`: one arrive.expect_tx on the
 * stage's full barrier with the bytes the boxes bring, then the boxes: A's
 * 128 rows x 64 k (one box) and B's 64 k-rows x 64 columns for each panel
 * that holds a column < n. A panel wholly right of column n is not loaded:
 * its stale contents reach only the accumulators of columns >= n, which the
 * epilogue never stores. */
__device__ __forceinline__ void load_stage(const CUtensorMap *map_a, const CUtensorMap *map_b, uint32_t as0,
                                           uint32_t bs0, uint32_t full0, int slab, unsigned kt, unsigned bm,
                                           unsigned bn, int panels)
{
    const uint32_t full = full0 + 8 * slab;
    mbar_arrive_expect_tx(full, (uint32_t)(kABytes + panels * kPanelBytes));
    /* Coordinates fit an int: bm, bn and kt * kBK stay below 2^31 - 255
     * (m, n, k <= 2^31 - 1, tiles aligned), bn + 192 too. */
    tma_load_2d(as0 + slab * kABytes, map_a, (int)(kt * kBK), (int)bm, full);
    for (int p = 0; p < panels; ++p)
        tma_load_2d(bs0 + slab * kBBytes + p * kPanelBytes, map_b, (int)(bn + 64 * p), (int)(kt * kBK), full);
}

__global__ void __launch_bounds__(kWsThreads, 1)
gemm_bf16_ws(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, unsigned m,
             unsigned n, unsigned k, float alpha, float beta, __nv_bfloat16 *__restrict__ c, size_t ldc,
             unsigned tiles_m, unsigned tiles_n, bool c_vec)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    extern __shared__ __align__(128) unsigned char smem[];
    /* The slabs, then the barriers (ring_layout, as variant 15): empty[s] is
     * "the consumers are done with stage s". */
    const Ring ring = ring_layout<kStages, kABytes, kBBytes>(smem);
    const uint32_t as0 = ring.as0, bs0 = ring.bs0, full0 = ring.full0, empty0 = ring.empty0;

    unsigned bm, bn;
    tile_origin<kGroupM, kBM, kBN>(blockIdx.x, tiles_m, tiles_n, &bm, &bn); /* the L2 swizzle of variant 14 */
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wg = warp >> 2; /* 0: the producer; 1, 2: the consumers */
    const unsigned ktiles = (k + kBK - 1) / kBK; /* >= 1: the launcher sends k = 0 to the cp.async kernel */

    if (tid == 0) {
        /* full: the producer's arrive.expect_tx, then the bytes; empty: one
         * arrival per consumer warp. */
        init_ring<kStages>(full0, empty0, 1, kConsumerWarps);
        prefetch_tensormap(&map_a);
        prefetch_tensormap(&map_b);
    }
    /* The barriers are initialized before any thread waits on them: the
     * only block-wide barrier of the kernel; the roles split below. */
    __syncthreads();

    if (wg == 0) {
        /* ---- Producer warpgroup: 40 registers per thread are plenty for a
         * loop of address arithmetic; the 128 x (168 - 40) registers given
         * back let the consumers grow to 232. */
        setmaxnreg_dec<kProducerRegs>();
        if (tid == 0) {
            const int panels = n - bn >= (unsigned)kBN ? kPanels : (int)((n - bn + 63) / 64); /* B panels inside n */
            for (unsigned kt = 0; kt < ktiles; ++kt) {
                const int slab = (int)(kt % kStages);
                /* The stage's previous k-tile (kt - kStages) is released by
                 * all 8 consumer warps: phase kt / kStages - 1 of its empty
                 * barrier. The first kStages k-tiles find the stages empty. */
                if (kt >= (unsigned)kStages) mbar_wait(empty0 + 8 * slab, (kt / kStages - 1) & 1u);
                load_stage(&map_a, &map_b, as0, bs0, full0, slab, kt, bm, bn, panels);
            }
        }
        /* The other 127 producer threads, and thread 0 once it has queued the
         * last k-tile, are done: the TMA completes the copies on its own, and
         * the block lives on while the consumers run. */
        return;
    }

    /* ---- Consumer warpgroups: rows 64 cw .. 64 cw + 63 of the tile. */
    setmaxnreg_inc<kConsumerRegs>();
    const int cw = wg - 1;
    float d[kAcc];
#pragma unroll
    for (int i = 0; i < kAcc; ++i) d[i] = 0.0f;

    for (unsigned kt = 0; kt < ktiles; ++kt) {
        const int slab = (int)(kt % kStages);
        /* Wait for k-tile kt: the TMA has written all its bytes (visible to
         * this thread and to its wgmma, which read through the async proxy
         * as the TMA writes: no proxy fence). */
        mbar_wait(full0 + 8 * slab, (kt / kStages) & 1u);
        __syncwarp(); /* the wgmma below are .sync.aligned: the warp's lanes converge */
        /* 4 wgmma, then wait until at most this k-tile's group is running:
         * k-tile kt-1's wgmma (and their reads of its stage) are done in
         * this warp ... */
        bf16_wgmma_ktile<kBK, kKSteps, kABytes, kBBytes>(d, as0, bs0, slab, cw);
        /* ... which releases k-tile kt-1's stage to the producer. No
         * consumer thread ever waits for the producer's refill. */
        if (kt > 0 && lane == 0) mbar_arrive(empty0 + 8 * (int)((kt - 1) % kStages));
    }
    wgmma_wait<0>(); /* every wgmma done: the accumulators are final */
    acc_fence(d);

    store_tile(d, c, ldc, m, n, bm + 64 * cw + 16 * (warp & 3), bn, lane, alpha, beta, c_vec);
#else
    sm90a_stub(m, n); /* not compiled for sm_90a: a stub, never launched (sm90.cuh) */
#endif
}

} // namespace

extern "C" cudaError_t gk_gemm_bf16_04_warp_specialized_run(size_t m, size_t n, size_t k, float alpha,
                                                            const void *a, size_t lda, const void *b, size_t ldb,
                                                            float beta, void *c, size_t ldc, cudaStream_t stream)
{
    /* Rows that the TMA cannot address (and k = 0, which loads nothing)
     * take the cp.async path of variant 14 (run_tma, sm90.cuh). */
    return run_tma<kGroupM>(gemm_bf16_ws, kWsThreads, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
}
