/* Depthwise variant 2 (id 15): a block per (batch, channel) row, the row's
 * segments and the channel's mask in shared memory.
 *
 * The idea: the rows of a depthwise convolution are independent 1D
 * convolutions, each with its channel's mask. Give each row to one block:
 * the block copies its channel's w taps into shared memory once, then
 * walks the row in segments of kSeg = 1024 outputs; for each it stages the
 * segment's kSeg + w - 1 inputs (the 1D variant 3's tile with halo), ghost
 * cells as 0, and each of the 256 threads computes 4 outputs of it from
 * shared memory, adds the bias and applies the activation (common.cuh:
 * epilogue) before the store.
 *
 * What changed against variant 1, counted (width w): global loads per
 * output (kSeg + w - 1) / kSeg, 1.003 at w = 4 and 1.03 at w = 31, down
 * from w; no division per output; the mask read once per row from global
 * memory, then w shared broadcasts per output (the same address in every
 * lane: one wavefront). The inputs: thread o reads seg[o + j], 32
 * consecutive words per warp: conflict-free. Two barriers per segment (one
 * before its fill, so that no thread overwrites inputs another still reads,
 * and one after it). The 4-byte loads and stores and the fill-barrier-compute
 * rhythm remain: the bound at small w, which variant 3 attacks. (Measured
 * on an H100 at width 4, causal, bias + SiLU, 8 x 2048 x 8192, conv/README.md:
 * with rows this long this variant is the faster, 0.63x the device copy's
 * speed against variant 3's 0.55x.)
 *
 * Shared memory: (w + kSeg + w - 1) x 4 bytes: 4124 at w = 4, up to 36,860
 * at w = 4096 (the table's max_width), under the 48 KB that needs no opt-in.
 *
 * Limits: width <= 4096. Any number of rows (launches of at most 2^30
 * blocks), any length (the segment loop), any strides; pointers need only
 * their 4-byte alignment. A row shorter than a segment leaves most threads
 * idle: with many short rows a block per row wastes the GPU, which variant
 * 3's several rows per block repairs. No workspace.
 *
 * Build alone: nvcc -arch=sm_90 -c depthwise_02_row_shared.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* launch_blocks, epilogue */

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kSeg = 1024; /* outputs per segment: 4 per thread */
constexpr unsigned kMaxWidth = 4096;

__global__ void __launch_bounds__(kThreads)
    dw_row_shared(const float *__restrict__ in, size_t channels, size_t length, size_t in_stride,
                  const float *__restrict__ mask, unsigned width, const float *__restrict__ bias, int causal, int act,
                  float *__restrict__ out, size_t out_stride, size_t first)
{
    extern __shared__ float sm[];
    float *m = sm;          /* the channel's taps */
    float *seg = sm + width; /* seg[k] = in[s0 - off + k], 0 for a ghost cell */
    const size_t row = first + blockIdx.x, c = row % channels;
    const float *x = in + row * in_stride;
    float *y = out + row * out_stride;
    const size_t off = causal ? width - 1 : width / 2;
    const unsigned span = kSeg + width - 1;
    for (unsigned j = threadIdx.x; j < width; j += kThreads) m[j] = __ldg(mask + c * width + j);
    const float b = bias ? __ldg(bias + c) : 0.0f;

    for (size_t s0 = 0; s0 < length; s0 += kSeg) {
        __syncthreads(); /* every thread is done with the previous segment before it is overwritten */
        for (unsigned k = threadIdx.x; k < span; k += kThreads) {
            const size_t p = s0 + k - off; /* wraps past 0 to above length: a ghost cell */
            seg[k] = p < length ? __ldg(x + p) : 0.0f;
        }
        __syncthreads(); /* the taps (first trip) and the segment are in shared memory before anyone reads them */
        for (unsigned o = threadIdx.x; o < kSeg && s0 + o < length; o += kThreads) {
            float acc = 0.0f;
            for (unsigned j = 0; j < width; ++j) acc += seg[o + j] * m[j]; /* 32 banks; m[j] a broadcast */
            y[s0 + o] = epilogue(acc, b, act);
        }
    }
}

} // namespace

extern "C" size_t gk_conv_depthwise_02_row_shared_workspace(size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_depthwise_02_row_shared_run(const float *in, size_t rows, size_t channels,
                                                           size_t length, size_t in_stride, const float *mask,
                                                           size_t width, const float *bias, int causal, int act,
                                                           float *out, size_t out_stride, void * /* workspace */,
                                                           cudaStream_t stream)
{
    if (width == 0 || width > kMaxWidth) return cudaErrorInvalidValue; /* after gk_conv1d_depthwise's check */
    const size_t smem = (width + kSeg + width - 1) * sizeof(float);    /* <= 36860 bytes */
    return launch_blocks(dw_row_shared, rows, dim3(kThreads), smem, stream, in, channels, length, in_stride, mask,
                         (unsigned)width, bias, causal, act, out, out_stride);
}
