/* Variant 04: 1D register blocking, each thread computes a column of TM = 8
 * elements of C.
 *
 * The idea: in variant 03 every FMA needs two fresh floats from shared
 * memory. But the 8 results C(r0 .. r0+7, col) in one column all use the
 * same B(p, col) at step p. So let one thread compute those kTM = 8 results:
 * it loads B(p, col) from shared memory once into a register and uses it
 * for 8 FMAs, each with a different A value. The block tile grows to
 * kBM x kBN = 64 x 64 elements of C, the k-slice shrinks to kBK = 8, and the
 * block has kBM * kBN / kTM = 512 threads.
 *
 * Why these constants (they are those of Boehm's kernel 4): with 512
 * threads and kBM * kBK = kBK * kBN = 512, each thread loads exactly one
 * element of the A tile and one of the B tile per slice, so the load needs
 * no loop; kTM = 8 gives 8 accumulators, few enough registers for 3 blocks
 * (1536 threads) per SM (below).
 *
 * What changed and why it is faster, counted per thread per slice:
 *   - Shared loads. For each of the kBK = 8 steps p: 1 float of Bs and kTM =
 *     8 floats of As for kTM = 8 FMAs. Per slice: 8 * (1 + 8) = 72 floats
 *     for 64 FMAs: (1 + kTM) / kTM = 9/8 = 1.125 shared floats per FMA,
 *     down from 2 in variant 03. (In instructions: the 8 values As[row][0 ..
 *     7] of one row are adjacent and 32-byte aligned, so the compiler reads
 *     them with two 128-bit loads; cuobjdump -sass shows 16 LDS.128 + 8 LDS
 *     per 64 FFMA: 24 shared-load instructions per 64 FMAs, against 40 per
 *     32 in variant 03.)
 *   - Global loads. 2 per thread per slice (one of A, one of B) for kBK *
 *     kTM = 64 FMAs: 2/64 = 1/32 per FMA, down from 1/16. Per block: (kBM +
 *     kBN) * kBK = 128 * 8 = 1024 floats for kBM * kBN * kBK = 32768 FMAs;
 *     arithmetic intensity kBM * kBN / (kBM + kBN) = 4096 / 128 = 32 FMAs
 *     per float (variant 03: 16).
 *   - Barriers: 2 per slice, i.e. per 64 FMAs of each thread (variant 03: 2
 *     per 32 FMAs).
 *   - Banks (32 banks of 4 bytes). A warp is 32 consecutive tid: one
 *     thread_row and 32 consecutive thread_col. Reading Bs[p][thread_col]:
 *     32 consecutive words, no conflict; reading As[thread_row * 8 + r][p]:
 *     one address for the whole warp, a broadcast. Storing As[tid / 8][tid %
 *     8] and Bs[tid / 64][tid % 64]: word tid of each tile, 32 consecutive
 *     words per warp, no conflict.
 *   - Coalescing. B: a warp reads 32 consecutive floats of one row of B, 4
 *     sectors (5 unaligned). A: a warp reads 4 rows x kBK = 8 consecutive
 *     floats (32 bytes per row), 4 sectors when each row's 8 floats start on
 *     a 32-byte boundary, up to 8 otherwise. C: a warp writes 32 consecutive
 *     floats of one row per store.
 *
 * Resources: shared memory (64 * 8 + 8 * 64) * 4 = 4096 bytes per block;
 * registers: kTM = 8 accumulators, 1 B value, and addresses; ptxas -v (CUDA
 * 13.0, sm_90) reports 40 registers. An sm_90 SM has 65536 registers and
 * 2048 threads: 65536 / (40 * 512) = 3.2, so 3 blocks (1536 threads, 75%
 * occupancy), 12 KB of shared memory. Each thread's 8 accumulators are 8
 * independent FMA chains, so the FMA pipe does not wait on its own latency.
 *
 * Bound by: still the shared-memory path and instruction issue (24 LDS for
 * 64 FFMA, plus 2 barriers and the loads per slice), and the latency of the
 * single global load per matrix in flight per thread at each slice start.
 * Variant 05 blocks in two dimensions to cut shared loads per FMA to 1/4.
 *
 * Limits: blocks of 512 threads (one-dimensional); any m, n, k. Every load
 * of a tile element outside A or B (edge tiles, and the last slice when k
 * is not a multiple of 8) stores 0, so it adds nothing; every store to C is
 * guarded; threads outside C still load and reach every barrier. Scalar
 * 4-byte global loads: any pointer alignment and any lda/ldb/ldc, no aligned
 * fast path (16-byte vector loads come in variant 06). One-dimensional grid:
 * block b computes tile (b / tiles_n, b % tiles_n). The pointers are
 * __restrict__: C must not overlap A or B (the BLAS rule).
 *
 * Sources: Simon Boehm, "How to Optimize a CUDA Matmul Kernel for
 * cuBLAS-like Performance" (2022), kernel 4 (1D blocktiling for calculating
 * multiple results per thread); Kirk & Hwu, "Programming Massively Parallel
 * Processors", on thread coarsening; CUDA C++ Programming Guide, "Shared
 * Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 04_1d_blocktiling.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kBM = 64;                   /* rows of C per block */
