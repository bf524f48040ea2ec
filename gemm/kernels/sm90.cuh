/* gemm/kernels/sm90.cuh: the Hopper (compute capability 9.0) plumbing that
 * variants 11, 12 and 14-19 share, on top of common.cuh
 * (which it includes):
 *   - the PTX wrappers for the Tensor Memory Accelerator (TMA) and its
 *     transaction-counting mbarrier forms (sm_90: mbar_arrive_expect_tx,
 *     fence_mbarrier_init, prefetch_tensormap, tma_load_2d, also in its
 *     cluster-multicast form), the async-proxy fence, and the instructions
 *     that exist only for sm_90a (wgmma.fence / commit_group / wait_group,
 *     setmaxnreg);
 *   - clusters of CTAs (variants 17, 18 and 19): a CTA's rank and the
 *     cluster's size, the cluster-wide barrier, an arrival on the peer
 *     CTA's mbarrier, a float read in a peer CTA's shared memory;
 *   - the instructions of a TMA store epilogue (variants 17 and 18):
 *     stmatrix, the TMA store and its bulk groups, a pair of 16-bit values;
 *     and variants 17 and 23's epilogue made of them (store_tile_tma);
 *   - the ring of stages a TMA kernel keeps in shared memory (ring_layout,
 *     init_ring) and the stub that stands for a kernel in a build without
 *     sm_90a (sm90a_stub);
 *   - the wgmma matrix descriptor (make_desc), the accumulator fence, and
 *     variants 14-17's wgmma: the m64n256k16 instruction, the
 *     descriptors of common.cuh's Bf16Slab, one k-tile of a warpgroup;
 *   - bf16_tile: the block tile of variants 14-17, the tensor maps and the
 *     launch of variants 15 and 16, and variant 14's kernel, which
 *     variants 15 and 16 launch for the rows their TMA cannot address;
 *   - on the host: the lookup of cuTensorMapEncodeTiled (a driver function,
 *     reached through the runtime so that nothing links libcuda), the
 *     encoding of a 2-D tensor map, the TMA's alignment rule, the test that
 *     tells a real sm_90a kernel image from the stub (sm90a_image), and the
 *     size of a persistent grid (resident_grid) and the launch of one made of
 *     clusters (launch_clusters).
 *
 * sm_90a: wgmma and setmaxnreg are architecture-specific instructions of
 * compute capability 9.0; nvcc accepts them only when compiling for sm_90a,
 * where it defines __CUDA_ARCH_FEAT_SM90_ALL (GK_SM90A below is 1 there).
 * A kernel file that uses them guards its kernels with that macro: built
 * for sm_90a (gemm/CMakeLists.txt does so for the files that name the
 * macro, when the architectures include 90) it has the real kernels; built
 * for anything else it has stubs that its launcher recognizes
 * (sm90a_image) and reports as cudaErrorNotSupported. The wrappers below
 * are empty where their instruction does not exist; nothing calls them
 * there.
 *
 * Copy this file, common.cuh and the kernel file into one folder: they
 * need nothing else but the CUDA toolkit.
 */
#ifndef GK_GEMM_KERNELS_SM90_CUH
#define GK_GEMM_KERNELS_SM90_CUH

#include "common.cuh"

#include <cuda.h>         /* CUtensorMap and its enums: types only, nothing from libcuda is linked */
#include <cudaTypedefs.h> /* PFN_cuTensorMapEncodeTiled */

/* 1 in a device compilation for sm_90a, 0 elsewhere (the host pass too). */
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GK_SM90A 1
#else
#define GK_SM90A 0
#endif
/* 1 in a device compilation for sm_90 or later (the TMA exists). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GK_SM90 1
#else
#define GK_SM90 0
#endif

namespace {

/* ---- mbarrier transactions and the TMA (sm_90) ---------------------------- */
/* One arrival, and `bytes` more transactions expected in the current phase. */
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
#if GK_SM90
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
#endif
}
/* The initializations (generic-proxy writes) are made visible to the async
 * proxy, through which the TMA completes its transactions on the barriers. */
__device__ __forceinline__ void fence_mbarrier_init()
{
#if GK_SM90
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
/* Fetch the tensor map (a 128-byte kernel parameter) into the TMA unit's cache. */
__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap *map)
{
#if GK_SM90
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
#endif
}
/* The TMA copies the box of the tensor map at element coordinates (x: the
 * contiguous dimension, y: the rows) into shared memory at dst, swizzled as
 * the map says, zeros where the box leaves the matrix, and completes its
 * bytes on the mbarrier bar. One thread issues it; nothing else to wait for.
 * With cta_mask != 0 (a cluster launch), the multicast form: the box is
 * read from L2 once and written at the same shared-memory offset dst in
 * every CTA of the cluster named in cta_mask (bit r: the CTA of rank r),
 * and each CTA's mbarrier at the same offset bar receives the transactions
 * of its own copy. */
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar,
                                            uint16_t cta_mask = 0)
{
#if GK_SM90
    if (cta_mask == 0)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
                     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
                     : "memory");
    else
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
                     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar), "h"(cta_mask)
                     : "memory");
#endif
}
/* The same for a batch of matrices (a 3D tensor map: x, y as above, z the
 * matrix of the batch). */
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap *map, int x, int y, int z, uint32_t bar,
                                            uint16_t cta_mask = 0)
{
#if GK_SM90
    if (cta_mask == 0)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(dst),
                     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(z), "r"(bar)
                     : "memory");
    else
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     ".multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(dst),
                     "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(z), "r"(bar), "h"(cta_mask)
                     : "memory");
#endif
}
/* This thread's shared-memory writes (generic proxy: st.shared, cp.async)
 * become visible to the async proxy, through which wgmma and the TMA read. */
__device__ __forceinline__ void fence_proxy_async()
{
#if GK_SM90
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/* ---- Clusters (sm_90a): variants 17 and 18's pairs of CTAs, variant 19's k-split ---- */
/* This CTA's rank in its cluster (0 .. kCluster - 1; blockIdx.x % kCluster
 * for clusters laid along x). */
__device__ __forceinline__ unsigned cluster_ctarank()
{
    unsigned r = 0;
#if GK_SM90A
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
    return r;
}
/* The number of CTAs in this CTA's cluster (variant 19's runtime cluster size). */
__device__ __forceinline__ unsigned cluster_nctarank()
{
    unsigned r = 1;
#if GK_SM90A
    asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));
