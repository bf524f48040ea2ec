/* histogram/kernels/common.cuh: the plumbing that the histogram kernel files
 * share, written once.
 *
 * Every kernel file of this folder includes this header (#include
 * "common.cuh", found next to the file) and nothing else of the library: to
 * use one variant in your own project, copy its file and this header; the
 * CUDA toolkit is all the two need. What is here is what several variants
 * do the same way, so that each kernel file shows only its own step:
 *   - kChunk, the most elements one launch takes (2^31: 32-bit indices and
 *     32-bit shared counters never wrap); kBlock = 256, the block size of
 *     variants 1-6; ceil_div;
 *   - histogram_global, variant 1's kernel (one 64-bit global atomicAdd per
 *     sample), and run_global, its launcher: variant 1 itself, and the
 *     fallback of variants 2, 3, 4 and 6 for bins whose private copy does not
 *     fit in shared memory (variant 2's header says why not passes over
 *     slices of the bins);
 *   - zero_private and merge_private, the first and last phases of a
 *     block's private histogram (variant 2), which variants 2-5 share;
 *   - the shared-memory and occupancy set-up: smem_per_block_optin,
 *     allow_smem (the opt-in above 48 KB, set so that calls from several
 *     host threads cannot race: see there), resident_blocks (the resident
 *     grid of variants 3-7) and setup_private, which does the last two;
 *   - the launch loop, each_launch (n cut into launches of at most kChunk
 *     elements, every launch checked), and the launchers that variants 3, 4
 *     and 5 share: launch_resident and run_resident;
 *   - run_by_dtype, what every extern "C" entry point does first: zero the
 *     counts, stop at n = 0, pick the u8 or the u32 path.
 * Everything is in an anonymous namespace, so that all the kernel files of
 * one library can include it without clashing at link time (each gets its
 * own copy), and a template that a file does not use costs it nothing: no
 * code is generated for it.
 */
#ifndef GK_HISTOGRAM_KERNELS_COMMON_CUH
#define GK_HISTOGRAM_KERNELS_COMMON_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

namespace {

constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }
constexpr size_t kChunk = (size_t)1 << 31; /* elements per launch: 32-bit indices and counters never wrap */
constexpr unsigned kBlock = 256;           /* threads per block of variants 1-6 */
constexpr size_t kSmemNoOptin = 48 * 1024; /* dynamic shared memory a launch may use without the attribute */

/* ---- Variant 1's kernel, the global-atomic fallback of the others. ----- */

/* One 64-bit global atomicAdd per element whose value is below bins: variant
 * 1, and the fallback of variants 2, 3, 4 and 6 for bins that do not fit in
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

/* Cuts [0, n) into launches of at most kChunk elements and calls
 * launch(off, len) for each; launch queues one kernel over [off, off + len),
 * whose launch error is checked before the next. */
template <typename F> cudaError_t each_launch(size_t n, F launch)
{
    for (size_t off = 0; off < n; off += kChunk) {
        launch(off, n - off < kChunk ? n - off : kChunk);
        const cudaError_t e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

/* Queues histogram_global over [in, in + n), one thread per element, each
 * launch adding into counts. */
template <typename T>
cudaError_t run_global(const T *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    return each_launch(n, [&](size_t off, size_t len) {
        histogram_global<T><<<(unsigned)ceil_div(len, kBlock), kBlock, 0, stream>>>(in + off, (unsigned)len,
                                                                                    (unsigned)bins, counts);
    });
}

/* ---- A block's private histogram (variant 2), in variants 2-5. -------- */

/* Phase 1: thread t clears counters t, t + kBlock, ... of the block's copy.
 * A __syncthreads() must follow before any thread counts into it. */
__device__ __forceinline__ void zero_private(unsigned *hist, unsigned bins)
{
    for (unsigned b = threadIdx.x; b < bins; b += kBlock) hist[b] = 0;
}

/* Phase 3, after a __syncthreads(): thread t adds counters t, t + kBlock, ...
 * into counts, one 64-bit global atomic per nonzero counter (zero counters
 * cost none). Lane l of a warp merges counter b + l, so a warp's atomics go
 * to 32 consecutive counters, 256 contiguous bytes. */
__device__ __forceinline__ void merge_private(const unsigned *hist, unsigned bins, unsigned long long *counts)
{
    for (unsigned b = threadIdx.x; b < bins; b += kBlock) {
        const unsigned c = hist[b];
        if (c) atomicAdd(counts + b, (unsigned long long)c);
    }
}

/* ---- Shared memory and occupancy. ------------------------------------- */

/* The most dynamic shared memory one block may ask for on the current GPU
 * (after cudaFuncSetAttribute): 232448 bytes on sm_90, 65536 on sm_75. */
inline cudaError_t smem_per_block_optin(int *bytes)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    return e;
}

/* *fits: whether a block of `kernel` may have smem bytes of dynamic shared
 * memory on the current GPU. Above 48 KB a kernel must opt in, and this sets
 * its limit (cudaFuncAttributeMaxDynamicSharedMemorySize) to the device's
 * maximum, never to this call's smem: the attribute belongs to the kernel,
 * not to the call, so a value that depended on the call would let two host
 * threads calling at once with different sizes lower it under each other's
 * launch. The same value for every call cannot race. */
template <typename K> cudaError_t allow_smem(K kernel, size_t smem, bool *fits)
{
    int optin = 0;
    cudaError_t e = smem_per_block_optin(&optin);
    *fits = e == cudaSuccess && smem <= (size_t)optin;
    if (*fits && smem > kSmemNoOptin)
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
    return e;
}

/* How many blocks of `kernel` (threads per block, smem bytes of dynamic
 * shared memory) the current GPU holds at once: SMs x blocks per SM, from the
 * occupancy calculator, which counts threads, registers and shared memory.
 * 0 if not even one block fits. Above 48 KB, allow_smem first: the
 * calculator needs the kernel allowed to use smem bytes. */
template <typename K> cudaError_t resident_blocks(K kernel, unsigned threads, size_t smem, size_t *blocks)
{
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, smem);
    *blocks = e == cudaSuccess ? (size_t)sms * (size_t)per_sm : 0;
    return e;
}

