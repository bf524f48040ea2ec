/* Variant 8: float bins. Samples of any type binned into even bins over
 * [lower, upper) or between levels, with a float estimate instead of a
 * division per sample, made exact by one check against the bin's
 * boundaries.
 *
 * The idea. Real samples are floats (intensities, scores, energies) binned
 * over [lower, upper): sample x belongs to bin floor((x - lower) * bins /
 * (upper - lower)). Computed as written that is a subtraction, a
 * multiplication and a division per sample, and in floating point it is
 * wrong next to an edge: (x - lower) rounds, the product rounds, and a
 * sample exactly on boundary i (or one ulp below it) can land one bin off.
 * CUB's HistogramEven computes the bin in the sample's own type, so it can
 * differ from the exact rule there (histogram/README.md, "Even bins at the
 * edges"). Here:
 *   1. estimate: b = min(bins - 1, (unsigned)((x - lower) * scale)), with
 *      scale = bins / (upper - lower) computed once on the host (one
 *      subtraction and one multiplication per sample, no division);
 *   2. check: the exact boundaries t[b], t[b + 1] (levels.cuh, item 2:
 *      keys computed once per call with exact arithmetic) say whether x is
 *      in bin b: t[b] <= key(x) < t[b + 1]. Two loads and two compares;
 *   3. only when the check fails, a binary search over t finds the bin.
 * Whatever the estimate, the bin comes from the exact boundaries, so every
 * sample lands where the real-number formula puts it; the estimate only
 * decides how fast.
 *
 * How far off the estimate can be (why the search is rare). Let q = (x -
 * lower) * bins / (upper - lower), the exact value, x in [lower, upper), so
 * 0 <= q < bins. The kernel computes q' = fl(fl(d) * s) with d = x - lower
 * (for floats fl(d) is one correctly rounded subtraction; for integers d is
 * exact and fl(d) one rounding to float) and s = fl32(fl64(bins /
 * fl64(upper - lower))). Each rounding is a relative error of at most u =
 * 2^-24 (2^-53 for the doubles), so q' = q (1 + e) with |e| <= (1 + u)^3
 * (1 + 2^-53)^2 - 1 < 3.01 u, and |q' - q| < 3.01 u bins:
 *   - bins <= 2^22: |q' - q| < 0.76, so floor(q') is floor(q) or one of its
 *     neighbours, and a neighbour only when q lies within 3.01 u bins of an
 *     integer (a sample within that many bins of an edge): for samples
 *     spread evenly, a fraction of at most 2 x 3.01 u bins of them (bins =
 *     4096: 1 in 680), which pay the search;
 *   - overflow or underflow (upper - lower beyond FLT_MAX, or s below the
 *     smallest normal float) breaks the bound: d or q' may be inf (clamped
 *     to bins - 1) or far off, and the search still gives the exact bin.
 * The range form (levels) has no estimate: the search does it all.
 *
 * What changed from variant 4 (the resident grid with one private copy per
 * block) besides the bin: the samples are addressed as a region (rows of
 * row_pixels pixels of `channels` interleaved samples, rows row_stride
 * bytes apart), so one flat index f runs over the region and each sample
 * finds its row with one 64-bit division when there is more than one row,
 * and its channel with one modulo when there are several (variant 9 does
 * better per sample; the division is this rung's simple cost). Each counted
 * channel has its own private copy, all of them side by side in shared
 * memory (sum of the bins x 4 bytes).
 *
 * The work, counted, per sample: one scalar load; the key (u8/u16: none;
 * i32/u32: a widening; f32: 3 integer operations; f16: a conversion and 3);
 * two threshold loads and compares for the range test; for even bins the
 * estimate (a subtraction, a multiplication, a conversion, a min) and two
 * threshold loads and compares; for levels a binary search of ceil(log2
 * bins) steps, each a load, a compare and a branch (warps diverge: lanes
 * take different paths through the search); one shared atomic. The
 * threshold loads go through the read-only cache (__ldg): bins + 1 keys of 4
 * or 8 bytes per channel, 1 KiB or 2 KiB for 256 bins, which stay in L1.
 * Per call, before the histogram: the levels' copy (range form) and one
 * launch of `prepare_channels` (levels.cuh) that zeroes every counted
 * channel's counts and writes its thresholds.
 *
 * Bound by: not the reads. Measured on an H100 (histogram/README.md, "How
 * the forms compare"; n = 2^28 uniform f32): even bins take 0.8862 ms at
 * 256 bins and 0.9536 ms at 4096, 40.3% and 37.5% of the read-only stream
 * of the same bytes; levels 1.8954 and 4.9312 ms, 18.8% and 7.2%. What
 * sets the pace is the per-sample work counted above, issued for one
 * 4-byte sample per load (a reading of the counts, not a profile): for
 * even bins the key, the estimate and the two checks, for levels the
 * divergent search, log2(bins) dependent loads per sample. With several
 * channels each sample also pays the 64-bit modulo of its channel
 * (levels.cuh, sample_at): RGBA u8 with 3 channels counted, 2^26 pixels,
 * takes 1.8226 ms, 5.4% of the stream.
 *
 * Limits: 256 threads per block; every dtype of gk_histogram_ex (f32, f16,
 * u8, u16, i32, u32), every form, 1-4 channels, any rows; the private
 * copies need sum-of-bins x 4 bytes of shared memory, else one 64-bit
 * global atomic per sample (as variant 1). Launches of at most 2^31 samples
 * (32-bit counters never wrap). Workspace: the thresholds (levels.cuh,
 * item 4).
 *
 * Build alone: nvcc -arch=sm_90 -c 08_float_bins.cu (with common.cuh and
 * levels.cuh, the folder's shared plumbing, next to it)
 */
