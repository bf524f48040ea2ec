/* Variant 15 (bf16_03): the operands loaded by the Tensor Memory
 * Accelerator (TMA), an mbarrier pipeline; wgmma as in variant 14.
 *
 * The idea: Hopper's TMA is a copy engine next to each SM. One thread hands
 * it a "tensor map" (a 128-byte description of a matrix in global memory:
 * base address, sizes, row stride, box size, swizzle, made on the host with
 * cuTensorMapEncodeTiled) and the coordinates of a box, with
 *     cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
 * and the TMA copies the whole box (here up to 16 KB) into shared memory,
 * writes it in the 128-byte-swizzled layout that the wgmma descriptors of
 * variant 14 read, fills zeros wherever the box leaves the matrix, and
 * signals an mbarrier in shared memory byte by byte as the data lands.
 *
 * What changes from variant 14, counted per k-tile (128 x 256 x 64) and block:
 * - Who loads: in variant 14 each of the 8 warps issues 12 cp.async (LDGSTS)
 *   per k-tile, 96 warp instructions that copy 3,072 chunks of 16 bytes,
 *   every thread with its own address arithmetic and bounds test for each
 *   of its 12 chunks (and the gathered path's element loads at the edges).
 *   Here one thread issues 5 TMA instructions (A: one box of 64 k x 128 rows = 16 KB; B: four boxes
 *   of 64 columns x 64 k-rows = 8 KB each, one per 64-column panel). The
 *   edges cost nothing: the TMA zero-fills the parts of a box outside the
 *   matrix (columns of A >= k, rows of A >= m, rows of B >= k), so the
 *   kernel has no bounds test before the epilogue.
 * - What waits on what: each stage has a "full" mbarrier (1 arrival: thread
 *   0's arrive.expect_tx with the stage's bytes; the phase completes when the
 *   TMA has delivered them) and an "empty" mbarrier (8 arrivals: lane 0 of
 *   each warp, after the wgmma.wait_group that retires the wgmma reading the
 *   stage). The wgmma of k-tile kt wait on full[kt % 4] only; thread 0
 *   refills the stage of k-tile kt - 1 (with k-tile kt + 3) after waiting on
 *   its empty barrier. The main loop has no block barrier (variant 14: one
 *   __syncthreads per k-tile), and the two warpgroups drift apart by up to
 *   the stages in flight.
 * - Bytes in flight: variant 14 copies 2 k-tiles ahead (96 KB per SM); here
 *   a stage is refilled as soon as it is released, so 3 k-tiles (144 KB)
 *   are in flight ahead of the wgmma, with the same 4 stages.
 * - Registers: 154 per thread (ptxas -v, CUDA 13.0, sm_90a; variant 14's:
 *   170-182), 128 of them the fp32 accumulators of a 64 x 256 warpgroup tile;
 *   0 bytes of stack, no spills, no "wgmma serialized" warning.
 * - Proxies: the TMA writes shared memory through the async proxy, and wgmma
 *   reads it through the async proxy: variant 14's fence.proxy.async is gone.
 *   The mbarrier's completion makes the bytes visible to the threads that
 *   waited on it and to the wgmma they issue.
 *
 * ---- Shared memory ---------------------------------------------------------
 * Per stage: A slab 128 rows x 128 bytes = 16 KB (one TMA box), B slab 4
 * panels x 64 k-rows x 128 bytes = 32 KB (four boxes): 48 KB. 4 stages =
 * 192 KB, + 64 bytes of mbarriers (a full and an empty one per stage, 8
 * bytes each), + 1 KB of slack to start the slabs on a 1024-byte boundary:
 * 197,696 bytes of dynamic shared memory (of sm_90's 227 KB), 1 block per SM.
 * The layouts are variant 14's, which is what a tensor map with
 * CU_TENSOR_MAP_SWIZZLE_128B and a 128-byte inner box writes: row r of a box
 * at byte 128 r of the destination, its 16-byte chunk q at chunk q ^ (r % 8)
 * (the XOR taken from address bits 7-9, hence the 1024-byte alignment).
 * The wgmma descriptors, the accumulator layout and the epilogue are
 * variant 14's, unchanged (see bf16_02_wgmma.cu for their derivation).
 * B panels wholly right of column n (when n - bn < 256) are not loaded:
 * their stale contents reach only accumulators of columns >= n, which the
 * epilogue never stores; the expected bytes count only the panels loaded.
 *
 * ---- The pipeline, step by step ----------------------------------------------
 * Thread 0 initializes the 8 mbarriers (fence.mbarrier_init, then the one
 * __syncthreads of the kernel) and queues k-tiles 0-3 into stages 0-3. For
 * k-tile kt (stage s = kt % 4, the (kt / 4)-th use of the stage, so the
 * phase parity waited for is (kt / 4) & 1):
 *   1. every thread waits on full[s] (mbarrier.try_wait.parity);
 *   2. each warpgroup issues its 4 wgmma m64n256k16 and commits them;
 *   3. wgmma.wait_group 1: k-tile kt - 1's wgmma are retired in this warp;
 *   4. lane 0 of each warp arrives on empty[(kt - 1) % 4];
 *   5. thread 0 waits on that empty barrier (all 8 warps past step 3) and
 *      queues k-tile kt + 3 into that stage.
 * Step 5 is what variant 16 changes: thread 0 computes too, so warp 0 (and
 * with it warpgroup 0's next wgmma) waits there for the slowest warp, and a
 * refill is queued only once per k-tile of warp 0's progress.
 *
 * What bounds it: with the copies off the threads, the wgmma issue and the
 * stalls around it: the full-barrier waits when the TMA falls behind, and
 * warp 0's wait in step 5. Registers are allocated 8 per thread at a time
 * (256 per warp), so 154 take 160: 256 threads x 160 = 40,960 of the SM's
 * 65,536, which leaves 37.5% of the register file empty; variant 16 spends
 * it on a producer warpgroup.
 *
 * Limits and fallbacks:
 * - sm_90a only (wgmma, and the TMA and mbarrier forms used here): built as
 *   variant 14 is (the code compiled only where __CUDA_ARCH_FEAT_SM90_ALL is
 *   defined; elsewhere both kernels are stubs with a 1 KB static shared
 *   array, which the launcher detects with cudaFuncGetAttributes and reports
 *   as cudaErrorNotSupported, GK_ERROR_UNSUPPORTED through gk_gemm_bf16).
 *   The launcher returns cudaErrorNotSupported on any GPU other than compute
 *   capability 9.0.
 * - The TMA addresses a row only when the matrix's base address is 16-byte
 *   aligned and its row stride in bytes (2 lda, 2 ldb) a multiple of 16
 *   (below 2^40). Rows that the TMA cannot address take the cp.async path of
 *   variant 14: when A or B is not TMA-addressable (an lda or ldb that is not
 *   a multiple of 8, a pointer off 16-byte alignment), or k = 0, the launcher
 *   runs variant 14's kernel, which sm90.cuh carries for variants 15 and 16
 *   (16-byte cp.async where rows allow it, gathered chunks otherwise). Both
 *   operands take the same path.
 * - Tensor maps: made on the host at every call (two cuTensorMapEncodeTiled,
 *   which encode on the host and allocate nothing); the
 *   driver function is reached with cudaGetDriverEntryPointByVersion
 *   (cudaGetDriverEntryPoint before CUDA 12.5), so nothing links libcuda;
 *   the maps travel as const __grid_constant__ CUtensorMap kernel
 *   parameters (the TMA reads them from the parameter space) and are
 *   prefetched by thread 0 (prefetch.tensormap).
 * - Epilogue: variant 14's (guarded bf16 pair or element stores from
 *   registers, beta == 0 never reads C). 1-D grid of ceil(m/128) *
 *   ceil(n/256) blocks (at most 2^31 - 1), the L2 block swizzle of variant 14.
 *
 * Sources: PTX ISA ("Tensor Copy" and cp.async.bulk.tensor; "Parallel
 * Synchronization and Communication Instructions: mbarrier": init,
 * arrive, expect-tx, try_wait.parity, phases and the transaction count;
 * fence.mbarrier_init; prefetch.tensormap; wgmma as in variant 14); CUDA C++
 * Programming Guide ("Tensor Memory Access": tensor maps made on the host,
 * __grid_constant__ parameters, the swizzle modes and their alignment);
 * CUDA Driver API (cuTensorMapEncodeTiled: the alignment and stride rules);
 * NVIDIA CUTLASS documentation (the TMA pipeline of full and empty barriers).
 *
 * Build alone: nvcc -gencode arch=compute_90a,code=sm_90a -c bf16_03_tma.cu
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

#ifndef GKB3_GROUP_M
#define GKB3_GROUP_M 8
#endif

namespace {

/* The tile, its stages and their bytes (128 x 256 x 64, 4 stages of 48 KB)
 * are those of variants 14-17: sm90.cuh's bf16_tile. */
