/* Variant 7: register blocked, for large masks. 16 outputs per thread,
 * chunks of 16 taps, 256 FMAs per 12 shared loads; a grid of resident
 * blocks that copies the next tile's input span into shared memory
 * (cp.async) while it computes the current one.
 *
 * The idea. For large widths the convolution is arithmetic: 2w FLOPs per
 * output against 8 bytes of DRAM traffic, 2w / 8 = 31.75 FLOP/B at w = 127
 * and 255.75 at w = 1023, far right of an H200's roofline knee (about 67
 * TFLOP/s / 4.8 TB/s = 14 FLOP/B, w = 56). The limit is the FMA units: an
 * sm_90 SM has 4 schedulers, each issuing one warp instruction per clock to
 * 32 fp32 lanes, 128 FMAs per clock. To come near that, nearly every issued
 * instruction must be an FFMA whose operands are all in registers: anything
 * else a warp issues (a shared load, an address computation, a loop test, a
 * barrier) takes the slot of an FFMA, and so does a clock in which no warp
 * is ready because all wait for memory. The first is register blocking,
 * the technique of the fast SGEMM kernels, applied to the convolution's
 * sliding window (variant 5 did it with 8 outputs, scalar loads and the
 * mask in the constant bank); the second is keeping the input's DRAM
 * traffic out of the way of the FMAs.
 *
 * The arithmetic, for the defaults R = GK7_R = 16 and J = GK7_J = 16:
 *   - Thread t of a block computes the R = 16 consecutive outputs o0 + 16t
 *     .. o0 + 16t + 15 of a tile of 256 x 16 = 4096 outputs, 16 accumulators
 *     in registers.
 *   - The tile's input span (4096 + w - 1 inputs, rounded up to whole
 *     chunks) is in shared memory; the taps too, zero padded to a multiple
 *     of J.
 *   - The taps are walked in chunks of J = 16. For each chunk a thread loads
 *     its window of R + J = 32 inputs (31 used) as 8 LDS.128 and the 16 taps
 *     as 4 LDS.128 (every lane on the same address: a broadcast), then does
 *     R x J = 256 FFMAs acc[c] += w[c + jj] x m[jj], fully unrolled, so
 *     every register index is a constant. cuobjdump -sass (CUDA 13.0,
 *     sm_90): the chunk loop is 278 instructions, 256 of them FFMA (92%),
 *     12 LDS.128 and 10 for the addresses and the loop. Variant 3 had one
 *     shared load and one constant read per FFMA; variant 5 about 19 other
 *     instructions per 64 FFMAs.
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
 *     shared memory for the span, and the fill's 4-byte writes (32
 *     consecutive logical inputs per warp, words 20a .. 20a + 15 and 20a +
 *     20 .. 20a + 35) meet a 2-way conflict on 4 banks: 2 wavefronts per
 *     warp copy.
 *
 * Why a resident grid and double buffering. A simpler design, one tile per
 * block (fill, barrier, compute, store, 2 barriers per tile, the span loaded
 * in rounds of 8 four-byte loads per thread), measured (H200, CUDA 13.0,
 * 2026-11-23, n = 2^28): 1.254 ms at w = 3, 1.251 at 7, 1.270 at 31, 2.033
 * at 127 (50.1% of the fp32 peak), 10.74 at 1023 (76%). The time at small
 * widths does not depend on w: it is the cost of a tile's fill, which a
 * block spent waiting (3 rounds of loads for a 4224-input span), and the
 * SM's other blocks covered it only in part. At w = 127 that wait and the
 * compute (2 x 2^28 x 127 FLOPs / 66.9 TFLOP/s = 1.02 ms at the peak) added
 * up instead of overlapping. This kernel changes that:
 *   1. A grid of exactly the resident blocks (SMs x blocks per SM from the
 *      occupancy calculator). Block b walks tiles b, b + gridDim.x, ...
 *      (with more than one pass, each tile's passes in turn: one "step" per
 *      tile and pass).
 *   2. GK7_STAGES = 2 spans per block in shared memory (double buffering).
 *      Right after the barrier that opens step q, each thread issues the
 *      copies of step q + 1 into the other buffer, then computes step q:
 *      the next span travels while this one's FMAs run. The copies are
 *      cp.async (global to shared without a register: LDGSTS in SASS), so
 *      they cost no registers and the thread does not wait for them; a
 *      cp.async.wait_group before the next barrier is the only place it
 *      can wait. With GK7_STAGES = s, the copies run s - 1 steps ahead.
 *   3. One barrier per step instead of 2. It says both things at once: this
 *      step's copies are complete (every thread waited for its own before
 *      arriving), and every thread is done with the previous step's buffer,
 *      which the copies issued right after it overwrite.
 *   4. The fill of an interior tile: thread t copies logical inputs t + 256k:
 *      k < 16 unrolled, each a single LDGSTS whose shared and global
 *      addresses are constant offsets from two registers (t + 256k lies 320k
 *      words after t in the padded layout), then at most ceil(T / 256) for
 *      the halo (T: the taps of a pass rounded up to 16). About 30 instructions per thread and tile, against 127 x
 *      16 = 2032 FFMAs at w = 127. Each warp copy reads 128 contiguous bytes
 *      of in. The copies are 4 bytes wide because the span's first input
 *      sits anywhere in in's 16-byte grid ((lead - r + base) mod 4, fixed per
 *      call), while a 16-byte copy into the padded layout needs a group that
 *      starts at a logical multiple of 4; 16-byte copies would need the
 *      window shifted by a compile-time offset (as variant 6 does) and one
 *      more LDS.128 per chunk. The tiles at the two ends of the input test
 *      every position and zero-fill the ghost cells (cp.async with source
 *      size 0: nothing is read outside [0, n)).
 *   5. The taps: with one pass they are copied once per block, in the first
 *      step's group, and stay for every tile.
 *
 * Counted, for the defaults (sm_90):
 *   - Shared memory per block: 2 spans of (4096 + T) / 16 x 20 words and
 *     T words of taps, T = the taps of a pass rounded up to 16: 40960 + 14T
 *     bytes: 41184 at w <= 16, 41408 at w = 31, 42752 at w = 127, 55296 at
 *     w = 1023 (above 48 KB: the launch opts in). Masks wider than
 *     GK7_MAX_TAPS = 1024 take ceil(w / 1024) passes, each bringing its own
 *     taps, so 2 tap slots: 59392 bytes.
 *   - Blocks per SM: ptxas -v (CUDA 13.0, sm_90) reports 48 registers, no
 *     spills: 48 x 256 = 12288 per block, 65536 / 12288 = 5 blocks by
 *     registers. An sm_90 SM has 233472 bytes of shared memory and keeps
 *     1024 of them per block: (42752 + 1024) x 5 = 218880 fits at w = 127
 *     (5 blocks up to w = 336), (55296 + 1024) x 4 = 225280 at w = 1023 (4
 *     blocks), 3 for the multi-pass widths. 5 blocks are 40 warps, 10 per
 *     scheduler, each with 16 independent accumulator chains. The shared
 *     memory is all the SM's L1/shared storage can give: the launch asks for
 *     the maximum carveout (the kernel reuses nothing through L1).
 *   - Bytes in flight: each block has its next span in flight while it
 *     computes, (4096 + T) x 4 bytes: 16.9 KB at w = 127, 5 blocks: 84 KB
 *     per SM issued per round of tiles. A block's tile at w = 127 is 4096 x
 *     127 FMAs on a fifth of the SM's 128 lanes, about 20300 clocks (10 us
 *     at 1.98 GHz): the copies have that long to land, and the SM's read
 *     rate at the FMA peak is 128 x 4.1 / 127 = 4.2 bytes per clock, a
 *     quarter of its share of DRAM (4.8 TB/s / 132 / 1.98 GHz = 18 bytes
 *     per clock). At small w the compute no longer hides anything and the
 *     84 KB in flight per SM is what keeps DRAM busy (Little's law: 36 GB/s
 *     per SM x latency); variant 6 remains the kernel for those widths.
 *   - Instructions per thread and tile besides the chunks (cuobjdump -sass):
 *     the fill (about 30 for the 16 interior copies), 1 wait and 1
 *     barrier, the cursor and chunk set-up (about 40, mostly uniform-
 *     datapath instructions), and for a tile inside [0, n) 4 STG.128 with
 *     no test (the tiles at the two ends test each group and output). The
 *     zero padded taps waste no FFMA: the last, partial chunk stops at the
 *     width (a test per tap, 15 at w = 127). All told about 2300
 *     instructions per thread and tile at w = 127, 2032 of them FFMA.
 *   - The last round: 65536 tiles over 660 blocks at n = 2^28, w = 127: 99
 *     or 100 tiles per block, the longest under 1% over the mean.
 *
 * Bound by: FMA issue, at up to 92% of the issue slots inside a chunk, less
 * the fill, the barrier, the stores and the last round. Below w = 56 not by
 * the FMAs: the time hardly changes from w = 3 to 31 (0.7628, 0.7579,
 * 0.7844 ms at n = 2^28, conv/bench-h200.json), 64.4% to 66.6% of a device
 * copy's speed. Variant 6 is faster at w = 3 and 7, but not at w = 31
 * (0.8398 ms there). Before sm_80 (the sm_75 build)
 * there is no cp.async: the copies are plain loads and stores, correct but
 * without the overlap.
 *
 * Tuning knobs (compile-time macros), with the defaults and why:
 *   GK7_THREADS    256  threads per block (a multiple of 32 and of GK7_R);
 *                       tile = GK7_THREADS x GK7_R.
 *   GK7_R           16  outputs per thread (a multiple of 4): the reuse of
 *                       each window load. Shared loads per FFMA are
 *                       (R + J) / 4 + J / 4 per R x J: 12 / 256 = 4.7% at
 *                       16 x 16, 6 / 64 = 9.4% at 8 x 8. 32 x 32 needs 80
 *                       registers (ptxas, with GK7_MIN_BLOCKS=3; under
 *                       the default cap of 48 it spills to a 304-byte
 *                       stack frame)
 *                       and 75 KB of shared memory per block at w = 127,
 *                       87 KB at 1023: 3 blocks per SM, 2 at w = 1023.
 *   GK7_J           16  taps per chunk, a multiple of GK7_R (so that a
 *                       window starts on a row of the padded layout); also
 *                       the zero-padding granularity.
 *   GK7_MAX_TAPS  1024  taps per pass (a multiple of J). With 2 spans per
 *                       block, 2048 would need 69632 bytes (3 blocks per
 *                       SM) from w = 1025 on; 1024 keeps every w <= 1024 in
 *                       one pass at 4 or 5 blocks per SM.
 *   GK7_STAGES       2  spans per block: copies run GK7_STAGES - 1 tiles
 *                       ahead. 3 costs (4096 + T) x 5 bytes more (63872 at
 *                       w = 127: 3 blocks per SM).
 *   GK7_MIN_BLOCKS   5  (1280 / GK7_THREADS; 1024 / GK7_THREADS on sm_75)
 *                       __launch_bounds__ blocks per SM: caps registers at
 *                       51; ptxas allocates 48.
 * The bench at n = 2^28 and w = 127, 1023 against the fp32 peak is the test
 * of these; rebuild with e.g. -DGK7_STAGES=3 or -DGK7_THREADS=128 to
 * compare.
 * Measured (H200, CUDA 13.0, 2026-11-23, n = 2^28, the module's bench,
 * conv/bench-h200.json): 0.7579 ms at w = 7, 1.6057 ms at w = 127 (63.5% of
 * the fp32 peak, against 2.033 ms with one tile per block), 10.89 ms at
 * w = 1023 (75.4%). A timing-only sweep of the knobs on the same GPU (one
 * process per setting, median of 10 calls, no L2 flush; widths 3, 7, 31,
 * 127, 1023): defaults 0.773 / 0.767 / 0.793 / 1.614 / 10.93 ms;
 * -DGK7_STAGES=3 0.769 / 0.765 / 0.802 / 1.638 / 11.12; -DGK7_THREADS=128
 * 0.734 / 0.730 / 0.737 / 1.555 / 11.01; -DGK7_J=32
 * 0.767 / 0.763 / 0.777 / 1.541 / 10.15 (66.1% and 80.9% of the peak at 127
 * and 1023; ptxas: 48 registers, no spills). J = 32 was the faster setting
 * at every width of that sweep; the default stays J = 16, the setting that
 * the test suite and the sanitizer run and that the counts above describe.
 *
 * Limits: any width (several passes above GK7_MAX_TAPS); any n: 64-bit
 * positions, a grid of min(resident blocks, tiles) whose blocks walk all
 * tiles. The table's "tile" is 4096 outputs, laid from position -d (d =
 * out's distance in floats from the 16-byte boundary below it, so that each
 * thread's 16 outputs go out as 4 aligned STG.128). The mask slot is
 * zero-padded to whole chunks, but the padded taps are never multiplied:
 * the last, partial chunk of a pass runs with a test per tap (uniform
 * across the warp) and stops at the width, because a zero tap times a real
 * input that is Inf or NaN would be NaN, an input the exact sum never sees.
 * in, mask and out need only their 4-byte alignment. No workspace, no host
 * synchronisation.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution, halo cells) and the
 * thread-coarsening sections; CUDA C++ Programming Guide, "Shared Memory"
 * (32 banks of 4 bytes, 128-bit accesses), "Asynchronous Data Copies"
 * (cp.async, commit and wait of groups), "Occupancy Calculator",
 * "Arithmetic Instructions" (128 fp32 results per clock per SM on compute
 * capability 9.0), "Compute Capability 9.0" (228 KB of shared memory per
 * SM, 1 KB per block reserved); PTX ISA, "cp.async" (src-size: zero fill);
 * CUDA C++ Best Practices Guide, "Shared Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 07_register_blocked.cu, next to
 * common.cuh (this folder's shared plumbing: ceil_div, the shared-memory
 * opt-in, the resident grid); the two files and the CUDA toolkit are all it
 * needs.
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "common.cuh" /* ceil_div, allow_smem, resident_grid */

