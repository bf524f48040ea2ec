/* Variant 07: shared-memory accesses free of bank conflicts.
 *
 * The idea: variant 06 left two bank conflicts in its shared-memory traffic
 * (the transposed store of A and the float4 reads of B's fragment), each
 * costing twice the wavefronts it needs. Two small changes remove both:
 * pad each row of the transposed A tile by 4 floats, and give each thread
 * two groups of 4 columns, 64 apart, instead of 8 adjacent columns.
 *
 * Counting (32 banks of 4 bytes; a warp's 4-byte access takes as many
 * wavefronts as the most distinct addresses in one bank; a float4 access is
 * served in 4 phases of 8 threads, each counted that way, so 4 wavefronts
 * at best; threads reading the same address share one read). Block tile
 * 128 x 128, BK = 8, 256 threads, 8 x 8 results per thread, as in variant
 * 06.
 *
 * - Transposed store of A. Thread t writes As[(t % 2) * 4 + e][t / 2],
 *   e = 0..3. Before: rows of 128 floats, bank (t / 2) % 32: threads t and
 *   t + 1 share a bank, 2-way, 8 wavefronts for the 4 stores. Now: rows of
 *   128 + 4 = 132 floats, so As[p][i] is in bank (132 p + i) % 32 =
 *   (4 p + i) % 32, and store e puts thread t in bank
 *   (16 (t % 2) + 4 e + t / 2) % 32. A warp's t / 2 covers 16 consecutive
 *   values: the threads with t % 2 = 0 fill 16 consecutive banks, those with
 *   t % 2 = 1 the other 16. Conflict-free: 4 wavefronts. The pad is 4
 *   because it must move the second group by 16 banks (4 x pad = 16 mod 32)
 *   and keep every row 16-byte aligned for the float4 reads (132 x 4 = 528
 *   bytes = 33 x 16). It costs 8 x 4 floats = 128 bytes of shared memory;
 *   an XOR swizzle of the column index would do the same for none.
 * - Reads of A's fragment, As[p][8 tr .. 8 tr + 7] (tr = t / 16): one
 *   address per phase, before and after: 4 wavefronts per float4 load.
 * - Reads of B's fragment. Before: 8 adjacent columns 8 tc .. 8 tc + 7
 *   (tc = t % 16); a phase read float4s 32 bytes apart, 256 bytes that wrap
 *   twice around the banks: 2-way, 8 wavefronts per load. Padding cannot
 *   help (the 8 threads read the same row). Now thread tc owns columns
 *   4 tc .. 4 tc + 3 and 64 + 4 tc .. 64 + 4 tc + 3: a phase (8 consecutive
 *   tc) reads 8 consecutive float4s, 128 contiguous bytes, every bank once.
 *   Conflict-free: 4 wavefronts per load.
 * - Store of B: one row of 512 contiguous bytes per warp, before and after:
 *   4 wavefronts.
 *
 * Per k index a warp now needs 2 x 4 (A) + 2 x 4 (B) = 16 wavefronts for
 * 32 x 64 = 2048 FMAs (variant 06: 24). Per k-step of 8 indices, stores
 * included: 8 x 16 + 4 + 4 = 136 wavefronts per warp (variant 06:
 * 8 x 24 + 8 + 4 = 204), a third fewer.
 * Unchanged from variant 06: one float4 of A and one of B loaded from global
 * memory per thread per k-step; (128 + 128) x 8 = 2048 floats per 131072
 * FMAs (64 FMAs per float loaded); 4 float4 shared reads per 64 FMAs; 64
 * accumulators; 2 barriers per k-step. The epilogue's float4s of C now lie
 * 16 threads x 16 bytes = 256 contiguous bytes per row of a warp.
 *
 * What bounds it: per k index a warp's 2048 FMAs take 2048 / 128 = 16 clocks
 * of an SM's FMA units (128 fp32 FMAs per clock at compute capability 9.0)
 * and its 16 wavefronts 16 clocks of its shared memory (one wavefront per
 * clock): the two are equally loaded, so every stall, address computation
 * or barrier wait shows. Expected to be bound by shared-memory bandwidth and
 * FMA issue together; variant 08 lowers the wavefronts per FMA. Measured
 * (gemm/bench-h200.json, H200, 2026-11-23 19:42 UTC): 40.8 TFLOP/s at
 * 4096^3, 61.0% of the bench's FP32 peak of 66.9 TFLOP/s (128 FMAs per SM
 * and clock, 132 SMs, the 1.98 GHz boost clock).
 *
 * Registers and occupancy: as variant 06, __launch_bounds__(256, 2): at most
 * 128 registers, 2 blocks (16 warps) per SM; shared memory
 * 8 x 132 x 4 + 8 x 128 x 4 = 8320 bytes per block.
 *
 * Limits: 256 threads per block, fixed tile constants. Fast path, chosen by
 * the launcher at run time: a, b and c 16-byte aligned and lda, ldb, ldc
 * multiples of 4. Otherwise the same kernel with kVec = false loads and
 * stores every element with a 4-byte access (same shared-memory layout).
 * On the fast path a float4 that sticks out of the matrix is read or
 * written element by element. Edges: zero-filled loads, guarded stores;
 * beta == 0 never reads C. Any m, n >= 1, k >= 0.
 *
 * Sources: CUDA C++ Programming Guide (shared memory banks); S. Boehm, "How
 * to Optimize a CUDA Matmul Kernel for cuBLAS-like Performance" (2022), the
 * discussion of shared-memory bank conflicts; NVIDIA CUTLASS documentation,
 * "Efficient GEMM in CUDA" (conflict-free shared-memory layouts).
 * Build alone: nvcc -arch=sm_90 -c 07_bank_conflict_free.cu
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
constexpr unsigned kPadA = 4; /* floats added to each row of the transposed A tile */