#endif
    return r;
}
/* The float at this CTA's shared-memory offset `addr`, read in the shared
 * memory of cluster CTA `cta` (distributed shared memory: mapa turns the
 * local offset into that CTA's shared::cluster address; variant 19's sum
 * of the cluster's partial tiles). */
__device__ __forceinline__ float ld_cluster_f32(uint32_t addr, unsigned cta)
{
    float v = 0.0f;
#if GK_SM90A
    asm volatile("{\n"
                 ".reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %1, %2;\n"
                 "ld.shared::cluster.f32 %0, [remote];\n"
                 "}\n"
                 : "=f"(v)
                 : "r"(addr), "r"(cta)
                 : "memory");
#endif
    return v;
}
/* Every thread of every CTA of the cluster arrives, then waits for all the
 * others: the release/acquire pair makes each thread's earlier writes
 * (mbarrier inits, remote arrivals) visible cluster-wide before anyone
 * passes. .aligned: all threads of a warp execute it together. */
__device__ __forceinline__ void cluster_sync()
{
#if GK_SM90A
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;\n" ::
                     : "memory");
#endif
}
/* One arrival on the mbarrier at this CTA's shared-memory offset bar, in the
 * shared memory of cluster CTA `cta`: mapa turns the local offset into that
 * CTA's shared::cluster address. The arrive has the default semantics
 * (release at CTA scope), and the producer's wait is mbar_wait's (acquire at
 * CTA scope): the warp's only accesses to the stage were its
 * wgmma's reads, through the async proxy, retired by wgmma.wait_group
 * before this arrival; the peer's producer overwrites the stage only with
 * the TMA, after its wait on the empty barrier that this arrival
 * completes. With .release.cluster here (and .acquire.cluster in the
 * producer's wait), ptxas puts a MEMBAR.ALL.GPU before every such arrive,
 * which waits for the warp's outstanding global stores (the previous
 * tile's epilogue) too: on the H200 (CUDA 13.0, 2026-11-23, register
 * epilogue, gemm/tuning/tensor-core-h200.txt) variant 17 then took 0.2601 ms
 * at 4096^3 against 0.1935 with the default semantics, 1.34 times as long
 * (cuBLAS BF16 in the same processes 0.1744 and 0.1724: 0.67x against
 * 0.89x). A remote arrive returns no state ("_"). */
__device__ __forceinline__ void mbar_arrive_remote(uint32_t bar, unsigned cta)
{
#if GK_SM90A
    asm volatile("{\n"
                 ".reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
                 "}\n" ::"r"(bar),
                 "r"(cta)
                 : "memory");
#endif
}

/* ---- Storing C through shared memory and the TMA (variants 17 and 18) ---------- */
/* Four 8 x 8 matrices of b16 from registers to shared memory: lane l gives
 * the address of row l % 8 of matrix l / 8, and register i of each lane
 * holds 2 consecutive elements of matrix i (row lane / 4, columns
 * 2 (lane % 4), + 1): the layout of an accumulator fragment. */
__device__ __forceinline__ void stmatrix_x4(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3)
{
#if GK_SM90A
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(r0), "r"(r1),
                 "r"(r2), "r"(r3)
                 : "memory");
#endif
}
__device__ __forceinline__ void bulk_commit()
{
#if GK_SM90A
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}
/* Wait until none of this thread's bulk groups still reads shared memory
 * (the buffer may be overwritten), or, for bulk_wait_all, until they are
 * complete (their global writes done). */
__device__ __forceinline__ void bulk_wait_read()
{
#if GK_SM90A
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void bulk_wait_all()
{
#if GK_SM90A
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
#endif
}
/* The TMA stores the box of the tensor map at (x, y, z) (z: the product of
 * a 3D map) from shared memory at src (swizzled as the map says); elements
 * outside the matrix are not written. Completion is tracked by the issuing
 * thread's bulk groups. */
__device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, uint32_t src, int x, int y, int z)
{
#if GK_SM90A
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];\n" ::"l"(
                     reinterpret_cast<uint64_t>(map)),
                 "r"(x), "r"(y), "r"(z), "r"(src)
                 : "memory");
#endif
}
/* Two fp32 values rounded to a 16-bit type T (common.cuh's CElem), as one 32-bit register. */
template <typename T> __device__ __forceinline__ uint32_t pack2(float lo, float hi)
{
    const typename CElem<T>::Pair v = CElem<T>::from_float2(lo, hi);
    return *reinterpret_cast<const uint32_t *>(&v);
}

/* The epilogue through shared memory and the TMA (variants 17 and 23): a
 * warp's 16 rows (row0 ..) of its warpgroup's 64 x 2 kAcc accumulator tile
 * (d in the wgmma m64nNk16 layout: d[4j + 2h + e] is C(row0 + g + 8h,
 * bn + 8j + 2t + e), lane = 4g + t), epilogue(alpha * d + bias) rounded to
 * C's 16-bit type, in passes of up to 128 columns (EpiTma<kAcc>::kPasses:
 * 1 for 64 or 128 columns, 2 for 256). Per pass: lane 0 waits until the
 * warp's previous TMA stores have read its buffer (kWarpBytes, 1024-byte
 * aligned); stmatrix.x4 (kPassCols / 16 per lane and pass: 4 or 8) writes the 16 rows
 * as boxes of 16 x 64 (128-byte rows, chunk q of row r at q ^ (r % 8): the
 * TMA's 128-byte swizzle; a matrix's 8 rows of 16 bytes then fall in 8
 * distinct chunks, all 32 banks); every lane fences its writes to the async
 * proxy (stmatrix writes through the generic proxy, the TMA reads through
 * the async one); lane 0 issues the pass's TMA stores (into product z of
 * C's 3D map, whose box is 64 columns x 16 rows) and commits them, and
 * the warp goes on without waiting for them. The TMA clips at m and n: no
 * bounds checks here. With an epilogue each lane first reads the bias of
 * its 2 columns of each 8-column block of the pass (bias_bits). Before the
 * CTA ends, lane 0 must wait for the stores (bulk_wait_all): they read its
 * shared memory. */
