/* Variant 6: replicated sub-histograms, several copies per block.
 *
 * The idea: in variant 4 all kBlock = 256 threads of a block (8 warps) add
 * into one copy of the histogram, so on skewed data the 8 warps' atomics
 * queue up on the same few words of shared memory. Here a block keeps R
 * copies (replicas) of its sub-histogram, and warp w adds into replica
 * w % R: the warps are split over R sets of counters, and a hot bin is R
 * words instead of one. At the end the block adds its R replicas bin by bin
 * and merges the sums into counts as before, one 64-bit global atomic per
 * nonzero bin. Copies per warp are the old remedy for shared-memory
 * contention in histograms (V. Podlozhnyuk, "Histogram calculation in
 * CUDA", NVIDIA, 2007, the whitepaper of the CUDA samples' histogram256,
 * keeps one sub-histogram per warp); Kirk, Hwu & El Hajj ("Programming
 * Massively Parallel Processors", 4th ed., chapter 9, "Privatization")
 * present privatization as a trade of contention against the cost of
 * initialising and merging the private copies, which is the trade counted
 * below. Everything else is variant 4: the resident grid, the interleaved
 * grid-stride loop with kUnroll = 4 loads in flight per thread, 32-bit
 * shared counters, the global-atomic fallback. It is the other answer to
 * contention than variant 5's aggregation, kept apart from it so that the
 * bench compares the two.
 *
 * What changed from variant 4, counted:
 *   - Contention. Variant 4: up to 256 threads (8 warps) per shared word
 *     when the data sit in one bin. Here ceil(8 / R) warps, 32 x ceil(8 / R)
 *     threads, per word: one warp per replica at R = 8, at most 3 warps at
 *     R = 3. Within one warp nothing changes: its 32 lanes count into one
 *     replica, so 32 equal values are 32 increments of one word in one
 *     instruction (cuobjdump -sass for sm_90: atomicAdd(mine + v, 1u) is one
 *     ATOMS.POPC.INC.32, as in variant 4; whatever the hardware does with
 *     equal addresses inside one instruction, it does the same here).
 *     Spreading a warp's own equal values is variant 5's job; replication
 *     spreads the atomics of different warps, which the shared-memory unit
 *     otherwise applies to one word one after another.
 *   - Banks. Replica r of bin b is word r x stride + b, in bank
 *     (b + r x stride) % 32. A warp touches only its own replica, so in one
 *     instruction its lanes see variant 4's bank pattern shifted by a
 *     constant, and the merge reads 32 consecutive bins of one replica per
 *     instruction: 32 banks, no conflict. With R > 1 the row stride is made
 *     odd (bins | 1, one word more per replica for even bins), so the R
 *     replicas of one bin lie in R different banks ((b + r x stride) % 32
 *     differs for every r < 32 when stride is odd; with an even stride such
 *     as 256, a multiple of 32, all R lie in bank b % 32). With the default
 *     mapping no instruction touches two replicas (a warp's atomics go to
 *     its own replica, the merge reads 32 consecutive words of one), so the
 *     odd stride buys nothing. It costs one word per replica, and at the
 *     few even bins where R copies fit the budget below unpadded but not
 *     padded, one replica: R = 7 instead of 8 at 1792 bins, 6 instead of 7
 *     at 2048. It
 *     is there for the other mapping, GK06_SPREAD_BY_LANE = 1 (lane l
 *     counts into replica l % R), where the lanes of one warp that hold the
 *     same value land in R replicas in one instruction, and the odd stride
 *     puts those R words in R banks rather than in one bank.
 *   - Shared memory and occupancy: R x stride x 4 bytes per block (plus the
 *     1 KB per block that sm_80 and later reserve), so blocks per SM =
 *     min(2048 / 256 = 8, floor(smem per SM / (R x stride x 4 + 1 KB))).
 *     Copies cost occupancy, and the larger bins is, the fewer fit: R must
 *     shrink as bins grows. The rule (choose_replicas, at run time, from
 *     cudaDevAttrMaxSharedMemoryPerMultiprocessor, ...PerBlockOptin and
 *     cudaDevAttrReservedSharedMemoryPerBlock): R is the number of padded
 *     copies that fit in smem per SM / kMinBlocksPerSm minus the reserved
 *     bytes, at most kMaxReplicas = 8 (one per warp); when fewer than 2
 *     fit, R = 1, unpadded (variant 4's layout, however few blocks per SM
 *     that allows) as long as one copy fits in the opt-in maximum per
 *     block; when not even that, the global fallback. With kMinBlocksPerSm
 *     = 4 on sm_90 (233472 bytes per SM, 232448 per block at most, 1024
 *     reserved) the budget is 233472 / 4 - 1024 = 57344 bytes, 14336 words:
 *         bins          R   bytes per block   blocks per SM (one copy)
 *         1 .. 256      8   32 .. 8224        8 (8)
 *         1024          8   32800             6 (8)
 *         1791          8   57312             4 (8)
 *         4096          3   49164             4 (8)
 *         7168          1   28672             7 (7)
 *         58112         1   232448            1 (1)
 *         above 58112   -   global atomics
 *     (8 is the thread limit, 2048 / 256.) So up to half of the warps an SM
 *     could hold are given up for fewer atomics per word: that is the bet,
 *     and kMinBlocksPerSm (GK06_MIN_BLOCKS_PER_SM) is its knob. On sm_75
 *     (64 KB per SM and per block, none reserved, 4 blocks of 256 per SM)
 *     the budget is 16 KB: R = 8 up to bins = 511, R = 1 from 2048, the
 *     fallback above 16384.
 *   - Zeroing and merge per block: R x stride words zeroed (about
 *     R x bins / 256 stores per thread) and R x bins shared loads, bins
 *     additions and at most bins 64-bit global atomics (nonzero sums only).
 *     The global merge is as large as variant 4's, bins x blocks atomics per
 *     launch at most, because the replicas are added in shared memory
 *     first. A 32-bit sum cannot wrap: a block counts at most one launch's
 *     elements, kChunk = 2^31 < 2^32, over all its replicas together.
 *   - Loads as in variant 4: one element per lane per step, each warp-wide
 *     load 32 consecutive elements (128 bytes for u32, 32 for u8), kUnroll
 *     = 4 in flight per thread. ptxas -v (CUDA 13.0, sm_90) reports 31
 *     registers per thread for u32 and u8, within the 32 that 8 blocks of
 *     256 threads allow (2048 x 32 = 65536, the SM's register file).
 *
 * Bins that do not fit (bins x 4 > cudaDevAttrMaxSharedMemoryPerBlockOptin:
 * bins > 58112 on sm_90, > 16384 on sm_75; 65536, 2^20 and 2^24 on both):
 * variant 1's kernel from common.cuh, one 64-bit global atomic per element,
 * as in variant 4. Not passes over slices of the bins: each pass would read the
 * whole input, ceil(bins / 58112) reads on sm_90, 19 for 2^20 bins and 289
 * for 2^24 (variant 2's header counts this), against one read with one L2
 * atomic per element; over that many bins uniform data spread those atomics
 * thin. Skewed data do not, and there variant 5's aggregated fallback is
 * the one to use.
 *
 * Bound by: the shared-memory atomic unit on contended data, and occupancy
 * (too few loads in flight) where R copies crowd the SM; input bandwidth
 * where atomics are cheap. For bins that do not fit, the L2's atomic
 * throughput.
 *
 * Limits: any n (0 included), any bins from 1 to 2^24. Input at any address
 * (one aligned scalar load per element, as in variant 4). Launches of at
 * most kChunk = 2^31 elements, each adding into counts, which are first
 * zeroed with cudaMemsetAsync; 64-bit loop indices. Exact and the same every
 * run. Workspace: none. Build switches (defaults in the code):
 * GK06_MIN_BLOCKS_PER_SM (4) and GK06_SPREAD_BY_LANE (0: warp w counts into
 * replica w % R; 1: lane l into l % R).
 *
 * Build alone: nvcc -arch=sm_90 -c 06_replicated.cu (with common.cuh, the
 * folder's shared plumbing, next to it: the two files are all a project
 * needs besides the CUDA toolkit)
 */
