/* Variant 22 (small_03): mid-size fp32 products in fp32, on variant 21's
 * 64 x 64 tiles, with FFMA instead of the tensor cores.
 *
 * The region it serves: fp32 products computed in fp32 (no TF32
 * rounding) that are too large for variant 20's dot products and too
 * small, or too oddly shaped, for the ladder's top fp32 rungs. Variant 10
 * computes 128 x 256 tiles with 256 threads, so at 1024^3 it has 32 tiles
 * for 132 SMs, and variant 9's 128 x 128 give 64; a product with few
 * tiles and a long k (991 x 132 x 3663) leaves most SMs idle. AUTO also
 * gives it TF32 products with a very short k whose C rows are not 16-byte
 * units (there C's stores are the time, and this kernel's are sooner than
 * the TF32 rungs'), and, past the mid region, few-tile long-k products
 * that variant 10's split cannot fill (gk/gemm.h). Here, as in
 * variant 21, a tile is 64 x 64 of C and a CTA 128 threads, up to 4 per SM
 * (1024^3: 256 tiles), with variant 21's shared-memory tiles, copies and
 * k-loop (common.cuh, namespace tiles64: 3 cp.async stages where every
 * row is whole 16-byte units, 2 stages through registers elsewhere; k-tiles
 * of 32 floats; split-K partials in one launch). What changes is the
 * arithmetic:
 *
 *   - thread t = 16 tm + tn (tm 0 .. 7, tn 0 .. 15) owns 8 rows and 4
 *     columns of the tile: 32 accumulators, k ascending for each (the
 *     PMPP book's register tiling, chapter 6; Volkov and Demmel, "Benchmarking
 *     GPUs to tune dense linear algebra", SC 2008);
 *   - its rows are tm + 8 i where A's tile is K-major (op_a = N, stored
 *     [m][k]): per 4 k-steps one 16-byte load of each row (k, k + 1, k +
 *     2, k + 3), 8 loads; and 8 tm + i where A's tile is MN-major (T,
 *     stored [k][m]): per k-step two 16-byte loads of its 8 consecutive
 *     rows, 8 loads per 4 k-steps;
 *   - its columns are 4 tn + j (j = 0 .. 3) where B's tile is MN-major
 *     (op_b = N, stored [k][n]): per k-step one 16-byte load of its 4
 *     consecutive columns, 4 loads per 4 k-steps; and tn + 16 j where B's
 *     tile is K-major (T, stored [n][k]): per 4 k-steps one 16-byte load
 *     of each column, 4 loads;
 *   - so per 4 k-steps a thread issues 128 FFMA for 12 shared loads in
 *     every layout. Every load of A reads one of 2 addresses per warp (its
 *     2 tm: a broadcast, one wavefront); B's MN-major loads read 256
 *     contiguous bytes (16 tn, the same for both tm: two wavefronts, the
 *     least for 256 bytes), its K-major ones 16 columns 36 words apart,
 *     banks 4 tn mod 32 (two wavefronts);
 *   - the epilogue stores columns tn + 16 j, 16 consecutive floats of each
 *     of a warp's 2 rows per store instruction (64 bytes, 2 sectors)
 *     whatever n is; with B MN-major the accumulators are first swapped
 *     into that layout through shared memory (regroup, below), except
 *     where C's rows are whole 16-byte units: there each thread stores its
 *     4 columns of a row as one 16-byte store (store4), 256 contiguous
 *     bytes per row and instruction.
 * An SM with 4 CTAs (16 warps) then issues per 4 k-steps 16 x 128 FFMA
 * (512 clocks at 4 warp-instructions per clock) against 16 x (8 + 4 x 2)
 * = 256 wavefronts of shared memory (one per clock): the FFMA pipes, not
 * shared memory, bound it. (The kernel's previous form, which read B
 * MN-major 4 bytes at a time, 16 loads per 4 k-steps, took 0.0780 ms at
 * 1024^3 on the H100 against 0.0685 now: gemm/README.md, Variant 22.)
 *
 * What bounds it: fp32 FMA throughput (the H100's 128 FFMA per SM per
 * clock) at 64 x 64 tiles, whose 32 multiply-adds per float loaded put
 * more traffic on L2 than variant 10's 85.3; AUTO (gk/gemm.h) gives it the
 * middle region. Measured figures are on gemm/README.md.
 *
 * Precision: fp32 throughout: each element of C is alpha times the fmaf
 * chain over k in ascending order (a split product: each slice so, then
 * the slices added in a fixed order), plus beta C, the bias and the
 * activation in fp32: the same precision as the fp32 ladder (1-10).
 *
 * Sources: the PMPP book (chapters 5-6: tiling, register tiling, thread
 * coarsening); the CUDA C++ Programming Guide ("Asynchronous Data
 * Copies", "Shared Memory" bank rules); PTX ISA (cp.async).
 *
 * Build alone: nvcc -c small_03_ffma.cu (next to common.cuh, which it
 * includes); any architecture from sm_80.
 */
