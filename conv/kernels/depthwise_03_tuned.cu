/* Depthwise variant 3 (id 16): tuned. A warp per run of up to 8 items of
 * 512 outputs of one row, each item's inputs copied into shared memory by
 * cp.async while the item before it is computed, 16-byte copies and stores,
 * one kernel per width with the mask in registers, the epilogue fused.
 *
 * The idea. A depthwise convolution with a short mask (width 4 in the
 * sequence-mixing layers of state-space and convolutional language models,
 * causal, with a bias and SiLU) is a stream: 2w FLOPs and an epilogue per
 * output against 4 bytes read and 4 written. The time should be the time to
 * move those bytes, whatever the tensor's shape; at width 31 (62 FLOPs per 8
 * bytes) the FMAs must also issue close to their peak rate. Variant 2 stages
 * a row per block with 4-byte accesses and waits at two barriers per
 * segment; with short rows most of its threads idle. This one:
 *   1. Work. An item is 512 outputs of one row, and a warp takes a run of up
 *      to kRun = 8 consecutive items of a row (4096 outputs); the 8 warps of
 *      a block take 8 runs. Warps never wait for each other: no
 *      __syncthreads, only __syncwarp. The taps and the bias are loaded once
 *      per run.
 *   2. Copies ahead of the work. Each warp has two buffers of 640 words in
 *      shared memory. Item i's inputs go to buffer i % 2 as the 16-byte
 *      vectors of in's own grid that cover its span of 511 + w inputs, 5 per
 *      lane, one cp.async each (LDGSTS: global to shared without a
 *      register), one commit group per item; vectors past the span are
 *      zero-filled by the copy itself (source size 0, nothing read). Where
 *      the vectors cross the row's two ends (the first and last item of a
 *      row) each element is copied alone, 4 bytes, ghost zeros outside. The
 *      warp queues item i + 1 before it waits for item i (cp.async.wait_group
 *      1, then __syncwarp so that every lane's copies are seen), so that one
 *      item's 2.5 KiB per warp is in flight behind each item's arithmetic; a
 *      __syncwarp after the item frees its buffer for item i + 2.
 *   3. The shift, compiled. In the buffer, word k is input base + k, base on
 *      in's 16-byte grid, so the span starts at word S = (the span's first
 *      input's address / 4) mod 4. Items are 512 inputs apart, so S is the
 *      same for every item of a row; the arithmetic is compiled for each S
 *      (0 to 3) and a switch picks one per item. Lane l's window of a segment
 *      is then ceil((S + w + 3) / 4) aligned 16-byte loads from word 128 sg +
 *      4 l (LDS.128: each quarter of the warp reads 128 consecutive bytes, so
 *      no two lanes meet in a bank), and the FMAs take w[S + e + j], an index
 *      known at compile time: no shifting in registers.
 *   4. One kernel per width, the mask in registers: the kernel is compiled
 *      for each width w from 1 to 32 (a table of 32 launchers); the w taps
 *      sit in w registers, every lane the same values, and the tap loop is
 *      unrolled w times with no test in it. (Compiled instead for 4, 8, 16
 *      or 32 taps with each FMA under a test j < w, an earlier form had a
 *      compare and a branch per tap in its SASS, 31 branches out of the tap
 *      loop of a segment at 32 taps.)
 *   5. Four segments of 128 outputs, unrolled: lane l computes its 4 outputs
 *      of a segment with 4w FMAs from registers, adds the bias and applies
 *      the activation in fp32 (common.cuh: epilogue) and stores them as one
 *      STG.128; an item wholly inside its row stores every segment with no
 *      test. Items are laid on out's 16-byte grid (the first of a row starts
 *      at -d, d = the row start's offset in its 16-byte vector), so every
 *      store is aligned but at the row's two ends.
 *   6. No empty warps. A row needs ceil((length + d) / 512) items. When out
 *      and its stride keep every row on the 16-byte grid (d = 0) the grid
 *      counts ceil(length / 512) items a row; otherwise ceil((length + 3) /
 *      512), and a warp whose run starts past its row's end returns at once.
 *
 * Counted, per output (width w): (511 + w) / 512 inputs copied from global
 * memory in 16-byte copies (the w - 1 inputs an item shares with the next
 * are copied by both; cp.async.cg keeps nothing in L1, so the second copy
 * comes from L2 at best, from DRAM at worst); ceil((S + w + 3) / 4) / 4
 * shared loads of 16 bytes; w FMAs from registers; the epilogue; a quarter
 * of a 16-byte store. At width 31 without an epilogue, Nsight Compute
 * (CUDA 13.0, H200, 8 x 2048 x 8192) counts 210.2 million warp
 * instructions, 802 per item of 512 outputs, of which 496 are FFMA (62%).
 * Resources (ptxas -v, CUDA 13.0, sm_90, no spills): 63 or 64 registers at
 * widths 1 to 8, 71 or 72 at 9 to 17, 77 to 80 from 18 on
 * (__launch_bounds__ with 3 blocks), so 4 blocks of 256 threads per SM (32
 * warps) up to width 8 and 3 (24 warps) above; 40960 bytes of static
 * shared memory per block (8 warps x 2 buffers x 640 words).
 *
 * Measured on an H200 (2026-11-28, gk_bench, 8 x 2048 x 8192, cold L2,
 * medians; the device copy in the same run, 0.2582-0.2584 ms): width
 * 31, "same", no epilogue, 0.2823 ms, 91.5% of the copy and 44.1% of the
 * fp32 peak;
 * width 4, causal, bias + SiLU, 0.2845 ms, 90.8% of the copy; width 31,
 * causal, bias + SiLU, 0.3743 ms. The form before this one (a warp per
 * item, all of an item's loads into registers first, then 4-byte shared
 * stores shifted so that word 0 was the span's first input, the taps
 * loaded per item) took 0.3918 and 0.3921 ms at width 31 (65.5% of the
 * copy) and 0.2871 and 0.2873 ms at width 4, in one run; Nsight Compute
 * counted 1026 instructions per item at width 31, 48% FFMA, an instruction
 * issued in 69.5% of each scheduler's cycles. Taken one step at a time
 * (same method, the new build and the old alternated, twice each):
 * steps 1 to 3 with the segments in a loop, 0.3183 and 0.3186 ms at width
 * 31 and 0.2846 at width 4; the segments unrolled (step 5), with each
 * lane's copy addresses taken from one pointer (src + 128 u), 0.3175 and
 * 0.3169; the grid of step 6, which leaves no warp without an item at
 * 8192 outputs a row (before it, 17 items a row in runs of 8 gave every
 * third warp nothing to do: Nsight Compute counted 21.1% of the warp slots
 * active, 35.5% after), 0.2823 and 0.2824 at width 31, 0.2845 at width 4.
 * The addressing alone, with the segments in a loop, took 0.3280 ms; the
 * final code with the first build's addressing (x + base + 4 v per
 * vector), 0.2932 and 0.2943 against 0.2831 and 0.2842 in one run.
 *
 * Bound by: DRAM at width 4; at width 31 instruction issue, an instruction
 * issued in 78.8% of each scheduler's active cycles, with the FMA pipe
 * busy 51.6% of them and DRAM at 62.0% of its peak (Nsight Compute, which
 * locks the clocks at base).
 *
 * Tried and not kept (the same runs): two partial sums per output (even
 * and odd taps, 8 independent FMA chains a lane instead of 4), 0.2900 and
 * 0.2901 ms against 0.2823 and 0.2824 at width 31; runs of 4 items with
 * the loads still into registers first and the 4-byte shared stores
 * without their tests (every word of the lanes' vectors written), 0.3978
 * to 0.4043 ms at width 31, the taps and the item's state in registers
 * costing a block per SM. On an H100 with earlier forms: loading the next
 * item into registers while the current one was computed (108 registers
 * at 32 taps) and 4-byte cp.async copies of the next item behind the
 * compute were slower than the forms they were tried on.
 *
 * Limits: width <= 32 (the table's max_width: the mask in registers). Any
 * number of rows, any length, any strides (each row's alignment is found
 * from its own address: rows of a tensor whose length is not a multiple of
 * 4 are each aligned differently, and all are correct); pointers need only
 * their 4-byte alignment. No workspace, no host synchronisation.
 *
 * Sources: CUDA C++ Programming Guide, "Asynchronous Data Copies"
 * (cp.async, its groups and zero fill), "Device Memory Accesses" (vector
 * sizes and alignment), "Shared Memory" (banks), "Warp Synchronous
 * Programming" (__syncwarp); PTX ISA, "cp.async".
 *
 * Build alone: nvcc -arch=sm_90 -std=c++17 -c depthwise_03_tuned.cu, next
 * to common.cuh (sm_80 and newer: cp.async).
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <utility> /* std::index_sequence */

