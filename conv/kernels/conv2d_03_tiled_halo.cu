/* 2D variant 3 (id 10): tiled, the input tile and its halo cells in shared
 * memory.
 *
 * The idea (PMPP, 4th ed., chapter 7, tiled 2D convolution with halo
 * cells): the 16 x 16 threads of a block compute a 16 x 16 tile of the
 * output, and between them need only the (16 + mask_rows - 1) x (16 +
 * mask_cols - 1) inputs around it: the tile shifted by (ry, rx) and the
 * halo of mask_rows - 1 rows and mask_cols - 1 columns it shares with the
 * neighbouring tiles. The block copies exactly that patch into shared
 * memory, each input from global memory once per block, ghost cells as 0;
 * after one barrier each thread runs its mask_rows x mask_cols taps out of
 * shared memory, with no bounds test left in the loop. The mask stays in
 * the constant bank as in variant 2 (by value, the same host copy and wait).
 *
 * Counted (mask m_r x m_c, k = m_r m_c taps):
 *   - Global loads per output: (16 + m_r - 1)(16 + m_c - 1) / 256, 1.27 at
 *     3 x 3, 1.72 at 7 x 7, 5.5 at 31 x 31 (the halo cells are loaded again
 *     by each neighbour, mostly from L2), down from k in variants 1 and 2.
 *   - Shared reads: k per output, one per FMA. A warp is two rows of 16
 *     threads; thread (tx, ty) reads patch[(ty + a) pitch + tx + b]. The
 *     row pitch is padded to 16 mod 32 words, so the two half-warps fall
 *     on the two halves of the 32 banks: conflict-free (a pitch of, say, 18
 *     words at 3 x 3 would put lanes of both halves on banks 18..31 and 0..1
 *     together: 2-way conflicts on part of the warp).
 *   - The taps: still one LDC per tap (below); the mask's reads stay in the
 *     constant cache, one broadcast per warp.
 *   - One barrier per block, between the fill and the taps.
 *   - Arithmetic intensity of the DRAM traffic as before, k / 4 FLOP/B.
 *
 * SASS (cuobjdump -sass, CUDA 13.0, sm_90, the same for each capacity): the
 * loop over a mask row is unrolled by 4, 26 instructions per 4 taps: 4 LDS,
 * 4 FFMA, 4 LDC of the taps, still at a per-lane register index (LDC R,
 * c[0x0][R + 0x210]; the compiler does not prove a m_c + b uniform, so no
 * ULDC), and 14 for the indices and the loop. 6.5 instructions per FMA
 * against variant 2's 15.75: the bounds tests and the global addresses are
 * gone, which is what the shared tile buys in issue slots. The fill costs
 * 88 instructions per trip of its inner loop, unrolled by 4 (4 LDG, 4 STS,
 * the two 64-bit ghost tests and the addresses), once per patch input.
 *
 * Shared memory per block: (15 + m_r) x pitch x 4 bytes, pitch = 15 + m_c
 * padded up to 16 mod 32: 3 x 3: 18 x 48 x 4 = 3456 bytes; 64 x 64: 79 x 80 x
 * 4 = 25280 bytes, under the 48 KB that needs no opt-in.
 *
 * Bound by: for small masks the fill-barrier-compute rhythm of each block
 * (the 1D variant 3's limit too); for large ones one shared load per FMA.
 * Variant 4 leaves the halo to the caches; variant 5 computes 16 outputs
 * per thread from registers.
 *
 * Limits: mask sides <= 64 (GK_CONV2D_PARAM_SIDE_MAX). Any image: 64-bit
 * positions, a flat list of tiles in launches of at most 2^30 blocks.
 * Threads of a tile's part outside the image still fill and reach the
 * barrier, and store nothing. Pointers need only their 4-byte alignment.
 * No workspace; the call waits for the stream.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled 2D convolution with halo cells);
 * CUDA C++ Programming Guide, "Shared Memory" (banks).
 *
 * Build alone: nvcc -arch=sm_90 -c conv2d_03_tiled_halo.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* Mask<C>, with_param_mask, ceil_div, launch_blocks */

namespace {

constexpr unsigned kT = 16; /* a tile of 16 x 16 outputs, one per thread */

/* The patch's row pitch in words: its width padded up to 16 mod 32 (above). */
__host__ __device__ inline unsigned pitch_of(unsigned mask_cols)
{
    const unsigned w = kT + mask_cols - 1;
    return w + (48 - w % 32) % 32;
}

template <unsigned C>
__global__ void __launch_bounds__(kT *kT)
    conv2d_tiled_halo(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                      const __grid_constant__ Mask<C> mask, unsigned mask_rows, unsigned mask_cols,
                      float *__restrict__ out, size_t out_stride, size_t col_tiles, size_t first)
{
    extern __shared__ float patch[]; /* patch[i pitch + j] = in[y0 - ry + i][x0 - rx + j], 0 for a ghost cell */
    const size_t tile = first + blockIdx.x;
    const size_t y0 = (tile / col_tiles) * kT, x0 = (tile % col_tiles) * kT;
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const unsigned span_r = kT + mask_rows - 1, span_c = kT + mask_cols - 1, pitch = pitch_of(mask_cols);
    const size_t ry = mask_rows / 2, rx = mask_cols / 2;

    /* The fill: 16 consecutive threads on 16 consecutive inputs of a row
     * (coalesced), each input of the patch loaded once. p and q wrap past 0
     * to above rows / cols for the ghost cells before the image. */
    for (unsigned i = ty; i < span_r; i += kT) {
        const size_t p = y0 + i - ry;
        for (unsigned j = tx; j < span_c; j += kT) {
            const size_t q = x0 + j - rx;
            patch[i * pitch + j] = p < rows && q < cols ? __ldg(in + p * in_stride + q) : 0.0f;
        }
    }
    __syncthreads(); /* the whole patch is in shared memory before any thread reads its neighbours' cells */

    const size_t y = y0 + ty, x = x0 + tx;
    if (y >= rows || x >= cols) return; /* after the barrier: every thread took part in the fill */
    float acc = 0.0f;
    for (unsigned a = 0; a < mask_rows; ++a) {
        const float *src = patch + (ty + a) * pitch + tx;
        const unsigned base = a * mask_cols;
        for (unsigned b = 0; b < mask_cols; ++b) acc += src[b] * mask.v[base + b]; /* no bank conflict: pitch */
    }
    out[y * out_stride + x] = acc;
}

} // namespace

extern "C" size_t gk_conv2d_03_tiled_halo_workspace(size_t, size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv2d_03_tiled_halo_run(const float *in, size_t rows, size_t cols, size_t in_stride,
                                                   const float *mask, size_t mask_rows, size_t mask_cols, float *out,
                                                   size_t out_stride, void * /* workspace: none */,
                                                   cudaStream_t stream)
{
    if (mask_rows > 64 || mask_cols > 64) return cudaErrorInvalidValue; /* GK_CONV2D_PARAM_SIDE_MAX */
    const size_t col_tiles = ceil_div(cols, kT), tiles = ceil_div(rows, kT) * col_tiles;
    const size_t smem = (size_t)(kT + mask_rows - 1) * pitch_of((unsigned)mask_cols) * sizeof(float); /* <= 25280 */
    return with_param_mask(mask, 1, mask_rows * mask_cols, stream, [&](const auto &m, auto C) {
        return launch_blocks(conv2d_tiled_halo<C>, tiles, dim3(kT, kT), smem, stream, in, rows, cols, in_stride, m,
                             (unsigned)mask_rows, (unsigned)mask_cols, out, out_stride, col_tiles);
    });
}