template <int kAcc> struct EpiTma {
    static constexpr int kRows = 16, kBoxCols = 64;                 /* C's box: a warp's rows, 128 bytes wide */
    static constexpr int kBoxBytes = kRows * kBoxCols * 2;          /* 2 KB */
    static constexpr int kCols = 2 * kAcc;                          /* a warp's columns */
    static constexpr int kPassCols = kCols < 128 ? kCols : 128;     /* 64 or 128 */
    static constexpr int kPasses = kCols / kPassCols;
    static constexpr int kWarpBytes = kRows * kPassCols * 2;        /* 2 or 4 KB */
    static_assert(kCols % 64 == 0 && kPasses * kPassCols == kCols, "whole boxes of 64 columns");
};
template <int kAcc, int kEpi, typename T>
__device__ __forceinline__ void store_tile_tma(const float (&d)[kAcc], const CUtensorMap *map_c, int z, uint32_t buf,
                                               unsigned m, unsigned n, unsigned row0, unsigned bn, int lane,
                                               float alpha, const T *bias, bool bias_vec)
{
    typedef EpiTma<kAcc> E;
    if (row0 >= m) return; /* the warp's rows lie below m: nothing to store */
    /* Lane l addresses row 8 (mi % 2) + l % 8 of matrix mi = l / 8, which is
     * column block j + mi / 2 (8 columns) of the pass. */
    const int mi = lane >> 3, r = 8 * (mi & 1) + (lane & 7);
    const unsigned tcol = bn + 2u * (unsigned)(lane & 3); /* this lane's columns in block j: tcol + 8 j, + 1 */
#pragma unroll
    for (int pass = 0; pass < E::kPasses; ++pass) {
        const unsigned x = bn + (unsigned)(pass * E::kPassCols);
        if (x >= n) break; /* warp-uniform: the rest of the tile lies right of n */
        /* The pass's bias first, all its loads in flight together: loaded
         * beside each stmatrix, whose asm orders it after the previous one,
         * they would wait one after another. */
        uint32_t bb[E::kPassCols / 8];
#pragma unroll
        for (int jb = 0; jb < E::kPassCols / 8; ++jb)
            bb[jb] = bias_bits<kEpi>(bias, tcol + 8u * (unsigned)(pass * (E::kPassCols / 8) + jb), n, bias_vec);
        if (lane == 0) bulk_wait_read();
        __syncwarp();
#pragma unroll
        for (int jj = 0; jj < E::kPassCols / 16; ++jj) {
            const int j = pass * (E::kPassCols / 8) + 2 * jj; /* column blocks j, j + 1 of the tile */
            const int jl = 2 * jj + (mi >> 1);                /* this lane's block within the pass */
            const uint32_t addr = buf + (uint32_t)((jl >> 3) * E::kBoxBytes + r * 128 + (((jl & 7) ^ (r & 7)) << 4));
            const float2 b0 = bias_unpack<T>(bb[2 * jj]), b1 = bias_unpack<T>(bb[2 * jj + 1]);
            stmatrix_x4(addr,
                        pack2<T>(epilogue_apply<kEpi>(alpha * d[4 * j], b0.x),
                                 epilogue_apply<kEpi>(alpha * d[4 * j + 1], b0.y)),
                        pack2<T>(epilogue_apply<kEpi>(alpha * d[4 * j + 2], b0.x),
                                 epilogue_apply<kEpi>(alpha * d[4 * j + 3], b0.y)),
                        pack2<T>(epilogue_apply<kEpi>(alpha * d[4 * j + 4], b1.x),
                                 epilogue_apply<kEpi>(alpha * d[4 * j + 5], b1.y)),
                        pack2<T>(epilogue_apply<kEpi>(alpha * d[4 * j + 6], b1.x),
                                 epilogue_apply<kEpi>(alpha * d[4 * j + 7], b1.y)));
        }
        fence_proxy_async();
        __syncwarp();
        if (lane == 0) {
#pragma unroll
            for (int bx = 0; bx < E::kPassCols / E::kBoxCols; ++bx)
                if (x + (unsigned)(bx * E::kBoxCols) < n)
                    tma_store_3d(map_c, buf + (uint32_t)(bx * E::kBoxBytes), (int)(x + bx * E::kBoxCols), (int)row0, z);
            bulk_commit();
        }
    }
}

/* Where a ring of kStages stages lies in dynamic shared memory: from the
 * first 1024-byte boundary (the swizzle atoms' alignment, which the TMA's
 * 128-byte swizzle follows too; the allocation holds 1024 bytes of slack),
 * kStages A slabs of kABytes, kStages B slabs of kBBytes, kExtraBytes of
 * the kernel's own (at extra), then kStages full barriers ("stage s holds
 * its k-tile") and kStages empty ones ("its readers are done with it"). */
struct Ring {
    uint32_t as0, bs0, extra, full0, empty0;
};
template <int kStages, int kABytes, int kBBytes, int kExtraBytes = 0>
__device__ __forceinline__ Ring ring_layout(const void *smem)
{
    Ring r;
    const uint32_t base = (smem_u32(smem) + 1023u) & ~1023u;
    r.as0 = base;
    r.bs0 = base + kStages * kABytes;
    r.extra = r.bs0 + kStages * kBBytes;
    r.full0 = r.extra + kExtraBytes;
    r.empty0 = r.full0 + 8 * kStages;
    return r;
}
/* Thread 0 initializes a ring's kStages full barriers (full_count arrivals
 * a phase) and empty barriers (empty_count), 8 bytes apart, and makes them
 * visible to the async proxy (the TMA completes its bytes on them). */
template <int kStages>
__device__ __forceinline__ void init_ring(uint32_t full0, uint32_t empty0, unsigned full_count, unsigned empty_count)
{
    for (int s = 0; s < kStages; ++s) {
        mbar_init(full0 + 8 * s, full_count);
        mbar_init(empty0 + 8 * s, empty_count);
    }
    fence_mbarrier_init();
}

/* ---- wgmma and setmaxnreg (sm_90a) ---------------------------------------- */
/* Orders this thread's earlier register writes (accumulators, register
 * fragments) before the asynchronous reads of the next wgmma. */
