/* gemm/kernels/common.cuh: the plumbing that the gemm kernel files share.
 *
 * Every kernel file of gemm/kernels is one rung of the ladder and teaches
 * one thing; what it needs besides that lesson is here, written once:
 *   - the grid: ceil_div, grid_blocks, the launchers of variants 1-9
 *     (launch_tiles, launch_tiles_vec), the compute-capability test
 *     (require_cc), the programmatic dependent launch (pdl_wait,
 *     launch_pdl), and the L2-friendly tile order that variant 11 and the
 *     tensor-core rungs use (tile_origin);
 *   - the FP32 epilogue (store_c), the 16-byte global accesses of variants
 *     6-9 (rows_aligned16, load4, store4) and their register-tile chores
 *     (zero_acc, put4, fma_outer: variant 5's outer product, store_pieces:
 *     the epilogue of variants 8 and 9);
 *   - the sm_80 asynchronous copies and mbarriers as inline PTX (cp.async,
 *     cp.async.mbarrier.arrive, mbarrier init / arrive / try_wait), for
 *     variants 9-12 and the BF16 ladder;
 *   - the sm_80 tensor-core instructions (ldmatrix.x4, mma.sync m16n8k16
 *     for bf16 and f16, of variants 13, 19 and 21; cvt.rna.tf32 and
 *     mma.sync m16n8k8 for TF32, of variants 11 and 21);
 *   - the BF16 ladder's shared-memory layout (128-byte rows, 16-byte chunk
 *     q of row r at chunk q ^ (r % 8)), its copy path (16-byte cp.async, or
 *     chunks gathered element by element where rows are not 16-byte
 *     aligned or a chunk straddles the last column: Bf16Slab) and its
 *     epilogue (bf16 pairs: store_pair, store_tile), which variant 13
 *     introduces and variants 14-17 reuse, and the fp32 partial tiles of
 *     split-K (store_partial);
 *   - the TF32 rungs' transposed copy of an operand (transpose_f32), and
 *     the padded copy of rows the TMA cannot address (pad_rows,
 *     padded_copy, padded_pair16) that variants 10, 12, 17 and 23 make in
 *     gk_gemm_ex's workspace;
 *   - the 64 x 64 tiles of variants 21 and 22 (namespace tiles64): their
 *     shared-memory tiles in the operands' own orientation, the copies
 *     (cp.async or through registers), the k-loop and the launch.
 * sm90.cuh adds the Hopper-only instructions (TMA, wgmma, setmaxnreg) and
 * the tensor maps; it includes this file.
 *
 * To use one kernel in a project of your own, copy its .cu file and this
 * header (and sm90.cuh where the file includes it) into one folder: they
 * need nothing else but the CUDA toolkit. Everything here is in an
 * anonymous namespace (or a template in one), so that several kernel files
 * of one library can include it. The PTX wrappers are empty where the
 * instruction does not exist (a build for an older architecture); the
 * kernels never call them there (their launchers refuse such devices).
 */
#ifndef GK_GEMM_KERNELS_COMMON_CUH
#define GK_GEMM_KERNELS_COMMON_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace {

/* ---- The grid ------------------------------------------------------------ */
constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }

/* Blocks in the one-dimensional grid of tiles_m x tiles_n output tiles, or 0
 * when that exceeds gridDim.x's limit of 2^31 - 1. (gridDim.y and z stop at
 * 65535, which would cap m or n; a 1-D grid never does for a real matrix.)
 * Each factor is below 2^31, so the 64-bit product cannot overflow. */
inline size_t grid_blocks(size_t m, size_t n, size_t bm, size_t bn)
{
    const size_t blocks = ceil_div(m, bm) * ceil_div(n, bn);
    return blocks > 0x7fffffffu ? 0 : blocks;
}

/* cudaSuccess when the current device's compute capability is at least
 * min_major.0 (min_minor == -1) or exactly min_major.min_minor, else
 * cudaErrorNotSupported (or the error of asking). *dev: the device. */
inline cudaError_t require_cc(int min_major, int exact_minor = -1, int *dev_out = nullptr)
{
    int dev = 0, major = 0, minor = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (err != cudaSuccess) return err;
    if (dev_out) *dev_out = dev;
    if (exact_minor < 0) return major < min_major ? cudaErrorNotSupported : cudaSuccess;
    return major != min_major || minor != exact_minor ? cudaErrorNotSupported : cudaSuccess;
}

/* ---- Programmatic dependent launch (sm_90 and later) ----------------------
 * A call of gk_gemm_ex can be several launches on one stream: padded
 * copies of A and B, the product, split-K's sum. Each starts when the one
 * before has ended, and the time between them (the last CTA's exit, the
 * next grid's launch) adds to the call. A kernel launched with the
 * programmatic-stream-serialization attribute (pdl_launch_attr) may be
 * launched while the grid before it on the stream is still running; it
 * must then execute griddepcontrol.wait (pdl_wait) before it reads
 * anything that grid writes, and the wait returns once that grid has
 * finished and its writes are visible (PTX ISA, "griddepcontrol"; CUDA C++
 * Programming Guide, "Programmatic Dependent Launch"). None of the
 * library's kernels executes griddepcontrol.launch_dependents, so the next
 * grid's CTAs still start after the last CTA before them: what the
 * attribute saves is the launch's own latency (split_k.cu's header and
 * gemm/tuning/splitsum-h200 have the measured figures). The kernels that
 * are launched so call pdl_wait first, before any load; where the kernel
 * was launched without the attribute, the wait returns at once. */
__device__ __forceinline__ void pdl_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
/* The attribute, for cudaLaunchKernelEx's attribute list. */
inline cudaLaunchAttribute pdl_launch_attr()
{
    cudaLaunchAttribute a;
    memset(&a, 0, sizeof(a));
    a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    a.val.programmaticStreamSerializationAllowed = 1;
    return a;
}
/* Whether the current device takes it (compute capability 9.0 or later);
 * false where asking fails. */
inline bool pdl_supported()
{
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return false;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return false;
    return major >= 9;
}
/* Launch kernel<<<grid, block, smem, stream>>>(args...), with the attribute
 * where `pdl` (the kernel must begin with pdl_wait()). */
template <typename... KArgs, typename... Args>
cudaError_t launch_pdl(bool pdl, void (*kernel)(KArgs...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                       Args... args)
{
    cudaLaunchAttribute attr = pdl_launch_attr();
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = pdl ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, kernel, static_cast<KArgs>(args)...);
}

/* Variants 1-5: their kernels take (m, n, k, tiles_n, alpha, a, lda, b, ldb,
 * beta, c, ldc) and block b computes tile (b / tiles_n, b % tiles_n) of the
 * 1-D grid of bm x bn tiles. No dynamic shared memory, no attribute set:
 * nothing a concurrent call could see. */
template <typename Kernel>
cudaError_t launch_tiles(Kernel kernel, unsigned bm, unsigned bn, dim3 threads, size_t m, size_t n, size_t k,
                         float alpha, const float *a, size_t lda, const float *b, size_t ldb, float beta, float *c,
                         size_t ldc, cudaStream_t stream)
{
    const size_t blocks = grid_blocks(m, n, bm, bn); /* 0: more than 2^31 - 1 tiles */
    if (blocks == 0) return cudaErrorInvalidConfiguration;
    kernel<<<(unsigned)blocks, threads, 0, stream>>>((unsigned)m, (unsigned)n, (unsigned)k, (unsigned)ceil_div(n, bn),
                                                     alpha, a, lda, b, ldb, beta, c, ldc);
    return cudaGetLastError();
}

/* Every row of a matrix starts on a 16-byte boundary: the base pointer is
 * 16-byte aligned and a row is a whole number of float4s. */
inline bool rows_aligned16(const void *p, size_t ld) { return (uintptr_t)p % 16 == 0 && ld % 4 == 0; }

/* Variants 6-9: their kernels take (m, n, k, alpha, a, lda, b, ldb, beta, c,
 * ldc, tiles_n), in two instantiations: vec (16-byte accesses, for a, b and
 * c whose rows all start 16-byte aligned) and scalar (any alignment). With
 * min_ptx > 0 the launcher refuses (cudaErrorNotSupported) a kernel image
 * compiled from PTX older than that (a build for older architectures only,
 * whose kernel body is empty). */
template <typename Kernel>
cudaError_t launch_tiles_vec(Kernel vec, Kernel scalar, int min_ptx, unsigned bm, unsigned bn, unsigned threads,
                             size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                             size_t ldb, float beta, float *c, size_t ldc, cudaStream_t stream)
{
    const size_t blocks = grid_blocks(m, n, bm, bn); /* 0: more than 2^31 - 1 tiles */
    if (blocks == 0) return cudaErrorInvalidConfiguration;
    const Kernel kernel =
        rows_aligned16(a, lda) && rows_aligned16(b, ldb) && rows_aligned16(c, ldc) ? vec : scalar;
    if (min_ptx > 0) {
        /* ptxVersion is the virtual architecture the kernel came from. */
        cudaFuncAttributes attr;
        const cudaError_t err = cudaFuncGetAttributes(&attr, kernel);
        if (err != cudaSuccess) return err;
        if (attr.ptxVersion < min_ptx) return cudaErrorNotSupported;
    }
    kernel<<<(unsigned)blocks, threads, 0, stream>>>((unsigned)m, (unsigned)n, (unsigned)k, alpha, a, lda, b, ldb,
                                                     beta, c, ldc, (unsigned)ceil_div(n, bn));
    return cudaGetLastError();
}