#include "common.cuh"

namespace {

using namespace tiles64; /* common.cuh: variant 21's tiles, copies, k-loop and launch */

constexpr int kPa = Tile<float, true>::kPitch;  /* 36 floats: a K-major row */
constexpr int kPm = Tile<float, false>::kPitch; /* 72 floats: an MN-major row */

__device__ __forceinline__ float4 lds128(const float *p) { return *reinterpret_cast<const float4 *>(p); }

/* Row i of thread row-group tm in the tile: interleaved for a K-major A,
 * consecutive for an MN-major one (see the header). */
template <bool kAT> __device__ __forceinline__ int row_of(int tm, int i) { return kAT ? 8 * tm + i : tm + 8 * i; }
/* One k-tile (32 k-steps) from stage (sa, sb): 8 groups of 4 k-steps. */
template <bool kAT, bool kBT>
__device__ __forceinline__ void ktile(float (&acc)[8][4], const float *sa, const float *sb, int tm, int tn)
{
#pragma unroll 2
    for (int k4 = 0; k4 < Geo<float>::kBK / 4; ++k4) {
        float a[8][4], b[4][4]; /* a[i][kk] = A(row i, 4 k4 + kk), b[j][kk] = B(4 k4 + kk, column j) */
        if constexpr (!kAT) {
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const float4 v = lds128(sa + row_of<false>(tm, i) * kPa + 4 * k4);
                a[i][0] = v.x, a[i][1] = v.y, a[i][2] = v.z, a[i][3] = v.w;
            }
        } else {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const float4 v = lds128(sa + (4 * k4 + kk) * kPm + 8 * tm + 4 * h);
                    a[4 * h][kk] = v.x, a[4 * h + 1][kk] = v.y, a[4 * h + 2][kk] = v.z, a[4 * h + 3][kk] = v.w;
                }
        }
        if constexpr (kBT) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float4 v = lds128(sb + (tn + 16 * j) * kPa + 4 * k4);
                b[j][0] = v.x, b[j][1] = v.y, b[j][2] = v.z, b[j][3] = v.w;
            }
        } else {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                const float4 v = lds128(sb + (4 * k4 + kk) * kPm + 4 * tn);
                b[0][kk] = v.x, b[1][kk] = v.y, b[2][kk] = v.z, b[3][kk] = v.w;
            }
        }
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i][kk], b[j][kk], acc[i][j]);
    }
}

/* With B MN-major a thread's accumulators hold columns 4 tn + j (its
 * 16-byte loads of B). Where C's rows are whole 16-byte units (p.c_vec4)
 * store4 writes them as they are, one 16-byte store per row (16 threads
 * write 256 contiguous bytes of a row: 8 whole sectors). Elsewhere the
 * stores want columns tn + 16 j (16 consecutive floats per store
 * instruction and row, whatever C's alignment), and the CTA swaps them
 * through shared memory, whose stages the k-loop has left free: each
 * thread writes its rows' 4 columns as one 16-byte store (a quarter-warp
 * writes 128 contiguous bytes: one wavefront), then reads back its 32
 * outputs of the interleaved layout (4-byte loads, 16 consecutive words
 * per row). The rows are kPc = 80 floats apart: the two rows a warp reads
 * are 1 apart (A K-major) and land 16 banks apart, no conflict; or 8 apart
 * (A MN-major), 8 x 80 = 640 = 0 mod 32 words, the same banks: two
 * wavefronts. The second barrier keeps the next unit's copies out of the
 * staging area until every thread has read it. */
constexpr int kPc = 80;
static_assert(64 * kPc * 4 <= kAsyncStages * kStageBytes && 64 * kPc * 4 <= kRegStages * kStageBytes,
              "the staging fits the stages");