/* allow_smem, then resident_blocks for kBlock threads: *resident = 0 when
 * smem bytes do not fit in one block. */
template <typename K> cudaError_t setup_private(K kernel, size_t smem, size_t *resident)
{
    bool fits = false;
    *resident = 0;
    cudaError_t e = allow_smem(kernel, smem, &fits);
    if (e || !fits) return e;
    return resident_blocks(kernel, kBlock, smem, resident);
}

/* Blocks for a launch of len elements on a resident grid: the resident
 * blocks, or fewer when len needs fewer (one element per thread at least). */
inline unsigned resident_grid(size_t len, size_t resident)
{
    return (unsigned)(ceil_div(len, kBlock) < resident ? ceil_div(len, kBlock) : resident);
}

/* ---- The launchers of variants 3, 4 and 5. ---------------------------- */

/* Queues kernel(in + off, len, bins, counts) over [in, in + n) on
 * resident_grid(len, resident) blocks of kBlock threads with smem bytes of
 * dynamic shared memory. */
template <typename T, typename K>
cudaError_t launch_resident(K kernel, size_t resident, size_t smem, const T *in, size_t n, size_t bins,
                            unsigned long long *counts, cudaStream_t stream)
{
    return each_launch(n, [&](size_t off, size_t len) {
        kernel<<<resident_grid(len, resident), kBlock, smem, stream>>>(in + off, (unsigned)len, (unsigned)bins,
                                                                       counts);
    });
}

/* Variant 3's launch, which variant 4 shares: a kernel(in, n, bins, counts)
 * with one private copy of bins 32-bit counters per block (bins x 4 bytes of
 * dynamic shared memory) on the resident grid; variant 1's kernel when the
 * copy does not fit. */
template <typename T, typename K>
cudaError_t run_resident(K kernel, const T *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    const size_t smem = bins * sizeof(unsigned);
    size_t resident = 0;
    cudaError_t e = setup_private(kernel, smem, &resident);
    if (e) return e;
    if (resident == 0) return run_global(in, n, bins, counts, stream);
    return launch_resident(kernel, resident, smem, in, n, bins, counts, stream);
}

/* ---- The entry points' common part. ----------------------------------- */

/* A variant's path for one sample type: counts already zeroed, n > 0. */
template <typename T>
using RunFn = cudaError_t (*)(const T *in, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream);

/* What every kernel file's extern "C" run does: dtype 2 = u8 (bins <= 256),
 * 3 = u32, 1 <= bins <= 2^24 (checked by the caller, gk_histogram). counts
 * is overwritten, not accumulated into, so it starts from zeros (all-zero
 * bits are 0 for a 64-bit counter); n = 0 stops there. */
inline cudaError_t run_by_dtype(const void *in, size_t n, int dtype, size_t bins, unsigned long long *counts,
                                cudaStream_t stream, RunFn<uint8_t> run_u8, RunFn<uint32_t> run_u32)
{
    if (dtype != 2 && dtype != 3) return cudaErrorInvalidValue;
    cudaError_t e = cudaMemsetAsync(counts, 0, bins * sizeof(unsigned long long), stream);
    if (e || n == 0) return e;
    if (dtype == 2) return run_u8((const uint8_t *)in, n, bins, counts, stream);
    return run_u32((const uint32_t *)in, n, bins, counts, stream);
}

} // namespace

#endif /* GK_HISTOGRAM_KERNELS_COMMON_CUH */