__device__ __forceinline__ void wgmma_fence()
{
#if GK_SM90A
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
/* Closes the group of this warpgroup's wgmma issued since the last commit. */
__device__ __forceinline__ void wgmma_commit()
{
#if GK_SM90A
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
/* Waits until at most N of this warpgroup's committed groups are running. */
template <int N> __device__ __forceinline__ void wgmma_wait()
{
#if GK_SM90A
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
/* setmaxnreg: the executing warpgroup gives back registers to the block's
 * pool (dec) or takes them from it (inc, waiting until the pool holds
 * them); every warp of the warpgroup executes the same one. */
template <int N> __device__ __forceinline__ void setmaxnreg_dec()
{
#if GK_SM90A
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}
template <int N> __device__ __forceinline__ void setmaxnreg_inc()
{
#if GK_SM90A
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}
/* Keep the compiler from moving reads or writes of the accumulators across
 * a wgmma fence or wait (the registers change behind its back). */
template <int N> __device__ __forceinline__ void acc_fence(float (&d)[N])
{
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

/* A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format"), 64 bits:
 * start address >> 4 in bits 0-13, leading byte offset (LBO) >> 4 in 16-29,
 * stride byte offset (SBO) >> 4 in 32-45, base offset 0 in 49-51 (the
 * swizzle atoms are 1024-byte aligned), swizzle mode in 62-63 (1 = 128-byte
 * swizzle). */
__host__ __device__ constexpr uint64_t make_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((saddr & 0x3ffffu) >> 4) | ((uint64_t)((lbo >> 4) & 0x3fffu) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3fffu) << 32) | ((uint64_t)1 << 62); /* 1: 128-byte swizzle */
}

/* The body of a kernel built for anything but sm_90a, where its real body
 * (wgmma, setmaxnreg) cannot be compiled: a stub that is never launched. It
 * holds a 1 KB static shared array, which sm90a_image sees through
 * cudaFuncGetAttributes (the real kernels have no static shared memory);
 * the volatile store, never executed (m >= 1), keeps the array in the image. */
#pragma nv_diag_suppress 550 /* not_sm90a: "set but never used", on purpose */
__device__ __forceinline__ void sm90a_stub(unsigned m, unsigned n)
{
    __shared__ int not_sm90a[256];
    if (m == 0u) static_cast<volatile int *>(not_sm90a)[threadIdx.x & 255u] = (int)n;
}
#pragma nv_diag_default 550

/* ---- Variants 14-17: the descriptors of a Bf16Slab and the wgmma -----------
 * (bf16_02_wgmma.cu derives them.) A (K-major): the slab's kBM rows of 128
 * bytes; warpgroup wg reads rows 64 wg .. 64 wg + 63, k16-step s is bytes
 * 32 s .. 32 s + 31 of each logical row (the hardware's XOR finds them in
 * the swizzled row); SBO 1024 (8-row atoms along M), LBO unused by a
 * swizzled K-major operand whose K fits one row (set to 16). B (N-major):
 * k16-step s is rows 16 s .. 16 s + 15 of every panel (two atoms); SBO
 * 1024 (atoms along K), LBO from one 64-column panel to the next. */
template <int kBK> __host__ __device__ constexpr uint64_t bf16_a_desc(uint32_t as, int wg, int s)
{
    return make_desc(as + (uint32_t)(wg * 64 * 128 + 32 * s), 16u, 1024u);
}
template <int kBK> __host__ __device__ constexpr uint64_t bf16_b_desc(uint32_t bs, int s)
{
    return make_desc(bs + (uint32_t)(16 * 128 * s), (uint32_t)kBK * 128u, 1024u);
}

/* The accumulator operands of an m64n256 wgmma, 128 fp32 registers per
 * thread: the register list %0 .. %127 of the PTX string, and the "+f"
 * operands that bind them to d[0] .. d[127]. */
#define GK_WGMMA_D128 \
    "%0, %1, %2, %3, %4, %5, %6, %7," \
    "%8, %9, %10, %11, %12, %13, %14, %15," \
    "%16, %17, %18, %19, %20, %21, %22, %23," \
    "%24, %25, %26, %27, %28, %29, %30, %31," \
    "%32, %33, %34, %35, %36, %37, %38, %39," \
    "%40, %41, %42, %43, %44, %45, %46, %47," \
    "%48, %49, %50, %51, %52, %53, %54, %55," \
    "%56, %57, %58, %59, %60, %61, %62, %63," \
    "%64, %65, %66, %67, %68, %69, %70, %71," \
    "%72, %73, %74, %75, %76, %77, %78, %79," \
    "%80, %81, %82, %83, %84, %85, %86, %87," \
    "%88, %89, %90, %91, %92, %93, %94, %95," \
    "%96, %97, %98, %99, %100, %101, %102, %103," \
    "%104, %105, %106, %107, %108, %109, %110, %111," \
    "%112, %113, %114, %115, %116, %117, %118, %119," \
    "%120, %121, %122, %123, %124, %125, %126, %127"
#define GK_WGMMA_D128_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
    "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
    "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
    "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
    "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
    "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
    "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
    "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
    "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

/* d += A * B: one m64n256k16 wgmma of the warpgroup, A K-major
 * (imm-trans-a 0), B N-major (imm-trans-b 1), scale-d 1 (accumulate), A and
 * B scaled by 1; 128 fp32 accumulators per thread. */
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t da, uint64_t db)
{
#if GK_SM90A
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
        "{"
        GK_WGMMA_D128
        "},\n"
        "%128, %129, p, 1, 1, 0, 1;\n"
        "}\n"
        :
          GK_WGMMA_D128_OPERANDS(d)
        : "l"(da), "l"(db), "r"(1));
#endif
}

/* d += A * B for any 16-bit type and layout (variant 17 under
 * gk_gemm_ex): kF16 picks .f16 (IEEE half) or .bf16 inputs; kTransA and
 * kTransB are the instruction's imm-trans-a and imm-trans-b, which PTX
 * allows for 16-bit types only: 0 reads the operand K-major (each row of
 * the slab is 64 consecutive k of one row of A, or of one column of B), 1
 * MN-major (each slab row is 64 consecutive m, or n, of one k). */
