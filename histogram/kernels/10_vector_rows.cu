/* Variant 10: vector rows. Each thread reads 16 bytes at a time and splits
 * them into the channels of the pixels they hold; a region is walked row by
 * row, in pieces of 16 KiB, so no sample pays a 64-bit division; 8-bit
 * samples find their bin in a 256-entry table; gk_histogram's integer form
 * runs variant 7.
 *
 * The idea. Variants 8 and 9 load one sample per thread and find its place
 * from its flat index f in the region: row = f / row_samples (a 64-bit
 * division, which the GPU has no instruction for: a subroutine of dozens
 * of instructions) and channel = f % channels, for every sample. Four
 * changes:
 *   1. 16-byte loads. A thread loads a uint4: 4 f32/i32/u32 samples, 8 f16
 *      or u16, 16 u8, with kUnroll = 4 of them in flight before it counts
 *      any (64 bytes per thread, as variant 7). The 16 bytes are cut into
 *      their samples in registers (a union; for u8 byte extracts), and the
 *      samples' channels follow one another: sample k of the vector is in
 *      channel (ph + k) % channels, where ph, the channel of its first
 *      sample, advances by a constant from one vector of the thread to its
 *      next. So each sample costs an add and a select for its channel, not
 *      a modulo: RGBA u8 is 4 pixels per load, RGB f32 one and a third.
 *   2. Rows walked one by one. The work is cut into items, each a piece of
 *      one row: segs = ceil((row_samples / V) / kSegVecs) pieces of kSegVecs
 *      = kBlock x kUnroll = 1024 vectors (16 KiB) per row, V = 16 / sizeof
 *      sample; item w is piece w % segs of row w / segs: at most one
 *      division per item of 16 KiB (none when a row is one piece, row = w,
 *      or there is one row; a 32-bit one while w and segs fit in 32 bits).
 *      A row starts anywhere an element may (the stride is only a
 *      multiple of the element size), so each row has its own head: the
 *      0..V-1 samples before its first 16-byte boundary; then whole vectors;
 *      then the 0..V-1 samples after its last whole vector. The head and the
 *      tail are counted one per thread by the row's first piece, their
 *      channels in 32-bit arithmetic (a row ends on a pixel boundary:
 *      sample row_samples - m is in channel (-m) mod channels). The padding
 *      after a row is never read: every load lies inside [0, row_samples).
 *   3. 8-bit samples by table. A u8 sample has 256 values, so each block
 *      first fills table[c][v] = the bin of value v in channel c (found with
 *      the exact thresholds and the branch-free search of variant 9, 256
 *      searches per channel per block), or "not counted". Then a sample costs
 *      one shared load, a compare and the atomic, in every form: even bins,
 *      levels, 1 to 4 channels. The other types bin as variant 9 (its
 *      thresholds in shared memory, the estimate and check for even bins,
 *      the branch-free search for levels).
 * gk_histogram's integer form (u8 and u32 samples into bins 0..bins-1) is
 * what variant 7 is tuned for, so this row's gk_histogram entry points are
 * variant 7's (histogram/variants.c): the last rung is never slower than
 * variant 7 on that form. gk_histogram_even over [0, bins) of the same
 * samples takes the path here.
 *
 * Counted, per 16-byte vector: one load; per sample, its channel (an add
 * and a select), then u8: one shared load, a compare, a shared atomic; f32
 * even bins: the key (3 integer operations), the range test (two compares
 * against registers when the region has one channel, whose plan the kernel
 * then keeps in registers, a template flag; with several channels the
 * channel's plan and its two thresholds are 8 shared loads), the estimate
 * (a subtraction, a multiplication, a conversion, a min) and its check (two
 * shared loads and compares), the shared atomic; levels: floor(log2 bins)
 * + 1 shared loads, compares and selects instead of the estimate. Per item
 * (16 KiB): at most one division (its row), the first vector's channel
 * from residues mod 3 (a multiply), head and tail only in the row's first
 * item. Per block: its private counters zeroed and merged, the thresholds
 * copied (or, for u8, the table built).
 *
 * Shared memory per block: the per-channel plan (4 x 56 bytes), the
 * private counters (sum of bins x R x 4 bytes), then for u8 the table
 * (channels x 256 x 4 bytes), else the threshold keys (sum of (bins + 1) x
 * 4 bytes, 8 for i32 and u32). Where one copy of each (R = 1) exceeds 56
 * KB but fits in a block, fewer blocks per SM; beyond that, keys in global
 * memory, then 64-bit global atomics, as variant 9.
 *
 * Bound by: not DRAM, though the loads are as wide as variant 7's. Measured
 * on an H100 (histogram/README.md, "How the forms compare"; uniform data):
 * f32 even bins at n = 2^28 take 0.4846 ms at 256 bins and 0.4951 ms at
 * 4096, 73.7% and 72.1% of the read-only stream (CUB's HistogramEven: 0.3705
 * ms at 256 bins), while u32 samples of the integer form, the same bytes
 * through variant 7's kernels, take 0.3581 ms, the stream's time. The time
 * hardly moves from 256 to 4096 bins (the estimate is rarely wrong: variant
 * 8's header bounds how rarely), so it is the per-sample work above, the
 * key, the range test, the estimate and its check, that sets the pace, not
 * the search or the counters (a reading of the measurements, not a profile);
 * 2-byte samples, twice as many per load, reach less of the stream (f16
 * 46.2%, u16 50.0% at 2^26). u8 by table: RGBA with 3 channels counted, 2^26
 * pixels, 0.2002 ms, 49.4% of the stream (CUB's MultiHistogramEven: 0.1263
 * ms), one channel at 2^26 55.2%, where variant 7's kernels reach 96.7% on
 * u8 samples of the integer form (2^28): here a table load comes before
 * every atomic. Levels: the search, floor(log2 bins) + 1 shared loads per
 * sample, issued by every lane, 1.3832 ms at 256 bins and 4.8172 ms at 4096
 * (25.8% and 7.4% of the stream), each step slower with more keys (variant
 * 9's header reads it as bank conflicts). Variant 11 proves the even bin
 * without a load (f16 aside), looks levels up in a table of cells and
 * reads each channel's plan once per piece.
 *
 * Registers: __launch_bounds__(256, 4), at most 64 per thread (ptxas -v,
 * CUDA 13.0, sm_90: 44 to 62, no spills), so 4 blocks (32 warps) per SM by
 * registers: 4 x 256 x 64 bytes = 64 KiB of loads in flight per SM.
 *
 * Limits: 256 threads per block; every dtype of gk_histogram_ex, every form,
 * 1-4 channels, any rows and strides; launches of at most 2^31 samples
 * (32-bit shared counters never wrap). Workspace: the thresholds
 * (levels.cuh, item 4).
 *
 * Build alone: nvcc -arch=sm_90 -c 10_vector_rows.cu (with common.cuh and
 * levels.cuh, the folder's shared plumbing, next to it)
 */
