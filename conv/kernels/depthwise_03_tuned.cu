/* Depthwise variant 3 (id 16): tuned. A warp per row segment, 16-byte loads
 * and stores, several rows per block, the mask in registers, the epilogue
 * fused.
 *
 * The idea. A depthwise convolution with a short mask (width 4 in the
 * sequence-mixing layers of state-space and convolutional language models,
 * causal, with a bias and SiLU) is a stream: 2w FLOPs and an epilogue per
 * output against 4 bytes read and 4 written. The time should be the time to
 * move those bytes, whatever the tensor's shape. Variant 2 stages a row per
 * block with 4-byte accesses and waits at two barriers per segment; with
 * short rows most of its threads idle. This one:
 *   1. A warp is the unit of work: an item is 4 segments of 128 outputs of
 *      one row (512 outputs), and the 8 warps of a block take 8 consecutive
 *      items, so a block covers 4096 outputs of one row, or several short
 *      rows at once. Warps never wait for each other: no __syncthreads, only
 *      __syncwarp around each segment's staging.
 *   2. The mask in registers: the warp loads its channel's w taps once per
 *      item into K registers (K = 4, 8, 16 or 32, the smallest that holds w;
 *      the kernel is compiled for each), every lane the same values, and the
 *      taps beyond w are never multiplied (each FMA is under a test j < w,
 *      the same in every lane). No shared or constant load per FMA.
 *   3. 16-byte loads and stores. Each segment's span of 127 + w inputs is
 *      loaded as the 16-byte vectors of in's own grid that cover it
 *      (LDG.128 for each vector inside the row, element by element with
 *      ghost zeros at its two ends) into the warp's buffer in shared
 *      memory, shifted so that the buffer starts at the span's first input;
 *      segments are laid on out's 16-byte grid (the first starts at -d, d =
 *      the row start's offset in its 16-byte vector), so that lane l's 4
 *      outputs 4l .. 4l + 3 go out as one aligned STG.128, except at the
 *      row's two ends.
 *   4. Each lane reads its window of 3 + w inputs from the buffer into
 *      registers (lane l from word 4l: a 4-word stride, spread over the
 *      banks by one pad word per 32, k at k + k / 32: at most 2-way
 *      conflicts), computes its 4 outputs with 4w FMAs from registers, adds
 *      the bias and applies the activation in fp32 (common.cuh: epilogue)
 *      and stores.
 *
 * Counted, per output (width w): 1 + (w - 1) / 128 loads from global memory
 * (the halo of each segment is loaded again by the next, from L1), 16-byte
 * wide; w FMAs from registers; the window's 3 + w shared loads per 4
 * outputs; the epilogue. Resources (ptxas -v, CUDA 13.0, sm_90, no
 * spills): 64, 78, 103 and 127 registers for K = 4, 8, 16, 32, so 4, 3, 2
 * and 2 blocks of 256 threads per SM (32, 24, 16, 16 warps); 5216 bytes of
 * static shared memory per block. The register count, which the 64-bit
 * positions and the unrolled window inflate, is what limits the warps per
 * SM and so the loads in flight: the first thing to tune on the GPU.
 *
 * Bound by: DRAM if the issue slots and the loads in flight suffice; each
 * warp has at most 2 vectors of 16 bytes per lane in flight per segment, and
 * the staging and the compute of a segment do not overlap within a warp
 * (other warps of the SM cover for it). The bench against the device copy
 * at width 4 and 31 is the test of this. Measured on an H100 at width 4,
 * causal, bias + SiLU, 8 x 2048 x 8192 (conv/README.md): 0.55x the copy's
 * speed, slower than variant 2 (0.63x); the registers and loads in flight
 * counted above are the first suspect. Width 31 was not measured.
 *
 * Limits: width <= 32 (the table's max_width: the mask in registers). Any
 * number of rows, any length, any strides (each row's alignment is found
 * from its own address: rows of a tensor whose length is not a multiple of
 * 4 are each aligned differently, and all are correct); pointers need only
 * their 4-byte alignment. No workspace, no host synchronisation.
 *
 * Sources: CUDA C++ Programming Guide, "Device Memory Accesses" (vector
 * sizes and alignment), "Shared Memory" (banks), "Warp Synchronous
 * Programming" (__syncwarp).
 *
 * Build alone: nvcc -arch=sm_90 -c depthwise_03_tuned.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "common.cuh" /* ceil_div, launch_blocks, epilogue */

