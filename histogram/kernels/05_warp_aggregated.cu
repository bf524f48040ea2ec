/* Variant 5: warp-aggregated shared atomics, one atomic per group of equal
 * values in a warp.
 *
 * The idea: when several lanes of a warp hold the same value, they all add 1
 * to the same counter, and the shared-memory unit applies those
 * read-modify-writes to that one word one after another. Here the lanes
 * first find out who holds the same value as whom: __match_any_sync(mask,
 * value) returns to every lane the mask of the lanes whose value equals its
 * own (CUDA C++ Programming Guide, "Warp Match Functions", compute
 * capability 7.0 and newer). The lowest lane of each group then adds the
 * size of its group, __popc(mask), with one atomicAdd; the others add
 * nothing. Everything else is variant 4: the resident grid, the interleaved
 * grid-stride loop with kUnroll = 4 loads in flight per thread, one 32-bit
 * sub-histogram per block in shared memory, merged with one 64-bit global
 * atomic per nonzero bin. Kirk, Hwu & El Hajj ("Programming Massively
 * Parallel Processors", 4th ed., chapter 9, "Aggregation") merge runs of
 * equal values within one thread's sequence of samples; this file merges
 * equal values across the 32 lanes of a warp at one moment, in the manner of
 * the warp-aggregated atomics of NVIDIA's blog posts "CUDA Pro Tip:
 * Optimized Filtering with Warp-Aggregated Atomics" (Adinets, 2014) and
 * "Using CUDA Warp-Level Primitives" (Lin and Grover, 2018), which elect one
 * leader among the lanes that update one address.
 *
 * What changed from variant 4, counted. The shared atomics of one warp-wide
 * step (32 samples, one per lane) become as many as there are distinct
 * in-range values among the 32 lanes. For independent samples with bin
 * probabilities p_v, the expected number is the sum over v of
 * 1 - (1 - p_v)^32:
 *   - uniform over 256 bins: 256 x (1 - (255/256)^32) = 30.1 atomics instead
 *     of 32, 6% fewer; over 4096 bins 31.9: nothing to gain;
 *   - skewed (the tests' and the bench's geometric law, p_v proportional to
 *     (15/16)^v, about half the samples in the first 11 bins): 21.0 atomics
 *     instead of 32, 34% fewer;
 *   - one bin (every sample the same value): 1 atomic instead of 32, the 32
 *     same-address updates of variant 4's warp step become one; sorted runs
 *     longer than a warp behave the same, 1 or 2 atomics.
 * The price is paid on every sample, whatever the data: one MATCH.ANY per
 * sample (for u8 and u32 alike: one sample per lane per step). cuobjdump
 * -sass for sm_90 shows 16 instructions per warp-wide step where variant 4
 * has 9. Both have the compare with bins, the branch around the atomic
 * (BSSY, BRA, BSYNC), the shared address (S2UR, UMOV, ULEA, LEA) and the
 * ATOMS; this one adds the key select (SEL), a check that the warp is
 * converged (BRA.DIV, never taken here: see below), the MATCH.ANY, the
 * leader test (LOP3 with the lower lanes' mask, ISETP against kNoBin), the
 * POPC and a UMOV. The Programming Guide's throughput table does not list
 * the match instruction, so this file does not guess its cost; the uniform
 * case, where aggregation saves only 6% of the atomics, shows it in the
 * bench.
 *
 * What the compiler already does. cuobjdump -sass of variant 4's shared
 * increment, atomicAdd(hist + v, 1u), shows no MATCH or VOTE sequence around
 * it: for sm_80 and sm_90 it is a single ATOMS.POPC.INC.32, for sm_75 a
 * plain ATOMS.ADD of a register holding 1 (the VOTE.ANY in that sm_75 code
 * sits at the loop's back edge, for reconvergence, not at the atomic). The
 * compiler does aggregate by itself when every lane provably uses the same
 * address, as in atomicAdd(&counter, 1) on one counter: VOTEU.ANY, UFLO and
 * POPC, then one atomic; it cannot know that data-dependent addresses are
 * equal. The name of the sm_80/sm_90 instruction suggests that the
 * shared-memory unit itself counts the lanes that increment one word and
 * adds that count once: an aggregation in hardware. NVIDIA does not
 * document SASS semantics, so that is a reading of a name, not something
 * this file relies on. The explicit form below adds __popc(mask), not 1, so
 * it compiles to ATOMS.ADD and gives that special form up. So the bench
 * measures what the explicit aggregation adds over variant 4 on each
 * distribution (uniform, skewed, one bin); the figures belong in the module
 * README's table, quoted from there.
 *
 * Partial warps and values out of range. __match_any_sync(mask, v) must be
 * reached by every lane named in mask. Variant 4's loop runs while the
 * thread's own index i < n, so in the last trip the lanes whose i passed n
 * have already left, and a full mask would name lanes that never arrive
 * (undefined), while __activemask() only reports who happens to be there.
 * Here the loop runs on the index of the warp's lane 0, i0, the same in all
 * 32 lanes (stride is a multiple of 32), so every lane runs the same trips;
 * a lane whose element is past n, or whose value is >= bins, takes part in
 * the match with the key kNoBin = 0xffffffff, which no counted value equals
 * (bins <= 2^24). Those lanes form a group of their own whose leader skips
 * the atomic. The mask is therefore always the whole warp, 0xffffffff
 * (blocks of kBlock = 256 threads are whole warps), and the samples each
 * thread reads are exactly variant 4's.
 *
 * As in variant 4:
 *   - Loads: each warp-wide load reads 32 consecutive elements, 128 bytes
 *     for u32 and 32 bytes for u8; kUnroll = 4 of them in flight per thread.
 *   - Shared memory per block: bins x 4 bytes (plus the 1 KB per block that
 *     sm_80 and later reserve). Blocks per SM = min(2048 / 256 = 8,
 *     floor(233472 / (bins x 4 + 1024))) on sm_90 (228 KB per SM): 8 up to
 *     bins = 7040, 3 at 16384, 1 at the most that fits, 58112 (227 KB, the
 *     opt-in maximum per block). ptxas -v (CUDA 13.0, sm_90) reports 24
 *     registers per thread for u32 and u8 (28 in the global fallback), below
 *     the 32 that 8 blocks of 256 threads allow (2048 x 32 = 65536, the SM's
 *     register file). The grid
 *     is SMs x blocks per SM from the occupancy calculator (fewer when len
 *     needs fewer: one element per thread at least).
 *   - Merge: bins shared loads and at most bins 64-bit global atomics
 *     (nonzero counters only) per block: bins x blocks atomics per launch at
 *     most. A 32-bit counter cannot wrap: a block counts at most one
 *     launch's elements, kChunk = 2^31 < 2^32.
 *
 * Bins that do not fit (bins x 4 > cudaDevAttrMaxSharedMemoryPerBlockOptin:
 * bins > 58112 on sm_90, > 16384 on sm_75; 65536, 2^20, 2^24 on both): not
 * variant 1's kernel as in variant 4, but the same aggregated loop adding
 * each group's size straight into counts with a 64-bit global atomic
 * (histogram_global_aggregated below): one L2 atomic per group of equal
 * values instead of one per sample. With uniform data over that many bins
 * the groups are single samples (31.99 distinct values per warp step at
 * 65536 bins) and only the match is added; with one bin, 32 same-address L2
 * atomics become 1, which is where contention costs most. Passes over
 * slices of the bins, each privatized, would read the whole input once per
 * slice: ceil(bins / 58112) reads on sm_90, 19 for 2^20 bins and 289 for
 * 2^24 (variant 2's header counts this), against one read here.
 *
 * Bound by: the shared-memory atomic unit and, with aggregation, the extra
 * instructions per sample; for u8, instruction issue (one match per byte
 * read). For bins that do not fit, the L2's atomic throughput.
 *
 * Limits: compute capability 7.0 or newer (__match_any_sync). Any n (0
 * included), any bins from 1 to 2^24. Input at any address (one aligned
 * scalar load per element, as in variant 4). Launches of at most kChunk =
 * 2^31 elements, each adding into counts, which are first zeroed with
 * cudaMemsetAsync; 64-bit loop indices, since i0 + 3 x stride can pass
 * 2^32. Exact and the same every run (integer additions). Workspace: none.
 *
 * Build alone: nvcc -arch=sm_90 -c 05_warp_aggregated.cu (with common.cuh,
 * the folder's shared plumbing, next to it: the two files are all a project
 * needs besides the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kUnroll = 4;          /* grid-stride steps per trip: loads in flight per thread */
