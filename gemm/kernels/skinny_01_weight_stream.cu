/* Variant 19 (skinny_01): skinny products, the weight streamed into registers.
 *
 *     C_z = epilogue(alpha op(A_z) op(B_z) + beta C_z + bias),  op(A) m x k with m small
 *
 * The region. A linear layer at inference, y = x W^T, multiplies a few rows
 * of activations (m: the tokens of a step, 1 to a few dozen) by a weight of
 * n x k (thousands by thousands). At m = 16, n = k = 8192 the product is
 * 2.1 GFLOP and the weight 128 MiB: 16 FLOP per byte read, while an H100
 * SXM does about 300 dense BF16 tensor FLOP (989 TFLOP/s) per byte of DRAM
 * bandwidth (3.35 TB/s). The time is the weight's reading, and the tiles of
 * variant 17 (128 x 256, built to reuse each loaded byte 128 times) have
 * nothing to reuse: at m = 16 a 128-row tile is 7/8 padding, and 8192 /
 * 256 = 32 tiles leave 100 of 132 SMs idle. What the region needs is many
 * loads of the weight in flight on every SM, each byte read once, and the
 * few rows of op(A) kept on chip (the roofline: Williams, Waterman and
 * Patterson, CACM 2009; PMPP, 4th ed., chapter 5).
 *
 * The step: the weight is the tensor cores' A operand, read from global
 * memory straight into the mma's registers.
 *   1. Swap the roles. mma.sync m16n8k16 multiplies a 16 x 16 A fragment by
 *      a 16 x 8 B fragment. With the weight as A (16 of its n rows, op(B)^T)
 *      and op(A)^T as B (8 tokens), the product is a 16 x 8 tile of C^T:
 *      m = 1 wastes 7 of 8 columns of the instruction, not 15 of 16 rows,
 *      and the tensor cores have time to spare (16 FLOP per byte against
 *      300).
 *   2. No shared-memory stage for the weight. The sum over k does not care
 *      in which order k is visited, as long as A and B agree. So each lane
 *      (g = lane / 4, q = lane % 4) owns 8 consecutive k of every 32: k0 +
 *      8q .. k0 + 8q + 7, and the fragments' logical columns 2q, 2q + 1 and
 *      2q + 8, 2q + 9 of k16-step s (0, 1) are taken to be k0 + 8q + 4s +
 *      {0, 1} and + {2, 3}. A lane then loads 8 x 16 bytes per step of its
 *      warp, with no shuffle and no shared memory:
 *        - weight stored n x k (op_b = T, the linear layer's layout): a
 *          lane's 8 k of one weight row are one 16-byte load, exactly its
 *          two A registers of both k16-steps. The warp takes 16 rows (g and
 *          g + 8) and 128 k per step (4 blocks of 32 at k0 + 32c + 8q), so
 *          each row is read 256 contiguous bytes at a time;
 *        - weight stored k x n (op_b = N): a 16-byte load holds 8
 *          consecutive columns (weight rows) of one k. Lane (g, q) loads k0
 *          + 8q + i (i = 0..7) at columns 8g .. 8g + 7, and byte permutes
 *          (prmt) pair the two k of one column that a fragment register
 *          holds: the warp covers columns 8g + t (t = 0..3) and 8g + 4 + t as
 *          4 m16 fragments, 64 columns by 32 k per step, 128 contiguous bytes
 *          of each k-row (512 for the CTA's 4 warps).
 *      Either way a warp has 4 KB of the weight per step, and the next two
 *      steps are loaded while one is multiplied (three sets of 32
 *      registers; two for 32 tokens stored k x n, whose 64 accumulators
 *      leave no room for a third). The loads carry cache hints
 *      (ldg_stream): not kept in L1, and L2 fetches 256 bytes from DRAM at
 *      a time.
 *   3. The tokens in shared memory. op(A)'s rows (8, 16, 32 tokens per CTA
 *      by m; 64 with the weight stored n x k, where a warp's accumulators
 *      are 4 per 8 tokens) for a chunk of k (up to 64 KB) are copied once
 *      per CTA by cp.async (16-byte copies where its rows allow them,
 *      element loads otherwise, op(A) transposed too) and read by all 4
 *      warps as B fragments: one 16-byte ld.shared per 8 tokens per 32 k,
 *      whose 8 consecutive k match the lane's 8 weight k. Rows of the copy
 *      are 64 bytes off a 128-byte period, so that the 8 lanes of a 16-byte
 *      access phase (2 tokens x 4 q) touch 32 different banks.
 *   4. Split k over a cluster. A CTA holds 4 warps: 64 weight rows (stored
 *      n x k) or 256 (k x n), too few CTAs for n = 8192 to keep 132 SMs'
 *      loads in flight. So the CTAs of a cluster (1, 2, 4 or 8, Hopper's
 *      portable sizes) take k in slices; each writes its partial tile to
 *      its own shared memory, and after a cluster barrier CTA r adds column
 *      block r of all of them, in the order of their ranks, through
 *      distributed shared memory (mapa + ld.shared::cluster, PTX ISA 8.0),
 *      applies alpha, beta, the bias and the activation, and stores. No
 *      workspace, one launch, and the same bits on every run (the cluster
 *      size depends on the shape and the GPU's SM count, nothing else).
 *      The launcher takes the largest cluster whose grid fits one wave:
 *      every CTA the GPU holds at once (stored n x k), one CTA per SM
 *      (stored k x n, which ran fastest so on the H100:
 *      gemm/tuning/skinny-h100/probes.txt, run 5).
 * Anything the fast path cannot take runs the same loop with element
 * loads: rows that are not 16-byte aligned, a k that ends inside a step,
 * weight rows past n (the last warp of a ragged n gathers only those of
 * its lanes at the edge: load_w), op(A) transposed; the element loads are
 * several times slower than the stream (1 x 4167 x 2682 with the weight
 * stored k x n: 82 us, against 25 us for 1 x 4168 x 2688 on rows of
 * 16-byte units; gemm/tuning/tiles-h100/skinny_rows.txt), so GK_GEMM_AUTO
 * gives this variant a weight only on such rows. Tried and not kept
 * (H100, 2026-11-28 07:10 UTC, medians): reading such rows 16 bytes at a
 * time, from the two aligned blocks around them, cut out in registers
 * (selects and funnel shifts) inside load_w. 1 x 4167 x 2682 took 0.0783
 * ms stored k x n and 0.0357 stored n x k, 1 x 8191 x 8191 0.5972 and
 * 0.2284, against 0.0306 and 0.0193 for 1 x 4168 x 2688 and 0.0615 and
 * 0.0608 for 1 x 8192 x 8192 on rows of 16-byte units. By a reading of
 * the code, not a profile: the cut needs the loaded data inside load_w,
 * which runs steps ahead of the multiplies, so the warp waits there for
 * its loads instead of multiplying. A larger m runs several
 * token tiles, adjacent in the grid so that they read the same weight rows
 * at about the same time (from L2 after the first), and is correct for any m,
 * but each tile multiplies the instructions per weight byte.
 *
 * Measured on an H100 (gemm/README.md, "Variant 19", gemm/tuning/
 * skinny-h100/skinny.json, cold L2): 1 x 8192 x 8192 takes 0.0596 ms
 * stored k x n and 0.0612 stored n x k, 95.5% and 92.7% of the bench's
 * read-only stream over the same 128 MiB (0.0570 ms, 2.36 TB/s) and 0.97x
 * and 0.97x cuBLAS BF16; at 16 rows 89% and 88.5%; at 32, 76% (k x n) and
 * 84%; at 64 (n x k) 80%. What bounds it beyond one row is the work per
 * weight byte that grows with m: per step a warp issues 8 m16n8k16 and
 * reads 4 x 512 bytes (stored n x k; 512 stored k x n) of tokens from
 * shared memory per 8 tokens, against the same 4 KB of weight, and the
 * chunk of tokens is copied before each slice's stream starts.
 *
 * Build alone: nvcc -arch=sm_90a -c skinny_01_weight_stream.cu (clusters and
 * distributed shared memory need compute capability 9.0).
 */
