/* BF16 variant 2: Hopper's wgmma, both operands read by the tensor cores
 * straight from 128-byte-swizzled shared memory; loads as in variant 1.
 *
 * The idea: on Hopper, a warpgroup (4 consecutive warps, 128 threads) issues
 *     wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16     (SASS: HGMMA.64x256x16.F32.BF16)
 * which computes D(64x256) += A(64x16) * B(16x256), 262,144 multiply-adds,
 * reading A and B from shared memory itself through two 64-bit "matrix
 * descriptors" (address, strides, swizzle mode), and accumulating into 128
 * fp32 registers per thread. It is asynchronous: the warps go on issuing
 * while the tensor cores work, and wait for a group of them with
 * wgmma.wait_group. Variant 1's mma.sync instead needed every warp to load
 * its fragments into registers with ldmatrix first, 8 ldmatrix per 32 mma
 * of 4096 multiply-adds each.
 *
 * What changes from variant 1, counted per k16-step and block (128 x 256):
 * - Instructions: variant 1 issues 8 warps x (8 ldmatrix + 32 HMMA) = 320
 *   warp instructions; here 8 warps each issue 1 wgmma (a warpgroup-wide
 *   instruction, issued by its 4 warps together) = 8 warp instructions for
 *   the same 128 x 256 x 16 multiply-adds. The instruction stream stops
 *   being a limit; the operands no longer pass through registers.
 * - Shared traffic: each warpgroup's wgmma reads its A (64 x 16 x 2 B =
 *   2 KB) and the whole B (16 x 256 x 2 B = 8 KB): 20 KB per k16-step for
 *   the block, against variant 1's 8 warps x 8 ldmatrix x 512 B = 32 KB. The
 *   accumulators stay in registers: 128 fp32 per thread, as in variant 1
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
 * so the atoms must start at multiples of 1024): exactly variant 1's
 * layout, which is why its copy code is kept.
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
 * side, so variant 1's epilogue (bf16 pairs) carries over.
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
 * 227 KB): 1 block per SM. Global traffic as variant 1 (same block tile:
 * 85.3 multiply-adds per element loaded). Registers: see ptxas -v below.
 *
 * Registers (ptxas -v, CUDA 13.0, sm_90a): 170-182 per thread for the four
 * <A fast?, B fast?> instances, 0 bytes of stack, no spills, and no
 * "wgmma serialized" warning (ptxas serializes wgmma whose accumulators it
 * cannot keep in place).
 *
 * What bounds it: the copies. All 256 threads both copy (cp.async, 12
 * chunks each per k-tile) and issue wgmma, and a k-tile's copies are only
 * 2 k-tiles ahead: the TMA (variant 3) takes the address arithmetic and
 * the copies off the threads, and warp specialization (variant 4) lets
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
 * - Copies, edges, the epilogue and alignment: exactly variant 1's (16-byte
 *   cp.async for 16-byte-aligned rows, gathered chunks otherwise and where a
 *   chunk straddles the last column, zeros outside the matrix, guarded bf16
 *   pair or element stores, beta == 0 never reads C, k == 0 writes beta * C).
 * - 1-D grid of ceil(m/BM) * ceil(n/BN) blocks (at most 2^31 - 1), L2 block
 *   swizzle in groups of 8 tile rows.
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
 *   (with -arch=sm_90 it builds too, as the stub that reports "not supported")
 */
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

/* The wgmma code exists only in a device compilation for sm_90a. */
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GKB2_SM90A 1
#else
#define GKB2_SM90A 0
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
constexpr int kAChunks = kBM * kBK / 8 / kThreads;  /* 16-byte chunks per thread and k-tile: 4 */
constexpr int kBChunks = kBK * kBN / 8 / kThreads;  /* 8 */

