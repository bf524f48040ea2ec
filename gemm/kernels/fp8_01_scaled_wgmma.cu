/* Variant 18 (fp8_01): FP8 inputs on Hopper's tensor cores, the last rung.
 *
 *     D = epilogue(alpha sa sb ra[i] cb[j] sum_k A(i, k) B(k, j) + beta C + bias[j])
 *
 * with A and B in e4m3 or e5m2 (one byte per element), C in bf16, fp16 or
 * fp32 (gk/gemm.h, "FP8", gives the whole contract).
 *
 * The step. Hopper's wgmma multiplies 8-bit floats at twice the 16-bit rate
 * (H100 SXM: 1979 dense FP8 TFLOP/s against 989 for BF16, NVIDIA's H100
 * datasheet): a k-step of one instruction covers k = 32 instead of 16
 * (wgmma.mma_async ... m64nNk32.f32.e4m3.e4m3, PTX ISA 8.0, "Asynchronous
 * Warpgroup Level Matrix Multiply-Accumulate"). Everything else is variant
 * 17's machine (bf16_05_persistent.cu): a persistent grid, one producer
 * warpgroup whose thread 0 issues the TMA into a ring of stages guarded by
 * mbarriers, two consumer warpgroups that issue the wgmma, the ring running
 * on across tiles so that the next tile loads while the consumers store,
 * and CTAs in clusters of two (vertically adjacent tiles) that share B's
 * tile: each loads one half and the TMA multicasts it into both, so a CTA
 * draws 32 KB per k-tile from L2 instead of 48. What FP8 changes:
 *
 *   1. The k-tile is counted in bytes. A slab row is still 128 bytes (the
 *      128-byte swizzle), which now holds 128 elements: a k-tile is 128 deep,
 *      4 wgmma k32-steps of 32 bytes each, exactly the byte geometry of
 *      variant 17's K-major A (4 k16-steps of 32 bytes). The same
 *      descriptors, advanced 32 bytes per step; a block tile of 128 x 256 x
 *      128 moves 48 KB per stage for 2 x 128 x 256 x 128 = 8.4 MFLOP, 175
 *      FLOP per byte of shared memory, twice the BF16 tile's 87.
 *   2. Both operands K-major. PTX allows the transpose bits (imm-trans-a,
 *      imm-trans-b) for .f16 and .bf16 only: an 8-bit operand is read from
 *      shared memory with each 128-byte slab row holding consecutive k. For
 *      row-major storage that is A as stored (m x k, op_a = N) and B stored
 *      n x k (op_b = T): y = x W^T with W stored out x in, the layout of a
 *      linear layer and the one cuBLASLt's FP8 requires ("TN" in its
 *      column-major words). Other layouts, and rows the TMA cannot address,
 *      are first copied into the workspace as dense K-major rows padded to
 *      16 bytes (to_k_major, below): one more read and write of that
 *      operand, which the launcher adds to the stream before the product
 *      (a programmatic dependent launch, sm90.cuh's launch_clusters: its
 *      latency overlaps the copy; e4m3 A*B at 4096^3 on an H200, B
 *      copied, 0.1421-0.1426 ms against 0.1439-0.1445 before:
 *      gemm/tuning/pdl-h200).
 *   3. Scales. FP8's range is narrow (e4m3: 2^-9 .. 448), so FP8 tensors are
 *      stored scaled and the product is scaled back: alpha sa sb (sa, sb the
 *      per-tensor scales) is one fp32 factor per call, read from device
 *      memory by each consumer thread once; ra[i] (per row of A) and cb[j]
 *      (per column of B) are applied in the epilogue to the fp32 sum, before
 *      beta C and the bias: v = ((alpha sa sb) ra[i]) d cb[j]. An amax of
 *      |D| (for the next step's scale) is kept per thread as a bit pattern
 *      (for non-negative floats the integer order is the float order, and
 *      NaN's patterns lie above +inf) and raised once per warp with an
 *      atomicMax at the end: order-independent, the same bits every run.
 *   4. Accumulation. A product of two FP8 values (at most 4 x 4 significant
 *      bits) is exact in fp32, but the tensor cores' FP8 path adds each
 *      k32-step into the accumulator with fewer bits than fp32 (the
 *      DeepSeek-V3 report, arXiv:2412.19437, section 3.3.2: about 14). Over
 *      k = 16384, 512 such additions. With fast_accum = 0 the consumer
 *      restarts a second accumulator t every k-tile (4 k32-steps, 128 k;
 *      scale-d = 0 on the first) and adds it into d in fp32 registers:
 *      DeepGEMM's "promotion" (deepseek-ai/DeepGEMM; CUTLASS's
 *      mma_promotion_interval = 4 MMAs). d holds 128 floats (64 x 256 per
 *      warpgroup), so t cannot be as wide (256 registers would not fit 255):
 *      the tile's two halves of 128 columns go through a 64-register t one
 *      after the other (wgmma m64n128k32), each retired by wait_group 0 and
 *      added (64 FADD). Each wait stops the warpgroup until its last wgmma
 *      is done, and the tensor cores stay busy only while the other
 *      warpgroup has wgmma queued. On the H100 the promoted loop takes
 *      19% more time than fast_accum = 1 at 4096^3 and 30% at 8192^3
 *      (gemm/README.md, "Variant 18"). Promoting every 2 k-tiles
 *      instead (half the waits, 2 stages held at once) was slower still in
 *      the same bench (gemm/tuning/fp8-h100/probes.txt), and so were 64-column
 *      quarters through two alternating 32-register buffers, each quarter's
 *      adds beside the next quarter's wgmma (0.1517 ms at 4096^3 against
 *      0.1217): an m64n64k32 reads 2 KB of A and 2 KB of B from shared
 *      memory for 0.26 MFLOP, 128 bytes per clock at the FP8 peak (8192
 *      FLOP per clock per SM), all of the shared memory's bandwidth.
 *      Three more forms were slower on an H200, each timed against this one
 *      before its lean epilogue (below; gemm/tuning/fp8-h200/probes.txt,
 *      4096^3 promoted: 0.119-0.120 ms): a 128 x 128 tile with two
 *      64-register t buffers, k-tile kt's wgmma running while k-tile kt - 1's
 *      t is added, no wait for a running group (0.1266-0.1268); A read into
 *      registers once per k-tile (ldmatrix) for both halves' wgmma, so that A
 *      crosses shared memory once instead of twice (0.1236-0.1238); the two
 *      warpgroups taking turns through named barriers, so that one's wait
 *      always falls while the other's group is queued (0.1280-0.1281). So
 *      neither the waits alone nor the shared-memory bytes alone account for
 *      the promotion's cost. Nsight Compute on one call of each mode at
 *      4096^3 (same file, before the lean epilogue): the tensor pipe active
 *      57.2% of the cycles promoted, 68.3% with fast_accum = 1; the
 *      shared-memory data pipe at 43.9% and the TMA loads at 21-26% of their
 *      peaks in both; 22.2% of the warp samples promoted (16.9% fast) at
 *      wgmma.wait_group.
 *      With fast_accum = 1 the loop is
 *      variant 17's: 4 m64n256k32 into d per k-tile, the previous k-tile's
 *      stage released after wait_group 1.
 *
 * The epilogue is variant 17's: with a 16-bit C that is not read (beta =
 * 0) and TMA-addressable, each warp rounds its 16 rows into a 4 KB buffer
 * in shared memory (stmatrix) and one lane queues TMA stores, which run on
 * while the warp starts its next tile; otherwise (fp32 C, beta != 0, odd
 * rows) each lane stores its pairs of columns from registers. Both apply
 * the scales, the bias and the activation in fp32 and keep the amax. On an
 * H100 (gemm/tuning/fp8-h100/probes.txt, runs 4 and 5) the TMA store took
 * e4m3 4096^3 -> bf16 from 0.1359 ms to 0.1033 (fast_accum = 1). The
 * second pass waits until the TMA has read the first pass's buffer; 3
 * stages instead of 4, to make room for 8 KB a warp and one pass, were
 * slower on an H200: 0.1101 ms at 4096^3 (fast_accum = 1) against
 * 0.1016-0.1019, and 0.1081 with 3 stages and two passes
 * (gemm/tuning/fp8-h200/probes.txt): the fourth stage is worth 6%, and
 * at 3 stages one pass was no faster than two. What the epilogue did cost:
 * Nsight Compute at 4096^3 (fast_accum = 1, same file) counted about 1330
 * instructions per consumer warp and tile in it, and a fifth of the
 * consumer warps' samples; the general form applies a column scale (a
 * load per column, a multiply per element) and the amax (bounds tests and
 * a maximum per element), NULL or not. So when both are NULL (the common call:
 * per-tensor scales only) a lean form applies one multiply, the bias and
 * the activation. On an H200 (gemm/tuning/fp8-h200/final, the builds
 * alternated twice): 4096^3 0.1009-0.1011 -> 0.0965-0.0967 ms with
 * fast_accum = 1 and 0.1195-0.1196 -> 0.1137-0.1138 promoted; 8192^3
 * 0.841-0.847 -> 0.809-0.811 and 0.982-0.984 -> 0.954-0.965.
 * k = 0 (no product: D = epilogue(beta C + bias)) is a small elementwise
 * kernel of this file.
 *
 * Sources: PTX ISA 8.x (wgmma, cp.async.bulk.tensor, mbarrier); NVIDIA's
 * "Using FP8 with Transformer Engine" (per-tensor scaling and amax);
 * Micikevicius et al., "FP8 Formats for Deep Learning" (arXiv:2209.05433)
 * for e4m3 and e5m2; DeepSeek-V3 (arXiv:2412.19437) and DeepGEMM for the
 * promotion of partial sums.
 */