#include "sm90.cuh"

#ifndef __CUDA_ARCH_FEAT_SM90_ALL
#pragma nv_diag_suppress 177 /* the stub leaves the helpers unused */
#endif

namespace {

constexpr int kThreads = 128;      /* 4 warps */
constexpr int kXBytes = 64 * 1024; /* most of the tokens' chunk of k in shared memory */
constexpr int kMaxCluster = 8;     /* the portable cluster size */

/* The geometry of a CTA for a layout (kWT: the weight stored n x k) and
 * kNT groups of 8 tokens. */
template <bool kWT, int kNT> struct Geo {
    static constexpr int kWarpRows = kWT ? 16 : 64;        /* weight rows per warp */
    static constexpr int kRows = 4 * kWarpRows;            /* per CTA: 64 or 256 */
    static constexpr int kStep = kWT ? 128 : 32;           /* k per step of a warp (8 16-byte loads a lane) */
    static constexpr int kFr = kWT ? 1 : 4;                /* m16 fragments of weight rows per warp */
    static constexpr int kMT = 8 * kNT;                    /* tokens per CTA */
    static constexpr int kKX = kXBytes / (kMT * 2);        /* most k per chunk: 4096 .. 512 */
    static constexpr int kRS = kRows + 4;                  /* row stride of the partial tile (floats) */
    /* Sets of weight registers (steps loaded ahead, plus the one being
     * multiplied): 3, but 2 for 32 tokens stored k x n, whose 64
     * accumulators leave no room for a third set of 32 registers. */
    static constexpr int kDepth = !kWT && kNT == 4 ? 2 : 3;
    /* The most dynamic shared memory a launch asks for: the largest chunk
     * (kKX, rows of kKX + 32) or the partial tile. */
    static constexpr size_t kXMax = (size_t)kMT * (kKX + 32) * 2, kRMax = (size_t)kMT * kRS * 4;
    static constexpr size_t kMaxSmem = kXMax > kRMax ? kXMax : kRMax;
    static_assert(kKX % kStep == 0 && kKX % 64 == 0, "whole steps in a chunk");
};

struct Params {
    const void *a, *b;
    void *c;
    const void *bias;
    size_t lda, ldb, ldc, stride_a, stride_b, stride_c; /* strides 0 for one product */
    unsigned m, n, k, batch;
    unsigned tiles_t; /* token tiles: ceil(m / kMT) */
    unsigned kslice;  /* k per cluster rank, a multiple of 32 */
    unsigned kx;      /* k per chunk: a multiple of 64 and of the step */
    unsigned xs;      /* row stride of the chunk (elements): kx + 32, so 64 mod 128 bytes */
    float alpha, beta;
    int epi, op_a;
    int a_vec; /* op(A) rows copied with 16-byte loads */
    int w_vec; /* weight read with 16-byte loads */
};

__device__ __forceinline__ uint32_t word(const uint4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* 16 bytes of the weight, which is read once: through the read-only path
 * (.nc), not kept in L1 (L1::no_allocate), with a hint that L2 fetch the
 * whole 256-byte block around it from DRAM (L2::256B: the lanes and the
 * next steps read the rest of it). On the H100 the hint took 1 x 8192 x
 * 8192 from 0.0642 to 0.0599 ms (weight stored k x n) and from 0.0634 to
 * 0.0608 (n x k) (gemm/tuning/skinny-h100/probes.txt). */
__device__ __forceinline__ uint4 ldg_stream(const uint16_t *p)
{
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}

/* 8 consecutive 16-bit elements at p, of which the first `count` (0..8)
 * exist; the rest are 0. */
__device__ __forceinline__ uint4 gather8(const uint16_t *p, unsigned count)
{
    uint32_t w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (unsigned e = 0; e < 8; ++e)
        if (e < count) w[e >> 1] |= (uint32_t)__ldg(p + e) << (16 * (e & 1));
    return make_uint4(w[0], w[1], w[2], w[3]);
}

/* The lane's 8 x 16 bytes of the weight for the step at ks (step 2 of the
 * header). kWT: rows g and g + 8 of the warp's 16, at ks + 32 c + 8 q (c =
 * 0..3); otherwise k-rows ks + 8 q + i (i = 0..7) at the columns 8 g .. 8 g
 * + 7 of the warp's 64. k past kend and rows past n are zeros (not read). */
template <bool kWT>
__device__ __forceinline__ void load_w(uint4 (&w)[8], const uint16_t *B, const Params &p, unsigned jw, unsigned ks,
                                       unsigned kend, unsigned g, unsigned q)
{
    if constexpr (kWT) {
        const uint16_t *const row = B + (size_t)(jw + g) * p.ldb + ks + 8 * q; /* row g at k-block 0 */
        const size_t row8 = 8 * p.ldb;                                          /* to row g + 8 */
        if (p.w_vec && ks + 128 <= kend && jw + 16 <= p.n) { /* the whole step: one branch for the warp */
#pragma unroll
            for (int i = 0; i < 8; ++i)
                w[i] = ldg_stream(row + (i & 1) * row8 + 32 * (i >> 1));
        } else if (p.w_vec && ks + 128 <= kend) {
            /* The last warp of a ragged n: its rows past n are zeros, the
             * others read as in any warp, so that it is no slower than the
             * rest (which wait for it) and the weight's tail is not
             * gathered element by element. */
#pragma unroll
            for (int i = 0; i < 8; ++i)
                w[i] = jw + 8 * (i & 1) + g < p.n ? ldg_stream(row + (i & 1) * row8 + 32 * (i >> 1))
                                                  : make_uint4(0u, 0u, 0u, 0u);
        } else {
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const unsigned j = jw + 8 * (i & 1) + g, kk = ks + 32 * (i >> 1) + 8 * q;
                const unsigned count = j >= p.n || kk >= kend ? 0u : (kend - kk < 8u ? kend - kk : 8u);
                w[i] = gather8(row + (i & 1) * row8 + 32 * (i >> 1), count);
            }
        }
    } else {
        const unsigned jj = jw + 8 * g;
        const uint16_t *const col = B + (size_t)(ks + 8 * q) * p.ldb + jj; /* k-row ks + 8q */
        const unsigned count = jj >= p.n ? 0u : (p.n - jj < 8u ? p.n - jj : 8u);
        if (p.w_vec && ks + 32 <= kend && jw + 64 <= p.n) {
#pragma unroll
            for (int i = 0; i < 8; ++i) w[i] = ldg_stream(col + i * p.ldb);
        } else if (p.w_vec && ks + 32 <= kend) {
            /* The last warp of a ragged n: lanes whose 8 columns all exist
             * read them as in any warp, the lane at the edge gathers the
             * ones that do (count), the lanes past n none; so the warp is
             * no slower than the rest, which wait for it (1 x 4168 x 2688
             * took 63.7 us on the H100 with the whole warp gathering, 25.4
             * so: gemm/tuning/tiles-h100/skinny_rows.txt). */
#pragma unroll
            for (int i = 0; i < 8; ++i)
                w[i] = count == 8u ? ldg_stream(col + i * p.ldb) : gather8(col + i * p.ldb, count);
        } else {
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const unsigned kk = ks + 8 * q + i;
                w[i] = gather8(col + i * p.ldb, kk >= kend ? 0u : count);
            }
        }
    }
}

