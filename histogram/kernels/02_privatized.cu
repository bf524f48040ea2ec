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
 * to variant 1's kernel, copied into this file: one global atomic per
 * element, no shared memory. The other way out, passes that each privatize
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
 * Build alone: nvcc -arch=sm_90 -c 02_privatized.cu
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

namespace {

/* ---- Helpers. Each histogram kernel file carries this block so that it
 * compiles on its own: copy one file into your project and it builds. ---- */
constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }
constexpr size_t kChunk = (size_t)1 << 31; /* elements per launch: 32-bit indices and counters never wrap */
constexpr unsigned kBlock = 256;           /* threads per block, in every kernel of the file */

/* One 64-bit global atomicAdd per element whose value is below bins: variant
 * 1, and the fallback of the later variants for bins that do not fit in
 * shared memory. n <= kChunk = 2^31, so i < 2^31 and stride <= 2^31 (the
 * grid is ceil(n / kBlock) blocks at most) keep i + stride below 2^32: the
 * 32-bit index cannot wrap. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    histogram_global(const T *__restrict__ in, unsigned n, unsigned bins, unsigned long long *__restrict__ counts)
{
    const unsigned stride = gridDim.x * kBlock;
    for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < n; i += stride) {
        const unsigned v = in[i];
        if (v < bins) atomicAdd(counts + v, 1ull); /* result unused: a RED, the thread does not wait */
    }
}

/* Queues histogram_global over [in, in + n) in launches of at most kChunk
 * elements, one thread per element, each launch adding into counts. */
template <typename T>
cudaError_t run_global(const T *in, size_t n, unsigned bins, unsigned long long *counts, cudaStream_t stream)
{
    for (size_t off = 0; off < n; off += kChunk) {
        const size_t len = n - off < kChunk ? n - off : kChunk;
        histogram_global<T><<<(unsigned)ceil_div(len, kBlock), kBlock, 0, stream>>>(in + off, (unsigned)len, bins,
                                                                                    counts);
        cudaError_t e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

/* The most dynamic shared memory one block may ask for on the current GPU
 * (after cudaFuncSetAttribute): 232448 bytes on sm_90, 65536 on sm_75. */
cudaError_t smem_per_block_optin(int *bytes)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    return e;
}

constexpr size_t kSmemNoOptin = 48 * 1024; /* dynamic shared memory a launch may use without the attribute */

/* ---- The variant. ----------------------------------------------------- */

/* A private histogram per block: zero it, count into it with shared atomics,
 * merge its nonzero counters into counts. Launched with bins * 4 bytes of
 * dynamic shared memory; n <= kChunk. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    histogram_private(const T *__restrict__ in, unsigned n, unsigned bins, unsigned long long *__restrict__ counts)
{
    extern __shared__ unsigned hist[]; /* bins 32-bit counters: this block's sub-histogram */

    for (unsigned b = threadIdx.x; b < bins; b += kBlock) hist[b] = 0;
    __syncthreads(); /* every counter is zero before any thread counts into it */

    /* One element per thread: the grid covers n, so this loop runs once
     * (the same loop as variant 1; only the atomic's target changed). */
    const unsigned stride = gridDim.x * kBlock;
    for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < n; i += stride) {
        const unsigned v = in[i];
        if (v < bins) atomicAdd(hist + v, 1u); /* shared-memory atomic: stays in this SM */
    }
    __syncthreads(); /* every thread's counts are in hist before any thread reads a counter to merge it */

    /* Lane l of a warp merges counter b + l: the warp's global atomics go to
     * 32 consecutive counters (256 contiguous bytes). A block counts at most
     * 256 elements, so c cannot have wrapped; zero counters cost no atomic. */
    for (unsigned b = threadIdx.x; b < bins; b += kBlock) {
        const unsigned c = hist[b];
        if (c) atomicAdd(counts + b, (unsigned long long)c);
    }
}

template <typename T>
cudaError_t run(const void *in_, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    const T *in = (const T *)in_;
    /* counts is overwritten, not accumulated into: start from zeros (all-zero
     * bits are 0 for a 64-bit counter). */
    cudaError_t e = cudaMemsetAsync(counts, 0, bins * sizeof(unsigned long long), stream);
    if (e || n == 0) return e;

    /* Does the private copy fit? If not, variant 1's kernel (the header says
     * why not passes over slices of the bins). */
    const size_t smem = bins * sizeof(unsigned);
    int optin = 0;
    e = smem_per_block_optin(&optin);
    if (e) return e;
    if (smem > (size_t)optin) return run_global<T>(in, n, (unsigned)bins, counts, stream);
    /* Above 48 KB a kernel must opt in. The limit is set to the device's
     * maximum, the same value for every call, so that two host threads
     * calling with different bins cannot lower it under each other's launch. */
    if (smem > kSmemNoOptin) {
        e = cudaFuncSetAttribute(histogram_private<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
        if (e) return e;
    }

    for (size_t off = 0; off < n; off += kChunk) {
        const size_t len = n - off < kChunk ? n - off : kChunk;
        histogram_private<T><<<(unsigned)ceil_div(len, kBlock), kBlock, smem, stream>>>(in + off, (unsigned)len,
                                                                                        (unsigned)bins, counts);
        e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" size_t gk_histogram_02_privatized_workspace(size_t n, size_t bins, int dtype)
{
    (void)n;
    (void)bins;
    (void)dtype;
    return 0;
}

/* dtype: 2 = u8 (bins <= 256), 3 = u32; 1 <= bins <= 2^24 (checked by the caller). */
extern "C" cudaError_t gk_histogram_02_privatized_run(const void *in, size_t n, int dtype, size_t bins,
                                                      unsigned long long *counts, void *workspace,
                                                      cudaStream_t stream)
{
    (void)workspace;
    if (dtype == 2) return run<uint8_t>(in, n, bins, counts, stream);
    if (dtype == 3) return run<uint32_t>(in, n, bins, counts, stream);
    return cudaErrorInvalidValue;
}
