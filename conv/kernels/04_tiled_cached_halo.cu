/* Variant 4: tiled, the halo cells left to the caches.
 *
 * The idea (PMPP, 4th ed., chapter 7, tiled convolution using caches for
 * halo cells): the halo cells of a tile are the inner cells of its
 * neighbours, which the neighbouring blocks are loading at about the same
 * time, so they are likely to be in L2 (and, for a neighbour on the same
 * SM, in L1) anyway. So a block copies into shared memory only its own
 * kTile = 256 inputs, one per thread, in[start .. start + 255], and reads
 * the taps that fall outside that range straight from global memory
 * through the caches. The mask stays in the constant bank as in variants 2
 * and 3 (passed by value, same host copy and wait per call).
 *
 * What changed against variant 3, counted (width w, r = w / 2):
 *   - The fill: exactly one coalesced load and one shared store per thread,
 *     no loop, and a tile size that no longer depends on w: 1 KB of static
 *     shared memory per block (variant 3: (256 + w - 1) x 4 bytes).
 *   - The taps: thread t reads tile[t - r + j] when 0 <= t - r + j < 256
 *     and global memory otherwise. Per block, 256 x w taps, of which
 *     r x (r + 1) = (w^2 - 1) / 4 fall on the halo for odd w (r^2 = w^2 / 4
 *     for even w; both while r <= 256): 12 of 1792 taps (0.7%) at w = 7,
 *     4032 of 32512 (12%) at w = 127. Per output that is 1 + (w^2 - 1) /
 *     1024 global loads (odd w): 1.05 at w = 7, 16.75 at w = 127. They are
 *     cache hits once a neighbour or an earlier tap fetched the line, so
 *     DRAM traffic stays about 8 bytes per output.
 *   - Divergence: the test "in the tile or not" differs between lanes of
 *     the warps near the tile edges (for r <= 32 the first warp while
 *     j < r and the last while j > r; more warps for wider masks), which
 *     then run both paths; the inner warps always take the shared path.
 *     The global path is an L1 hit with a longer latency than a shared
 *     read.
 *   - Instructions: the test costs every tap, in every warp. nvcc unrolls
 *     the tap loop by 4 (cuobjdump -sass, CUDA 13.0, sm_90); a warp whose
 *     lanes all stay in the tile issues 49 instructions per 4 taps: per
 *     tap the 64-bit test of k against the tile (one unsigned compare
 *     covers both ends), a branch with its reconvergence pair (BSSY,
 *     BSYNC), the LDS, a ULDC of the tap, the FFMA and the addresses. That
 *     is 12.25 per tap against variant 3's 53 per 16 (3.3): at most 8% of
 *     the issue slots are FFMAs even in the inner warps.
 *   - Whether this is faster than variant 3 is a question of the GPU:
 *     PMPP's point is that on GPUs with large L1/L2 caches the simpler fill
 *     can win for small masks; for large masks the halo share and the
 *     divergence grow. The bench's table answers it for one GPU.
 *     Measured (H200, CUDA 13.0, 2026-11-23, conv/bench-h200.json): faster
 *     than variant 3 only at w = 3 (1.045x at n = 2^28, 1.07x at 2^24); at
 *     w = 7, 31 and 127 it takes 1.10, 1.99 and 2.72 times variant 3's time
 *     (n = 2^28), at w = 1023 3.33 times (n = 2^24): 2.4% of the fp32 peak
 *     at w = 127, under the 8% that its instructions allow, with the halo's
 *     L1 requests and the divergence (4 of the 8 warps at w = 127) on top.
 *   - Arithmetic intensity unchanged: w / 4 FLOP/B at best, the knee of an
 *     H200's roofline at w = 56.
 *
 * Bank conflicts: tile[threadIdx.x] stores and tile[t - r + j] reads are 32
 * consecutive words for the lanes that take the shared path: conflict-free.
 *
 * Resources: 1024 bytes of static shared memory per block; ptxas -v (CUDA
 * 13.0, sm_90) reports 16 registers per thread for each capacity: 8 blocks
 * of 256 threads, 2048 threads per SM (the thread limit, not registers or
 * shared memory).
 *
 * Limits: width <= 4096 (GK_CONV_PARAM_MASK_MAX; the launcher returns
 * cudaErrorInvalidValue above it). The tile is 256 outputs. Any n: 64-bit
 * positions, launches of at most 2^31 outputs (a multiple of the tile).
 * Pointers need only their 4-byte alignment. No workspace.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution using caches for halo
 * cells); CUDA C++ Programming Guide, "Shared Memory", "Constant Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 04_tiled_cached_halo.cu, next to
 * common.cuh (this folder's shared plumbing: Mask<C> and its host copy, the
 * choice of capacity, the launches); the two files and the CUDA toolkit are
 * all it needs.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* Mask<C>, with_param_mask (the host copy), launch_chunks */

namespace {

constexpr unsigned kTile = 256; /* threads per block = outputs per block = inputs in shared memory */

/* Block b of this launch computes outputs start .. start + 255, start =
 * first + 256 b, and holds in[start .. start + 255] in shared memory. */
template <unsigned C>
__global__ void __launch_bounds__(kTile)
    conv_tiled_cached_halo(const float *__restrict__ in, size_t n, const __grid_constant__ Mask<C> mask,
                           unsigned width, float *__restrict__ out, size_t first)
{
    __shared__ float tile[kTile]; /* tile[k] = in[start + k], 0 past the end */
    const size_t start = first + (size_t)blockIdx.x * kTile;
    const size_t i = start + threadIdx.x;
    tile[threadIdx.x] = i < n ? __ldg(in + i) : 0.0f; /* one coalesced load per thread */
    __syncthreads(); /* the tile is complete before any thread reads its neighbours' inputs */
    if (i >= n) return; /* after the barrier: every thread took part in the fill */

    /* k: tile-relative position of tap j, k = t - r + j, from -r to 255 + r. */
    const long long k0 = (long long)threadIdx.x - (long long)(width / 2);
    float acc = 0.0f;
    for (unsigned j = 0; j < width; ++j) {
        const long long k = k0 + j;
        float x;
        if (k >= 0 && k < (long long)kTile) {
            x = tile[k]; /* an inner cell: shared memory */
        } else {
            /* A halo (or ghost) cell: global memory, through L1/L2. start + k
             * in unsigned arithmetic wraps past 0 to above n for k < -start,
             * so p < n rejects the ghost cells of both ends. */
            const size_t p = start + (size_t)k;
            x = p < n ? __ldg(in + p) : 0.0f;
        }
        acc += x * mask.v[j];
    }
    out[i] = acc;
}

} // namespace

extern "C" size_t gk_conv_04_tiled_cached_halo_workspace(size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_04_tiled_cached_halo_run(const float *in, size_t n, const float *mask, size_t width,
                                                        float *out, void * /* workspace: none */, cudaStream_t stream)
{
    return with_param_mask(mask, n, width, stream, [&](const auto &m, auto C) {
        return launch_chunks(conv_tiled_cached_halo<C>, n, kTile, kTile, 0, stream, in, n, m, (unsigned)width, out);
    });
}