#include "sm90.cuh"

#include <string.h>

#ifndef __CUDA_ARCH_FEAT_SM90_ALL
#pragma nv_diag_suppress 177 /* the stub leaves the helpers unused */
#endif

namespace {

constexpr int kBM = 128, kBN = 256, kBK = 128, kStages = 4; /* kBK in elements = bytes */
constexpr int kKSteps = kBK / 32;                           /* wgmma k32-steps per k-tile: 4 */
constexpr int kABytes = kBM * kBK;                          /* 16 KB: one TMA box of 128 k x 128 rows */
constexpr int kBBytes = kBN * kBK;                          /* 32 KB: two boxes of 128 k x 128 n-rows, one per CTA of a pair */
constexpr int kAcc = kBN / 2;                               /* 128 accumulators per consumer thread */
constexpr int kHalf = kAcc / 2;                             /* 64: one 128-column half (promotion) */
constexpr int kWsThreads = 3 * 128, kConsumerWarps = 8;
constexpr int kLaunchRegs = (65536 / kWsThreads) & ~7;       /* 168 */
constexpr int kProducerRegs = 40, kConsumerRegs = 232;
constexpr unsigned kGroupM = 16;
/* CTAs per cluster along m: the pair shares B's tile, each CTA loading one
 * half (128 n-rows, 16 KB) and multicasting it into both. */
constexpr int kCluster = 2;
constexpr uint16_t kClusterMask = 0x3;
constexpr int kBHalfBytes = kBBytes / kCluster; /* 16 KB: one box of 128 k x 128 n-rows */
constexpr unsigned kEmpty = kCluster * kConsumerWarps; /* releases per stage use: 16 */
/* The TMA store epilogue (16-bit C, beta = 0): per consumer warp a 4 KB
 * buffer of 16 rows x 128 columns, stored as two boxes of 16 x 64 (128-byte
 * rows, the 128-byte swizzle), two passes per 256-column tile. */
constexpr int kEpiRows = 16, kEpiCols = 128, kEpiBoxCols = 64;
constexpr int kEpiWarpBytes = kEpiRows * kEpiCols * 2;    /* 4 KB */
constexpr int kEpiBoxBytes = kEpiRows * kEpiBoxCols * 2;  /* 2 KB */
constexpr int kEpiBytes = kConsumerWarps * kEpiWarpBytes; /* 32 KB */
constexpr size_t kDynSmemBytes = (size_t)kStages * (kABytes + kBBytes) + kEpiBytes + 1024 + 2 * kStages * 8;
static_assert(kDynSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");
static_assert(kLaunchRegs == 168 && 128 * kProducerRegs + 256 * kConsumerRegs <= kWsThreads * kLaunchRegs,
              "setmaxnreg: the split must fit the registers the block holds");
static_assert(kBK == 128, "slab rows of 128 bytes: the 128-byte swizzle");

/* The descriptors (sm90.cuh's make_desc: 128-byte swizzle, SBO 1024 from one
 * 8-row atom to the next, LBO unused by a K-major operand whose k-tile is
 * one 128-byte row). A: warpgroup wg's 64 rows, k32-step s at byte 32 s of
 * each row. B: n-rows 128 h .. (h = 0 for the whole 256, 0 or 1 for a half),
 * the same k-step. */
__device__ __forceinline__ uint64_t a_desc(uint32_t as, int wg, int s)
{
    return make_desc(as + (uint32_t)(wg * 64 * 128 + 32 * s), 16u, 1024u);
}
__device__ __forceinline__ uint64_t b_desc(uint32_t bs, int h, int s)
{
    return make_desc(bs + (uint32_t)(h * 128 * 128 + 32 * s), 16u, 1024u);
}

/* The 64 accumulators of an m64n128 wgmma (sm90.cuh's GK_WGMMA_D64) as
 * outputs only (early-clobber: the wgmma writes them after it has read its
 * descriptors), for a k32-step that starts a sum. */
#define GK_FP8_D64_FIRST(d)                                                                                         \
    "=&f"(d[0]), "=&f"(d[1]), "=&f"(d[2]), "=&f"(d[3]), "=&f"(d[4]), "=&f"(d[5]), "=&f"(d[6]), "=&f"(d[7]),        \
        "=&f"(d[8]), "=&f"(d[9]), "=&f"(d[10]), "=&f"(d[11]), "=&f"(d[12]), "=&f"(d[13]), "=&f"(d[14]),            \
        "=&f"(d[15]), "=&f"(d[16]), "=&f"(d[17]), "=&f"(d[18]), "=&f"(d[19]), "=&f"(d[20]), "=&f"(d[21]),          \
        "=&f"(d[22]), "=&f"(d[23]), "=&f"(d[24]), "=&f"(d[25]), "=&f"(d[26]), "=&f"(d[27]), "=&f"(d[28]),          \
        "=&f"(d[29]), "=&f"(d[30]), "=&f"(d[31]), "=&f"(d[32]), "=&f"(d[33]), "=&f"(d[34]), "=&f"(d[35]),          \
        "=&f"(d[36]), "=&f"(d[37]), "=&f"(d[38]), "=&f"(d[39]), "=&f"(d[40]), "=&f"(d[41]), "=&f"(d[42]),          \
        "=&f"(d[43]), "=&f"(d[44]), "=&f"(d[45]), "=&f"(d[46]), "=&f"(d[47]), "=&f"(d[48]), "=&f"(d[49]),          \
        "=&f"(d[50]), "=&f"(d[51]), "=&f"(d[52]), "=&f"(d[53]), "=&f"(d[54]), "=&f"(d[55]), "=&f"(d[56]),          \
        "=&f"(d[57]), "=&f"(d[58]), "=&f"(d[59]), "=&f"(d[60]), "=&f"(d[61]), "=&f"(d[62]), "=&f"(d[63])

/* The input pairs: 0 e4m3 x e4m3, 1 e4m3 x e5m2, 2 e5m2 x e4m3 (A's type first). */
#define GK_FP8_PAIRS(X) X(0, "e4m3", "e4m3") X(1, "e4m3", "e5m2") X(2, "e5m2", "e4m3")

/* d += A B over one k32-step: m64n256k32, 128 accumulators, scale-d 1. */
template <int kPair> __device__ __forceinline__ void wgmma_n256(float (&d)[kAcc], uint64_t da, uint64_t db)
{
#if GK_SM90A
#define GK_FP8_N256(P, TA, TB)                                                                                     \
    if constexpr (kPair == P)                                                                                      \
        asm volatile("{\n"                                                                                         \
                     ".reg .pred p;\n"                                                                             \
                     "setp.ne.b32 p, %130, 0;\n"                                                                   \
                     "wgmma.mma_async.sync.aligned.m64n256k32.f32." TA "." TB "\n"                                 \
                     "{" GK_WGMMA_D128 "},\n"                                                                      \
                     "%128, %129, p, 1, 1;\n"                                                                      \
                     "}\n"                                                                                         \
                     : GK_WGMMA_D128_OPERANDS(d)                                                                   \
                     : "l"(da), "l"(db), "r"(1));
    GK_FP8_PAIRS(GK_FP8_N256)
#undef GK_FP8_N256
#endif
}
/* t = (kFirst ? 0 : t) + A B over one k32-step: m64n128k32, 64
 * accumulators; kFirst (scale-d 0) starts a fresh sum, its registers
 * outputs only, so that t is dead between the promotions. */
template <int kPair, bool kFirst>
__device__ __forceinline__ void wgmma_n128(float (&t)[kHalf], uint64_t da, uint64_t db)
{
#if GK_SM90A
#define GK_FP8_N128(P, TA, TB)                                                                                     \
    if constexpr (kPair == P && kFirst)                                                                            \
        asm volatile("{\n"                                                                                         \
                     ".reg .pred p;\n"                                                                             \
                     "setp.ne.b32 p, %66, 0;\n"                                                                    \
                     "wgmma.mma_async.sync.aligned.m64n128k32.f32." TA "." TB "\n"                                 \
                     "{" GK_WGMMA_D64 "},\n"                                                                         \
                     "%64, %65, p, 1, 1;\n"                                                                        \
                     "}\n"                                                                                         \
                     : GK_FP8_D64_FIRST(t)                                                                         \
                     : "l"(da), "l"(db), "r"(0));                                                                  \
    if constexpr (kPair == P && !kFirst)                                                                           \
        asm volatile("{\n"                                                                                         \
                     ".reg .pred p;\n"                                                                             \
                     "setp.ne.b32 p, %66, 0;\n"                                                                    \
                     "wgmma.mma_async.sync.aligned.m64n128k32.f32." TA "." TB "\n"                                 \
                     "{" GK_WGMMA_D64 "},\n"                                                                         \
                     "%64, %65, p, 1, 1;\n"                                                                        \
                     "}\n"                                                                                         \
                     : GK_WGMMA_D64_OPERANDS(t)                                                                      \
                     : "l"(da), "l"(db), "r"(1));
    GK_FP8_PAIRS(GK_FP8_N128)
#undef GK_FP8_N128
#endif
}

/* C's element type (fp32, bf16 or f16, through common.cuh's CElem): load
 * and store of one value and of a pair (an 8-byte float2 or a 4-byte
 * 16-bit pair where the launcher found every pair aligned: c_vec). */
template <typename T> struct Out {
    __device__ static __forceinline__ float load(const T *p) { return CElem<T>::to_float(*p); }
    __device__ static __forceinline__ void store(T *p, float v) { *p = CElem<T>::from_float(v); }
    __device__ static __forceinline__ float2 load2(const T *p)
    {
        return CElem<T>::to_float2(*reinterpret_cast<const typename CElem<T>::Pair *>(p));
    }
    __device__ static __forceinline__ void store2(T *p, float a, float b)
    {
        *reinterpret_cast<typename CElem<T>::Pair *>(p) = CElem<T>::from_float2(a, b);
    }
    __device__ static __forceinline__ float bias(const T *p) { return CElem<T>::to_float(__ldg(p)); }
};
/* |v| as an ordered bit pattern (the amax). */
__device__ __forceinline__ unsigned abs_bits(float v) { return __float_as_uint(v) & 0x7fffffffu; }

/* What a launch needs besides the tensor maps. */
struct Params {
    void *c;
    const void *bias;                                /* n elements of C's type; read when epi != 0 */
    const float *scale_a, *scale_b, *rows, *cols;   /* NULL: 1 */
    unsigned *amax;                                  /* the float's bits; NULL: none */
    size_t ldc, stride_c;                            /* stride_c 0 when batch = 1 */
    unsigned m, n, k, tiles_m, tiles_n, batch;
    float alpha, beta;
    int epi;
    bool c_vec, c_tma, a_batched, b_batched;
};

/* The call's scale alpha sa sb (one fp32 product, the same in every thread). */
__device__ __forceinline__ float call_scale(const Params &p)
{
    const float sa = p.scale_a != nullptr ? __ldg(p.scale_a) : 1.0f;
    const float sb = p.scale_b != nullptr ? __ldg(p.scale_b) : 1.0f;
    return p.alpha * sa * sb;
}

/* One element's epilogue: v = (s_row d) cb + beta C, then the bias and the
 * activation; the amax sees the value before D's rounding. */
template <int kEpi, typename T>
__device__ __forceinline__ float finish(float v, const T *old, float beta, float bias, unsigned &amax)
{
    if (beta != 0.0f) v += beta * Out<T>::load(old); /* beta = 0 never reads C */
    v = epilogue_apply<kEpi>(v, bias);
    amax = max(amax, abs_bits(v));
    return v;
}

/* A warp's 16 rows (row0 ..) of its warpgroup's 64 x 256 tile, from
 * registers: d[4j + 2h + e] is D(row0 + g + 8h, bn + 8j + 2t + e), lane =
 * 4g + t (the wgmma m64nN accumulator layout, the same for k32 as for k16).
 * Per row: the row's factor s ra[row] once; per pair of columns their
 * scales and bias (L1), then one pair store (c_vec) or two element stores. */
template <int kEpi, typename T>
__device__ __forceinline__ void store_tile(const float (&d)[kAcc], const Params &p, unsigned z, unsigned row0,
                                           unsigned bn, int lane, float s, unsigned &amax)
{
    const int g = lane >> 2, t = lane & 3;
    T *const c = static_cast<T *>(p.c) + (size_t)z * p.stride_c;
    const T *const bias = static_cast<const T *>(p.bias);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const unsigned row = row0 + g + 8 * h;
        if (row >= p.m) continue;
        const float sr = p.rows != nullptr ? s * __ldg(p.rows + row) : s;
        T *const crow = c + (size_t)row * p.ldc;
#pragma unroll
        for (int j = 0; j < kAcc / 4; ++j) {
            const unsigned col = bn + 8 * j + 2 * t;
            if (col >= p.n) break; /* every later j is further right */
            const bool two = col + 1 < p.n;
            float c0 = 1.0f, c1 = 1.0f, b0 = 0.0f, b1 = 0.0f;
            if (p.cols != nullptr) {
                c0 = __ldg(p.cols + col);
                if (two) c1 = __ldg(p.cols + col + 1);
            }
            if constexpr (kEpi != 0) {
                b0 = Out<T>::bias(bias + col);
                if (two) b1 = Out<T>::bias(bias + col + 1);
            }
            float v0 = sr * d[4 * j + 2 * h] * c0, v1 = sr * d[4 * j + 2 * h + 1] * c1;
            if (two && p.c_vec) {
                if (p.beta != 0.0f) {
                    const float2 o = Out<T>::load2(crow + col);
                    v0 += p.beta * o.x;
                    v1 += p.beta * o.y;
                }
                v0 = epilogue_apply<kEpi>(v0, b0);
                v1 = epilogue_apply<kEpi>(v1, b1);
                amax = max(amax, max(abs_bits(v0), abs_bits(v1)));
                Out<T>::store2(crow + col, v0, v1);
            } else {
                Out<T>::store(crow + col, finish<kEpi, T>(v0, crow + col, p.beta, b0, amax));
                if (two) Out<T>::store(crow + col + 1, finish<kEpi, T>(v1, crow + col + 1, p.beta, b1, amax));
            }
        }
    }
}

/* The same 16 rows through shared memory and the TMA (a 16-bit C, beta =
 * 0, c_tma): variant 17's store (bf16_05_persistent.cu explains the
 * stmatrix addressing and the 128-byte swizzle of the 4 KB buffer `buf`)
 * with the FP8 scales and the amax. Per pass of 128 columns: each lane
 * makes its 32 values of the pass (2 rows x 16 column pairs) final in fp32,
 * lane 0 waits until the warp's previous TMA stores have read the buffer,
 * 8 stmatrix.x4 write it, a proxy fence, and lane 0 queues two TMA stores
 * (clipped at m and n) without waiting for them. */
template <int kEpi, typename T>
__device__ __forceinline__ void store_tile_tma(const float (&d)[kAcc], const Params &p, const CUtensorMap *map_c,
                                               unsigned z, uint32_t buf, unsigned row0, unsigned bn, int lane,
                                               float s, unsigned &amax)
{
    if (row0 >= p.m) return; /* the tile below m of an odd tiles_m: nothing to store */
    const int g = lane >> 2, mi = lane >> 3, r = 8 * (mi & 1) + (lane & 7);
    const T *const bias = static_cast<const T *>(p.bias);
    float sr[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const unsigned row = row0 + g + 8 * h;
        sr[h] = p.rows != nullptr && row < p.m ? s * __ldg(p.rows + row) : s;
    }
#pragma unroll
    for (int pass = 0; pass < kAcc / 4 / (kEpiCols / 8); ++pass) {
        const unsigned x = bn + (unsigned)(pass * kEpiCols);
        if (x >= p.n) break; /* warp-uniform */
        uint32_t packed[kEpiCols / 8][2];
        if (p.cols == nullptr && p.amax == nullptr) {
            /* No column scales and no amax (warp-uniform): per element one
             * multiply, then the bias and the activation. The general form
             * below adds a column scale (a load per column, a multiply per
             * element) and the amax (bounds tests and a maximum per
             * element). */
#pragma unroll
            for (int jb = 0; jb < kEpiCols / 8; ++jb) {
                const int j = pass * (kEpiCols / 8) + jb;
                const unsigned col = bn + 8 * j + 2 * (lane & 3);
                float b0 = 0.0f, b1 = 0.0f;
                if constexpr (kEpi != 0) {
                    if (col < p.n) b0 = Out<T>::bias(bias + col);
                    if (col + 1 < p.n) b1 = Out<T>::bias(bias + col + 1);
                }
#pragma unroll
                for (int h = 0; h < 2; ++h)
                    packed[jb][h] = pack2<T>(epilogue_apply<kEpi>(sr[h] * d[4 * j + 2 * h], b0),
                                             epilogue_apply<kEpi>(sr[h] * d[4 * j + 2 * h + 1], b1));
            }
        } else {
#pragma unroll
            for (int jb = 0; jb < kEpiCols / 8; ++jb) {
                const int j = pass * (kEpiCols / 8) + jb;
                const unsigned col = bn + 8 * j + 2 * (lane & 3);
                float c0 = 1.0f, c1 = 1.0f, b0 = 0.0f, b1 = 0.0f;
                if (p.cols != nullptr) {
                    if (col < p.n) c0 = __ldg(p.cols + col);
                    if (col + 1 < p.n) c1 = __ldg(p.cols + col + 1);
                }
                if constexpr (kEpi != 0) {
                    if (col < p.n) b0 = Out<T>::bias(bias + col);
                    if (col + 1 < p.n) b1 = Out<T>::bias(bias + col + 1);
                }
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const float v0 = epilogue_apply<kEpi>(sr[h] * d[4 * j + 2 * h] * c0, b0);
                    const float v1 = epilogue_apply<kEpi>(sr[h] * d[4 * j + 2 * h + 1] * c1, b1);
                    /* Only elements inside the matrix count for the amax. */
                    const bool in_row = row0 + g + 8 * h < p.m;
                    if (in_row && col < p.n) amax = max(amax, abs_bits(v0));
                    if (in_row && col + 1 < p.n) amax = max(amax, abs_bits(v1));
                    packed[jb][h] = pack2<T>(v0, v1);
                }
            }
        }
        if (lane == 0) bulk_wait_read();
        __syncwarp();
#pragma unroll
        for (int jj = 0; jj < kEpiCols / 16; ++jj) {
            const int jl = 2 * jj + (mi >> 1); /* this lane's column block within the pass */
            const uint32_t addr = buf + (uint32_t)((jl >> 3) * kEpiBoxBytes + r * 128 + (((jl & 7) ^ (r & 7)) << 4));
            stmatrix_x4(addr, packed[2 * jj][0], packed[2 * jj][1], packed[2 * jj + 1][0], packed[2 * jj + 1][1]);
        }
        fence_proxy_async();
        __syncwarp();
        if (lane == 0) {
            tma_store_3d(map_c, buf, (int)x, (int)row0, (int)z);
            if (x + kEpiBoxCols < p.n) tma_store_3d(map_c, buf + kEpiBoxBytes, (int)(x + kEpiBoxCols), (int)row0, (int)z);
            bulk_commit();
        }
    }
}

