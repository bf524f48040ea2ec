/* Variant 09: double buffering with asynchronous copies (cp.async).
 *
 * The idea: overlap the copy of the next k-slice with the arithmetic on the
 * current one. Shared memory holds two stages; while the warps compute on
 * stage s, the copies of the next slice into stage s ^ 1 are in flight. The
 * copies are cp.async (compute capability 8.0 and later): the hardware moves
 * bytes from global to shared memory by itself, without passing through
 * registers and without the thread waiting, until it asks with
 * cp.async.wait_group.
 *
 * What changed from variant 08 and why it is faster. Block tile 128 x 128,
 * BK = 8, 128 threads as 2 x 2 warps of 64 x 64, 16 x 8 results per thread:
 * all as in variant 08.
 *
 * - Latency. In variant 08 a k-step loads its slice into registers, and the
 *   stores to shared memory must wait for the loads: every k-step the block
 *   sits out one full global-memory round trip, and only other blocks on the
 *   SM use the time. Here the copies of slice kt + 1 are issued at the start
 *   of k-step kt and needed only at the start of k-step kt + 1: in between,
 *   each warp issues the 8 x 128 = 1024 FMAs (plus 48 shared loads) of step
 *   kt, at most one instruction per clock, so the copies have over 1000 of
 *   the warp's issue clocks to arrive, expected to be longer than a
 *   global-memory round trip.
 * - Bytes requested ahead: the next slice's 8 KB per block (a 128 x 8
 *   slice of A and an 8 x 128 slice of B, 4 bytes each) are requested a
 *   whole k-step before they are needed, whereas variant 08 requests a
 *   slice when it needs it and waits for it; with 2 blocks per SM (see
 *   below), 16 KB per SM. (Requested ahead, not in flight all that time:
 *   copies that land early wait in shared memory.)
 * - Copies: per thread per k-step 2 copies of 16 bytes for A and 2 for B
 *   (cp.async.cg: through L2 only, no L1 allocation), no staging registers
 *   (variant 08 held 16 floats per thread) and no separate store instructions.
 * - Barriers: 1 per k-step instead of 2. In step kt each thread waits for
 *   its own copies of slice kt (cp.async.wait_group 0), then one
 *   __syncthreads() does two jobs: (a) every thread's copies of slice kt
 *   have landed, so the whole slice is in stage kt % 2 and visible to all;
 *   (b) every thread has finished step kt - 1, which read stage
 *   (kt - 1) % 2 = (kt + 1) % 2, the stage the copies of slice kt + 1,
 *   issued right after the barrier, overwrite. Two stages are what make one
 *   barrier enough.
 *
 * Layout of A. A copy moves bytes as they are, so A can no longer be
 * transposed on the way in: As[s][i][p] = A(row0 + i, k0 + p), rows of 8
 * floats (32 bytes), unpadded. The thread then reads A along k rather than
 * along rows: for each group of 4 k indices, one float4 per row,
 * As[s][row][4g .. 4g + 3], for its 16 rows: 16 float4 per 4 k indices, 4 per
 * k index, as many as in variant 08. Bank counting (32 banks of 4 bytes; a
 * 16-byte access is served in 4 phases of 8 lanes, 4 wavefronts when
 * conflict-free):
 * - reads of A: the 8 lanes of a phase (lane / 8 = lr the same) read the
 *   same row: one address, broadcast: 4 wavefronts per read, no padding
 *   needed;
 * - reads of B: as in variant 08, 8 consecutive float4 per phase: 4;
 * - copies of A (counted as 16-byte stores): 16-byte piece f = t + 128 q
 *   (q = 0, 1) is row f / 2, floats 4 (f % 2) .. + 3, so 8 consecutive
 *   pieces fill 4 rows x 32 bytes = 128 contiguous bytes: conflict-free;
 * - copies of B: row f / 32, floats 4 (f % 32) .. + 3: a warp fills 512
 *   contiguous bytes: conflict-free.
 * Per k index a warp needs 4 x 4 + 2 x 4 = 24 wavefronts for 64 x 64 = 4096
 * FMAs, as in variant 08. The alternative, scalar reads As[row][p] with the
 * rows padded against conflicts, would need 16 four-byte loads of A per k
 * index instead of 4 float4 (18 shared loads per 128 FMAs instead of 6),
 * and its padding would have to keep each row a multiple of 16 bytes for
 * the 16-byte copies.
 *
 * The cost of reading A along k: a thread holds B's fragment for all 4 k
 * indices of a group (4 x 8 = 32 values) and walks its 16 rows one float4 at
 * a time (4 values), 16 x 32 = 512 FMAs per group. Registers: 128
 * accumulators + 32 + 4 = 164 values (variant 08: 128 + 24, plus 16 staged
 * floats, which are gone here). __launch_bounds__(128, 2) as in variant 08:
 * up to 255 registers per thread, 2 blocks (8 warps) per SM; ptxas spends
 * the room on reading fragments ahead. With the copies asynchronous, a
 * block no longer needs the other block to cover its load latency. Shared
 * memory: 2 stages x (128 x 8 + 8 x 128) x 4 = 16 KB per block.
 *
 * Unchanged: (128 + 128) x 8 = 2048 floats loaded per 131072 FMAs (64 FMAs
 * per float), 6 shared loads and 24 wavefronts per warp per k index.
 * What bounds it: with the copy latency off the critical path, the next
 * limit in the counts is FMA issue: per k index a warp's 4096 FMAs take 32
 * clocks of an SM's FMA units (128 per clock at compute capability 9.0)
 * and its 24 wavefronts 24 clocks of shared memory (one per clock). It is
 * not reached: measured (gemm/bench-h200.json, H200, 2026-11-23 19:42 UTC)
 * 42.8 TFLOP/s at 4096^3, 64.0% of the bench's FP32 peak (66.9 TFLOP/s at
 * the 1.98 GHz boost clock). Variant 10 counts what else takes issue
 * slots and removes most of it.
 *
 * Limits: needs compute capability 8.0 (cp.async): the pipeline exists
 * only when compiled for sm_80 or later (an older build's kernel is a trap
 * that is never launched), and the launcher returns
 * cudaErrorNotSupported, launching nothing, on an older device or when this
 * file was built for an older architecture only. 128 threads per block,
 * fixed tile constants. Fast path, chosen by the launcher at run time: a, b
 * and c 16-byte aligned and lda, ldb, ldc multiples of 4: 16-byte
 * cp.async.cg copies. Otherwise the same kernel with kVec = false copies
 * element by element with 4-byte cp.async.ca, element t + 128 q of each
 * slice per thread (q = 0..7), 16 copies per thread per k-step, a warp
 * filling 32 consecutive floats of shared memory: conflict-free too.
 * Edges, without branches around the copies: the src-size operand says how
 * many of the bytes lie inside the matrix (16, 12, 8, 4 or 0; 4 or 0 on the
 * fallback) and the copy fills the rest of the destination with zeros; a
 * copy that reads nothing is given the matrix's first element as its
 * (unread) source. Stores to C are guarded; beta == 0 never reads C. Any
 * m, n >= 1, k >= 0.
 *
 * Sources: PTX ISA, cp.async, cp.async.commit_group, cp.async.wait_group;
 * CUDA C++ Programming Guide (asynchronous data copies, shared memory);
 * NVIDIA CUTLASS documentation, "Efficient GEMM in CUDA" (software
 * pipelining with double-buffered shared memory); S. Boehm, "How to
 * Optimize a CUDA Matmul Kernel for cuBLAS-like Performance" (2022).
 * Build alone: nvcc -arch=sm_90 -c 09_double_buffered_cp_async.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kBM = 128;                 /* rows of C per block tile */
