/* Variant 14 (bf16_02): Hopper's wgmma, both operands read by the tensor
 * cores straight from 128-byte-swizzled shared memory; loads as in
 * variant 13.
 *
 * The idea: on Hopper, a warpgroup (4 consecutive warps, 128 threads) issues
 *     wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16     (SASS: HGMMA.64x256x16.F32.BF16)
 * which computes D(64x256) += A(64x16) * B(16x256), 262,144 multiply-adds,
 * reading A and B from shared memory itself through two 64-bit "matrix
 * descriptors" (address, strides, swizzle mode), and accumulating into 128
 * fp32 registers per thread. It is asynchronous: the warps go on issuing
 * while the tensor cores work, and wait for a group of them with
 * wgmma.wait_group. Variant 13's mma.sync instead needed every warp to load
 * its fragments into registers with ldmatrix first, 8 ldmatrix per 32 mma
 * of 4096 multiply-adds each.
 *
 * What changes from variant 13, counted per k16-step and block (128 x 256):
 * - Instructions: variant 13 issues 8 warps x (8 ldmatrix + 32 HMMA) = 320
 *   warp instructions (64 fragment loads, 256 HMMA); here 8 warps each issue 1 wgmma (a warpgroup-wide
 *   instruction, issued by its 4 warps together) = 8 warp instructions for
 *   the same 128 x 256 x 16 multiply-adds. The instruction stream stops
 *   being a limit; the operands no longer pass through registers.
 * - Shared traffic: each warpgroup's wgmma reads its A (64 x 16 x 2 B =
 *   2 KB) and the whole B (16 x 256 x 2 B = 8 KB): 20 KB per k16-step for
 *   the block, against variant 13's 8 warps x 8 ldmatrix x 512 B = 32 KB. The
 *   accumulators stay in registers: 128 fp32 per thread, as in variant 13
 *   (a 64 x 256 tile over 128 threads).
 * - What waits on what: the copies of k-tile kt + 2 are issued while the
 *   wgmma of k-tile kt run, and the wgmma of k-tile kt are still running
 *   while the block waits for k-tile kt + 1's copies (wgmma.wait_group 1:
 *   one k-tile of wgmma in flight per warpgroup). A slab is refilled only
 *   after the barrier that follows every warpgroup's wait for the wgmma that
 *   read it (k-tile kt - 2), hence 4 stages for 2 k-tiles of copies ahead.
 *
 * ---- Shared memory: the layouts wgmma reads (PTX ISA, "Shared Memory
 * Matrix Layout", 128-byte swizzle) -------------------------------------------
 * Both operands are stored in rows of 128 bytes, chunk q (16 bytes) of row r
 * at chunk q ^ (r % 8), 8-row "atoms" of 1024 bytes, every slab 1024-byte
 * aligned (the hardware applies the XOR to address bits 4-6 from bits 7-9,
 * so the atoms must start at multiples of 1024): exactly variant 13's
 * layout, which is why its copy code (common.cuh's Bf16Slab) is kept.
 *   A (K-major: k contiguous, imm-trans-a = 0): a slab of BM = 128 rows of
 *     BK = 64 elements. Warpgroup w reads rows 64w .. 64w + 63: start
 *     address slab + 8192 w + 32 s for k16-step s (the 16 elements of step s
 *     are bytes 32s .. 32s + 31 of each logical row; the hardware's XOR
 *     finds them in the swizzled row), stride byte offset (SBO: from one
 *     8-row atom to the next along M) 1024, leading byte offset (LBO) unused
 *     by a swizzled K-major operand whose K (16 elements = 32 bytes) fits in
 *     one 128-byte row; set to 16 bytes (encoded 1).
 *   B (N-major: n contiguous, imm-trans-b = 1): a slab of BN / 64 = 4 panels
 *     of 64 columns (128-byte rows), each BK = 64 k-rows deep (8 KB). For
 *     k16-step s: start address slab + 2048 s (rows 16s .. 16s + 15: two
 *     whole atoms), SBO (from one 8-row atom to the next along K) 1024, LBO
 *     (from one 64-column panel to the next along N) 8192.
 * Descriptor (64 bits): start address >> 4 in bits 0-13, LBO >> 4 in
 * 16-29, SBO >> 4 in 32-45, base offset 0 in 49-51 (the atoms are 1024-byte
 * aligned), swizzle mode in 62-63 (1 = 128-byte swizzle).
 *
 * ---- Accumulators (PTX ISA, "Register fragments", wgmma .m64nNk16 D) -------
 * Warp w4 = warp % 4 of a warpgroup owns rows 16 w4 .. 16 w4 + 15 of its 64;
 * lane = 4g + t; d[4j + 2h + e] = D[16 w4 + g + 8h][8j + 2t + e] for
 * j < N/8 = 32, h, e in {0, 1}: the layout of 32 m16n8 mma.sync tiles side by
 * side, so variant 13's epilogue (bf16 pairs) carries over.
 *
 * ---- Fences (PTX ISA, wgmma.fence / commit_group / wait_group, and the
 * async proxy) -------------------------------------------------------------------
 * - cp.async and st.shared write shared memory through the generic proxy;
 *   wgmma reads it through the async proxy. After its copies of a k-tile
 *   have landed (cp.async.wait_group), each thread executes
 *   fence.proxy.async.shared::cta, then the block barrier: every write is
 *   then visible to every warpgroup's wgmma.
 * - wgmma.fence before each k-tile's first wgmma: the accumulator registers
 *   were last written by other instructions (the zeroing, or the previous
 *   k-tile's wgmma that the wait_group retired) and must be ordered before
 *   the asynchronous reads. The 4 wgmma of a k-tile chain on the same
 *   accumulators without fences (allowed for the same shape).
 * - wgmma.commit_group after each k-tile's 4 wgmma; wgmma.wait_group 1
 *   before the next k-tile (at most that k-tile's group still running);
 *   wgmma.wait_group 0 before the epilogue reads the accumulators. Empty
 *   asm statements that "modify" every accumulator after each wait keep the
 *   compiler from moving a read of a register above the wait.
 *
 * ---- Tiles, stages, resources ------------------------------------------------
 * Block tile 128 x 256 x 64, 2 warpgroups (256 threads) of 64 x 256 each,
 * 4 stages of (128 + 256) x 64 x 2 B = 48 KB: 192 KB + 1 KB to align the
 * slabs to 1024 bytes = 197,632 bytes of dynamic shared memory (of sm_90's
 * 227 KB): 1 block per SM. Global traffic as variant 13 (same block tile:
 * 85.3 multiply-adds per element loaded). Registers: see ptxas -v below.
 *
 * Registers (ptxas -v, CUDA 13.0, sm_90a): 170-182 per thread for the four
 * <A fast?, B fast?> instances, 0 bytes of stack, no spills, and no
 * "wgmma serialized" warning (ptxas serializes wgmma whose accumulators it
 * cannot keep in place).
 *
 * What bounds it: the copies. All 256 threads both copy (cp.async, 12
 * chunks each per k-tile) and issue wgmma, and a k-tile's copies are only
 * 2 k-tiles ahead: the TMA (variant 15) takes the address arithmetic and
 * the copies off the threads, and warp specialization (variant 16) lets
 * producers run ahead of the consumers.
 *
 * Limits and fallbacks:
 * - sm_90a only: wgmma is an architecture-specific instruction of compute
 *   capability 9.0. The wgmma code is compiled only where nvcc defines
 *   __CUDA_ARCH_FEAT_SM90_ALL (a build for sm_90a; the module's CMake adds it
 *   for this file when the architectures include 90). Built for anything
 *   else the kernel is a stub that holds a 1 KB static shared array and
 *   nothing else; the launcher reads the kernel's static shared size with
 *   cudaFuncGetAttributes and, when it is not 0 (the stub), returns
 *   cudaErrorNotSupported without launching. It does the same on any GPU
 *   other than compute capability 9.0.
 * - Copies, edges, the epilogue and alignment: exactly variant 13's (16-byte
 *   cp.async for 16-byte-aligned rows, gathered chunks otherwise and where a
 *   chunk straddles the last column, zeros outside the matrix, guarded bf16
 *   pair or element stores, beta == 0 never reads C, k == 0 writes beta * C).
 * - 1-D grid of ceil(m/BM) * ceil(n/BN) blocks (at most 2^31 - 1), L2 block
 *   swizzle in groups of 8 tile rows.
 * - Variants 15 and 16 run this kernel for the rows their TMA cannot
 *   address: sm90.cuh carries it for them (bf16_tile::gemm_bf16_cp_async,
 *   the same code with the k-tile's wgmma in bf16_wgmma_ktile).
 *
 * Sources: PTX ISA ("Asynchronous Warpgroup Level Matrix Multiply-
 * Accumulate Instructions": wgmma.mma_async, the matrix descriptor format,
 * the shared-memory matrix layouts and swizzling modes, the register
 * fragments of D, wgmma.fence / commit_group / wait_group; fence.proxy.async;
 * cp.async); NVIDIA CUTLASS documentation (the GMMA descriptors and the
 * canonical swizzled layouts of CuTe); the CUDA C++ Programming Guide
 * (feature-specific architectures: sm_90a, __CUDA_ARCH_FEAT_SM90_ALL).
 *
 * Build alone: nvcc -gencode arch=compute_90a,code=sm_90a -c bf16_02_wgmma.cu
 *   (next to sm90.cuh and common.cuh, which it includes: the three files
 *   need nothing else but the CUDA toolkit)
 *   (with -arch=sm_90 it builds too, as the stub that reports "not supported")
 */
