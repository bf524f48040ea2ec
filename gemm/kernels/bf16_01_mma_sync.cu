/* Variant 13 (bf16_01): mma.sync m16n8k16 fed by ldmatrix from
 * XOR-swizzled shared-memory tiles, with a multistage cp.async pipeline
 * (the Ampere way).
 *
 * The idea: C (bf16) = alpha * A (bf16) * B (bf16) + beta * C with the
 * products on the tensor cores and the sums in fp32. One warp-wide
 *     mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32      (SASS: HMMA.16816.F32.BF16)
 * computes D(16x8) += A(16x16) * B(16x8): 2048 multiply-adds, twice the
 * m16n8k8 TF32 instruction of gk_gemm's variant 11, from operands half the
 * size. It is the first rung of the BF16 ladder (variants 13-17), and
 * the Ampere design that the Hopper rungs (wgmma, TMA) are measured against:
 * every warp loads its own operand fragments from shared memory into
 * registers, and the block's threads copy the tiles in with cp.async.
 *
 * What changes from the fp32 ladder (variants 9-11), counted:
 * - Operands are 2 bytes: a 16-byte chunk carries 8 elements, so the same
 *   bytes of a k-slab hold twice the k of a float slab, and a 64-deep BF16
 *   k-slab (128 bytes per row of A) costs what a 32-deep float slab costs.
 * - ldmatrix: one warp instruction reads four 8x8 matrices of 16-bit
 *   elements (each lane names one 16-byte row) and hands every lane exactly
 *   the registers the mma wants. For A (row-major, k contiguous) the plain
 *   ldmatrix.x4 is the A fragment of one m16 x k16 tile. For B (row-major
 *   k x n, n contiguous) the mma wants B[k = 2t, 2t+1][n = g] in one
 *   register: a column pair, which ldmatrix.trans delivers (it transposes each
 *   8x8 matrix of 16-bit elements on the way), one .x4.trans giving two n8
 *   tiles x k16. Variant 11 could not use .trans (it moves 16-bit elements,
 *   TF32 is 32-bit) and swapped the operands instead; BF16 needs no trick.
 *
 * ---- Fragments (PTX ISA, mma.m16n8k16 .bf16; lane = 4g + t) --------------
 *   A (16 x 16): a0 = A[g][2t..2t+1], a1 = A[g+8][2t..], a2 = A[g][2t+8..],
 *                a3 = A[g+8][2t+8..]           (each register = 2 bf16)
 *   B (16 x 8):  b0 = B[2t..2t+1][g], b1 = B[2t+8..2t+9][g]
 *   D (16 x 8):  d0, d1 = D[g][2t, 2t+1], d2, d3 = D[g+8][2t, 2t+1] (fp32)
 * ldmatrix.x4: lanes 8i..8i+7 give the row addresses of matrix i, and
 * register i of every lane comes from matrix i. A: lane l names row l % 16,
 * k-chunk l / 16 of the m16 x k16 tile -> matrices (rows 0-7, k 0-7),
 * (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15) = a0..a3.
 * B (.trans): lane l names k row (l % 8) + 8 ((l / 8) % 2), n-chunk l / 16
 * -> (k 0-7, n 0-7) = b0 and (k 8-15, n 0-7) = b1 of n8-tile 0, then the same
 * for n8-tile 1.
 *
 * ---- Tiles (defaults; every figure follows from the constants) ----------
 * Block tile BM x BN x BK = 128 x 256 x 64, 8 warps as 2 (m) x 4 (n), warp
 * tile 64 x 64 = MT x NT = 4 m16-tiles x 8 n8-tiles = 32 mma per k16-step.
 *   Registers: 4 x 8 x 4 = 128 fp32 accumulators per thread, 16 A-fragment
 *   and 4 B-fragment registers at a time; ptxas -v: see "Registers" below.
 *   Global traffic: (BM + BN) * BK elements per BM * BN * BK multiply-adds:
 *   BM*BN/(BM+BN) = 85.3 multiply-adds per element loaded, 0.012 bytes per
 *   flop (2-byte elements); over 4096^3: 4096^3 * (1/BM + 1/BN) * 2 bytes =
 *   1.6 GB through L2 for 137 GFLOP.
 *   Shared traffic per warp and k16-step: 4 ldmatrix.x4 (A) + 4
 *   ldmatrix.x4.trans (B, two n8-tiles each) = 8 x 512 bytes = 32
 *   wavefronts of 128 B for 32 mma: one wavefront per mma (4096 multiply-
 *   adds). The cp.async writes add (BM + BN) * BK * 2 / 128 = 384 wavefronts
 *   per k-tile, against 8 warps x 4 k-steps x 32 = 1024 for the fragment
 *   reads: 1.375 wavefronts per mma in all.
 *
 * ---- Shared memory and the swizzle (bank conflicts counted) ---------------
 * Both tiles are stored as rows of 128 bytes (8 chunks of 16 bytes), and
 * chunk q of row r is stored at chunk q ^ (r % 8): the 128-byte swizzle.
 *   A slab: BM rows of BK = 64 elements = 128 B; (r, q) at byte
 *     r * 128 + 16 (q ^ (r % 8)).
 *   B slab: BN / 64 = 4 panels of 64 columns; panel P holds the BK rows of
 *     columns 64P .. 64P+63, 128 B each: (k row p, 16-byte chunk q of the
 *     row of 256 columns) at byte (q / 8) * BK * 128 + p * 128 +
 *     16 ((q % 8) ^ (p % 8)).
 * These are exactly the layouts Hopper's wgmma reads with its 128-byte
 * swizzle (A "K-major", B "N-major"), so variant 14 keeps this copy code
 * and changes only the compute. The layout and the copies that fill it are
 * common.cuh's Bf16Slab, shared by the BF16 ladder; the epilogue (bf16
 * pairs, store_pair) is common.cuh's too.
 * - ldmatrix reads its four 8x8 matrices one per wavefront: the 8 lanes of a
 *   matrix name 8 consecutive rows (A: rows r..r+7; B: k rows p..p+7) of the
 *   same logical chunk. Rows are 128 B apart, so unswizzled all 8 would fall
 *   in the same 4 banks: 8-way conflict. With the XOR, row r % 8 = 0..7
 *   moves the chunk to 8 different positions: 32 different banks, 1
 *   wavefront per matrix, 4 per ldmatrix.x4 (the least 512 bytes can take).
 * - cp.async writes: 8 consecutive threads write the 8 chunks of one 128-byte
 *   row (of A, or of one B panel), permuted by the XOR but all 8 positions:
 *   1 wavefront per 8 chunks.
 * static_asserts below recount both for the configuration compiled.
 *
 * ---- Pipeline: what waits on what ------------------------------------------
 * STAGES = 3 slabs of (BM + BN) * BK * 2 B = 48 KB: 144 KB of dynamic shared
 * memory (sm_80 allows 163 KB; -DGKB1_STAGES=4, 192 KB, is sm_90 only).
 * k-tile kt is copied STAGES - 1 k-tiles ahead of its use. Per k-tile, one
 * cp.async.wait_group (this thread's copies of k-tile kt have landed) and
 * one __syncthreads (everyone's have; and every warp has finished reading
 * the slab of k-tile kt - 1, which is refilled right after with k-tile kt +
 * STAGES - 1): one barrier per 4 k16-steps x 32 mma per warp. The mma of a
 * k-tile wait only on their own ldmatrix (registers); the ldmatrix wait on
 * that barrier. Occupancy: 256 threads, up to 255 registers each, 144 KB of
 * shared memory: 1 block = 8 warps per SM, 2 per scheduler; the latency of
 * the copies is hidden by the 2 k-tiles in flight, that of the ldmatrix by
 * the 32 independent mma per k16-step.
 *
 * What bounds it: the issue rate of mma.sync on Hopper's tensor cores (the
 * warp-level instruction runs well below wgmma's rate there: that is what
 * variant 14 changes), then shared-memory bandwidth (1.375 wavefronts
 * per mma) and the 8 ldmatrix next to every 32 HMMA in the instruction
 * stream.
 *
 * L2 block swizzle, as variant 11: the 1-D grid is walked in groups of
 * GROUP_M = 8 tile rows, column by column inside a group.
 *
 * Limits and fallbacks:
 * - sm_80+ (cp.async, mma .bf16). Compiled for an older GPU the kernel is
 *   empty, and the launcher returns cudaErrorNotSupported below compute
 *   capability 8.0 without launching.
 * - Fast path per operand, chosen by the launcher: A (B) is copied in 16-byte
 *   cp.async.cg chunks when a (b) is 16-byte aligned and lda (ldb) is a
 *   multiple of 8 elements (every row start 16-byte aligned). Otherwise (an
 *   odd lda, a pointer one element off) every chunk is gathered element by
 *   element: 8 two-byte global loads into registers, one 16-byte st.shared
 *   (synchronous: the thread waits for its loads; same layout, same compute).
 * - Edges: a chunk wholly outside the matrix is written as zeros (cp.async
 *   with src-size 0, reading nothing; its source address is the matrix
 *   start), so a partial tile adds exact zeros. A chunk that straddles
 *   column k (of A) or n (of B) is gathered element by element, so no copy
 *   names a byte outside A or B.
 *   C is written as bf16 pairs (4 bytes) when c is 4-byte aligned, ldc is
 *   even and both columns exist, one guarded element otherwise; rows past m
 *   are skipped. beta == 0 never reads C. k == 0 skips the k-loop; the
 *   epilogue still writes beta * C (0 when beta == 0).
 * - 1-D grid of ceil(m/BM) * ceil(n/BN) blocks (at most 2^31 - 1).
 * - Precision: products exact in fp32, sums in fp32 in the tensor core,
 *   alpha * acc + beta * c in fp32, one rounding to bf16 (round to nearest
 *   even) per element of C.
 *
 * Registers (ptxas -v, CUDA 13.0, sm_90): 216-219 per thread for the four
 * <A fast?, B fast?> instances, 0 bytes of stack, no spills: 128
 * accumulators, 16 A-fragment and 4 B-fragment registers live per k16-step,
 * the rest addresses. The gathered (slow) copies run as a loop with one
 * chunk's 8 loads in flight; unrolled, their 96 loads in flight took the
 * kernel to 255 registers.
 *
 * Tuning macros: GKB1_STAGES (3), GKB1_GROUP_M (8).
 *
 * Sources: PTX ISA (mma.m16n8k16 .bf16 fragment layouts, ldmatrix and its
 * .trans, cp.async); NVIDIA CUTLASS documentation "Efficient GEMM in CUDA"
 * (block / warp / instruction tiling, multistage pipelines, swizzled shared
 * memory); the CUDA C++ Programming Guide (asynchronous copies, shared
 * memory banks, bfloat16 conversions).
 *
 * Build alone: nvcc -arch=sm_90 -c bf16_01_mma_sync.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

#ifndef GKB1_STAGES
#define GKB1_STAGES 3
#endif
#ifndef GKB1_GROUP_M
#define GKB1_GROUP_M 8
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
/* Below sm_80 the kernel body is compiled out, leaving its helpers unused. */
#pragma nv_diag_suppress 177
#endif

