/* Variant 5: thread coarsening with register tiling, kC = 8 consecutive
 * outputs per thread.
 *
 * The idea (PMPP, 4th ed., thread coarsening, applied to chapter 7's
 * tiled convolution): in variant 3 every FMA costs a shared load (the
 * input) and a constant-bank read (the tap), and neighbouring threads
 * reload the same inputs: out[i] and out[i + 1] share w - 1 of their w
 * inputs. Here one thread computes kC = 8 consecutive outputs, and keeps a
 * sliding window of inputs in registers: input q of its span serves
 * out[.. + c] through tap q - c for each of the (up to) 8 outputs c, so it
 * is read from shared memory once per thread and used in up to 8 FMAs; each
 * tap mask[j] is read once per thread and used in 8 FMAs too. The block
 * tile grows to kThreads x kC = 2048 outputs, filled with its halo into
 * shared memory as in variant 3; the mask stays in the constant bank
 * (passed by value, same host copy and wait per call).
 *
 * The loop, in groups of kC taps: before group j .. j + 7 the window holds
 * inputs j .. j + 6 (7 registers); the thread loads the 8 inputs j + 7 ..
 * j + 14, does 8 x 8 = 64 FMAs acc[c] += win[c + u] * mask[j + u] (all
 * register indices constant: the loops over u and c are unrolled), and
 * moves inputs j + 8 .. j + 14 down to the front of the window (7 copies
 * in the source). The last w % 8 taps go one by one: 1 load, 8 FMAs, 7
 * moves. Nothing is padded, so no tap beyond width is ever multiplied.
 *
 * Counted, per output (width w):
 *   - Shared loads: (kC + w - 1) / kC = 1 + (w - 1) / 8 (1.75 at w = 7,
 *     16.75 at w = 127), down from w in variant 3. Constant-bank reads of
 *     the mask: w / 8, down from w.
 *   - Instructions per group of 8 taps and thread (cuobjdump -sass, CUDA
 *     13.0, sm_90): 64 FFMA, 8 shared loads, 4 constant-bank loads of 2 taps
 *     and 7 for the loop and addresses (the window moves cost nothing: with
 *     the loops unrolled, the compiler renames registers instead): 77% of
 *     the issue slots are FFMAs, against 30% in variant 3. Global loads per
 *     output: (2048 + w - 1) / 2048, 1.003 at w = 7.
 *   - Arithmetic intensity of the DRAM traffic unchanged: w / 4 FLOP/B at
 *     best; the H200 knee at w = 56. For w beyond it the FMA rate is what
 *     counts, and this is the first variant whose inner loop is mostly
 *     FMAs.
 *
 * Bank conflicts: thread t's window starts at logical index 8t, a stride of
 * 8 words between lanes, which would put lanes t and t + 4 in the same bank
 * (8-way conflict). The shared array is padded with one unused word after
 * every kC = 8 (logical i at physical i + i / 8), so the lane stride is 9
 * words, odd: the 32 lanes hit 32 different banks for every read. The fill
 * (lanes store 32 consecutive logical indices, which the padding spreads
 * over 36 words) meets at most 2-way conflicts, once per input.
 *
 * Resources: shared memory per block (2048 + w - 1) x 9/8 x 4 bytes, 9240
 * bytes at w = 7, 27640 at w = 4096, under the 48 KB that needs no
 * opt-in. ptxas -v (CUDA 13.0, sm_90): 32 registers per thread for each
 * capacity, so 8 blocks of 256 threads per SM (2048 threads), which fit
 * in its 228 KB of shared memory up to w = 4096 (8 x 27640 bytes plus the
 * 1 KB each block reserves).
 *
 * Bound by: for small w, DRAM (and the fill-barrier-compute rhythm); for
 * larger w, the FMA issue rate, with the shared loads, constant-bank loads
 * and the loop taking the remaining slots. Variant 7 carries register blocking further
 * (16 outputs, vectorised shared loads, the mask in shared memory); variant
 * 6 is the memory-bound one, tuned for small w.
 * Measured (H200, CUDA 13.0, 2026-11-23, conv/bench-h200.json):
 * at w = 3 and 7, n = 2^28, 34.1% and 34.8% of a device copy's speed, so
 * at small w the fill-barrier-compute rhythm, not DRAM, is the limit; 49.0%
 * of the fp32 peak at w = 127 (n = 2^28) and 58.0% at w = 1023 (n = 2^24),
 * under the 77% of FFMA issue slots counted above.
 *
 * Limits: width <= 4096 (GK_CONV_PARAM_MASK_MAX; the launcher returns
 * cudaErrorInvalidValue above it). The tile is 2048 outputs. Any n: 64-bit
 * positions, launches of at most 2^31 outputs (a multiple of the tile).
 * Threads whose outputs are past n still fill and compute (on zeros) and
 * store only outputs below n. Pointers need only their 4-byte alignment.
 * No workspace.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution with halo cells) and
 * the thread-coarsening sections of the book; CUDA C++ Programming Guide,
 * "Shared Memory" (banks), "Constant Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 05_register_tiled.cu, next to common.cuh
 * (this folder's shared plumbing: Mask<C> and its host copy, the choice of
 * capacity, the launches); the two files and the CUDA toolkit are all it
 * needs.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* Mask<C>, with_param_mask (the host copy), launch_chunks */

