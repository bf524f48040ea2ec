/* Variant 15: many reductions in one launch. Rows of a matrix (rows x cols
 * with a row stride) or segments of an array (CUB's begin/end offsets), one
 * result per row, a warp per row when rows are short, a block per row when
 * they are long, several blocks per row when long rows are few.
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
 *     row and a block reduction at its end; and when there are fewer rows
 *     than the GPU holds blocks at once, each row cut into slices, a block
 *     per slice (see "Long rows, few or many" below).
 * For rows the length is known on the host; for segments it is not (the
 * offsets are in device memory), so the mean length n / segments decides,
 * and every kernel is correct for any length: the choice is speed only.
 *
 * One pass, vector loads. Each warp or block reads its row once, with
 * variant 13's 16-byte loads (4 in flight per thread; 2 in rows_warp, see
 * "Short rows, more warps" below). A row may start at
 * any element boundary (row r starts at r * ld, the stride need not be a
 * multiple of 4): the 0 to kPerVec - 1 elements before its first 16-byte
 * boundary and after its last whole vector are read one by one by the
 * first lanes. Only the slices of a row cut into several combine: each
 * slice's block stores its state in the workspace and a second kernel folds
 * each row's states in a fixed order. There is no atomic and no ticket:
 * every result, f32 sums included, is the same on every run (the order of
 * the adds depends only on the row's length and alignment, the kernel
 * chosen and, for a row cut into slices, their number, which follows the
 * GPU's SM count: another GPU model may round differently).
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
 * Long rows, few or many. A block per row gives 256 rows 256 blocks, fewer
 * than two per SM; with 4 vectors of 16 bytes in flight per thread that is
 * 4 MiB in flight on the whole GPU. In gk_bench on an H200 it read 256 rows
 * of 2^20 floats at 82.2% of the read-only stream (0.2964 ms; CUB's
 * segmented reduce, also a block per segment, 78.3%). The same block per
 * row in reduce/tuning/long_rows.cu, a program outside the library, ran
 * near the stream in the same session on the same GPU (0.2542 against
 * 0.2451 ms there, and CUB 0.2554), padding the rows apart or starting
 * each block at a rotated place in its row changed nothing there, and what
 * differs between the two programs was not found; a grid with more blocks
 * was fast in both. So now:
 *   - slices_block, when there are no more long rows than the GPU holds
 *     blocks at once (SMs x blocks per SM from the occupancy calculator:
 *     132 x 8 = 1056 on an H100 or H200 for f32 sums, at 32 registers):
 *     each row is cut into S slices, S = resident blocks / rows, at most
 *     one per kSliceBytes (64 KiB) of row, a block per slice, all resident
 *     at once. Each block
 *     stores its slice's state in the workspace; fold_slices, a second
 *     kernel with a block per row, adds a row's S states in a fixed order
 *     (thread t the states t, t + 256, ..., then the block reduction). With
 *     S = 1 the block stores the row's result itself and there is no second
 *     kernel.
 *   - many rows of at least kRoundBytes (16 KiB, one round of the loop):
 *     slices_block with S = 1, one row per block, 8 blocks per SM where
 *     rows_block, which loops over further rows and keeps 40 registers, gets
 *     6. Shorter rows keep rows_block: with 8 KiB rows an earlier form of
 *     slices_block (one that still divided by S when S was 1) took 0.2846 ms
 *     against rows_block's 0.2650 for 131072 rows of 2048 floats.
 * Measured on H200s (2026-11-28, gk_bench, f32 sums of 2^28 elements,
 * cold L2, medians; in each session two builds alternated, each run twice;
 * reduce/tuning/forms-h200/slices/), each step against the one before it
 * in one session:
 *   1. slices for up to half the resident count of rows, rows_block beyond:
 *      256 rows of 2^20 0.2985 -> 0.2548 ms (83.2% -> 97.4% of the
 *      stream), 512 of 2^19 0.2531 -> 0.2549 ms;
 *   2. slices (S = 1 included) up to the resident count: 1024 rows of 2^18
 *      0.2594 -> 0.2481 ms (94.0% -> 98.2%); 256 rows 0.2501 -> 0.2514;
 *   3. S = 1 without a division, and for many rows of 16 KiB and more:
 *      256 rows 0.2560 -> 0.2531 ms (97.0% -> 98.0%), 1024 rows 0.2527 ->
 *      0.2499 (98.4% -> 99.5%), 4096 of 65536 98.0% -> 100.0%, 65536 of
 *      4096 0.2471 -> 0.2454 ms (100.5% -> 101.2%; CUB 0.2457), 65536
 *      segments of 4096 0.2726 -> 0.2458 ms (91.1% -> 101.1%); 131072 rows
 *      of 2048 and the short rows unchanged.
 * Tried and not kept, in the same sessions: slices of 64 KiB, each block
 * looping over consecutive slices of the resident grid (91.8% to 93.1% of
 * the stream at every row count from 256 to 4096; each slice ends in a
 * block reduction during which that block has no load in flight, a reading
 * of the code, not a profile), and S chosen for 8 or 3
 * waves of blocks instead of one (93.4% to 97.6% at 256 rows; best where
 * the blocks came to a whole number of waves).
 *
 * Bound by: DRAM bandwidth for long rows; for short rows (a warp reads 1 KiB
 * of a 256-float row) also the latency of each warp's few loads, covered by
 * the many warps resident per SM. Measured on an H100 before the changes
 * above (reduce/tuning/forms-h100/rows.json and segments.json, f32 sums
 * of 2^28 elements against CUB's DeviceSegmentedReduce): 2^20 rows of
 * 256 at 96.0% of the read-only stream (3.474x CUB); 65536 rows of 4096 at
 * 102.5% (1.002x); 256 rows of 2^20 at 91.7% (1.020x). 2^20 segments of
 * 256 at 94.0% (3.400x CUB), where a warp per segment that loaded its own
 * offsets first ran at 72.6% (2.626x); 65536 segments of 4096 at 101.0%
 * (0.986x: CUB reads them at 102.4%), 256 of 2^20 at 91.6% (1.019x). On an
 * H200 with every change (reduce/tuning/forms-h200/slices/final_*, the
 * README's table under step 15): rows at 93.2% (4.75x CUB), 101.2%
 * (1.001x) and 98.0% (1.23x); segments at 85.8% (4.38x), 101.1% (0.999x)
 * and 97.9% (1.23x).
 *
 * Limits: 256 threads per block; grids of at most 2^20 blocks, looping over
 * further rows; any rows, cols, segments; `in` aligned to its element size.
 * Workspace: a state (at most 16 bytes) per 64 KiB of the elements, for the
 * slices' states.
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
constexpr size_t kSliceBytes = 65536;              /* few long rows: slices of at least this many bytes */
constexpr size_t kRoundBytes = kBlock * kUnroll * 16; /* what a block's loop reads per round: 16 KiB */
constexpr size_t kMaxStateBytes = 16;              /* the workspace's room per slice: a pair of 8-byte fields */

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
 * (a warp or a block) that reduce it together; index = base + position in p
 * (base: where p lies in its row).
 * p is aligned to its element; the group reads it in 16-byte vectors, the
 * head (before the first 16-byte boundary) and the tail one by one. */
