/* Variant 4: sequential addressing, no bank conflicts (kernel 3 of Harris,
 * "Optimizing Parallel Reduction in CUDA"; PMPP, 4th ed., sections 10.4
 * and 10.5 reach this addressing directly from variant 2's, to minimise
 * control divergence and then memory divergence).
 *
 * The idea: run the tree the other way round. At the first step the upper
 * half of the array is added onto the lower half (thread t: s[t] += s[t+128]),
 * then the upper half of what is left (s[t] += s[t+64]), and so on.
 *
 * What changed and why it is faster: in every step the active threads are
 * 0..stride-1, consecutive as in variant 3, so no warp is partly active
 * until fewer than 32 threads are left; and thread t now reads words t and
 * t+stride, so the active lanes of a warp read consecutive words: each in a
 * different bank, no conflict, one shared-memory round per access (variant
 * 3 needed up to 8). The README's table: 0.0155 -> 0.0140 ms at n = 2^20
 * (1.11x), 0.1117 -> 0.0901 ms at 2^24 (1.24x), 1.5812 -> 1.2285 ms at 2^28
 * (1.29x).
 *
 * The new problem: idle threads. Half the threads have nothing to do from
 * the very first step on (they only wait at each barrier), after doing
 * nothing but one load: the block keeps 256 threads alive to add 128 pairs.
 * And each thread has a single 4-byte load in flight, after which its block
 * spends 8 barrier-separated tree steps with no load in flight at all.
 * Bound by: memory latency and per-block overhead (a hypothesis: the memory
 * system is far from busy, 18.2% of peak at 2^28 in the table, and variant 5,
 * which doubles the loads in flight per thread, is 1.9x faster there).
 *
 * Limits: 256 threads per block, any n.
 * From common.cuh in this folder: the Sum/Max/Min operations and the chain of
 * launches that reduces the per-block values (run_passes). This file and that
 * header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 04_sequential.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;      /* threads per block */
constexpr unsigned kChunk = kBlock;   /* elements per block in a pass */

template <typename T, typename Op>
__global__ void reduce_sequential(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
{
    __shared__ T s[kBlock];
    const unsigned t = threadIdx.x;
    /* One element per thread. size_t index: n may exceed 2^31. Past the end
     * the thread loads the identity, so the tree below needs no bounds. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    s[t] = i < n ? in[i] : Op::identity(T());
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */

    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        /* Threads 0..stride-1 read words t and t+stride: consecutive words,
         * one bank each, no conflicts. */
        if (t < stride) s[t] = Op::apply(s[t], s[t + stride]);
        __syncthreads(); /* this level's sums are complete before the next level reads them */
    }
    if (t == 0) block_out[blockIdx.x] = s[0];
}

} // namespace

/* The entry points that reduce/variants.h declares, gk_reduce_04_sequential_workspace,
 * _num_partials and _run: common.cuh's chain of passes, launching this kernel. */
GK_REDUCE_PASSES_ENTRY_POINTS(gk_reduce_04_sequential, reduce_sequential, kBlock, kChunk)