/* Tile t (0 .. tiles_m * tiles_n - 1) in the L2-friendly order of variant 11
 * on: groups of kGroupM tile rows, walked column by column inside a group
 * (cell in_group of a group is tile row in_group % rows, tile column
 * in_group / rows), so that the blocks running at one time share a few
 * rows of A and columns of B in L2. A bijection onto the tiles; (*bm, *bn)
 * is the tile's first row and column. */
template <unsigned kGroupM, unsigned kBM, unsigned kBN>
__device__ __forceinline__ void tile_origin(unsigned t, unsigned tiles_m, unsigned tiles_n, unsigned *bm,
                                            unsigned *bn)
{
    const unsigned long long group_tiles = (unsigned long long)kGroupM * tiles_n;
    const unsigned group = (unsigned)(t / group_tiles);
    const unsigned first_m = group * kGroupM;
    const unsigned rows_in_group = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
    const unsigned in_group = (unsigned)(t - group * group_tiles);
    *bm = (first_m + in_group % rows_in_group) * kBM;
    *bn = (in_group / rows_in_group) * kBN;
}

/* ---- The FP32 epilogue and 16-byte accesses -------------------------------- */
/* C = alpha * acc + beta * C. With beta == 0 C is not read at all, so a NaN
 * (or garbage) already in C cannot leak into the result. */
__device__ __forceinline__ void store_c(float *c, float acc, float alpha, float beta)
{
    *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}
/* gk_gemm_ex's epilogue in fp32 (kEpi: 0 none, 1 bias, 2 bias + ReLU, 3 bias
 * + GELU), defined below with the 16-bit stores. */
template <int kEpi> __device__ __forceinline__ float epilogue_apply(float v, float bias);
/* store_c, then the epilogue with this column's bias, before the one store. */
template <int kEpi> __device__ __forceinline__ void store_c_epi(float *c, float acc, float alpha, float beta, float bias)
{
    const float v = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
    *c = epilogue_apply<kEpi>(v, bias);
}

/* Elements (r, col .. col + 3) of a rows x cols row-major matrix, zero
 * outside it. kVec: rows are 16-byte aligned and col is a multiple of 4, so
 * a float4 that lies wholly inside is one 16-byte load. */
template <bool kVec>
__device__ float4 load4(const float *__restrict__ p, size_t ld, unsigned r, unsigned col, unsigned rows,
                        unsigned cols)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (r >= rows) return v;
    const float *src = p + (size_t)r * ld + col;
    if (kVec && col + 4 <= cols) return *reinterpret_cast<const float4 *>(src);
    if (col < cols) v.x = src[0];
    if (col + 1 < cols) v.y = src[1];
    if (col + 2 < cols) v.z = src[2];
    if (col + 3 < cols) v.w = src[3];
    return v;
}

/* C(r, col .. col + 3) = alpha * acc + beta * C for the columns inside the
 * n columns of C; with beta == 0 the old C is never read (a NaN there must
 * not leak into the result). */
template <bool kVec>
__device__ void store4(float *__restrict__ c, size_t ldc, unsigned r, unsigned col, unsigned n, float4 acc,
                       float alpha, float beta)
{
    float *dst = c + (size_t)r * ldc + col;
    if (kVec && col + 4 <= n) {
        float4 v = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);
        if (beta != 0.0f) {
            const float4 old = *reinterpret_cast<const float4 *>(dst);
            v.x += beta * old.x;
            v.y += beta * old.y;
            v.z += beta * old.z;
            v.w += beta * old.w;
        }
        *reinterpret_cast<float4 *>(dst) = v;
        return;
    }
    const float vals[4] = {acc.x, acc.y, acc.z, acc.w};
#pragma unroll
    for (unsigned e = 0; e < 4; ++e)
        if (col + e < n) store_c(&dst[e], vals[e], alpha, beta);
}

/* A thread's kM x kN accumulators set to 0 (in registers: every index is a
 * compile-time constant). */
template <unsigned kM, unsigned kN> __device__ __forceinline__ void zero_acc(float (&acc)[kM][kN])
{
#pragma unroll
    for (unsigned i = 0; i < kM; ++i)
#pragma unroll
        for (unsigned j = 0; j < kN; ++j) acc[i][j] = 0.0f;
}
/* f[0 .. 3] = v: one float4 of a fragment into 4 registers (f points into
 * a register array indexed by compile-time constants). */
__device__ __forceinline__ void put4(float *f, float4 v)
{
    f[0] = v.x;
    f[1] = v.y;
    f[2] = v.z;
    f[3] = v.w;
}

/* acc += fa fb^T: the outer product of a thread's fragments, kM x kN FMAs
 * from kM + kN values (variant 5's register blocking). */
template <unsigned kM, unsigned kN>
__device__ __forceinline__ void fma_outer(float (&acc)[kM][kN], const float (&fa)[kM], const float (&fb)[kN])
{
#pragma unroll
    for (unsigned i = 0; i < kM; ++i)
#pragma unroll
        for (unsigned j = 0; j < kN; ++j) acc[i][j] += fa[i] * fb[j];
}

/* The epilogue of variants 8 and 9: a thread's results lie in 4 x 4 pieces,
 * acc[4 wm + i][4 wn + j] = C(row0 + kSubM wm + i, col0 + kSubN wn + j);
 * each row of a piece is one store4. Rows past m are skipped (store4
 * guards the columns); every element inside C is written, also when k = 0. */
template <bool kVec, unsigned kSubM, unsigned kSubN, unsigned kRows, unsigned kCols>
__device__ __forceinline__ void store_pieces(const float (&acc)[kRows][kCols], float *__restrict__ c, size_t ldc,
                                             unsigned m, unsigned n, unsigned row0, unsigned col0, float alpha,
                                             float beta)
{
#pragma unroll
    for (unsigned wm = 0; wm < kRows / 4; ++wm)
#pragma unroll
        for (unsigned i = 0; i < 4; ++i) {
            const unsigned r = row0 + wm * kSubM + i;
            if (r >= m) continue;
            const float *row_acc = acc[wm * 4 + i];
#pragma unroll
            for (unsigned wn = 0; wn < kCols / 4; ++wn)
                store4<kVec>(c, ldc, r, col0 + wn * kSubN, n,
                             make_float4(row_acc[wn * 4], row_acc[wn * 4 + 1], row_acc[wn * 4 + 2],
                                         row_acc[wn * 4 + 3]),
                             alpha, beta);
        }
}

/* ---- sm_80 asynchronous copies and mbarriers (PTX ISA: cp.async,
 * cp.async.mbarrier.arrive, mbarrier) ----------------------------------------
 * Shared-memory operands are 32-bit addresses in the shared window. */
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* 16-byte copy global -> shared that bypasses the registers (.cg: cached in
 * L2 only); it reads src_bytes (0 .. 16) bytes and fills the rest of the 16
 * with zeros, so src_bytes 0 reads nothing (src must still be a valid
 * address). */
__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, int src_bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
#endif
}
/* Closes this thread's group of copies issued since the last commit. */
__device__ __forceinline__ void cp_async_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/* Waits until at most N of this thread's committed groups are still in flight. */
template <int N> __device__ __forceinline__ void cp_async_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
/* 16 bytes from registers to shared memory (one STS.128). */
__device__ __forceinline__ void st_shared16(uint32_t dst, uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "r"(x), "r"(y), "r"(z), "r"(w)
                 : "memory");
}

/* ---- sm_80 tensor-core instructions (PTX ISA: ldmatrix, mma.m16n8k16) ---------------
 * Four 8x8 matrices of 16-bit elements from shared memory (lane 8i + j
 * names row j of matrix i, a 16-byte-aligned address; register i of every
 * lane receives matrix i: lane 4g + t holds row g, elements 2t and 2t + 1),
 * kTrans: each matrix transposed on the way (lane 4g + t then holds column
 * g, rows 2t and 2t + 1). Variants 13, 19 and 21. */
template <bool kTrans> __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (kTrans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
#endif
}
template <typename T> constexpr bool kIsBf16 = false;
template <> constexpr bool kIsBf16<__nv_bfloat16> = true;
/* d += A B: one mma.sync m16n8k16 with fp32 accumulators, A and B in T
 * (__nv_bfloat16 or __half). Fragments (lane = 4g + t, each register two
 * 16-bit elements, the lower index in the low half): a0 = A[g][2t..],
 * a1 = A[g + 8][2t..], a2 = A[g][2t + 8..], a3 = A[g + 8][2t + 8..];
 * b0 = B[2t..][g], b1 = B[2t + 8..][g]; d0, d1 = D[g][2t, 2t + 1], d2, d3 =
 * D[g + 8][2t, 2t + 1]. */
template <typename T>
__device__ __forceinline__ void mma16816(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                         uint32_t b0, uint32_t b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (kIsBf16<T>) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
#endif
}

/* fp32 -> TF32, rounded to nearest, ties away from zero (PTX
 * cvt.rna.tf32.f32: the low 13 bits become 0), and d += A B: one mma.sync
 * m16n8k8 of TF32 operands with fp32 accumulators. Fragments (lane = 4g +
 * t, one element per register): a0 = A[g][t], a1 = A[g + 8][t], a2 =
 * A[g][t + 4], a3 = A[g + 8][t + 4]; b0 = B[t][g], b1 = B[t + 4][g]; d as
 * mma16816's. Variants 11 and 21. */
__device__ __forceinline__ uint32_t to_tf32(float x)
{
    uint32_t r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#endif
    return r;
}
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

