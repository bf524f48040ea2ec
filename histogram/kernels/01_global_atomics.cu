/* Variant 1: global atomics, the simple parallel histogram.
 *
 * The idea (Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 9, the first parallel kernel of the
 * chapter): thread i reads element i and adds 1 to counts[in[i]] with a
 * 64-bit atomicAdd straight into global memory. Two threads that read the
 * same value both update one counter; the atomic makes each
 * read-modify-write indivisible, so neither increment is lost (CUDA C++
 * Programming Guide, "Atomic Functions"). Values >= bins are skipped.
 *
 * The work, counted: per element, one load (1 byte for u8, 4 for u32), one
 * compare with bins and one global atomic: n atomics in all (fewer by the
 * values >= bins). One thread per element: ceil(len / kBlock) blocks of
 * kBlock = 256 threads per launch, so the grid-stride loop below runs once
 * per thread; it is written as a loop so that no launch can need more than
 * one trip's worth of grid, and so that the next variants differ from this
 * one only where they mean to.
 *
 * Coalescing is already right: lane l of a warp reads element base + l, so
 * one warp-wide load reads 32 consecutive elements, 128 bytes for u32 (4
 * sectors of 32 bytes, 5 when `in` is not 32-byte aligned) and 32 bytes for
 * u8 (1 sector, 2 when it straddles a sector boundary). Reading is not the
 * problem; the atomics are.
 *
 * Where the atomics land, and why they are slow: an atomicAdd whose result
 * is unused compiles to a RED (fire-and-forget: the thread does not wait),
 * but every one of them travels to the L2 slice that owns its address, and
 * the L2 performs the atomics on one address one after another. How many
 * threads hit one address depends on the data:
 *   - all values in one bin (or a sorted run longer than a warp): a warp's
 *     32 atomics hit one 8-byte counter, and so does every other warp's:
 *     all n atomics of the GPU queue up on one address;
 *   - u8, 256 bins, uniform: all n atomics land in 256 x 8 = 2048 bytes of
 *     counts, 16 lines of 128 bytes, a handful of L2 slices; about n / 256
 *     atomics per address;
 *   - 2^24 bins, uniform: the counts span 2^24 x 8 bytes = 128 MiB, more
 *     than the L2 (cudaDevAttrL2CacheSize: 60 MiB, 62914560 bytes, on the
 *     H200 of the module's bench run), so there is little contention but
 *     most atomics miss in L2 and wait for DRAM.
 * Variant 2 moves the per-element atomic into shared memory.
 *
 * Bound by: the L2's atomic throughput, at its worst when the data sends
 * many atomics to few addresses (skewed inputs); for many bins, the DRAM
 * traffic of counters that do not fit in L2.
 *
 * Limits: every bins value (1 to 2^24) works, no shared memory. u8 input at
 * any byte address and u32 input at any 4-byte address: each thread loads
 * one element of its own type, which is always aligned to itself. Launches
 * of at most kChunk = 2^31 elements, each adding into counts, so the 32-bit
 * index in the kernel never wraps (i < 2^31 and stride <= 2^31 keep i +
 * stride below 2^32), and a grid of ceil(2^31 / 256) = 2^23 blocks stays
 * under gridDim.x's 2^31 - 1. counts is first zeroed with cudaMemsetAsync,
 * so a call is 1 + ceil(n / 2^31) operations on the stream. Exact and the
 * same every run: integer additions in any order give the same total, and
 * 64-bit counters cannot wrap for n < 2^64. Workspace: none.
 *
 * Build alone: nvcc -arch=sm_90 -c 01_global_atomics.cu
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

/* ---- The variant. ----------------------------------------------------- */
template <typename T>
cudaError_t run(const void *in_, size_t n, size_t bins, unsigned long long *counts, cudaStream_t stream)
{
    const T *in = (const T *)in_;
    /* counts is overwritten, not accumulated into: start from zeros (all-zero
     * bits are 0 for a 64-bit counter). */
    cudaError_t e = cudaMemsetAsync(counts, 0, bins * sizeof(unsigned long long), stream);
    if (e || n == 0) return e;

    /* Every bins value works: no shared memory, one global atomic per element. */
    return run_global<T>(in, n, (unsigned)bins, counts, stream);
}

} // namespace

extern "C" size_t gk_histogram_01_global_atomics_workspace(size_t n, size_t bins, int dtype)
{
    (void)n;
    (void)bins;
    (void)dtype;
    return 0;
}

/* dtype: 2 = u8 (bins <= 256), 3 = u32; 1 <= bins <= 2^24 (checked by the caller). */
extern "C" cudaError_t gk_histogram_01_global_atomics_run(const void *in, size_t n, int dtype, size_t bins,
                                                          unsigned long long *counts, void *workspace,
                                                          cudaStream_t stream)
{
    (void)workspace;
    if (dtype == 2) return run<uint8_t>(in, n, bins, counts, stream);
    if (dtype == 3) return run<uint32_t>(in, n, bins, counts, stream);
    return cudaErrorInvalidValue;
}
