/* Variant 15: many reductions in one launch. Rows of a matrix (rows x cols
 * with a row stride) or segments of an array (CUB's begin/end offsets), one
 * result per row, a warp per row when rows are short, a block per row when
 * they are long.
 *
 * The idea. Callers often need the sums of many rows at once: a softmax
 * denominator per row, a norm per sample. Calling gk_reduce once per row
 * pays a launch per row, and a short row gives its grid nothing to do.
 * Instead one launch covers all rows, and the unit of work is chosen by the
 * row length:
 *   - Short rows (at most kWarpMaxBytes = 4 KiB): a warp per row. A block
 *     of 256 threads reduces 8 rows at once, each warp its own, ending with
 *     the five shuffles of variant 8 and no barrier at all. A block per row
 *     would leave most of its threads idle on a 256-element row and pay a
 *     barrier per row.
 *   - Long rows: a block of 256 threads per row, variant 13's loop over the
 *     row and a block reduction at its end: enough loads in flight per row
 *     to keep DRAM busy when there are few rows.
 * For rows the length is known on the host; for segments it is not (the
 * offsets are in device memory), so the mean length n / segments decides,
 * and both kernels are correct for any length: the choice is speed only.
 *
 * One pass, vector loads. Each warp or block reads its row once, with
 * variant 13's 16-byte loads (4 in flight per thread; 2 in rows_warp, see
 * "Short rows, more warps" below). A row may start at
 * any element boundary (row r starts at r * ld, the stride need not be a
 * multiple of 4): the 0 to kPerVec - 1 elements before its first 16-byte
 * boundary and after its last whole vector are read one by one by the
 * first lanes. No block combines with another, so there is no workspace, no
 * atomic and no ticket: every result, f32 sums included, is the same on
 * every run (the order of the adds depends only on the row's length and
 * alignment and on the kernel chosen).
 *
 * Every type and operation, arg-max and arg-min too: the state is variant
 * 14's (value, index) pair, the index counted from the row's or segment's
 * start (its column; CUB's segmented ArgMax also reports the offset in the
 * segment). An empty row or segment gives the identity (index 2^64 - 1).
 *
 * Segments whose offsets are invalid (begin > end, or end > n, the length
 * of the array) are read not at all: their result is the identity and, when
 * the caller passes `invalid`, the kernel stores 1 there (the launcher first
 * sets it to 0). The host cannot see device-resident offsets without waiting
 * for the GPU, so that flag is how a bad offset is reported.
 *
 * Segments, short ones (segments_warp): a warp per segment, but each warp
 * takes up to 32 consecutive segments (per_warp: the segment count over
 * kSegWarps, so that the grid keeps at least 64 warps for each of 132
 * SMs), its lane i loading the begin and end of segment i with one
 * coalesced load of each; the warp then walks them, each segment's offsets
 * shuffled from its lane. Its loads of a segment's data wait for one trip
 * to DRAM, not two (the offsets, then the data). Long segments take the
 * block kernel, each block loading its segment's offsets first. Tried and
 * not kept (H100, 2026-11-27, gk_bench medians beside CUB): a block kernel
 * of its own for segments, up to 8 per block (at least 2112 blocks), each
 * block loading its next segment's offsets before reducing the current
 * one: 65536 segments of 4096 took 0.3587 ms against 0.3535 (CUB 0.3486),
 * and 256 of 2^20, one per block as before, 0.4992 against 0.3899 (why
 * that case slowed was not profiled).
 *
 * Short rows, more warps. A warp that reduces a row of 256 floats loads 2
 * vectors per lane, adds, shuffles and stores, and only then loads the next
 * row: the bytes in flight on an SM are about one row per resident warp.
 * At 63 registers (the 4-vector loop, 64-bit row arithmetic) an SM held 32
 * warps, and 2^20 rows of 256 ran at 78.7% of the read-only stream on an
 * H200, whose stream is 1.44 to 1.47 times as fast as an H100's. rows_warp
 * now asks ptxas for 6 blocks per SM (48 warps) and loops 2 vectors at a
 * time, which fits 40 registers without spilling for every 4-byte state
 * (f64, i64 and the pairs, 8 bytes and more, keep up to 64 registers: at 40
 * the f64 and pair forms spilled). Measured on the H200 (2026-11-28,
 * gk_bench, 2^28 floats, cold L2, medians, the builds alternated twice):
 * 2^20 rows of 256 0.3154 -> 0.2665 ms (78.7% -> 93.2% of the stream; 4.03x
 * -> 4.77x CUB). Not kept, in the same runs: 8 blocks per SM (32 registers:
 * 152 bytes of stack at 4 vectors, 72 at 2) took 1.2359 and 0.5154 ms; the
 * same limits on segments_warp, which has the offsets to carry as well,
 * spilled and took 0.4951 ms against 0.2896 for 2^20 segments of 256; and 8
 * vectors in flight in rows_block moved neither 65536 rows of 4096 (0.2460
 * against 0.2469 ms) nor 256 rows of 2^20 (0.2986 against 0.2985) by more
 * than 0.4%.
 *
 * Bound by: DRAM bandwidth for long rows; for short rows (a warp reads 1 KiB
 * of a 256-float row) also the latency of each warp's few loads, covered by
 * the many warps resident per SM. Measured on an H100 before the change
 * above (reduce/tuning/forms-h100/rows.json and segments.json, f32 sums
 * of 2^28 elements against CUB's DeviceSegmentedReduce): 2^20 rows of
 * 256 at 96.0% of the read-only stream
 * (3.474x CUB); 65536 rows of 4096 at 102.5% (1.002x); 256 rows of 2^20 at
 * 91.7% (1.020x), where 256 blocks, 1.9 per SM on average, give a quarter
 * of the threads per SM of variant 11's grid (what holds it there was not
 * profiled). 2^20 segments of 256 at 94.0% (3.400x CUB), where a warp per
 * segment that loaded its own offsets first ran at 72.6% (2.626x); 65536
 * segments of 4096 at 101.0% (0.986x: CUB reads them at 102.4%), 256 of
 * 2^20 at 91.6% (1.019x). On an H200 with the change
 * (reduce/tuning/forms-h200/, the README's table under step 15): rows at
 * 91.7% (4.88x CUB), 100.1% (0.995x) and 82.2% (1.05x); segments at 84.8%
 * (4.51x), 90.0% (0.894x) and 82.1% (1.05x). What holds 256 rows of 2^20
 * at 82% there was not profiled: 8 vectors in flight per thread instead
 * of 4 did not move it (above).
 *
 * Limits: 256 threads per block; grids of at most 2^20 blocks, looping over
 * further rows; any rows, cols, segments; `in` aligned to its element size.
 * From typed.cuh in this folder: Elem<In>, the operations, warp_reduce,
 * block_reduce and the type x op switch.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 15_rows_segments.cu
 */