/* An mbarrier is a 64-bit object in shared memory. Each phase waits for a
 * number of arrivals (set at init) and, for the TMA (sm90.cuh), a number
 * of bytes (the transaction count: arrive.expect_tx adds to it, each
 * completed TMA byte subtracts); when both reach zero the phase completes
 * and the next begins. A waiter names the parity of the phase it waits for
 * (0, 1, 0, ...): the wait for parity P returns once the phase of parity P
 * has completed. */
__device__ __forceinline__ void mbar_init(uint32_t bar, unsigned count)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
#endif
}
/* One arrival, with release semantics: this thread's earlier memory
 * accesses are ordered before it for whoever waits on the phase. */
__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
#endif
}
/* One arrival that happens when all of this thread's earlier cp.async
 * copies have completed (.noinc: the arrival is one of the count the
 * barrier was initialized with, not an extra one). The thread goes on at
 * once. */
__device__ __forceinline__ void cp_async_mbar_arrive(uint32_t bar)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
#endif
}
/* Whether the phase of the given parity has completed (acquire semantics).
 * sm_90's try_wait suspends the thread for a while (a hardware time limit)
 * before it answers no; sm_80's test_wait answers at once. */
__device__ __forceinline__ bool mbar_try_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done = 1;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}\n"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}\n"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
#endif
    return done != 0;
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    while (!mbar_try_wait(bar, parity)) {
    }
}

/* ---- The BF16 ladder: slab layout, copy path, epilogue -----------------------
 * A block tile of kBM x kBN x kBK (kBK = 64: rows of 128 bytes) is held in
 * shared memory as slabs of 128-byte rows (8 chunks of 16 bytes), chunk q
 * of row r stored at chunk q ^ (r % 8), the 128-byte swizzle:
 *   A slab: kBM rows of kBK elements; (row r, chunk q) at byte
 *     r * 128 + 16 (q ^ (r % 8)).
 *   B slab: kBN / 64 panels of 64 columns, each kBK k-rows of 128 bytes;
 *     (k-row p, chunk q of the row of kBN columns) at byte
 *     (q / 8) * kBK * 128 + p * 128 + 16 ((q % 8) ^ (p % 8)).
 * Variant 13 reads it with ldmatrix, variants 14-17 with wgmma (whose
 * 128-byte-swizzled K-major A and N-major B it is), variants 15-17 also
 * receive it from the TMA. Bf16Slab's copy path fills it with kThreads
 * threads: 16-byte cp.async where a row allows it, else gathered chunks. */