/* op(A)'s tokens t0 .. t0 + kMT - 1 for k in [kx0, kx1) into the chunk xs
 * (row tok, column kk - kx0, rows p.xs apart), zeros past m and from kx1
 * to len. Rows of 16-byte multiples go by cp.async, all of a thread's
 * copies in flight at once (the caller waits: cp_async_wait<0>); other
 * rows element by element, 8 loads in flight per thread before their
 * stores. */
template <int kMT>
__device__ __forceinline__ void load_x(uint16_t *xs, const uint16_t *A, const Params &p, unsigned t0, unsigned kx0,
                                       unsigned kx1, unsigned len)
{
    if (p.a_vec) {
        const unsigned cpr = len / 8; /* 16-byte chunks per row */
        const uint32_t base = smem_u32(xs);
        for (unsigned e = threadIdx.x; e < kMT * cpr; e += kThreads) {
            const unsigned tok = e / cpr, kc = (e - tok * cpr) * 8, i = t0 + tok, kk = kx0 + kc;
            const bool any = i < p.m && kk < kx1;
            const uint16_t *src = any ? A + (size_t)i * p.lda + kk : A; /* a valid address either way */
            const int bytes = !any ? 0 : kk + 8 <= kx1 ? 16 : (int)(2 * (kx1 - kk));
            cp_async16(base + 2u * (tok * p.xs + kc), src, bytes);
        }
        cp_async_commit();
    } else {
        const unsigned total = kMT * len;
        for (unsigned e0 = threadIdx.x; e0 < total; e0 += 8 * kThreads) {
            uint16_t v[8];
            unsigned at[8];
#pragma unroll
            for (int u = 0; u < 8; ++u) {
                const unsigned e = e0 + u * kThreads;
                unsigned tok, kc;
                if (p.op_a == 0) {
                    tok = e / len;
                    kc = e - tok * len;
                } else { /* A stored k x m: consecutive threads on consecutive tokens */
                    kc = e / kMT;
                    tok = e - kc * kMT;
                }
                const unsigned i = t0 + tok, kk = kx0 + kc;
                v[u] = 0;
                at[u] = e < total ? tok * p.xs + kc : 0xffffffffu;
                if (e < total && i < p.m && kk < kx1)
                    v[u] = __ldg(p.op_a == 0 ? A + (size_t)i * p.lda + kk : A + (size_t)kk * p.lda + i);
            }
#pragma unroll
            for (int u = 0; u < 8; ++u)
                if (at[u] != 0xffffffffu) xs[at[u]] = v[u];
        }
    }
}

