/* Variant 9: levels search. The bin boundaries staged in shared memory and
 * searched without branches.
 *
 * The idea. With levels (bins between sorted boundaries, the range form) a
 * sample's bin is found by binary search: the largest i with levels[i] <= x.
 * Variant 8 runs the textbook search over the boundaries in global memory:
 * ceil(log2 bins) dependent steps, each a load through L1, a compare and a
 * branch whose direction depends on the sample, so the 32 lanes of a warp
 * split at every step and the warp runs every path any lane takes. Two
 * changes:
 *   1. the boundaries (levels.cuh's exact threshold keys, bins + 1 of them
 *      per channel) are copied once per block into shared memory, next to
 *      the private counters: each search step is a shared load (about 30
 *      cycles, no L1 tag check or miss) instead of an L1 load;
 *   2. the search is branch-free "binary lifting": b = 0, then for step =
 *      2^floor(log2 bins), ..., 2, 1: j = min(b + step, bins), b = (t[j]
 *      <= key) ? j : b. That is a select, not a branch, and every lane runs
 *      the same floor(log2 bins) + 1 steps: the warp never splits. It finds
 *      the largest i < bins with t[i] <= key: the steps add up to any number
 *      below 2^(floor(log2 bins) + 1) > bins - 1, each step is taken exactly
 *      when the bin lies at least that far above b (t is non-decreasing),
 *      and t[bins] > key for every counted sample, so clamping j to bins
 *      never moves b there. (The search is levels.cuh's search_lifting,
 *      written there once because variant 10 uses it too.)
 * Even bins keep variant 8's estimate and check, now against the shared
 * copy, and fall back to the same branch-free search.
 *
 * Counted: 256 bins: 9 steps of a shared load, a compare and a select per
 * sample (variant 8: 8 or 9 steps of an L1 load and a divergent branch);
 * 4096 bins: 13 steps. Shared memory per block: the private counters (sum
 * of bins x 4 bytes) plus the keys (sum of (bins + 1) x 4 bytes, 8 for i32
 * and u32): 256 bins of f32: 1 KiB + 1 KiB; 4096 bins: 16 KiB + 16 KiB, so
 * 7 blocks of 256 threads per SM on sm_90 (228 KB).
 *
 * When they do not fit: counters in shared memory and keys in global memory
 * (the search reads them through L1), or, when the counters do not fit
 * either, one 64-bit global atomic per sample, as in variant 8.
 *
 * Bound by: for levels, the search: floor(log2 bins) + 1 shared loads per
 * sample, issued by every lane; for even bins, as variant 8. Measured on an
 * H100 (histogram/README.md, "How the forms compare"; n = 2^28 uniform
 * f32): levels take 1.5250 ms at 256 bins and 4.8441 ms at 4096, 23.4% and
 * 7.4% of the read-only stream; even bins 0.7430 and 0.9274 ms. From 256 to
 * 4096 bins the steps go from 9 to 13 and the time 3.2 times: each step
 * costs more with more keys. A reading of the search, not a profile: key j
 * (4 bytes) lies in bank j % 32, and at the step of size s b is a multiple
 * of 2s, so every lane reads a key b + s = s (mod 2s): for s >= 32 all in
 * one bank, for s < 32 in 32 / 2s banks. The lanes of a warp, searching
 * for different bins, read different words of the same banks: with 257
 * keys a bank holds at most 9, with 4097 keys 129, so the conflicts can
 * reach 9-way at 256 bins and 32-way at 4096. Spreading the keys (one
 * unused word after every 32) would put them in different banks; it is
 * not tried here.
 *
 * Limits and region addressing as variant 8 (every dtype, form, channel
 * count and row layout; launches of at most 2^31 samples). Workspace: the
 * thresholds (levels.cuh, item 4).
 *
 * Build alone: nvcc -arch=sm_90 -c 09_levels_search.cu (with common.cuh and
 * levels.cuh, the folder's shared plumbing, next to it)
 */
#include "common.cuh"
#include "levels.cuh"