template <int kBM, int kBN, int kBK, int kThreads> struct Bf16Slab {
    static_assert(kBK == 64, "rows of 128 bytes: the 128-byte swizzle");
    static_assert(kBN % 64 == 0, "B in panels of 64 columns");
    static constexpr int kAChunks = kBM * kBK / 8 / kThreads; /* 16-byte chunks per thread and k-tile */
    static constexpr int kBChunks = kBK * kBN / 8 / kThreads;
    static_assert(kAChunks * kThreads * 8 == kBM * kBK && kBChunks * kThreads * 8 == kBK * kBN,
                  "whole chunks per thread");
    static_assert(kThreads % 8 == 0 && kThreads % (kBN / 8) == 0, "a thread keeps one chunk column");

    __host__ __device__ static constexpr int a_offset(int r, int q) { return r * 128 + ((q ^ (r & 7)) << 4); }
    __host__ __device__ static constexpr int b_offset(int p, int q)
    {
        return (q >> 3) * (kBK * 128) + p * 128 + (((q & 7) ^ (p & 7)) << 4);
    }

    /* One 16-byte chunk gathered element by element: count (0..8) elements
     * of src[off ..] (the rest zeros), then one 16-byte shared store. Used
     * where a 16-byte cp.async cannot be: rows not 16-byte aligned, and
     * chunks that straddle the matrix's last column. */
    __device__ static __forceinline__ void gather_chunk(uint32_t dst, const unsigned short *src, size_t off,
                                                        int count)
    {
        uint32_t w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
        for (int e = 0; e < 8; ++e)
            if (e < count) w[e >> 1] |= (uint32_t)__ldg(src + off + e) << (16 * (e & 1));
        st_shared16(dst, w[0], w[1], w[2], w[3]);
    }

    /* Thread tid copies chunk column q = tid % 8 of A rows tid / 8 +
     * (kThreads / 8) i (i < kAChunks): consecutive threads read consecutive
     * 16 bytes of a row. A chunk covers columns col .. col + 7 of A: inside
     * when row < m and col + 8 <= k, outside (zeros) when row >= m or col
     * >= k, straddling otherwise. Issued, not waited for. */
    template <bool kVec>
    __device__ static __forceinline__ void load_a_tile(uint32_t as, const unsigned short *a, size_t lda, unsigned m,
                                                       unsigned k, unsigned bm, unsigned kt, int tid)
    {
        const int q = tid & 7, r0 = tid >> 3;
        const unsigned col = kt * kBK + 8 * q;
        const int count = col >= k ? 0 : (k - col < 8 ? (int)(k - col) : 8); /* elements of this chunk in A's row */
        if (kVec && (count == 8 || count == 0)) {
            /* The fast path, unrolled: every chunk of this thread is whole or
             * outside (one column for all its chunks). */
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
        /* Gathered chunks (unaligned rows, or this thread's column straddles
         * column k): a loop, one chunk's 8 loads in flight at a time, so that
         * its registers do not crowd out the accumulators. */
#pragma unroll 1
        for (int i = 0; i < kAChunks; ++i) {
            const int r = r0 + i * (kThreads / 8);
            const unsigned row = bm + r;
            gather_chunk(as + a_offset(r, q), a, (size_t)row * lda + col, row < m ? count : 0);
        }
    }
    /* Thread tid copies chunk column q = tid % (kBN / 8) of B's k rows
     * tid / (kBN / 8) + (kThreads / (kBN / 8)) i (i < kBChunks). */
    template <bool kVec>
    __device__ static __forceinline__ void load_b_tile(uint32_t bs, const unsigned short *b, size_t ldb, unsigned n,
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
    /* Both: k-tile kt of A into the slab at as, of B into the one at bs. */
    template <bool kAVec, bool kBVec>
    __device__ static __forceinline__ void load_tiles(uint32_t as, uint32_t bs, const unsigned short *a, size_t lda,
                                                      const unsigned short *b, size_t ldb, unsigned m, unsigned n,
                                                      unsigned k, unsigned bm, unsigned bn, unsigned kt, int tid)
    {
        load_a_tile<kAVec>(as, a, lda, m, k, bm, kt, tid);
        load_b_tile<kBVec>(bs, b, ldb, n, k, bn, kt, tid);
    }
};

/* ---- The epilogue: C's element type, gk_gemm_ex's epilogues ---------------
 * CElem<T> converts between fp32 and C's type T: a 16-bit one
 * (__nv_bfloat16 or __half) rounding to nearest even, or float as it is
 * (variant 21's TF32 products, split_k.cu); Pair is two adjacent elements,
 * one aligned access (4 bytes, or 8 for float). Epilogue kEpi (gk_gemm_epilogue's
 * values: 0 none, 1 bias, 2 bias + ReLU, 3 bias + GELU) is applied in fp32
 * to v = alpha acc + beta c_old before C's one rounding: x = v + bias[col],
 * then max(x, 0) (a NaN stays NaN), or GELU in its tanh form,
 * 0.5 x (1 + tanh(s)) with s = sqrt(2 / pi) (x + 0.044715 x^3), written as
 * x / (1 + 2^(-2 log2(e) s)) (the same function, since 1 + tanh(s) = 2 / (1
 * + e^(-2 s))), with the constants folded: -2 log2(e) s = x (c0 + c1 x^2),
 * c0 = -2 log2(e) sqrt(2 / pi), c1 = 0.044715 c0. Per value: 4 fp32
 * instructions (x^2, the FMA, the product, 1 + the power), ex2.approx and
 * rcp.approx (the SFU; tanhf's sequence is several times longer) and one
 * multiply. Their errors: ex2.approx's and rcp.approx's 2 ulps and 1 ulp
 * (PTX ISA), and the 3 roundings of the power's argument p, which the power
 * scales by |p| ln 2: at most 3 x 2^-24 x |p| ln 2 relative, below 2^-16
 * while |p| < 123 (beyond that the result is below 2^-123 |x|, zero in a
 * 16-bit C). So below 2^-16 of the result, far below a 16-bit rounding
 * (2^-8, 2^-11). For x -> -inf the power overflows to +inf and the
 * quotient is -0; for x -> +inf it is x. */
template <typename T> struct CElem;
template <> struct CElem<__nv_bfloat16> {
    __device__ static __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
    __device__ static __forceinline__ __nv_bfloat16 from_float(float x) { return __float2bfloat16_rn(x); }
    __device__ static __forceinline__ float2 to_float2(__nv_bfloat162 x) { return __bfloat1622float2(x); }
    __device__ static __forceinline__ __nv_bfloat162 from_float2(float lo, float hi)
    {
        return __floats2bfloat162_rn(lo, hi);
    }
    typedef __nv_bfloat162 Pair;
};
template <> struct CElem<__half> {
    __device__ static __forceinline__ float to_float(__half x) { return __half2float(x); }
    __device__ static __forceinline__ __half from_float(float x) { return __float2half_rn(x); }
    __device__ static __forceinline__ float2 to_float2(__half2 x) { return __half22float2(x); }
    __device__ static __forceinline__ __half2 from_float2(float lo, float hi) { return __floats2half2_rn(lo, hi); }
    typedef __half2 Pair;
};
template <> struct CElem<float> {
    __device__ static __forceinline__ float to_float(float x) { return x; }
    __device__ static __forceinline__ float from_float(float x) { return x; }
    __device__ static __forceinline__ float2 to_float2(float2 x) { return x; }
    __device__ static __forceinline__ float2 from_float2(float lo, float hi) { return make_float2(lo, hi); }
    typedef float2 Pair;
};

/* 2^x and 1 / x on the SFU (PTX ex2.approx.ftz.f32, rcp.approx.ftz.f32). */
__device__ __forceinline__ float fast_exp2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
__device__ __forceinline__ float fast_rcp(float x)
{
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

template <int kEpi> __device__ __forceinline__ float epilogue_apply(float v, float bias)
{
    if constexpr (kEpi == 0) {
        return v;
    } else {
        const float x = v + bias;
        if constexpr (kEpi == 2) return x < 0.0f ? 0.0f : x;
        if constexpr (kEpi == 3) {
            constexpr float c0 = -2.302208198144325f;  /* -2 log2(e) sqrt(2 / pi) */
            constexpr float c1 = -0.1029432393297272f; /* 0.044715 c0 */
            const float p = x * fmaf(x * x, c1, c0);   /* -2 log2(e) s */
            return x * fast_rcp(1.0f + fast_exp2(p));
        }
        return x;
    }
}

/* The bias of columns col and col + 1 (0 past n; nothing read for kEpi 0):
 * one 4-byte load when bias_vec (bias 4-byte aligned; col is even). */
template <int kEpi, typename T>
__device__ __forceinline__ float2 bias_pair(const T *__restrict__ bias, unsigned col, unsigned n, bool bias_vec)
{
    float2 r = make_float2(0.0f, 0.0f);
    if constexpr (kEpi != 0) {
        if (bias_vec && col + 2 <= n) {
            r = CElem<T>::to_float2(__ldg(reinterpret_cast<const typename CElem<T>::Pair *>(bias + col)));
        } else {
            if (col < n) r.x = CElem<T>::to_float(bias[col]);
            if (col + 1 < n) r.y = CElem<T>::to_float(bias[col + 1]);
        }
    }
    return r;
}

/* The same pair as its two 16-bit patterns (low half: column col), for a
 * caller that loads many pairs before it uses them; bias_unpack makes
 * bias_pair's float2 of it. */
template <int kEpi, typename T>
__device__ __forceinline__ uint32_t bias_bits(const T *__restrict__ bias, unsigned col, unsigned n, bool bias_vec)
{
    uint32_t r = 0u;
    if constexpr (kEpi != 0) {
        const unsigned short *const b16 = reinterpret_cast<const unsigned short *>(bias);
        if (bias_vec && col + 2 <= n) {
            r = __ldg(reinterpret_cast<const unsigned *>(b16 + col));
        } else {
            if (col < n) r = __ldg(b16 + col);
            if (col + 1 < n) r |= (uint32_t)__ldg(b16 + col + 1) << 16;
        }
    }
    return r;
}
template <typename T> __device__ __forceinline__ float2 bias_unpack(uint32_t bits)
{
    typename CElem<T>::Pair p;
    memcpy(&p, &bits, sizeof p);
    return CElem<T>::to_float2(p);
}

/* One element of C; beta == 0 never reads the old value (NaN there must not leak). */
template <int kEpi = 0, typename T = __nv_bfloat16>
__device__ __forceinline__ void store_one(T *p, float alpha, float v, float beta, float bias = 0.0f)
{
    const float r = beta == 0.0f ? alpha * v : alpha * v + beta * CElem<T>::to_float(*p);
    *p = CElem<T>::from_float(epilogue_apply<kEpi>(r, bias));
}
/* Columns col, col + 1 of one row: a 4-byte pair when allowed (c_vec: c
 * 4-byte aligned and ldc even, so that col even is an aligned pair). */
template <int kEpi = 0, typename T = __nv_bfloat16>
__device__ __forceinline__ void store_pair(T *crow, unsigned col, unsigned n, float alpha, float v0, float v1,
                                           float beta, bool c_vec, float2 bias = make_float2(0.0f, 0.0f))
{
    if (c_vec && col + 2 <= n) {
        typedef typename CElem<T>::Pair Pair;
        Pair *p = reinterpret_cast<Pair *>(crow + col);
        float r0 = alpha * v0, r1 = alpha * v1;
        if (beta != 0.0f) { /* only then is C read */
            const float2 o = CElem<T>::to_float2(*p);
            r0 += beta * o.x;
            r1 += beta * o.y;
        }
        *p = CElem<T>::from_float2(epilogue_apply<kEpi>(r0, bias.x), epilogue_apply<kEpi>(r1, bias.y));
    } else {
        if (col < n) store_one<kEpi>(crow + col, alpha, v0, beta, bias.x);
        if (col + 1 < n) store_one<kEpi>(crow + col + 1, alpha, v1, beta, bias.y);
    }
}
/* store_tile's way with a 16-bit C whose pairs are not all 4-byte aligned
 * (c_vec false: an odd ldc, or c 2 bytes off). Storing each element alone
 * would take two 2-byte stores per pair, each warp instruction writing 8
 * bytes into each of 8 sectors. Instead each row is stored in 4-byte words
 * that start where its own alignment allows: a row whose column bn lies
 * on a 4-byte boundary takes the pairs (col, col + 1) as they are; one
 * whose column bn lies 2 bytes past one takes the words (col - 1, col),
 * col = bn + 8j + 2t, the value of col - 1 coming from the lane to the left
 * (t - 1, same block) or, for t = 0, from lane 3's last value of block j -
 * 1, by two shuffles inside the row's group of 4 lanes. That leaves two
 * elements of the row's 2 kAcc columns alone: column bn (its left
 * neighbour belongs to the tile to the left) and the last column. Every
 * value is computed (alpha, beta C, bias, epilogue) in its own lane before
 * it moves and is rounded to T once, at the store; all lanes take part in
 * the shuffles, rows past m store nothing. The old C, with beta != 0, is
 * read one element at a time. */
template <int kAcc, int kEpi, typename T>
__device__ __forceinline__ void store_tile_realigned(const float (&d)[kAcc], T *c, size_t ldc, unsigned m,
                                                     unsigned n, unsigned row0, unsigned bn, int lane, float alpha,
                                                     float beta, const T *bias, bool bias_vec)
{
    typedef typename CElem<T>::Pair Pair;
    const int t = lane & 3;
    const int src_left = t == 0 ? lane : lane - 1; /* lane t - 1 of the group (t = 0: unused) */
    const int src_last = lane | 3;                 /* lane 3 of the group */
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const unsigned row = row0 + (unsigned)(lane >> 2) + 8u * (unsigned)h;
        const bool live = row < m;
        T *const crow = c + (size_t)(live ? row : 0u) * ldc;
        const bool shifted = ((uintptr_t)(crow + bn) & 2u) != 0; /* the same in the 4 lanes of a row */
        float last_prev = 0.0f; /* this lane's second value of block j - 1 */
#pragma unroll
        for (int j = 0; j < kAcc / 4; ++j) {
            const unsigned col = bn + 8u * (unsigned)j + 2u * (unsigned)t;
            const float2 b = bias_pair<kEpi>(bias, col, n, bias_vec);
            float r0 = alpha * d[4 * j + 2 * h], r1 = alpha * d[4 * j + 2 * h + 1];
            if (beta != 0.0f && live) { /* only then is C read */
                if (col < n) r0 += beta * CElem<T>::to_float(crow[col]);
                if (col + 1 < n) r1 += beta * CElem<T>::to_float(crow[col + 1]);
            }
            const float v0 = epilogue_apply<kEpi>(r0, b.x), v1 = epilogue_apply<kEpi>(r1, b.y);
            const float from_left = __shfl_sync(0xffffffffu, v1, src_left);       /* column col - 1, t > 0 */
            const float from_last = __shfl_sync(0xffffffffu, last_prev, src_last); /* column col - 1, t = 0 */
            last_prev = v1;
            if (!live) continue;
            if (!shifted) {
                if (col + 2 <= n)
                    *reinterpret_cast<Pair *>(crow + col) = CElem<T>::from_float2(v0, v1);
                else if (col < n)
                    crow[col] = CElem<T>::from_float(v0);
                continue;
            }
            const float left = t == 0 ? from_last : from_left;
            if (col == bn) {
                if (col < n) crow[col] = CElem<T>::from_float(v0);
            } else if (col < n) {
                *reinterpret_cast<Pair *>(crow + col - 1) = CElem<T>::from_float2(left, v0);
            } else if (col - 1 < n) {
                crow[col - 1] = CElem<T>::from_float(left);
            }
            if (t == 3 && j == kAcc / 4 - 1 && col + 1 < n) crow[col + 1] = CElem<T>::from_float(v1);
        }
    }
}

/* The 4 x 4 transpose of w across the 4 lanes of a quad (t = lane % 4):
 * afterwards lane t's w[i] is what lane i's w[t] was. Two steps of the
 * recursive block transpose: lanes t and t ^ 1 swap the off-diagonal
 * words of each 2 x 2 block, then lanes t and t ^ 2 the off-diagonal 2 x
 * 2 blocks; 4 shuffles, and selects instead of register indexing. All 32
 * lanes take part. */
__device__ __forceinline__ void quad_transpose(uint32_t (&w)[4], int t)
{
    const bool b1 = (t & 1) != 0, b2 = (t & 2) != 0;
#pragma unroll
    for (int c = 0; c < 4; c += 2) {
        const uint32_t y = __shfl_xor_sync(0xffffffffu, b1 ? w[c] : w[c + 1], 1);
        if (b1)
            w[c] = y;
        else
            w[c + 1] = y;
    }
    const uint32_t y0 = __shfl_xor_sync(0xffffffffu, b2 ? w[0] : w[2], 2);
    const uint32_t y1 = __shfl_xor_sync(0xffffffffu, b2 ? w[1] : w[3], 2);
    if (b2) {
        w[0] = y0;
        w[1] = y1;
    } else {
        w[2] = y0;
        w[3] = y1;
    }
}

/* A warp's 16 rows of its warpgroup's 64 x (2 kAcc) accumulator tile (the
 * wgmma m64nNk16 layout of variants 14-17), from registers:
 * d[4j + 2h + e] is C(row0 + g + 8h, bn + 8j + 2t + e), lane = 4g + t.
 * Rows past m are skipped, columns past n guarded by store_pair. With an
 * epilogue (kEpi != 0) each column's bias comes from global memory (L1)
 * once per row, beside the store. A 16-bit C whose pairs are not all
 * 4-byte aligned (c_vec false; warp-uniform) takes store_tile_realigned.
 *
 * The common case first, on its own short path: every column of the warp's
 * tile inside n, pairs of C (and of the bias) aligned, beta = 0 (all
 * warp-uniform). Each pair is computed as on the general path (the same
 * bits), without its bounds and beta tests. With a 16-bit C whose rows
 * are 16-byte aligned (c 16-byte aligned, ldc a multiple of 8), the 4 lanes
 * of a row (t = 0..3) then trade their pairs so that each holds 8
 * consecutive columns (quad_transpose), and store them with one 16-byte
 * store: a warp's store writes 64 contiguous bytes (two whole 32-byte
 * sectors) in each of 8 rows, where a 4-byte pair store writes 16 bytes,
 * half a sector, in each. On an H100 (cold L2; the 2 MB C of 1024 x 1024
 * x 64 BF16 from variant 23's 128 x 64 tiles) the pair stores took about
 * 2.5 us of that kernel's 7.4, the 16-byte stores 2.2 of 7.0
 * (gemm/tuning/tiles-h100/wgmma_fixed.txt). Variants 17 and 23 store
 * through the TMA instead where they can (sm90.cuh's store_tile_tma: 0.7
 * us there); this is their way when C is read (beta != 0) or its rows are
 * not TMA-addressable, and variant 21's. */
template <int kAcc, int kEpi = 0, typename T = __nv_bfloat16>
__device__ __forceinline__ void store_tile(const float (&d)[kAcc], T *c, size_t ldc, unsigned m, unsigned n,
                                           unsigned row0, unsigned bn, int lane, float alpha, float beta, bool c_vec,
                                           const T *bias = nullptr, bool bias_vec = false)
{
    typedef typename CElem<T>::Pair Pair;
    const int g = lane >> 2, t = lane & 3;
    if (c_vec && beta == 0.0f && (kEpi == 0 || bias_vec) && bn + 2u * (unsigned)kAcc <= n) {
        if constexpr (sizeof(T) == 2 && kAcc % 16 == 0) {
            if (((uintptr_t)c & 15u) == 0 && ldc % 8 == 0 && bn % 8 == 0) {
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const unsigned row = row0 + g + 8 * h;
                    T *const crow = c + (size_t)(row < m ? row : 0u) * ldc + bn;
#pragma unroll
                    for (int q = 0; q < kAcc / 16; ++q) { /* column blocks 4q .. 4q + 3 of 8 */
                        uint32_t w[4];
#pragma unroll
                        for (int i = 0; i < 4; ++i) {
                            const int j = 4 * q + i;
                            float2 b = make_float2(0.0f, 0.0f);
                            if constexpr (kEpi != 0)
                                b = CElem<T>::to_float2(__ldg(reinterpret_cast<const Pair *>(bias + bn + 8 * j + 2 * t)));
                            const Pair pr = CElem<T>::from_float2(epilogue_apply<kEpi>(alpha * d[4 * j + 2 * h], b.x),
                                                                  epilogue_apply<kEpi>(alpha * d[4 * j + 2 * h + 1], b.y));
                            memcpy(&w[i], &pr, 4);
                        }
                        quad_transpose(w, t);
                        if (row < m) /* block 4q + t of the row: columns 8 (4q + t) .. + 7 */
                            *reinterpret_cast<uint4 *>(crow + 8 * (4 * q + t)) = make_uint4(w[0], w[1], w[2], w[3]);
                    }
                }
                return;
            }
        }
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const unsigned row = row0 + g + 8 * h;
            if (row >= m) continue;
            T *const crow = c + (size_t)row * ldc + bn + 2 * t;
#pragma unroll
            for (int j = 0; j < kAcc / 4; ++j) {
                float2 b = make_float2(0.0f, 0.0f);
                if constexpr (kEpi != 0)
                    b = CElem<T>::to_float2(__ldg(reinterpret_cast<const Pair *>(bias + bn + 8 * j + 2 * t)));
                *reinterpret_cast<Pair *>(crow + 8 * j) =
                    CElem<T>::from_float2(epilogue_apply<kEpi>(alpha * d[4 * j + 2 * h], b.x),
                                          epilogue_apply<kEpi>(alpha * d[4 * j + 2 * h + 1], b.y));
            }
        }
        return;
    }
    if constexpr (sizeof(T) == 2) {
        if (!c_vec) {
            store_tile_realigned<kAcc, kEpi, T>(d, c, ldc, m, n, row0, bn, lane, alpha, beta, bias, bias_vec);
            return;
        }
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const unsigned row = row0 + g + 8 * h;
        if (row >= m) continue;
        T *const crow = c + (size_t)row * ldc;
#pragma unroll
        for (int j = 0; j < kAcc / 4; ++j) {
            const unsigned col = bn + 8 * j + 2 * t;
            store_pair<kEpi>(crow, col, n, alpha, d[4 * j + 2 * h], d[4 * j + 2 * h + 1], beta, c_vec,
                             bias_pair<kEpi>(bias, col, n, bias_vec));
        }
    }
}