/* Tuning knobs (the header derives the defaults): */
#ifndef GK7_THREADS
#define GK7_THREADS 256 /* threads per block, a multiple of 32 and of GK7_R */
#endif
#ifndef GK7_R
#define GK7_R 16 /* consecutive outputs per thread, a multiple of 4 */
#endif
#ifndef GK7_J
#define GK7_J 16 /* taps per chunk, a multiple of GK7_R */
#endif
#ifndef GK7_MAX_TAPS
#define GK7_MAX_TAPS 1024 /* taps per pass over a tile, a multiple of GK7_J; wider masks take several passes */
#endif
#ifndef GK7_STAGES
#define GK7_STAGES 2 /* spans in shared memory per block: the current one and GK7_STAGES - 1 in flight */
#endif
#ifndef GK7_MIN_BLOCKS /* __launch_bounds__ blocks per SM: 5 x 256 threads cap registers at 51 (48 allocated) */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define GK7_MIN_BLOCKS (1024 / GK7_THREADS) /* sm_75: 1024 threads per SM */
#else
#define GK7_MIN_BLOCKS (1280 / GK7_THREADS)
#endif
#endif

namespace {

/* ---- Asynchronous copies, global to shared (cp.async, sm_80 on). A copy
 * is issued and forgotten: no register holds the value, and the thread
 * goes on. commit closes the group of copies issued since the last commit;
 * wait<N> returns when at most N of this thread's groups are incomplete.
 * The copies of one thread are then in shared memory, and a barrier after
 * the wait makes everyone's visible to everyone. Before sm_80 (the sm_75
 * build) the copy is a plain load and store, commit and wait do nothing,
 * and the kernel is correct, only without the overlap. ------------------ */
__device__ __forceinline__ void copy4(float *dst, const float *src) /* 4 bytes */
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src)
                 : "memory");