/* The warp's amax into *p.amax: every lane takes part (the last statement
 * of a consumer warp, all lanes converged). */
__device__ __forceinline__ void publish_amax(const Params &p, unsigned amax, int lane)
{
    if (p.amax == nullptr) return;
    amax = __reduce_max_sync(0xffffffffu, amax);
    if (lane == 0 && amax != 0u) atomicMax(p.amax, amax);
}

/* ---- The persistent kernel ---------------------------------------------------
 * The ring is variant 17's, in pairs of CTAs (bf16_05_persistent.cu states
 * its invariant and why it holds): every role numbers the k-tiles it
 * handles in one sequence `it` that runs on across the tiles, the same in
 * both CTAs of a cluster (they walk the same pairs); k-tile it lives in
 * stage it % kStages as that stage's use it / kStages. full[s] (count 1)
 * completes use u's phase when this CTA's producer has made its
 * arrive.expect_tx and the 48 KB have landed: A's box, this CTA's half of B
 * and the peer's (multicast); empty[s] (count 16) when the 8 consumer warps
 * of both CTAs have released use u (each warp arrives on the barrier of
 * both); the producer waits on empty[s] phase u - 1 before it queues use u
 * into both CTAs. Each consumer warp releases every k-tile once: with
 * fast_accum the previous one after wait_group 1 and the tile's last after
 * wait_group 0; with promotion each k-tile right after its own
 * wait_group 0. */
