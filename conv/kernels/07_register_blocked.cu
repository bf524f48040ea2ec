/* Variant 7: register blocked, for large masks. 16 outputs per thread,
 * chunks of 16 taps, 256 FMAs per 12 shared loads.
 *
 * The idea. For large widths the convolution is arithmetic: 2w FLOPs per
 * output against 8 bytes of DRAM traffic, 2w / 8 = 31.75 FLOP/B at w = 127
 * and 255.75 at w = 1023, far right of an H200's roofline knee (about 67
 * TFLOP/s / 4.8 TB/s = 14 FLOP/B, w = 56). The limit is the FMA units: an
 * sm_90 SM has 4 schedulers, each issuing one warp instruction per clock to
 * 32 fp32 lanes, 128 FMAs per clock. To come near that, nearly every issued
 * instruction must be an FFMA whose operands are all in registers: anything
 * else a warp issues (a shared load, an address computation, a loop test, a
 * barrier) takes the slot of an FFMA. This is register blocking, the
 * technique of the fast SGEMM kernels, applied to the convolution's sliding
 * window (variant 5 did it with 8 outputs, scalar loads and the mask in the
 * constant bank).
 *
 * The design, for the defaults R = GK7_R = 16 and J = GK7_J = 16:
 *   - Thread t of a block computes the R = 16 consecutive outputs o0 + 16t
 *     .. o0 + 16t + 15 of a tile of 256 x 16 = 4096 outputs, 16 accumulators
 *     in registers.
 *   - The block's input span (tile + halo, 4096 + w - 1 inputs, rounded up
 *     to whole chunks) is copied to shared memory once per block; the taps
 *     go to shared memory too, zero padded to a multiple of J.
 *   - The taps are walked in chunks of J = 16. For each chunk a thread loads
 *     its window of R + J = 32 inputs (31 used) as 8 LDS.128 and the 16 taps
 *     as 4 LDS.128 (every lane on the same address: a broadcast), then does
 *     R x J = 256 FFMAs acc[c] += w[c + jj] x m[jj], fully unrolled, so
 *     every register index is a constant. cuobjdump -sass (CUDA 13.0,
 *     sm_90): 280 instructions per chunk, 256 of them FFMA (91%), 12 LDS.128
 *     and 12 for the loop. Variant 3 had one shared load and one constant
 *     read per FFMA; variant 5 about 19 other instructions per 64 FFMAs.
 *   - Shared-memory bandwidth: per chunk and warp, 8 window loads x 4
 *     wavefronts (32 lanes x 16 bytes, a quarter-warp per wavefront) + 4
 *     broadcasts x 1 = 36 wavefronts for 256 FFMA instructions. At the full
 *     FMA rate an SM issues 4 FFMA instructions per clock, so it needs 4 x
 *     36 / 256 = 0.56 wavefronts per clock of the 1 that shared memory
 *     serves: enough headroom, unless the loads conflict.
 *   - Bank conflicts, counted. Thread t's window starts at logical input
 *     16t + jc. With a plain layout the 8 lanes of a quarter-warp read 16
 *     bytes at a stride of 64 bytes (16 words): word offsets 0, 16, 32, ..
 *     112, which fall on only 2 groups of 4 banks (banks 0-3 and 16-19): 4
 *     lanes per group, a 4-way conflict, 16 wavefronts per LDS.128 instead
 *     of 4, 132 per chunk instead of 36. So the span is stored padded:
 *     logical i at word (i / 16) x 20 + i % 16, 4 unused words after every
 *     16. The lane stride becomes 20 words, and 20t mod 32 for t = 0 .. 7
 *     is 0, 20, 8, 28, 16, 4, 24, 12: 8 different groups of 4 banks, all 32
 *     banks, conflict-free. A window never straddles a row (it starts on
 *     one, and 16-byte groups of a row stay inside it). Cost: a quarter more
 *     shared memory for the span, and the fill's stores (consecutive
 *     logical indices) now meet 2-way conflicts, once per input.
 *   - Global memory: each block reads its span once, (4096 + w) / 4096
 *     loads per output (1.03 at w = 127, 1.25 at w = 1023), coalesced,
 *     with 8 loads per thread in flight; the spans of neighbouring tiles
 *     overlap by w - 1 inputs, which come from L2. DRAM: about 8 bytes per
 *     output. The 16 outputs go out as 4 STG.128 (tiles start on out's
 *     16-byte grid, at position -d, d = out's distance in floats from the
 *     16-byte boundary below it).
 *   - Wide masks. The taps are processed in passes of GK7_MAX_TAPS = 2048
 *     (a span of 4096 + 2048 inputs and 2048 taps each); the accumulators
 *     stay in registers from pass to pass. Any width works.
 *
 * What it costs besides the chunks: per tile and pass, the fill (about
 * (4096 + w) / 256 loads and stores per thread) and 2 barriers. At w = 127
 * that is 17 loads per 8 x 256 = 2048 FFMAs of each thread; at w = 1023,
 * 20 loads per 16384 FFMAs. While one block waits for its span, the other
 * blocks of the SM keep the FMA units busy. The zero-padded taps waste
 * (16 - w % 16) % 16 FMAs per output: 1 in 128 at w = 127, 1 in 1024 at
 * w = 1023.
 *
 * Resources: shared memory per block ((4096 + T) / 16) x 20 x 4 + T x 4
 * bytes, T = the taps of a pass rounded up to 16: 21632 bytes at w = 127,
 * 29696 at w = 1023, 38912 at most (T = 2048), under the 48 KB that needs
 * no opt-in. ptxas -v (CUDA 13.0, sm_90): 56 registers per thread, no
 * spills (16 accumulators, 32 window and 16 tap registers are not all live
 * at once: the compiler interleaves the loads with the FFMAs). So an SM
 * holds 4 blocks of 256 threads (56 x 256 = 14336 registers per block,
 * 65536 / 14336 = 4.6), 32 warps, 8 per scheduler, each with 16
 * independent accumulator chains; 4 x 38 KB = 152 KB of shared memory at
 * most.
 *
 * Bound by: FMA issue, at up to 91% of the issue slots inside a chunk, less
 * the fill, the barriers and the tail of the grid; below w = 56 by DRAM
 * (variant 6 is the one for that). One tile per block, so the hardware
 * hands out the 4096-output tiles as SMs free up and the last wave is
 * short.
 *
 * Tuning knobs (compile-time macros), with the defaults and why:
 *   GK7_THREADS    256  threads per block; tile = GK7_THREADS x GK7_R.
 *   GK7_R           16  outputs per thread (a multiple of 4): the reuse of
 *                       each window load. Shared loads per FFMA are
 *                       (R + J) / 4 + J / 4 per R x J: 12 / 256 = 4.7% at
 *                       16 x 16, 6 / 64 = 9.4% at 8 x 8; 32 x 32 would need
 *                       32 + 64 + 32 value registers and lose occupancy.
 *   GK7_J           16  taps per chunk, a multiple of GK7_R (so that a
 *                       window starts on a row of the padded layout); also
 *                       the zero-padding granularity.
 *   GK7_MAX_TAPS  2048  taps per pass (a multiple of J): 38912 bytes of
 *                       shared memory at most, under 48 KB, 4 blocks per SM.
 *   GK7_MIN_BLOCKS   4  __launch_bounds__ blocks per SM: caps registers at
 *                       64; ptxas needs 56.
 * The bench at n = 2^28 and w = 127, 1023 against the fp32 peak is the test
 * of these; rebuild with e.g. -DGK7_R=8 -DGK7_J=16 to compare.
 *
 * Limits: any width; any n (64-bit positions; up to 2^20 blocks, each
 * walking every 2^20-th tile beyond that). The table's "tile" is 4096
 * outputs. The mask slot is zero-padded to whole chunks, but the padded
 * taps are never multiplied: the last, partial chunk of a pass runs with a
 * test per tap (uniform across the warp) and stops at the width, because a
 * zero tap times a real input that is Inf or NaN would be NaN, an input
 * the exact sum never sees. in, mask and out need only their 4-byte
 * alignment. No workspace,
 * no host synchronisation.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution, halo cells) and the
 * thread-coarsening sections; CUDA C++ Programming Guide, "Shared Memory"
 * (32 banks of 4 bytes, 128-bit accesses), "Occupancy Calculator",
 * "Arithmetic Instructions" (128 fp32 results per clock per SM on compute
 * capability 9.0); CUDA C++ Best Practices Guide, "Shared Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 07_register_blocked.cu
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

/* Tuning knobs (the header derives the defaults): */
#ifndef GK7_THREADS
#define GK7_THREADS 256 /* threads per block, a multiple of 32 */
#endif
#ifndef GK7_R
#define GK7_R 16 /* consecutive outputs per thread, a multiple of 4 */
#endif
#ifndef GK7_J
#define GK7_J 16 /* taps per chunk, a multiple of GK7_R */
#endif
#ifndef GK7_MAX_TAPS
#define GK7_MAX_TAPS 2048 /* taps per pass over a tile, a multiple of GK7_J; wider masks take several passes */
#endif
#ifndef GK7_MIN_BLOCKS
#define GK7_MIN_BLOCKS 4 /* __launch_bounds__ blocks per SM: caps registers at 64 for 256 threads */
#endif