#else
    *dst = __ldg(src);
#endif
}

/* 4 bytes if valid, else a zero: with src-size 0 nothing is read (src must
 * still be an address in the array; the callers pass its start). */
__device__ __forceinline__ void copy4_or_zero(float *dst, const float *src, bool valid)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
                 "l"(src), "r"(valid ? 4u : 0u)
                 : "memory");
#else
    *dst = valid ? __ldg(src) : 0.0f;
#endif
}

__device__ __forceinline__ void copies_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void copies_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/* ---- The variant. ----------------------------------------------------- */
constexpr unsigned kThreads = GK7_THREADS;
constexpr unsigned kR = GK7_R;
constexpr unsigned kJ = GK7_J;
constexpr unsigned kMaxTaps = GK7_MAX_TAPS;
constexpr unsigned kStages = GK7_STAGES;
constexpr unsigned kTile = kThreads * kR; /* outputs per tile: 4096 by default */
/* The padded shared layout: logical input i at word (i / kR) x kRow + i % kR.
 * Thread t's 16-byte word k of the window for chunk jc is logical kR t + jc
 * + 4k, so 8 consecutive lanes (one phase of a 16-byte load) read kRow
 * words apart; with kRow / 4 odd their 16-byte words fall on 8 different
 * groups of 4 banks (kR = 16: kRow = 20). */
