/* Depthwise variant 1 (id 14): basic. One thread per output.
 *
 * The operation (every depthwise variant, gk/conv.h): for each row (b, c)
 * of a (batch, channels, length) tensor, row index b x channels + c,
 *   out[t] = act(bias[c] + sum_{j<width} in[t - off + j] * mask[c][j]),
 * off = width / 2 ("same") or width - 1 ("causal": nothing after t is
 * seen), ghost cells zero, act none, ReLU or SiLU applied in fp32 before
 * the store (common.cuh: epilogue, the same code in the three variants).
 *
 * The idea: the 1D ladder's variant 1 over a flat index. Thread i of the
 * grid computes output i of the (rows x length) matrix, row i / length and
 * position i % length, reads its channel's taps and its inputs from global
 * memory, adds the bias, applies the activation and stores once.
 *
 * Counted, per output (width w): w loads of the input and w of the mask
 * (the lanes of a warp read the same tap when they share a row: one
 * sector), 2 w FLOPs, a 64-bit division and remainder for the row and the
 * position, and the epilogue (SiLU: an expf and a division). The DRAM
 * traffic is near the ideal 4 + 4 bytes per output (the repeated reads of
 * an input by its w neighbours hit L1/L2); the issue slots are not: about
 * ten per tap, as the 1D variant 1.
 *
 * Limits: any width, any sizes and strides (64-bit positions, launches of
 * at most 2^31 outputs). Pointers need only their 4-byte alignment. No
 * workspace.
 *
 * Build alone: nvcc -arch=sm_90 -c depthwise_01_basic.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* launch_chunks, epilogue */

namespace {

constexpr unsigned kBlock = 256;

__global__ void __launch_bounds__(kBlock)
    dw_basic(const float *__restrict__ in, size_t channels, size_t length, size_t in_stride,
             const float *__restrict__ mask, size_t width, const float *__restrict__ bias, int causal, int act,
             float *__restrict__ out, size_t out_stride, size_t n, size_t first)
{
    const size_t i = first + (size_t)blockIdx.x * kBlock + threadIdx.x;
    if (i >= n) return;
    const size_t row = i / length, t = i % length, c = row % channels;
    const size_t off = causal ? width - 1 : width / 2;
    const float *x = in + row * in_stride;
    const float *m = mask + c * width;
    float acc = 0.0f;
    for (size_t j = 0; j < width; ++j) {
        const size_t p = t + j - off; /* wraps past 0 to above length: one test for both ghost sides */
        if (p < length) acc += __ldg(x + p) * __ldg(m + j);
    }
    out[row * out_stride + t] = epilogue(acc, bias ? __ldg(bias + c) : 0.0f, act);
}

} // namespace

extern "C" size_t gk_conv_depthwise_01_basic_workspace(size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_depthwise_01_basic_run(const float *in, size_t rows, size_t channels, size_t length,
                                                      size_t in_stride, const float *mask, size_t width,
                                                      const float *bias, int causal, int act, float *out,
                                                      size_t out_stride, void * /* workspace: none */,
                                                      cudaStream_t stream)
{
    const size_t n = rows * length;
    return launch_chunks(dw_basic, n, kBlock, kBlock, 0, stream, in, channels, length, in_stride, mask, width, bias,
                         causal, act, out, out_stride, n);
}
