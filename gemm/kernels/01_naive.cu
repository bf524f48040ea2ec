/* Variant 01: naive, one thread per element of C, loads NOT coalesced.
 *
 * The idea: every element of C is an independent dot product of a row of A
 * and a column of B,
 *     acc = sum over p < k of A(row, p) * B(p, col),
 *     C(row, col) = alpha * acc + beta * C(row, col),
 * so give each element its own thread. A block of kTile x kTile = 32 x 32 =
 * 1024 threads covers one 32 x 32 tile of C; each thread runs the whole
 * k-loop alone, one FMA per step, reading one float of A and one of B from
 * global memory for it: 2 loads per FMA, 8 bytes per 2 FLOPs = 4 bytes/FLOP.
 *
 * This is the first step of the ladder, so there is nothing to compare it
 * with; what makes it slow is deliberate. threadIdx.x, the index that changes
 * from lane to lane within a warp (a warp is 32 threads with consecutive
 * threadIdx.x and the same threadIdx.y), picks the ROW of C:
 *     row = tile_row * 32 + threadIdx.x,  col = tile_col * 32 + threadIdx.y.
 * So one warp holds 32 consecutive rows of ONE column of C, and at each step
 * p of the k-loop its 32 lanes
 *   - read A(row, p) = a[row*lda + p] at 32 addresses lda floats (4*lda
 *     bytes) apart. Once lda >= 8, each of them lies in its own 32-byte
 *     sector: the one load instruction becomes 32 sector requests, each
 *     bringing 32 bytes of which this instruction uses 4;
 *   - read B(p, col) = b[p*ldb + col], the same address in all 32 lanes: one
 *     sector, broadcast to the warp;
 *   - and at the end read (when beta != 0) and write C(row, col), again 32
 *     addresses ldc floats apart: 32 sectors for each.
 * That is 33 sectors per warp per step of 32 FMAs; variant 02, which only
 * swaps threadIdx.x and threadIdx.y, needs 1 + 4 (1 + 5 when the 128 bytes
 * it reads of a row of B do not start on a 32-byte boundary). The L1 cache softens the damage (steps p+1 .. p+7
 * read the other 7 floats of the same A sectors, which may still be cached),
 * but every A load instruction still costs 32 separate requests in the
 * load/store path instead of a handful.
 *
 * Resources: one accumulator per thread; no shared memory. With 1024 threads
 * per block, an sm_90 SM (2048 threads, 65536 registers) holds 2 blocks when
 * a thread needs at most 65536 / 2048 = 32 registers; ptxas -v (CUDA 13.0,
 * sm_90) reports 32, so occupancy is full. Latency is hidden by those 64
 * warps per SM and by the compiler, which unrolls the k-loop and issues
 * several independent loads before the FMAs that use them (cuobjdump -sass).
 *
 * Bound by: the memory system's handling of uncoalesced requests (sector
 * requests per instruction through L1 and L2), not by the FMA units.
 *
 * Limits: blocks of 32 x 32 = 1024 threads; any m, n, k (threads of an edge
 * tile that fall outside C do nothing; k = 0 leaves acc = 0 and still runs
 * the epilogue). Scalar 4-byte loads only, so any pointer alignment and any
 * lda/ldb/ldc work; there is no aligned fast path. One-dimensional grid of
 * tiles: block b computes tile (b / tiles_n, b % tiles_n). The pointers are
 * __restrict__: C must not overlap A or B (the BLAS rule).
 *
 * Sources: Kirk & Hwu, "Programming Massively Parallel Processors", the
 * matrix-multiplication and memory-coalescing chapters (one thread per
 * output element; why the lane-to-address mapping matters); Simon Boehm,
 * "How to Optimize a CUDA Matmul Kernel for cuBLAS-like Performance" (2022),
 * kernel 1, which has the same row-per-lane mapping; CUDA C++ Programming
 * Guide, "Device Memory Accesses".
 *
 * Build alone: nvcc -arch=sm_90 -c 01_naive.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kTile = 32; /* C tile per block: kTile x kTile, one thread per element */

__global__ void __launch_bounds__(kTile * kTile)
    gemm_naive(unsigned m, unsigned n, unsigned k, unsigned tiles_n, float alpha, const float *__restrict__ a,
               size_t lda, const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c, size_t ldc)
{
    const unsigned tile_row = blockIdx.x / tiles_n, tile_col = blockIdx.x % tiles_n;
    /* The deliberate mistake of this variant: threadIdx.x, which differs
     * from lane to lane within a warp, picks the ROW, so a warp's loads of A
     * and its stores to C are lda and ldc floats apart. */
    const unsigned row = tile_row * kTile + threadIdx.x;
    const unsigned col = tile_col * kTile + threadIdx.y;
    if (row >= m || col >= n) return; /* edge tile, outside C; no barrier follows, so leaving is safe */

    /* size_t for every offset: row * lda can exceed 2^32. */
    const float *a_row = a + (size_t)row * lda;
    float acc = 0.0f;
    for (unsigned p = 0; p < k; ++p) acc += a_row[p] * b[(size_t)p * ldb + col];
    store_c(&c[(size_t)row * ldc + col], acc, alpha, beta);
}

} // namespace

extern "C" cudaError_t gk_gemm_01_naive_run(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                            const float *b, size_t ldb, float beta, float *c, size_t ldc,
                                            cudaStream_t stream)
{
    return launch_tiles(gemm_naive, kTile, kTile, dim3(kTile, kTile), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                        stream);
}
