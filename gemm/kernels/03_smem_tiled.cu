/* Variant 03: tiled in shared memory, 32 x 32 tiles of A and B.
 *
 * The idea: variant 02 leaves the reuse of A and B to the caches. Here the
 * block stages it itself. The k dimension is cut into slices kTile = 32
 * deep; for each slice the 32 x 32 threads of the block load the 32 x 32
 * tile of A (its 32 rows, columns t0 .. t0+31) and the 32 x 32 tile of B
 * (rows t0 .. t0+31, its 32 columns) into shared memory, one element of each
 * per thread, wait for each other, and then every thread runs 32 steps of
 * its dot product out of shared memory.
 *
 * What changed and why it is faster, counted:
 *   - Global loads. Per slice each thread issues 2 global loads (one of A,
 *     one of B) and 32 FMAs: 2/32 = 1/16 global load per FMA, down from 2
 *     in variant 02, a factor of kTile = 32. Per block: (32 + 32) * 32 =
 *     2048 floats for 32 * 32 * 32 = 32768 FMAs; arithmetic intensity
 *     32 * 32 / (32 + 32) = 16 FMAs per float loaded, i.e. 1/16 float =
 *     1/4 byte per FMA = 1/8 byte per FLOP (variant 02 issued 4 bytes/FLOP).
 *     Each element of A or B is now loaded once per block instead of once
 *     per thread that uses it (32 times).
 *   - Coalescing. Thread (ty, tx) loads A(row, t0 + tx) and B(t0 + ty, col);
 *     a warp is one ty and 32 consecutive tx, so each of its two loads reads
 *     32 consecutive floats of one row: 4 sectors (5 when not 32-byte
 *     aligned).
 *   - Shared memory. Each FMA reads 2 floats from shared memory, As[ty][p]
 *     and Bs[p][tx]: 2 shared loads per FMA (64 floats per thread per
 *     slice), plus 2 shared stores per thread per slice. In instructions it
 *     is a little less: As[ty][p .. p+3] are 4 adjacent words of a 16-byte
 *     aligned row, and the compiler fetches them with one 128-bit load
 *     (cuobjdump -sass shows 8 LDS.128 + 32 LDS per 32 FFMA: 40 shared-load
 *     instructions per 32 FMAs). Banks (32 banks of 4 bytes; word w is in
 *     bank w % 32): a warp has one ty and tx = 0 .. 31, so
 *       As[ty][p]: all 32 lanes read the same word(s): a broadcast, 1
 *         wavefront;
 *       Bs[p][tx]: 32 consecutive words, one per bank: no conflict;
 *       the stores As[ty][tx], Bs[ty][tx]: 32 consecutive words: no conflict.
 *     Shared memory never misses and has a short, fixed latency; a global
 *     load that misses L1 waits for L2, several times longer.
 *   - Barriers: 2 per slice, i.e. per 32 FMAs of each thread (see the body).
 *
 * Resources: 2 * 32 * 32 * 4 = 8192 bytes of shared memory per block; one
 * accumulator per thread; ptxas -v (CUDA 13.0, sm_90) reports 32 registers.
 * An sm_90 SM (2048 threads, 65536 registers = 32 per thread, 228 KB shared)
 * therefore holds 2 blocks of 1024 threads: full occupancy, 16 KB shared.
 *
 * Bound by: shared-memory traffic and instruction issue. With 40
 * shared-load instructions per 32 FMAs the load/store unit issues more
 * instructions than the FMA pipe does useful work, and at the start of each
 * slice every thread has just 1 global load of each matrix in flight while
 * the block waits at the barrier. Variant 04 attacks the 2 shared loads per
 * FMA by keeping values in registers.
 *
 * Limits: blocks of 32 x 32 = 1024 threads; any m, n, k. Loads outside the
 * matrix (edge tiles, and the last slice when k is not a multiple of 32)
 * store 0 into the tile, so they add nothing; every store to C is guarded.
 * Threads outside C still load and still reach every barrier (no early
 * return). Scalar 4-byte loads: any pointer alignment and any lda/ldb/ldc,
 * no aligned fast path. One-dimensional grid: block b computes tile
 * (b / tiles_n, b % tiles_n). The pointers are __restrict__: C must not
 * overlap A or B (the BLAS rule).
 *
 * Sources: Kirk & Hwu, "Programming Massively Parallel Processors", the
 * chapter on memory and data locality (tiled matrix multiplication, with
 * boundary checks for arbitrary sizes); Simon Boehm, "How to Optimize a CUDA
 * Matmul Kernel for cuBLAS-like Performance" (2022), kernel 3 (shared memory
 * cache-blocking); CUDA C++ Programming Guide, "Shared Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 03_smem_tiled.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kTile = 32; /* C tile per block and depth of a k-slice: kTile x kTile */

__global__ void __launch_bounds__(kTile * kTile)
    gemm_smem_tiled(unsigned m, unsigned n, unsigned k, unsigned tiles_n, float alpha, const float *__restrict__ a,
                    size_t lda, const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c,
                    size_t ldc)
{
    __shared__ float As[kTile][kTile]; /* As[i][p] = A(tile_row*32 + i, t0 + p) */
    __shared__ float Bs[kTile][kTile]; /* Bs[p][j] = B(t0 + p, tile_col*32 + j) */

    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const unsigned tile_row = blockIdx.x / tiles_n, tile_col = blockIdx.x % tiles_n;
    /* As in variant 02, threadIdx.x (consecutive across a warp) picks the
     * column, so the loads below and the store of C are coalesced. */
    const unsigned row = tile_row * kTile + ty;
    const unsigned col = tile_col * kTile + tx;

    float acc = 0.0f;
    for (unsigned t0 = 0; t0 < k; t0 += kTile) {
        /* Thread (ty, tx) fetches A(row, t0 + tx) and B(t0 + ty, col): for
         * both, the lanes of a warp read 32 consecutive floats of one row.
         * Outside the matrix the tile gets 0, so products with it add
         * nothing: this handles the edge tiles and a last slice shorter
         * than 32. A thread whose own (row, col) is outside C still loads
         * its share for the others. size_t offsets: row * lda can exceed
         * 2^32. */
        As[ty][tx] = (row < m && t0 + tx < k) ? a[(size_t)row * lda + (t0 + tx)] : 0.0f;
        Bs[ty][tx] = (t0 + ty < k && col < n) ? b[(size_t)(t0 + ty) * ldb + col] : 0.0f;
        __syncthreads(); /* both tiles are complete before any thread reads elements other threads wrote */

        /* As[ty][p] is one word for the whole warp (broadcast); Bs[p][tx]
         * is 32 consecutive words in 32 banks: no bank conflict. */
#pragma unroll
        for (unsigned p = 0; p < kTile; ++p) acc += As[ty][p] * Bs[p][tx];
        __syncthreads(); /* every warp is done reading this slice before the next iteration overwrites it */
    }
    if (row < m && col < n) store_c(&c[(size_t)row * ldc + col], acc, alpha, beta);
}

} // namespace

extern "C" cudaError_t gk_gemm_03_smem_tiled_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                 size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                 size_t ldc, cudaStream_t stream)
{
    return launch_tiles(gemm_smem_tiled, kTile, kTile, dim3(kTile, kTile), m, n, k, alpha, a, lda, b, ldb, beta, c,
                        ldc, stream);
}