/* One step of the warp: its weight rows x kMT tokens x kStep k (steps 1
 * and 2 of the header). xrow: the chunk at the step's first k. */
template <typename T, bool kWT, int kNT>
__device__ __forceinline__ void mma_step(float (&acc)[kNT][Geo<kWT, kNT>::kFr][4], const uint4 (&w)[8],
                                         const uint16_t *xrow, unsigned xs, unsigned g, unsigned q)
{
    if constexpr (kWT) {
#pragma unroll
        for (int c = 0; c < 4; ++c) { /* 32 k each: w[2c] row g, w[2c + 1] row g + 8 */
            uint4 xf[kNT];
#pragma unroll
            for (int tg = 0; tg < kNT; ++tg)
                xf[tg] = *reinterpret_cast<const uint4 *>(xrow + (8 * tg + g) * xs + 32 * c + 8 * q);
#pragma unroll
            for (int s = 0; s < 2; ++s)
#pragma unroll
                for (int tg = 0; tg < kNT; ++tg)
                    mma16816<T>(acc[tg][0], word(w[2 * c], 2 * s), word(w[2 * c + 1], 2 * s),
                                word(w[2 * c], 2 * s + 1), word(w[2 * c + 1], 2 * s + 1), word(xf[tg], 2 * s),
                                word(xf[tg], 2 * s + 1));
        }
    } else {
        uint4 xf[kNT];
#pragma unroll
        for (int tg = 0; tg < kNT; ++tg) xf[tg] = *reinterpret_cast<const uint4 *>(xrow + (8 * tg + g) * xs + 8 * q);
#pragma unroll
        for (int s = 0; s < 2; ++s) {
#pragma unroll
            for (int r = 0; r < 4; ++r) { /* fragment r: columns 8g + r (row g) and 8g + 4 + r (row g + 8) */
                const int wd = r >> 1;
                const unsigned sel = (r & 1) ? 0x7632u : 0x5410u;
                const uint32_t a0 = __byte_perm(word(w[4 * s], wd), word(w[4 * s + 1], wd), sel);
                const uint32_t a1 = __byte_perm(word(w[4 * s], 2 + wd), word(w[4 * s + 1], 2 + wd), sel);
                const uint32_t a2 = __byte_perm(word(w[4 * s + 2], wd), word(w[4 * s + 3], wd), sel);
                const uint32_t a3 = __byte_perm(word(w[4 * s + 2], 2 + wd), word(w[4 * s + 3], 2 + wd), sel);
#pragma unroll
                for (int tg = 0; tg < kNT; ++tg)
                    mma16816<T>(acc[tg][r], a0, a1, a2, a3, word(xf[tg], 2 * s), word(xf[tg], 2 * s + 1));
            }
        }
    }
}