constexpr unsigned kNoBin = 0xffffffffu; /* key of a lane with nothing to count (>= 2^24: never a bin) */

/* Where a group's count goes: the block's shared sub-histogram, or counts
 * itself (the fallback for bins that do not fit in shared memory). */
struct SharedCounters {
    unsigned *hist;
    __device__ void add(unsigned bin, unsigned c) const { atomicAdd(hist + bin, c); }
};
struct GlobalCounters {
    unsigned long long *counts;
    __device__ void add(unsigned bin, unsigned c) const { atomicAdd(counts + bin, (unsigned long long)c); }
};

/* One warp-wide step: each of the 32 lanes holds one key, a bin or kNoBin.
 * All 32 lanes must call this together (see the header), so the match mask
 * is the whole warp. `lower` is the mask of the lanes below this one. */
template <typename Counters>
__device__ __forceinline__ void tally(unsigned key, unsigned lower, Counters counters)
{
    const unsigned same = __match_any_sync(0xffffffffu, key); /* the lanes holding this key, this one included */
    /* The group's leader is its lowest lane: no lane of the group below it.
     * The kNoBin group counts nothing. */
    if (key != kNoBin && (same & lower) == 0u) counters.add(key, __popc(same));
}

/* Variant 4's interleaved loop over in[0..n), n <= kChunk, with every step
 * aggregated per warp. The trip test uses i0, the index of the warp's lane
 * 0, so all 32 lanes run the same trips; lane l's element is i0 + l. */
