/* Variant 05: 2D register blocking, each thread computes an 8 x 8 tile of C.
 *
 * The idea: variant 04 reuses one B value from a register for 8 FMAs, but
 * still reads a fresh A value from shared memory for every FMA. Block in
 * both directions: at step p of a slice a thread holds a column of kTM = 8
 * values of A, A(its 8 rows, p), and a row of kTN = 8 values of B, B(p, its
 * 8 columns), in registers, and adds their outer product, 8 x 8 = 64 FMAs,
 * into 64 accumulators. Every value loaded from shared memory now feeds 8
 * FMAs. Block tile kBM x kBN = 128 x 128, slice depth kBK = 8, and
 * (kBM / kTM) * (kBN / kTN) = 16 * 16 = 256 threads.
 *
 * What changed and why it is faster, counted per thread per slice:
 *   - Shared loads. Each of the kBK = 8 steps reads kTM + kTN = 16 floats
 *     for kTM * kTN = 64 FMAs: 128 floats for 512 FMAs, 1/4 shared float per
 *     FMA (variant 04: 9/8, variant 03: 2). In instructions: the 8 values
 *     As[row][0 .. 7] of one row are adjacent and 32-byte aligned, so the
 *     compiler reads each row with two 128-bit loads; cuobjdump -sass shows
 *     16 LDS.128 + 64 LDS per 512 FFMA, i.e. 80 shared-load instructions per
 *     512 FMAs (variant 04: 24 per 64 = 192 per 512).
 *   - Global loads. kLoadsA + kLoadsB = 4 + 4 = 8 per thread per slice for
 *     512 FMAs: 1/64 per FMA (variant 04: 1/32). Per block: (kBM + kBN) * kBK
 *     = 256 * 8 = 2048 floats for kBM * kBN * kBK = 131072 FMAs; arithmetic
 *     intensity kBM * kBN / (kBM + kBN) = 16384 / 256 = 64 FMAs per float
 *     loaded (variant 04: 32).
 *   - Loads in flight: the 8 global loads of a slice are independent and
 *     issued before any of them is stored, 8 per thread (variant 04: 2).
 *   - Barriers: 2 per slice, i.e. per 512 FMAs of each thread (variant 04:
 *     2 per 64).
 *   - Registers: 64 accumulators + 8 A values + 8 B values = 80 registers of
 *     data; ptxas -v (CUDA 13.0, sm_90) reports 119 in all (addresses,
 *     indices, the loop counter, values in transit from global to shared
 *     memory), no spills.
 *
 * Which 8 x 8 elements a thread owns (a choice of this file). Boehm's kernel
 * 5 gives a thread a contiguous 8 x 8 block (rows 8 * thread_row + i,
 * columns 8 * thread_col + j). With scalar shared loads that layout
 * conflicts: a warp is thread_col = 0 .. 15 on two thread_rows, and
 * Bs[p][8 * thread_col + j] puts lanes whose thread_col differ by 4 on the
 * same bank (words 32 apart): 4-way conflicts; As[8 * thread_row + i][p]
 * puts the two thread_rows 64 words apart, same bank: 2-way; and each C
 * store of a warp is 16 floats 32 bytes apart per row. Here the thread's
 * rows and columns are interleaved with a stride of 16 (rows thread_row +
 * 16 * i, columns thread_col + 16 * j). Then, for 32 banks of 4 bytes:
 *     Bs[p][thread_col + 16 * j]: 16 consecutive words, each read by the 2
 *       lanes sharing thread_col (a broadcast): no conflict;
 *     As[thread_row + 16 * i][p]: the warp's 2 thread_rows are one row of 8
 *       words apart, so different banks: 2 words, each broadcast to 16
 *       lanes, no conflict (also for the 128-bit form: banks b .. b+3 and
 *       b+8 .. b+11);
 *     stores As[e / 8][e % 8] and Bs[e / 128][e % 128], e = tid + 256 * l:
 *       word e of the tile, 32 consecutive words per warp: no conflict;
 *     C: each warp store writes 16 consecutive floats on each of 2 rows.
 *   Coalescing of the tile loads: a warp reads 32 consecutive floats of one
 *   row of B (4 sectors, 5 unaligned), and 4 rows x 8 consecutive floats of
 *   A (4 sectors when each row's 32 bytes are 32-byte aligned, up to 8).
 *
 * Occupancy: 8192 bytes of shared memory per block ((128 * 8 + 8 * 128) * 4).
 * Registers are allocated per warp in units of 256, so 119 per thread
 * round up to 120 (120 * 32 = 3840 per warp, a multiple of 256): 120
 * registers x 256 threads = 30720 per block, and an sm_90 SM's 65536 hold 2
 * blocks (3 would need 92160): 512 threads, 16 warps, 25% of the
 * 2048-thread maximum. That is enough here because each warp brings its
 * own parallelism: 64 independent accumulators, so after each step's 16
 * shared floats arrive, 64 FMAs can be issued back to back.
 *
 * Bound by: closer to the FMA pipe than any variant before, but not there.
 * At each slice start every warp waits for its global loads (nothing is
 * prefetched while the previous slice computes), then at a barrier; the
 * loads are 4-byte scalars, 8 load and 8 store instructions per thread per
 * slice, and the shared loads still take 80 issue slots per 512 FFMA.
 * Variant 06 widens the global loads to 16 bytes.
 *
 * Limits: blocks of 256 threads (one-dimensional); any m, n, k. Every tile
 * element outside A or B (edge tiles, and the last slice when k is not a
 * multiple of 8) is stored as 0 and adds nothing; every store to C is
 * guarded; threads outside C still load and reach every barrier. Scalar
 * 4-byte global loads: any pointer alignment and any lda/ldb/ldc, no aligned
 * fast path. One-dimensional grid: block b computes tile (b / tiles_n,
 * b % tiles_n). The pointers are __restrict__: C must not overlap A or B
 * (the BLAS rule). With 128 x 128 tiles a small matrix gives few blocks:
 * m = n = 1024 makes 8 * 8 = 64 blocks, fewer than the SMs of an H100.
 * Register use depends on the target: for sm_80 ptxas -v reports 186
 * registers (1 block of 256 threads per SM there); capping it at 128 with
 * __launch_bounds__(256, 2) makes the sm_80 build spill, so it is not done.
 *
 * Sources: Simon Boehm, "How to Optimize a CUDA Matmul Kernel for
 * cuBLAS-like Performance" (2022), kernel 5 (2D blocktiling); NVIDIA CUTLASS
 * documentation, "Efficient GEMM in CUDA" (thread-level outer products from
 * fragments held in registers, and the hierarchy of block and thread
 * tiles); CUDA C++ Programming Guide, "Shared Memory" and the occupancy
 * rules of "Compute Capabilities".
 *
 * Build alone: nvcc -arch=sm_90 -c 05_2d_blocktiling.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kBM = 128;                           /* rows of C per block */