#include "common.cuh"
#include "levels.cuh"

namespace {

constexpr unsigned kNone = 0xffffffffu;          /* a table entry: value not counted */
/* One block's view of the plan: the channels in shared memory (lanes read
 * different channels; a shared load serves them all), the counters, and
 * the keys (other types) or the table (u8). */
template <typename T, bool SharedH, bool SharedT, bool One> struct Counter {
    using Key = typename Sample<T>::Key;
    const Chan *ch;
    unsigned *hist;
    const Key *keys;       /* SharedT: every channel's thresholds, at ch.toff */
    const unsigned *table; /* u8: channel c's entries at c * 256 */
    unsigned shift, mine;  /* SharedH: replicas 2^shift of each counter; this lane's replica */
    Chan one;              /* One (a single channel): channel 0, in registers */
    Key k0, kb;            /* One: its first and last thresholds, t[0] and t[bins] */

    __device__ __forceinline__ void add(const Chan &c, unsigned b) const
    {
        /* SharedH: b already holds the channel's offset; replica `mine` of
         * counter b is word (b << shift) + mine. */
        if (SharedH) atomicAdd(hist + (b << shift) + mine, 1u);
        else atomicAdd(c.counts + b, 1ull);
    }
    __device__ __forceinline__ void count(T x, unsigned c) const
    {
        if constexpr (std::is_same<T, uint8_t>::value) {
            const unsigned e = table[(c << 8) | x];
            if (e != kNone) add(ch[c], e);
        } else {
            /* One channel: its plan and range in registers, not loaded per
             * sample (6 shared loads fewer). */
            const Chan &h = One ? one : ch[c];
            if (!One && h.bins == 0) return; /* a channel not counted */
            const Key *t = SharedT ? keys + h.toff : (const Key *)h.t;
            const Key k = Sample<T>::key(x);
            if (k < (One ? k0 : t[0]) || k >= (One ? kb : t[h.bins])) return; /* outside, or NaN */
            unsigned b = 0;
            if (h.even) b = min(__float2uint_rz(even_diff(x, h) * h.scalef), h.bins - 1);
            if (!h.even || !(t[b] <= k && k < t[b + 1])) b = search_lifting(t, h.bins, k);
            add(h, SharedH ? h.off + b : b);
        }
    }
};

/* Items [w0, w0 + items) of the region, each piece `seg` of row `row` (see
 * the header). Dynamic shared memory: the channels (kChanBytes), total_bins
 * counters (SharedH, rounded to 8 bytes), then the table (u8) or the keys
 * (SharedT). */
template <typename T, bool SharedH, bool SharedT, bool One>
__global__ void __launch_bounds__(kBlock, 4) hist_rows(const __grid_constant__ Plan p, size_t w0, unsigned items,
                                                    size_t segs, unsigned shift)
{
    using Key = typename Sample<T>::Key;
    constexpr bool kTable = std::is_same<T, uint8_t>::value;
    extern __shared__ unsigned long long smem8[]; /* 8-byte aligned for 64-bit keys */
    Chan *ch = reinterpret_cast<Chan *>(smem8);
    unsigned long long *rest = smem8 + kChanBytes / 8;
    unsigned *hist = reinterpret_cast<unsigned *>(rest);
    const unsigned words = p.total_bins << shift;                 /* counters x replicas */
    void *after = rest + (SharedH ? (words + 1) / 2 : 0);          /* after the counters */
    Key *keys = reinterpret_cast<Key *>(after);
    unsigned *table = reinterpret_cast<unsigned *>(after);

    if (threadIdx.x < kMaxChannels) ch[threadIdx.x] = p.ch[threadIdx.x];
    if (SharedH)
        for (unsigned b = threadIdx.x; b < words; b += kBlock) hist[b] = 0;
    if (SharedT && !kTable)
        for (unsigned c = 0; c < p.channels; ++c)
            for (unsigned b = threadIdx.x; b <= p.ch[c].bins && p.ch[c].bins; b += kBlock)
                keys[p.ch[c].toff + b] = __ldg((const Key *)p.ch[c].t + b);
    if (kTable)
        for (unsigned e = threadIdx.x; e < p.channels * 256; e += kBlock) {
            const Chan &h = p.ch[e >> 8];
            const unsigned v = e & 255, *t = (const unsigned *)h.t; /* u8 keys are the values, 32-bit */
            unsigned r = kNone;
            if (h.bins && t[0] <= v && v < t[h.bins]) r = search_lifting(t, h.bins, v) + (SharedH ? h.off : 0);
            table[e] = r;
        }
    __syncthreads(); /* channels copied, counters zero, keys or table ready before any thread counts */

    const unsigned reps = 1u << shift;
    Counter<T, SharedH, SharedT, One> k;
    k.ch = ch, k.hist = hist, k.keys = keys, k.table = table, k.shift = shift, k.mine = threadIdx.x & (reps - 1);
    if constexpr (One && !kTable) {
        k.one = ch[0]; /* counted: a single channel always is */
        const Key *t = SharedT ? keys + k.one.toff : (const Key *)k.one.t;
        k.k0 = t[0];
        k.kb = t[k.one.bins];
    }
    walk_rows<T, 0>(p, k, w0, items, segs);
    if (SharedH) {
        __syncthreads(); /* every count of the block is in shared memory before the merge reads it */
        merge_replicas(p, hist, shift);
    }
}

template <typename T, bool SharedH, bool SharedT, bool One>
cudaError_t launch(const Plan &p, size_t smem, size_t resident, unsigned shift, cudaStream_t stream)
{
    return each_rows_launch<T>(p, resident, [&](unsigned grid, size_t w0, unsigned items, size_t segs) {
        hist_rows<T, SharedH, SharedT, One><<<grid, kBlock, smem, stream>>>(p, w0, items, segs, shift);
    });
}

/* One: p has a single channel (the kernels then keep its plan in registers). */
template <typename T, bool One> cudaError_t run_plan(const Plan &p, cudaStream_t stream)
{
    using Key = typename Sample<T>::Key;
    size_t resident = 0;
    cudaError_t e;
    bool fits = false;
    if constexpr (std::is_same<T, uint8_t>::value) {
        const size_t tbytes = (size_t)p.channels * 256 * 4;
        unsigned sh = replica_shift(p.total_bins, kChanBytes + tbytes, &fits);
        if (!fits) sh = 0; /* one copy, if it fits at all */
        const size_t both = kChanBytes + ((((size_t)p.total_bins << sh) + 1) / 2) * 8 + tbytes;
        e = setup_private(hist_rows<T, true, false, One>, both, &resident);
        if (e || resident) return e ? e : launch<T, true, false, One>(p, both, resident, sh, stream);
        e = setup_private(hist_rows<T, false, false, One>, kChanBytes + tbytes, &resident);
        return e ? e : launch<T, false, false, One>(p, kChanBytes + tbytes, resident, 0, stream);
    } else {
        const size_t kbytes = ((size_t)p.total_bins + p.counted) * sizeof(Key);
        unsigned sh = replica_shift(p.total_bins, kChanBytes + kbytes, &fits);
        if (!fits) sh = 0;
        const size_t both = kChanBytes + ((((size_t)p.total_bins << sh) + 1) / 2) * 8 + kbytes;
        e = setup_private(hist_rows<T, true, true, One>, both, &resident);
        if (e || resident) return e ? e : launch<T, true, true, One>(p, both, resident, sh, stream);
        const size_t hbytes = kChanBytes + ((size_t)p.total_bins + 1) / 2 * 8; /* one copy, keys in global memory */
        e = setup_private(hist_rows<T, true, false, One>, hbytes, &resident);
        if (e || resident) return e ? e : launch<T, true, false, One>(p, hbytes, resident, 0, stream);
        e = resident_blocks(hist_rows<T, false, false, One>, kBlock, kChanBytes, &resident);
        return e ? e : launch<T, false, false, One>(p, kChanBytes, resident, 0, stream);
    }
}

} // namespace

extern "C" size_t gk_histogram_10_vector_rows_workspace_ex(int dtype, int channels, const size_t *bins,
                                                           const double *const *levels)
{
    return plan_workspace(dtype, channels, bins, levels);
}

extern "C" cudaError_t gk_histogram_10_vector_rows_run_ex(int dtype, const void *in, int channels, size_t rows,
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
        return p.channels == 1 ? run_plan<T, true>(p, stream) : run_plan<T, false>(p, stream);
    });
}