/* A split product's partial tile (GK_GEMM_AUTO's split-K, gemm.c; variants
 * 17 and 21): alpha * d in fp32, from registers in store_tile's fragment
 * layout, float pairs (8 bytes) where c_vec (c 8-byte aligned, ldc and the
 * stride even: col is even, so the pair is aligned). Rows past m are
 * skipped, columns past n guarded. */
template <int kAcc>
__device__ __forceinline__ void store_partial(const float (&d)[kAcc], float *c, size_t ldc, unsigned m, unsigned n,
                                              unsigned row0, unsigned bn, int lane, float alpha, bool c_vec)
{
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const unsigned row = row0 + g + 8 * h;
        if (row >= m) continue;
        float *const crow = c + (size_t)row * ldc;
#pragma unroll
        for (int j = 0; j < kAcc / 4; ++j) {
            const unsigned col = bn + 8 * j + 2 * t;
            const float v0 = alpha * d[4 * j + 2 * h], v1 = alpha * d[4 * j + 2 * h + 1];
            if (c_vec && col + 2 <= n) {
                *reinterpret_cast<float2 *>(crow + col) = make_float2(v0, v1);
            } else {
                if (col < n) crow[col] = v0;
                if (col + 1 < n) crow[col + 1] = v1;
            }
        }
    }
}

/* ---- A transposed copy (the TF32 rungs' way to a K-major operand) ----------------
 * dst_z = src_z^T for z < count: src_z is rows x cols (row-major, leading
 * dimension ld_src, src + z * stride_src), dst_z cols x rows (ld_dst, dst +
 * z * stride_dst). The textbook tiled transpose (PMPP, chapter 6's corner
 * turning; NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++"): a block
 * of 32 x 8 threads moves 32 x 32 tiles through shared memory, reading rows
 * of src and writing rows of dst, both coalesced (128 bytes per warp
 * instruction); the tile's rows are padded to 33 floats, so that the
 * column reads hit 32 distinct banks. The tiles of all products are walked
 * grid-stride in one launch (size_t indices: any shape gk_gemm_ex takes). */
__global__ void __launch_bounds__(256) transpose_f32(const float *__restrict__ src, size_t ld_src, size_t stride_src,
                                                     float *__restrict__ dst, size_t ld_dst, size_t stride_dst,
                                                     size_t rows, size_t cols, size_t count)
{
    __shared__ float tile[32][33];
    const size_t tr = (rows + 31) / 32, tc = (cols + 31) / 32, per = tr * tc, total = per * count;
    const int x = threadIdx.x & 31, y = threadIdx.x >> 5;
    for (size_t t = blockIdx.x; t < total; t += gridDim.x) {
        const size_t z = t / per, in = t - z * per, r0 = (in / tc) * 32, c0 = (in % tc) * 32;
        const float *s = src + z * stride_src;
        float *d = dst + z * stride_dst;
#pragma unroll
        for (int i = 0; i < 32; i += 8)
            if (r0 + y + i < rows && c0 + x < cols) tile[y + i][x] = s[(r0 + y + i) * ld_src + c0 + x];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < 32; i += 8)
            if (c0 + y + i < cols && r0 + x < rows) d[(c0 + y + i) * ld_dst + r0 + x] = tile[x][y + i];
        __syncthreads(); /* the tile is read before the next one overwrites it */
    }
}