/* A consumer warp (lane 0) releases stage `slab` in both CTAs of the pair:
 * the peer's producer multicasts into this CTA's stage too. */
__device__ __forceinline__ void release(uint32_t empty0, int slab, unsigned peer)
{
    mbar_arrive(empty0 + 8 * slab);
    mbar_arrive_remote(empty0 + 8 * slab, peer);
}

template <int kPair, bool kPromote, typename T>
__device__ __forceinline__ void consumer(const Params &p, const CUtensorMap *map_c, uint32_t as0, uint32_t bs0,
                                         uint32_t epi0, uint32_t full0, uint32_t empty0, unsigned ktiles,
                                         unsigned rank, unsigned peer,
                                         unsigned cluster, unsigned clusters, unsigned pair_rows, unsigned pairs,
                                         unsigned units);

template <int kPair, bool kPromote, typename T>
__device__ __forceinline__ void fp8_body(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                         const CUtensorMap *map_c, const Params &p)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const Ring ring = ring_layout<kStages, kABytes, kBBytes, kEpiBytes>(smem);
    const uint32_t as0 = ring.as0, bs0 = ring.bs0, full0 = ring.full0, empty0 = ring.empty0;
    const int tid = threadIdx.x, wg = tid >> 7; /* 0: the producer; 1, 2: the consumers */
    const unsigned ktiles = (p.k + kBK - 1) / kBK; /* >= 1: k = 0 never reaches this kernel */
    /* Units of work: pairs of vertically adjacent tiles (the same bn), one
     * per CTA of a cluster, of one product; both CTAs walk the same units.
     * When tiles_m is odd, rank 1's tile of the last pair row lies below m:
     * its A box is all zeros (outside the matrix) and it stores nothing. */
    const unsigned rank = cluster_ctarank(), peer = rank ^ 1u;
    const unsigned cluster = blockIdx.x / kCluster, clusters = gridDim.x / kCluster;
    const unsigned pair_rows = (p.tiles_m + 1) / 2, pairs = pair_rows * p.tiles_n;
    const unsigned units = pairs * p.batch; /* < 2^31 (the launcher checks) */

    if (tid == 0) {
        init_ring<kStages>(full0, empty0, 1u, kEmpty);
        prefetch_tensormap(map_a);
        prefetch_tensormap(map_b);
    }
    /* The barriers are initialized before the peer multicasts into this CTA
     * or arrives on its empty barriers. */
    cluster_sync();

    if (wg == 0) {
        setmaxnreg_dec<kProducerRegs>();
        if (tid == 0) {
            unsigned it = 0;
            for (unsigned u = cluster; u < units; u += clusters) {
                const unsigned z = u / pairs;
                unsigned bm, bn;
                tile_origin<kGroupM / kCluster, kCluster * kBM, kBN>(u - z * pairs, pair_rows, p.tiles_n, &bm, &bn);
                bm += rank * kBM;
                const int za = p.a_batched ? (int)z : 0, zb = p.b_batched ? (int)z : 0;
                for (unsigned kt = 0; kt < ktiles; ++kt, ++it) {
                    const int slab = (int)(it % kStages);
                    /* The previous use of the stage is released by the
                     * consumer warps of both CTAs (this barrier counts 16). */
                    if (it >= (unsigned)kStages) mbar_wait(empty0 + 8 * slab, (it / kStages - 1) & 1u);
                    const uint32_t full = full0 + 8 * slab;
                    /* A's box, and both halves of B: this CTA's own, and the
                     * peer's multicast (which may land before this arrive:
                     * the phase needs this one arrival anyway). */
                    mbar_arrive_expect_tx(full, (uint32_t)(kABytes + kBBytes));
                    /* Coordinates fit an int: kt kBK < k + 128 <= 2^31 - 1 (k-tiles
                     * start below k), bm < m or (the tile below m, odd tiles_m <=
                     * 2^24 - 1) bm = 128 tiles_m < 2^31, bn + 128 < n + 128 (tiles
                     * start below n, bn a multiple of 256 <= 2^31 - 256). */
                    tma_load_3d(as0 + slab * kABytes, map_a, (int)(kt * kBK), (int)bm, za, full);
                    tma_load_3d(bs0 + slab * kBBytes + rank * kBHalfBytes, map_b, (int)(kt * kBK),
                                (int)(bn + rank * (kBN / kCluster)), zb, full, kClusterMask);
                }
            }
        }
    } else {
        consumer<kPair, kPromote, T>(p, map_c, as0, bs0, ring.extra, full0, empty0, ktiles, rank, peer, cluster,
                                     clusters, pair_rows, pairs, units);
    }
    /* Neither CTA exits while the other may still multicast into it or
     * arrive on its barriers: every thread of both meets here (variant 17's
     * end, bf16_05_persistent.cu, argues it). */
    __syncwarp();
    cluster_sync();
}