#include "common.cuh"

namespace {

#ifndef GK06_MIN_BLOCKS_PER_SM
#define GK06_MIN_BLOCKS_PER_SM 4
#endif
#ifndef GK06_SPREAD_BY_LANE
#define GK06_SPREAD_BY_LANE 0
#endif
constexpr unsigned kUnroll = 4;                             /* grid-stride steps per trip: loads in flight */
constexpr unsigned kMaxReplicas = kBlock / 32;              /* 8: one replica per warp at most */
constexpr unsigned kMinBlocksPerSm = GK06_MIN_BLOCKS_PER_SM; /* replicas may cost occupancy down to this */
constexpr bool kSpreadByLane = GK06_SPREAD_BY_LANE != 0;    /* replica by lane instead of by warp */
static_assert(kMinBlocksPerSm >= 1, "GK06_MIN_BLOCKS_PER_SM: at least one block per SM");

/* R replicas of the block's sub-histogram in dynamic shared memory, replica r
 * of bin b at word r x stride + b (stride = bins, or bins | 1 when R > 1).
 * Warp w counts into replica w % R with variant 4's loop; then the replicas
 * are summed per bin and the sums merged into counts. n <= kChunk. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    histogram_replicated(const T *__restrict__ in, unsigned n, unsigned bins, unsigned replicas, unsigned stride,
                         unsigned long long *__restrict__ counts)
{
    extern __shared__ unsigned hist[]; /* replicas x stride 32-bit counters */