template <bool kF16, int kTransA, int kTransB>
__device__ __forceinline__ void wgmma_m64n256k16_any(float (&d)[128], uint64_t da, uint64_t db)
{
#if GK_SM90A
/* The instruction for input type TYPE ("f16" or "bf16"). */
#define GK_WGMMA_16BIT(TYPE)                                                                                    \
    asm volatile("{\n"                                                                                        \
                 ".reg .pred p;\n"                                                                            \
                 "setp.ne.b32 p, %130, 0;\n"                                                                  \
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32." TYPE "." TYPE "\n"                            \
                 "{" GK_WGMMA_D128 "},\n"                                                                     \
                 "%128, %129, p, 1, 1, %131, %132;\n"                                                         \
                 "}\n"                                                                                        \
                 : GK_WGMMA_D128_OPERANDS(d)                                                                  \
                 : "l"(da), "l"(db), "r"(1), "n"(kTransA), "n"(kTransB))
    if constexpr (kF16)
        GK_WGMMA_16BIT("f16");
    else
        GK_WGMMA_16BIT("bf16");
#undef GK_WGMMA_16BIT
#endif
}

/* The accumulator operands of the narrower wgmma: m64n64 (32 fp32 registers
 * per thread) and m64n128 (64), as GK_WGMMA_D128 for m64n256 (variants 18
 * and 23). */
#define GK_WGMMA_D32 \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15," \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define GK_WGMMA_D32_OPERANDS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define GK_WGMMA_D64 \
    GK_WGMMA_D32 "," \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47," \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define GK_WGMMA_D64_OPERANDS(d) \
    GK_WGMMA_D32_OPERANDS(d), \
    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])

/* d += A * B, as wgmma_m64n256k16_any, on a narrower tile: m64nNk16 with
 * N = 64 or 128 (variant 23), N / 2 fp32 accumulators per thread. */
template <int kN, bool kF16, int kTransA, int kTransB>
__device__ __forceinline__ void wgmma_m64nNk16_any(float (&d)[kN / 2], uint64_t da, uint64_t db)
{
    static_assert(kN == 64 || kN == 128, "m64n64k16 or m64n128k16");
#if GK_SM90A
/* The instruction for width N, input type TYPE, and its operand numbers:
 * the descriptors at %(N/2) and %(N/2 + 1), scale-d at + 2, the
 * transposes at + 3 and + 4. */
#define GK_WGMMA_NARROW(N, TYPE, D, OPS, I0, I1, I2, I3, I4)                                                 \
    asm volatile("{\n"                                                                                        \
                 ".reg .pred p;\n"                                                                            \
                 "setp.ne.b32 p, %" I2 ", 0;\n"                                                               \
                 "wgmma.mma_async.sync.aligned.m64n" N "k16.f32." TYPE "." TYPE "\n"                           \
                 "{" D "},\n"                                                                                 \
                 "%" I0 ", %" I1 ", p, 1, 1, %" I3 ", %" I4 ";\n"                                             \
                 "}\n"                                                                                        \
                 : OPS(d)                                                                                     \
                 : "l"(da), "l"(db), "r"(1), "n"(kTransA), "n"(kTransB))
    if constexpr (kN == 64 && kF16)
        GK_WGMMA_NARROW("64", "f16", GK_WGMMA_D32, GK_WGMMA_D32_OPERANDS, "32", "33", "34", "35", "36");
    else if constexpr (kN == 64)
        GK_WGMMA_NARROW("64", "bf16", GK_WGMMA_D32, GK_WGMMA_D32_OPERANDS, "32", "33", "34", "35", "36");
    else if constexpr (kF16)
        GK_WGMMA_NARROW("128", "f16", GK_WGMMA_D64, GK_WGMMA_D64_OPERANDS, "64", "65", "66", "67", "68");
    else
        GK_WGMMA_NARROW("128", "bf16", GK_WGMMA_D64, GK_WGMMA_D64_OPERANDS, "64", "65", "66", "67", "68");
#undef GK_WGMMA_NARROW
#endif
}

/* The wgmma descriptors of k16-step s of a 16-bit slab in either
 * orientation (variants 17 and 23), for a 128-row A and any B width:
 *   A K-major (op_a = N): sm90.cuh's bf16_a_desc: warpgroup wg's 64 rows;
 *   A MN-major (op_a = T, A stored k x m): two panels of 64 m-columns x 64
 *     k-rows (B's panel layout); warpgroup wg's rows are panel wg, step s
 *     its k-rows 16 s .. 16 s + 15 (two 8-row atoms, SBO 1024; one atom
 *     column along M, so the LBO, set to the panel stride, is not used);
 *   B MN-major (op_b = N): bf16_b_desc;
 *   B K-major (op_b = T, B stored n x k): the n-rows of 128 bytes as A's
 *     K-major rows (SBO 1024 from one 8-row atom to the next, LBO unused),
 *     step s the 32 bytes 32 s .. of each row. */
template <bool kAT> __device__ __forceinline__ uint64_t desc16_a(uint32_t as, int wg, int s)
{
    if constexpr (kAT)
        return make_desc(as + (uint32_t)(wg * 64 * 64 * 2 + 16 * 128 * s), 64u * 128u, 1024u);
    else
        return bf16_a_desc<64>(as, wg, s);
}
template <bool kBT> __device__ __forceinline__ uint64_t desc16_b(uint32_t bs, int s)
{
    if constexpr (kBT)
        return make_desc(bs + (uint32_t)(32 * s), 16u, 1024u);
    else
        return bf16_b_desc<64>(bs, s);
}

/* One k-tile of a BF16 warpgroup (variants 14-17), in stage `slab` of the
 * ring of A slabs at as0 (kABytes each) and B slabs at bs0 (kBBytes each):
 * the accumulators, last written by the zeroing or by wgmma that a
 * wait_group retired, are ordered before the new wgmma (the fences);
 * kKSteps m64n256k16 wgmma (warpgroup wg's 64 rows of A, all of B); one
 * commit group; then a wait until at most this group is running, so that
 * the previous k-tile's wgmma, and their reads of its stage, are done. */
