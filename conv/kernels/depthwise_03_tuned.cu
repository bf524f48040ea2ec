/* Depthwise variant 3 (id 16): tuned. A warp per 512 outputs of a row, all
 * of their loads in flight at once, 16-byte loads and stores, several rows
 * per block, one kernel per width with the mask in registers, the epilogue
 * fused.
 *
 * The idea. A depthwise convolution with a short mask (width 4 in the
 * sequence-mixing layers of state-space and convolutional language models,
 * causal, with a bias and SiLU) is a stream: 2w FLOPs and an epilogue per
 * output against 4 bytes read and 4 written. The time should be the time to
 * move those bytes, whatever the tensor's shape. Variant 2 stages a row per
 * block with 4-byte accesses and waits at two barriers per segment; with
 * short rows most of its threads idle. This one:
 *   1. A warp is the unit of work: an item is 512 outputs of one row, and
 *      the 8 warps of a block take 8 consecutive items, so a block covers
 *      4096 outputs of one row, or several short rows at once. Warps never
 *      wait for each other: no __syncthreads, only __syncwarp.
 *   2. All of an item's loads first. The item's span of 511 + w inputs is
 *      loaded as the 16-byte vectors of in's own grid that cover it, up to
 *      5 per lane (LDG.128 for each vector inside the row, element by
 *      element with ghost zeros at the row's two ends), and every one is
 *      issued before the first is used: up to 80 bytes per lane, 2.5 KiB
 *      per warp in flight. The vectors go to the warp's buffer in shared
 *      memory, shifted so that word 0 is the span's first input (4-byte
 *      stores, lanes 4 words apart: 4 lanes to a bank); the words past the
 *      span are zeroed, so that every word read was written for this item.
 *   3. One kernel per width, the mask in registers: the kernel is compiled
 *      for each width w from 1 to 32 (a table of 32 launchers), and the
 *      warp loads its channel's w taps once per item into w registers,
 *      every lane the same values. The tap loop is unrolled w times with
 *      no test in it: no shared or constant load and no compare or branch
 *      per FMA. (Compiled instead for 4, 8, 16 or 32 taps with each FMA
 *      under a test j < w, the form before this one had a compare and a
 *      branch per tap in its SASS, 31 branches out of the tap loop of a
 *      segment at 32 taps, and ran width 31 in 0.5188 ms, below.)
 *   4. Four segments of 128 outputs: lane l reads its window of 3 + w
 *      inputs from word 128 sg + 4l as ceil((w + 3) / 4) aligned 16-byte
 *      shared loads (LDS.128: each quarter of the warp reads 128
 *      consecutive bytes, so no two lanes meet in a bank), computes its 4
 *      outputs with 4w FMAs from registers, adds the bias and applies the
 *      activation in fp32 (common.cuh: epilogue) and stores them as one
 *      STG.128. Items are laid on out's 16-byte grid (the first of a row
 *      starts at -d, d = the row start's offset in its 16-byte vector), so
 *      every store is aligned but at the row's two ends.
 *
 * Counted, per output (width w): (511 + w) / 512 inputs loaded from global
 * memory, 16-byte wide (the w - 1 inputs an item shares with the next are
 * loaded by both, the second time from L1 or L2); one 4-byte shared store
 * per input; ceil((w + 3) / 4) / 4 shared loads of 16 bytes (w = 4: 0.5,
 * w = 31: 2.25; the SASS at w = 31: 8 LDS.128 and one LDS.64 per segment);
 * w FMAs from registers; the epilogue. Resources (ptxas -v, CUDA 13.0,
 * sm_90, no spills): 40 to 48 registers at widths up to 11 and 17 to 22
 * (6 or 5 blocks of 256 threads per SM), 50 to 52 at 12 to 16 and 58 to
 * 64 from 23 on (4 blocks, 32 warps; 64 at 24 and 30-32); 17408 bytes of
 * static shared memory per block.
 *
 * Measured on an H100 (8 x 2048 x 8192, conv/README.md): width 4, causal,
 * bias + SiLU, 0.3596 ms, 100.5% of the device copy's speed (0.3616 ms);
 * width 31, same, no epilogue, 0.4236 ms, 85.2% of the copy and 29.4% of
 * the fp32 peak. The form with a test per FMA (item 3) took 0.5188 ms at
 * width 31 (69.6%). The form before that staged and computed each segment
 * of 128 outputs in turn (at most 2 vectors per lane in flight, 64 to 127
 * registers): 0.552x the copy at width 4, width 31 not measured. With all
 * loads first but the window still read with 4-byte shared loads from a
 * buffer padded one word in 32 (ptxas recomputed each padded address),
 * it took 0.3861 ms at width 4 (93.5% of the copy) and 1.0351 ms at width
 * 31 (34.9%).
 *
 * Bound by: DRAM at width 4. At width 31, instruction issue: Nsight
 * Compute (clocks locked at 1.58 GHz) counts 0.69 instructions issued per
 * cycle per scheduler and DRAM at 66.6% of its peak; in the form with a
 * test per FMA, 0.78 issued per cycle in a kernel a third longer. Tried
 * and not kept, on that form: loading the next item into registers while
 * the current one is computed (108 registers at 32 taps: 0.6454 ms at
 * width 31, 0.3973 ms at width 4); each warp running through consecutive
 * items with the next item's 4-byte cp.async copies in flight behind the
 * compute: 0.4960 to 0.4991 ms at width 31 with 4 outputs per lane and
 * 0.5007 ms with 8, and 0.4313 to 0.4328 ms at width 4 (83.5% to 83.8%
 * of the copy).
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

#include <utility> /* std::index_sequence */