constexpr unsigned kBN = 128;                 /* columns of C per block tile */
constexpr unsigned kBK = 8;                   /* depth of one k-slice */
constexpr unsigned kStages = 2;               /* shared-memory buffers: compute on one, copy into the other */
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
constexpr unsigned kKGroup = 4;               /* k indices per float4 read of A */
constexpr unsigned kPieces = kBM * kBK / 4 / kThreads; /* 16-byte pieces of A (and of B) per thread: 2 */
constexpr unsigned kElems = kBM * kBK / kThreads;      /* elements of A (and of B) per thread: 8 */

static_assert(kLanesM * kLanesN == 32, "a warp is 32 lanes");
static_assert(kTM == 4 && kTN == 4, "one float4 per sub-tile row / column");
static_assert(kBK % kKGroup == 0, "whole groups of 4 k indices per slice");
static_assert(kBK * kBN == kBM * kBK, "A and B slices have the same size: the same number of copies");
static_assert(kPieces * 4 * kThreads == kBM * kBK, "the slices divide evenly among the threads");
static_assert(kElems * kThreads == kBM * kBK, "on the fallback path too");
static_assert(kRows * kCols * kThreads == kBM * kBN, "the threads' results cover the block tile once");
static_assert(kStages == 2, "stage s ^ 1 is the other stage");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/* cp.async wrappers (PTX ISA). The shared-memory operand is a 32-bit
 * shared-window address; src_bytes (src-size) of the cp-size bytes are read
 * from global memory and the rest of the destination is filled with zeros.
 * "memory" clobbers keep the compiler from moving shared-memory accesses
 * across them. */
