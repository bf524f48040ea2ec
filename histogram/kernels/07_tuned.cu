/* Variant 7: tuned. 16-byte loads, one conflict-free sub-histogram per lane
 * index for small bins, one copy per block in as few passes as fit for
 * medium and large bins, global atomics for huge bins.
 *
 * The idea. Variants 2-6 make the atomics cheaper step by step: private
 * copies in shared memory (2), a resident grid that merges once per block
 * (3, 4), one atomic per group of equal values (5), several copies per block
 * (6). What is left is (a) the loads: one element per 4-byte (or 1-byte)
 * load leaves DRAM underused, and (b) the shared atomics themselves: with
 * one copy per warp (or per group of warps) the 32 lanes of one atomic
 * instruction still land on random banks (shared memory has 32 banks of
 * 4-byte words; word w lies in bank w % 32), and lanes with equal values
 * land on the same word, so one instruction costs as many passes through
 * shared memory as the most-loaded bank has distinct words to touch
 * (NVIDIA CUDA C++ Programming Guide, "Shared Memory" and "Atomic
 * Functions"). This variant removes both, and picks its strategy from the
 * number of bins (Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., ch. 9: privatization, coarsening, aggregation; CUB's
 * DeviceHistogram documentation describes the same privatize-then-merge
 * scheme with shared-memory sub-histograms).
 *
 * 1. Loads. Every thread issues kUnroll = GK7_UNROLL = 4 loads of 16 bytes
 *    (uint4, ld.global.nc) before it counts any of them: 64 bytes in flight
 *    per thread, 2048 x 64 B = 128 KiB per SM when 2048 threads are
 *    resident. The work is cut into warp chunks of kWarpChunk = 32 x 4 =
 *    128 vectors (2 KiB); warp w of the grid takes chunks w, w + W, ... (W
 *    = warps in the grid), and load u of a chunk reads vectors u*32 + lane:
 *    each warp-wide load is 32 x 16 = 512 contiguous bytes. The chunk loop
 *    is uniform across a warp, so warp votes may be used inside it. The
 *    fewer than 128 vectors after the last whole chunk go one per thread.
 *    One uint4 is 4 u32 values or 16 u8 values.
 *    Alignment: `in` is aligned only to its element (a u8 pointer to any
 *    byte). head = the 0..15 bytes (0..3 u32) before the first 16-byte
 *    boundary, and the 0..15 bytes (0..3 u32) after the last whole vector,
 *    are counted one per thread by the first threads of the grid; every
 *    16-byte load is aligned and inside [in, in + n). (Same scheme as
 *    reduce variant 11.)
 *
 * 2. Small bins (all u8; u32 with bins <= kLaneMaxBins = 512): 32 replicas
 *    per block, one per LANE index, interleaved: replica r of bin b is word
 *    b * 32 + r, and lane l always counts into replica l. Word b * 32 + l
 *    lies in bank l, so the 32 lanes of an atomic instruction touch 32
 *    different banks and 32 different words whatever the values are:
 *    uniform, skewed, sorted runs or all in one bin, each shared atomic
 *    instruction is one conflict-free pass (lanes of different warps do
 *    share words, but they arrive in different instructions). No warp
 *    vote or __match_any_sync is needed here: there is no contention inside
 *    an instruction left to aggregate.
 *    Per value, counted in the code: u8: a shift, an AND-OR that puts the
 *    row offset (byte value x 128, bits 7-14) next to the lane's offset
 *    (lane x 4, bits 2-6) and one shared atomicAdd; u32: a compare with
 *    bins, the same offset, the atomic. u8 needs no range test at all: the
 *    histogram always has 256 rows and only rows < bins are merged.
 *    Shared memory: rows x 32 x 4 bytes = 32768 B for u8 (256 rows) and for
 *    u32 with 256 bins, 65536 B at 512 bins. Blocks of kThreads = 512,
 *    __launch_bounds__(512, 4) caps registers at 65536 / (4 x 512) = 32
 *    (ptxas -v, CUDA 13.0, sm_90: 32 for u8, 30 for u32, no spills). Per
 *    SM: 2048 / 512 = 4 blocks by threads; 4 x (32 + 1 reserved) KB = 132 KB
 *    <= 228 KB of shared memory: 4 blocks, full occupancy (at 512 bins:
 *    floor(228 / 65) = 3 blocks). kLaneMaxBins = 512 is where that still
 *    holds 3 blocks (48 warps); 1024 bins would need 128 KB and 1 block.
 *    Merge: thread b adds the 32 replicas of bin b, reading replica
 *    (r + b) % 32 at step r (32 different banks across a warp), and issues
 *    one 64-bit atomicAdd into counts if the sum is not 0: bins x blocks
 *    global atomics, 256 x 528 = 135168 for 256 bins on 132 SMs, against
 *    2^28 shared atomics for n = 2^28.
 *
 * 3. Medium and large bins (u32, bins > 512): one copy per block of a slice
 *    of the bins. The slice capacity cap is the device's opt-in shared
 *    memory per block / 4, rounded down to a multiple of 4 counters (227 KB
 *    = 232448 B on sm_90: cap = 58112); passes = ceil(bins / cap) and the
 *    bins are cut into equal slices of ceil(bins / passes) (rounded up to a
 *    multiple of 4). Each pass reads the whole input and counts only values
 *    in its slice (one unsigned compare: v - lo < slice). Blocks of
 *    kThreadsWide = 1024, __launch_bounds__(1024, 2): at most 32 registers
 *    (ptxas -v, CUDA 13.0, sm_90: 30; 32 for the global kernel of 4).
 *      4096 bins: 1 pass, 16384 B per block, 2 blocks per SM (2048 threads),
 *        264 blocks; merge 4096 x 264 = 1081344 global atomics (8.6 MB of
 *        8-byte updates) against 1 GiB of input at n = 2^28: under 1%.
 *      65536 bins: 65536 x 4 B = 256 KB does not fit in 227 KB, so 2
 *        passes of 32768 bins, 131072 B per block, 1 block per SM
 *        (2 x 129 KB > 228 KB), 132 blocks, 32 warps per SM (64 KiB in
 *        flight). Reads: 2 x 4n bytes; at the 4.8 TB/s DRAM peak that is at
 *        least 2 x 1 GiB / 4.8 TB/s = 0.45 ms at n = 2^28. Merge: 2 x 32768
 *        x 132 = 8650752 global atomics (69 MB of 8-byte updates, 3% of the
 *        2 GiB read).
 *    Why passes and not 16-bit counters (65536 x 2 B = 128 KB, one pass):
 *    a 16-bit counter wraps after 65535 counts, which one block reaches in
 *    any skewed or one-bin input; catching it needs the old value back from
 *    every atomic (no fire-and-forget RED) and a second place for the
 *    carries. Two passes stay exact with plain atomics and cost one extra
 *    read of the input.
 *    Here the values of one instruction hit random banks, and equal values
 *    collide: for a one-bin or sorted-run input every lane of a warp would
 *    hit one word. So (GK7_WARP_UNIFORM, default on) per 16-byte vector the
 *    warp checks, with one __shfl_sync and one __all_sync, whether all 128
 *    of its values are equal; if so lane 0 adds 128 with one atomic. If
 *    not, a thread whose own four values are equal adds 4 with one atomic.
 *    Both are exact (the count added is the number of values it stands
 *    for). What they cost, counted in cuobjdump -sass (sm_90): 12
 *    instructions per 16-byte vector of 4 values, paid whatever the data
 *    (3 compares for the thread's four values, the convergence check UMOV
 *    and BRA.DIV, the SHFL, a compare, the VOTE.ALL, a BSSY, two branches
 *    and a repeated compare), before the values' own compares and atomics.
 *
 * 4. Huge bins (more than kMaxPasses x 58112 on sm_90; at the default of
 *    8 passes, more than 464896: 2^20 and 2^24): each value is one 64-bit
 *    atomicAdd into counts in L2 (global memory; counts of 2^20 bins are 8
 *    MiB and fit in the L2, 60 MiB on the H200 of the module's bench run),
 *    with the same warp and thread checks as in 3, where passes would read
 *    the input ceil(bins / 58112) times (19 for 2^20, 289 for 2^24).
 *    (Contention is low when the values spread over so many bins.)
 *    Where one gives way to the other: kMaxPasses = GK7_MAX_PASSES, the
 *    most passes made before the global atomics take over (2^17 bins need
 *    3 passes, 2^18 need 5, 2^20 need 19). A pass costs about one read of
 *    the input: in the module's table (H200, n = 2^28 uniform u32) variant
 *    7's two passes at 65536 bins take 0.5246 ms, 1.06 times the read-only
 *    stream's 0.2483 ms per pass. One L2 atomic per value costs far more
 *    than 4 passes: variant 1, which does nothing else, takes 2.8953 ms at
 *    65536 bins, 11.7 times the stream, and 89.3904 ms on skewed data, 360
 *    times. The global kernel here is not variant 1's (16-byte loads, the
 *    warp checks) and the table does not time it, so the switch is
 *    measured: scripts/tune_histogram7.sh times both paths at the same
 *    2^16 to 2^20 bins (2 to 19 passes) on the same samples. On an H100
 *    (80 GB HBM3, CUDA 13.0, 2026-11-25), n = 2^28 uniform u32, each pass
 *    costs about 0.37 ms (0.7267, 1.0986, 1.4648, 1.8453, 2.2210, 2.5858,
 *    2.9567 ms for 2 to 8 passes; the read-only stream there takes 0.357
 *    ms) and the global kernel 3.10 to 3.39 ms at every bin count (8.7 to
 *    9.5 streams), so the passes are faster up to 8 passes (2.9567 against
 *    3.1139 ms at 458752 bins) and slower from 10 (3.6765 against 3.1447
 *    ms at 2^19). GK7_MAX_PASSES = 8, the most passes not slower than the
 *    global kernel on uniform data, values spread over all the bins, the
 *    case the global kernel is there for; on skewed data the L2 atomics
 *    queue on the hot bins (variant 1 above: 360 streams), so there the
 *    passes would win by more.
 *
 * 5. Grid: the resident grid, SMs x blocks per SM from
 *    cudaOccupancyMaxActiveBlocksPerMultiprocessor at the dynamic shared
 *    memory of the call, but no more blocks than whole rounds of the input
 *    need (a block of w warps reads w x 2 KiB per round), so small inputs
 *    zero and merge few copies.
 *    32-bit shared counters: n is processed in launches of at most 2^31
 *    elements, so no block counts more than 2^31 values and no counter
 *    (nor the sum of 32 replicas in the merge) wraps; counts are 64-bit.
 *    Above 48 KB of shared memory a kernel must opt in: the limit is set to
 *    the device's maximum, the same for every call (common.cuh's
 *    allow_smem), never to the call's own size, so that calls from several
 *    host threads with different bins cannot lower it under each other's
 *    launch.
 *
 * Expected bounds: u32 at 256 and 4096 bins: DRAM bandwidth (4 B per value,
 * conflict-free or few shared atomics per byte); 65536 bins: two reads of
 * the input plus the merge; u8: one shared atomic per input byte, so shared
 * atomic issue rather than DRAM is the likely limit.
 * Measured (H200, CUDA 13.0, 2026-11-23, n = 2^28, uniform data; the
 * module README's table, whose ceiling is a kernel that only reads the
 * input, and "% of ceiling" its time over the case's): u32 at 256 and 4096
 * bins 0.2525 and 0.2562 ms, 98.3% and 96.9% of the ceiling; 65536 bins
 * 0.5246 ms, 0.5246 / 0.2483 = 2.1 times the read-only time, about the two
 * reads; u8 0.0762 ms, 94.8% of the ceiling (0.0723 ms): against the
 * expectation above, the u8 shared atomics hide almost wholly behind the
 * read.
 *
 * Tuning (compile-time macros, defaults above): GK7_THREADS and
 * GK7_MIN_BLOCKS (lane kernel), GK7_THREADS_WIDE and GK7_MIN_BLOCKS_WIDE
 * (slice and global kernels), GK7_UNROLL (loads in flight; more needs
 * more registers: lower GK7_MIN_BLOCKS, e.g. UNROLL 8 with MIN_BLOCKS 2
 * gives ptxas 64 registers for u8 and no spills, while the slice and global
 * kernels, still held to 32 registers by GK7_MIN_BLOCKS_WIDE = 2, spill 44
 * and 64 bytes), GK7_LANE_MAX_BINS, GK7_MAX_PASSES (measured by
 * scripts/tune_histogram7.sh), GK7_WARP_UNIFORM. Public background: N. Wilt / NVIDIA Developer Blog, "GPU
 * Pro Tip: Fast Histograms Using Shared Atomics on Maxwell" (2015): native
 * shared-memory atomics make per-block privatization the fast path.
 *
 * Limits: u8 with bins <= 256, u32 with bins <= 2^24 (gk_histogram checks);
 * any n, any element alignment. Workspace: none (0 bytes).
 *
 * Build alone: nvcc -arch=sm_90 -c 07_tuned.cu (with common.cuh, the
 * folder's shared plumbing, next to it: the two files are all a project
 * needs besides the CUDA toolkit)
 */