namespace {

/* ---- Helpers. Each conv kernel file carries this block so that it compiles
 * on its own: copy one file into your project and it builds. ------------ */
constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }

/* The most dynamic shared memory one block may ask for on the current GPU
 * (after cudaFuncSetAttribute): 232448 bytes on sm_90, 65536 on sm_75. */
cudaError_t smem_per_block_optin(int *bytes)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    return e;
}

constexpr size_t kSmemNoOptin = 48 * 1024; /* dynamic shared memory a launch may use without the attribute */

/* ---- The variant. ----------------------------------------------------- */
constexpr unsigned kThreads = GK7_THREADS;
constexpr unsigned kR = GK7_R;
constexpr unsigned kJ = GK7_J;
constexpr unsigned kMaxTaps = GK7_MAX_TAPS;
constexpr unsigned kTile = kThreads * kR; /* outputs per tile: 4096 by default */
constexpr size_t kMaxGrid = (size_t)1 << 20; /* blocks per launch, far below gridDim.x's 2^31 - 1 */
constexpr unsigned kFill = 8;             /* global loads per thread in flight in the fill */
/* The padded shared layout: logical input i at word (i / kR) x kRow + i % kR.
 * Thread t's 16-byte word k of the window for chunk jc is logical kR t + jc
 * + 4k, so 8 consecutive lanes (one phase of a 16-byte load) read kRow
 * words apart; with kRow / 4 odd their 16-byte words fall on 8 different
 * groups of 4 banks (kR = 16: kRow = 20). */
