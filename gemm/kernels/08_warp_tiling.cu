/* Variant 08: warp tiling.
 *
 * The idea: add a level between the block and the thread. The 128 x 128
 * block tile is cut into four 64 x 64 warp tiles (2 x 2 warps); inside its
 * warp tile a warp steps over 4 x 2 sub-tiles of 16 x 32, in each of which
 * its 32 lanes, arranged 4 x 8, own 4 x 4 results apiece. A thread thus
 * computes 4 x 2 = 8 sub-tiles of 4 x 4, 16 rows x 8 columns, 128 results.
 * The warp, not the thread, is what the layout is designed around: a warp
 * issues every shared-memory read, so the fewer distinct addresses its 32
 * lanes touch for their FMAs, the fewer wavefronts it needs. A square warp
 * tile touches the fewest, and the thread tile grows with it (more register
 * reuse). It is also the shape tensor-core kernels have (variant 11): a
 * warp owns a tile and computes it with warp-wide instructions.
 *
 * What changed from variant 07 and why it is faster. Block tile 128 x 128 and
 * BK = 8 as before; 16 x 8 = 128 results per thread instead of 8 x 8, so
 * 128 x 128 / 128 = 128 threads (4 warps) instead of 256.
 *
 * - Per k index a thread reads 4 float4 of A (its 16 rows: As[p][64 wr +
 *   16 wm + 4 lr], wm = 0..3) and 2 float4 of B (its 8 columns: Bs[p][64 wc
 *   + 32 wn + 4 lc], wn = 0..1): 24 values, 6 loads, for 16 x 8 = 128 FMAs.
 *   Variant 07: 16 values, 4 loads, for 64 FMAs. Each A value now feeds 8
 *   FMAs and each B value 16 (before: 8 and 8); FMAs per value read from
 *   shared memory rise from 64 / 16 = 4 to 128 / 24 = 5.3.
 * - Per k index a warp touches WM + WN = 64 + 64 = 128 distinct floats for
 *   64 x 64 = 4096 FMAs, 32 FMAs per float. In variant 07 a warp was 2 rows
 *   x 16 columns of threads, a 16 x 128 strip: 16 + 128 = 144 floats for
 *   2048 FMAs, 14.2 per float.
 * - Wavefronts (32 banks of 4 bytes; a float4 read is served in 4 phases of
 *   8 lanes, 4 wavefronts when conflict-free). Lane l is (lr, lc) =
 *   (l / 8, l % 8), so a phase is one lr with lc = 0..7. A's fragment: the
 *   8 lanes of a phase read one address (broadcast): 4 wavefronts per load.
 *   B's fragment: a phase reads 8 consecutive float4, 128 contiguous bytes,
 *   each bank once: 4 wavefronts per load. Per k index a warp needs
 *   4 x 4 + 2 x 4 = 24 wavefronts for 4096 FMAs, 6 per 1024 FMAs; variant
 *   7: 16 for 2048, 8 per 1024. A quarter fewer.
 * - The copy into shared memory keeps variant 07's conflict-free layout: 2
 *   float4 of A per thread (row t / 2 + 64 q, floats 4 (t % 2) .. + 3,
 *   q = 0, 1; the rows of As padded to 132 floats, so the transposing
 *   store e of a warp puts thread t in bank
 *   (16 (t % 2) + 4 e + t / 2 + 64 q) % 32 = (16 (t % 2) + 4 e + t / 2) % 32,
 *   32 distinct banks), 2 float4 of B (row t / 32 + 4 q, floats
 *   4 (t % 32) .. + 3: a warp stores 512 contiguous bytes).
 *
 * What bounds it: per k index a warp's 4096 FMAs take 4096 / 128 = 32 clocks
 * of an SM's FMA units (128 fp32 FMAs per clock at compute capability 9.0),
 * its 24 wavefronts 24 clocks of its shared memory (one per clock): shared
 * memory is now busy three quarters of the FMA time instead of all of it.
 * Expected to be bound by FMA issue, and by the global-load latency that
 * each k-step still waits out in full (variant 09). Measured
 * (gemm/bench-h200.json, H200, 2026-11-23 19:42 UTC): 37.6 TFLOP/s at
 * 4096^3, 56.2% of the bench's FP32 peak (66.9 TFLOP/s at the 1.98 GHz
 * boost clock), below variant 07's 40.8. A likely reason, not profiled:
 * with half the warps per SM (8 instead of 16), less work hides the
 * global-load wait of each k-step.
 *
 * Unchanged: the block tile loads (128 + 128) x 8 = 2048 floats for 131072
 * FMAs (64 FMAs per float), now 4 float4 (64 bytes) per thread per k-step;
 * 2 barriers per k-step.
 *
 * Registers and occupancy: 128 accumulators + 24 fragment values per
 * thread during the k-loop (plus 16 floats on their way from global to
 * shared memory at the top of each k-step), against variant 07's 64 + 16.
 * __launch_bounds__(128, 2): 2 blocks of 128 threads per SM, up to
 * 65536 / 256 = 256 registers per thread (255 usable). 8 warps per SM
 * (variant 07: 16): fewer warps to switch between, but each thread has 128
 * independent FMAs per k index (instruction-level parallelism). A third
 * block would cap a thread at 65536 / 384 = 170 registers, 168 as they are
 * allocated in steps of 8: 168 - 152 = 16 for every address and index, too
 * tight to promise no spills. Shared memory: 8 x 132 x 4 + 8 x 128 x 4 =
 * 8320 bytes per block.
 *
 * Limits: 128 threads per block, fixed tile constants. Fast path, chosen by
 * the launcher at run time: a, b and c 16-byte aligned and lda, ldb, ldc
 * multiples of 4. Otherwise the same kernel with kVec = false loads and
 * stores every element with a 4-byte access. On the fast path a float4 that
 * sticks out of the matrix is read or written element by element. Edges:
 * zero-filled loads, guarded stores; beta == 0 never reads C. Any m, n >= 1,
 * k >= 0.
 *
 * Sources: S. Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
 * Performance" (2022), the warptiling kernel; NVIDIA CUTLASS documentation,
 * "Efficient GEMM in CUDA" (the block / warp / thread tile hierarchy);
 * CUDA C++ Programming Guide (shared memory banks, arithmetic instruction
 * throughput).
 * Build alone: nvcc -arch=sm_90 -c 08_warp_tiling.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kBM = 128;                 /* rows of C per block tile */