#include "common.cuh"

/* The tuning knobs, each with the default the header derives. Rebuild with
 * -DNAME=value to try another. */
#ifndef GK7_THREADS
#define GK7_THREADS 512 /* threads per block of the lane-replicated kernel */
#endif
#ifndef GK7_MIN_BLOCKS
#define GK7_MIN_BLOCKS 4 /* its __launch_bounds__ minimum: 4 x 512 threads -> at most 32 registers */
#endif
#ifndef GK7_THREADS_WIDE
#define GK7_THREADS_WIDE 1024 /* threads per block of the one-copy and the global kernels */
#endif
#ifndef GK7_MIN_BLOCKS_WIDE
#define GK7_MIN_BLOCKS_WIDE 2 /* 2 x 1024 threads -> at most 32 registers */
#endif
#ifndef GK7_UNROLL
#define GK7_UNROLL 4 /* 16-byte loads in flight per thread */
#endif
#ifndef GK7_LANE_MAX_BINS
#define GK7_LANE_MAX_BINS 512 /* u32: largest bins given 32 lane replicas */
#endif
#ifndef GK7_MAX_PASSES
#define GK7_MAX_PASSES 8 /* u32: most passes before global atomics; measured: see the header, item 4 */
#endif
#ifndef GK7_WARP_UNIFORM
#define GK7_WARP_UNIFORM 1 /* one-copy and global kernels: one atomic for a warp of equal values */
#endif