template <bool kAT> __device__ __forceinline__ void regroup(float (&acc)[8][4], float *st, int tm, int tn)
{
#pragma unroll
    for (int i = 0; i < 8; ++i)
        *reinterpret_cast<float4 *>(st + row_of<kAT>(tm, i) * kPc + 4 * tn) =
            make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = st[row_of<kAT>(tm, i) * kPc + tn + 16 * j];
    __syncthreads();
}

/* store's way for columns 4 tn + j on rows of whole 16-byte units: a
 * float4 per row where the 4 columns lie inside C (n a multiple of 4
 * makes that every group), else element by element. The same arithmetic
 * as store_one. */
template <int kEpi, bool kAT, bool kF32C>
__device__ __forceinline__ void store4(const float (&acc)[8][4], const Params &p, const Unit &w, int tm, int tn)
{
    const unsigned col = w.bn + 4u * (unsigned)tn;
    if (col >= p.n) return;
    float *const c = static_cast<float *>(p.c) + w.z * p.stride_c;
    const float *const bias = static_cast<const float *>(p.bias);
    const float alpha = p.alpha, beta = kF32C ? 0.0f : p.beta;
    const bool whole = p.n - col >= 4;
    float bj[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) bj[j] = kEpi != 0 && col + j < p.n ? __ldg(bias + col + j) : 0.0f;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const unsigned row = w.bm + (unsigned)row_of<kAT>(tm, i);
        if (row >= p.m) continue;
        float *const q = c + (size_t)row * p.ldc + col;
        if (whole) {
            float r[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) r[j] = alpha * acc[i][j];
            if (beta != 0.0f) { /* only then is C read */
                const float4 o = *reinterpret_cast<const float4 *>(q);
                r[0] = alpha * acc[i][0] + beta * o.x, r[1] = alpha * acc[i][1] + beta * o.y;
                r[2] = alpha * acc[i][2] + beta * o.z, r[3] = alpha * acc[i][3] + beta * o.w;
            }
            *reinterpret_cast<float4 *>(q) = make_float4(epilogue_apply<kEpi>(r[0], bj[0]), epilogue_apply<kEpi>(r[1], bj[1]),
                                                         epilogue_apply<kEpi>(r[2], bj[2]), epilogue_apply<kEpi>(r[3], bj[3]));
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j)
                if (col + j < p.n) store_one<kEpi>(q + j, alpha, acc[i][j], beta, bj[j]);
        }
    }
}

/* The epilogue of one thread's 8 x 4 outputs (rows past m and columns past
 * n skipped): kF32C the split's partials, alpha acc; else C = epilogue(alpha
 * acc + beta C + bias), beta = 0 never reading C. */
template <int kEpi, bool kAT, bool kF32C>
__device__ __forceinline__ void store(const float (&acc)[8][4], const Params &p, const Unit &w, int tm, int tn)
{
    float *const c = static_cast<float *>(p.c) + w.z * p.stride_c;
    const float *const bias = static_cast<const float *>(p.bias);
    float bj[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const unsigned col = w.bn + (unsigned)(tn + 16 * j);
        bj[j] = kEpi != 0 && col < p.n ? __ldg(bias + col) : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const unsigned row = w.bm + (unsigned)row_of<kAT>(tm, i);
        if (row >= p.m) continue;
        float *const crow = c + (size_t)row * p.ldc;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const unsigned col = w.bn + (unsigned)(tn + 16 * j);
            if (col >= p.n) continue;
            if constexpr (kF32C)
                crow[col] = p.alpha * acc[i][j];
            else
                store_one<kEpi>(crow + col, p.alpha, acc[i][j], p.beta, bj[j]);
        }
    }
}

/* kF32C: C is a split product's fp32 partials (alpha only, no epilogue).
 * A is K-major unless kAT, B K-major when kBT. */