/* The dense copy of an operand that a TF32 rung transposes: cols x rows of
 * it, rows padded to a multiple of 4 floats (16 bytes, what the TMA asks of
 * a row stride), one per product that reads its own (`count`: batch, or 1
 * when the operand is broadcast or batch = 1). */
struct TransposedCopy {
    size_t ld, stride, count, bytes; /* bytes: 0 when the size overflows 2^62 */
};
inline TransposedCopy transposed_copy(size_t rows, size_t cols, size_t batch, size_t stride)
{
    TransposedCopy t;
    t.ld = (rows + 3) & ~(size_t)3;
    t.count = batch > 1 && stride != 0 ? batch : 1;
    t.stride = t.count > 1 ? cols * t.ld : 0;
    const size_t limit = (size_t)1 << 62;
    const size_t per = cols == 0 || t.ld <= limit / 4 / cols ? 4 * cols * t.ld : limit;
    t.bytes = per < limit && (per == 0 || t.count <= limit / per) ? per * t.count : 0;
    return t;
}
/* Queue transpose_f32 for such a copy: about 16 blocks per SM (8 warps
 * each), never more than there are tiles. */
inline cudaError_t transpose_into(float *dst, const TransposedCopy &t, const float *src, size_t ld_src,
                                  size_t stride_src, size_t rows, size_t cols, int dev, cudaStream_t stream)
{
    int sms = 0;
    const cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    const size_t tiles = ((rows + 31) / 32) * ((cols + 31) / 32) * t.count, cap = (size_t)sms * 16;
    const unsigned blocks = (unsigned)(tiles < cap ? tiles : cap);
    if (blocks == 0) return cudaSuccess;
    transpose_f32<<<blocks, 256, 0, stream>>>(src, ld_src, t.count > 1 ? stride_src : 0, dst, t.ld, t.stride, rows,
                                             cols, t.count);
    return cudaGetLastError();
}

/* ---- A padded copy (rows the TMA can address) -------------------------------
 * The TMA reads a matrix whose row stride (and a batch's product stride)
 * is a multiple of 16 bytes (CUDA Driver API, cuTensorMapEncodeTiled). An
 * operand stored with another leading dimension (an odd lda of 16-bit
 * elements, say) is first copied, as stored (same orientation), into the
 * workspace with rows padded to 16 bytes: one read and one write of the
 * operand, about 2 (m k + k n) elements of traffic for A and B against the
 * product's 2 m n k flops, so it pays where m and n are large (variants 17
 * and 23; their headers give the measured cost). A row of the copy is
 * whole 16-byte units of E-byte elements (V = 16 / E of them); a thread
 * makes one unit from V element loads (the source row is only
 * element-aligned) and stores it in one 16-byte store. The padding past
 * the last column is written with zeros, never read (the tensor map's
 * width is the real one). A block walks one row (gridDim.y rows apart),
 * its threads the row's units: no division per element. */
template <typename E>
__global__ void __launch_bounds__(128) pad_rows(const E *__restrict__ src, size_t ld_src, size_t stride_src,
                                                E *__restrict__ dst, size_t ld_dst, size_t stride_dst, size_t rows,
                                                size_t cols, size_t count)
{
    pdl_wait(); /* launched with the attribute on sm_90 (pad_into): the grid before may still be running */
    constexpr unsigned V = 16 / sizeof(E);
    const size_t units = (cols + V - 1) / V, all_rows = rows * count;
    for (size_t rz = blockIdx.y; rz < all_rows; rz += gridDim.y) {
        const size_t z = rz / rows, r = rz - z * rows;
        const E *s = src + z * stride_src + r * ld_src;
        E *d = dst + z * stride_dst + r * ld_dst;
        for (size_t u = (size_t)blockIdx.x * blockDim.x + threadIdx.x; u < units; u += (size_t)gridDim.x * blockDim.x) {
            const size_t c0 = u * V;
            union {
                uint4 v;
                E e[V];
            } w;
            if (c0 + V <= cols) {
#pragma unroll
                for (unsigned i = 0; i < V; ++i) w.e[i] = s[c0 + i];
            } else {
#pragma unroll
                for (unsigned i = 0; i < V; ++i) w.e[i] = c0 + i < cols ? s[c0 + i] : (E)0;
            }
            *reinterpret_cast<uint4 *>(d + c0) = w.v;
        }
    }
}

/* The plan of one operand's padded copy: whether it needs one (its rows,
 * or a batch's product stride, not whole 16-byte units), the copy's
 * leading dimension and product stride (elements), how many products it
 * holds (batch where the operand has one per product, else 1) and its
 * bytes rounded up to 256 (0: no copy; (size_t)-1: 2^62 bytes or more).
 * It depends on the description only, never on where the operand starts
 * (a base off 16 bytes is the launcher's own affair). */
struct PaddedCopy {
    bool needed;
    size_t ld, stride, count, bytes;
};
inline PaddedCopy padded_copy(size_t rows, size_t cols, size_t ld, size_t batch, size_t stride, size_t elem)
{
    PaddedCopy p = {false, ld, stride, 1, 0};
    const bool batched = batch > 1 && stride != 0;
    if ((ld * elem) % 16 == 0 && (!batched || (stride * elem) % 16 == 0)) return p;
    const size_t per_unit = 16 / elem, limit = (size_t)1 << 62;
    p.needed = true;
    p.ld = (cols + per_unit - 1) / per_unit * per_unit;
    p.count = batched ? batch : 1;
    p.stride = batched ? rows * p.ld : 0;
    const size_t per = rows == 0 || p.ld <= limit / elem / rows ? rows * p.ld * elem : limit;
    if (per >= limit || (per != 0 && p.count > limit / per)) {
        p.bytes = (size_t)-1;
        return p;
    }
    p.bytes = (per * p.count + 255) / 256 * 256;
    return p;
}
/* The scratch of A's and B's copies, A's first (B's from the next
 * 256-byte boundary): (size_t)-1 at 2^62 bytes or more. */
inline size_t padded_pair_bytes(const PaddedCopy &pa, const PaddedCopy &pb)
{
    if (pa.bytes == (size_t)-1 || pb.bytes == (size_t)-1 || pa.bytes + pb.bytes >= ((size_t)1 << 62))
        return (size_t)-1;
    return pa.bytes + pb.bytes;
}
/* Queue pad_rows for a copy planned by padded_copy: 128-thread blocks
 * along a row (at most 4), rows over gridDim.y (at most 65535); a
 * programmatic dependent launch on sm_90 (above). */
template <typename E>
inline cudaError_t pad_into(E *dst, const PaddedCopy &p, const E *src, size_t ld_src, size_t stride_src, size_t rows,
                            size_t cols, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    const size_t units = (cols + 16 / sizeof(E) - 1) / (16 / sizeof(E)), all_rows = rows * p.count;
    const size_t bx = (units + 127) / 128;
    dim3 grid((unsigned)(bx < 4 ? bx : 4), (unsigned)(all_rows < 65535 ? all_rows : 65535));
    const cudaError_t err = launch_pdl(pdl_supported(), pad_rows<E>, grid, dim3(128), 0, stream, src, ld_src,
                                       p.count > 1 ? stride_src : 0, dst, p.ld, p.stride, rows, cols, p.count);
    return err != cudaSuccess ? err : cudaGetLastError();
}

/* The padded copies of a 16-bit product's A and B as stored (A k x m when
 * op_a = T, else m x k; B n x k when op_b = T, else k x n), for the TMA
 * rungs 17 and 23: none with k = 0 (nothing is read). */
struct PaddedPair {
    PaddedCopy a, b;
    size_t bytes; /* A's copy, then B's; (size_t)-1 at 2^62 bytes or more */
};
inline PaddedPair padded_pair16(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch, size_t stride_a,
                                size_t stride_b, size_t lda, size_t ldb)
{
    PaddedPair p;
    p.a = padded_copy(op_a ? k : m, op_a ? m : k, lda, batch, stride_a, 2);
    p.b = padded_copy(op_b ? n : k, op_b ? k : n, ldb, batch, stride_b, 2);
    if (k == 0 || m == 0 || n == 0) p.a.needed = p.b.needed = false, p.a.bytes = p.b.bytes = 0;
    p.bytes = padded_pair_bytes(p.a, p.b);
    return p;
}
/* Make the copies that padded_pair16 plans into the workspace (A's at its
 * start, B's after it) and point a, b, their leading dimensions and
 * strides at them. Nothing where no copy is needed. */
inline cudaError_t pad_pair16(const PaddedPair &p, int op_a, int op_b, size_t m, size_t n, size_t k, void *workspace,
                              const void **a, size_t *lda, size_t *stride_a, const void **b, size_t *ldb,
                              size_t *stride_b, cudaStream_t stream)
{
    typedef unsigned short E;
    if (p.a.needed) {
        E *dst = static_cast<E *>(workspace);
        const cudaError_t err = pad_into<E>(dst, p.a, static_cast<const E *>(*a), *lda, *stride_a, op_a ? k : m,
                                            op_a ? m : k, stream);
        if (err != cudaSuccess) return err;
        *a = dst, *lda = p.a.ld, *stride_a = p.a.stride;
    }
    if (p.b.needed) {
        E *dst = reinterpret_cast<E *>(static_cast<unsigned char *>(workspace) + p.a.bytes);
        const cudaError_t err = pad_into<E>(dst, p.b, static_cast<const E *>(*b), *ldb, *stride_b, op_b ? n : k,
                                            op_b ? k : n, stream);
        if (err != cudaSuccess) return err;
        *b = dst, *ldb = p.b.ld, *stride_b = p.b.stride;
    }
    return cudaSuccess;
}