constexpr unsigned kBN = 64;                   /* columns of C per block */
constexpr unsigned kBK = 8;                    /* depth of one k-slice */
constexpr unsigned kTM = 8;                    /* rows of C per thread (one column) */
constexpr unsigned kThreads = kBM * kBN / kTM; /* 512 */
static_assert(kBM * kBK == kThreads && kBK * kBN == kThreads, "each thread loads one element of each tile");
static_assert(kBM % kTM == 0, "a thread's column of results lies inside the tile");

__global__ void __launch_bounds__(kThreads)
    gemm_1d_blocktiling(unsigned m, unsigned n, unsigned k, unsigned tiles_n, float alpha,
                        const float *__restrict__ a, size_t lda, const float *__restrict__ b, size_t ldb, float beta,
                        float *__restrict__ c, size_t ldc)
{
    __shared__ float As[kBM][kBK]; /* As[i][p] = A(row0 + i, t0 + p) */
    __shared__ float Bs[kBK][kBN]; /* Bs[p][j] = B(t0 + p, col0 + j) */

    const unsigned tid = threadIdx.x;
    const unsigned row0 = blockIdx.x / tiles_n * kBM, col0 = blockIdx.x % tiles_n * kBN;

    /* Compute mapping: thread tid owns C(row0 + thread_row*kTM + r, col0 +
     * thread_col), r = 0 .. kTM-1. thread_col = tid % kBN puts 32 consecutive
     * columns in a warp (conflict-free Bs reads, coalesced C stores) and one
     * thread_row per warp (As reads are broadcasts). */
    const unsigned thread_col = tid % kBN, thread_row = tid / kBN;
    /* Load mapping: element tid of each tile, row-major. For A (rows of kBK
     * = 8) a warp covers 4 rows x 8 consecutive floats; for B (rows of kBN =
     * 64) a warp covers 32 consecutive floats of one row. */
    const unsigned a_row = tid / kBK, a_col = tid % kBK;
    const unsigned b_row = tid / kBN, b_col = tid % kBN;

    float acc[kTM] = {}; /* 8 accumulators, in registers: every index below is a compile-time constant */
    for (unsigned t0 = 0; t0 < k; t0 += kBK) {
        /* Zero outside A or B: edge tiles and a last slice shorter than kBK
         * then add nothing. size_t offsets: row * lda can exceed 2^32. */
        const unsigned ar = row0 + a_row, ak = t0 + a_col; /* the element of A this thread loads */
        const unsigned bk = t0 + b_row, bc = col0 + b_col; /* the element of B this thread loads */
        As[a_row][a_col] = (ar < m && ak < k) ? a[(size_t)ar * lda + ak] : 0.0f;
        Bs[b_row][b_col] = (bk < k && bc < n) ? b[(size_t)bk * ldb + bc] : 0.0f;
        __syncthreads(); /* both tiles are complete before any thread reads elements other threads wrote */

#pragma unroll
        for (unsigned p = 0; p < kBK; ++p) {
            const float bv = Bs[p][thread_col]; /* one shared load, reused for kTM FMAs */
#pragma unroll
            for (unsigned r = 0; r < kTM; ++r) acc[r] += As[thread_row * kTM + r][p] * bv;
        }
        __syncthreads(); /* every warp is done reading this slice before the next iteration overwrites it */
    }

    const unsigned col = col0 + thread_col;
#pragma unroll
    for (unsigned r = 0; r < kTM; ++r) {
        const unsigned row = row0 + thread_row * kTM + r;
        if (row < m && col < n) store_c(&c[(size_t)row * ldc + col], acc[r], alpha, beta);
    }
}

} // namespace

extern "C" cudaError_t gk_gemm_04_1d_blocktiling_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                     size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                     size_t ldc, cudaStream_t stream)
{
    return launch_tiles(gemm_1d_blocktiling, kBM, kBN, kThreads, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
}