/* The two consumer warpgroups of fp8_body. */
template <int kPair, bool kPromote, typename T>
__device__ __forceinline__ void consumer(const Params &p, const CUtensorMap *map_c, uint32_t as0, uint32_t bs0,
                                         uint32_t epi0, uint32_t full0, uint32_t empty0, unsigned ktiles,
                                         unsigned rank, unsigned peer,
                                         unsigned cluster, unsigned clusters, unsigned pair_rows, unsigned pairs,
                                         unsigned units)
{
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wg = warp >> 2;
    setmaxnreg_inc<kConsumerRegs>();
    const int cw = wg - 1; /* 0, 1: rows 64 cw .. of the tile */
    const float s = call_scale(p);
    unsigned amax = 0u;
    float d[kAcc];
    unsigned it = 0;
    for (unsigned u = cluster; u < units; u += clusters) {
        const unsigned z = u / pairs;
        unsigned bm, bn;
        tile_origin<kGroupM / kCluster, kCluster * kBM, kBN>(u - z * pairs, pair_rows, p.tiles_n, &bm, &bn);
        bm += rank * kBM;
#pragma unroll
        for (int i = 0; i < kAcc; ++i) d[i] = 0.0f;
        if constexpr (kPromote) {
            /* Promotion every k-tile (128 k): each 128-column half sums the
             * k-tile's 4 k32-steps into a fresh t (wait_group 0) and is
             * added into d; then the stage is released. */
            for (unsigned kt = 0; kt < ktiles; ++kt, ++it) {
                const int slab = (int)(it % kStages);
                mbar_wait(full0 + 8 * slab, (it / kStages) & 1u);
                __syncwarp();
                const uint32_t as = as0 + slab * kABytes, bs = bs0 + slab * kBBytes;
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    float t[kHalf]; /* this half's fresh sum over the k-tile */
                    wgmma_fence();
                    wgmma_n128<kPair, true>(t, a_desc(as, cw, 0), b_desc(bs, h, 0));
#pragma unroll
                    for (int st = 1; st < kKSteps; ++st) wgmma_n128<kPair, false>(t, a_desc(as, cw, st), b_desc(bs, h, st));
                    wgmma_commit();
                    wgmma_wait<0>();
                    acc_fence(t);
#pragma unroll
                    for (int i = 0; i < kHalf; ++i) d[kHalf * h + i] += t[i]; /* the promotion: fp32 adds */
                }
                __syncwarp();
                if (lane == 0) release(empty0, slab, peer);
            }
        } else {
            for (unsigned kt = 0; kt < ktiles; ++kt, ++it) {
                const int slab = (int)(it % kStages);
                mbar_wait(full0 + 8 * slab, (it / kStages) & 1u);
                __syncwarp();
                const uint32_t as = as0 + slab * kABytes, bs = bs0 + slab * kBBytes;
                acc_fence(d);
                wgmma_fence();
#pragma unroll
                for (int st = 0; st < kKSteps; ++st) wgmma_n256<kPair>(d, a_desc(as, cw, st), b_desc(bs, 0, st));
                wgmma_commit();
                wgmma_wait<1>();
                acc_fence(d);
                if (kt > 0 && lane == 0) release(empty0, (int)((it - 1) % kStages), peer);
            }
        }
        if constexpr (!kPromote) {
            wgmma_wait<0>();
            acc_fence(d);
            __syncwarp();
            if (lane == 0) release(empty0, (int)((it - 1) % kStages), peer);
        }
        const unsigned row0 = bm + 64 * cw + 16 * (warp & 3);
        const uint32_t buf = epi0 + (uint32_t)((warp - 4) * kEpiWarpBytes);
        bool done = false;
        if constexpr (sizeof(T) == 2) {
            if (p.c_tma) {
                switch (p.epi) {
                case 0: store_tile_tma<0, T>(d, p, map_c, z, buf, row0, bn, lane, s, amax); break;
                case 1: store_tile_tma<1, T>(d, p, map_c, z, buf, row0, bn, lane, s, amax); break;
                case 2: store_tile_tma<2, T>(d, p, map_c, z, buf, row0, bn, lane, s, amax); break;
                default: store_tile_tma<3, T>(d, p, map_c, z, buf, row0, bn, lane, s, amax); break;
                }
                done = true;
            }
        }
        if (!done) {
            switch (p.epi) {
            case 0: store_tile<0, T>(d, p, z, row0, bn, lane, s, amax); break;
            case 1: store_tile<1, T>(d, p, z, row0, bn, lane, s, amax); break;
            case 2: store_tile<2, T>(d, p, z, row0, bn, lane, s, amax); break;
            default: store_tile<3, T>(d, p, z, row0, bn, lane, s, amax); break;
            }
        }
    }
    __syncwarp();
    publish_amax(p, amax, lane);
    /* The TMA stores have written C (and read this CTA's shared memory)
     * before the block ends. */
    if (p.c_tma && lane == 0) bulk_wait_all();
}