__device__ void cp_async16(float *dst, const float *src, unsigned src_bytes)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(src_bytes) : "memory");
}
__device__ void cp_async4(float *dst, const float *src, unsigned src_bytes)
{
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(src), "r"(src_bytes) : "memory");
}
/* cp_async_commit() closes this thread's group of copies, cp_async_wait<0>()
 * waits until all of its committed groups have landed (common.cuh). */

/* Starts the copies of one k-slice (A's 128 x 8 and B's 8 x 128 at k0) into
 * one stage. Elements outside the matrices arrive as zeros. */
template <bool kVec>
__device__ void copy_slice(float (*As)[kBK], float (*Bs)[kBN], const float *a, size_t lda, const float *b,
                           size_t ldb, unsigned m, unsigned n, unsigned k, unsigned row0, unsigned col0,
                           unsigned k0, unsigned t)
{
    if (kVec) {
        /* 16-byte piece f = t + 128 q of each slice: A row f / 2, floats
         * 4 (f % 2) .. + 3; B row f / 32, floats 4 (f % 32) .. + 3. The
         * piece starts inside its row on a multiple of 4, so the bytes inside
         * the matrix are 4 x min(cols - col, 4), or 0 past the last row or
         * column. */
#pragma unroll
        for (unsigned q = 0; q < kPieces; ++q) {
            const unsigned f = t + q * kThreads;
            const unsigned ar = f / (kBK / 4), ac = f % (kBK / 4) * 4;
            const unsigned gr = row0 + ar, gc = k0 + ac;
            const unsigned a_in = gr < m && gc < k ? min(k - gc, 4u) : 0u;
            cp_async16(&As[ar][ac], a_in ? a + (size_t)gr * lda + gc : a, 4 * a_in);

            const unsigned br = f / (kBN / 4), bc = f % (kBN / 4) * 4;
            const unsigned hr = k0 + br, hc = col0 + bc;
            const unsigned b_in = hr < k && hc < n ? min(n - hc, 4u) : 0u;
            cp_async16(&Bs[br][bc], b_in ? b + (size_t)hr * ldb + hc : b, 4 * b_in);
        }
    } else {
        /* Element e = t + 128 q of each slice: A row e / 8, column e % 8; B
         * row e / 128, column e % 128. A warp's 32 copies fill 32 consecutive
         * floats of shared memory (conflict-free) and read 4 rows x 32 bytes
         * of A, or 128 contiguous bytes of B. */
#pragma unroll
        for (unsigned q = 0; q < kElems; ++q) {
            const unsigned e = t + q * kThreads;
            const unsigned ar = e / kBK, ac = e % kBK;
            const bool a_in = row0 + ar < m && k0 + ac < k;
            cp_async4(&As[ar][ac], a_in ? a + (size_t)(row0 + ar) * lda + (k0 + ac) : a, a_in ? 4u : 0u);

            const unsigned br = e / kBN, bc = e % kBN;
            const bool b_in = k0 + br < k && col0 + bc < n;
            cp_async4(&Bs[br][bc], b_in ? b + (size_t)(k0 + br) * ldb + (col0 + bc) : b, b_in ? 4u : 0u);
        }
    }
}
#endif