/* ---- The 64 x 64 tiles of variants 21 and 22 --------------------------------
 * A CTA of 128 threads computes a 64 x 64 tile of C; each operand's k-tile
 * (128 bytes of a K-major row: 64 16-bit elements or 32 floats) sits in
 * shared memory in its stored orientation, padded to 9,216 bytes, in 3
 * cp.async stages (rows of whole 16-byte units) or 2 stages filled through
 * registers (any rows): the copies, the k-loop (mainloop) and the launch.
 * What a k-tile computes, and the epilogue, are each variant's own. */
namespace tiles64 {

constexpr int kBM = 64, kBN = 64;  /* the CTA's tile of C */
constexpr int kThreads = 128;      /* 4 warps */
constexpr int kTileBytes = 9216;   /* one operand's k-tile in shared memory, padded (every type and orientation) */
constexpr int kStageBytes = 2 * kTileBytes; /* A and B: 18,432 */
constexpr int kAsyncStages = 3, kRegStages = 2;
constexpr int kChunks = 8192 / 16 / kThreads; /* 16-byte chunks per thread, operand and k-tile: 4 */
static_assert(kAsyncStages * kStageBytes <= 227 * 1024 / 4, "4 CTAs per SM");

/* T's k-tile: 128 bytes of a K-major row (64 bf16 or f16 elements, 32
 * floats), and the bits a copy moves per element. */
template <typename T> struct Geo {
    static constexpr int kE = (int)sizeof(T);
    static constexpr int kBK = 128 / kE;
    static constexpr int kPerChunk = 16 / kE;
};
template <typename T> struct Bits { typedef unsigned short type; };
template <> struct Bits<float> { typedef unsigned type; };

/* One operand's k-tile in shared memory, in its stored orientation:
 * K-major (rows along m or n, k contiguous) 64 rows of kBK elements, or
 * MN-major (rows along k) kBK rows of 64; each row padded by kPad elements
 * (16 bytes, 32 for an MN-major float tile: see ktile_tf32). */
template <typename T, bool kKMajor> struct Tile {
    static constexpr int kE = Geo<T>::kE;
    static constexpr int kRows = kKMajor ? 64 : Geo<T>::kBK;
    static constexpr int kCols = kKMajor ? Geo<T>::kBK : 64;
    static constexpr int kPad = kE == 4 && !kKMajor ? 8 : 16 / kE;
    static constexpr int kPitch = kCols + kPad;         /* elements per row */
    static constexpr int kRowChunks = kCols * kE / 16;  /* 16-byte chunks per row: 8, or 16 (MN-major float) */
    static constexpr int kRowStep = kThreads / kRowChunks; /* rows one pass of the CTA's chunks covers */
    static_assert(kRows * kPitch * kE == kTileBytes && (kPitch * kE) % 16 == 0, "every tile is 9,216 bytes");
    static_assert(kRows * kRowChunks == kChunks * kThreads, "4 chunks per thread");
};

struct Params {
    const void *a, *b;
    void *c;
    const void *bias;
    size_t lda, ldb, ldc, stride_a, stride_b, stride_c;
    size_t units; /* tiles_m tiles_n batch (split-K: tiles_m tiles_n splits) */
    unsigned m, n, k, tiles_n, tiles;
    unsigned kt_per; /* split-K: product z is slice z, k-tiles z kt_per ..; 0: all */
    float alpha, beta;
    int epi;
    bool c_vec, bias_vec;
    bool c_vec4; /* C's rows (every product's) are whole 16-byte units: variant 22's float4 stores */
};

/* A k-tile of a stored operand: rows r0 .. (below `rows`) by columns c0 ..
 * (below `cols`, the contiguous dimension). */
template <typename T> struct View {
    const typename Bits<T>::type *src;
    size_t ld;
    unsigned rows, cols, r0, c0;
};
/* A's (kT: stored k x m) and B's (kT: stored n x k) k-tile kt at (bm, bn). */
template <typename T, bool kT>
__device__ __forceinline__ View<T> a_view(const typename Bits<T>::type *a, const Params &p, unsigned bm, unsigned kt)
{
    constexpr unsigned kBK = Geo<T>::kBK;
    return kT ? View<T>{a, p.lda, p.k, p.m, kt * kBK, bm} : View<T>{a, p.lda, p.m, p.k, bm, kt * kBK};
}
template <typename T, bool kT>
__device__ __forceinline__ View<T> b_view(const typename Bits<T>::type *b, const Params &p, unsigned bn, unsigned kt)
{
    constexpr unsigned kBK = Geo<T>::kBK;
    return kT ? View<T>{b, p.ldb, p.n, p.k, bn, kt * kBK} : View<T>{b, p.ldb, p.k, p.n, kt * kBK, bn};
}

/* Thread t copies chunk column t % R (R = the row's chunks) of the tile
 * rows t / R + (128 / R) c, c = 0 .. 3: eight threads read 128 bytes of
 * one row. */
template <typename T, bool kKMajor> __device__ __forceinline__ uint32_t chunk_dst(uint32_t tile, int tid, int c)
{
    typedef Tile<T, kKMajor> L;
    return tile + (uint32_t)(((tid / L::kRowChunks) + L::kRowStep * c) * L::kPitch * L::kE +
                             16 * (tid % L::kRowChunks));
}
/* 16-byte rows: cp.async with zero fill (src_bytes 0 .. 16). */
template <typename T, bool kKMajor> __device__ __forceinline__ void copy_async(uint32_t tile, const View<T> &v, int tid)
{
    typedef Tile<T, kKMajor> L;
    constexpr unsigned kPer = Geo<T>::kPerChunk;
    const unsigned col = v.c0 + kPer * (unsigned)(tid % L::kRowChunks);
    const int bytes = col >= v.cols ? 0 : (v.cols - col >= kPer ? 16 : L::kE * (int)(v.cols - col));
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        const unsigned row = v.r0 + (unsigned)(tid / L::kRowChunks) + (unsigned)L::kRowStep * c;
        const bool in = row < v.rows && bytes > 0;
        cp_async16(chunk_dst<T, kKMajor>(tile, tid, c), in ? v.src + (size_t)row * v.ld + col : v.src,
                   in ? bytes : 0);
    }
}
/* Any rows: the thread's 4 chunks element by element into registers (16-bit
 * elements two per word, the lower column in the low half), zeros outside. */
template <typename T, bool kKMajor>
__device__ __forceinline__ void load_regs(uint32_t (&x)[kChunks][4], const View<T> &v, int tid)
{
    typedef Tile<T, kKMajor> L;
    constexpr int kPer = Geo<T>::kPerChunk;
    const unsigned col = v.c0 + (unsigned)kPer * (unsigned)(tid % L::kRowChunks);
    const int count = col >= v.cols ? 0 : (v.cols - col >= (unsigned)kPer ? kPer : (int)(v.cols - col));
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
        const unsigned row = v.r0 + (unsigned)(tid / L::kRowChunks) + (unsigned)L::kRowStep * c;
        const int cnt = row < v.rows ? count : 0;
        const typename Bits<T>::type *p = v.src + (row < v.rows ? (size_t)row * v.ld + col : 0);
#pragma unroll
        for (int w = 0; w < 4; ++w) {
            if constexpr (L::kE == 4) {
                x[c][w] = w < cnt ? __ldg(p + w) : 0u;
            } else {
                const uint32_t lo = 2 * w < cnt ? __ldg(p + 2 * w) : 0u;
                const uint32_t hi = 2 * w + 1 < cnt ? __ldg(p + 2 * w + 1) : 0u;
                x[c][w] = lo | (hi << 16);
            }
        }
    }
}
template <typename T, bool kKMajor>
__device__ __forceinline__ void store_regs(uint32_t tile, const uint32_t (&x)[kChunks][4], int tid)
{
#pragma unroll
    for (int c = 0; c < kChunks; ++c)
        st_shared16(chunk_dst<T, kKMajor>(tile, tid, c), x[c][0], x[c][1], x[c][2], x[c][3]);
}


/* Unit u of the grid (a tile of one product, or of one slice of k in a
 * split), and its k-tiles kt0 .. kt0 + nkt - 1: all of them, or slice z's
 * (kSplit; the launcher makes every slice non-empty). */
struct Unit {
    size_t z;
    unsigned bm, bn, kt0, nkt;
};
template <typename T, bool kSplit> __device__ __forceinline__ Unit unit_of(const Params &p, size_t u)
{
    constexpr unsigned kBK = Geo<T>::kBK;
    const unsigned ktiles = (p.k + kBK - 1) / kBK;
    Unit w;
    w.z = u / p.tiles;
    const unsigned t = (unsigned)(u - w.z * p.tiles);
    w.bm = t / p.tiles_n * kBM, w.bn = t % p.tiles_n * kBN;
    w.kt0 = 0, w.nkt = ktiles;
    if (kSplit && p.kt_per != 0) {
        w.kt0 = (unsigned)w.z * p.kt_per;
        w.nkt = ktiles - w.kt0 < p.kt_per ? ktiles - w.kt0 : p.kt_per;
    }
    return w;
}