/* sm_75 holds 1024 threads per SM, not 2048: ask for what fits there. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define GK7_MINB(threads, blocks) (1024 / (threads) > 0 ? 1024 / (threads) : 1)
#else
#define GK7_MINB(threads, blocks) (blocks)
#endif

namespace {

constexpr unsigned kThreads = GK7_THREADS;
constexpr unsigned kThreadsWide = GK7_THREADS_WIDE;
constexpr unsigned kUnroll = GK7_UNROLL;
constexpr unsigned kLaneMaxBins = GK7_LANE_MAX_BINS;
constexpr unsigned kMaxPasses = GK7_MAX_PASSES;
constexpr unsigned kReplicas = 32;              /* lane replicas: one per lane index */
constexpr unsigned kWarpChunk = 32 * kUnroll;   /* 16-byte vectors per warp per round */
#if GK7_WARP_UNIFORM
constexpr unsigned kFull = 0xffffffffu; /* all 32 lanes take part in the vote */
#endif

static_assert(kThreads % 32 == 0 && kThreadsWide % 32 == 0, "whole warps");
static_assert(kThreads >= 32 && kThreadsWide >= 32, "the scalar head and tail need 15 threads of block 0");

template <typename T> struct PerVec;
template <> struct PerVec<uint8_t> { static constexpr unsigned value = 16; };
template <> struct PerVec<uint32_t> { static constexpr unsigned value = 4; };