namespace {

constexpr int kBM = 128, kBN = 256, kBK = 64;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kStages = GKB1_STAGES;
constexpr unsigned kGroupM = GKB1_GROUP_M;
constexpr int kThreads = kWarpsM * kWarpsN * 32;
constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN; /* warp tile 64 x 64 */
constexpr int kMT = kWM / 16;                           /* m16 tiles per warp: 4 */
constexpr int kNT = kWN / 8;                            /* n8 tiles per warp: 8 */
constexpr int kKSteps = kBK / 16;                       /* k16 steps per k-tile: 4 */
constexpr int kABytes = kBM * kBK * 2;                  /* one A slab: 16 KB */
constexpr int kBBytes = kBK * kBN * 2;                  /* one B slab: 32 KB */
constexpr size_t kSmemBytes = (size_t)kStages * (kABytes + kBBytes);
/* The slabs' swizzled layout and the copies that fill them (common.cuh):
 * 4 chunks of A and 8 of B per thread and k-tile. */
typedef Bf16Slab<kBM, kBN, kBK, kThreads> Slab;

static_assert(kWM % 16 == 0 && kWN % 16 == 0, "warp tile: m16 tiles, pairs of n8 tiles");
static_assert(kStages >= 2 && kStages <= 8, "2..8 pipeline stages");
static_assert(kSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");

/* ---- Where things live in a slab (bytes): Slab::a_offset, Slab::b_offset */
/* The row address lane l gives ldmatrix for A's m16-tile i, k16-step s of
 * warp row wm, and for B's n8-tile pair jj, k16-step s of warp column wn. */
__host__ __device__ constexpr int a_ldm_offset(int l, int wm, int i, int s)
{
    return Slab::a_offset(wm * kWM + 16 * i + (l & 15), 2 * s + (l >> 4));
}
__host__ __device__ constexpr int b_ldm_offset(int l, int wn, int jj, int s)
{
    return Slab::b_offset(16 * s + (l & 7) + 8 * ((l >> 3) & 1), (wn * kWN + 16 * jj) / 8 + (l >> 4));
}

/* ---- Compile-time proofs for the configuration being built ---------------
 * (1) ldmatrix: the 8 lanes of each matrix (8i..8i+7) name 16-byte rows in 8
 * different chunk positions of 128 bytes (32 different banks): one wavefront
 * per matrix. */
__host__ __device__ constexpr bool eight_rows_free(const int (&off)[32])
{
    for (int i = 0; i < 4; ++i) {
        bool used[8] = {};
        for (int l = 8 * i; l < 8 * i + 8; ++l) {
            if (off[l] % 16 != 0) return false;
            const int pos = off[l] / 16 % 8;
            if (used[pos]) return false;
            used[pos] = true;
        }
    }
    return true;
}
__host__ __device__ constexpr bool ldmatrix_conflict_free()
{
    for (int s = 0; s < kKSteps; ++s) {
        for (int w = 0; w < kWarpsM; ++w)
            for (int i = 0; i < kMT; ++i) {
                int off[32] = {};
                for (int l = 0; l < 32; ++l) off[l] = a_ldm_offset(l, w, i, s);
                if (!eight_rows_free(off)) return false;
            }
        for (int w = 0; w < kWarpsN; ++w)
            for (int jj = 0; jj < kNT / 2; ++jj) {
                int off[32] = {};
                for (int l = 0; l < 32; ++l) off[l] = b_ldm_offset(l, w, jj, s);
                if (!eight_rows_free(off)) return false;
            }
    }
    return true;
}
/* (2) The copies: thread tid writes chunk column tid % 8 (A) or tid % 32 (B);
 * 8 consecutive threads must land in 8 different chunk positions. */
__host__ __device__ constexpr bool copy_writes_conflict_free()
{
    for (int r = 0; r < kBM; ++r) {
        bool used[8] = {};
        for (int q = 0; q < 8; ++q) {
            const int pos = Slab::a_offset(r, q) / 16 % 8;
            if (used[pos]) return false;
            used[pos] = true;
        }
    }
    for (int p = 0; p < kBK; ++p)
        for (int q0 = 0; q0 < kBN / 8; q0 += 8) {
            bool used[8] = {};
            for (int q = q0; q < q0 + 8; ++q) {
                const int pos = Slab::b_offset(p, q) / 16 % 8;
                if (used[pos]) return false;
                used[pos] = true;
            }
        }
    return true;
}
static_assert(ldmatrix_conflict_free(), "ldmatrix: one wavefront per 8x8 matrix");
static_assert(copy_writes_conflict_free(), "copies: one wavefront per 8 chunks");

/* ldmatrix_x4 and mma16816 (PTX wrappers, sm_80+) are common.cuh's. */

template <bool kAVec, bool kBVec>
__global__ void __launch_bounds__(kThreads, 1)
gemm_bf16_mma_sync(unsigned m, unsigned n, unsigned k, float alpha, const unsigned short *__restrict__ a,
                   size_t lda, const unsigned short *__restrict__ b, size_t ldb, float beta,
                   __nv_bfloat16 *__restrict__ c, size_t ldc, unsigned tiles_m, unsigned tiles_n, bool c_vec)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t as0 = smem_u32(smem);                    /* kStages A slabs */
    const uint32_t bs0 = as0 + kStages * kABytes;           /* kStages B slabs */

    /* L2 swizzle: groups of kGroupM tile rows, walked column by column. */
    unsigned bm, bn; /* the tile's first row and column */
    tile_origin<kGroupM, kBM, kBN>(blockIdx.x, tiles_m, tiles_n, &bm, &bn);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp / kWarpsN, wn = warp % kWarpsN;

    float acc[kMT][kNT][4];
#pragma unroll
    for (int i = 0; i < kMT; ++i)
#pragma unroll
        for (int j = 0; j < kNT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

    const unsigned ktiles = (k + kBK - 1) / kBK;
    if (ktiles > 0) {
        /* Prologue: k-tiles 0 .. kStages-2, one commit group each (empty
         * groups past ktiles keep the wait count exact). */
#pragma unroll
        for (int s = 0; s < kStages - 1; ++s) {
            if ((unsigned)s < ktiles) {
                Slab::load_a_tile<kAVec>(as0 + s * kABytes, a, lda, m, k, bm, s, tid);
                Slab::load_b_tile<kBVec>(bs0 + s * kBBytes, b, ldb, n, k, bn, s, tid);
            }
            cp_async_commit();
        }
        for (unsigned kt = 0; kt < ktiles; ++kt) {
            const int slab = (int)(kt % kStages);
            cp_async_wait<kStages - 2>(); /* this thread's copies of k-tile kt have landed */
            /* Everyone's copies (and gathered stores) of k-tile kt are
             * visible, and every warp has finished its ldmatrix of k-tile
             * kt-1, whose slab is refilled just below. */
            __syncthreads();
            const unsigned next = kt + kStages - 1;
            if (next < ktiles) {
                const int ws = (int)(next % kStages);
                Slab::load_a_tile<kAVec>(as0 + ws * kABytes, a, lda, m, k, bm, next, tid);
                Slab::load_b_tile<kBVec>(bs0 + ws * kBBytes, b, ldb, n, k, bn, next, tid);
            }
            cp_async_commit(); /* one group per k-tile, even empty: the wait count stays exact */

            const uint32_t as = as0 + slab * kABytes, bs = bs0 + slab * kBBytes;
#pragma unroll
            for (int s = 0; s < kKSteps; ++s) {
                /* The k16-step's A fragments (16 registers), then B two n8-tiles
                 * at a time (4 registers), each used by kMT mma at once. */
                uint32_t af[kMT][4];
#pragma unroll
                for (int i = 0; i < kMT; ++i) ldmatrix_x4<false>(af[i], as + a_ldm_offset(lane, wm, i, s));
#pragma unroll
                for (int jj = 0; jj < kNT / 2; ++jj) {
                    uint32_t bf[4];
                    ldmatrix_x4<true>(bf, bs + b_ldm_offset(lane, wn, jj, s));
#pragma unroll
                    for (int i = 0; i < kMT; ++i) {
                        mma16816<__nv_bfloat16>(acc[i][2 * jj], af[i][0], af[i][1], af[i][2], af[i][3], bf[0], bf[1]);
                        mma16816<__nv_bfloat16>(acc[i][2 * jj + 1], af[i][0], af[i][1], af[i][2], af[i][3], bf[2], bf[3]);
                    }
                }
            }
        }
    }

    /* Epilogue straight from registers: acc[i][j][2h + e] is C(row 16i + g +
     * 8h, column 8j + 2t + e) of the warp tile: a bf16 pair per (i, j, h). */
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < kMT; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const unsigned row = bm + wm * kWM + 16 * i + g + 8 * h;
            if (row >= m) continue;
            __nv_bfloat16 *const crow = c + (size_t)row * ldc;
#pragma unroll
            for (int j = 0; j < kNT; ++j)
                store_pair(crow, bn + wn * kWN + 8 * j + 2 * t, n, alpha, acc[i][j][2 * h], acc[i][j][2 * h + 1],
                           beta, c_vec);
        }
#endif
}

typedef void (*Kernel)(unsigned, unsigned, unsigned, float, const unsigned short *, size_t, const unsigned short *,
                       size_t, float, __nv_bfloat16 *, size_t, unsigned, unsigned, bool);

} // namespace

