/* 2D variant 1 (id 8): basic. One thread per output, the mask read from
 * global memory.
 *
 * The operation (every 2D variant, gk/conv.h): out[y][x] = sum_a sum_b
 * in[y - ry + a][x - rx + b] * mask[a][b], ry = mask_rows / 2, rx =
 * mask_cols / 2, with in = 0 outside the image (ghost cells); in[p][q] is
 * in[p * in_stride + q], the mask mask_rows x mask_cols, row-major. The
 * cross-correlation form, as the 1D ladder.
 *
 * The idea (PMPP, 4th ed., chapter 7, the basic 2D convolution kernel):
 * the 1D ladder's variant 1 with a second loop. A block of 32 x 8 threads
 * covers a tile of 8 rows x 32 columns of the output, thread (tx, ty) the
 * output (8 T_y + ty, 32 T_x + tx); it walks the mask_rows x mask_cols taps,
 * skips the ghost cells, adds in x mask into one fp32 register and stores
 * once. Nothing is shared between threads.
 *
 * Counted, per output (k = mask_rows x mask_cols taps):
 *   - Global loads: k of the input and k of the mask. A warp is one row of
 *     32 consecutive outputs: its input loads are 128 contiguous bytes
 *     (coalesced), its mask load one address for all lanes (a broadcast
 *     from L1). The k loads of in[p][q] by the k threads that need it hit
 *     L1/L2 after the first, so DRAM traffic stays close to 4 bytes read +
 *     4 written per output.
 *   - Arithmetic intensity 2k / 8 = k / 4 FLOP/B: 2.25 at 3 x 3, 12.25 at
 *     7 x 7, 240 at 31 x 31. An H100's knee (about 60 TFLOP/s fp32 over 3.35
 *     TB/s, 18 FLOP/B) lies near k = 72 (between 7 x 7 and 9 x 9): small
 *     masks are memory bound, 15 x 15 and 31 x 31 arithmetic bound.
 *   - Instructions: per tap two 64-bit bounds tests (row and column), the
 *     address arithmetic, two loads and one FFMA: like the 1D variant 1,
 *     about ten issue slots per FMA, so it reaches neither roof.
 *
 * Limits: any mask, any image (64-bit positions; the grid is a flat list of
 * tiles, launches of at most 2^30 blocks). Pointers need only their 4-byte
 * alignment; the padding between rows is neither read nor written. No
 * workspace.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel Processors",
 * 4th ed., chapter 7 (2D convolution with boundary conditions).
 *
 * Build alone: nvcc -arch=sm_90 -c conv2d_01_basic.cu, next to common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* ceil_div, launch_blocks */

namespace {

constexpr unsigned kTx = 32, kTy = 8; /* a tile of 8 rows x 32 columns, one output per thread */

/* Block `first + blockIdx.x` is tile (T_y, T_x) of a row-major list of
 * tiles, col_tiles per tile row. */
__global__ void __launch_bounds__(kTx *kTy)
    conv2d_basic(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                 const float *__restrict__ mask, size_t mask_rows, size_t mask_cols, float *__restrict__ out,
                 size_t out_stride, size_t col_tiles, size_t first)
{
    const size_t tile = first + blockIdx.x;
    const size_t y = (tile / col_tiles) * kTy + threadIdx.y;
    const size_t x = (tile % col_tiles) * kTx + threadIdx.x;
    if (y >= rows || x >= cols) return;
    const size_t ry = mask_rows / 2, rx = mask_cols / 2;
    float acc = 0.0f;
    for (size_t a = 0; a < mask_rows; ++a) {
        const size_t p = y + a - ry; /* wraps past 0 to above rows: one test for both ghost sides */
        if (p >= rows) continue;
        const float *row = in + p * in_stride;
        const float *m = mask + a * mask_cols;
        for (size_t b = 0; b < mask_cols; ++b) {
            const size_t q = x + b - rx; /* the same wrap for the columns */
            if (q < cols) acc += __ldg(row + q) * __ldg(m + b);
        }
    }
    out[y * out_stride + x] = acc;
}

} // namespace

extern "C" size_t gk_conv2d_01_basic_workspace(size_t, size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv2d_01_basic_run(const float *in, size_t rows, size_t cols, size_t in_stride,
                                              const float *mask, size_t mask_rows, size_t mask_cols, float *out,
                                              size_t out_stride, void * /* workspace: none */, cudaStream_t stream)
{
    const size_t col_tiles = ceil_div(cols, kTx), tiles = ceil_div(rows, kTy) * col_tiles;
    return launch_blocks(conv2d_basic, tiles, dim3(kTx, kTy), 0, stream, in, rows, cols, in_stride, mask, mask_rows, mask_cols,
                         out, out_stride, col_tiles);
}