static_assert(kBK == 64, "rows of 128 bytes: the 128-byte swizzle");
static_assert(kBN == 256, "the wgmma below is m64n256k16 (128 accumulators)");
static_assert(kABytes % 1024 == 0 && kBBytes % 1024 == 0, "slabs keep the 1024-byte alignment of the atoms");
static_assert(kStages >= kAhead + 2, "a slab is refilled 2 k-tiles after the wgmma that read it");
static_assert(kSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");

/* ---- Where things live in a slab (bytes): variant 1's layout ------------- */
__host__ __device__ constexpr int a_offset(int r, int q) { return r * 128 + ((q ^ (r & 7)) << 4); }
__host__ __device__ constexpr int b_offset(int p, int q)
{
    return (q >> 3) * (kBK * 128) + p * 128 + (((q & 7) ^ (p & 7)) << 4);
}

/* ---- Descriptors ------------------------------------------------------------ */
constexpr uint32_t kASbo = 1024, kALbo = 16;        /* A: 8-row atoms along M; LBO unused (K in one row) */
constexpr uint32_t kBSbo = 1024, kBLbo = kBK * 128; /* B: 8-row atoms along K; 64-column panels along N */
__host__ __device__ constexpr uint64_t make_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((saddr & 0x3ffffu) >> 4) | ((uint64_t)((lbo >> 4) & 0x3fffu) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3fffu) << 32) | ((uint64_t)1 << 62); /* 1: 128-byte swizzle */
}
/* Warpgroup wg, k16-step s, slab starting at byte address as / bs. */
__host__ __device__ constexpr uint64_t a_desc(uint32_t as, int wg, int s)
{
    return make_desc(as + (uint32_t)(wg * 64 * 128 + 32 * s), kALbo, kASbo);
}
__host__ __device__ constexpr uint64_t b_desc(uint32_t bs, int s)
{
    return make_desc(bs + (uint32_t)(16 * 128 * s), kBLbo, kBSbo);
}