constexpr unsigned kBN = 128;                 /* columns of C per block tile */
constexpr unsigned kBK = 8;                   /* depth of one k-slice */
constexpr unsigned kWM = 64;                  /* rows of C per warp tile */
constexpr unsigned kWN = 64;                  /* columns of C per warp tile */
constexpr unsigned kWarpsN = kBN / kWN;       /* 2 x 2 warps */
constexpr unsigned kThreads = 32 * (kBM / kWM) * kWarpsN; /* 128 */
constexpr unsigned kLanesM = 4, kLanesN = 8;  /* a warp's lanes as 4 rows x 8 columns */
constexpr unsigned kTM = 4, kTN = 4;          /* a thread's results in one sub-tile */
constexpr unsigned kSubM = kLanesM * kTM;     /* 16 rows: the warp's sub-tile */
constexpr unsigned kSubN = kLanesN * kTN;     /* 32 columns */
constexpr unsigned kIterM = kWM / kSubM;      /* 4 sub-tiles down the warp tile */
constexpr unsigned kIterN = kWN / kSubN;      /* 2 across */
constexpr unsigned kRows = kIterM * kTM;      /* 16 rows of C per thread */
constexpr unsigned kCols = kIterN * kTN;      /* 8 columns of C per thread */
constexpr unsigned kPadA = 4;                 /* floats added to each row of the transposed A tile */
constexpr unsigned kCopies = kBM * kBK / 4 / kThreads; /* float4s of A (and of B) per thread per k-step: 2 */

static_assert(kLanesM * kLanesN == 32, "a warp is 32 lanes");
static_assert(kTM == 4 && kTN == 4, "one float4 per sub-tile row / column");
static_assert(kBK * kBN == kBM * kBK, "A and B slices have the same size: the same number of copies");
static_assert(kCopies * 4 * kThreads == kBM * kBK, "the slices divide evenly among the threads");
static_assert(kPadA % 4 == 0 && kPadA * 4 % 32 == 16,
              "rows of As stay 16-byte aligned, and the threads with t % 2 = 1 move 16 banks");

