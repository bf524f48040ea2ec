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
 * kernel, copied below; variant 2's header explains why not passes over
 * slices of the bins. Input at any address (aligned scalar loads). Launches
 * of at most 2^31 elements: a block counts at most the elements it reads in
 * one launch, below 2^32, so no 32-bit shared counter wraps; the loop's
 * indices are 64-bit, since i + 3 x stride can pass 2^32. The grid depends
 * on the GPU; the counts do not. Exact and the same every run. Workspace:
 * none.
 *
 * Build alone: nvcc -arch=sm_90 -c 04_coarsened_interleaved.cu
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

/* How many blocks of `kernel` (kBlock threads, smem bytes of dynamic shared
 * memory) the current GPU holds at once: SMs x blocks per SM, from the
 * occupancy calculator, which counts threads, registers and shared memory.
 * 0 if not even one block fits. */
template <typename K>
cudaError_t resident_blocks(K kernel, size_t smem, size_t *blocks)
{
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)kBlock, smem);
    *blocks = e == cudaSuccess ? (size_t)sms * (size_t)per_sm : 0;
    return e;
}

/* ---- The variant. ----------------------------------------------------- */
constexpr unsigned kUnroll = 4; /* grid-stride steps per trip: loads in flight per thread */

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

    /* Lane l of a warp merges counter b + l: the warp's global atomics go to
     * 32 consecutive counters (256 contiguous bytes). A block counts at most
     * n < 2^32 elements, so c cannot have wrapped; zero counters cost no
     * atomic. */
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

    /* Does the private copy fit? If not, variant 1's kernel (variant 2's
     * header says why not passes over slices of the bins). */
    const size_t smem = bins * sizeof(unsigned);
    int optin = 0;
    e = smem_per_block_optin(&optin);
    if (e) return e;
    if (smem > (size_t)optin) return run_global<T>(in, n, (unsigned)bins, counts, stream);
    /* Above 48 KB a kernel must opt in. The limit is set to the device's
     * maximum, the same value for every call, so that two host threads
     * calling with different bins cannot lower it under each other's launch.
     * It comes before the occupancy query, which needs the kernel allowed to
     * use smem bytes. */
    if (smem > kSmemNoOptin) {
        e = cudaFuncSetAttribute(histogram_private<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
        if (e) return e;
    }
    size_t resident = 0;
    e = resident_blocks(histogram_private<T>, smem, &resident);
    if (e) return e;
    if (resident == 0) return run_global<T>(in, n, (unsigned)bins, counts, stream);

    for (size_t off = 0; off < n; off += kChunk) {
        const size_t len = n - off < kChunk ? n - off : kChunk;
        /* The resident grid, or fewer blocks when len needs fewer (at least
         * one element per thread). */
        const size_t blocks = ceil_div(len, kBlock) < resident ? ceil_div(len, kBlock) : resident;
        histogram_private<T><<<(unsigned)blocks, kBlock, smem, stream>>>(in + off, (unsigned)len, (unsigned)bins,
                                                                         counts);
        e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" size_t gk_histogram_04_coarsened_interleaved_workspace(size_t n, size_t bins, int dtype)
{
    (void)n;
    (void)bins;
    (void)dtype;
    return 0;
}

/* dtype: 2 = u8 (bins <= 256), 3 = u32; 1 <= bins <= 2^24 (checked by the caller). */
extern "C" cudaError_t gk_histogram_04_coarsened_interleaved_run(const void *in, size_t n, int dtype, size_t bins,
                                                                unsigned long long *counts, void *workspace,
                                                                cudaStream_t stream)
{
    (void)workspace;
    if (dtype == 2) return run<uint8_t>(in, n, bins, counts, stream);
    if (dtype == 3) return run<uint32_t>(in, n, bins, counts, stream);
    return cudaErrorInvalidValue;
}