/* ---- PTX wrappers (sm_90a; empty elsewhere, and never called there) ------- */
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, int src_bytes)
{
#if GKB2_SM90A
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
#endif
}
__device__ __forceinline__ void cp_async_commit()
{
#if GKB2_SM90A
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void cp_async_wait()
{
#if GKB2_SM90A
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
__device__ __forceinline__ void st_shared16(uint32_t dst, uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
#if GKB2_SM90A
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "r"(x), "r"(y), "r"(z), "r"(w)
                 : "memory");
#endif
}
/* This thread's shared-memory writes (generic proxy) become visible to the
 * async proxy, which wgmma reads through. */
__device__ __forceinline__ void fence_proxy_async()
{
#if GKB2_SM90A
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_fence()
{
#if GKB2_SM90A
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit()
{
#if GKB2_SM90A
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void wgmma_wait()
{
#if GKB2_SM90A
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
/* Keep the compiler from moving reads or writes of the accumulators across
 * a wgmma fence or wait (the registers change behind its back). */
__device__ __forceinline__ void acc_fence(float (&d)[kAcc])
{
#pragma unroll
    for (int i = 0; i < kAcc; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
/* d += A * B: one m64n256k16 wgmma of the warpgroup, A K-major
 * (imm-trans-a 0), B N-major (imm-trans-b 1), scale-d 1 (accumulate), A and
 * B scaled by 1. */
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[kAcc], uint64_t da, uint64_t db)
{
#if GKB2_SM90A
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7,"
        "%8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23,"
        "%24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39,"
        "%40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55,"
        "%56, %57, %58, %59, %60, %61, %62, %63,"
        "%64, %65, %66, %67, %68, %69, %70, %71,"
        "%72, %73, %74, %75, %76, %77, %78, %79,"
        "%80, %81, %82, %83, %84, %85, %86, %87,"
        "%88, %89, %90, %91, %92, %93, %94, %95,"
        "%96, %97, %98, %99, %100, %101, %102, %103,"
        "%104, %105, %106, %107, %108, %109, %110, %111,"
        "%112, %113, %114, %115, %116, %117, %118, %119,"
        "%120, %121, %122, %123, %124, %125, %126, %127"
        "},\n"
        "%128, %129, p, 1, 1, 0, 1;\n"
        "}\n"
        :
          "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "r"(1));
#endif
}

/* ---- Global -> shared copies of one k-tile: variant 1's, unchanged ------- */
/* One 16-byte chunk gathered element by element: count (0..8) elements of
 * src[off ..] (the rest zeros), then one 16-byte shared store. */
__device__ __forceinline__ void gather_chunk(uint32_t dst, const unsigned short *src, size_t off, int count)
{
    uint32_t w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int e = 0; e < 8; ++e)
        if (e < count) w[e >> 1] |= (uint32_t)__ldg(src + off + e) << (16 * (e & 1));
    st_shared16(dst, w[0], w[1], w[2], w[3]);
}
/* Thread tid copies chunk column tid % 8 of A rows tid / 8 + 32 i. */
template <bool kVec>
__device__ __forceinline__ void load_a_tile(uint32_t as, const unsigned short *a, size_t lda, unsigned m,
                                            unsigned k, unsigned bm, unsigned kt, int tid)
{
    const int q = tid & 7, r0 = tid >> 3;
    const unsigned col = kt * kBK + 8 * q;
    const int count = col >= k ? 0 : (k - col < 8 ? (int)(k - col) : 8); /* elements of this chunk in A's row */
    if (kVec && (count == 8 || count == 0)) {
#pragma unroll
        for (int i = 0; i < kAChunks; ++i) {
            const int r = r0 + i * (kThreads / 8);
            const unsigned row = bm + r;
            const int cnt = row < m ? count : 0;
            const size_t off = (size_t)row * lda + col; /* an offset: added to a only when cnt > 0 */
            cp_async16(as + a_offset(r, q), cnt ? a + off : a, 2 * cnt);
        }
        return;
    }
#pragma unroll 1
    for (int i = 0; i < kAChunks; ++i) {
        const int r = r0 + i * (kThreads / 8);
        const unsigned row = bm + r;
        gather_chunk(as + a_offset(r, q), a, (size_t)row * lda + col, row < m ? count : 0);
    }
}
/* Thread tid copies chunk column tid % 32 of B's k rows tid / 32 + 8 i. */
template <bool kVec>
__device__ __forceinline__ void load_b_tile(uint32_t bs, const unsigned short *b, size_t ldb, unsigned n,
                                            unsigned k, unsigned bn, unsigned kt, int tid)
{
    constexpr int kQ = kBN / 8, kRowStep = kThreads / kQ;
    const int q = tid % kQ, p0 = tid / kQ;
    const unsigned col = bn + 8 * q;
    const int count = col >= n ? 0 : (n - col < 8 ? (int)(n - col) : 8);
    if (kVec && (count == 8 || count == 0)) {
#pragma unroll
        for (int i = 0; i < kBChunks; ++i) {
            const int p = p0 + i * kRowStep;
            const unsigned row = kt * kBK + p;
            const int cnt = row < k ? count : 0;
            const size_t off = (size_t)row * ldb + col;
            cp_async16(bs + b_offset(p, q), cnt ? b + off : b, 2 * cnt);
        }
        return;
    }
#pragma unroll 1
    for (int i = 0; i < kBChunks; ++i) {
        const int p = p0 + i * kRowStep;
        const unsigned row = kt * kBK + p;
        gather_chunk(bs + b_offset(p, q), b, (size_t)row * ldb + col, row < k ? count : 0);
    }
}

/* ---- The epilogue: variant 1's ------------------------------------------- */
__device__ __forceinline__ void store_one(__nv_bfloat16 *p, float alpha, float v, float beta)
{
    const float r = beta == 0.0f ? alpha * v : alpha * v + beta * __bfloat162float(*p);
    *p = __float2bfloat16_rn(r);
}
__device__ __forceinline__ void store_pair(__nv_bfloat16 *crow, unsigned col, unsigned n, float alpha, float v0,
                                           float v1, float beta, bool c_vec)
{
    if (c_vec && col + 2 <= n) {
        __nv_bfloat162 *p = reinterpret_cast<__nv_bfloat162 *>(crow + col);
        float r0 = alpha * v0, r1 = alpha * v1;
        if (beta != 0.0f) { /* only then is C read */
            const float2 o = __bfloat1622float2(*p);
            r0 += beta * o.x;
            r1 += beta * o.y;
        }
        *p = __floats2bfloat162_rn(r0, r1);
    } else {
        if (col < n) store_one(crow + col, alpha, v0, beta);
        if (col + 1 < n) store_one(crow + col + 1, alpha, v1, beta);
    }
}

template <bool kAVec, bool kBVec>
__global__ void __launch_bounds__(kThreads, 1)
gemm_bf16_wgmma(unsigned m, unsigned n, unsigned k, float alpha, const unsigned short *__restrict__ a, size_t lda,
                const unsigned short *__restrict__ b, size_t ldb, float beta, __nv_bfloat16 *__restrict__ c,
                size_t ldc, unsigned tiles_m, unsigned tiles_n, bool c_vec)
{
#if GKB2_SM90A
    extern __shared__ __align__(128) unsigned char smem[];
    /* The slabs start at the first 1024-byte boundary (the swizzle atoms'
     * alignment); kSmemBytes holds 1024 bytes of slack for it. */
    const uint32_t base = (smem_u32(smem) + 1023u) & ~1023u;
    const uint32_t as0 = base;                    /* kStages A slabs */
    const uint32_t bs0 = base + kStages * kABytes; /* kStages B slabs */

    /* L2 swizzle: groups of kGroupM tile rows, walked column by column. */
    const unsigned long long group_tiles = (unsigned long long)kGroupM * tiles_n;
    const unsigned group = (unsigned)(blockIdx.x / group_tiles);
    const unsigned first_m = group * kGroupM;
    const unsigned rows_in_group = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
    const unsigned in_group = (unsigned)(blockIdx.x - group * group_tiles);
    const unsigned bm = (first_m + in_group % rows_in_group) * kBM;
    const unsigned bn = (in_group / rows_in_group) * kBN;

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
                load_a_tile<kAVec>(as0 + s * kABytes, a, lda, m, k, bm, s, tid);
                load_b_tile<kBVec>(bs0 + s * kBBytes, b, ldb, n, k, bn, s, tid);
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
                load_a_tile<kAVec>(as0 + ws * kABytes, a, lda, m, k, bm, next, tid);
                load_b_tile<kBVec>(bs0 + ws * kBBytes, b, ldb, n, k, bn, next, tid);
            }
            cp_async_commit(); /* one group per k-tile, even empty: the wait count stays exact */

            /* The accumulators were last written by the zeroing or by wgmma
             * that wait_group retired: order that before the new wgmma. */
            acc_fence(d);
            wgmma_fence();
            const uint32_t as = as0 + slab * kABytes, bs = bs0 + slab * kBBytes;
#pragma unroll
            for (int s = 0; s < kKSteps; ++s) wgmma_m64n256k16(d, a_desc(as, wg, s), b_desc(bs, s));
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
    /* Not compiled for sm_90a: no wgmma here. This image is never launched:
     * the launcher sees this 1 KB static array through cudaFuncGetAttributes
     * (sharedSizeBytes != 0) and returns cudaErrorNotSupported. The volatile
     * store (never executed: m >= 1) keeps the array in the image. */
    __shared__ int not_sm90a[256];
    if (m == 0u) static_cast<volatile int *>(not_sm90a)[threadIdx.x & 255u] = (int)n;
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
    int dev = 0, major = 0, minor = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (err != cudaSuccess) return err;
    if (major != 9 || minor != 0) return cudaErrorNotSupported;

    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0x7fffffffu) return cudaErrorInvalidConfiguration;

    const bool a_vec = ((uintptr_t)a & 15u) == 0 && lda % 8 == 0;
    const bool b_vec = ((uintptr_t)b & 15u) == 0 && ldb % 8 == 0;
    const bool c_vec = ((uintptr_t)c & 3u) == 0 && ldc % 2 == 0;
    const Kernel kernel = a_vec ? (b_vec ? gemm_bf16_wgmma<true, true> : gemm_bf16_wgmma<true, false>)
                                : (b_vec ? gemm_bf16_wgmma<false, true> : gemm_bf16_wgmma<false, false>);

    /* Was this file built for sm_90a? The stub kernel (see its #else) has
     * static shared memory; the real one has none. */
    cudaFuncAttributes fa;
    err = cudaFuncGetAttributes(&fa, kernel);
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* no image for this GPU: not an error to leave behind */
        return cudaErrorNotSupported;
    }
    if (fa.sharedSizeBytes != 0) return cudaErrorNotSupported;

    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmemBytes);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)(tiles_m * tiles_n), kThreads, kSmemBytes, stream>>>(
        (unsigned)m, (unsigned)n, (unsigned)k, alpha, (const unsigned short *)a, lda, (const unsigned short *)b, ldb,
        beta, (__nv_bfloat16 *)c, ldc, (unsigned)tiles_m, (unsigned)tiles_n, c_vec);
    return cudaGetLastError();
}