/* ---- Lane-replicated sub-histograms (all u8; u32 with bins <= kLaneMaxBins).
 * Replica r of bin b is word b * 32 + r of shared memory, and lane l counts
 * into replica l: my = s + lane, bin b at my[b << 5]. Word b * 32 + l lies
 * in bank l, so the 32 lanes of one atomic instruction always touch 32
 * different banks and 32 different words: no bank conflict, no same-address
 * collision inside an instruction, whatever the data. */
__device__ __forceinline__ void lane_add_at(unsigned *s, unsigned byte_offset)
{
    atomicAdd(reinterpret_cast<unsigned *>(reinterpret_cast<char *>(s) + byte_offset), 1u);
}
/* u8: the histogram always has 256 rows, so every byte is counted without a
 * range test; the merge keeps rows < bins only. Byte k of w, times 128 (the
 * row's byte offset, bits 7-14), OR the lane's byte offset lane * 4 (bits
 * 2-6, disjoint): one shift and one AND-OR per value, then the atomic. */
__device__ __forceinline__ void lane_add_u8_word(unsigned *s, unsigned lane4, unsigned w)
{
    lane_add_at(s, ((w << 7) & 0x7f80u) | lane4);
    lane_add_at(s, ((w >> 1) & 0x7f80u) | lane4);
    lane_add_at(s, ((w >> 9) & 0x7f80u) | lane4);
    lane_add_at(s, ((w >> 17) & 0x7f80u) | lane4);
}
__device__ __forceinline__ void lane_add(unsigned *s, unsigned lane4, uint8_t v, unsigned)
{
    lane_add_at(s, ((unsigned)v << 7) | lane4);
}
/* u32: values >= bins are skipped (no row for them). v < bins <= 2^24, so
 * v << 7 does not overflow. */