template <typename In, typename Op, unsigned G, unsigned kUnroll>
__device__ typename Op::State reduce_range(const In *p, size_t len, unsigned lane, size_t base = 0)
{
    typedef typename Op::State S;
    constexpr unsigned kV = Elem<In>::kPerVec;
    S acc = Op::identity();
    size_t head = ((16 - ((uintptr_t)p & 15)) & 15) / sizeof(In); /* < kV <= 8 < G */
    if (head > len) head = len;
    if (lane < head) acc = Op::make(Elem<In>::load(p + lane), base + lane);
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
                acc = Op::apply(acc, Op::make(Elem<In>::get(x[u], k), base + head + (v + u * G) * kV + k));
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
                acc = Op::apply(acc, Op::make(Elem<In>::get(x[u], k), base + head + (v + u * G) * kV + k));
    /* The tail: fewer than kV elements after the last vector. */
    size_t t = head + nvec * kV + lane;
    if (lane < kV && t < len) acc = Op::apply(acc, Op::make(Elem<In>::load(p + t), base + t));
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

/* Long rows, no more than the GPU holds blocks at once: row r cut into S
 * slices, slice s its elements [len * s / S, len * (s + 1) / S); block
 * u = r * S + s reduces slice s of row r with variant 13's loop and a block
 * reduction, and stores its state in part[u], or (S = 1) the row's result. */
template <typename In, typename Op>
__global__ void __launch_bounds__(kBlock) slices_block(const In *__restrict__ in, Rows rows, unsigned S,
                                                       typename Op::State *part, void *out,
                                                       unsigned long long *out_index, int *invalid)
{
    const unsigned r = S == 1 ? blockIdx.x : blockIdx.x / S, s = S == 1 ? 0 : blockIdx.x % S;
    size_t first, len;
    const bool ok = rows.get(r, &first, &len);
    const size_t a = s == 0 ? 0 : len * s / S, b = s == S - 1 ? len : len * (s + 1) / S;
    typename Op::State st = Op::identity();
    if (b > a) st = reduce_range<In, Op, kBlock, kUnroll>(in + first + a, b - a, threadIdx.x, a);
    st = block_reduce<Op, kBlock>(st);
    if (threadIdx.x == 0) {
        if (S == 1) write<Op>(st, r, out, out_index);
        else part[blockIdx.x] = st;
        if (s == 0 && !ok && invalid != nullptr) *invalid = 1;
    }
}

/* Row r's S slice states, folded in a fixed order (thread t the slices t,
 * t + kBlock, ... in turn, then the block reduction), into out[r]. */
template <typename Op>
__global__ void __launch_bounds__(kBlock) fold_slices(const typename Op::State *__restrict__ part, size_t count,
                                                      unsigned S, void *out, unsigned long long *out_index)
{
    for (size_t r = blockIdx.x; r < count; r += gridDim.x) {
        typename Op::State st = Op::identity();
        for (size_t s = threadIdx.x; s < S; s += kBlock) st = Op::apply(st, part[r * S + s]);
        st = block_reduce<Op, kBlock>(st);
        if (threadIdx.x == 0) write<Op>(st, r, out, out_index);
        __syncthreads();
    }
}

template <typename In, typename Op>
cudaError_t run(const void *in, Rows rows, size_t count, size_t mean_len, void *out, unsigned long long *out_index,
                int *invalid, void *workspace, cudaStream_t stream)
{
    typedef typename Op::State S;
    static_assert(sizeof(S) <= kMaxStateBytes, "the workspace holds states of at most kMaxStateBytes");
    if (invalid != nullptr) {
        cudaError_t err = cudaMemsetAsync(invalid, 0, sizeof(int), stream);
        if (err != cudaSuccess) return err;
    }
    if (count == 0) return cudaSuccess;
    /* Long rows, no more of them than the blocks the GPU holds at once:
     * slices_block, each row cut into the most slices (of at least
     * kSliceBytes) that keep every block resident. */
    unsigned slices = 0; /* 0: not slices_block */
    if (mean_len * sizeof(In) > kWarpMaxBytes) {
        int dev = 0, sms = 0, per_sm = 0;
        cudaError_t err = cudaGetDevice(&dev);
        if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (err == cudaSuccess)
            err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, slices_block<In, Op>, kBlock, 0);
        if (err != cudaSuccess) return err;
        const size_t resident = (size_t)sms * (size_t)per_sm, most = mean_len * sizeof(In) / kSliceBytes;
        if (count <= resident) {
            size_t s = resident / count;
            if (s > most) s = most;
            slices = s > 1 ? (unsigned)s : 1u;
        } else if (count <= kMaxGrid && mean_len * sizeof(In) >= kRoundBytes) {
            slices = 1;
        }
    }
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
    } else if (slices == 0) {
        size_t blocks = count < kMaxGrid ? count : kMaxGrid;
        rows_block<In, Op><<<(unsigned)blocks, kBlock, 0, stream>>>((const In *)in, rows, count, out, out_index,
                                                                    invalid);
    } else {
        S *part = (S *)workspace;
        slices_block<In, Op><<<(unsigned)(count * slices), kBlock, 0, stream>>>((const In *)in, rows, slices, part,
                                                                                out, out_index, invalid);
        if (slices > 1) {
            cudaError_t err = cudaGetLastError();
            if (err != cudaSuccess) return err;
            fold_slices<Op><<<(unsigned)count, kBlock, 0, stream>>>(part, count, slices, out, out_index);
        }
    }
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_15_rows_segments_workspace(size_t n, size_t elem_size)
{
    /* At most n * elem_size / kSliceBytes slices (each row or mean segment
     * is cut into whole kSliceBytes), a state each. */
    return n / (kSliceBytes / elem_size) * kMaxStateBytes;
}