constexpr unsigned kPad = (kR / 4) % 2 == 0 ? 4 : 0;
constexpr unsigned kRow = kR + kPad;
/* In the fill, thread t copies logical inputs t + k kThreads: kThreads is a
 * multiple of kR, so those lie kFillStep words apart in the padded layout
 * (320 for the defaults), a constant offset from thread t's first word. */
constexpr unsigned kFillStep = kThreads / kR * kRow;
static_assert(kThreads % 32 == 0 && kThreads <= 1024, "GK7_THREADS: a multiple of 32, at most 1024");
static_assert(kR % 4 == 0 && kR > 0, "GK7_R: a positive multiple of 4");
static_assert(kThreads % kR == 0, "GK7_THREADS: a multiple of GK7_R (the fill's constant offsets)");
static_assert(kJ % kR == 0, "GK7_J: a multiple of GK7_R (each chunk starts on a row of the padded layout)");
static_assert(kMaxTaps % kJ == 0 && kMaxTaps > 0, "GK7_MAX_TAPS: a positive multiple of GK7_J");
static_assert(kStages >= 2 && kStages <= 8, "GK7_STAGES: 2 (double buffering) to 8");

/* Taps per pass rounded up to a multiple of kJ: the size of a mask slot. */
__host__ __device__ inline unsigned pass_taps(size_t width)
{
    const size_t t = width < kMaxTaps ? width : kMaxTaps;
    return (unsigned)((t + kJ - 1) / kJ * kJ);
}