#include "common.cuh" /* ceil_div, launch_blocks, epilogue, copy_async */

namespace {

constexpr unsigned kWarps = 8, kThreads = 32 * kWarps;
constexpr unsigned kSegOut = 128;              /* outputs per segment: 4 per lane */
constexpr unsigned kSegs = 4;                  /* segments per item */
constexpr unsigned kItem = kSegOut * kSegs;    /* outputs per warp item: 512 */
constexpr unsigned kRun = 8;                   /* items per warp: a run of 4096 outputs of one row */
constexpr unsigned kMaxWidth = 32;
constexpr unsigned kVecsPerLane = 5;           /* 16-byte vectors per lane and item */
constexpr unsigned kBuf = 4 * 32 * kVecsPerLane; /* words per item buffer: 640 */
/* An item reads at most 3 + 511 + 31 inputs from its 16-byte grid, and
 * lane 31's last window of a segment ends at word 384 + 124 + 4 ceil(38 / 4). */
static_assert(3 + kItem + kMaxWidth - 1 <= kBuf && 3 * kSegOut + 124 + 4 * ((kMaxWidth + 6 + 3) / 4) <= kBuf,
              "an item's vectors and windows fit its buffer");

/* One item's outputs from its inputs in buf (word k = input base + k, base
 * on in's 16-byte grid, the span's first input at word S): 4 segments of
 * 128 outputs, lane l's 4 from word 128 sg + 4 l + S on. */
template <unsigned W, unsigned S>
__device__ __forceinline__ void item_outputs(const float *buf, const float (&m)[W], float b, int act, float *y,
                                             long long t0, long long len, unsigned lane)
{
    constexpr unsigned kWin = (S + W + 3 + 3) / 4; /* 16-byte words of a lane's window */
    const bool inside = t0 >= 0 && t0 + (long long)kItem <= len;
#pragma unroll
    for (unsigned sg = 0; sg < kSegs; ++sg) {
        const long long ts = t0 + (long long)(sg * kSegOut); /* the segment's first output */
        if (!inside && ts >= len) break;                    /* the same for the whole warp */
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
            for (unsigned e = 0; e < 4; ++e) acc[e] += w[S + e + j] * m[j];
        float r[4];
#pragma unroll
        for (unsigned e = 0; e < 4; ++e) r[e] = epilogue(acc[e], b, act);
        const long long t = ts + 4 * lane;
        /* The same store in the first two branches: written as one test
         * (inside || ...), the compiler evaluated the 64-bit bounds of the
         * second for every segment; this way an inside item tests nothing. */
        if (inside) {
            __stwb(reinterpret_cast<float4 *>(y + t), make_float4(r[0], r[1], r[2], r[3])); /* t + d = 0 mod 4 */
        } else if (t >= 0 && t + 3 < len) {
            __stwb(reinterpret_cast<float4 *>(y + t), make_float4(r[0], r[1], r[2], r[3]));
        } else {
#pragma unroll
            for (unsigned e = 0; e < 4; ++e)
                if (t + e >= 0 && t + e < len) y[t + e] = r[e];
        }
    }
}

template <unsigned W>
__global__ void __launch_bounds__(kThreads, 3)
    dw_tuned(const float *__restrict__ in, size_t rows, size_t channels, size_t length, size_t in_stride,
             const float *__restrict__ mask, const float *__restrict__ bias, int causal, int act,
             float *__restrict__ out, size_t out_stride, size_t runs_per_row, size_t first)
{
    __shared__ __align__(16) float bufs[kWarps][2][kBuf];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t task = (first + blockIdx.x) * kWarps + warp;
    const size_t row = task / runs_per_row, run = task % runs_per_row;
    if (row >= rows) return; /* the last block's spare warps: no barrier follows that they would miss */
    const float *x = in + row * in_stride;
    float *y = out + row * out_stride;
    const long long off = causal ? (long long)W - 1 : (long long)(W / 2);
    const long long len = (long long)length;
    /* Items are laid on out's 16-byte grid: the first of the row starts at
     * -d, d = the row start's offset in its 16-byte vector, so that lane l's
     * 4 outputs of a segment go out as one aligned STG.128 (but at the
     * row's ends). */
    const unsigned d = (unsigned)(((uintptr_t)y / sizeof(float)) & 3);
    const long long t0 = (long long)(run * (kRun * kItem)) - (long long)d; /* the run's first output */
    if (t0 >= len) return;
    const unsigned items = (unsigned)((len - t0 + kItem - 1) / kItem < kRun ? (len - t0 + kItem - 1) / kItem : kRun);
    /* S: the first input of an item's span in its 16-byte vector of in, the
     * same for every item of the row (they are 512 inputs apart). */
    const unsigned s = (unsigned)(((uintptr_t)x / sizeof(float) + (uintptr_t)(t0 - off)) & 3);

    /* Queue item i's inputs into buffer i % 2: its 16-byte vectors from
     * base = t0 + 512 i - off - S on, 5 per lane, one cp.async each (no
     * register); vectors past the span are zero-filled and not read. Where
     * the vectors cross the row's ends (the first and last item of a row),
     * each element is copied alone, ghost zeros outside. One commit group
     * per item. */
    auto fetch = [&](unsigned i) {
        const long long ti = t0 + (long long)i * kItem, base = ti - off - (long long)s;
        const unsigned nout = len - ti < (long long)kItem ? (unsigned)(len - ti) : kItem;
        const unsigned nv = (s + nout + W - 1 + 3) / 4; /* vectors that cover the span */
        float *dst = bufs[warp][i % 2];
        if (base >= 0 && base + 4ll * nv <= len) {
            const float *src = x + base + 4 * lane; /* lane l's vector u: src + 128 u */
#pragma unroll
            for (unsigned u = 0; u < kVecsPerLane; ++u) {
                const bool ok = lane + 32 * u < nv;
                copy_async<16>(dst + 4 * lane + 128 * u, ok ? src + 128 * u : x, ok);
            }
        } else {
#pragma unroll
            for (unsigned u = 0; u < kVecsPerLane; ++u) {
                const unsigned v = lane + 32 * u;
#pragma unroll
                for (unsigned e = 0; e < 4; ++e) {
                    const long long p = base + 4ll * v + e;
                    const bool ok = v < nv && p >= 0 && p < len;
                    copy_async<4>(dst + 4 * v + e, ok ? x + p : x, ok);
                }
            }
        }
        asm volatile("cp.async.commit_group;" ::: "memory");
    };
    fetch(0);

    /* The mask and bias, once per run, while the first item's copies fly. */
    const size_t c = row % channels;
    float m[W]; /* the channel's taps, in registers */
#pragma unroll
    for (unsigned j = 0; j < W; ++j) m[j] = __ldg(mask + c * W + j);
    const float b = bias ? __ldg(bias + c) : 0.0f;

#pragma unroll 1
    for (unsigned i = 0; i < items; ++i) {
        if (i + 1 < items) fetch(i + 1);                  /* the next item's copies fly behind this one's work */
        else asm volatile("cp.async.commit_group;" ::: "memory"); /* an empty group: the wait below stays 1 */
        asm volatile("cp.async.wait_group 1;" ::: "memory"); /* item i's copies have landed (this lane's) */
        __syncwarp();                                        /* ... every lane's */
        const float *buf = bufs[warp][i % 2];
        const long long ti = t0 + (long long)i * kItem;
        switch (s) {
        case 0: item_outputs<W, 0>(buf, m, b, act, y, ti, len, lane); break;
        case 1: item_outputs<W, 1>(buf, m, b, act, y, ti, len, lane); break;
        case 2: item_outputs<W, 2>(buf, m, b, act, y, ti, len, lane); break;
        default: item_outputs<W, 3>(buf, m, b, act, y, ti, len, lane); break;
        }
        __syncwarp(); /* every lane is done with this buffer before item i + 2 is queued into it */
    }
}

typedef cudaError_t launch_fn(const float *, size_t, size_t, size_t, size_t, const float *, const float *, int, int,
                              float *, size_t, cudaStream_t);

template <unsigned W>
cudaError_t launch(const float *in, size_t rows, size_t channels, size_t length, size_t in_stride, const float *mask,
                   const float *bias, int causal, int act, float *out, size_t out_stride, cudaStream_t stream)
{
    /* Items of 512 outputs laid from -d, so that they cover [-d, length):
     * ceil((length + 3) / 512) per row for rows whose d may be up to 3, and
     * ceil(length / 512) when out and its stride keep every row on the
     * 16-byte grid (d = 0: no warp is launched for an empty item); in runs
     * of kRun items. */
    const bool grid = ((uintptr_t)out & 15) == 0 && out_stride % 4 == 0;
    const size_t runs = ceil_div(ceil_div(length + (grid ? 0 : 3), kItem), kRun);
    return launch_blocks(dw_tuned<W>, ceil_div(rows * runs, kWarps), /* 8 runs per block */
                         dim3(kThreads), 0, stream, in, rows, channels, length, in_stride, mask, bias, causal, act, out,
                         out_stride, runs);
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