/* Rows: out[r] (and out_index[r] for op 3 arg-max, 4 arg-min) for each of
 * `rows` rows of `cols` elements, row r at in + r * ld. */
extern "C" cudaError_t gk_reduce_15_rows_segments_rows(const void *in, size_t rows, size_t cols, size_t ld,
                                                       int dtype, int op, void *out,
                                                       unsigned long long *out_index, void *workspace,
                                                       cudaStream_t stream)
{
    Rows r = {nullptr, nullptr, ld, cols, 0};
    return dispatch_all(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, r, rows, cols, out, out_index, nullptr, workspace, stream);
    });
}

/* Segments: out[s] for in[begin[s]..end[s]), s < segments; `invalid` (may be
 * NULL) is set to 1 when some segment has begin > end or end > n, else 0. */
extern "C" cudaError_t gk_reduce_15_rows_segments_segments(const void *in, size_t n, size_t segments,
                                                           const size_t *begin, const size_t *end, int dtype,
                                                           int op, void *out, unsigned long long *out_index,
                                                           int *invalid, void *workspace, cudaStream_t stream)
{
    Rows r = {begin, end, 0, 0, n};
    size_t mean = segments ? n / segments : 0;
    return dispatch_all(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, r, segments, mean, out, out_index, invalid, workspace, stream);
    });
}