/* Words of one padded input span for a pass of `taps` (rounded) taps: the
 * span is kTile + taps logical inputs, kTile / kR + taps / kR rows (a
 * multiple of 4 words, so every span and slot stays 16-byte aligned). */
__host__ __device__ inline unsigned span_words(unsigned taps) { return (kTile + taps) / kR * kRow; }

/* Dynamic shared memory in bytes: kStages spans, and one mask slot (one
 * pass: the taps stay for every tile) or kStages (several passes: each
 * step brings its own taps). */
inline size_t smem_bytes(size_t width)
{
    const unsigned taps = pass_taps(width);
    const unsigned slots = width > kMaxTaps ? kStages : 1;
    return ((size_t)kStages * span_words(taps) + (size_t)slots * taps) * sizeof(float);
}

/* Issues, without waiting for them, this thread's copies of the input span
 * of one pass (taps j0 = pass x kMaxTaps on) over the tile that starts at
 * output o0, into xs (padded layout), and, when ms is not null, the pass's
 * taps into ms, zero after the last. Logical input i of the span is
 * position p0 + i, p0 = o0 - r + j0; positions outside [0, n) are ghost
 * cells: zero-filled, never read. Consecutive threads copy consecutive
 * inputs (each warp copy is 128 contiguous bytes of in). */
__device__ __forceinline__ void fill(const float *__restrict__ in, size_t n, const float *__restrict__ mask,
                                     size_t width, long long o0, long long r, size_t pass, float *xs, float *ms)
{
    const unsigned t = threadIdx.x;
    const size_t j0 = pass * kMaxTaps;
    const unsigned nt = (unsigned)(width - j0 < kMaxTaps ? width - j0 : kMaxTaps);
    const unsigned ntp = (nt + kJ - 1) / kJ * kJ; /* taps of this pass, padded with zero taps */
    const unsigned span = kTile + ntp;             /* logical inputs of this pass */
    const long long p0 = o0 - r + (long long)j0;
    if (ms)
#pragma unroll 1
        for (unsigned k = t; k < ntp; k += kThreads) copy4_or_zero(ms + k, k < nt ? mask + j0 + k : mask, k < nt);
    float *d = xs + t / kR * kRow + t % kR; /* logical input t */
    if (p0 >= 0 && p0 + (long long)span <= (long long)n) {
        /* The whole span inside the input (every tile but those at the two
         * ends): the first kTile inputs are exactly kR copies per thread,
         * unrolled, every address a constant offset from d and s (one
         * instruction per copy); then the ntp inputs of the halo. */
        const float *s = in + (p0 + t);
#pragma unroll
        for (unsigned k = 0; k < kR; ++k) copy4(d + k * kFillStep, s + k * kThreads);
        d += kR * kFillStep, s += kR * kThreads;
#pragma unroll 1
        for (unsigned i = kTile + t; i < span; i += kThreads, d += kFillStep, s += kThreads) copy4(d, s);
    } else {
        /* A tile at either end of the input: a test per input. */
#pragma unroll 4
        for (unsigned i = t; i < span; i += kThreads, d += kFillStep) {
            const long long p = p0 + i;
            const bool ok = p >= 0 && p < (long long)n;
            copy4_or_zero(d, ok ? in + p : in, ok);
        }
    }
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

/* One 16-byte store (STG.128) to a 16-byte aligned address, written as a
 * plain st.global.v4.f32 in inline PTX because the compiler (CUDA 13.0)
 * otherwise splits the first of the kR / 4 float4 assignments into 4
 * scalar STG when it merges it with the bounds-tested path below. */
__device__ __forceinline__ void store16(float *p, float a, float b, float c, float d)
{
#if defined(__CUDA_ARCH__)
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"l"(p), "f"(a), "f"(b), "f"(c), "f"(d) : "memory");
#else
    *reinterpret_cast<float4 *>(p) = make_float4(a, b, c, d);
#endif
}