#include "typed.cuh"

namespace {

constexpr unsigned kBlock = 256;                   /* threads per block, both kernels */
constexpr unsigned kUnroll = 4;                    /* 16-byte vectors in flight per thread */
constexpr unsigned kUnrollRowsWarp = 2;            /* ... in rows_warp, which keeps 48 warps per SM */
constexpr unsigned kRowsWarpBlocks = 6;            /* rows_warp with a 4-byte state: blocks per SM */
constexpr unsigned kRowsPerBlock = kBlock / 32;    /* the warp kernel: one row per warp */
constexpr size_t kWarpMaxBytes = 4096;             /* rows up to this long get a warp */
constexpr size_t kMaxGrid = (size_t)1 << 20;       /* blocks; more rows are looped over */
constexpr size_t kSegWarps = 8448;                 /* segments: the fewest warps a grid keeps (132 SMs x 64) */

/* Where row r lies: rows mode (begin == NULL) at r * ld, cols long; segments
 * mode at [begin[r], end[r]), valid when begin <= end <= n. */
struct Rows {
    const size_t *begin, *end;
    size_t ld, cols, n;
    __device__ bool get(size_t r, size_t *first, size_t *len) const
    {
        if (begin == nullptr) {
            *first = r * ld;
            *len = cols;
            return true;
        }
        size_t b = begin[r], e = end[r];
        *first = b;
        *len = b <= e && e <= n ? e - b : 0;
        return b <= e && e <= n;
    }
};

/* The state of p[0..len) as seen by thread `lane` of a group of G threads
 * (a warp or a block) that reduce it together; index = position in the row.
 * p is aligned to its element; the group reads it in 16-byte vectors, the
 * head (before the first 16-byte boundary) and the tail one by one. */
template <typename In, typename Op, unsigned G, unsigned kUnroll>
__device__ typename Op::State reduce_range(const In *p, size_t len, unsigned lane)
{
    typedef typename Op::State S;
    constexpr unsigned kV = Elem<In>::kPerVec;
    S acc = Op::identity();
    size_t head = ((16 - ((uintptr_t)p & 15)) & 15) / sizeof(In); /* < kV <= 8 < G */
    if (head > len) head = len;
    if (lane < head) acc = Op::make(Elem<In>::load(p + lane), lane);
    const uint4 *vp = reinterpret_cast<const uint4 *>(p + head);
    const size_t nvec = (len - head) / kV;
    size_t v = lane;
    for (; v + (kUnroll - 1) * G < nvec; v += kUnroll * G) {
        uint4 x[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) x[u] = __ldg(vp + v + u * G);
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
#pragma unroll
            for (unsigned k = 0; k < kV; ++k)
                acc = Op::apply(acc, Op::make(Elem<In>::get(x[u], k), head + (v + u * G) * kV + k));
    }
    /* The last, partial round: the loads of the vectors that exist are all
     * issued before any is used. */
    uint4 x[kUnroll];
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u)
        if (v + u * G < nvec) x[u] = __ldg(vp + v + u * G);
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u)
        if (v + u * G < nvec)