__device__ __forceinline__ void lane_add(unsigned *s, unsigned lane4, uint32_t v, unsigned bins)
{
    if (v < bins) lane_add_at(s, (v << 7) | lane4);
}
__device__ __forceinline__ void lane_add_vec(unsigned *s, unsigned lane4, uint4 x, unsigned, uint8_t)
{
    lane_add_u8_word(s, lane4, x.x);
    lane_add_u8_word(s, lane4, x.y);
    lane_add_u8_word(s, lane4, x.z);
    lane_add_u8_word(s, lane4, x.w);
}
__device__ __forceinline__ void lane_add_vec(unsigned *s, unsigned lane4, uint4 x, unsigned bins, uint32_t)
{
    lane_add(s, lane4, x.x, bins);
    lane_add(s, lane4, x.y, bins);
    lane_add(s, lane4, x.z, bins);
    lane_add(s, lane4, x.w, bins);
}

/* The input loop of all three kernels, in one order. Whole warp chunks
 * first, warp by warp: chunk c is vectors c*kWarpChunk .. c*kWarpChunk +
 * kWarpChunk - 1; load u of the warp reads vectors c*kWarpChunk + u*32 +
 * lane, 512 contiguous bytes, and all kUnroll loads are issued before any
 * is counted, by vec(x, lane), which the whole warp calls together (warp
 * votes are safe in it). Then what the whole chunks leave: fewer than
 * kWarpChunk vectors, each counted by tail_vec(x), and the scalars before
 * the first 16-byte boundary (head, < P) and after the last whole vector
 * (< P), each counted by one(v), one per thread from the start of the grid.
 * Threads: the kernel's block size. */