namespace {

constexpr unsigned kWarps = 8, kThreads = 32 * kWarps;
constexpr unsigned kSegOut = 128;              /* outputs per segment: 4 per lane */
constexpr unsigned kSegs = 4;                  /* segments per item */
constexpr unsigned kItem = kSegOut * kSegs;    /* outputs per warp item: 512 */
constexpr unsigned kMaxWidth = 32;
__host__ __device__ constexpr unsigned phys(unsigned k) { return k + k / 32; } /* one pad word per 32 */
constexpr unsigned kBuf = phys(kSegOut + kMaxWidth - 2) + 1;                /* words per warp buffer: 163 */

template <unsigned K>
__global__ void __launch_bounds__(kThreads)
    dw_tuned(const float *__restrict__ in, size_t rows, size_t channels, size_t length, size_t in_stride,
             const float *__restrict__ mask, unsigned width, const float *__restrict__ bias, int causal, int act,
             float *__restrict__ out, size_t out_stride, size_t items_per_row, size_t first)
{
    __shared__ float bufs[kWarps][kBuf];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t item = (first + blockIdx.x) * kWarps + warp;
    const size_t row = item / items_per_row, g = item % items_per_row;
    if (row >= rows) return; /* the last block's spare warps: no barrier follows that they would miss */
    float *buf = bufs[warp];
    const size_t c = row % channels;
    const float *x = in + row * in_stride;
    float *y = out + row * out_stride;
    const long long off = causal ? (long long)width - 1 : (long long)(width / 2);
    const long long len = (long long)length;

    float m[K]; /* the channel's taps, in registers; 0 past width (never multiplied) */
#pragma unroll
    for (unsigned j = 0; j < K; ++j) m[j] = j < width ? __ldg(mask + c * width + j) : 0.0f;
    const float b = bias ? __ldg(bias + c) : 0.0f;

    const unsigned d = (unsigned)(((uintptr_t)y / sizeof(float)) & 3); /* y[-d] is on the 16-byte grid */
    const unsigned span = kSegOut + width - 1;
    for (unsigned sg = 0; sg < kSegs; ++sg) {
        const long long t0 = (long long)(g * kItem + sg * kSegOut) - (long long)d; /* first output, maybe < 0 */
        if (t0 >= len) break; /* the same for the whole warp */
        const long long p0 = t0 - off; /* the span's first input */
        const unsigned s = (unsigned)(((uintptr_t)x / sizeof(float) + (uintptr_t)p0) & 3);
        const unsigned nv = (s + span + 3) / 4;
        __syncwarp(); /* every lane is done reading the previous segment's buffer */
        for (unsigned v = lane; v < nv; v += 32) {
            const long long ps = p0 - (long long)s + 4ll * v; /* this vector's first input, 16-byte aligned */
            float val[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            if (ps >= 0 && ps + 3 < len) {
                const float4 q = __ldg(reinterpret_cast<const float4 *>(x + ps)); /* LDG.128 */
                val[0] = q.x, val[1] = q.y, val[2] = q.z, val[3] = q.w;
            } else {
#pragma unroll
                for (unsigned e = 0; e < 4; ++e)
                    if (ps + e >= 0 && ps + e < len) val[e] = __ldg(x + ps + e);
            }
#pragma unroll
            for (unsigned e = 0; e < 4; ++e) {
                const long long k = 4ll * v + e - s; /* the buffer position of element e */
                if (k >= 0 && k < (long long)span) buf[phys((unsigned)k)] = val[e];
            }
        }
        __syncwarp(); /* the span is in the buffer before any lane reads its neighbours' inputs */

        float w[K + 3];
#pragma unroll
        for (unsigned q = 0; q < K + 3; ++q) w[q] = q < width + 3 ? buf[phys(4 * lane + q)] : 0.0f;
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
        for (unsigned j = 0; j < K; ++j) {
            if (j >= width) break; /* the same in every lane */
#pragma unroll
            for (unsigned e = 0; e < 4; ++e) acc[e] += w[e + j] * m[j];
        }
        float r[4];
#pragma unroll
        for (unsigned e = 0; e < 4; ++e) r[e] = epilogue(acc[e], b, act);
        const long long t = t0 + 4 * lane;
        if (t >= 0 && t + 3 < len) {
            *reinterpret_cast<float4 *>(y + t) = make_float4(r[0], r[1], r[2], r[3]); /* aligned: t + d = 0 mod 4 */
        } else {
#pragma unroll
            for (unsigned e = 0; e < 4; ++e)
                if (t + e >= 0 && t + e < len) y[t + e] = r[e];
        }
    }
}

template <unsigned K>
cudaError_t launch(const float *in, size_t rows, size_t channels, size_t length, size_t in_stride, const float *mask,
                   size_t width, const float *bias, int causal, int act, float *out, size_t out_stride,
                   cudaStream_t stream)
{
    /* Items of 512 outputs laid from -3 (the largest d), so that they cover
     * [-d, length) for every row: ceil((length + 3) / 512) per row. */
    const size_t per_row = ceil_div(length + 3, kItem);
    return launch_blocks(dw_tuned<K>, ceil_div(rows * per_row, kWarps), /* 8 items per block */
                         dim3(kThreads), 0, stream, in, rows, channels, length, in_stride, mask, (unsigned)width, bias,
                         causal, act, out, out_stride, per_row);
}

} // namespace

extern "C" size_t gk_conv_depthwise_03_tuned_workspace(size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_depthwise_03_tuned_run(const float *in, size_t rows, size_t channels, size_t length,
                                                      size_t in_stride, const float *mask, size_t width,
                                                      const float *bias, int causal, int act, float *out,
                                                      size_t out_stride, void * /* workspace: none */,
                                                      cudaStream_t stream)
{
    if (width == 0 || width > kMaxWidth) return cudaErrorInvalidValue; /* after gk_conv1d_depthwise's check */
    if (width <= 4) return launch<4>(in, rows, channels, length, in_stride, mask, width, bias, causal, act, out, out_stride, stream);
    if (width <= 8) return launch<8>(in, rows, channels, length, in_stride, mask, width, bias, causal, act, out, out_stride, stream);
    if (width <= 16) return launch<16>(in, rows, channels, length, in_stride, mask, width, bias, causal, act, out, out_stride, stream);
    return launch<32>(in, rows, channels, length, in_stride, mask, width, bias, causal, act, out, out_stride, stream);
}