#include "sm90.cuh"

/* The wgmma code exists only in a device compilation for sm_90a, where nvcc
 * defines __CUDA_ARCH_FEAT_SM90_ALL (sm90.cuh). */
#ifndef __CUDA_ARCH_FEAT_SM90_ALL
#pragma nv_diag_suppress 177 /* the stub leaves the helpers unused */
#endif

#ifndef GKB2_GROUP_M
#define GKB2_GROUP_M 8
#endif

namespace {

constexpr int kBM = 128, kBN = 256, kBK = 64;
constexpr int kWarpgroups = kBM / 64;               /* 2: each owns 64 rows x all BN columns */
constexpr int kThreads = kWarpgroups * 128;         /* 256 */
constexpr int kStages = 4;
constexpr int kAhead = kStages - 2;                 /* k-tiles of copies in flight ahead of the wgmma */
constexpr unsigned kGroupM = GKB2_GROUP_M;
constexpr int kKSteps = kBK / 16;                   /* wgmma k16-steps per k-tile: 4 */
constexpr int kABytes = kBM * kBK * 2;              /* one A slab: 16 KB */
constexpr int kBBytes = kBK * kBN * 2;              /* one B slab: 32 KB */
constexpr int kAcc = kBN / 2;                       /* accumulators per thread: 64 x 256 / 128 = 128 */
constexpr size_t kSmemBytes = (size_t)kStages * (kABytes + kBBytes) + 1024; /* + alignment slack */
/* The slabs' swizzled layout and the copies that fill them: variant 13's
 * (common.cuh), 4 chunks of A and 8 of B per thread and k-tile. */
typedef Bf16Slab<kBM, kBN, kBK, kThreads> Slab;

static_assert(kBN == 256, "the wgmma below is m64n256k16 (128 accumulators)");
static_assert(kABytes % 1024 == 0 && kBBytes % 1024 == 0, "slabs keep the 1024-byte alignment of the atoms");
static_assert(kStages >= kAhead + 2, "a slab is refilled 2 k-tiles after the wgmma that read it");
static_assert(kSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");

/* ---- The kernel. The descriptors (bf16_a_desc, bf16_b_desc), the wgmma
 * wrapper and the fences are sm90.cuh's; the copies and the epilogue
 * common.cuh's, variant 13's. ---------------------------------------------- */
template <bool kAVec, bool kBVec>
__global__ void __launch_bounds__(kThreads, 1)
gemm_bf16_wgmma(unsigned m, unsigned n, unsigned k, float alpha, const unsigned short *__restrict__ a, size_t lda,
                const unsigned short *__restrict__ b, size_t ldb, float beta, __nv_bfloat16 *__restrict__ c,
                size_t ldc, unsigned tiles_m, unsigned tiles_n, bool c_vec)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    extern __shared__ __align__(128) unsigned char smem[];
    /* The slabs start at the first 1024-byte boundary (the swizzle atoms'
     * alignment); kSmemBytes holds 1024 bytes of slack for it. */
    const uint32_t base = (smem_u32(smem) + 1023u) & ~1023u;
    const uint32_t as0 = base;                    /* kStages A slabs */
    const uint32_t bs0 = base + kStages * kABytes; /* kStages B slabs */

    /* L2 swizzle: groups of kGroupM tile rows, walked column by column. */
    unsigned bm, bn;
    tile_origin<kGroupM, kBM, kBN>(blockIdx.x, tiles_m, tiles_n, &bm, &bn);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wg = warp >> 2; /* this thread's warpgroup: rows 64 wg .. 64 wg + 63 of the tile */

    float d[kAcc];
#pragma unroll
    for (int i = 0; i < kAcc; ++i) d[i] = 0.0f;

    const unsigned ktiles = (k + kBK - 1) / kBK;
    if (ktiles > 0) {
        /* Prologue: k-tiles 0 .. kAhead-1, one commit group each (empty groups
         * past ktiles keep the wait count exact). */
#pragma unroll
        for (int s = 0; s < kAhead; ++s) {
            if ((unsigned)s < ktiles) {
                Slab::load_tiles<kAVec, kBVec>(as0 + s * kABytes, bs0 + s * kBBytes, a, lda, b, ldb, m, n, k, bm,
                                               bn, s, tid);
            }
            cp_async_commit();
        }
        for (unsigned kt = 0; kt < ktiles; ++kt) {
            const int slab = (int)(kt % kStages);
            /* This thread's copies of k-tile kt have landed (the kAhead - 1
             * newer groups may still be in flight) ... */
            cp_async_wait<kAhead - 1>();
            /* ... and are made visible to the async proxy that wgmma reads
             * through (they, and the gathered st.shared, went through the
             * generic proxy). */
            fence_proxy_async();
            /* Every thread's copies of k-tile kt are complete and visible;
             * and every warpgroup has passed its wgmma.wait_group 1 of k-tile
             * kt-1, so the wgmma of k-tile kt-2 are finished everywhere: its
             * slab is refilled just below. */
            __syncthreads();
            const unsigned next = kt + kAhead;
            if (next < ktiles) {
                const int ws = (int)(next % kStages); /* = slab of k-tile kt - 2 */
                Slab::load_tiles<kAVec, kBVec>(as0 + ws * kABytes, bs0 + ws * kBBytes, a, lda, b, ldb, m, n, k, bm,
                                               bn, next, tid);
            }
            cp_async_commit(); /* one group per k-tile, even empty: the wait count stays exact */

            /* The accumulators were last written by the zeroing or by wgmma
             * that wait_group retired: order that before the new wgmma. */
            acc_fence(d);
            wgmma_fence();
            const uint32_t as = as0 + slab * kABytes, bs = bs0 + slab * kBBytes;
#pragma unroll
            for (int s = 0; s < kKSteps; ++s) wgmma_m64n256k16(d, bf16_a_desc<kBK>(as, wg, s), bf16_b_desc<kBK>(bs, s));
            wgmma_commit();
            /* At most this k-tile's group still running: k-tile kt-1's wgmma
             * (and their reads of its slab) are done. */
            wgmma_wait<1>();
            acc_fence(d);
        }
        wgmma_wait<0>(); /* every wgmma done: the accumulators are final */
        acc_fence(d);
    }

    /* Epilogue from registers: d[4j + 2h + e] is C(row 16 (warp % 4) + g + 8h,
     * column 8j + 2t + e) of the warpgroup's 64 x 256 tile. */
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const unsigned row = bm + 64 * wg + 16 * (warp & 3) + g + 8 * h;
        if (row >= m) continue;
        __nv_bfloat16 *const crow = c + (size_t)row * ldc;
#pragma unroll
        for (int j = 0; j < kBN / 8; ++j)
            store_pair(crow, bn + 8 * j + 2 * t, n, alpha, d[4 * j + 2 * h], d[4 * j + 2 * h + 1], beta, c_vec);
    }
#else
    sm90a_stub(m, n); /* not compiled for sm_90a: a stub, never launched (sm90.cuh) */
#endif
}

