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
 * kBlock = 256 threads per launch, so the grid-stride loop of the kernel (in
 * common.cuh: see the end of this file) runs once per thread; it is written
 * as a loop so that no launch can need more than one trip's worth of grid,
 * and so that the next variants differ from this one only where they mean
 * to.
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
 * Build alone: nvcc -arch=sm_90 -c 01_global_atomics.cu (with common.cuh, the
 * folder's shared plumbing, next to it: the two files are all a project
 * needs besides the CUDA toolkit)
 */
#include "common.cuh"

/* The kernel, histogram_global, is in common.cuh: variants 2, 3, 4 and 6 fall
 * back to it for bins that do not fit in shared memory. There it is, with
 * run_global, which cuts n into launches of at most kChunk = 2^31 elements
 * of ceil(len / 256) blocks each; this file's entry point is the whole of
 * variant 1's launcher: zero counts (run_by_dtype), then run_global. Every
 * bins value works: no shared memory, one global atomic per element. */

extern "C" size_t gk_histogram_01_global_atomics_workspace(size_t, size_t, int) { return 0; }

extern "C" cudaError_t gk_histogram_01_global_atomics_run(const void *in, size_t n, int dtype, size_t bins,
                                                          unsigned long long *counts, void *, cudaStream_t stream)
{
    return run_by_dtype(in, n, dtype, bins, counts, stream, run_global<uint8_t>, run_global<uint32_t>);
}