/* A grid of the resident blocks; block b walks tiles b, b + gridDim.x, ...
 * Tile k covers outputs o0 .. o0 + kTile - 1, o0 = base + k kTile, base =
 * -(out's offset in floats from its 16-byte boundary), so that out + o0
 * (and each thread's out + o0 + kR t) is 16-byte aligned; positions below
 * 0 or from n on are computed and not stored. Thread t computes outputs
 * o0 + kR t + c, c < kR. A block's work is a sequence of steps, one per
 * (tile, pass): for a mask of at most kMaxTaps taps, one step per tile.
 * Step q's span lives in buffer q mod kStages; its copies are issued
 * kStages - 1 steps ahead. Launched with smem_bytes(width) of dynamic
 * shared memory; taps = pass_taps(width). */
__global__ void __launch_bounds__(kThreads, GK7_MIN_BLOCKS)
    conv_register_blocked(const float *__restrict__ in, size_t n, const float *__restrict__ mask, size_t width,
                          float *__restrict__ out, long long base, size_t tiles, unsigned taps)
{
    extern __shared__ float4 smem[];
    const unsigned sw = span_words(taps);
    float *const xs0 = reinterpret_cast<float *>(smem); /* kStages padded input spans, sw words each */
    float *const ms0 = xs0 + kStages * sw;              /* mask slot(s), taps words each (16-byte aligned) */
    const unsigned t = threadIdx.x;
    const long long r = (long long)(width / 2);
    const size_t passes = (width + kMaxTaps - 1) / kMaxTaps;
    const bool multi = passes > 1;

    /* The fill cursor: the next step whose copies are to be issued. */
    size_t ftile = blockIdx.x, fpass = 0;
    unsigned fbuf = 0;
    /* The prologue: the copies of the first kStages - 1 steps (one group
     * each, empty past the block's last step), and with one pass the taps,
     * once for all tiles, in the first group. */
#pragma unroll 1
    for (unsigned q = 0; q + 1 < kStages; ++q) {
        if (ftile < tiles)
            fill(in, n, mask, width, base + (long long)(ftile * kTile), r, fpass, xs0 + fbuf * sw,
                 multi ? ms0 + fbuf * taps : q == 0 ? ms0 : nullptr);
        copies_commit();
        if (++fpass == passes) fpass = 0, ftile += gridDim.x;
        fbuf = fbuf + 1 == kStages ? 0 : fbuf + 1;
    }

    unsigned buf = 0; /* the buffer of the step being computed */
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const long long o0 = base + (long long)(tile * kTile);
        float acc[kR];
#pragma unroll
        for (unsigned c = 0; c < kR; ++c) acc[c] = 0.0f;

        for (size_t pass = 0; pass < passes; ++pass) {
            /* This step's group is complete once at most the kStages - 2
             * groups issued after it are still in flight. */
            copies_wait<kStages - 2>();
            __syncthreads(); /* (1) every thread's copies of this step's span (and taps) are in shared memory;
                                (2) every thread is done computing the previous step, whose buffer fbuf the
                                    copies issued next overwrite */
            /* Issue the copies of step + kStages - 1 before computing this
             * step: they travel while this step's FMAs run. An empty group
             * past the block's last step keeps the count of groups the wait
             * above relies on. */
            if (ftile < tiles)
                fill(in, n, mask, width, base + (long long)(ftile * kTile), r, fpass, xs0 + fbuf * sw,
                     multi ? ms0 + fbuf * taps : nullptr);
            copies_commit();
            if (++fpass == passes) fpass = 0, ftile += gridDim.x;
            fbuf = fbuf + 1 == kStages ? 0 : fbuf + 1;

            /* Chunks of kJ taps (see chunk()). */
            const size_t j0 = pass * kMaxTaps;
            const unsigned nt = (unsigned)(width - j0 < kMaxTaps ? width - j0 : kMaxTaps);
            const float *row = xs0 + buf * sw + t * kRow;
            const float *ms = multi ? ms0 + buf * taps : ms0;
            const unsigned nfull = nt / kJ * kJ; /* taps in whole chunks */
#pragma unroll 1
            for (unsigned jc = 0; jc < nfull; jc += kJ) chunk<false>(row, ms, jc, kJ, acc);
            /* The last, partial chunk: its taps past nt are zero, but the
             * inputs they would meet are real (possibly Inf or NaN, and
             * 0 * Inf = NaN), so those taps are skipped, not multiplied. */
            if (nfull < nt) chunk<true>(row, ms, nfull, nt - nfull, acc);
            buf = buf + 1 == kStages ? 0 : buf + 1;
        }

        /* kR outputs, 16-byte stores where all four are in [0, n): with no
         * test at all when the whole tile is (every tile but those at the
         * two ends), with a test per group of 4 and per output otherwise. */
        const long long p = o0 + (long long)kR * t;
        if (o0 >= 0 && o0 + (long long)kTile <= (long long)n) {
#pragma unroll
            for (unsigned c = 0; c < kR; c += 4) store16(out + (p + c), acc[c], acc[c + 1], acc[c + 2], acc[c + 3]);
            continue;
        }
#pragma unroll
        for (unsigned c = 0; c < kR; c += 4) {
            if (p + c >= 0 && p + c + 4 <= (long long)n) {
                store16(out + (p + c), acc[c], acc[c + 1], acc[c + 2], acc[c + 3]);
            } else {
#pragma unroll
                for (unsigned e = 0; e < 4; ++e)
                    if (p + c + e >= 0 && p + c + e < (long long)n) out[p + c + e] = acc[c + e];
            }
        }
    }
}

} // namespace