template <int kBK, int kKSteps, int kABytes, int kBBytes>
__device__ __forceinline__ void bf16_wgmma_ktile(float (&d)[128], uint32_t as0, uint32_t bs0, int slab, int wg)
{
    acc_fence(d);
    wgmma_fence();
    const uint32_t as = as0 + slab * kABytes, bs = bs0 + slab * kBBytes;
#pragma unroll
    for (int s = 0; s < kKSteps; ++s) wgmma_m64n256k16(d, bf16_a_desc<kBK>(as, wg, s), bf16_b_desc<kBK>(bs, s));
    wgmma_commit();
    wgmma_wait<1>();
    acc_fence(d);
}

/* ---- Host: tensor maps, the TMA's rule, the sm_90a image ------------------- */
/* cuTensorMapEncodeTiled is a driver function: reached through the runtime's
 * entry-point query, so that nothing links libcuda. */
inline cudaError_t get_encode_tiled(PFN_cuTensorMapEncodeTiled_v12000 *fn)
{
    void *f = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q);
#else
    cudaError_t err = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &f, cudaEnableDefault, &q);
#endif
    if (err != cudaSuccess) return err;
    if (q != cudaDriverEntryPointSuccess || f == nullptr) return cudaErrorNotSupported;
    *fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
    return cudaSuccess;
}

/* The TMA addresses rows whose start is 16-byte aligned: the base address
 * and the row stride in bytes (ld elements of elem_bytes each, below 2^40)
 * multiples of 16. */
inline bool tma_addressable(const void *p, size_t ld, size_t elem_bytes)
{
    return ((uintptr_t)p & 15u) == 0 && (ld * elem_bytes) % 16 == 0 && ld * elem_bytes < ((size_t)1 << 40);
}

/* The tensor map of a row-major rows x cols matrix of elem_bytes-byte
 * elements (leading dimension ld), read as dtype: boxes of box_cols
 * (contiguous) x box_rows, written to shared memory with the 128-byte
 * swizzle, zeros outside the matrix (OOB fill "none" means zeros; the
 * alternative fills NaN). The encoding is done on the host and allocates
 * nothing; the map travels as a const __grid_constant__ kernel parameter. */