static_assert(kBM * kBK == 4 * kThreads, "each thread copies exactly one float4 of A per k-step");
static_assert(kBK * kBN == 4 * kThreads, "each thread copies exactly one float4 of B per k-step");
static_assert(kTM == 8 && kTN == 8, "the fragments are read as two float4 each");
static_assert(kPadA % 4 == 0 && kPadA * 4 % 32 == 16,
              "rows of As stay 16-byte aligned, and the threads with t % 2 = 1 move 16 banks");

template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2)
    gemm_conflict_free(unsigned m, unsigned n, unsigned k, float alpha, const float *__restrict__ a, size_t lda,
                       const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c, size_t ldc,
                       unsigned tiles_n)
{
    /* As is transposed (As[p][i] = A(row0 + i, k0 + p)) so that a thread's 8
     * rows at one p are 8 consecutive floats; each row padded by kPadA floats
     * so that the transposing stores are conflict-free (see the header). Both
     * arrays 16-byte aligned for the float4 accesses. */
    __shared__ __align__(16) float As[kBK][kBM + kPadA];
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
     * 8 tr .. 8 tr + 7 and the two column groups 4 tc .. 4 tc + 3 and
     * 64 + 4 tc .. 64 + 4 tc + 3 of the block tile: 8 threads with
     * consecutive tc then read 128 contiguous bytes of a row of Bs. */
    const unsigned tr = t / (kBN / kTN), tc = t % (kBN / kTN);

    float acc[kTM][kTN];
    zero_acc(acc);

    for (unsigned k0 = 0; k0 < k; k0 += kBK) {
        const float4 av = load4<kVec>(a, lda, row0 + a_row, k0 + a_col, m, k);
        const float4 bv = load4<kVec>(b, ldb, k0 + b_row, col0 + b_col, k, n);
        /* Transpose on the way in: the 4 consecutive k of one row of A go to
         * 4 rows of As (conflict-free thanks to the padding, see the header). */
        As[a_col + 0][a_row] = av.x;
        As[a_col + 1][a_row] = av.y;
        As[a_col + 2][a_row] = av.z;
        As[a_col + 3][a_row] = av.w;
        *reinterpret_cast<float4 *>(&Bs[b_row][b_col]) = bv;
        __syncthreads(); /* the whole slice is in shared memory before any thread reads it */

#pragma unroll
        for (unsigned p = 0; p < kBK; ++p) {
            /* Fragments: 8 rows of A and 8 columns of B at this k, two float4
             * each; B's from the thread's two column groups, kBN / 2 apart. */
            const float4 a0 = *reinterpret_cast<const float4 *>(&As[p][tr * kTM]);
            const float4 a1 = *reinterpret_cast<const float4 *>(&As[p][tr * kTM + 4]);
            const float4 b0 = *reinterpret_cast<const float4 *>(&Bs[p][tc * 4]);
            const float4 b1 = *reinterpret_cast<const float4 *>(&Bs[p][kBN / 2 + tc * 4]);
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
        const unsigned col = col0 + tc * 4; /* the two column groups, as in the compute mapping */
        store4<kVec>(c, ldc, r, col, n, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), alpha, beta);
        store4<kVec>(c, ldc, r, col + kBN / 2, n, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]),
                     alpha, beta);
    }
}

} // namespace

extern "C" cudaError_t gk_gemm_07_bank_conflict_free_run(size_t m, size_t n, size_t k, float alpha,
                                                         const float *a, size_t lda, const float *b, size_t ldb,
                                                         float beta, float *c, size_t ldc, cudaStream_t stream)
{
    return launch_tiles_vec(gemm_conflict_free<true>, gemm_conflict_free<false>, 0, kBM, kBN, kThreads, m, n, k, alpha,
                            a, lda, b, ldb, beta, c, ldc, stream);
}