typedef void (*Kernel)(unsigned, unsigned, unsigned, float, const unsigned short *, size_t, const unsigned short *,
                       size_t, float, __nv_bfloat16 *, size_t, unsigned, unsigned, bool);

} // namespace

extern "C" cudaError_t gk_gemm_bf16_02_wgmma_run(size_t m, size_t n, size_t k, float alpha, const void *a,
                                                 size_t lda, const void *b, size_t ldb, float beta, void *c,
                                                 size_t ldc, cudaStream_t stream)
{
    /* wgmma is specific to compute capability 9.0 (sm_90a code runs there only). */
    cudaError_t err = require_cc(9, 0);
    if (err != cudaSuccess) return err;

    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0x7fffffffu) return cudaErrorInvalidConfiguration;

    const bool a_vec = ((uintptr_t)a & 15u) == 0 && lda % 8 == 0;
    const bool b_vec = ((uintptr_t)b & 15u) == 0 && ldb % 8 == 0;
    const bool c_vec = ((uintptr_t)c & 3u) == 0 && ldc % 2 == 0;
    const Kernel kernel = a_vec ? (b_vec ? gemm_bf16_wgmma<true, true> : gemm_bf16_wgmma<true, false>)
                                : (b_vec ? gemm_bf16_wgmma<false, true> : gemm_bf16_wgmma<false, false>);

    /* Was this file built for sm_90a? The stub kernel (see its #else) has
     * static shared memory; the real one has none. */
    err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmemBytes);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)(tiles_m * tiles_n), kThreads, kSmemBytes, stream>>>(
        (unsigned)m, (unsigned)n, (unsigned)k, alpha, (const unsigned short *)a, lda, (const unsigned short *)b, ldb,
        beta, (__nv_bfloat16 *)c, ldc, (unsigned)tiles_m, (unsigned)tiles_n, c_vec);
    return cudaGetLastError();
}