#pragma unroll
            for (unsigned k = 0; k < kV; ++k)
                acc = Op::apply(acc, Op::make(Elem<In>::get(x[u], k), head + (v + u * G) * kV + k));
    /* The tail: fewer than kV elements after the last vector. */
    size_t t = head + nvec * kV + lane;
    if (lane < kV && t < len) acc = Op::apply(acc, Op::make(Elem<In>::load(p + t), t));
    return acc;
}

/* Row r's result: its value into out[r] (the accumulator type), its index
 * into out_index[r] for the arg operations. */
template <typename Op>
__device__ __forceinline__ void write(typename Op::State s, size_t r, void *out_, unsigned long long *out_index)
{
    typedef decltype(Op::value(s)) A;
    ((A *)out_)[r] = Op::value(s);
    if (Op::kArg) out_index[r] = Op::index(s);
}

/* A warp per row. The row loop depends on the warp only, so all 32 lanes of
 * a warp go through it together: the full-mask shuffles are safe. */
template <typename In, typename Op>
__global__ void __launch_bounds__(kBlock, sizeof(typename Op::State) <= 4 ? kRowsWarpBlocks : 1)
    rows_warp(const In *__restrict__ in, Rows rows, size_t count, void *out, unsigned long long *out_index,
              int *invalid)
{
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (size_t r = (size_t)blockIdx.x * kRowsPerBlock + warp; r < count; r += (size_t)gridDim.x * kRowsPerBlock) {
        size_t first, len;
        bool ok = rows.get(r, &first, &len);
        typename Op::State s = Op::identity();
        if (len > 0) s = reduce_range<In, Op, 32, kUnrollRowsWarp>(in + first, len, lane);
        s = warp_reduce<Op>(s);
        if (lane == 0) {
            write<Op>(s, r, out, out_index);
            if (!ok && invalid != nullptr) *invalid = 1;
        }
    }
}

/* Segments, a warp per segment, per_warp consecutive segments per warp:
 * lane i loads the begin and end of segment base + i (one coalesced load of
 * each for up to 32 segments), and the warp walks them, taking each
 * segment's offsets from its lane by shuffle. So a warp's loads of a
 * segment wait for one trip to DRAM, its data, instead of two (its offsets,
 * then its data), and only every per_warp segments does it wait for
 * offsets. The loop depends on the warp only: the full-mask shuffles are
 * safe. */
template <typename In, typename Op>
__global__ void __launch_bounds__(kBlock) segments_warp(const In *__restrict__ in, Rows rows, size_t count,
                                                        unsigned per_warp, void *out, unsigned long long *out_index,
                                                        int *invalid)
{
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const size_t step = (size_t)gridDim.x * kRowsPerBlock * per_warp;
    for (size_t base = ((size_t)blockIdx.x * kRowsPerBlock + warp) * per_warp; base < count; base += step) {
        size_t b = 0, e = 0;
        if (lane < per_warp && base + lane < count) b = rows.begin[base + lane], e = rows.end[base + lane];
        const unsigned segs = count - base < per_warp ? (unsigned)(count - base) : per_warp;
        for (unsigned i = 0; i < segs; ++i) {
            const size_t bi = __shfl_sync(0xffffffffu, b, i), ei = __shfl_sync(0xffffffffu, e, i);
            const bool ok = bi <= ei && ei <= rows.n;
            typename Op::State s = Op::identity();
            if (ok && ei > bi) s = reduce_range<In, Op, 32, kUnroll>(in + bi, ei - bi, lane);
            s = warp_reduce<Op>(s);
            if (lane == 0) {
                write<Op>(s, base + i, out, out_index);
                if (!ok && invalid != nullptr) *invalid = 1;
            }
        }
    }
}

