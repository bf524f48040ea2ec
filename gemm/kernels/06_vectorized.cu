/* Variant 06: vectorized 16-byte loads, A's tile stored transposed.
 *
 * The idea: move data 16 bytes at a time. One float4 load is one instruction
 * for 4 floats, from global memory and from shared memory alike. For the
 * shared-memory side a thread's values must be neighbours: its 8 values of B
 * at one k become 8 adjacent floats of a row of the B tile once the thread
 * owns 8 adjacent columns; its 8 values of A at one k are 8 rows of one
 * column, 8 floats apart in a row-major A tile. So the block writes its A
 * tile transposed, As[p][i] = A(row0 + i, k0 + p), while copying it in: then
 * they are 8 adjacent floats too.
 *
 * What changed from variant 05 and why it is faster. Block tile BM x BN =
 * 128 x 128, k-slices of BK = 8, 256 threads, an 8 x 8 tile of C per thread
 * from an outer product of register fragments: all as in variant 05.
 *
 * - Global loads. Each k-step the block copies A's 128 x 8 slice and B's
 *   8 x 128 slice, 2 x 1024 floats, 8 per thread: variant 05 uses 8 4-byte
 *   load instructions per thread, this file 2: thread t loads one float4 of
 *   A (row t / 2 of the slice, floats (t % 2) * 4 .. + 3) and one float4 of B
 *   (row t / 32, floats (t % 32) * 4 .. + 3). A quarter of the instructions,
 *   the same bytes: a warp reads 16 rows x 32 contiguous bytes of A (one
 *   32-byte sector per row, two when a row is only 16-byte aligned) and 512
 *   contiguous bytes of B. The block tile still
 *   loads (BM + BN) * BK = 2048 floats for BM * BN * BK = 131072 FMAs:
 *   BM * BN / (BM + BN) = 64 FMAs per float loaded (128 FLOP per 4 bytes,
 *   32 FLOP per byte), as in variant 05. The stores into shared memory drop
 *   from 8 to 5 per thread: 4 floats of A (scalar, transposing) and 1 float4
 *   of B.
 * - Shared loads. Per k index a thread needs 8 values of A and 8 of B for
 *   64 FMAs. Variant 05 gives a thread every 16th column, so its 8 B values
 *   are 8 scalar loads; the compiler packs its A values, read along k, into
 *   float4s: 80 shared-load instructions per k-step of 512 FMAs (variant
 *   05's header counts them). Here thread (tr, tc) = (t / 16, t % 16) owns
 *   rows 8 tr .. 8 tr + 7 and columns 8 tc .. 8 tc + 7 (the layout of
 *   Boehm's kernel), so each fragment is two float4 loads, As[p][8 tr ..]
 *   and Bs[p][8 tc ..]: 4 per k index, 32 per k-step, 1 per 16 FMAs.
 *   The price: variant 05's layout was free of bank conflicts; this one is
 *   not (counted below), which variant 07 repairs.
 * - C is read (beta != 0) and written as float4 too: 2 per row of the
 *   thread's 8 x 8 tile instead of 8.
 *
 * Bank conflicts, counted for 32 banks of 4 bytes. A warp's 4-byte access
 * needs as many wavefronts as the largest number of distinct addresses that
 * fall into one bank; threads reading the same address share one read
 * (broadcast). A float4 access is served in 4 phases of 8 threads, each
 * counted the same way, so a conflict-free one takes 4 wavefronts.
 * - Transposed store of A: thread t writes As[(t % 2) * 4 + e][t / 2] for
 *   e = 0..3. A row of As is 128 floats, 4 times around the 32 banks, so the
 *   bank is (t / 2) % 32 whatever the row. In one store the 32 threads of a
 *   warp write 16 columns (t / 2) in 2 rows (t % 2): threads t and t + 1 use
 *   the same bank at different addresses. 2-way conflict: the 4 stores take
 *   8 wavefronts instead of 4.
 * - Store of B: a warp writes one row, 512 contiguous bytes; each phase 128
 *   contiguous bytes, all 32 banks once. Conflict-free, 4 wavefronts.
 * - Loads of A's fragment: tr = t / 16, so the 8 threads of a phase read one
 *   address: broadcast, 1 wavefront per phase, 4 per load.
 * - Loads of B's fragment: tc = t % 16; the 8 threads of a phase read float4s
 *   at float offsets 8 tc = 0, 8, ..., 56 from one row: banks 0-3, 8-11,
 *   16-19, 24-27, then 32-35 = 0-3 again, ... Each bank gets 2 addresses:
 *   2-way conflict, 8 wavefronts per load instead of 4.
 * Per k index a warp needs 2 x 4 (A) + 2 x 8 (B) = 24 wavefronts for its
 * 32 x 64 = 2048 FMAs.
 *
 * What bounds it: an SM of compute capability 9.0 retires 128 fp32 FMAs per
 * clock, and its shared memory serves one wavefront (32 banks x 4 bytes) per
 * clock (CUDA C++ Programming Guide: arithmetic instruction throughput;
 * shared memory). A warp's 2048 FMAs per k index are 2048 / 128 = 16 clocks
 * of the SM's FMA units, its 24 wavefronts 24 clocks of the shared memory:
 * expected to be bound by shared-memory bandwidth; 8 of the 24 wavefronts
 * are B's conflicts, which variant 07 removes (with A's).
 *
 * Registers and occupancy: 64 accumulators + 16 fragment values + 8 loaded
 * floats per thread. __launch_bounds__(256, 2) asks for at most
 * 65536 / (2 x 256) = 128 registers, so 2 blocks (16 warps) fit in an SM's
 * 64 K registers; shared memory is 2 x 8 x 128 x 4 = 8 KB per block.
 * Barriers: 2 per k-step, as in variant 05. Bytes in flight: each k-step's
 * loads, 32 bytes per thread, are waited for at once (the store to shared
 * memory needs them): latency is hidden only by the other block on the SM.
 *
 * Limits: 256 threads per block, fixed tile constants. Fast path, chosen by
 * the launcher at run time: a, b and c 16-byte aligned and lda, ldb, ldc
 * multiples of 4 (every row starts on a 16-byte boundary). Otherwise (odd
 * ld, a + 1 pointers) the same kernel with kVec = false loads and stores
 * every element with a 4-byte access. On the fast path a float4 that sticks
 * out of the matrix (k or n not a multiple of 4) is read or written element
 * by element. Edges: elements outside A or B are loaded as zero (they add
 * nothing to the sums), stores outside C are skipped. beta == 0 never reads
 * C. Any m, n >= 1, k >= 0.
 *
 * Sources: S. Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
 * Performance" (2022), the step that vectorizes shared and global accesses;
 * D. Kirk and W. Hwu, "Programming Massively Parallel Processors", the
 * chapters on tiled matrix multiplication; CUDA C++ Programming Guide
 * (shared memory banks, arithmetic instruction throughput).
 * Build alone: nvcc -arch=sm_90 -c 06_vectorized.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kBM = 128; /* rows of C per block tile */