template <int kPair, bool kPromote, typename T>
__global__ void __launch_bounds__(kWsThreads, 1)
scaled_wgmma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
               const __grid_constant__ CUtensorMap map_c, const __grid_constant__ Params prm)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    pdl_wait(); /* a programmatic dependent launch (sm90.cuh's launch_clusters; common.cuh) */
    fp8_body<kPair, kPromote, T>(&map_a, &map_b, &map_c, prm);
#else
    sm90a_stub(prm.m, prm.n);
#endif
}

/* k = 0: D = epilogue(beta C + bias) for every element of every product (a
 * grid-stride walk, consecutive threads on consecutive columns), with the
 * amax. No sm_90a instruction: built for whatever the file is built for. */
template <int kEpi, typename T> __global__ void __launch_bounds__(256) k0_epilogue(const __grid_constant__ Params p)
{
    const size_t mn = (size_t)p.m * p.n, total = mn * p.batch, step = (size_t)gridDim.x * blockDim.x;
    const T *const bias = static_cast<const T *>(p.bias);
    unsigned amax = 0u;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const size_t z = i / mn, in = i - z * mn, row = in / p.n, col = in - row * p.n;
        T *const e = static_cast<T *>(p.c) + z * p.stride_c + row * p.ldc + col;
        Out<T>::store(e, finish<kEpi, T>(0.0f, e, p.beta, kEpi != 0 ? Out<T>::bias(bias + col) : 0.0f, amax));
    }
    publish_amax(p, amax, threadIdx.x & 31); /* blocks of whole warps; every lane leaves the loop */
}