template <typename T, typename Counters>
__device__ __forceinline__ void count_elements(const T *__restrict__ in, unsigned n, unsigned bins,
                                               Counters counters)
{
    const unsigned lane = threadIdx.x % 32;
    const unsigned lower = (1u << lane) - 1u;
    const size_t stride = (size_t)gridDim.x * kBlock; /* a multiple of 32: i0 stays a warp's lane 0 */
    for (size_t i0 = (size_t)blockIdx.x * kBlock + (threadIdx.x - lane); i0 < n; i0 += kUnroll * stride) {
        const size_t i = i0 + lane;
        unsigned v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) /* each: a warp reads 32 consecutive elements, coalesced */
            v[u] = i + u * stride < n ? (unsigned)in[i + u * stride] : kNoBin;
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) tally(v[u] < bins ? v[u] : kNoBin, lower, counters);
    }
}

/* A private histogram per block, as in variant 4, filled with aggregated
 * shared atomics. Launched with bins * 4 bytes of dynamic shared memory. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    histogram_aggregated(const T *__restrict__ in, unsigned n, unsigned bins, unsigned long long *__restrict__ counts)
{
    extern __shared__ unsigned hist[]; /* bins 32-bit counters: this block's sub-histogram */

    zero_private(hist, bins);
    __syncthreads(); /* every counter is zero before any warp counts into it */

    count_elements(in, n, bins, SharedCounters{hist});
    __syncthreads(); /* every warp's counts are in hist before any thread reads a counter to merge it */

    /* Merge as in variant 2 (common.cuh's merge_private: lane l of a warp
     * reads word b + l, 32 banks, and adds into 256 contiguous bytes of
     * counts). A block counts at most n < 2^32 elements, so no counter can
     * have wrapped. */
    merge_private(hist, bins, counts);
}

/* The fallback for bins that do not fit in shared memory: the same loop,
 * each group's size added straight into counts with a 64-bit global atomic. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    histogram_global_aggregated(const T *__restrict__ in, unsigned n, unsigned bins,
                                unsigned long long *__restrict__ counts)
{
    count_elements(in, n, bins, GlobalCounters{counts});
}

/* The resident grid with the private copy (common.cuh's setup_private and
 * launch_resident, variant 4's launch); when the copy does not fit, the
 * aggregated global kernel on its own resident grid. */
template <typename T>
cudaError_t run(const T *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    const size_t smem = bins * sizeof(unsigned);
    size_t resident = 0;
    cudaError_t e = setup_private(histogram_aggregated<T>, smem, &resident);
    if (e) return e;
    if (resident > 0) return launch_resident(histogram_aggregated<T>, resident, smem, in, n, bins, counts, stream);
    e = resident_blocks(histogram_global_aggregated<T>, kBlock, 0, &resident);
    if (e) return e;
    if (resident == 0) resident = 1;
    return launch_resident(histogram_global_aggregated<T>, resident, 0, in, n, bins, counts, stream);
}

} // namespace

extern "C" size_t gk_histogram_05_warp_aggregated_workspace(size_t, size_t, int) { return 0; }

extern "C" cudaError_t gk_histogram_05_warp_aggregated_run(const void *in, size_t n, int dtype, size_t bins,
                                                           unsigned long long *counts, void *, cudaStream_t stream)
{
    return run_by_dtype(in, n, dtype, bins, counts, stream, run<uint8_t>, run<uint32_t>);
}