template <unsigned Threads, typename T, typename Vec, typename TailVec, typename One>
__device__ __forceinline__ void count_input(const T *__restrict__ in, unsigned n, unsigned head, Vec vec,
                                            TailVec tail_vec, One one)
{
    constexpr unsigned P = PerVec<T>::value;
    const unsigned lane = threadIdx.x & 31;
    const uint4 *vin = reinterpret_cast<const uint4 *>(in + head); /* 16-byte aligned by the choice of head */
    const unsigned nvec = (n - head) / P;
    const unsigned nchunks = nvec / kWarpChunk;
    const unsigned warps = gridDim.x * (Threads / 32);
    for (unsigned c = blockIdx.x * (Threads / 32) + threadIdx.x / 32; c < nchunks; c += warps) {
        const uint4 *p = vin + c * kWarpChunk + lane;
        uint4 x[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) x[u] = __ldg(p + u * 32);
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) vec(x[u], lane);
    }
    const unsigned gtid = blockIdx.x * Threads + threadIdx.x;
    for (unsigned v = nchunks * kWarpChunk + gtid; v < nvec; v += gridDim.x * Threads) tail_vec(__ldg(vin + v));
    const unsigned tail0 = head + nvec * P;
    if (gtid < head) one(in[gtid]);
    if (gtid < n - tail0) one(in[tail0 + gtid]);
}

/* in: this launch's elements (n <= 2^31); head: elements before the first
 * 16-byte boundary; rows: histogram rows in shared memory (256 for u8, bins
 * for u32). Dynamic shared memory: rows * 32 * 4 bytes. */
template <typename T>
__global__ void __launch_bounds__(kThreads, GK7_MINB(GK7_THREADS, GK7_MIN_BLOCKS))
    hist_lanes(const T *__restrict__ in, unsigned n, unsigned head, unsigned bins, unsigned rows,
               unsigned long long *__restrict__ counts)
{
    extern __shared__ uint4 smem4[];
    unsigned *s = reinterpret_cast<unsigned *>(smem4);
    const T tag = 0; /* selects the overload for T */

    for (unsigned i = threadIdx.x; i < rows * (kReplicas / 4); i += kThreads) smem4[i] = make_uint4(0, 0, 0, 0);
    __syncthreads(); /* every counter is zero before any thread counts into it */

    const unsigned lane4 = (threadIdx.x & 31) * 4; /* byte offset of this lane's replica within a row */
    count_input<kThreads>(
        in, n, head, [&](uint4 x, unsigned) { lane_add_vec(s, lane4, x, bins, tag); },
        [&](uint4 x) { lane_add_vec(s, lane4, x, bins, tag); }, [&](T v) { lane_add(s, lane4, v, bins); });

    __syncthreads(); /* every count of the block is in shared memory before the merge reads it */

    /* Merge: thread b adds the 32 replicas of bin b. It reads replica
     * (r + b) & 31 at step r, so the lanes of a warp (consecutive b) read 32
     * different banks at every step. */
    const unsigned mrows = bins < rows ? bins : rows;
    for (unsigned b = threadIdx.x; b < mrows; b += kThreads) {
        unsigned sum = 0;
#pragma unroll 8
        for (unsigned r = 0; r < kReplicas; ++r) sum += s[(b << 5) + ((r + b) & 31)];
        if (sum) atomicAdd(counts + b, (unsigned long long)sum);
    }
}

/* ---- One copy per block of a slice [lo, lo + slice) of the bins (u32), or
 * no copy at all (global atomics). Both count through a "sink". */
struct SliceSink {
    unsigned *s;
    unsigned lo, slice;
    __device__ __forceinline__ void add(unsigned v, unsigned k) const
    {
        const unsigned i = v - lo; /* values below lo wrap to >= 2^32 - lo >= slice */
        if (i < slice) atomicAdd(s + i, k);
    }
};
struct GlobalSink {
    unsigned long long *counts;
    unsigned bins;
    __device__ __forceinline__ void add(unsigned v, unsigned k) const
    {
        if (v < bins) atomicAdd(counts + v, (unsigned long long)k);
    }
};

/* One 16-byte vector of four u32 values, in a loop that the whole warp runs
 * together (no lane has left it: warp votes are safe). */