constexpr unsigned kPad = (kR / 4) % 2 == 0 ? 4 : 0;
constexpr unsigned kRow = kR + kPad;
static_assert(kThreads % 32 == 0 && kThreads <= 1024, "GK7_THREADS: a multiple of 32, at most 1024");
static_assert(kR % 4 == 0 && kR > 0, "GK7_R: a positive multiple of 4");
static_assert(kJ % kR == 0, "GK7_J: a multiple of GK7_R (each chunk starts on a row of the padded layout)");
static_assert(kMaxTaps % kJ == 0 && kMaxTaps > 0, "GK7_MAX_TAPS: a positive multiple of GK7_J");

/* Taps per pass rounded up to a multiple of kJ: the size of the mask slot. */
__host__ __device__ inline unsigned pass_taps(size_t width)
{
    const size_t t = width < kMaxTaps ? width : kMaxTaps;
    return (unsigned)((t + kJ - 1) / kJ * kJ);
}

/* Words of the padded input span for a pass of `taps` (rounded) taps: the
 * span is kTile + taps logical inputs, kTile / kR + taps / kR rows. */
__host__ __device__ inline unsigned span_words(unsigned taps) { return (kTile + taps) / kR * kRow; }

/* Dynamic shared memory in bytes: the padded span and the mask slot. */
inline size_t smem_bytes(size_t width)
{
    const unsigned taps = pass_taps(width);
    return ((size_t)span_words(taps) + taps) * sizeof(float);
}