template <int kEpi, typename T>
__device__ __forceinline__ void store_epi(T *e, float alpha, float v, float beta, const T *bias, unsigned j)
{
    store_one<kEpi, T>(e, alpha, v, beta, kEpi != 0 ? CElem<T>::to_float(bias[j]) : 0.0f);
}

template <typename T, bool kWT, int kNT> __device__ void weight_stream_body(const Params &p)
{
    typedef Geo<kWT, kNT> G;
    constexpr int kMT = G::kMT, kRS = G::kRS, kRows = G::kRows, kStep = G::kStep, kFr = G::kFr;
    extern __shared__ __align__(16) unsigned char smem[];
    uint16_t *const xs = reinterpret_cast<uint16_t *>(smem);
    float *const red = reinterpret_cast<float *>(smem);
    const unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
    const unsigned cs = cluster_nctarank(), rank = cluster_ctarank();
    const unsigned unit = blockIdx.x / cs, tt = unit % p.tiles_t, jb = unit / p.tiles_t;
    const unsigned t0 = tt * kMT, j0 = jb * kRows, jw = j0 + warp * G::kWarpRows;
    const unsigned kbeg = rank * p.kslice < p.k ? rank * p.kslice : p.k;
    const unsigned kend = p.k - kbeg < p.kslice ? p.k : kbeg + p.kslice;

    for (unsigned z = blockIdx.y; z < p.batch; z += gridDim.y) {
        const uint16_t *const A = static_cast<const uint16_t *>(p.a) + z * p.stride_a;
        const uint16_t *const B = static_cast<const uint16_t *>(p.b) + z * p.stride_b;
        float acc[kNT][kFr][4];
#pragma unroll
        for (int tg = 0; tg < kNT; ++tg)
#pragma unroll
            for (int r = 0; r < kFr; ++r)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[tg][r][e] = 0.0f;

        for (unsigned kx0 = kbeg; kx0 < kend; kx0 += p.kx) {
            const unsigned kx1 = kend - kx0 < p.kx ? kend : kx0 + p.kx;
            const unsigned len = (kx1 - kx0 + kStep - 1) / kStep * kStep;
            /* Sets of weight registers (G::kDepth): while one step is
             * multiplied, the loads of the next one or two are in flight.
             * The first are issued before the chunk of tokens is copied. */
            uint4 w0[8], w1[8], w2[8];
            load_w<kWT>(w0, B, p, jw, kx0, kend, g, q);
            if (G::kDepth == 3 && kx0 + kStep < kx1) load_w<kWT>(w1, B, p, jw, kx0 + kStep, kend, g, q);
            __syncthreads(); /* the previous chunk is no longer read */
            load_x<kMT>(xs, A, p, t0, kx0, kx1, len);
            cp_async_wait<0>();
            __syncthreads();
            if constexpr (G::kDepth == 2) {
                for (unsigned ks = kx0;; ks += 2 * kStep) {
                    if (ks + kStep < kx1) load_w<kWT>(w1, B, p, jw, ks + kStep, kend, g, q);
                    mma_step<T, kWT, kNT>(acc, w0, xs + (ks - kx0), p.xs, g, q);
                    if (ks + kStep >= kx1) break;
                    if (ks + 2 * kStep < kx1) load_w<kWT>(w0, B, p, jw, ks + 2 * kStep, kend, g, q);
                    mma_step<T, kWT, kNT>(acc, w1, xs + (ks + kStep - kx0), p.xs, g, q);
                    if (ks + 2 * kStep >= kx1) break;
                }
            } else {
                for (unsigned ks = kx0;; ks += 3 * kStep) {
                    if (ks + 2 * kStep < kx1) load_w<kWT>(w2, B, p, jw, ks + 2 * kStep, kend, g, q);
                    mma_step<T, kWT, kNT>(acc, w0, xs + (ks - kx0), p.xs, g, q);
                    if (ks + kStep >= kx1) break;
                    if (ks + 3 * kStep < kx1) load_w<kWT>(w0, B, p, jw, ks + 3 * kStep, kend, g, q);
                    mma_step<T, kWT, kNT>(acc, w1, xs + (ks + kStep - kx0), p.xs, g, q);
                    if (ks + 2 * kStep >= kx1) break;
                    if (ks + 4 * kStep < kx1) load_w<kWT>(w1, B, p, jw, ks + 4 * kStep, kend, g, q);
                    mma_step<T, kWT, kNT>(acc, w2, xs + (ks + 2 * kStep - kx0), p.xs, g, q);
                    if (ks + 3 * kStep >= kx1) break;
                }
            }
        }

        /* The partial tile into shared memory (it overlays the chunk). */
        __syncthreads();
#pragma unroll
        for (int tg = 0; tg < kNT; ++tg)
#pragma unroll
            for (int r = 0; r < kFr; ++r) {
                const unsigned tok = 8 * tg + 2 * q;
                const unsigned jl = kWT ? warp * G::kWarpRows + g : warp * G::kWarpRows + 8 * g + r;
                const unsigned jh = kWT ? jl + 8 : jl + 4;
                red[tok * kRS + jl] = acc[tg][r][0];
                red[(tok + 1) * kRS + jl] = acc[tg][r][1];
                red[tok * kRS + jh] = acc[tg][r][2];
                red[(tok + 1) * kRS + jh] = acc[tg][r][3];
            }
        cluster_sync(); /* every CTA's partial tile is written and visible */

        /* Step 4: CTA `rank` adds its block of kRows / cs columns over the
         * cluster, rank 0 first, and stores it. */
        const unsigned width = kRows / cs;
        const uint32_t red_addr = smem_u32(red);
        T *const C = static_cast<T *>(p.c) + z * p.stride_c;
        const T *const bias = static_cast<const T *>(p.bias);
        for (unsigned e = tid; e < kMT * width; e += kThreads) {
            const unsigned tok = e / width, jl = rank * width + (e - tok * width);
            const unsigned i = t0 + tok, j = j0 + jl;
            if (i >= p.m || j >= p.n) continue;
            const uint32_t at = red_addr + 4u * (tok * kRS + jl);
            float part[kMaxCluster]; /* all loads in flight, then the adds in rank order */
#pragma unroll
            for (unsigned c = 0; c < (unsigned)kMaxCluster; ++c) part[c] = c < cs ? ld_cluster_f32(at, c) : 0.0f;
            float v = part[0];
#pragma unroll
            for (unsigned c = 1; c < (unsigned)kMaxCluster; ++c)
                if (c < cs) v += part[c];
            T *const out = C + (size_t)i * p.ldc + j;
            switch (p.epi) {
            case 0: store_epi<0, T>(out, p.alpha, v, p.beta, bias, j); break;
            case 1: store_epi<1, T>(out, p.alpha, v, p.beta, bias, j); break;
            case 2: store_epi<2, T>(out, p.alpha, v, p.beta, bias, j); break;
            default: store_epi<3, T>(out, p.alpha, v, p.beta, bias, j); break;
            }
        }
        cluster_sync(); /* no CTA reuses or leaves its shared memory while another reads it */
    }
}