template <bool kAT, bool kBT, bool kAsync, bool kF32C>
__global__ void __launch_bounds__(kThreads) ffma_kernel(const Params p)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t s0 = smem_u32(smem);
    const int tid = threadIdx.x, tm = tid >> 4, tn = tid & 15;
    for (size_t u = blockIdx.x; u < p.units; u += gridDim.x) {
        const Unit w = unit_of<float, kF32C>(p, u);
        float acc[8][4];
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;
        mainloop<float, kAT, kBT, kAsync>(p, w, s0, tid, [&](int stage) {
            const unsigned char *st = smem + stage * kStageBytes;
            ktile<kAT, kBT>(acc, reinterpret_cast<const float *>(st), reinterpret_cast<const float *>(st + kTileBytes),
                            tm, tn);
        });
        if constexpr (!kBT) {
            if (p.c_vec4) { /* uniform */
                if constexpr (kF32C) {
                    store4<0, kAT, true>(acc, p, w, tm, tn);
                } else {
                    switch (p.epi) {
                    case 0: store4<0, kAT, false>(acc, p, w, tm, tn); break;
                    case 1: store4<1, kAT, false>(acc, p, w, tm, tn); break;
                    case 2: store4<2, kAT, false>(acc, p, w, tm, tn); break;
                    default: store4<3, kAT, false>(acc, p, w, tm, tn); break;
                    }
                }
                continue;
            }
            regroup<kAT>(acc, reinterpret_cast<float *>(smem), tm, tn);
        }
        if constexpr (kF32C) {
            store<0, kAT, true>(acc, p, w, tm, tn);
        } else {
            switch (p.epi) { /* uniform */
            case 0: store<0, kAT, false>(acc, p, w, tm, tn); break;
            case 1: store<1, kAT, false>(acc, p, w, tm, tn); break;
            case 2: store<2, kAT, false>(acc, p, w, tm, tn); break;
            default: store<3, kAT, false>(acc, p, w, tm, tn); break;
            }
        }
    }
}

template <bool kAT, bool kBT, bool kF32C> cudaError_t launch(const Params &p, bool async, cudaStream_t stream)
{
    return launch_units(async ? ffma_kernel<kAT, kBT, true, kF32C> : ffma_kernel<kAT, kBT, false, kF32C>, p, async,
                        stream);
}
/* The layout's instance: A stored k x m when op_a is T, B stored n x k when op_b is T. */
template <bool kF32C> cudaError_t launch_layout(int op_a, int op_b, const Params &p, bool async, cudaStream_t stream)
{
    switch (2 * (op_a != 0) + (op_b != 0)) {
    case 0: return launch<false, false, kF32C>(p, async, stream);
    case 1: return launch<false, true, kF32C>(p, async, stream);
    case 2: return launch<true, false, kF32C>(p, async, stream);
    default: return launch<true, true, kF32C>(p, async, stream);
    }
}

} // namespace

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): type 0
 * (f32) only; op_a, op_b 0 as stored, 1 transposed; strides read when
 * batch > 1; epilogue 0-3 with bias. */
extern "C" cudaError_t gk_gemm_small_03_ffma_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                   float alpha, const void *a, size_t lda, size_t stride_a,
                                                   const void *b, size_t ldb, size_t stride_b, float beta, void *c,
                                                   size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                   const void *bias, void *workspace, cudaStream_t stream)
{
    (void)workspace; /* needs none */
    if (type != 0) return cudaErrorNotSupported;
    Params p;
    cudaError_t err = init_params(p, m, n, k, a, lda, b, ldb);
    if (err != cudaSuccess) return err;
    const bool async = ex_params(p, type, k, a, lda, stride_a, b, ldb, stride_b, c, ldc, stride_c, batch, alpha, beta,
                                 epilogue, bias);
    if (p.units == 0) return cudaSuccess;
    return launch_layout<false>(op_a, op_b, p, async, stream);
}

/* Split-K's first step (gemm.c, GK_GEMM_AUTO; gk_gemm_split_run_fn): the
 * fp32 partials of one fp32 product (type 0), alpha = 1, of `splits`
 * slices of kc (a multiple of 64) in one launch, as variant 21's. */
extern "C" cudaError_t gk_gemm_small_03_ffma_run_split(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                      size_t kc, size_t splits, const void *a, size_t lda,
                                                      const void *b, size_t ldb, float *partials, cudaStream_t stream)
{
    if (type != 0) return cudaErrorNotSupported;
    Params p;
    const cudaError_t err = split_params(p, type, m, n, k, kc, splits, a, lda, b, ldb, partials);
    if (err != cudaSuccess || p.units == 0) return err;
    return launch_layout<true>(op_a, op_b, p, split_async(type, a, lda, b, ldb), stream);
}

/* gk_gemm's entry point: as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_small_03_ffma_run(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                                const float *b, size_t ldb, float beta, float *c, size_t ldc,
                                                cudaStream_t stream)
{
    return gk_gemm_small_03_ffma_run_ex(0, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                        nullptr, stream);
}
