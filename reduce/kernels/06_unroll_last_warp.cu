/* Variant 6: the last warp unrolled (kernel 5 of Harris, "Optimizing
 * Parallel Reduction in CUDA"), written safely for Volta and later.
 *
 * The idea: once 32 or fewer threads are active they are all in warp 0, and
 * a warp needs no block-wide barrier. So the tree loop stops at stride 64,
 * and warp 0 finishes the last six steps (32, 16, 8, 4, 2, 1) with the loop
 * unrolled: no loop counter, no `if (t < stride)`, no __syncthreads().
 *
 * What changed and why it is faster: the last six of the eight steps were
 * the cheapest in additions and the most expensive in overhead (each ended
 * with a barrier across 8 warps of which 7 had nothing to do). A block now
 * executes 3 __syncthreads() (one after the load, then the loop's strides
 * 128 and 64) instead of variant 5's 9 (one after the load, then strides
 * 128, 64, ..., 1); warps 1-7 retire after the step at stride 64, and warp 0
 * runs straight-line code. The README's table: 0.0116 -> 0.0107 ms at
 * n = 2^20 (1.09x), 0.0533 -> 0.0437 ms at 2^24 (1.22x), 0.6456 -> 0.4676 ms
 * at 2^28 (1.38x).
 *
 * Written for Volta and later: Harris's kernel relied on the 32 threads of
 * a warp running in lockstep and used a `volatile` shared pointer with no
 * barrier. Since Volta (independent thread scheduling) that is a data race
 * (NVIDIA's "Using CUDA Warp-Level Primitives", 2018, shows this very
 * case); here every step is separated by __syncwarp(), 12 in all, which
 * order the lanes' shared-memory accesses. They cost next to nothing: in
 * this straight-line code nvcc emits no waiting instruction for them on
 * sm_90 (cuobjdump -sass shows NOPs in their place); what they guarantee is
 * the ordering, which the compiler must then respect.
 *
 * Limits: launched with 256 threads per block (at least 64), any n.
 * From common.cuh in this folder: the Sum/Max/Min operations and the chain of
 * launches that reduces the per-block values (run_passes). This file and that
 * header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 06_unroll_last_warp.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;          /* threads per block */
constexpr unsigned kChunk = 2 * kBlock;   /* elements per block in a pass: two per thread */

/* The last six steps of the tree, done by warp 0 alone (s[0..63] hold the
 * values left). No __syncthreads(): the 32 threads are one warp. Since Volta
 * the threads of a warp are not guaranteed to run in lockstep, so each step
 * reads its partner, waits at __syncwarp() until every lane has read, writes,
 * and waits again until every lane has written before the next read. (The
 * pre-Volta trick, a `volatile` pointer and no barrier at all, is a race.) */
template <typename T, typename Op>
__device__ T warp_tail(T *s, unsigned t)
{
    T v = s[t];
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride >>= 1) {
        v = Op::apply(v, s[t + stride]);
        __syncwarp(); /* every lane has read s[t + stride] before anyone overwrites it */
        s[t] = v;
        __syncwarp(); /* every lane's new value is visible before the next read */
    }
    return v; /* lane 0: the block's result */
}

template <typename T, typename Op>
__global__ void reduce_unroll_last_warp(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
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
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (t < stride) s[t] = Op::apply(s[t], s[t + stride]);
        __syncthreads(); /* this level's sums are complete before the next level reads them */
    }
    if (t < 32) {
        T v = warp_tail<T, Op>(s, t);
        if (t == 0) block_out[blockIdx.x] = v;
    }
}

} // namespace

/* The entry points that reduce/variants.h declares, gk_reduce_06_unroll_last_warp_workspace,
 * _num_partials and _run: common.cuh's chain of passes, launching this kernel. */
GK_REDUCE_PASSES_ENTRY_POINTS(gk_reduce_06_unroll_last_warp, reduce_unroll_last_warp, kBlock, kChunk)
