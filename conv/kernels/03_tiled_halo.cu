/* Variant 3: tiled, the input tile plus its halo cells in shared memory.
 *
 * The idea (PMPP, 4th ed., chapter 7, tiled convolution with halo cells):
 * the kTile = 256 threads of a block compute 256 consecutive outputs, and
 * between them they need only kTile + width - 1 consecutive inputs: the
 * tile's own 256 inputs shifted by r, plus width - 1 "halo" cells that
 * overlap the neighbouring tiles. The block first copies exactly that span
 * into shared memory, each input fetched from global memory once, ghost
 * cells (outside [0, n)) stored as 0; after a barrier every thread runs
 * its width taps out of shared memory. The mask stays in the constant bank
 * as in variant 2 (passed by value, same host copy and wait per call).
 *
 * What changed and why it is faster, counted (width w):
 *   - Global loads per output: (kTile + w - 1) / kTile, that is
 *     1 + (w - 1) / 256 (1.02 at w = 7, 1.49 at w = 127, 4.99 at w = 1023),
 *     down from w in variants 1 and 2. The fill is coalesced: consecutive
 *     threads load consecutive inputs.
 *   - The w reads per output now go to shared memory: thread t reads
 *     tile[t + j], so a warp reads 32 consecutive words, one per bank (32
 *     banks of 4 bytes): conflict-free, one wavefront per warp-wide read.
 *     The fill's stores are consecutive words too: conflict-free. The
 *     ghost test has moved from the inner loop to the fill.
 *   - DRAM traffic: at best 4 bytes read + 4 written per output, as before;
 *     the arithmetic intensity is still w / 4 FLOP/B, the H200 knee at
 *     w = 56. What is gone is the L1 traffic and the per-tap bounds test.
 *   - One barrier per block, between the fill and the compute.
 *
 * Shared memory per block: (256 + w - 1) x 4 bytes: 1048 B at w = 7,
 * 2044 B at w = 256, 17404 B at the maximum w = 4096, always under the
 * 48 KB that needs no opt-in. 8 blocks of 256 threads fill an SM's 2048
 * thread slots and take at most 8 x 17404 = 139 KB of its 228 KB. ptxas -v
 * (CUDA 13.0, sm_90): 25 registers per thread for each of the three
 * capacities, so registers do not limit the 8 blocks either.
 *
 * Bound by: for small w, not DRAM (see the measurement below) but, most
 * likely, the short fill-barrier-compute rhythm of each block (while a block
 * waits for its fill it computes nothing; the other 7 blocks of the SM cover
 * for it only in part); for large w, the inner loop, one output per thread:
 * per 16 taps (nvcc unrolls by 16; cuobjdump -sass, CUDA 13.0, sm_90) 16
 * FFMA, 16 shared loads (LDS), 8 constant-bank loads of 2 taps and 13
 * others: 30% of the issue slots are FFMAs. The taps go into uniform
 * registers (ULDC.64: the index is the same in every lane and the compiler
 * keeps it in a uniform register), which the FFMAs read as operands. Variant
 * 4 leaves the halo to the caches; variant 5 computes several outputs per
 * thread so that each shared load feeds several FMAs.
 * Measured (H200, CUDA 13.0, 2026-11-23, conv/bench-h200.json), against
 * variant 2: faster only at w = 31 (1.75x at n = 2^28, 1.62x at 2^24); at
 * w = 3 and 7 0.80x and 0.97x, at 36.8% and 32.5% of a device copy's speed
 * (n = 2^28), so not DRAM bound there; at w = 127 0.83x (6.7% of the fp32
 * peak, n = 2^28) and at w = 1023 0.65x (5.5%, n = 2^24), far under what the
 * 30% of FFMA issue slots counted above would allow. The count does not
 * explain the large widths; the run does not say what does.
 *
 * Limits: width <= 4096 (GK_CONV_PARAM_MASK_MAX; the launcher returns
 * cudaErrorInvalidValue above it). The tile is 256 outputs (the table's
 * "tile"). Any n: 64-bit positions, launches of at most 2^31 outputs (a
 * multiple of the tile, so tiles never straddle two launches). Threads of
 * the last tile that have no output still fill their share and reach the
 * barrier. Pointers need only their 4-byte alignment. No workspace.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution using halo cells);
 * CUDA C++ Programming Guide, "Shared Memory" (banks), "Constant Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 03_tiled_halo.cu, next to common.cuh
 * (this folder's shared plumbing: Mask<C> and its host copy, the choice of
 * capacity, the launches); the two files and the CUDA toolkit are all it
 * needs.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* Mask<C>, with_param_mask (the host copy), launch_chunks */

namespace {

constexpr unsigned kTile = 256; /* threads per block = outputs per block */

/* Block b of this launch computes outputs start .. start + 255, start =
 * first + 256 b. Launched with (kTile + width - 1) x 4 bytes of dynamic
 * shared memory. */
template <unsigned C>
__global__ void __launch_bounds__(kTile)
    conv_tiled_halo(const float *__restrict__ in, size_t n, const __grid_constant__ Mask<C> mask, unsigned width,
                    float *__restrict__ out, size_t first)
{
    extern __shared__ float tile[]; /* tile[k] = in[start - r + k], 0 for a ghost cell */
    const size_t start = first + (size_t)blockIdx.x * kTile;
    const size_t r = width / 2;
    const unsigned span = kTile + width - 1;

    /* The fill: consecutive threads, consecutive inputs (coalesced), each
     * input of the span loaded once. p wraps past 0 to above n when start +
     * k < r, so p < n rejects the ghost cells of both ends. */
    for (unsigned k = threadIdx.x; k < span; k += kTile) {
        const size_t p = start + k - r;
        tile[k] = p < n ? __ldg(in + p) : 0.0f;
    }
    __syncthreads(); /* the whole span is in shared memory before any thread reads its neighbours' cells */

    const size_t i = start + threadIdx.x;
    if (i >= n) return; /* after the barrier: every thread took part in the fill */
    float acc = 0.0f;
    for (unsigned j = 0; j < width; ++j) acc += tile[threadIdx.x + j] * mask.v[j]; /* 32 lanes, 32 banks */
    out[i] = acc;
}

} // namespace

extern "C" size_t gk_conv_03_tiled_halo_workspace(size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_03_tiled_halo_run(const float *in, size_t n, const float *mask, size_t width,
                                                 float *out, void * /* workspace: none */, cudaStream_t stream)
{
    const size_t smem = (kTile + width - 1) * sizeof(float); /* <= 17404 bytes: no opt-in needed */
    return with_param_mask(mask, n, width, stream, [&](const auto &m, auto C) {
        return launch_chunks(conv_tiled_halo<C>, n, kTile, kTile, smem, stream, in, n, m, (unsigned)width, out);
    });
}