inline cudaError_t make_map(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap *map, CUtensorMapDataType dtype,
                            size_t elem_bytes, const void *p, size_t rows, size_t cols, size_t ld, unsigned box_cols,
                            unsigned box_rows)
{
    const cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    const cuuint64_t strides[1] = {(cuuint64_t)(ld * elem_bytes)}; /* bytes from one row to the next */
    const cuuint32_t box[2] = {box_cols, box_rows};
    const cuuint32_t elem_strides[2] = {1, 1};
    const CUresult r = encode(map, dtype, 2, const_cast<void *>(p), dims, strides, box, elem_strides,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/* The tensor map of a batch of such matrices, `batch` of them `stride`
 * elements apart (a 3D map: cols, rows, batch), boxes of box_cols x
 * box_rows x 1. The driver checks the strides (multiples of 16 bytes,
 * below 2^40) and returns cudaErrorInvalidValue where it refuses. */
inline cudaError_t make_map_3d(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap *map, CUtensorMapDataType dtype,
                               size_t elem_bytes, const void *p, size_t rows, size_t cols, size_t ld, size_t batch,
                               size_t stride, unsigned box_cols, unsigned box_rows)
{
    const cuuint64_t dims[3] = {(cuuint64_t)cols, (cuuint64_t)rows, (cuuint64_t)batch};
    const cuuint64_t strides[2] = {(cuuint64_t)(ld * elem_bytes), (cuuint64_t)(stride * elem_bytes)};
    const cuuint32_t box[3] = {box_cols, box_rows, 1};
    const cuuint32_t elem_strides[3] = {1, 1, 1};
    const CUresult r = encode(map, dtype, 3, const_cast<void *>(p), dims, strides, box, elem_strides,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/* The tensor map of an operand (or of C) of a batched call, stored rows x
 * cols with leading dimension ld, boxes of box_cols x box_rows: always 3D
 * over the products, `batch` matrices `stride` elements apart when
 * `batched`, else one (its stride, never used, set to rows x ld so that the
 * driver's rules hold). One map rank for every call keeps one TMA
 * instruction in a kernel. */
inline cudaError_t map_batched(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap *map, CUtensorMapDataType dtype,
                               size_t elem_bytes, const void *p, size_t rows, size_t cols, size_t ld, bool batched,
                               size_t batch, size_t stride, unsigned box_cols, unsigned box_rows)
{
    return make_map_3d(encode, map, dtype, elem_bytes, p, rows, cols, ld, batched ? batch : 1,
                       batched ? stride : rows * ld, box_cols, box_rows);
}

/* Is this kernel's image the real one (built for sm_90a)? The stubs that a
 * build for another architecture leaves hold a static shared array; the
 * real kernels have no static shared memory. cudaErrorNotSupported for a
 * stub, or when there is no image for this GPU at all. */
template <typename K> cudaError_t sm90a_image(K kernel)
{
    cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, kernel) != cudaSuccess) {
        (void)cudaGetLastError(); /* no image for this GPU: not an error to leave behind */
        return cudaErrorNotSupported;
    }
    return fa.sharedSizeBytes != 0 ? cudaErrorNotSupported : cudaSuccess;
}

/* A persistent grid: as many blocks of `kernel` (threads, smem bytes of
 * dynamic shared memory) as can be resident on device dev at once, never
 * more than there are tiles. */
template <typename K>
cudaError_t resident_grid(K kernel, int threads, size_t smem, int dev, size_t tiles, size_t *grid)
{
    int sms = 0, per_sm = 0;
    cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err == cudaSuccess) err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    if (err != cudaSuccess) return err;
    if (per_sm < 1) return cudaErrorInvalidConfiguration; /* cannot happen on a 9.0 GPU (227 KB per block) */
    const size_t resident = (size_t)sms * (size_t)per_sm;
    *grid = tiles < resident ? tiles : resident;
    return cudaSuccess;
}

/* The launch configuration of `grid` (gridDim.x a multiple of `cluster`)
 * in clusters of `cluster` CTAs along x: the cluster launch attribute,
 * written into *attr, which must outlive the launch (variants 17-19). */
inline cudaLaunchConfig_t cluster_config(cudaLaunchAttribute *attr, unsigned cluster, dim3 grid, int threads,
                                         size_t smem, cudaStream_t stream)
{
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = cluster;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = dim3((unsigned)threads);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cfg;
}

/* Launch `kernel` (threads per CTA, smem bytes of dynamic shared memory) as
 * a persistent grid of clusters of kCluster CTAs along x (the cluster launch
 * attribute; the CTAs of a cluster run at once on SMs of one GPC): as many
 * clusters as can be resident at once, asked of the occupancy calculator
 * with this very configuration (the GPCs' sizes can leave an SM without a
 * partner), never more than `units` (the kernel's units of work, one per
 * cluster at a time); cluster q walks units q, q + gridDim.x / kCluster,
 * ... (variants 17 and 18). A programmatic dependent launch (common.cuh):
 * the kernel must call pdl_wait before its first load. */
template <int kCluster, typename K, typename... Args>
cudaError_t launch_clusters(K kernel, int threads, size_t smem, size_t units, cudaStream_t stream, Args... args)
{
    cudaLaunchAttribute attr[2];
    /* A valid grid for the query; set below for the launch. */
    cudaLaunchConfig_t cfg = cluster_config(&attr[0], kCluster, dim3(kCluster), threads, smem, stream);
    int max_clusters = 0;
    cudaError_t err = cudaOccupancyMaxActiveClusters(&max_clusters, kernel, &cfg);
    if (err != cudaSuccess) return err;
    if (max_clusters < 1) return cudaErrorInvalidConfiguration; /* no SMs of a GPC free for one cluster */
    const size_t grid = units < (size_t)max_clusters ? units : (size_t)max_clusters;
    cfg.gridDim = dim3((unsigned)(grid * kCluster)); /* a multiple of the cluster size */
    attr[1] = pdl_launch_attr(); /* the kernel begins with pdl_wait (common.cuh) */
    cfg.numAttrs = 2;
    err = cudaLaunchKernelEx(&cfg, kernel, args...);
    if (err != cudaSuccess) return err;
    return cudaGetLastError();
}

/* ---- The block tile of variants 14-17 ------------------------------------------
 * 128 x 256 x 64 (bf16_04_warp_specialized.cu says why this shape): two
 * warpgroup tiles of 64 x 256 (m64n256k16, 128 fp32 accumulators per
 * thread), a ring of 4 stages, each an A slab (one TMA box of 64 k x 128
 * rows) and a B slab (4 panels of 64 columns x 64 k-rows, one TMA box each)
 * in the layout of common.cuh's Bf16Slab. Plus the pieces that variants 15
 * and 16 share: the tensor maps, the launch, and variant 14's kernel for
 * the rows the TMA cannot address. */
namespace bf16_tile {
constexpr int kBM = 128, kBN = 256, kBK = 64, kStages = 4;
constexpr int kKSteps = kBK / 16;         /* wgmma k16-steps per k-tile: 4 */
constexpr int kABytes = kBM * kBK * 2;    /* one A slab: 16 KB, one TMA box of 64 x 128 */
constexpr int kPanelBytes = kBK * 64 * 2; /* one B panel (64 k-rows x 64 columns): 8 KB, one TMA box */
constexpr int kPanels = kBN / 64;         /* 4 */
constexpr int kBBytes = kBK * kBN * 2;    /* one B slab: 32 KB */
constexpr int kAcc = kBN / 2;             /* accumulators per thread of a 64 x 256 warpgroup tile: 128 */
/* Dynamic shared memory of a TMA kernel (variants 15 and 16): the stages,
 * 1024 bytes of slack to start them on a 1024-byte boundary (the swizzle
 * atoms'), and a full and an empty mbarrier per stage: 197,696 bytes. */
constexpr size_t kTmaSmemBytes = (size_t)kStages * (kABytes + kBBytes) + 1024 + 2 * kStages * 8;
static_assert(kBK == 64, "rows of 128 bytes: the 128-byte swizzle (and the TMA box's inner 128 bytes)");
static_assert(kBN == 256, "the wgmma is m64n256k16 (128 accumulators)");
static_assert(kBM <= 256 && kBK <= 256, "a TMA box is at most 256 elements along each dimension");
static_assert(kABytes % 1024 == 0 && kBBytes % 1024 == 0 && kPanelBytes % 1024 == 0,
              "slabs and panels keep the 1024-byte alignment of the atoms");
static_assert(kTmaSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");

/* The tensor maps of A (m rows of k: boxes of 64 k x 128 rows) and B (k rows
 * of n: boxes of 64 columns x 64 k-rows), and the encoder for more. */
inline cudaError_t make_maps(PFN_cuTensorMapEncodeTiled_v12000 *encode, CUtensorMap *map_a, CUtensorMap *map_b,
                             const void *a, size_t lda, const void *b, size_t ldb, size_t m, size_t n, size_t k)
{
    cudaError_t err = get_encode_tiled(encode);
    if (err == cudaSuccess) err = make_map(*encode, map_a, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, m, k, lda, kBK, kBM);
    if (err == cudaSuccess) err = make_map(*encode, map_b, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, b, k, n, ldb, 64, kBK);
    return err;
}

/* Variant 14's kernel, for variants 15 and 16. The TMA addresses only
 * rows that start 16-byte aligned (tma_addressable) and needs k > 0; for
 * everything else their launchers run this kernel (run_cp_async):
 * bf16_02_wgmma.cu's, whose header explains it. 2 warpgroups (256 threads)
 * that both copy (16-byte cp.async, or gathered chunks) 2 k-tiles ahead and
 * issue the wgmma, one block barrier per k-tile. */
constexpr int kCpThreads = 256, kAhead = kStages - 2;
constexpr size_t kCpSmemBytes = (size_t)kStages * (kABytes + kBBytes) + 1024; /* + alignment slack */
typedef Bf16Slab<kBM, kBN, kBK, kCpThreads> CpSlab;

template <unsigned kGroupM, bool kAVec, bool kBVec>
__global__ void __launch_bounds__(kCpThreads, 1)
gemm_bf16_cp_async(unsigned m, unsigned n, unsigned k, float alpha, const unsigned short *__restrict__ a,
                   size_t lda, const unsigned short *__restrict__ b, size_t ldb, float beta,
                   __nv_bfloat16 *__restrict__ c, size_t ldc, unsigned tiles_m, unsigned tiles_n, bool c_vec)
{
#if GK_SM90A
    extern __shared__ __align__(128) unsigned char smem[];
    /* The slabs start at the first 1024-byte boundary (the swizzle atoms'
     * alignment); kCpSmemBytes holds 1024 bytes of slack for it. */
    const uint32_t base = (smem_u32(smem) + 1023u) & ~1023u;
    const uint32_t as0 = base;                     /* kStages A slabs */
    const uint32_t bs0 = base + kStages * kABytes; /* kStages B slabs */

    unsigned bm, bn;
    tile_origin<kGroupM, kBM, kBN>(blockIdx.x, tiles_m, tiles_n, &bm, &bn);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wg = warp >> 2; /* this thread's warpgroup: rows 64 wg .. 64 wg + 63 of the tile */

    float d[kAcc];
#pragma unroll
    for (int i = 0; i < kAcc; ++i) d[i] = 0.0f;

    const unsigned ktiles = (k + kBK - 1) / kBK;
    if (ktiles > 0) {
        /* Prologue: k-tiles 0 .. kAhead-1, one commit group each (empty
         * groups past ktiles keep the wait count exact). */
#pragma unroll
        for (int s = 0; s < kAhead; ++s) {
            if ((unsigned)s < ktiles) {
                CpSlab::load_tiles<kAVec, kBVec>(as0 + s * kABytes, bs0 + s * kBBytes, a, lda, b, ldb, m, n, k, bm,
                                                 bn, s, tid);
            }
            cp_async_commit();
        }
        for (unsigned kt = 0; kt < ktiles; ++kt) {
            const int slab = (int)(kt % kStages);
            cp_async_wait<kAhead - 1>(); /* this thread's copies of k-tile kt have landed ... */
            fence_proxy_async();         /* ... and are visible to the async proxy (wgmma) */
            /* Everyone's copies of k-tile kt are; and every warpgroup is past
             * its wait_group 1 of k-tile kt-1, so the wgmma of k-tile kt-2
             * are finished everywhere: its slab is refilled just below. */
            __syncthreads();
            const unsigned next = kt + kAhead;
            if (next < ktiles) {
                const int ws = (int)(next % kStages); /* = slab of k-tile kt - 2 */
                CpSlab::load_tiles<kAVec, kBVec>(as0 + ws * kABytes, bs0 + ws * kBBytes, a, lda, b, ldb, m, n, k, bm,
                                                 bn, next, tid);
            }
            cp_async_commit(); /* one group per k-tile, even empty: the wait count stays exact */
            bf16_wgmma_ktile<kBK, kKSteps, kABytes, kBBytes>(d, as0, bs0, slab, wg);
        }
        wgmma_wait<0>(); /* every wgmma done: the accumulators are final */
        acc_fence(d);
    }
    store_tile(d, c, ldc, m, n, bm + 64 * wg + 16 * (warp & 3), bn, lane, alpha, beta, c_vec);
#else
    sm90a_stub(m, n); /* not compiled for sm_90a */
#endif
}

/* The launch. The shared-memory opt-in is the same constant at every call. */
template <unsigned kGroupM>
cudaError_t run_cp_async(size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda, const void *b,
                         size_t ldb, float beta, void *c, size_t ldc, size_t tiles_m, size_t tiles_n, bool c_vec,
                         cudaStream_t stream)
{
    typedef void (*Kernel)(unsigned, unsigned, unsigned, float, const unsigned short *, size_t,
                           const unsigned short *, size_t, float, __nv_bfloat16 *, size_t, unsigned, unsigned, bool);
    const bool a_vec = ((uintptr_t)a & 15u) == 0 && lda % 8 == 0;
    const bool b_vec = ((uintptr_t)b & 15u) == 0 && ldb % 8 == 0;
    const Kernel kernel = a_vec ? (b_vec ? gemm_bf16_cp_async<kGroupM, true, true>
                                         : gemm_bf16_cp_async<kGroupM, true, false>)
                                : (b_vec ? gemm_bf16_cp_async<kGroupM, false, true>
                                         : gemm_bf16_cp_async<kGroupM, false, false>);
    cudaError_t err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kCpSmemBytes);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)(tiles_m * tiles_n), kCpThreads, kCpSmemBytes, stream>>>(
        (unsigned)m, (unsigned)n, (unsigned)k, alpha, (const unsigned short *)a, lda, (const unsigned short *)b, ldb,
        beta, (__nv_bfloat16 *)c, ldc, (unsigned)tiles_m, (unsigned)tiles_n, c_vec);
    return cudaGetLastError();
}
/* The launch of variants 15 and 16 (whose kernels take the tensor maps of A
 * and B, m, n, k, alpha, beta, c, ldc, tiles_m, tiles_n, c_vec): on a
 * device of compute capability 9.0 only (sm_90a code runs there alone);
 * rows that the TMA cannot address, and k = 0 (which loads nothing), take
 * variant 14's kernel (run_cp_async); everything else `kernel`, `threads`
 * per block, one block per tile. The shared-memory opt-in is the same
 * constant (kTmaSmemBytes) at every call. */
template <unsigned kGroupM, typename K>
cudaError_t run_tma(K kernel, int threads, size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                    const void *b, size_t ldb, float beta, void *c, size_t ldc, cudaStream_t stream)
{
    cudaError_t err = require_cc(9, 0);
    if (err != cudaSuccess) return err;
    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    const bool c_vec = ((uintptr_t)c & 3u) == 0 && ldc % 2 == 0; /* bf16 pairs: 4-byte aligned row starts */
    if (k == 0 || !tma_addressable(a, lda, 2) || !tma_addressable(b, ldb, 2))
        return run_cp_async<kGroupM>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, tiles_m, tiles_n, c_vec, stream);

    err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    CUtensorMap map_a, map_b;
    err = make_maps(&encode, &map_a, &map_b, a, lda, b, ldb, m, n, k);
    if (err != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kTmaSmemBytes);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)(tiles_m * tiles_n), threads, kTmaSmemBytes, stream>>>(
        map_a, map_b, (unsigned)m, (unsigned)n, (unsigned)k, alpha, beta, (__nv_bfloat16 *)c, ldc, (unsigned)tiles_m,
        (unsigned)tiles_n, c_vec);
    return cudaGetLastError();
}
} // namespace bf16_tile

} // namespace

#endif /* GK_GEMM_KERNELS_SM90_CUH */
