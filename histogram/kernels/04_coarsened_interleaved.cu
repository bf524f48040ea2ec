/* Variant 4: privatized and coarsened, interleaved partitioning.
 *
 * The idea (PMPP, 4th ed., chapter 9, thread coarsening, the interleaved
 * partitioning): variant 3's grid and private histograms, but the elements
 * are dealt out the other way round. Instead of each thread walking its own
 * contiguous chunk, the grid walks the input together in a grid-stride
 * loop: at step s, thread t of the grid reads element s x stride + t
 * (stride = the grid's thread count). Consecutive threads read consecutive
 * elements at every step, so each warp-wide load is one contiguous run of
 * 32 elements. Each thread still gets ceil or floor of len / stride
 * elements (62 or 63 at len = 2^24 on the 1056 x 256 = 270336-thread grid
 * of variant 3's header), and the merge is the same: bins x resident blocks.
 * Against variant 3 only the loop changed; against variant 2, the grid and
 * the unrolling of the same grid-stride loop.
 *
 * Why it beats contiguous partitioning, counted:
 *   - Coalescing. One warp load reads 32 consecutive elements: 128 bytes for
 *     u32, 4 sectors of 32 bytes (5 when `in` is not 32-byte aligned), and
 *     32 bytes for u8, 1 sector (2 when `in` is not 32-byte aligned), where
 *     variant 3 needs 32 sectors per warp load, one per lane. Per element:
 *     1/8 sector request (u32) or 1/32 (u8) instead of 1, a factor of 8 or
 *     32 fewer requests and L1 tag look-ups.
 *   - DRAM transactions per element. Every byte of a sector this loop
 *     fetches is used at once, by the load that asked for it (apart from
 *     the sectors a misaligned `in` splits between two neighbouring warps
 *     of the same step). So DRAM reads the input once, 4 bytes (1/8
 *     sector) per u32 element and 1 byte (1/32 sector) per u8 element,
 *     whatever the caches hold. Variant 3 reaches that minimum only if each sector survives in
 *     L1 or L2 until its thread's 8 (u32) or 32 (u8) trips over it are done,
 *     and reads it again from L2 or DRAM each time it does not.
 *   - Loads in flight, kept equal. Each trip of the loop does kUnroll = 4
 *     steps: it issues 4 loads and only then the 4 shared atomics that use
 *     them (cuobjdump -sass for sm_90: four predicated LDG, then four
 *     ATOMS.POPC.INC.32). nvcc unrolls variant 3's ++i loop the same way by
 *     itself, but not a plain grid-stride loop, which would leave one load in
 *     flight per thread. With 4: 2048 threads x 4 x 4 bytes = 32 KB in
 *     flight per SM for u32, 8 KB for u8, the same as variant 3, so the
 *     comparison of the two is a comparison of the access orders. Steps past
 *     the end read as the value bins, which is never counted.
 *
 * Bound by (expected; the bench decides): one shared atomic per element,
 * that is per 4 bytes read for u32 and per byte for u8. For u32 that is
 * DRAM bandwidth or the shared-atomic rate; for u8, with four times the
 * atomics per byte and 1-byte loads, the shared atomics and instruction
 * issue (load, compare, atomic and index arithmetic per element) rather
 * than DRAM. For skewed inputs, collisions of many lanes on one shared
 * counter. What the next steps would change: u8 read 4 or 16 bytes per load
 * (vector loads, which need a scalar head and tail for a pointer at any
 * byte address); equal values in a warp combined before the atomic with
 * __match_any_sync (CUDA C++ Programming Guide, warp match functions,
 * sm_70 and newer) or runs of equal values combined in a register (PMPP's
 * aggregation); one private copy per warp instead of per block, so that
 * fewer threads share a counter (NVIDIA's cuda-samples histogram256 keeps
 * one sub-histogram per warp). CUB's DeviceHistogram is the production
 * reference.
 *
 * Resources: ptxas -v (CUDA 13.0, sm_90) gives 21 registers per thread for
 * u32, 24 for u8: below 32, so registers do not limit the 8 blocks of 256
 * per SM; shared memory and occupancy as variant 2's header counts them.
 *
 * Limits and fallbacks: as variant 3. Bins whose private copy exceeds
 * cudaDevAttrMaxSharedMemoryPerBlockOptin (bins > 58112 on sm_90, > 16384
 * on sm_75; 65536, 2^20 and 2^24 on both) take variant 1's global-atomic
 * kernel, from common.cuh; variant 2's header explains why not passes over
 * slices of the bins. Input at any address (aligned scalar loads). Launches
 * of at most 2^31 elements: a block counts at most the elements it reads in
 * one launch, below 2^32, so no 32-bit shared counter wraps; the loop's
 * indices are 64-bit, since i + 3 x stride can pass 2^32. The grid depends
 * on the GPU; the counts do not. Exact and the same every run. Workspace:
 * none.
 *
 * Build alone: nvcc -arch=sm_90 -c 04_coarsened_interleaved.cu
 * (with common.cuh, the folder's shared plumbing, next to it: the two files
 * are all a project needs besides the CUDA toolkit)
 */
