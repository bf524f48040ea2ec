/* 2D variant 2 (id 9): the mask in the constant bank, passed by value.
 *
 * The idea (PMPP, 4th ed., chapter 7, constant memory and caching): every
 * thread reads the same mask in the same order and nobody writes it, the
 * pattern the constant cache serves with one broadcast per warp. As in the
 * 1D variant 2 (02_constant_mask.cu, whose header says why), the mask is not
 * a __constant__ symbol, which one process would share between all calls,
 * but a kernel parameter, Mask<C> by value and __grid_constant__: the
 * driver puts each launch's copy in that launch's constant bank. The
 * launcher copies the device mask to the host (cudaMemcpyAsync on the
 * caller's stream, then cudaStreamSynchronize) and launches the smallest of
 * the capacities 32, 512 and 4096 floats that holds mask_rows x mask_cols
 * taps, so masks up to 64 x 64 (GK_CONV2D_PARAM_SIDE_MAX).
 *
 * Otherwise the kernel is variant 1's: a tile of 8 rows x 32 columns, one
 * output per thread, the taps walked row by row with the ghost cells
 * skipped.
 *
 * What the SASS shows (cuobjdump -sass, CUDA 13.0, sm_90; the same code
 * for the three capacities). The loop over a mask row's columns is
 * unrolled by 4 in both variants. Variant 1's body is 41 instructions per
 * 4 taps: 8 LDG (an input and a tap each), 4 FFMA, 10 ISETP and 17 IADD3 /
 * IMAD for the 64-bit bounds tests and addresses. This one's is 63: 4 LDG
 * of the input, 4 LDC of the taps at a register index (@!P LDC R,
 * c[0x0][R + 0x210], issued under the tap's bounds predicate), 6 more LDC
 * that reload other parameters (mask_cols, the input pointer) which the
 * compiler rematerialises instead of keeping in registers, 4 FFMA, 9
 * ISETP, 30 IMAD / IADD3 / VIADD / LEA (the tap index a * mask_cols + b
 * and the LDC's byte offset), a MOV and the branch. No ULDC: the tap index
 * sits in a per-lane register (it is computed from the same loop counter
 * as the per-lane column position), so the compiler does not prove it
 * uniform. So moving the mask to the constant bank here costs issue
 * slots: 15.75 instructions per FMA against variant 1's 10.25. The constant
 * cache does take the mask's reads off L1 (one broadcast per warp), but
 * the tap read by variant 1 was already one sector and an L1 hit per
 * warp. Expected: slower than variant 1 wherever issue binds (the large
 * masks), and the host copy and wait on top for every call. Variant 3
 * takes the bounds tests and the global addresses out of the inner loop.

 * Limits: mask sides <= 64 (the launcher returns cudaErrorInvalidValue for
 * more than 4096 taps, a second line of defence after gk_conv2d's check).
 * Any image (64-bit positions, launches of at most 2^30 blocks). Pointers
 * need only their 4-byte alignment. No workspace; the call waits for the
 * stream (variant->host_wait).
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (constant memory and caching); CUDA C++
 * Programming Guide, "Constant Memory", "Function Parameters".
 *
 * Build alone: nvcc -arch=sm_90 -c conv2d_02_constant_mask.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* Mask<C>, with_param_mask (the host copy), ceil_div, launch_blocks */

namespace {

constexpr unsigned kTx = 32, kTy = 8; /* a tile of 8 rows x 32 columns, one output per thread */

template <unsigned C>
__global__ void __launch_bounds__(kTx *kTy)
    conv2d_constant(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                    const __grid_constant__ Mask<C> mask, unsigned mask_rows, unsigned mask_cols,
                    float *__restrict__ out, size_t out_stride, size_t col_tiles, size_t first)
{
    const size_t tile = first + blockIdx.x;
    const size_t y = (tile / col_tiles) * kTy + threadIdx.y;
    const size_t x = (tile % col_tiles) * kTx + threadIdx.x;
    if (y >= rows || x >= cols) return;
    const size_t ry = mask_rows / 2, rx = mask_cols / 2;
    float acc = 0.0f;
    for (unsigned a = 0; a < mask_rows; ++a) {
        const size_t p = y + a - ry; /* wraps past 0 to above rows: one test for both ghost sides */
        if (p >= rows) continue;
        const float *row = in + p * in_stride;
        for (unsigned b = 0; b < mask_cols; ++b) {
            const size_t q = x + b - rx;
            if (q < cols) acc += __ldg(row + q) * mask.v[a * mask_cols + b]; /* same index in every lane: a broadcast */
        }
    }
    out[y * out_stride + x] = acc;
}

} // namespace

extern "C" size_t gk_conv2d_02_constant_mask_workspace(size_t, size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv2d_02_constant_mask_run(const float *in, size_t rows, size_t cols, size_t in_stride,
                                                      const float *mask, size_t mask_rows, size_t mask_cols,
                                                      float *out, size_t out_stride, void * /* workspace: none */,
                                                      cudaStream_t stream)
{
    if (mask_rows > kMaskMax || mask_cols > kMaskMax) return cudaErrorInvalidValue;
    const size_t col_tiles = ceil_div(cols, kTx), tiles = ceil_div(rows, kTy) * col_tiles;
    return with_param_mask(mask, 1, mask_rows * mask_cols, stream, [&](const auto &m, auto C) {
        return launch_blocks(conv2d_constant<C>, tiles, dim3(kTx, kTy), 0, stream, in, rows, cols, in_stride, m,
                             (unsigned)mask_rows, (unsigned)mask_cols, out, out_stride, col_tiles);
    });
}