template <typename Sink>
__device__ __forceinline__ void wide_add_vec_warp(const Sink &sink, uint4 x, unsigned lane)
{
#if GK7_WARP_UNIFORM
    const bool same4 = x.x == x.y && x.y == x.z && x.z == x.w;
    /* All 128 values of the warp equal: one atomic of 128 instead of 128
     * atomics on one address (a 32-way collision in each of 4 instructions). */
    /* Every lane takes part in the shuffle before any test: a lane that
     * skipped it (say, behind `same4 &&`) would leave the other lanes waiting
     * for it at a full-mask __shfl_sync. */
    const unsigned first = __shfl_sync(kFull, x.x, 0);
    if (__all_sync(kFull, same4 && x.x == first)) {
        if (lane == 0) sink.add(x.x, 128u);
        return;
    }
    /* This thread's four equal (a sorted run): one atomic of 4. */
    if (same4) {
        sink.add(x.x, 4u);
        return;
    }
#endif
    sink.add(x.x, 1u);
    sink.add(x.y, 1u);
    sink.add(x.z, 1u);
    sink.add(x.w, 1u);
}
template <typename Sink> __device__ __forceinline__ void wide_add_vec(const Sink &sink, uint4 x)
{
    sink.add(x.x, 1u);
    sink.add(x.y, 1u);
    sink.add(x.z, 1u);
    sink.add(x.w, 1u);
}

/* The input loop of both kernels below (count_input), with the sink's adds. */
template <typename Sink>
__device__ __forceinline__ void wide_count(const uint32_t *__restrict__ in, unsigned n, unsigned head, const Sink &sink)
{
    count_input<kThreadsWide>(
        in, n, head, [&](uint4 x, unsigned lane) { wide_add_vec_warp(sink, x, lane); },
        [&](uint4 x) { wide_add_vec(sink, x); }, [&](uint32_t v) { sink.add(v, 1u); });
}

/* Dynamic shared memory: slice4 * 4 bytes, slice4 = slice rounded up to a
 * multiple of 4 (whole 16-byte stores when zeroing). */
__global__ void __launch_bounds__(kThreadsWide, GK7_MINB(GK7_THREADS_WIDE, GK7_MIN_BLOCKS_WIDE))
    hist_slice(const uint32_t *__restrict__ in, unsigned n, unsigned head, unsigned lo, unsigned slice,
               unsigned long long *__restrict__ counts)
{
    extern __shared__ uint4 smem4[];
    unsigned *s = reinterpret_cast<unsigned *>(smem4);
    for (unsigned i = threadIdx.x; i < (slice + 3) / 4; i += kThreadsWide) smem4[i] = make_uint4(0, 0, 0, 0);
    __syncthreads(); /* every counter is zero before any thread counts into it */

    wide_count(in, n, head, SliceSink{s, lo, slice});

    __syncthreads(); /* every count of the block is in shared memory before the merge reads it */
    for (unsigned b = threadIdx.x; b < slice; b += kThreadsWide) {
        const unsigned c = s[b];
        if (c) atomicAdd(counts + lo + b, (unsigned long long)c);
    }
}

__global__ void __launch_bounds__(kThreadsWide, GK7_MINB(GK7_THREADS_WIDE, GK7_MIN_BLOCKS_WIDE))
    hist_global(const uint32_t *__restrict__ in, unsigned n, unsigned head, unsigned bins,
                unsigned long long *__restrict__ counts)
{
    wide_count(in, n, head, GlobalSink{counts, bins});
}

/* ---- Host side. */
template <typename T> unsigned head_of(const T *p, size_t m)
{
    size_t head = ((16 - ((uintptr_t)p & 15)) & 15) / sizeof(T); /* u32 pointers are 4-byte aligned */
    return (unsigned)(head < m ? head : m);
}

/* Blocks for one launch of m elements: the resident grid (SMs x blocks per
 * SM from the occupancy calculator at this shared-memory size, after
 * common.cuh's allow_smem, which sets the kernel's limit to the device's
 * opt-in maximum, the same for every call), but no more than the whole
 * chunks of kWarpChunk vectors need (small inputs: fewer blocks to zero and
 * merge), and at least 1. */