extern "C" size_t gk_conv_07_register_blocked_workspace(size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_07_register_blocked_run(const float *in, size_t n, const float *mask, size_t width,
                                                       float *out, void * /* workspace: none */, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    if (width == 0) return cudaErrorInvalidValue;
    /* Above 48 KB for masks wider than about 580 taps (55296 bytes at 1024). */
    const size_t smem = smem_bytes(width);
    cudaError_t e = allow_smem(conv_register_blocked, smem);
    if (e) return e;
    /* All of the SM's unified L1/shared storage that can be shared memory:
     * the kernel reads in and mask only through the copies into shared
     * memory and reuses nothing in L1, and 4 blocks of 42 to 55 KB need
     * more than a small carveout. A hint, the same value every call. */
    e = cudaFuncSetAttribute(conv_register_blocked, cudaFuncAttributePreferredSharedMemoryCarveout,
                             (int)cudaSharedmemCarveoutMaxShared);
    if (e) return e;
    const size_t out_lead = ((uintptr_t)out & 15) / 4; /* out's offset in floats from its 16-byte boundary */
    const long long base = -(long long)out_lead;
    const size_t tiles = ceil_div(n + out_lead, kTile);
    /* A grid of the blocks the GPU holds at once, each walking tiles
     * blockIdx.x, + gridDim.x, ...: one wave, and a next tile to prefetch
     * for every block but at the very end. Fewer blocks when there are
     * fewer tiles. */
    unsigned blocks = 0;
    e = resident_grid(conv_register_blocked, kThreads, smem, tiles, &blocks);
    if (e) return e;
    conv_register_blocked<<<blocks, kThreads, smem, stream>>>(in, n, mask, width, out, base, tiles, pass_taps(width));
    return cudaGetLastError();
}