using namespace bf16_tile;
constexpr int kWarpgroups = kBM / 64;       /* 2: each owns 64 rows x all BN columns */
constexpr int kThreads = kWarpgroups * 128; /* 256 */
constexpr int kWarps = kThreads / 32;       /* 8: each releases a stage once (the empty barrier's count) */
constexpr unsigned kGroupM = GKB3_GROUP_M;

/* ---- The TMA kernel -------------------------------------------------------- */
/* Thread 0 queues k-tile kt into stage `slab`: one arrive.expect_tx on the
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

__global__ void __launch_bounds__(kThreads, 1)
gemm_bf16_tma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, unsigned m,
              unsigned n, unsigned k, float alpha, float beta, __nv_bfloat16 *__restrict__ c, size_t ldc,
              unsigned tiles_m, unsigned tiles_n, bool c_vec)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    extern __shared__ __align__(128) unsigned char smem[];
    /* The slabs, then the barriers (ring_layout): empty[s] is "every warp is
     * done with stage s". */
    const Ring ring = ring_layout<kStages, kABytes, kBBytes>(smem);
    const uint32_t as0 = ring.as0, bs0 = ring.bs0, full0 = ring.full0, empty0 = ring.empty0;

    unsigned bm, bn;
    tile_origin<kGroupM, kBM, kBN>(blockIdx.x, tiles_m, tiles_n, &bm, &bn); /* the L2 swizzle of variant 14 */
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wg = warp >> 2; /* this thread's warpgroup: rows 64 wg .. 64 wg + 63 of the tile */
    const unsigned ktiles = (k + kBK - 1) / kBK; /* >= 1: the launcher sends k = 0 to the cp.async kernel */
    const int panels = n - bn >= (unsigned)kBN ? kPanels : (int)((n - bn + 63) / 64); /* B panels inside n */

    if (tid == 0) {
        /* full: the producer's arrive.expect_tx, then the bytes; empty: one
         * arrival per warp. */
        init_ring<kStages>(full0, empty0, 1, kWarps);
        prefetch_tensormap(&map_a);
        prefetch_tensormap(&map_b);
    }
    /* The barriers are initialized before any thread waits on them. */
    __syncthreads();
    /* Prologue: thread 0 fills every stage (k-tiles 0 .. kStages - 1). */
    if (tid == 0)
        for (int s = 0; s < kStages && (unsigned)s < ktiles; ++s)
            load_stage(&map_a, &map_b, as0, bs0, full0, s, (unsigned)s, bm, bn, panels);
    __syncwarp(); /* warp 0 together again before the warpgroup-wide wgmma */

    float d[kAcc];