template <typename T, bool kWT, int kNT>
__global__ void __launch_bounds__(kThreads) weight_stream(const __grid_constant__ Params p)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    weight_stream_body<T, kWT, kNT>(p);
#else
    sm90a_stub(p.m, p.n);
#endif
}

/* The chunk, the shared memory and the grid of one instance, for the
 * problem and the cluster size cs (1, 2, 4 or 8). */
template <bool kWT, int kNT> size_t plan(Params &p, unsigned cs, size_t *units)
{
    typedef Geo<kWT, kNT> G;
    const size_t tiles_t = ((size_t)p.m + G::kMT - 1) / G::kMT, tiles_j = ((size_t)p.n + G::kRows - 1) / G::kRows;
    *units = tiles_t * tiles_j;
    p.tiles_t = (unsigned)tiles_t;
    p.kslice = p.k == 0 ? 0u : (unsigned)((((size_t)p.k + cs - 1) / cs + 31) / 32 * 32);
    /* The chunk: the slice in whole steps (and 64-element multiples), at most kKX. */
    const size_t slice = ((size_t)p.kslice + 63) / 64 * 64;
    const size_t kx = slice < (size_t)G::kKX ? (slice + G::kStep - 1) / G::kStep * G::kStep : (size_t)G::kKX;
    p.kx = (unsigned)(kx < 64 ? 64 : kx);
    p.xs = p.kx + 32;
    const size_t x_bytes = (size_t)G::kMT * p.xs * 2, r_bytes = (size_t)G::kMT * G::kRS * 4;
    return x_bytes > r_bytes ? x_bytes : r_bytes;
}