template <typename K>
cudaError_t grid_for(K kernel, unsigned threads, size_t smem, size_t max_elems, unsigned per_vec, unsigned *blocks)
{
    bool fits = false; /* always: every caller keeps smem within the opt-in maximum */
    size_t resident = 0;
    cudaError_t e = allow_smem(kernel, smem, &fits);
    if (!e) e = resident_blocks(kernel, threads, smem, &resident);
    if (e) return e;
    const size_t per_block = (size_t)(threads / 32) * kWarpChunk * per_vec; /* elements one round of a block reads */
    size_t b = (max_elems + per_block - 1) / per_block;
    if (b > resident) b = resident;
    if (b < 1) b = 1;
    *blocks = (unsigned)b;
    return cudaSuccess;
}

template <typename T>
cudaError_t run_lanes(const T *in, size_t n, size_t bins, unsigned rows, unsigned long long *counts,
                      cudaStream_t stream)
{
    const size_t smem = (size_t)rows * kReplicas * 4;
    unsigned blocks = 0;
    cudaError_t e = grid_for(hist_lanes<T>, kThreads, smem, n < kChunk ? n : kChunk, PerVec<T>::value, &blocks);
    if (e) return e;
    return each_launch(n, [&](size_t off, size_t m) {
        hist_lanes<T><<<blocks, kThreads, smem, stream>>>(in + off, (unsigned)m, head_of(in + off, m),
                                                           (unsigned)bins, rows, counts);
    });
}

cudaError_t run_u32(const uint32_t *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    int optin = 0;
    cudaError_t e = smem_per_block_optin(&optin);
    if (e) return e;

    /* 1. Small bins: 32 lane replicas, bins * 128 bytes. */
    if (bins <= kLaneMaxBins && bins * kReplicas * 4 <= (size_t)optin)
        return run_lanes(in, n, bins, (unsigned)bins, counts, stream);

    /* 2. One copy per block, in as few equal slices as fit: cap counters
     * per block (a multiple of 4), passes = ceil(bins / cap). */
    const size_t cap = (size_t)optin / 16 * 4;
    const size_t passes = (bins + cap - 1) / cap;
    const size_t lim = n < kChunk ? n : kChunk;
    unsigned blocks = 0;
    if (passes <= kMaxPasses) {
        const size_t slice = ((bins + passes - 1) / passes + 3) / 4 * 4; /* <= cap */
        const size_t smem = slice * 4;
        e = grid_for(hist_slice, kThreadsWide, smem, lim, 4, &blocks);
        if (e) return e;
        for (size_t lo = 0; lo < bins; lo += slice) { /* one pass per slice, each over the whole input */
            const size_t sl = bins - lo < slice ? bins - lo : slice;
            e = each_launch(n, [&](size_t off, size_t m) {
                hist_slice<<<blocks, kThreadsWide, smem, stream>>>(in + off, (unsigned)m, head_of(in + off, m),
                                                                   (unsigned)lo, (unsigned)sl, counts);
            });
            if (e) return e;
        }
        return cudaSuccess;
    }

    /* 3. Very large bins: 64-bit atomics straight into counts. */
    e = grid_for(hist_global, kThreadsWide, 0, lim, 4, &blocks);
    if (e) return e;
    return each_launch(n, [&](size_t off, size_t m) {
        hist_global<<<blocks, kThreadsWide, 0, stream>>>(in + off, (unsigned)m, head_of(in + off, m),
                                                         (unsigned)bins, counts);
    });
}

/* u8: always the lane replicas, 256 rows (see the header). */
cudaError_t run_u8(const uint8_t *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    return run_lanes(in, n, bins, 256u, counts, stream);
}

} // namespace

extern "C" size_t gk_histogram_07_tuned_workspace(size_t, size_t, int) { return 0; }

extern "C" cudaError_t gk_histogram_07_tuned_run(const void *in, size_t n, int dtype, size_t bins,
                                                 unsigned long long *counts, void *, cudaStream_t stream)
{
    return run_by_dtype(in, n, dtype, bins, counts, stream, run_u8, run_u32);
}