/* ---- The copies: an operand into dense K-major rows --------------------------
 * dst_z (rows x kk, leading dimension ld_dst, dst + z stride_dst) from src_z:
 * element (r, c) is src_z[r ld_src + c] (trans false: the operand is stored
 * K-major already, but its rows are not TMA-addressable) or src_z[c ld_src
 * + r] (trans true: stored k x rows). 32 x 32 tiles of bytes, a block of 32
 * x 8 threads; the transposed copy goes through shared memory so that both
 * its reads and its writes walk rows. The tile's rows are padded to 33
 * bytes: lane x = 4 q + j (q < 8, j < 4) of a column read (byte 33 x + c)
 * falls in word 33 q + 8 j + floor((j + c) / 4), 32 lanes on at most 33
 * consecutive words mod 32: at most 2 lanes to a bank. The copy is not on
 * the product's critical path; the bench's layouts measure what it costs.
 * Grid-stride over
 * the tiles of all products. */
__global__ void __launch_bounds__(256) to_k_major(const unsigned char *__restrict__ src, size_t ld_src,
                                                  size_t stride_src, bool trans, unsigned char *__restrict__ dst,
                                                  size_t ld_dst, size_t stride_dst, size_t rows, size_t kk,
                                                  size_t count)
{
    __shared__ unsigned char tile[32][33];
    const size_t tr = (rows + 31) / 32, tc = (kk + 31) / 32, per = tr * tc, total = per * count;
    const int x = threadIdx.x & 31, y = threadIdx.x >> 5;
    for (size_t u = blockIdx.x; u < total; u += gridDim.x) {
        const size_t z = u / per, in = u - z * per, r0 = (in / tc) * 32, c0 = (in % tc) * 32;
        const unsigned char *s = src + z * stride_src;
        unsigned char *d = dst + z * stride_dst;
        if (!trans) {
#pragma unroll
            for (int i = 0; i < 32; i += 8)
                if (r0 + y + i < rows && c0 + x < kk) d[(r0 + y + i) * ld_dst + c0 + x] = s[(r0 + y + i) * ld_src + c0 + x];
            continue;
        }
        /* tile[i][x] = element (r0 + x, c0 + i): src row c0 + i, column r0 + x. */
#pragma unroll
        for (int i = 0; i < 32; i += 8)
            if (c0 + y + i < kk && r0 + x < rows) tile[y + i][x] = s[(c0 + y + i) * ld_src + r0 + x];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < 32; i += 8)
            if (r0 + y + i < rows && c0 + x < kk) d[(r0 + y + i) * ld_dst + c0 + x] = tile[x][y + i];
        __syncthreads();
    }
}

/* Where an operand is read from: in place (TMA-addressable K-major rows) or
 * from a copy in the workspace. rows: m for A, n for B. */
struct Operand {
    bool copy;                   /* a copy into the workspace first */
    size_t ld, stride, count;    /* of what the TMA reads (the copy, or the operand) */
    size_t bytes;                /* the copy's bytes (0: none; (size_t)-1: 2^62 or more) */
};
inline Operand plan_operand(const void *x, bool k_major, size_t ld, size_t stride, size_t rows, size_t k,
                            size_t batch)
{
    Operand o;
    const bool batched = batch > 1 && stride != 0;
    o.copy = !k_major || !tma_addressable(x, ld, 1) || (batched && stride % 16 != 0);
    o.count = batched ? batch : 1;
    o.ld = ld;
    o.stride = batched ? stride : 0;
    o.bytes = 0;
    if (!o.copy) return o;
    o.ld = (k + 15) / 16 * 16;
    const size_t limit = (size_t)1 << 62;
    const size_t per = rows != 0 && o.ld > limit / rows ? limit : rows * o.ld;
    o.stride = o.count > 1 ? per : 0;
    o.bytes = per < limit && o.count <= limit / per ? per * o.count : (size_t)-1;
    return o;
}
inline size_t granules(size_t bytes) { return (bytes + 255) / 256 * 256; }

struct Plan {
    Operand a, b;
};
inline Plan plan(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch, const void *a, size_t lda,
                 size_t stride_a, const void *b, size_t ldb, size_t stride_b)
{
    Plan q;
    q.a = plan_operand(a, op_a == 0, lda, stride_a, m, k, batch);
    q.b = plan_operand(b, op_b == 1, ldb, stride_b, n, k, batch);
    return q;
}



/* Queue the copy of an operand (stored rows x k as K-major, or k x rows). */
inline cudaError_t copy_operand(const Operand &o, const void *src, bool k_major, size_t ld_src, size_t stride_src,
                                size_t rows, size_t k, void *dst, int sms, cudaStream_t stream)
{
    const size_t tiles = ((rows + 31) / 32) * ((k + 31) / 32) * o.count, cap = (size_t)sms * 16;
    const unsigned blocks = (unsigned)(tiles < cap ? tiles : cap);
    to_k_major<<<blocks, 256, 0, stream>>>(static_cast<const unsigned char *>(src), ld_src,
                                          o.count > 1 ? stride_src : 0, !k_major, static_cast<unsigned char *>(dst),
                                          o.ld, o.stride, rows, k, o.count);
    return cudaGetLastError();
}

template <int kPair, bool kPromote, typename T>
cudaError_t launch(int dev, const CUtensorMap &ma, const CUtensorMap &mb, const CUtensorMap &mc, const Params &prm,
                   size_t units, cudaStream_t stream)
{
    (void)dev; /* the current device's, as the occupancy query's */
    auto kernel = scaled_wgmma<kPair, kPromote, T>;
    cudaError_t err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kDynSmemBytes);
    if (err != cudaSuccess) return err;
    /* Persistent clusters of 2 CTAs (sm90.cuh's launch_clusters), one per
     * pair of tiles at most. */
    return launch_clusters<kCluster>(kernel, kWsThreads, kDynSmemBytes, units, stream, ma, mb, mc, prm);
}
template <int kPair, bool kPromote>
cudaError_t launch_c(int type_c, int dev, const CUtensorMap &ma, const CUtensorMap &mb, const CUtensorMap &mc,
                     const Params &prm, size_t units, cudaStream_t stream)
{
    switch (type_c) {
    case 0: return launch<kPair, kPromote, float>(dev, ma, mb, mc, prm, units, stream);
    case 1: return launch<kPair, kPromote, __nv_bfloat16>(dev, ma, mb, mc, prm, units, stream);
    default: return launch<kPair, kPromote, __half>(dev, ma, mb, mc, prm, units, stream);
    }
}
template <typename T> cudaError_t launch_k0(const Params &prm, int sms, cudaStream_t stream)
{
    const size_t total = (size_t)prm.m * prm.n * prm.batch, want = (total + 255) / 256, cap = (size_t)sms * 8;
    const unsigned blocks = (unsigned)(want < cap ? want : cap);
    switch (prm.epi) {
    case 0: k0_epilogue<0, T><<<blocks, 256, 0, stream>>>(prm); break;
    case 1: k0_epilogue<1, T><<<blocks, 256, 0, stream>>>(prm); break;
    case 2: k0_epilogue<2, T><<<blocks, 256, 0, stream>>>(prm); break;
    default: k0_epilogue<3, T><<<blocks, 256, 0, stream>>>(prm); break;
    }
    return cudaGetLastError();
}

} // namespace

/* The workspace: A's copy (when it needs one) from byte 0, B's from the
 * next 256-byte boundary; 0 when neither is copied or k = 0. Strides are
 * read when batch > 1. */