template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2)
    gemm_warp_tiling(unsigned m, unsigned n, unsigned k, float alpha, const float *__restrict__ a, size_t lda,
                     const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c, size_t ldc,
                     unsigned tiles_n)
{
    /* As transposed and padded as in variant 07: As[p][i] = A(row0 + i, k0 + p). */
    __shared__ __align__(16) float As[kBK][kBM + kPadA];
    __shared__ __align__(16) float Bs[kBK][kBN];

    const unsigned t = threadIdx.x;
    /* One-dimensional grid of tiles, row by row: block x -> tile (x / tiles_n, x % tiles_n). */
    const unsigned row0 = blockIdx.x / tiles_n * kBM, col0 = blockIdx.x % tiles_n * kBN;

    /* Compute mapping, three levels: warp (wr, wc) owns rows 64 wr .. + 63
     * and columns 64 wc .. + 63 of the block tile; lane (lr, lc) owns, in
     * each 16 x 32 sub-tile of its warp tile, rows 4 lr .. + 3 and columns
     * 4 lc .. + 3. Lanes 8 q .. 8 q + 7 share lr: the 8 lanes of one phase of
     * a float4 read use one A address and 8 consecutive B float4s. */
    const unsigned warp = t / 32, lane = t % 32;
    const unsigned wr = warp / kWarpsN, wc = warp % kWarpsN;
    const unsigned lr = lane / kLanesN, lc = lane % kLanesN;
    const unsigned a_base = wr * kWM + lr * kTM; /* + wm * kSubM: the thread's rows in As */
    const unsigned b_base = wc * kWN + lc * kTN; /* + wn * kSubN: its columns in Bs */

    float acc[kRows][kCols];
    zero_acc(acc);

    for (unsigned k0 = 0; k0 < k; k0 += kBK) {
        /* Copy mapping: float4 number f = t + q * 128 of each slice. A's slice
         * is 128 rows of 2 float4s: row f / 2, float4 f % 2 (a warp: 16 rows x
         * 32 contiguous bytes). B's is 8 rows of 32 float4s: row f / 32,
         * float4 f % 32 (a warp: one row, 512 contiguous bytes). All loads are
         * issued before the first store, so they are in flight together. */
        float4 av[kCopies], bv[kCopies];
#pragma unroll
        for (unsigned q = 0; q < kCopies; ++q) {
            const unsigned f = t + q * kThreads;
            av[q] = load4<kVec>(a, lda, row0 + f / (kBK / 4), k0 + f % (kBK / 4) * 4, m, k);
            bv[q] = load4<kVec>(b, ldb, k0 + f / (kBN / 4), col0 + f % (kBN / 4) * 4, k, n);
        }
#pragma unroll
        for (unsigned q = 0; q < kCopies; ++q) {
            const unsigned f = t + q * kThreads;
            const unsigned ar = f / (kBK / 4), ac = f % (kBK / 4) * 4;
            /* Transposing stores, conflict-free thanks to the padding. */
            As[ac + 0][ar] = av[q].x;
            As[ac + 1][ar] = av[q].y;
            As[ac + 2][ar] = av[q].z;
            As[ac + 3][ar] = av[q].w;
            *reinterpret_cast<float4 *>(&Bs[f / (kBN / 4)][f % (kBN / 4) * 4]) = bv[q];
        }
        __syncthreads(); /* the whole slice is in shared memory before any thread reads it */

#pragma unroll
        for (unsigned p = 0; p < kBK; ++p) {
            /* Fragments: the thread's 16 rows of A (one float4 per sub-tile
             * row) and 8 columns of B (one float4 per sub-tile column). */
            float fa[kRows], fb[kCols];
#pragma unroll
            for (unsigned wm = 0; wm < kIterM; ++wm)
                put4(&fa[wm * 4], *reinterpret_cast<const float4 *>(&As[p][a_base + wm * kSubM]));
#pragma unroll
            for (unsigned wn = 0; wn < kIterN; ++wn)
                put4(&fb[wn * 4], *reinterpret_cast<const float4 *>(&Bs[p][b_base + wn * kSubN]));
            /* Outer product over all 8 sub-tiles: 128 FMAs from 24 values. */
            fma_outer(acc, fa, fb);
        }
        __syncthreads(); /* every thread has finished reading the slice before the next k-step overwrites it */
    }

    /* Epilogue: acc[4 wm + i][4 wn + j] is C(row0 + a_base + 16 wm + i,
     * col0 + b_base + 32 wn + j); a warp writes rows of 8 lanes x 16 bytes =
     * 128 contiguous bytes. Every element inside C, also when k == 0. */
    store_pieces<kVec, kSubM, kSubN>(acc, c, ldc, m, n, row0 + a_base, col0 + b_base, alpha, beta);
}

} // namespace

extern "C" cudaError_t gk_gemm_08_warp_tiling_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                  size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                  size_t ldc, cudaStream_t stream)
{
    return launch_tiles_vec(gemm_warp_tiling<true>, gemm_warp_tiling<false>, 0, kBM, kBN, kThreads, m, n, k, alpha,
                            a, lda, b, ldb, beta, c, ldc, stream);
}
