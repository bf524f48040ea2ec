/* Variant 2: tree in shared memory, interleaved addressing, divergent branch
 * (kernel 1 of Mark Harris, "Optimizing Parallel Reduction in CUDA", NVIDIA,
 * 2007; PMPP, 4th ed., section 10.3, "A simple reduction kernel", builds
 * the same divergent tree).
 *
 * The idea: each block of 256 threads copies 256 elements into shared memory
 * and sums them as a binary tree: at step s (1, 2, 4, ...), thread t adds
 * s[t + s] into s[t] when t is a multiple of 2s. After log2(256) = 8 steps
 * s[0] holds the block's sum, which thread 0 writes out: one partial per
 * block. Those M partials are reduced the same way by a second launch, and so
 * on, until one value is left. Each launch divides the count by 256 = 2^8, so
 * a call makes ceil(log2(n) / 8) launches (one for n <= 256): two up to
 * 2^16 = 65536 elements, three up to 2^24 (so 3 at the table's 2^20 and
 * 2^24), four up to 2^32 (4 at 2^28), five up to GK_REDUCE_MAX_N = 2^38
 * (2^38 -> 2^30 -> 2^22 -> 2^14 -> 64 -> 1 values).
 *
 * What changed from variant 1: no atomics. Each element is read once,
 * coalesced, and the additions happen in parallel inside each block, so the
 * time now depends on bandwidth and instruction issue instead of one
 * address's atomic rate: the first big jump of the ladder (the README's
 * table: 92x over variant 1 at n = 2^20, 172x at 2^24, 184x at 2^28).
 *
 * Why it is still slow: `t % (2*s) == 0` picks every other thread, then
 * every fourth... so in every warp half the lanes or more sit idle while the
 * few active ones work (divergence): 32 lanes are issued for 16, 8, 4...
 * useful adds. The modulo itself is an expensive integer operation, done by
 * every thread at every step: 2s is not known at compile time, so nvcc emits
 * a full unsigned remainder, about 17 instructions including a reciprocal
 * (cuobjdump -sass of this file for sm_90). Bound by: instruction issue, not
 * memory (8.7% of peak DRAM bandwidth at 2^28 in the table).
 *
 * The loops read blockDim.x at run time, as Harris's kernels do (variant 7
 * makes the block size a compile-time constant).
 *
 * Limits: launched with 256 threads per block, any n.
 * From common.cuh in this folder: the Sum/Max/Min operations and the chain of
 * launches that reduces the per-block values (run_passes). This file and that
 * header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 02_interleaved_divergent.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;      /* threads per block */
constexpr unsigned kChunk = kBlock;   /* elements per block in a pass */

template <typename T, typename Op>
__global__ void reduce_interleaved_divergent(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
{
    __shared__ T s[kBlock];
    const unsigned t = threadIdx.x;
    /* One element per thread. size_t index: n may exceed 2^31. Past the end
     * the thread loads the identity, so the tree below needs no bounds. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    s[t] = i < n ? in[i] : Op::identity(T());
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        /* The divergent branch: active threads are spread over every warp. */
        if (t % (2 * stride) == 0) s[t] = Op::apply(s[t], s[t + stride]);
        __syncthreads(); /* this level's sums are complete before the next level reads them */
    }
    if (t == 0) block_out[blockIdx.x] = s[0];
}

} // namespace

/* The entry points that reduce/variants.h declares, gk_reduce_02_interleaved_divergent_workspace,
 * _num_partials and _run: common.cuh's chain of passes, launching this kernel. */
GK_REDUCE_PASSES_ENTRY_POINTS(gk_reduce_02_interleaved_divergent, reduce_interleaved_divergent, kBlock, kChunk)