namespace {

constexpr unsigned kThreads = 256;            /* threads per block */
constexpr unsigned kC = 8;                    /* consecutive outputs per thread */
constexpr unsigned kTile = kThreads * kC;     /* outputs per block: 2048 */
constexpr unsigned kRow = kC + 1;             /* physical words per kC logical ones: one pad word */
static_assert(kChunk % kTile == 0, "a launch must end on a tile boundary");

/* Logical index i of the block's input span -> its word in shared memory. */
__device__ __forceinline__ unsigned phys(unsigned i) { return i + i / kC; }

/* Shared words for a span of `span` logical inputs. */
constexpr size_t smem_words(size_t span) { return span + (span - 1) / kC; } /* phys(span - 1) + 1 */

/* Block b of this launch computes outputs start .. start + 2047, start =
 * first + 2048 b; thread t the 8 outputs start + 8t .. start + 8t + 7.
 * Launched with smem_words(kTile + width - 1) x 4 bytes of dynamic shared
 * memory. */
template <unsigned C>
__global__ void __launch_bounds__(kThreads)
    conv_register_tiled(const float *__restrict__ in, size_t n, const __grid_constant__ Mask<C> mask,
                        unsigned width, float *__restrict__ out, size_t first)
{
    extern __shared__ float tile[]; /* logical k at tile[phys(k)]: in[start - r + k], 0 for a ghost cell */
    const unsigned t = threadIdx.x;
    const size_t start = first + (size_t)blockIdx.x * kTile;
    const size_t r = width / 2;
    const unsigned span = kTile + width - 1;

    /* The fill, as in variant 3: coalesced, each input of the span loaded
     * once; p wraps past 0 to above n for the ghost cells before in[0]. */
    for (unsigned k = t; k < span; k += kThreads) {
        const size_t p = start + k - r;
        tile[phys(k)] = p < n ? __ldg(in + p) : 0.0f;
    }
    __syncthreads(); /* the whole span is in shared memory before any thread reads its window */

    /* Thread t's inputs: logical kC t + q, q = 0 .. kC + width - 2. With kC t
     * a multiple of kC, phys(kC t + q) = kRow t + q + q / kC, so x[q + q / kC]
     * below, and for q = j + q' with j a multiple of kC, g[q' + q' / kC] with
     * g = x + kRow (j / kC): constant offsets inside a group. */
    const float *x = tile + kRow * t;
    float acc[kC];
#pragma unroll
    for (unsigned c = 0; c < kC; ++c) acc[c] = 0.0f;
    float win[2 * kC - 1]; /* win[q'] = input j + q' of the current group */
#pragma unroll
    for (unsigned q = 0; q < kC - 1; ++q) win[q] = x[q + q / kC];

    unsigned j = 0;
    const float *g = x; /* phys(kC t + j) */
    for (; j + kC <= width; j += kC, g += kRow) {
#pragma unroll
        for (unsigned q = kC - 1; q < 2 * kC - 1; ++q) win[q] = g[q + q / kC]; /* lane stride 9 words: no conflict */
#pragma unroll
        for (unsigned u = 0; u < kC; ++u) {
            const float m = mask.v[j + u]; /* same j in every lane: a constant-bank broadcast */
#pragma unroll
            for (unsigned c = 0; c < kC; ++c) acc[c] += win[c + u] * m; /* out c, tap j + u: input j + u + c */
        }
#pragma unroll
        for (unsigned q = 0; q < kC - 1; ++q) win[q] = win[q + kC]; /* inputs j + 8 .. j + 14 to the front */
    }
    /* The last width % kC taps, one at a time; win[0 .. kC - 2] holds inputs
     * j .. j + kC - 2. */
    for (; j < width; ++j) {
        const unsigned q = j + kC - 1;
        win[kC - 1] = x[q + q / kC];
        const float m = mask.v[j];
#pragma unroll
        for (unsigned c = 0; c < kC; ++c) acc[c] += win[c] * m;
#pragma unroll
        for (unsigned c = 0; c < kC - 1; ++c) win[c] = win[c + 1];
    }

    const size_t o = start + (size_t)kC * t;
#pragma unroll
    for (unsigned c = 0; c < kC; ++c)
        if (o + c < n) out[o + c] = acc[c];
}

} // namespace

extern "C" size_t gk_conv_05_register_tiled_workspace(size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_05_register_tiled_run(const float *in, size_t n, const float *mask, size_t width,
                                                     float *out, void * /* workspace: none */, cudaStream_t stream)
{
    const size_t smem = smem_words(kTile + width - 1) * sizeof(float); /* <= 27640 bytes: no opt-in needed */
    return with_param_mask(mask, n, width, stream, [&](const auto &m, auto C) {
        return launch_chunks(conv_register_tiled<C>, n, kTile, kThreads, smem, stream, in, n, m, (unsigned)width, out);
    });
}