/* One instance. cs = 0: the largest cluster size of 1, 2, 4, 8 whose grid
 * fits in one wave, never slices shorter than 256 k. A wave is, for the
 * weight stored n x k, every CTA the GPU holds at once (SMs x CTAs per SM,
 * as the occupancy calculator finds for this instance); stored k x n, one
 * CTA per SM, which the H100 ran fastest (gemm/README.md, "Variant 19"). */
template <typename T, bool kWT, int kNT> cudaError_t launch(Params p, unsigned cs, int sms, cudaStream_t stream)
{
    auto kernel = weight_stream<T, kWT, kNT>;
    cudaError_t err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    /* The same value from every call, so that calls from several host
     * threads at once never lower it under another's launch. */
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Geo<kWT, kNT>::kMaxSmem);
    if (err != cudaSuccess) return err;
    size_t units = 0;
    const size_t gy = p.batch < 65535u ? p.batch : 65535u;
    if (cs == 0) {
        const size_t smem1 = plan<kWT, kNT>(p, 1, &units);
        int per_sm = 0;
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem1);
        if (err != cudaSuccess) return err;
        const size_t resident = (size_t)sms * (size_t)(kWT && per_sm > 0 ? per_sm : 1);
        cs = 1;
        while (cs < (unsigned)kMaxCluster && units * gy * cs * 2 <= resident && p.k >= 2 * (size_t)cs * 256) cs *= 2;
    }
    const size_t smem = plan<kWT, kNT>(p, cs, &units); /* <= kMaxSmem */
    if (units > 0x7fffffffu / kMaxCluster) return cudaErrorInvalidConfiguration;
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg =
        cluster_config(&attr, cs, dim3((unsigned)(units * cs), (unsigned)gy), kThreads, smem, stream);
    err = cudaLaunchKernelEx(&cfg, kernel, p);
    if (err != cudaSuccess) return err;
    return cudaGetLastError();
}

