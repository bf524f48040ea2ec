/* Variant 3: privatized and coarsened, contiguous partitioning.
 *
 * The idea (PMPP, 4th ed., chapter 9, thread coarsening, the contiguous
 * partitioning): variant 2 pays for zeroing and merging a private histogram
 * once per block, and its blocks live for 256 elements each. Here the grid
 * is the number of blocks the GPU holds at once (SMs x blocks per SM from
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, for this kernel with 256
 * threads and bins x 4 bytes of shared memory), and each block stays alive
 * for its whole share of the input. Each thread takes one contiguous chunk
 * of per_thread = ceil(len / (blocks x 256)) elements: thread t of the
 * grid reads elements t x per_thread .. (t + 1) x per_thread - 1, in order.
 * Small inputs get fewer blocks, ceil(len / 256), one element per thread at
 * least. The kernel body is variant 2's except for the loop; the launcher
 * differs in the grid.
 *
 * What changed from variant 2 and why it is faster, counted (on a GPU with
 * 132 SMs, an H100 SXM or H200, and bins <= 7040, where 8 blocks fit per SM
 * as variant 2's header derives: 1056 blocks, 270336 threads):
 *   - The merge is paid once per resident block, bins x 1056 shared stores
 *     and loads and at most that many global atomics per launch, whatever
 *     the input's length. At len = 2^24 with 256 bins: 1056 x 256 = 270336
 *     of each, 270336 / 2^24 = 0.016 per element, where variant 2 spends 2
 *     shared operations and (uniform u8) 0.63 global atomics per element.
 *     With 4096 bins: 1056 x 4096 = 4325376, 0.26 per element, against
 *     variant 2's 32 and up to 1.
 *   - Elements per thread: per_thread = ceil(2^24 / 270336) = 63 at
 *     len = 2^24 (993 at 2^28), against 1. The per-element work left is the
 *     load, the compare and one shared atomic.
 *   - Barriers: still 2 per block, now 2 per 256 x 63 elements at 2^24.
 *   - Fewer blocks also means fewer merges when shared memory limits the
 *     blocks per SM: at 16384 bins, 3 blocks per SM, 396 blocks, 6488064
 *     merge slots.
 *
 * Why contiguous partitioning is NOT coalesced: at trip k of the loop,
 * lane l of a warp whose first thread is grid thread t0 reads element
 * (t0 + l) x per_thread + k. The warp's 32 addresses are per_thread
 * elements apart, not adjacent. Once they are 32 bytes apart or more
 * (per_thread >= 8 for u32, >= 32 for u8; it is 63 at len = 2^24), every
 * lane's load falls in its own 32-byte sector: one warp load asks the
 * memory system for 32 sectors, 1024 bytes, to deliver 128 useful bytes
 * (u32) or 32 (u8), where a coalesced load asks for 4 sectors (u32) or 1
 * (u8). Per element that is 1 sector request instead of 1/8 (u32) or 1/32
 * (u8), and one load instruction touches up to 32 different 128-byte lines
 * instead of one (at len = 2^24, u32 lanes are 63 x 4 = 252 bytes apart:
 * 32 lines; u8 lanes are 63 bytes apart: 16 lines). The rest of each
 * sector is used only by the same thread's later trips (8 trips for u32,
 * 32 for u8), and only if the sector is still in L1 or L2 by then: each
 * SM's 2048 threads keep 2048 sectors in use at once (64 KB), the whole
 * grid 270336 sectors (8.25 MiB). A sector evicted before its thread is
 * done with it is fetched again: at worst 8 times (u32) or 32 times (u8)
 * the bytes the input holds. (On a CPU, contiguous chunks are the right
 * choice: each thread runs on its own core and streams through its own
 * cache lines. On a GPU the warp is the unit that reads memory.) Variant 4
 * fixes the order.
 *
 * Loads in flight: nvcc unrolls the ++i loop 4 times by itself (cuobjdump
 * -sass for sm_90: four LDG, then four ATOMS.POPC.INC.32), so each thread
 * has 4 loads in flight, 2048 x 4 = 8192 per SM (32 KB of u32 elements, 8
 * KB of u8). Registers (ptxas -v, CUDA
 * 13.0, sm_90): 20 per thread, below 32, so 8 blocks of 256 still fit per
 * SM.
 *
 * Bound by (expected; the bench decides): the memory system's request rate
 * (32 sector requests per warp load) and any sector fetched more than once,
 * then the shared atomics. The merge is now small for few bins.
 *
 * Limits and fallbacks: as variant 2. Bins whose private copy exceeds
 * cudaDevAttrMaxSharedMemoryPerBlockOptin (bins > 58112 on sm_90, > 16384
 * on sm_75; 65536, 2^20 and 2^24 on both) take variant 1's global-atomic
 * kernel, from common.cuh; variant 2's header explains why not passes over
 * slices of the bins. Input at any address (aligned scalar loads). Launches
 * of at most 2^31 elements: a block counts at most the elements it reads in
 * one launch, below 2^32, so no 32-bit shared counter wraps, and indices
 * below 2^31 fit the 32-bit loop variable (the chunk bounds are computed in
 * 64 bits and clipped to n first). The grid, and so each thread's chunk,
 * depends on the GPU; the counts do not. Exact and the same every run.
 * Workspace: none.
 *
 * Build alone: nvcc -arch=sm_90 -c 03_coarsened_contiguous.cu
 * (with common.cuh, the folder's shared plumbing, next to it: the two files
 * are all a project needs besides the CUDA toolkit)
 */
#include "common.cuh"

namespace {


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

    /* Contiguous partitioning: thread t of the grid owns elements
     * [t * per_thread, (t + 1) * per_thread), clipped to n. The bounds are
     * computed in 64 bits (t * per_thread can pass 2^32 for the idle threads
     * at the end of the grid) and clipped before they become 32-bit. */
    const size_t threads = (size_t)gridDim.x * kBlock;
    const size_t per_thread = (n + threads - 1) / threads;
    const size_t first = ((size_t)blockIdx.x * kBlock + threadIdx.x) * per_thread;
    const unsigned begin = first < n ? (unsigned)first : n;
    const unsigned end = n - begin < per_thread ? n : begin + (unsigned)per_thread;
    for (unsigned i = begin; i < end; ++i) {
        const unsigned v = in[i]; /* lane l + 1 reads per_thread elements after lane l: not coalesced */
        if (v < bins) atomicAdd(hist + v, 1u); /* shared-memory atomic: stays in this SM */
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

extern "C" size_t gk_histogram_03_coarsened_contiguous_workspace(size_t, size_t, int) { return 0; }

extern "C" cudaError_t gk_histogram_03_coarsened_contiguous_run(const void *in, size_t n, int dtype, size_t bins,
                                                                unsigned long long *counts, void *, cudaStream_t stream)
{
    return run_by_dtype(in, n, dtype, bins, counts, stream, run<uint8_t>, run<uint32_t>);
}