constexpr unsigned kBN = 128; /* columns of C per block tile */
constexpr unsigned kBK = 8;   /* depth of one k-slice */
constexpr unsigned kTM = 8;   /* rows of C per thread */
constexpr unsigned kTN = 8;   /* columns of C per thread */
constexpr unsigned kThreads = (kBM / kTM) * (kBN / kTN); /* 16 x 16 = 256 */

static_assert(kBM * kBK == 4 * kThreads, "each thread copies exactly one float4 of A per k-step");
static_assert(kBK * kBN == 4 * kThreads, "each thread copies exactly one float4 of B per k-step");
static_assert(kTM == 8 && kTN == 8, "the fragments are read as two float4 each");

template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2)
    gemm_vectorized(unsigned m, unsigned n, unsigned k, float alpha, const float *__restrict__ a, size_t lda,
                    const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c, size_t ldc,
                    unsigned tiles_n)
{
    /* As is transposed (As[p][i] = A(row0 + i, k0 + p)) so that a thread's 8
     * rows at one p are 8 consecutive floats; both arrays 16-byte aligned for
     * the float4 accesses. */
    __shared__ __align__(16) float As[kBK][kBM];
    __shared__ __align__(16) float Bs[kBK][kBN];

    const unsigned t = threadIdx.x;
    /* One-dimensional grid of tiles, row by row: block x -> tile (x / tiles_n, x % tiles_n). */
    const unsigned row0 = blockIdx.x / tiles_n * kBM, col0 = blockIdx.x % tiles_n * kBN;

    /* Copy mapping: A's slice is 128 rows of 2 float4s, thread t takes row
     * t / 2, float4 t % 2 (a warp: 16 rows x 32 contiguous bytes). B's slice
     * is 8 rows of 32 float4s, thread t takes row t / 32, float4 t % 32 (a
     * warp: one row, 512 contiguous bytes). */
    const unsigned a_row = t / (kBK / 4), a_col = t % (kBK / 4) * 4;
    const unsigned b_row = t / (kBN / 4), b_col = t % (kBN / 4) * 4;
    /* Compute mapping: 16 x 16 threads; thread (tr, tc) owns rows
     * 8 tr .. 8 tr + 7 and columns 8 tc .. 8 tc + 7 of the block tile. */
    const unsigned tr = t / (kBN / kTN), tc = t % (kBN / kTN);

    float acc[kTM][kTN];
    zero_acc(acc);

    for (unsigned k0 = 0; k0 < k; k0 += kBK) {
        const float4 av = load4<kVec>(a, lda, row0 + a_row, k0 + a_col, m, k);
        const float4 bv = load4<kVec>(b, ldb, k0 + b_row, col0 + b_col, k, n);
        /* Transpose on the way in: the 4 consecutive k of one row of A go to
         * 4 rows of As (2-way bank conflict, see the header). */
        As[a_col + 0][a_row] = av.x;
        As[a_col + 1][a_row] = av.y;
        As[a_col + 2][a_row] = av.z;
        As[a_col + 3][a_row] = av.w;
        *reinterpret_cast<float4 *>(&Bs[b_row][b_col]) = bv;
        __syncthreads(); /* the whole slice is in shared memory before any thread reads it */

#pragma unroll
        for (unsigned p = 0; p < kBK; ++p) {
            /* Fragments: 8 rows of A and 8 columns of B at this k, two float4 each. */
            const float4 a0 = *reinterpret_cast<const float4 *>(&As[p][tr * kTM]);
            const float4 a1 = *reinterpret_cast<const float4 *>(&As[p][tr * kTM + 4]);
            const float4 b0 = *reinterpret_cast<const float4 *>(&Bs[p][tc * kTN]);
            const float4 b1 = *reinterpret_cast<const float4 *>(&Bs[p][tc * kTN + 4]);
            const float fa[kTM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float fb[kTN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            /* Outer product: 64 FMAs from 16 values. */
            fma_outer(acc, fa, fb);
        }
        __syncthreads(); /* every thread has finished reading the slice before the next k-step overwrites it */
    }

    /* Epilogue: every element of the tile that lies inside C, also when k == 0. */
#pragma unroll
    for (unsigned i = 0; i < kTM; ++i) {
        const unsigned r = row0 + tr * kTM + i;
        if (r >= m) continue;
        const unsigned col = col0 + tc * kTN;
        store4<kVec>(c, ldc, r, col, n, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), alpha, beta);
        store4<kVec>(c, ldc, r, col + 4, n, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]), alpha,
                     beta);
    }
}

} // namespace

extern "C" cudaError_t gk_gemm_06_vectorized_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                 size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                 size_t ldc, cudaStream_t stream)
{
    return launch_tiles_vec(gemm_vectorized<true>, gemm_vectorized<false>, 0, kBM, kBN, kThreads, m, n, k, alpha,
                            a, lda, b, ldb, beta, c, ldc, stream);
}