constexpr unsigned kBN = 128;                           /* columns of C per block */
constexpr unsigned kBK = 8;                             /* depth of one k-slice */
constexpr unsigned kTM = 8;                             /* rows of C per thread */
constexpr unsigned kTN = 8;                             /* columns of C per thread */
constexpr unsigned kRowStep = kBM / kTM;                /* 16: distance between a thread's rows */
constexpr unsigned kColStep = kBN / kTN;                /* 16: distance between a thread's columns */
constexpr unsigned kThreads = kRowStep * kColStep;      /* 256 */
constexpr unsigned kLoadsA = kBM * kBK / kThreads;      /* 4 elements of the A tile per thread per slice */
constexpr unsigned kLoadsB = kBK * kBN / kThreads;      /* 4 elements of the B tile per thread per slice */
static_assert(kLoadsA * kThreads == kBM * kBK && kLoadsB * kThreads == kBK * kBN, "tiles split evenly");

__global__ void __launch_bounds__(kThreads)
    gemm_2d_blocktiling(unsigned m, unsigned n, unsigned k, unsigned tiles_n, float alpha,
                        const float *__restrict__ a, size_t lda, const float *__restrict__ b, size_t ldb, float beta,
                        float *__restrict__ c, size_t ldc)
{
    __shared__ float As[kBM][kBK]; /* As[i][p] = A(row0 + i, t0 + p) */
    __shared__ float Bs[kBK][kBN]; /* Bs[p][j] = B(t0 + p, col0 + j) */

    const unsigned tid = threadIdx.x;
    const unsigned row0 = blockIdx.x / tiles_n * kBM, col0 = blockIdx.x % tiles_n * kBN;

    /* Compute mapping, interleaved: thread tid owns C(row0 + thread_row +
     * 16*i, col0 + thread_col + 16*j), i, j = 0 .. 7. A warp (32 consecutive
     * tid) is thread_col = 0 .. 15 on two consecutive thread_rows, so for
     * each j its Bs reads are 16 consecutive words (no bank conflict) and its
     * C stores are 16 consecutive floats on each of 2 rows. */
    const unsigned thread_col = tid % kColStep, thread_row = tid / kColStep;

    float acc[kTM][kTN] = {}; /* 64 accumulators in registers: all indices below are compile-time constants */
    for (unsigned t0 = 0; t0 < k; t0 += kBK) {
        /* Load mapping: the tiles are filled in row-major order, element tid
         * + 256*l in load l. For A (rows of kBK = 8) a warp covers 4 rows x 8
         * consecutive floats; for B (rows of kBN = 128) 32 consecutive floats
         * of one row. All loads are issued before any is stored, so each
         * thread has kLoadsA + kLoadsB = 8 global loads in flight. Zero
         * outside A or B: edge tiles and a last slice shorter than kBK then
         * add nothing. size_t offsets: row * lda can exceed 2^32. */
#pragma unroll
        for (unsigned l = 0; l < kLoadsA; ++l) {
            const unsigned e = tid + l * kThreads, i = e / kBK, p = e % kBK;
            const unsigned ar = row0 + i, ak = t0 + p;
            As[i][p] = (ar < m && ak < k) ? a[(size_t)ar * lda + ak] : 0.0f;
        }
#pragma unroll
        for (unsigned l = 0; l < kLoadsB; ++l) {
            const unsigned e = tid + l * kThreads, p = e / kBN, j = e % kBN;
            const unsigned bk = t0 + p, bc = col0 + j;
            Bs[p][j] = (bk < k && bc < n) ? b[(size_t)bk * ldb + bc] : 0.0f;
        }
        __syncthreads(); /* both tiles are complete before any thread reads elements other threads wrote */

#pragma unroll
        for (unsigned p = 0; p < kBK; ++p) {
            /* A column of kTM values of A and a row of kTN values of B, into
             * registers: 16 shared loads, then their 8 x 8 outer product. */
            float a_frag[kTM], b_frag[kTN];
#pragma unroll
            for (unsigned i = 0; i < kTM; ++i) a_frag[i] = As[thread_row + i * kRowStep][p];
#pragma unroll
            for (unsigned j = 0; j < kTN; ++j) b_frag[j] = Bs[p][thread_col + j * kColStep];
#pragma unroll
            for (unsigned i = 0; i < kTM; ++i)
#pragma unroll
                for (unsigned j = 0; j < kTN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads(); /* every warp is done reading this slice before the next iteration overwrites it */
    }

#pragma unroll
    for (unsigned i = 0; i < kTM; ++i) {
        const unsigned row = row0 + thread_row + i * kRowStep;
#pragma unroll
        for (unsigned j = 0; j < kTN; ++j) {
            const unsigned col = col0 + thread_col + j * kColStep;
            if (row < m && col < n) store_c(&c[(size_t)row * ldc + col], acc[i][j], alpha, beta);
        }
    }
}

} // namespace

extern "C" cudaError_t gk_gemm_05_2d_blocktiling_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                     size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                     size_t ldc, cudaStream_t stream)
{
    return launch_tiles(gemm_2d_blocktiling, kBM, kBN, kThreads, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
}
