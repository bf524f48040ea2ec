/* Variant 2: privatized, one sub-histogram per block in shared memory.
 *
 * The idea (PMPP, 4th ed., chapter 9, privatization): give every block its
 * own private copy of the histogram, bins 32-bit counters in shared memory.
 * The block counts its elements into that copy with shared-memory atomics,
 * then adds the copy into counts once. Three phases, two barriers:
 *   1. zero: thread t clears counters t, t + 256, ... (ceil(bins / 256)
 *      stores per thread);
 *   2. count: one element per thread, one shared atomicAdd when the value
 *      is below bins;
 *   3. merge: thread t reads counters t, t + 256, ... and adds each nonzero
 *      one into counts with one 64-bit global atomicAdd.
 * What makes this pay is that shared-memory atomics have been native
 * instructions of the SM since Maxwell, where Kepler emulated them with a
 * lock-update-unlock loop (NVIDIA Developer Blog, "GPU Pro Tip: Fast
 * Histograms Using Shared Atomics on Maxwell", 2015).
 *
 * What changed from variant 1 and why it is faster, counted:
 *   - Where the per-element atomic lands: in the SM's own shared memory
 *     (ATOMS), not in an L2 slice across the chip: no L2 traffic, a shorter
 *     round trip, and each SM serves its own blocks' atomics, so all SMs
 *     work in parallel instead of queueing at the same few L2 slices.
 *   - Contention: a global counter now receives at most one atomic per
 *     block instead of one per element. For an input that is all one bin,
 *     variant 1's n atomics on one address become n / 256 (one per block of
 *     kBlock = 256 elements). Within the block, up to 256 threads still
 *     hit one shared counter (32 of them in one warp instruction), but that
 *     collision is resolved inside one SM, not in one queue for the whole
 *     GPU. (cuobjdump -sass for sm_90 shows the count as one
 *     ATOMS.POPC.INC.32 per element, the compiler's form of a shared +1;
 *     how the SM resolves equal addresses within it is not documented, and
 *     nothing here depends on it.)
 *   - Global atomics: at most one per nonzero bin per block, so at most
 *     min(bins, 256) per block of 256 elements: at most 1 per element, never
 *     more than variant 1.
 *
 * The price, and why many small blocks make it expensive: the grid is
 * still one thread per element, ceil(len / 256) blocks (the grid-stride loop
 * runs once per thread), and every block pays phases 1 and 3 for only 256
 * elements. Per element that is 2 x bins / 256 shared-memory operations of
 * overhead (a store to zero, a load to merge) and 2 barriers per 256
 * elements, plus the merge's global atomics, at most min(bins, 256) x
 * blocks of them (a block's 256 elements fill at most 256 bins):
 *   - bins = 256 (u8): 2 shared operations per element, fine; but for
 *     uniform u8 data a block's 256 values fall into about
 *     256 x (1 - (255/256)^256) = 162 distinct bins, so the merge still
 *     issues 162 / 256 = 0.63 global atomics per element: only 37% fewer
 *     than variant 1 (contention is what improved, not the count);
 *   - bins = 4096: 2 x 4096 / 256 = 32 shared operations per element of
 *     overhead for one useful shared atomic, and up to 256 global atomics
 *     per block (1 per element) when the values are spread;
 *   - bins = 58112 (the most that fits on sm_90, below): 454 of them.
 * The cost is per block, and a block lives for 256 elements: variant 3 keeps
 * the number of blocks fixed and gives each many more elements.
 *
 * Shared memory and occupancy: bins x 4 bytes per block, plus the 1 KB per
 * block that the system reserves on sm_80 and newer. An sm_90 SM has 228 KB
 * (233472 bytes) of shared memory and holds at most 2048 threads, 8 blocks
 * of 256; shared memory allows floor(233472 / (4 x bins + 1024)) blocks:
 * all 8 for bins <= 7040 (u8's 256 bins: 1024 + 1024 bytes per block), 3 at
 * bins = 16384 (66560 bytes), 1 above bins = 28928. Registers do not limit
 * it (ptxas -v, CUDA 13.0, sm_90: 12 registers per thread, and even 32
 * would fit, 8 x 256 threads x 32 = 65536, the SM's register file).
 *
 * Bins that do not fit: a block may ask for at most
 * cudaDevAttrMaxSharedMemoryPerBlockOptin bytes (227 KB = 232448 on sm_90,
 * 64 KB = 65536 on sm_75), so bins <= 232448 / 4 = 58112 are privatized on
 * sm_90 and bins <= 16384 on sm_75. More bins (65536, 2^20, 2^24) fall back
 * to variant 1's kernel, from common.cuh: one global atomic per element, no
 * shared memory. The other way out, passes that each privatize
 * a slice of the bins and each read the whole input, costs
 * ceil(bins / 58112) full reads of the input on sm_90: 2 for 65536 bins,
 * 289 for 2^24 (1024 on sm_75), so the input read alone becomes up to 289
 * times variant 1's, while the merge still adds every bin of every block,
 * bins x blocks in all, the same total as without passes. Against that, the
 * global atomics' weak spot is contention, and with that many bins uniform
 * data spreads them thin. The fallback loses on a skewed input with many
 * bins, which runs at variant 1's speed.
 *
 * Bound by: for few bins, the shared atomics and the per-block overhead
 * above (instruction issue and barriers); for bins in the thousands, the
 * zeroing and merging, which grow with bins x blocks.
 *
 * Limits: 256 threads per block; dynamic shared memory, with
 * cudaFuncSetAttribute above the 48 KB that needs no opt-in; the fallback
 * above 232448 bytes (sm_90). Input at any address (one aligned scalar load
 * per element, as in variant 1). Launches of at most 2^31 elements, so no
 * 32-bit shared counter can wrap (a block counts at most the 256 elements
 * it reads) and the 32-bit index cannot (as in variant 1). Exact and the
 * same every run. Workspace: none.
 *
 * Build alone: nvcc -arch=sm_90 -c 02_privatized.cu (with common.cuh, the
 * folder's shared plumbing, next to it: the two files are all a project
 * needs besides the CUDA toolkit)
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

    /* One element per thread: the grid covers n, so this loop runs once
     * (the same loop as variant 1; only the atomic's target changed). */
    const unsigned stride = gridDim.x * kBlock;
    for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < n; i += stride) {
        const unsigned v = in[i];
        if (v < bins) atomicAdd(hist + v, 1u); /* shared-memory atomic: stays in this SM */
    }
    __syncthreads(); /* every thread's counts are in hist before any thread reads a counter to merge it */

    /* Merge (common.cuh's merge_private): one 64-bit global atomic per nonzero
     * counter, lane l of a warp on counter b + l. A block counts at most 256
     * elements, so no counter can have wrapped. */
    merge_private(hist, bins, counts);
}

/* Does the private copy fit? If not, variant 1's kernel (the header says why
 * not passes over slices of the bins). One thread per element, as in
 * variant 1: ceil(len / kBlock) blocks per launch. */
template <typename T>
cudaError_t run(const T *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    const size_t smem = bins * sizeof(unsigned);
    bool fits = false;
    cudaError_t e = allow_smem(histogram_private<T>, smem, &fits);
    if (e) return e;
    if (!fits) return run_global(in, n, bins, counts, stream);
    return each_launch(n, [&](size_t off, size_t len) {
        histogram_private<T><<<(unsigned)ceil_div(len, kBlock), kBlock, smem, stream>>>(in + off, (unsigned)len,
                                                                                        (unsigned)bins, counts);
    });
}

} // namespace

extern "C" size_t gk_histogram_02_privatized_workspace(size_t, size_t, int) { return 0; }

extern "C" cudaError_t gk_histogram_02_privatized_run(const void *in, size_t n, int dtype, size_t bins,
                                                      unsigned long long *counts, void *, cudaStream_t stream)
{
    return run_by_dtype(in, n, dtype, bins, counts, stream, run<uint8_t>, run<uint32_t>);
}
