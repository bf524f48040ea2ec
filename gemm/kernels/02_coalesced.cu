/* Variant 02: coalesced, one thread per element of C, lanes along a row.
 *
 * The idea: the same algorithm as variant 01 (one thread per element of C,
 * the whole k-loop in that thread, 32 x 32 threads per 32 x 32 tile of C),
 * with one change: threadIdx.x, the index that changes from lane to lane
 * within a warp, now picks the COLUMN of C:
 *     row = tile_row * 32 + threadIdx.y,  col = tile_col * 32 + threadIdx.x.
 * One warp now holds 32 consecutive columns of ONE row of C.
 *
 * What changed and why it is faster: at each step p of the k-loop a warp's
 * 32 lanes
 *   - read B(p, col) = b[p*ldb + col] for 32 consecutive columns: 32
 *     consecutive floats, 128 bytes, i.e. 4 sectors of 32 bytes (5 when the
 *     segment does not start on a 32-byte boundary, as for b + 1, or for
 *     most rows when ldb is not a multiple of 8): a coalesced load;
 *   - read A(row, p) = a[row*lda + p], one address for all 32 lanes: one
 *     sector, broadcast;
 *   - and at the end read (beta != 0) and write 32 consecutive floats of C:
 *     4 or 5 sectors each.
 * So a warp-step of 32 FMAs costs 1 + 4 = 5 (at most 6) sectors instead of
 * variant 01's 32 + 1 = 33, and the C traffic shrinks from 32 sectors per
 * warp instruction to 4 or 5.
 *
 * What did not change: each FMA still needs 2 loads issued by its thread,
 * one float of A and one of B, 8 bytes for 2 FLOPs: 4 bytes per FLOP. No
 * GPU's DRAM comes near feeding its FMA units at that rate (DRAM bandwidth
 * divided by FP32 peak is a small fraction of a byte per FLOP), yet this
 * kernel runs far faster than DRAM alone would allow, because almost all of
 * those loads hit in the caches:
 *   - A(row, p) is loaded once per warp and broadcast to 32 lanes;
 *   - all 32 warps of a block (one per row of the tile) read the same 32
 *     floats of B row p at step p: after the first warp, L1 hits;
 *   - the 32-byte sector holding A(row, p) holds up to 7 of the values
 *     that follow it in the row: the next steps of the warp find them in
 *     L1;
 *   - neighbouring blocks (consecutive blockIdx.x share a tile row) read the
 *     same rows of A, and those sharing a tile column the same columns of
 *     B, through L2.
 * Counted per block: the tile needs 32 rows of A and 32 columns of B, 64 * k
 * distinct floats, for 32 * 32 * k FMAs: if every re-read hit on chip, that
 * would be 64 / 1024 = 1/16 float per FMA loaded from DRAM, not 2. That
 * reuse is left to the caches here; variant 03 makes it explicit.
 *
 * Resources: one accumulator per thread; no shared memory; 1024 threads per
 * block. ptxas -v (CUDA 13.0, sm_90) reports 32 registers, so an sm_90 SM
 * (2048 threads, 65536 registers: 32 each) holds 2 blocks, full occupancy.
 *
 * Bound by: load issue and L1 throughput. Every FMA still sends 2 load
 * instructions through the load/store unit and L1 (tag look-up, possible
 * miss to L2), and the FMA units wait on them.
 *
 * Limits: blocks of 32 x 32 = 1024 threads; any m, n, k (threads of an edge
 * tile outside C do nothing; k = 0 gives acc = 0 and the epilogue still
 * runs). Scalar 4-byte loads, so any pointer alignment and any lda/ldb/ldc;
 * no aligned fast path. One-dimensional grid: block b computes tile
 * (b / tiles_n, b % tiles_n). The pointers are __restrict__: C must not
 * overlap A or B (the BLAS rule).
 *
 * A warning about a well-known lecture version of this kernel: its inner
 * loop reads `sum += A[...] + B[...]`, adding where it must multiply. It
 * compiles, runs and is wrong. Ours multiplies (one FFMA per step).
 *
 * Sources: Kirk & Hwu, "Programming Massively Parallel Processors", the
 * memory-coalescing chapter; Simon Boehm, "How to Optimize a CUDA Matmul
 * Kernel for cuBLAS-like Performance" (2022), kernel 2 (global memory
 * coalescing); CUDA C++ Programming Guide, "Device Memory Accesses".
 *
 * Build alone: nvcc -arch=sm_90 -c 02_coalesced.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kTile = 32; /* C tile per block: kTile x kTile, one thread per element */

__global__ void __launch_bounds__(kTile * kTile)
    gemm_coalesced(unsigned m, unsigned n, unsigned k, unsigned tiles_n, float alpha, const float *__restrict__ a,
                   size_t lda, const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c,
                   size_t ldc)
{
    const unsigned tile_row = blockIdx.x / tiles_n, tile_col = blockIdx.x % tiles_n;
    /* The one change from variant 01: threadIdx.x (consecutive across the
     * lanes of a warp) picks the COLUMN, so a warp reads 32 consecutive
     * floats of a row of B, one broadcast float of A, and writes 32
     * consecutive floats of C. */
    const unsigned row = tile_row * kTile + threadIdx.y;
    const unsigned col = tile_col * kTile + threadIdx.x;
    if (row >= m || col >= n) return; /* edge tile, outside C; no barrier follows, so leaving is safe */

    /* size_t for every offset: row * lda can exceed 2^32. */
    const float *a_row = a + (size_t)row * lda;
    float acc = 0.0f;
    for (unsigned p = 0; p < k; ++p) acc += a_row[p] * b[(size_t)p * ldb + col];
    store_c(&c[(size_t)row * ldc + col], acc, alpha, beta);
}

} // namespace

extern "C" cudaError_t gk_gemm_02_coalesced_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                size_t ldc, cudaStream_t stream)
{
    return launch_tiles(gemm_coalesced, kTile, kTile, dim3(kTile, kTile), m, n, k, alpha, a, lda, b, ldb, beta, c,
                        ldc, stream);
}