#include "common.cuh"
#include "levels.cuh"

namespace {

/* The largest i < bins with t[i] <= k, given t[0] <= k < t[bins]: the
 * textbook binary search, t in global memory. */
template <typename Key> __device__ __forceinline__ unsigned search(const Key *t, unsigned bins, Key k)
{
    unsigned lo = 0, hi = bins; /* t[lo] <= k < t[hi] throughout */
    while (hi - lo > 1) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (__ldg(t + mid) <= k) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* Flat samples [f0, f0 + len) of the region. Shared: private copies of
 * total_bins 32-bit counters (dynamic shared memory, total_bins x 4 bytes);
 * else 64-bit global atomics. */
template <typename T, bool Shared>
__global__ void __launch_bounds__(kBlock) hist_float(const __grid_constant__ Plan p, size_t f0, unsigned len)
{
    using Key = typename Sample<T>::Key;
    extern __shared__ unsigned hist[];
    if (Shared) {
        for (unsigned b = threadIdx.x; b < p.total_bins; b += kBlock) hist[b] = 0;
        __syncthreads(); /* every counter is zero before any thread counts into it */
    }
    const unsigned stride = gridDim.x * kBlock; /* len <= 2^31: i + stride < 2^32 */
    for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < len; i += stride) {
        unsigned c;
        const T x = *sample_at<T>(p, f0 + i, &c);
        const Chan &ch = p.ch[c];
        if (ch.bins == 0) continue; /* a channel not counted */
        const Key *t = (const Key *)ch.t;
        const Key k = Sample<T>::key(x);
        if (k < __ldg(t) || k >= __ldg(t + ch.bins)) continue; /* outside, or NaN */
        unsigned b = 0;
        if (ch.even) {
            const float q = even_diff(x, ch) * ch.scalef;
            b = min(__float2uint_rz(q), ch.bins - 1); /* saturating: inf -> 2^32 - 1, then clamped */
        }
        if (!ch.even || !(__ldg(t + b) <= k && k < __ldg(t + b + 1))) b = search(t, ch.bins, k);
        if (Shared) atomicAdd(hist + ch.off + b, 1u);
        else atomicAdd(ch.counts + b, 1ull);
    }
    if (Shared) {
        __syncthreads(); /* every count of the block is in shared memory before the merge reads it */
        for (unsigned c = 0; c < p.channels; ++c)
            for (unsigned b = threadIdx.x; b < p.ch[c].bins; b += kBlock) {
                const unsigned n = hist[p.ch[c].off + b];
                if (n) atomicAdd(p.ch[c].counts + b, (unsigned long long)n);
            }
    }
}

template <typename T> cudaError_t run_plan(const Plan &p, cudaStream_t stream)
{
    const size_t total = p.rows * p.row_samples;
    const size_t smem = (size_t)p.total_bins * 4;
    size_t resident = 0;
    cudaError_t e = setup_private(hist_float<T, true>, smem, &resident);
    if (e) return e;
    if (resident > 0)
        return each_launch(total, [&](size_t off, size_t len) {
            hist_float<T, true><<<resident_grid(len, resident), kBlock, smem, stream>>>(p, off, (unsigned)len);
        });
    e = resident_blocks(hist_float<T, false>, kBlock, 0, &resident);
    if (e) return e;
    return each_launch(total, [&](size_t off, size_t len) {
        hist_float<T, false><<<resident_grid(len, resident), kBlock, 0, stream>>>(p, off, (unsigned)len);
    });
}

} // namespace

extern "C" size_t gk_histogram_08_float_bins_workspace_ex(int dtype, int channels, const size_t *bins,
                                                          const double *const *levels)
{
    return plan_workspace(dtype, channels, bins, levels);
}

extern "C" cudaError_t gk_histogram_08_float_bins_run_ex(int dtype, const void *in, int channels, size_t rows,
                                                         size_t row_pixels, size_t row_stride, const size_t *bins,
                                                         const double *lower, const double *upper,
                                                         const double *const *levels,
                                                         unsigned long long *const *counts, void *workspace,
                                                         cudaStream_t stream)
{
    return by_sample_type(dtype, [&](auto *tag) {
        using T = typename std::remove_pointer<decltype(tag)>::type;
        Plan p;
        cudaError_t e = prepare<T>(in, channels, rows, row_pixels, row_stride, bins, lower, upper, levels, counts,
                                   workspace, stream, &p);
        if (e || rows * row_pixels == 0) return e;
        return run_plan<T>(p, stream);
    });
}