extern "C" cudaError_t gk_gemm_bf16_01_mma_sync_run(size_t m, size_t n, size_t k, float alpha, const void *a,
                                                    size_t lda, const void *b, size_t ldb, float beta, void *c,
                                                    size_t ldc, cudaStream_t stream)
{
    /* cp.async, ldmatrix and mma .bf16 exist from compute capability 8.0 on. */
    cudaError_t err = require_cc(8);
    if (err != cudaSuccess) return err;

    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0x7fffffffu) return cudaErrorInvalidConfiguration;

    /* 16-byte copies need every row start 16-byte aligned: the base, and a
     * leading dimension of a multiple of 8 elements; bf16 pairs need 4-byte
     * aligned row starts of C. */
    const bool a_vec = ((uintptr_t)a & 15u) == 0 && lda % 8 == 0;
    const bool b_vec = ((uintptr_t)b & 15u) == 0 && ldb % 8 == 0;
    const bool c_vec = ((uintptr_t)c & 3u) == 0 && ldc % 2 == 0;
    const Kernel kernel = a_vec ? (b_vec ? gemm_bf16_mma_sync<true, true> : gemm_bf16_mma_sync<true, false>)
                                : (b_vec ? gemm_bf16_mma_sync<false, true> : gemm_bf16_mma_sync<false, false>);

    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmemBytes);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)(tiles_m * tiles_n), kThreads, kSmemBytes, stream>>>(
        (unsigned)m, (unsigned)n, (unsigned)k, alpha, (const unsigned short *)a, lda, (const unsigned short *)b, ldb,
        beta, (__nv_bfloat16 *)c, ldc, (unsigned)tiles_m, (unsigned)tiles_n, c_vec);
    return cudaGetLastError();
}