    const unsigned words = replicas * stride;
    for (unsigned i = threadIdx.x; i < words; i += kBlock) hist[i] = 0;
    __syncthreads(); /* every replica is zero before any warp counts into it */

    /* This thread's replica: by warp (the default), or by lane. */
    const unsigned r = (kSpreadByLane ? threadIdx.x % 32 : threadIdx.x / 32) % replicas;
    unsigned *const mine = hist + r * stride;

    /* Variant 4's interleaved loop: at each step the grid's threads read
     * consecutive elements (a warp: 32 consecutive elements, coalesced);
     * kUnroll steps per trip, their loads issued before the first atomic. A
     * step past n reads as bins, a value that is never counted. 64-bit
     * indices: i + 3 * stride may pass 2^32. */
    const size_t grid = (size_t)gridDim.x * kBlock;
    for (size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x; i < n; i += kUnroll * grid) {
        unsigned v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) v[u] = i + u * grid < n ? (unsigned)in[i + u * grid] : bins;
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            if (v[u] < bins) atomicAdd(mine + v[u], 1u); /* shared atomic into this warp's replica */
    }
    __syncthreads(); /* every warp's counts, in every replica, are in place before the sums read them */

    /* Thread t sums bin t, t + kBlock, ... over the replicas: each load
     * instruction reads 32 consecutive words of one replica (32 banks, no
     * conflict). The block counted at most n < 2^32 elements over all its
     * replicas, so the 32-bit sum cannot wrap; zero sums cost no atomic. */
    for (unsigned b = threadIdx.x; b < bins; b += kBlock) {
        unsigned s = 0;
        for (unsigned k = 0; k < replicas; ++k) s += hist[k * stride + b];
        if (s) atomicAdd(counts + b, (unsigned long long)s);
    }
}

/* R, the replicas per block, and their row stride in words (see the
 * header): as many copies as fit in smem_per_sm / kMinBlocksPerSm less the
 * per-block reservation, at most kMaxReplicas; 1 (unpadded) when fewer than
 * 2 fit; 0 when not even one fits in a block (bins x 4 > smem_optin). */
unsigned choose_replicas(size_t bins, size_t smem_per_sm, size_t smem_optin, size_t reserved, unsigned *stride)
{
    *stride = (unsigned)bins;
    if (bins * sizeof(unsigned) > smem_optin) return 0;
    const size_t padded = (bins | 1) * sizeof(unsigned); /* an odd row: replicas of a bin in different banks */
    const size_t share = smem_per_sm / kMinBlocksPerSm;
    size_t budget = share > reserved ? share - reserved : 0; /* bytes per block at kMinBlocksPerSm blocks */
    if (budget > smem_optin) budget = smem_optin;
    size_t r = budget / padded;
    if (r > kMaxReplicas) r = kMaxReplicas;
    if (r < 2) return 1; /* one copy, unpadded: variant 4's layout */
    *stride = (unsigned)(bins | 1);
    return (unsigned)r;
}

/* The device's shared memory per SM and what the system reserves per block
 * (1 KB on sm_80 and newer, 0 before). */
cudaError_t smem_per_sm(int *bytes, int *reserved)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev);
    return e;
}

/* How many replicas fit? None: variant 1's kernel (variant 2's header says
 * why not passes over slices of the bins). Then the resident grid at the
 * replicas' shared memory, as in variant 4. */
template <typename T>
cudaError_t run(const T *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    int per_sm_bytes = 0, optin = 0, reserved = 0;
    cudaError_t e = smem_per_block_optin(&optin);
    if (!e) e = smem_per_sm(&per_sm_bytes, &reserved);
    if (e) return e;
    unsigned stride = 0;
    const unsigned replicas = choose_replicas(bins, (size_t)per_sm_bytes, (size_t)optin, (size_t)reserved, &stride);
    const size_t smem = (size_t)replicas * stride * sizeof(unsigned);
    size_t resident = 0;
    if (replicas > 0) e = setup_private(histogram_replicated<T>, smem, &resident);
    if (e) return e;
    if (resident == 0) return run_global(in, n, bins, counts, stream);
    return each_launch(n, [&](size_t off, size_t len) {
        histogram_replicated<T><<<resident_grid(len, resident), kBlock, smem, stream>>>(
            in + off, (unsigned)len, (unsigned)bins, replicas, stride, counts);
    });
}

} // namespace

extern "C" size_t gk_histogram_06_replicated_workspace(size_t, size_t, int) { return 0; }

extern "C" cudaError_t gk_histogram_06_replicated_run(const void *in, size_t n, int dtype, size_t bins,
                                                      unsigned long long *counts, void *, cudaStream_t stream)
{
    return run_by_dtype(in, n, dtype, bins, counts, stream, run<uint8_t>, run<uint32_t>);
}