#pragma unroll
    for (int i = 0; i < kAcc; ++i) d[i] = 0.0f;

    for (unsigned kt = 0; kt < ktiles; ++kt) {
        const int slab = (int)(kt % kStages);
        /* Wait for k-tile kt: its full barrier's phase kt / kStages completes
         * when the TMA has written all its bytes (they are then visible to
         * this thread and to the wgmma it issues: both the TMA and wgmma
         * work in the async proxy, so no proxy fence is needed). */
        mbar_wait(full0 + 8 * slab, (kt / kStages) & 1u);
        __syncwarp(); /* the wgmma below are .sync.aligned: the warp's lanes converge */
        /* 4 wgmma, then wait until at most this k-tile's group is running:
         * k-tile kt-1's wgmma (and their reads of its stage) are done in
         * this warp. */
        bf16_wgmma_ktile<kBK, kKSteps, kABytes, kBBytes>(d, as0, bs0, slab, wg);
        if (kt > 0) {
            const unsigned prev = kt - 1;
            const int ps = (int)(prev % kStages);
            /* This warp releases k-tile kt-1's stage. */
            if (lane == 0) mbar_arrive(empty0 + 8 * ps);
            /* Thread 0 refills it with k-tile kt-1+kStages once all 8 warps
             * have released it (phase prev / kStages of the empty barrier):
             * kStages - 1 k-tiles stay in flight ahead of the wgmma. Warp 0
             * waits here for the slowest warp; variant 16 takes this wait off
             * the warps that compute. */
            if (tid == 0 && prev + kStages < ktiles) {
                mbar_wait(empty0 + 8 * ps, (prev / kStages) & 1u);
                load_stage(&map_a, &map_b, as0, bs0, full0, ps, prev + kStages, bm, bn, panels);
            }
            __syncwarp();
        }
    }
    wgmma_wait<0>(); /* every wgmma done: the accumulators are final */
    acc_fence(d);

    store_tile(d, c, ldc, m, n, bm + 64 * wg + 16 * (warp & 3), bn, lane, alpha, beta, c_vec);
#else
    sm90a_stub(m, n); /* not compiled for sm_90a: a stub, never launched (sm90.cuh) */
#endif
}

} // namespace

extern "C" cudaError_t gk_gemm_bf16_03_tma_run(size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                                               const void *b, size_t ldb, float beta, void *c, size_t ldc,
                                               cudaStream_t stream)
{
    /* Rows that the TMA cannot address (and k = 0, which loads nothing)
     * take the cp.async path of variant 14 (run_tma, sm90.cuh). */
    return run_tma<kGroupM>(gemm_bf16_tma, kThreads, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
}