template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2)
    gemm_cp_async(unsigned m, unsigned n, unsigned k, float alpha, const float *__restrict__ a, size_t lda,
                  const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c, size_t ldc,
                  unsigned tiles_n)
{
    const unsigned t = threadIdx.x;
    /* One-dimensional grid of tiles, row by row: block x -> tile (x / tiles_n, x % tiles_n). */
    const unsigned row0 = blockIdx.x / tiles_n * kBM, col0 = blockIdx.x % tiles_n * kBN;

    /* Compute mapping as in variant 08: warp (wr, wc) owns a 64 x 64 warp
     * tile; lane (lr, lc) owns rows 4 lr .. + 3 and columns 4 lc .. + 3 of
     * each 16 x 32 sub-tile. Lanes 8 q .. 8 q + 7 share lr, so the 8 lanes of
     * a phase read one row of As and 8 consecutive float4s of Bs. */
    const unsigned warp = t / 32, lane = t % 32;
    const unsigned wr = warp / kWarpsN, wc = warp % kWarpsN;
    const unsigned lr = lane / kLanesN, lc = lane % kLanesN;
    const unsigned a_base = wr * kWM + lr * kTM; /* + wm * kSubM + i: the thread's rows in As */
    const unsigned b_base = wc * kWN + lc * kTN; /* + wn * kSubN: its columns in Bs */

    float acc[kRows][kCols];
    zero_acc(acc);

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    /* Two stages. A as it lies in global memory (As[s][i][p] = A(row0 + i,
     * k0 + p), rows of 32 bytes); B as before. 16-byte aligned for the
     * 16-byte copies and float4 reads. */
    __shared__ __align__(16) float As[kStages][kBM][kBK];
    __shared__ __align__(16) float Bs[kStages][kBK][kBN];

    const unsigned slices = k / kBK + (k % kBK != 0);
    /* Prologue: slice 0 into stage 0 (nothing when k == 0: a and b may be NULL). */
    if (slices > 0) {
        copy_slice<kVec>(As[0], Bs[0], a, lda, b, ldb, m, n, k, row0, col0, 0, t);
        cp_async_commit();
    }

    for (unsigned kt = 0; kt < slices; ++kt) {
        const unsigned s = kt % kStages;
        cp_async_wait<0>(); /* this thread's copies of slice kt have landed */
        __syncthreads(); /* (a) all threads' copies of slice kt have landed: stage s is complete and visible;
                            (b) all threads are done with step kt - 1, which read stage s ^ 1, overwritten next */
        if (kt + 1 < slices) {
            /* Slice kt + 1 travels while this step computes. */
            copy_slice<kVec>(As[s ^ 1], Bs[s ^ 1], a, lda, b, ldb, m, n, k, row0, col0, (kt + 1) * kBK, t);
            cp_async_commit();
        }

#pragma unroll
        for (unsigned g = 0; g < kBK / kKGroup; ++g) {
            /* B's fragment for the 4 k indices of this group: 4 x 8 values. */
            float fb[kKGroup][kCols];
#pragma unroll
            for (unsigned kk = 0; kk < kKGroup; ++kk)
#pragma unroll
                for (unsigned wn = 0; wn < kIterN; ++wn)
                    put4(&fb[kk][wn * 4],
                         *reinterpret_cast<const float4 *>(&Bs[s][g * kKGroup + kk][b_base + wn * kSubN]));
            /* A along k: one float4 holds row r's 4 k indices of the group;
             * 4 x 8 = 32 FMAs per float4, the k indices in order. */
#pragma unroll
            for (unsigned wm = 0; wm < kIterM; ++wm)
#pragma unroll
                for (unsigned i = 0; i < kTM; ++i) {
                    const float4 v = *reinterpret_cast<const float4 *>(&As[s][a_base + wm * kSubM + i][g * kKGroup]);
                    const float fa[kKGroup] = {v.x, v.y, v.z, v.w};
                    float *row_acc = acc[wm * kTM + i];
#pragma unroll
                    for (unsigned kk = 0; kk < kKGroup; ++kk)
#pragma unroll
                        for (unsigned j = 0; j < kCols; ++j) row_acc[j] += fa[kk] * fb[kk][j];
                }
        }
        /* No second barrier: the next step's barrier comes before anything overwrites stage s. */
    }
#else
    /* Built for a GPU without cp.async: the launcher never starts this kernel
     * (it checks the device and the kernel's architecture); stop loudly if
     * something else does. */
    __trap();
#endif

    /* Epilogue: acc[4 wm + i][4 wn + j] is C(row0 + a_base + 16 wm + i,
     * col0 + b_base + 32 wn + j); a warp writes rows of 8 lanes x 16 bytes =
     * 128 contiguous bytes. Every element inside C, also when k == 0. */
    store_pieces<kVec, kSubM, kSubN>(acc, c, ldc, m, n, row0 + a_base, col0 + b_base, alpha, beta);
}

} // namespace

extern "C" cudaError_t gk_gemm_09_double_buffered_cp_async_run(size_t m, size_t n, size_t k, float alpha,
                                                               const float *a, size_t lda, const float *b,
                                                               size_t ldb, float beta, float *c, size_t ldc,
                                                               cudaStream_t stream)
{
    /* cp.async needs compute capability 8.0; a build for older
     * architectures only (e.g. compute_75 PTX, JIT-compiled for this
     * device) has an empty kernel body, which min_ptx = 80 refuses rather
     * than return garbage. */
    const cudaError_t err = require_cc(8);
    if (err != cudaSuccess) return err;
    return launch_tiles_vec(gemm_cp_async<true>, gemm_cp_async<false>, 80, kBM, kBN, kThreads, m, n, k, alpha, a,
                            lda, b, ldb, beta, c, ldc, stream);
}