/* Tokens per CTA: 8, 16, 32, and 64 for the weight stored n x k (its warp
 * holds one m16 fragment of rows per token group; stored k x n, four). */
template <typename T, bool kWT> cudaError_t launch_m(const Params &p, unsigned cs, int sms, cudaStream_t stream)
{
    if (p.m <= 8) return launch<T, kWT, 1>(p, cs, sms, stream);
    if (p.m <= 16) return launch<T, kWT, 2>(p, cs, sms, stream);
    if constexpr (kWT) {
        if (p.m > 32) return launch<T, kWT, 8>(p, cs, sms, stream);
    }
    return launch<T, kWT, 4>(p, cs, sms, stream);
}

/* The launch for gk_gemm_ex's scalars with cluster size cs (0: the rule of
 * launch; 1, 2, 4, 8: that size, which gemm/tuning/skinny-h100/probes.txt
 * times by including this file). */
cudaError_t run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                   size_t stride_a, const void *b, size_t ldb, size_t stride_b, float beta, void *c, size_t ldc,
                   size_t stride_c, size_t batch, int epilogue, const void *bias, unsigned cs, cudaStream_t stream)
{
    if (type != 1 && type != 2) return cudaErrorNotSupported;
    if (batch <= 1) stride_a = stride_b = stride_c = 0;
    int dev = 0, sms = 0;
    cudaError_t err = require_cc(9, 0, &dev);
    if (err != cudaSuccess) return err;
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    const bool wt = op_b == 1;

    Params p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.b = b;
    p.c = c;
    p.bias = bias;
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = ldc;
    p.stride_a = stride_a;
    p.stride_b = stride_b;
    p.stride_c = stride_c;
    p.m = (unsigned)m;
    p.n = (unsigned)n;
    p.k = (unsigned)k;
    p.batch = (unsigned)batch;
    p.alpha = k == 0 ? 0.0f : alpha; /* k = 0: epilogue(beta C + bias), whatever alpha is */
    p.beta = beta;
    p.epi = epilogue;
    p.op_a = op_a;
    p.a_vec = op_a == 0 && (uintptr_t)a % 16 == 0 && lda % 8 == 0 && stride_a % 8 == 0;
    p.w_vec = (uintptr_t)b % 16 == 0 && ldb % 8 == 0 && stride_b % 8 == 0;
    if (type == 1)
        return wt ? launch_m<__nv_bfloat16, true>(p, cs, sms, stream) : launch_m<__nv_bfloat16, false>(p, cs, sms, stream);
    return wt ? launch_m<__half, true>(p, cs, sms, stream) : launch_m<__half, false>(p, cs, sms, stream);
}

} // namespace

/* gk_gemm_ex's entry point (gemm/variants.h, gk_gemm_ex_run_fn): type 1
 * bf16 or 2 f16 (gemm.c refuses f32 for this row: variant->types). */
extern "C" cudaError_t gk_gemm_skinny_01_weight_stream_run_ex(int type, int op_a, int op_b, size_t m, size_t n,
                                                            size_t k, float alpha, const void *a, size_t lda,
                                                            size_t stride_a, const void *b, size_t ldb,
                                                            size_t stride_b, float beta, void *c, size_t ldc,
                                                            size_t stride_c, size_t batch, int epilogue,
                                                            const void *bias, void *workspace, cudaStream_t stream)
{
    (void)workspace;
    return run_ex(type, op_a, op_b, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c, batch,
                  epilogue, bias, 0, stream);
}