#include "common.cuh" /* ceil_div, launch_blocks, epilogue */

namespace {

constexpr unsigned kWarps = 8, kThreads = 32 * kWarps;
constexpr unsigned kSegOut = 128;              /* outputs per segment: 4 per lane */
constexpr unsigned kSegs = 4;                  /* segments per item */
constexpr unsigned kItem = kSegOut * kSegs;    /* outputs per warp item: 512 */
constexpr unsigned kMaxWidth = 32;
constexpr unsigned kSpanMax = kItem + kMaxWidth - 1;     /* inputs an item needs at most: 543 */
constexpr unsigned kVecsPerLane = (kSpanMax + 3 + 3) / 4 / 32 + 1; /* 16-byte vectors per lane: 5 */
constexpr unsigned kWinMax = (kMaxWidth + 3 + 3) / 4;  /* 16-byte words of a lane's window: 9 */
constexpr unsigned kBuf = kItem - 4 + 4 * kWinMax;       /* words per warp buffer: 544, every window inside */
static_assert(kBuf >= kSpanMax && kBuf % 4 == 0, "the buffer holds the largest span, in 16-byte words");
static_assert(32 * kVecsPerLane * 4 >= kSpanMax + 3, "the lanes' vectors cover the largest span");

template <unsigned W>
__global__ void __launch_bounds__(kThreads)
    dw_tuned(const float *__restrict__ in, size_t rows, size_t channels, size_t length, size_t in_stride,
             const float *__restrict__ mask, const float *__restrict__ bias, int causal, int act,
             float *__restrict__ out, size_t out_stride, size_t items_per_row, size_t first)
{
    __shared__ __align__(16) float bufs[kWarps][kBuf];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t item = (first + blockIdx.x) * kWarps + warp;
    const size_t row = item / items_per_row, g = item % items_per_row;
    if (row >= rows) return; /* the last block's spare warps: no barrier follows that they would miss */
    float *buf = bufs[warp];
    const size_t c = row % channels;
    const float *x = in + row * in_stride;
    float *y = out + row * out_stride;
    const long long off = causal ? (long long)W - 1 : (long long)(W / 2);
    const long long len = (long long)length;

    /* Items are laid on out's 16-byte grid: the first starts at -d, d = the
     * row start's offset in its 16-byte vector, so that lane l's 4 outputs
     * of a segment go out as one aligned STG.128 (but at the row's ends). */
    const unsigned d = (unsigned)(((uintptr_t)y / sizeof(float)) & 3);
    const long long t0 = (long long)(g * kItem) - (long long)d; /* the item's first output, maybe < 0 */
    if (t0 >= len) return;                                        /* the same for the whole warp */
    const unsigned nout = len - t0 < (long long)kItem ? (unsigned)(len - t0) : kItem;
    const unsigned span = nout + W - 1;       /* the inputs the item's outputs read */
    const long long p0 = t0 - off;            /* the span's first input */
    const unsigned s = (unsigned)(((uintptr_t)x / sizeof(float) + (uintptr_t)p0) & 3);
    const long long base = p0 - (long long)s; /* on in's 16-byte grid */
    const unsigned nv = (s + span + 3) / 4;   /* vectors that cover the span */

    /* 1. Every load of the item first: up to 5 vectors of 16 bytes per lane
     *    in flight, none waited for before the last is issued. Vectors inside
     *    the row are one LDG.128 each; the few that cross the row's ends are
     *    read element by element, ghost zeros outside. */
    float4 q[kVecsPerLane];
    if (base >= 0 && base + 4ll * nv <= len) {
#pragma unroll
        for (unsigned u = 0; u < kVecsPerLane; ++u) {
            const unsigned v = lane + 32 * u;
            q[u] = v < nv ? __ldg(reinterpret_cast<const float4 *>(x + base) + v) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    } else {
#pragma unroll
        for (unsigned u = 0; u < kVecsPerLane; ++u) {
            const long long ps = base + 4ll * (lane + 32 * u);
            float e4[4];
#pragma unroll
            for (unsigned e = 0; e < 4; ++e) e4[e] = ps + e >= 0 && ps + e < len ? __ldg(x + ps + e) : 0.0f;
            q[u] = make_float4(e4[0], e4[1], e4[2], e4[3]);
        }
    }
    /* The mask and bias while the loads are in flight. */
    float m[W]; /* the channel's taps, in registers */
#pragma unroll
    for (unsigned j = 0; j < W; ++j) m[j] = __ldg(mask + c * W + j);
    const float b = bias ? __ldg(bias + c) : 0.0f;

    /* 2. Into the warp's buffer, shifted so that word 0 is the span's first
     *    input (4-byte stores: lanes 4 words apart, so 4 lanes share a bank
     *    at each store); the words past the span are zeroed, so that every
     *    word a lane reads was written by this item. */
#pragma unroll
    for (unsigned u = 0; u < kVecsPerLane; ++u) {
        const float e4[4] = {q[u].x, q[u].y, q[u].z, q[u].w};
#pragma unroll
        for (unsigned e = 0; e < 4; ++e) {
            const int k = (int)(4 * (lane + 32 * u) + e) - (int)s; /* the buffer position of element e */
            if (k >= 0 && k < (int)span) buf[k] = e4[e];
        }
    }
    for (unsigned k = span + lane; k < kBuf; k += 32) buf[k] = 0.0f;
    __syncwarp(); /* the span is in the buffer before any lane reads its neighbours' inputs */

    /* 3. Each segment: lane l's window of 3 + w inputs from the buffer,
     *    from word 128 sg + 4l, as ceil((K + 3) / 4) aligned 16-byte loads
     *    (LDS.128: each quarter of the warp reads 128 consecutive bytes, so
     *    no two lanes meet in a bank); 4w FMAs from registers, the
     *    epilogue, one 16-byte store. */
#pragma unroll 1
    for (unsigned sg = 0; sg < kSegs; ++sg) {
        const long long ts = t0 + (long long)(sg * kSegOut); /* the segment's first output */
        if (ts >= len) break; /* the same for the whole warp */
        constexpr unsigned kWin = (W + 3 + 3) / 4;
        const float4 *win = reinterpret_cast<const float4 *>(buf + sg * kSegOut + 4 * lane);
        float w[4 * kWin];
#pragma unroll
        for (unsigned i = 0; i < kWin; ++i) {
            const float4 f = win[i];
            w[4 * i] = f.x, w[4 * i + 1] = f.y, w[4 * i + 2] = f.z, w[4 * i + 3] = f.w;
        }
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
        for (unsigned j = 0; j < W; ++j)
#pragma unroll
            for (unsigned e = 0; e < 4; ++e) acc[e] += w[e + j] * m[j];
        float r[4];
#pragma unroll
        for (unsigned e = 0; e < 4; ++e) r[e] = epilogue(acc[e], b, act);
        const long long t = ts + 4 * lane;
        if (t >= 0 && t + 3 < len) {
            *reinterpret_cast<float4 *>(y + t) = make_float4(r[0], r[1], r[2], r[3]); /* aligned: t + d = 0 mod 4 */
        } else {
#pragma unroll
            for (unsigned e = 0; e < 4; ++e)
                if (t + e >= 0 && t + e < len) y[t + e] = r[e];
        }
    }
}

typedef cudaError_t launch_fn(const float *, size_t, size_t, size_t, size_t, const float *, const float *, int, int,
                              float *, size_t, cudaStream_t);

template <unsigned W>
cudaError_t launch(const float *in, size_t rows, size_t channels, size_t length, size_t in_stride, const float *mask,
                   const float *bias, int causal, int act, float *out, size_t out_stride, cudaStream_t stream)
{
    /* Items of 512 outputs laid from -3 (the largest d), so that they cover
     * [-d, length) for every row: ceil((length + 3) / 512) per row. */
    const size_t per_row = ceil_div(length + 3, kItem);
    return launch_blocks(dw_tuned<W>, ceil_div(rows * per_row, kWarps), /* 8 items per block */
                         dim3(kThreads), 0, stream, in, rows, channels, length, in_stride, mask, bias, causal, act, out,
                         out_stride, per_row);
}

/* One kernel per width, 1 to kMaxWidth: kLaunch::fn[width - 1]. */
template <size_t... I> struct Launches {
    static constexpr launch_fn *fn[sizeof...(I)] = {&launch<(unsigned)I + 1>...};
};
template <size_t... I> Launches<I...> launches_of(std::index_sequence<I...>);
using kLaunch = decltype(launches_of(std::make_index_sequence<kMaxWidth>()));

} // namespace

extern "C" size_t gk_conv_depthwise_03_tuned_workspace(size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_depthwise_03_tuned_run(const float *in, size_t rows, size_t channels, size_t length,
                                                      size_t in_stride, const float *mask, size_t width,
                                                      const float *bias, int causal, int act, float *out,
                                                      size_t out_stride, void * /* workspace: none */,
                                                      cudaStream_t stream)
{
    if (width == 0 || width > kMaxWidth) return cudaErrorInvalidValue; /* after gk_conv1d_depthwise's check */
    return kLaunch::fn[width - 1](in, rows, channels, length, in_stride, mask, bias, causal, act, out, out_stride, stream);
}