extern "C" size_t gk_gemm_fp8_01_scaled_wgmma_scratch(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch,
                                                   const void *a, size_t lda, size_t stride_a, const void *b,
                                                   size_t ldb, size_t stride_b)
{
    if (k == 0 || m == 0 || n == 0) return 0;
    const bool batched = batch > 1;
    const Plan q = plan(op_a, op_b, m, n, k, batch, a, lda, batched ? stride_a : 0, b, ldb, batched ? stride_b : 0);
    if (q.a.bytes == (size_t)-1 || q.b.bytes == (size_t)-1) return (size_t)-1;
    const size_t first = granules(q.a.bytes);
    return first + q.b.bytes > ((size_t)1 << 62) ? (size_t)-1 : first + q.b.bytes;
}

/* gk_gemm_ex's entry point for FP8 inputs (gemm/variants.h,
 * gk_gemm_fp8_run_fn): type_a, type_b 3 e4m3 or 4 e5m2; type_c 0 f32, 1
 * bf16, 2 f16; op_a, op_b 0 as stored, 1 transposed; strides read when
 * batch > 1; epilogue 0-3 with bias; the scale pointers and amax NULL or
 * device floats. */
extern "C" cudaError_t gk_gemm_fp8_01_scaled_wgmma_run(int type_a, int type_b, int type_c, int op_a, int op_b, size_t m,
                                                     size_t n, size_t k, size_t batch, const void *a, size_t lda,
                                                     size_t stride_a, const void *b, size_t ldb, size_t stride_b,
                                                     void *c, size_t ldc, size_t stride_c, float alpha, float beta,
                                                     int epilogue, const void *bias, const float *scale_a,
                                                     const float *scale_b, const float *scale_a_rows,
                                                     const float *scale_b_cols, float *amax, int fast_accum,
                                                     void *workspace, cudaStream_t stream)
{
    /* Strides are read only when batch > 1. */
    if (batch <= 1) stride_a = stride_b = stride_c = 0;
    int dev = 0, sms = 0;
    cudaError_t err = require_cc(9, 0, &dev);
    if (err != cudaSuccess) return err;
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (batch > 0x7fffffffu || tiles_m * tiles_n > 0x7fffffffu || tiles_m * tiles_n * batch > 0x7fffffffu)
        return cudaErrorInvalidConfiguration;
    const int pair = type_a == 4 ? 2 : type_b == 4 ? 1 : 0; /* 3 e4m3, 4 e5m2 */

    Params prm;
    memset(&prm, 0, sizeof prm);
    prm.c = c;
    prm.bias = bias;
    prm.scale_a = scale_a;
    prm.scale_b = scale_b;
    prm.rows = scale_a_rows;
    prm.cols = scale_b_cols;
    prm.amax = reinterpret_cast<unsigned *>(amax);
    prm.ldc = ldc;
    prm.stride_c = batch > 1 ? stride_c : 0;
    prm.m = (unsigned)m;
    prm.n = (unsigned)n;
    prm.k = (unsigned)k;
    prm.tiles_m = (unsigned)tiles_m;
    prm.tiles_n = (unsigned)tiles_n;
    prm.batch = (unsigned)batch;
    prm.alpha = alpha;
    prm.beta = beta;
    prm.epi = epilogue;
    /* Pairs of C as one access where every pair (even column) is aligned. */
    const size_t elem = type_c == 0 ? 4 : 2;
    prm.c_vec = ((uintptr_t)c % (2 * elem)) == 0 && ldc % 2 == 0 && prm.stride_c % 2 == 0;

    /* The amax is raised by atomic maxima from 0. */
    if (amax != nullptr && (err = cudaMemsetAsync(amax, 0, sizeof(float), stream)) != cudaSuccess) return err;
    if (k == 0) {
        switch (type_c) {
        case 0: return launch_k0<float>(prm, sms, stream);
        case 1: return launch_k0<__nv_bfloat16>(prm, sms, stream);
        default: return launch_k0<__half>(prm, sms, stream);
        }
    }

    const Plan q = plan(op_a, op_b, m, n, k, batch, a, lda, stride_a, b, ldb,
                        stride_b);
    unsigned char *const ws = static_cast<unsigned char *>(workspace);
    const void *ta = a, *tb = b; /* what the TMA reads: the operands, or their copies */
    if (q.a.copy) {
        err = copy_operand(q.a, a, op_a == 0, lda, stride_a, m, k, ws, sms, stream);
        if (err != cudaSuccess) return err;
        ta = ws;
    }
    if (q.b.copy) {
        void *dst = ws + granules(q.a.bytes);
        err = copy_operand(q.b, b, op_b == 1, ldb, stride_b, n, k, dst, sms, stream);
        if (err != cudaSuccess) return err;
        tb = dst;
    }
    prm.a_batched = q.a.count > 1;
    prm.b_batched = q.b.count > 1;

    PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    err = get_encode_tiled(&encode);
    if (err != cudaSuccess) return err;
    CUtensorMap ma, mb;
    /* A: m rows of k bytes (boxes of 128 k x 128 rows); B: n rows (boxes of
     * 128 k x 128 n-rows, half a tile's). */
    err = map_batched(encode, &ma, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, ta, m, k, q.a.ld, prm.a_batched, batch,
                      q.a.stride, kBK, kBM);
    if (err == cudaSuccess)
        err = map_batched(encode, &mb, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, tb, n, k, q.b.ld, prm.b_batched,
                          batch, q.b.stride, kBK, kBN / kCluster);
    if (err != cudaSuccess) return err;
    /* C through shared memory and the TMA store where it is 16-bit, not
     * read (beta = 0) and TMA-addressable: boxes of 64 columns x 16 rows (a
     * warp's rows); otherwise from registers. */
    CUtensorMap mc;
    memset(&mc, 0, sizeof mc); /* never read without c_tma */
    const bool batched_c = batch > 1;
    prm.c_tma = type_c != 0 && beta == 0.0f && tma_addressable(c, ldc, 2) &&
                (prm.stride_c * 2) % 16 == 0 &&
                map_batched(encode, &mc,
                            type_c == 1 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                            c, m, n, ldc, batched_c, batch, prm.stride_c, kEpiBoxCols,
                            kEpiRows) == cudaSuccess;

    const size_t units = (tiles_m + 1) / 2 * tiles_n * batch; /* pairs of tiles */
    const bool promote = fast_accum == 0;
    switch (pair) {
    case 0:
        return promote ? launch_c<0, true>(type_c, dev, ma, mb, mc, prm, units, stream)
                       : launch_c<0, false>(type_c, dev, ma, mb, mc, prm, units, stream);
    case 1:
        return promote ? launch_c<1, true>(type_c, dev, ma, mb, mc, prm, units, stream)
                       : launch_c<1, false>(type_c, dev, ma, mb, mc, prm, units, stream);
    default:
        return promote ? launch_c<2, true>(type_c, dev, ma, mb, mc, prm, units, stream)
                       : launch_c<2, false>(type_c, dev, ma, mb, mc, prm, units, stream);
    }
}

