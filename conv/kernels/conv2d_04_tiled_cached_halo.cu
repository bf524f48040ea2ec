/* 2D variant 4 (id 11): tiled, the halo cells left to the caches.
 *
 * The idea (PMPP, 4th ed., chapter 7, tiled 2D convolution using caches for
 * halo cells): a tile's halo cells are its neighbours' inner cells, which
 * the neighbouring blocks load at about the same time, so they are likely
 * in L2 (or L1) anyway. So a block of 16 x 16 threads copies only its own
 * 16 x 16 inputs into shared memory, one per thread, and reads every tap
 * that falls outside them from global memory through the caches. The mask
 * stays in the constant bank (by value, the same host copy and wait as
 * variants 2 and 3).
 *
 * What changed against variant 3, counted (mask m_r x m_c):
 *   - The fill: one coalesced load and one shared store per thread, no loop,
 *     1 KB of static shared memory whatever the mask (variant 3: up to 25 KB).
 *   - The taps: thread (tx, ty) reads tile[ty + a - ry][tx + b - rx] when both
 *     indices lie in [0, 16), global memory otherwise. Of a tile's 256 k
 *     taps, those that fall outside it are 256 k minus the pairs whose row
 *     and column both stay inside: for 3 x 3, (16 x 3 - 2)^2 = 46^2 = 2116 of
 *     2304 inside, 8% outside; for 7 x 7 (16 x 7 - 12)^2 = 10000 of 12544
 *     inside, 20% outside; 64 x 64 mostly outside. Each outside tap is an L1
 *     request with a 64-bit ghost test.
 *   - Divergence: "inside or not" differs between the lanes of the warps at
 *     the tile's edges, which then run both paths.
 *   - Instructions: the test costs every tap in every warp (the loop keeps
 *     a branch per tap). SASS (cuobjdump -sass, CUDA 13.0, sm_90): the loop
 *     over a mask row, unrolled by 4, is 125 instructions per 4 taps with
 *     both paths (4 LDS, 4 LDG, 4 FFMA, 13 branches with 4 BSSY / BSYNC
 *     reconvergence pairs, the tests and addresses). Here the taps are
 *     uniform: 4 ULDC per 4 taps, the index in a uniform register. A warp
 *     that stays inside the tile skips the LDG paths, but the tests and
 *     branches remain: far more issue slots per FMA than variant 3's 6.5.
 *
 * Whether this beats variant 3 is a question of the GPU's caches and the
 * mask: PMPP's point is that it can for small masks; for large ones the
 * share of outside taps grows towards all of them. The bench answers it:
 * on an H100 at 8192 x 8192 (conv/README.md, the 2D table) this variant is
 * slower than variant 3 at every mask measured, 1.4 times at 3 x 3 and 8.9
 * times at 31 x 31.
 *
 * Limits: mask sides <= 64 (GK_CONV2D_PARAM_SIDE_MAX). Any image: 64-bit
 * positions, a flat list of tiles in launches of at most 2^30 blocks.
 * Pointers need only their 4-byte alignment. No workspace; the call waits
 * for the stream.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution using caches for halo
 * cells).
 *
 * Build alone: nvcc -arch=sm_90 -c conv2d_04_tiled_cached_halo.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* Mask<C>, with_param_mask, ceil_div, launch_blocks */

namespace {

constexpr unsigned kT = 16; /* a tile of 16 x 16 outputs = the inputs in shared memory */

template <unsigned C>
__global__ void __launch_bounds__(kT *kT)
    conv2d_tiled_cached_halo(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                             const __grid_constant__ Mask<C> mask, unsigned mask_rows, unsigned mask_cols,
                             float *__restrict__ out, size_t out_stride, size_t col_tiles, size_t first)
{
    __shared__ float tile[kT][kT + 1]; /* tile[i][j] = in[y0 + i][x0 + j], 0 outside; +1: no conflict between rows */
    const size_t t = first + blockIdx.x;
    const size_t y0 = (t / col_tiles) * kT, x0 = (t % col_tiles) * kT;
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const size_t y = y0 + ty, x = x0 + tx;
    tile[ty][tx] = y < rows && x < cols ? __ldg(in + y * in_stride + x) : 0.0f; /* one coalesced load each */
    __syncthreads(); /* the tile is complete before any thread reads its neighbours' inputs */
    if (y >= rows || x >= cols) return; /* after the barrier: every thread took part in the fill */

    const long long ry = mask_rows / 2, rx = mask_cols / 2;
    float acc = 0.0f;
    for (unsigned a = 0; a < mask_rows; ++a) {
        const long long i = (long long)ty + a - ry; /* tile-relative row of tap row a */
        const size_t p = y0 + (size_t)i;             /* wraps past 0 to above rows before the image */
        const unsigned base = a * mask_cols;
        for (unsigned b = 0; b < mask_cols; ++b) {
            const long long j = (long long)tx + b - rx;
            float v;
            if (i >= 0 && i < (long long)kT && j >= 0 && j < (long long)kT) {
                v = tile[i][j]; /* an inner cell: shared memory */
            } else {
                const size_t q = x0 + (size_t)j; /* a halo or ghost cell: through L1/L2, zero outside */
                v = p < rows && q < cols ? __ldg(in + p * in_stride + q) : 0.0f;
            }
            acc += v * mask.v[base + b];
        }
    }
    out[y * out_stride + x] = acc;
}

} // namespace

extern "C" size_t gk_conv2d_04_tiled_cached_halo_workspace(size_t, size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv2d_04_tiled_cached_halo_run(const float *in, size_t rows, size_t cols, size_t in_stride,
                                                          const float *mask, size_t mask_rows, size_t mask_cols,
                                                          float *out, size_t out_stride, void * /* workspace: none */,
                                                          cudaStream_t stream)
{
    if (mask_rows > 64 || mask_cols > 64) return cudaErrorInvalidValue; /* GK_CONV2D_PARAM_SIDE_MAX */
    const size_t col_tiles = ceil_div(cols, kT), tiles = ceil_div(rows, kT) * col_tiles;
    return with_param_mask(mask, 1, mask_rows * mask_cols, stream, [&](const auto &m, auto C) {
        return launch_blocks(conv2d_tiled_cached_halo<C>, tiles, dim3(kT, kT), 0, stream, in, rows, cols, in_stride,
                             m, (unsigned)mask_rows, (unsigned)mask_cols, out, out_stride, col_tiles);
    });
}