#include "common.cuh"

namespace {

constexpr unsigned kUnroll = 4; /* grid-stride steps per trip: loads in flight per thread */

/* A private histogram per block: zero it, count into it with shared atomics,
 * merge its nonzero counters into counts. Launched with bins * 4 bytes of
 * dynamic shared memory; n <= kChunk. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    histogram_private(const T *__restrict__ in, unsigned n, unsigned bins, unsigned long long *__restrict__ counts)
{
    extern __shared__ unsigned hist[]; /* bins 32-bit counters: this block's sub-histogram */

    zero_private(hist, bins);
    __syncthreads(); /* every counter is zero before any thread counts into it */

    /* Interleaved partitioning, a grid-stride loop: at each step the grid's
     * threads read consecutive elements, so lane l + 1 reads the element after
     * lane l's. kUnroll steps per trip, their loads all issued before the
     * first atomic needs one (nvcc does this by itself for variant 3's loop,
     * not for a grid-stride loop). A step past n reads as bins, a value that
     * is never counted. 64-bit indices: i + 3 * stride may pass 2^32. */
    const size_t stride = (size_t)gridDim.x * kBlock;
    for (size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x; i < n; i += kUnroll * stride) {
        unsigned v[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) /* each: a warp reads 32 consecutive elements, coalesced */
            v[u] = i + u * stride < n ? (unsigned)in[i + u * stride] : bins;
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u)
            if (v[u] < bins) atomicAdd(hist + v[u], 1u); /* shared-memory atomic: stays in this SM */
    }
    __syncthreads(); /* every thread's counts are in hist before any thread reads a counter to merge it */

    /* Merge as in variant 2 (common.cuh's merge_private). A block counts at
     * most n < 2^32 elements, so no counter can have wrapped. */
    merge_private(hist, bins, counts);
}

/* The resident grid: SMs x blocks per SM for this kernel at bins x 4 bytes
 * of shared memory (fewer blocks when a launch has fewer than one element per
 * thread), or variant 1's kernel when the private copy does not fit (variant
 * 2's header says why not passes over slices of the bins); common.cuh's
 * run_resident. */
template <typename T>
cudaError_t run(const T *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    return run_resident(histogram_private<T>, in, n, bins, counts, stream);
}

} // namespace

extern "C" size_t gk_histogram_04_coarsened_interleaved_workspace(size_t, size_t, int) { return 0; }

extern "C" cudaError_t gk_histogram_04_coarsened_interleaved_run(const void *in, size_t n, int dtype, size_t bins,
                                                                 unsigned long long *counts, void *,
                                                                 cudaStream_t stream)
{
    return run_by_dtype(in, n, dtype, bins, counts, stream, run<uint8_t>, run<uint32_t>);
}