/* The k-loop of one unit: every k-tile of A (K-major unless kAT) and B
 * (K-major when kBT) lands in a stage of shared memory at s0, and
 * body(stage) computes from it (stage s: bytes s kStageBytes on, A's tile
 * first, then B's at + kTileBytes).
 *   kAsync (rows of whole 16-byte units): stages kt % 3, k-tiles kt + 1
 *   and kt + 2 in flight by cp.async while kt is computed; one group per
 *   k-tile (empty past the last), so that wait_group 1 always means
 *   "k-tile kt has landed"; one barrier per k-tile.
 *   Otherwise: each thread loads the next k-tile's 8 chunks element by
 *   element into registers while body runs on the current one, then
 *   stores them into the other of 2 stages; one barrier per k-tile.
 * On return every warp is done with every stage (the next unit may refill
 * them). */
template <typename T, bool kAT, bool kBT, bool kAsync, class Body>
__device__ __forceinline__ void mainloop(const Params &p, const Unit &w, uint32_t s0, int tid, Body &&body)
{
    typedef typename Bits<T>::type U;
    const U *const a = static_cast<const U *>(p.a) + w.z * p.stride_a;
    const U *const b = static_cast<const U *>(p.b) + w.z * p.stride_b;
    const unsigned kt0 = w.kt0, nkt = w.nkt;
    if constexpr (kAsync) {
#pragma unroll
        for (int s = 0; s < kAsyncStages - 1; ++s) {
            if ((unsigned)s < nkt) {
                const uint32_t st = s0 + (uint32_t)(s * kStageBytes);
                copy_async<T, !kAT>(st, a_view<T, kAT>(a, p, w.bm, kt0 + s), tid);
                copy_async<T, kBT>(st + kTileBytes, b_view<T, kBT>(b, p, w.bn, kt0 + s), tid);
            }
            cp_async_commit();
        }
        for (unsigned kt = 0; kt < nkt; ++kt) {
            cp_async_wait<kAsyncStages - 2>();
            /* k-tile kt is visible to every warp, and every warp is done
             * with k-tile kt - 1, whose stage the copy below refills. */
            __syncthreads();
            const unsigned nk = kt + kAsyncStages - 1;
            if (nk < nkt) {
                const uint32_t st = s0 + (uint32_t)((nk % kAsyncStages) * kStageBytes);
                copy_async<T, !kAT>(st, a_view<T, kAT>(a, p, w.bm, kt0 + nk), tid);
                copy_async<T, kBT>(st + kTileBytes, b_view<T, kBT>(b, p, w.bn, kt0 + nk), tid);
            }
            cp_async_commit();
            body((int)(kt % kAsyncStages));
        }
        cp_async_wait<0>(); /* only empty groups remain; none may outlive the CTA */
        __syncthreads();    /* the last k-tile has no barrier after it */
    } else {
        uint32_t xa[kChunks][4], xb[kChunks][4];
        if (nkt > 0) {
            load_regs<T, !kAT>(xa, a_view<T, kAT>(a, p, w.bm, kt0), tid);
            load_regs<T, kBT>(xb, b_view<T, kBT>(b, p, w.bn, kt0), tid);
            store_regs<T, !kAT>(s0, xa, tid);
            store_regs<T, kBT>(s0 + kTileBytes, xb, tid);
            __syncthreads();
        }
        for (unsigned kt = 0; kt < nkt; ++kt) {
            /* The next k-tile's loads are in flight during this one's body. */
            const bool more = kt + 1 < nkt;
            if (more) {
                load_regs<T, !kAT>(xa, a_view<T, kAT>(a, p, w.bm, kt0 + kt + 1), tid);
                load_regs<T, kBT>(xb, b_view<T, kBT>(b, p, w.bn, kt0 + kt + 1), tid);
            }
            body((int)(kt & 1));
            if (more) {
                /* The other stage was last read in k-tile kt - 1, before
                 * the barrier that ended it. */
                const uint32_t nx = s0 + (uint32_t)(((kt + 1) & 1) * kStageBytes);
                store_regs<T, !kAT>(nx, xa, tid);
                store_regs<T, kBT>(nx + kTileBytes, xb, tid);
            }
            __syncthreads();
        }
    }
}

/* Every row of an operand (every product's) starts on a 16-byte boundary:
 * the base aligned, the leading dimension and stride whole 16-byte units
 * (per: elements in one). */
inline bool rows16(const void *p, size_t ld, size_t stride, bool batched, size_t per)
{
    return (uintptr_t)p % 16 == 0 && ld % per == 0 && (!batched || stride % per == 0);
}
inline size_t elem_bytes(int type) { return type == 0 ? 4 : 2; }

/* The fields both of a variant's entry points share, after the checks
 * that its 32-bit sizes hold them: cudaErrorNotSupported below compute
 * capability 8.0 (cp.async, ldmatrix, mma.sync), cudaErrorInvalidConfiguration
 * for sizes past 32 bits. */
inline cudaError_t init_params(Params &p, size_t m, size_t n, size_t k, const void *a, size_t lda, const void *b,
                               size_t ldb)
{
    cudaError_t err = require_cc(8);
    if (err != cudaSuccess) return err;
    if (m > 0xffffffffu || n > 0xffffffffu || k > 0xffffffffu - 64) return cudaErrorInvalidConfiguration;
    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0xffffffffu) return cudaErrorInvalidConfiguration;
    memset(&p, 0, sizeof p);
    p.a = a, p.b = b;
    p.lda = lda, p.ldb = ldb;
    p.m = (unsigned)m, p.n = (unsigned)n, p.k = (unsigned)k;
    p.tiles_n = (unsigned)tiles_n, p.tiles = (unsigned)(tiles_m * tiles_n);
    return cudaSuccess;
}
/* The rest of gk_gemm_ex's fields (gk_gemm_ex_run_fn's arguments; type 0
 * f32, 1 bf16, 2 f16: C's and the bias's element); true where every row of
 * A and B (every product's) is whole 16-byte units, the cp.async path. */
inline bool ex_params(Params &p, int type, size_t k, const void *a, size_t lda, size_t stride_a, const void *b,
                      size_t ldb, size_t stride_b, void *c, size_t ldc, size_t stride_c, size_t batch, float alpha,
                      float beta, int epilogue, const void *bias)
{
    const bool batched = batch > 1;
    const size_t e = elem_bytes(type);
    p.c = c;
    p.bias = bias;
    p.ldc = ldc;
    p.stride_a = batched ? stride_a : 0, p.stride_b = batched ? stride_b : 0, p.stride_c = batched ? stride_c : 0;
    p.units = (size_t)p.tiles * batch; /* gk_gemm_ex keeps m n batch below 2^62 */
    p.alpha = alpha, p.beta = beta;
    p.epi = epilogue;
    /* C and the bias as pairs (4 bytes, 8 for float) where every product's rows allow it. */
    p.c_vec = (uintptr_t)c % (2 * e) == 0 && ldc % 2 == 0 && p.stride_c % 2 == 0;
    p.c_vec4 = (uintptr_t)c % 16 == 0 && ldc % (16 / e) == 0 && p.stride_c % (16 / e) == 0;
    p.bias_vec = (uintptr_t)bias % (2 * e) == 0;
    return k > 0 && rows16(a, lda, stride_a, batched, 16 / e) && rows16(b, ldb, stride_b, batched, 16 / e);
}
/* A split's fields (gemm.c's split-K, gk_gemm_split_run_fn: init_params's,
 * then `splits` dense m x n fp32 slabs of partials, slice z = k-tiles z kc
 * / kBK ..); cudaErrorNotSupported where kc is not a whole number of
 * 64-deep units or the slices do not cover k exactly. */
inline cudaError_t split_params(Params &p, int type, size_t m, size_t n, size_t k, size_t kc, size_t splits,
                                const void *a, size_t lda, const void *b, size_t ldb, float *partials)
{
    cudaError_t err = init_params(p, m, n, k, a, lda, b, ldb);
    if (err != cudaSuccess) return err;
    if (splits > 0xffffffffu) return cudaErrorInvalidConfiguration;
    if (kc % 64 != 0 || kc == 0 || splits < 1 || (splits - 1) * kc >= k || splits * kc < k)
        return cudaErrorNotSupported;
    p.c = partials;
    p.ldc = p.n;
    p.stride_c = (size_t)p.m * p.n; /* slab z */
    p.units = (size_t)p.tiles * splits;
    p.kt_per = (unsigned)(kc / (128 / elem_bytes(type))); /* k-tiles of 128 bytes of a K-major row */
    p.alpha = 1.0f;
    p.c_vec = ((uintptr_t)partials & 7u) == 0 && p.n % 2 == 0;
    p.c_vec4 = ((uintptr_t)partials & 15u) == 0 && p.n % 4 == 0 && p.stride_c % 4 == 0;
    return cudaSuccess;
}
/* The cp.async path for a split (one product, A and B addressed whole). */
inline bool split_async(int type, const void *a, size_t lda, const void *b, size_t ldb)
{
    const size_t per = 16 / elem_bytes(type);
    return rows16(a, lda, 0, false, per) && rows16(b, ldb, 0, false, per);
}
/* One launch of `kernel` over p.units units (grid-stride past 2^31 - 1). */
template <class Kernel> cudaError_t launch_units(Kernel kernel, const Params &p, bool async, cudaStream_t stream)
{
    const int smem = (async ? kAsyncStages : kRegStages) * kStageBytes;
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess) return err;
    const size_t blocks = p.units < 0x7fffffffu ? p.units : 0x7fffffffu;
    kernel<<<(unsigned)blocks, kThreads, smem, stream>>>(p);
    return cudaGetLastError();
}

} // namespace tiles64

} // namespace

#endif /* GK_GEMM_KERNELS_COMMON_CUH */