/* One chunk of kJ taps starting at tap jc of the pass, for the kR outputs of
 * the thread whose padded row is `row`: thread t's window is logical kR t +
 * jc .. kR t + jc + kR + kJ - 1; jc is a multiple of kJ and so of kR, so
 * the window starts a row: row t + jc / kR, and the 16-byte word k of the
 * window is at a constant offset from it. Partial: only the first `valid`
 * taps are applied (a test per tap, the same in every lane). */
template <bool Partial>
__device__ __forceinline__ void chunk(const float *row, const float *ms, unsigned jc, unsigned valid, float (&acc)[kR])
{
    const float *wp = row + jc / kR * kRow;
    float w[kR + kJ];
#pragma unroll
    for (unsigned k = 0; k < (kR + kJ) / 4; ++k) { /* LDS.128, conflict-free (padded rows) */
        const float4 v = *reinterpret_cast<const float4 *>(wp + (4 * k) / kR * kRow + (4 * k) % kR);
        w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
    }
    float m[kJ];
#pragma unroll
    for (unsigned k = 0; k < kJ / 4; ++k) { /* LDS.128, the same address in every lane: a broadcast */
        const float4 v = *reinterpret_cast<const float4 *>(ms + jc + 4 * k);
        m[4 * k] = v.x, m[4 * k + 1] = v.y, m[4 * k + 2] = v.z, m[4 * k + 3] = v.w;
    }
    /* kR x kJ FMAs, all register indices constant: output c, tap jc + jj
     * reads window word c + jj. */
#pragma unroll
    for (unsigned jj = 0; jj < kJ; ++jj) {
        if (Partial && jj >= valid) break;
#pragma unroll
        for (unsigned c = 0; c < kR; ++c) acc[c] = fmaf(w[c + jj], m[jj], acc[c]);
    }
}

/* Tile k covers outputs o0 .. o0 + kTile - 1, o0 = base + k kTile, base =
 * -(out's offset in floats from its 16-byte boundary), so that out + o0
 * (and each thread's out + o0 + kR t) is 16-byte aligned; positions below
 * 0 or from n on are computed and not stored. Thread t computes outputs
 * o0 + kR t + c, c < kR. Launched with smem_bytes(width) of dynamic shared
 * memory; taps = pass_taps(width). */