/* A block per row. */
template <typename In, typename Op>
__global__ void __launch_bounds__(kBlock) rows_block(const In *__restrict__ in, Rows rows, size_t count, void *out,
                                                     unsigned long long *out_index, int *invalid)
{
    for (size_t r = blockIdx.x; r < count; r += gridDim.x) {
        size_t first, len;
        bool ok = rows.get(r, &first, &len);
        typename Op::State s = Op::identity();
        if (len > 0) s = reduce_range<In, Op, kBlock, kUnroll>(in + first, len, threadIdx.x);
        s = block_reduce<Op, kBlock>(s);
        if (threadIdx.x == 0) {
            write<Op>(s, r, out, out_index);
            if (!ok && invalid != nullptr) *invalid = 1;
        }
        __syncthreads(); /* warp 0 has read block_reduce's slots before the next row's warps write them */
    }
}

template <typename In, typename Op>
cudaError_t run(const void *in, Rows rows, size_t count, size_t mean_len, void *out, unsigned long long *out_index,
                int *invalid, cudaStream_t stream)
{
    if (invalid != nullptr) {
        cudaError_t err = cudaMemsetAsync(invalid, 0, sizeof(int), stream);
        if (err != cudaSuccess) return err;
    }
    if (count == 0) return cudaSuccess;
    if (mean_len * sizeof(In) <= kWarpMaxBytes && rows.begin != nullptr) {
        /* Segments: per_warp = count / kSegWarps, 1 .. 32, so that the grid
         * keeps at least kSegWarps warps (64 per SM of 132 resident at once)
         * while each warp reads up to 32 segments' offsets at once. */
        size_t per = count / kSegWarps;
        const unsigned per_warp = per < 1 ? 1u : per > 32 ? 32u : (unsigned)per;
        size_t blocks = ceil_div(count, (size_t)kRowsPerBlock * per_warp);
        if (blocks > kMaxGrid) blocks = kMaxGrid;
        segments_warp<In, Op><<<(unsigned)blocks, kBlock, 0, stream>>>((const In *)in, rows, count, per_warp, out,
                                                                       out_index, invalid);
    } else if (mean_len * sizeof(In) <= kWarpMaxBytes) {
        size_t blocks = ceil_div(count, kRowsPerBlock);
        if (blocks > kMaxGrid) blocks = kMaxGrid;
        rows_warp<In, Op><<<(unsigned)blocks, kBlock, 0, stream>>>((const In *)in, rows, count, out, out_index,
                                                                   invalid);
    } else {
        size_t blocks = count < kMaxGrid ? count : kMaxGrid;
        rows_block<In, Op><<<(unsigned)blocks, kBlock, 0, stream>>>((const In *)in, rows, count, out, out_index,
                                                                    invalid);
    }
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_15_rows_segments_workspace(size_t n, size_t elem_size)
{
    (void)n;
    (void)elem_size;
    return 0;
}

/* Rows: out[r] (and out_index[r] for op 3 arg-max, 4 arg-min) for each of
 * `rows` rows of `cols` elements, row r at in + r * ld. */
extern "C" cudaError_t gk_reduce_15_rows_segments_rows(const void *in, size_t rows, size_t cols, size_t ld,
                                                       int dtype, int op, void *out,
                                                       unsigned long long *out_index, void *workspace,
                                                       cudaStream_t stream)
{
    (void)workspace;
    Rows r = {nullptr, nullptr, ld, cols, 0};
    return dispatch_all(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, r, rows, cols, out, out_index, nullptr, stream);
    });
}

/* Segments: out[s] for in[begin[s]..end[s]), s < segments; `invalid` (may be
 * NULL) is set to 1 when some segment has begin > end or end > n, else 0. */
extern "C" cudaError_t gk_reduce_15_rows_segments_segments(const void *in, size_t n, size_t segments,
                                                           const size_t *begin, const size_t *end, int dtype,
                                                           int op, void *out, unsigned long long *out_index,
                                                           int *invalid, void *workspace, cudaStream_t stream)
{
    (void)workspace;
    Rows r = {begin, end, 0, 0, n};
    size_t mean = segments ? n / segments : 0;
    return dispatch_all(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, r, segments, mean, out, out_index, invalid, stream);
    });
}
