/* Variant 5: first add during load (kernel 4 of Harris, "Optimizing
 * Parallel Reduction in CUDA"; PMPP, 4th ed., section 10.6, where each
 * thread also adds two inputs as it loads them).
 *
 * The idea: variant 4 keeps 256 threads alive to add 128 pairs at its first
 * step. Instead, give each block 512 elements for its 256 threads, and let
 * every thread add its two elements while loading them from global memory;
 * the tree in shared memory starts with 256 values, all of them sums.
 *
 * What changed and why it is faster: two loads in flight per thread instead
 * of one, and half as many blocks. nvcc issues the two independent loads
 * (in[i] and in[i + 256]) back to back, before the add that uses them
 * (cuobjdump -sass for sm_90 shows two LDGs, then the FADD), so each thread
 * has 8 bytes in flight where variant 4 had 4. And a block now reads 512
 * elements (n/512 blocks: 2^24/512 = 32768 at n = 2^24, where variant 4
 * launched 2^24/256 = 65536) but still does one shared-memory store per
 * thread and the same 1 + 8 = 9 __syncthreads(): per element, half the
 * stores, half the barriers and half the tree steps, during which a block
 * has no load in flight. Global memory traffic is unchanged (each element is
 * still read once). The README's table: 0.0140 -> 0.0116 ms at n = 2^20
 * (1.21x), 0.0901 -> 0.0533 ms at 2^24 (1.69x), 1.2285 -> 0.6456 ms at 2^28
 * (1.90x): at 2^24 and 2^28 the largest step of the ladder after the first.
 * That it grows with n fits the explanation above (more bytes in flight
 * matter most when the loads, not the fixed costs, dominate); it is a
 * reading of the table, not a profile.
 *
 * The new problem: instruction overhead. Now that the memory side is lighter,
 * the tree's bookkeeping shows: the loop counter, the compare, and a
 * __syncthreads() at every step, even in the last steps when only one warp
 * (32 threads or fewer) is left and no block-wide barrier is needed. Bound
 * by: memory latency (two 4-byte loads in flight per thread, none during the
 * tree) and instruction issue.
 *
 * Limits: launched with 256 threads per block, any n.
 * From common.cuh in this folder: the Sum/Max/Min operations and the chain of
 * launches that reduces the per-block values (run_passes). This file and that
 * header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 05_first_add_during_load.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;          /* threads per block */
constexpr unsigned kChunk = 2 * kBlock;   /* elements per block in a pass: two per thread */

template <typename T, typename Op>
__global__ void reduce_first_add(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
{
    __shared__ T s[kBlock];
    const unsigned t = threadIdx.x;
    /* First add during load: thread t adds elements t and t + 256 of its
     * block's 512 (both loads coalesced) before anything touches shared
     * memory. Past the end it uses the identity. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    T a = i < n ? in[i] : Op::identity(T());
    T b = i + kBlock < n ? in[i + kBlock] : Op::identity(T());
    s[t] = Op::apply(a, b);
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = Op::apply(s[t], s[t + stride]);
        __syncthreads(); /* this level's sums are complete before the next level reads them */
    }
    if (t == 0) block_out[blockIdx.x] = s[0];
}

} // namespace

/* The entry points that reduce/variants.h declares, gk_reduce_05_first_add_during_load_workspace,
 * _num_partials and _run: common.cuh's chain of passes, launching this kernel. */
GK_REDUCE_PASSES_ENTRY_POINTS(gk_reduce_05_first_add_during_load, reduce_first_add, kBlock, kChunk)