namespace {

/* Flat samples [f0, f0 + len) of the region. SharedH: private counters in
 * shared memory (total_bins x 4 bytes, first); SharedT: the threshold keys
 * there too (after the counters, 8-byte aligned). */
template <typename T, bool SharedH, bool SharedT>
__global__ void __launch_bounds__(kBlock) hist_search(const __grid_constant__ Plan p, size_t f0, unsigned len)
{
    using Key = typename Sample<T>::Key;
    extern __shared__ unsigned long long smem8[]; /* 8-byte aligned for 64-bit keys */
    unsigned *hist = reinterpret_cast<unsigned *>(smem8);
    Key *keys = reinterpret_cast<Key *>(smem8 + (p.total_bins + 1) / 2); /* after total_bins counters */
    if (SharedH)
        for (unsigned b = threadIdx.x; b < p.total_bins; b += kBlock) hist[b] = 0;
    if (SharedT)
        for (unsigned c = 0; c < p.channels; ++c)
            for (unsigned b = threadIdx.x; b <= p.ch[c].bins && p.ch[c].bins; b += kBlock)
                keys[p.ch[c].toff + b] = __ldg((const Key *)p.ch[c].t + b);
    if (SharedH || SharedT) __syncthreads(); /* counters zero and keys copied before any thread counts */

    const unsigned stride = gridDim.x * kBlock; /* len <= 2^31: i + stride < 2^32 */
    for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < len; i += stride) {
        unsigned c;
        const T x = *sample_at<T>(p, f0 + i, &c);
        const Chan &ch = p.ch[c];
        if (ch.bins == 0) continue;
        const Key *t = SharedT ? keys + ch.toff : (const Key *)ch.t;
        const Key k = Sample<T>::key(x);
        if (k < t[0] || k >= t[ch.bins]) continue; /* outside, or NaN */
        unsigned b = 0;
        if (ch.even) {
            const float q = even_diff(x, ch) * ch.scalef;
            b = min(__float2uint_rz(q), ch.bins - 1);
        }
        if (!ch.even || !(t[b] <= k && k < t[b + 1])) b = search_lifting(t, ch.bins, k);
        if (SharedH) atomicAdd(hist + ch.off + b, 1u);
        else atomicAdd(ch.counts + b, 1ull);
    }
    if (SharedH) {
        __syncthreads(); /* every count of the block is in shared memory before the merge reads it */
        for (unsigned c = 0; c < p.channels; ++c)
            for (unsigned b = threadIdx.x; b < p.ch[c].bins; b += kBlock) {
                const unsigned n = hist[p.ch[c].off + b];
                if (n) atomicAdd(p.ch[c].counts + b, (unsigned long long)n);
            }
    }
}

template <typename T, bool SharedH, bool SharedT>
cudaError_t launch(const Plan &p, size_t smem, size_t resident, cudaStream_t stream)
{
    return each_launch(p.rows * p.row_samples, [&](size_t off, size_t len) {
        hist_search<T, SharedH, SharedT><<<resident_grid(len, resident), kBlock, smem, stream>>>(p, off,
                                                                                                 (unsigned)len);
    });
}

template <typename T> cudaError_t run_plan(const Plan &p, cudaStream_t stream)
{
    using Key = typename Sample<T>::Key;
    const size_t hbytes = ((size_t)p.total_bins + 1) / 2 * 8; /* counters, rounded to 8 bytes */
    const size_t both = hbytes + ((size_t)p.total_bins + p.counted) * sizeof(Key);
    size_t resident = 0;
    cudaError_t e = setup_private(hist_search<T, true, true>, both, &resident);
    if (e || resident) return e ? e : launch<T, true, true>(p, both, resident, stream);
    e = setup_private(hist_search<T, true, false>, hbytes, &resident);
    if (e || resident) return e ? e : launch<T, true, false>(p, hbytes, resident, stream);
    e = resident_blocks(hist_search<T, false, false>, kBlock, 0, &resident);
    return e ? e : launch<T, false, false>(p, 0, resident, stream);
}

} // namespace

extern "C" size_t gk_histogram_09_levels_search_workspace_ex(int dtype, int channels, const size_t *bins,
                                                             const double *const *levels)
{
    return plan_workspace(dtype, channels, bins, levels);
}

extern "C" cudaError_t gk_histogram_09_levels_search_run_ex(int dtype, const void *in, int channels, size_t rows,
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