__global__ void __launch_bounds__(kThreads, GK7_MIN_BLOCKS)
    conv_register_blocked(const float *__restrict__ in, size_t n, const float *__restrict__ mask, size_t width,
                          float *__restrict__ out, long long base, size_t tiles, unsigned taps)
{
    extern __shared__ float4 smem[];
    float *xs = reinterpret_cast<float *>(smem); /* the padded input span of a pass */
    float *ms = xs + span_words(taps);            /* the taps of a pass, zero after the last (16-byte aligned) */
    const unsigned t = threadIdx.x;
    const long long r = (long long)(width / 2);
    const size_t passes = (width + kMaxTaps - 1) / kMaxTaps;

    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const long long o0 = base + (long long)(tile * kTile);
        float acc[kR];
#pragma unroll
        for (unsigned c = 0; c < kR; ++c) acc[c] = 0.0f;

        for (size_t pass = 0; pass < passes; ++pass) {
            const size_t j0 = pass * kMaxTaps;
            const unsigned nt = (unsigned)(width - j0 < kMaxTaps ? width - j0 : kMaxTaps);
            const unsigned ntp = (nt + kJ - 1) / kJ * kJ; /* taps of this pass, padded with zero taps */
            const unsigned span = kTile + ntp;             /* logical inputs of this pass */
            const long long p0 = o0 - r + (long long)j0;   /* position of logical input 0 */

            __syncthreads(); /* every thread is done reading the previous pass's span and taps */
            if (passes > 1 || tile == blockIdx.x) /* one pass: the taps stay from the first tile on */
#pragma unroll 1
                for (unsigned k = t; k < ntp; k += kThreads) ms[k] = k < nt ? __ldg(mask + j0 + k) : 0.0f;
            /* The fill: consecutive threads load consecutive inputs
             * (coalesced 4-byte loads), in rounds of kFill loads per thread
             * all issued before the first is stored. The span is read from
             * global memory once per block; it is a small part of the work:
             * kTile + ntp inputs for kTile x ntp FMAs. */
            const bool inside = p0 >= 0 && p0 + (long long)span <= (long long)n;
#pragma unroll 1
            for (unsigned i0 = t; i0 < span; i0 += kFill * kThreads) {
                float v[kFill];
#pragma unroll
                for (unsigned u = 0; u < kFill; ++u) {
                    const unsigned i = i0 + u * kThreads;
                    const long long p = p0 + i;
                    /* inside: only the end of the span to test; at either end
                     * of the input: ghost cells 0, nothing read outside [0, n) */
                    v[u] = i < span && (inside || (p >= 0 && p < (long long)n)) ? __ldg(in + p) : 0.0f;
                }
#pragma unroll
                for (unsigned u = 0; u < kFill; ++u) {
                    const unsigned i = i0 + u * kThreads;
                    if (i < span) xs[i / kR * kRow + i % kR] = v[u];
                }
            }
            __syncthreads(); /* the span and the taps are complete before any thread reads them */

            /* Chunks of kJ taps. Thread t's window for chunk jc is logical
             * kR t + jc .. kR t + jc + kR + kJ - 1; jc is a multiple of kJ and
             * so of kR, so the window starts a row: row t + jc / kR, and the
             * 16-byte word k of the window is at a constant offset from it. */
            const float *row = xs + (size_t)t * kRow;
            const unsigned nfull = nt / kJ * kJ; /* taps in whole chunks */
#pragma unroll 1
            for (unsigned jc = 0; jc < nfull; jc += kJ) chunk<false>(row, ms, jc, kJ, acc);
            /* The last, partial chunk: its taps past nt are zero, but the
             * inputs they would meet are real (possibly Inf or NaN, and
             * 0 * Inf = NaN), so those taps are skipped, not multiplied. */
            if (nfull < nt) chunk<true>(row, ms, nfull, nt - nfull, acc);
        }

        /* kR outputs, 16-byte stores where all four are in [0, n). */
        const long long p = o0 + (long long)kR * t;
#pragma unroll
        for (unsigned c = 0; c < kR; c += 4) {
            if (p + c >= 0 && p + c + 4 <= (long long)n) {
                *reinterpret_cast<float4 *>(out + (p + c)) = make_float4(acc[c], acc[c + 1], acc[c + 2], acc[c + 3]);
            } else {
#pragma unroll
                for (unsigned e = 0; e < 4; ++e)
                    if (p + c + e >= 0 && p + c + e < (long long)n) out[p + c + e] = acc[c + e];
            }
        }
    }
}

} // namespace

extern "C" size_t gk_conv_07_register_blocked_workspace(size_t n, size_t width)
{
    (void)n;
    (void)width;
    return 0;
}

extern "C" cudaError_t gk_conv_07_register_blocked_run(const float *in, size_t n, const float *mask, size_t width,
                                                       float *out, void *workspace, cudaStream_t stream)
{
    (void)workspace;
    if (n == 0) return cudaSuccess;
    if (width == 0) return cudaErrorInvalidValue;
    const size_t smem = smem_bytes(width);
    cudaError_t e;
    if (smem > kSmemNoOptin) {
        /* Only with tuning values far from the defaults (the defaults need
         * at most 38912 bytes). The limit is set to the device's maximum,
         * the same value for every call. */
        int optin = 0;
        e = smem_per_block_optin(&optin);
        if (e) return e;
        if (smem > (size_t)optin) return cudaErrorInvalidValue;
        e = cudaFuncSetAttribute(conv_register_blocked, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
        if (e) return e;
    }
    const size_t out_lead = ((uintptr_t)out & 15) / 4; /* out's offset in floats from its 16-byte boundary */
    const long long base = -(long long)out_lead;
    const size_t tiles = ceil_div(n + out_lead, kTile);
    /* One tile per block: the hardware hands out blocks as SMs free up, so
     * the last wave is short whatever the GPU. Beyond kMaxGrid tiles (n past
     * 2^32) each block walks several tiles, grid-stride. */
    const size_t blocks = tiles < kMaxGrid ? tiles : kMaxGrid;
    conv_register_blocked<<<(unsigned)blocks, kThreads, smem, stream>>>(in, n, mask, width, out, base, tiles,
                                                                        pass_taps(width));
    return cudaGetLastError();
}
