/* Variant 10: block reduce plus one atomicAdd per block, a single kernel
 * (Luitjens, "Faster Parallel Reductions on Kepler", its block-atomic
 * version; PMPP, 4th ed., section 10.7, ends its hierarchical reduction the
 * same way).
 *
 * The idea: variant 9 needs a second launch only to add up 1024 numbers.
 * Instead, each block adds its result straight into *out with one atomicAdd.
 * Variant 1 died of n atomics on one address; 1024 are cheap. At variant 1's
 * rate (the README's table: 2^28 atomics in 471.156 ms, 1.76 ns each) 1024
 * same-address atomics take 1024 x 1.76 ns = 1.8 us if they all arrived at
 * once and were served one by one, and less in practice, since the blocks
 * do not all finish at the same moment. They cost the blocks no wait: an
 * atomicAdd whose result is unused compiles to a fire-and-forget RED
 * instruction (cuobjdump -sass). The net effect, measured, is below.
 *
 * What changed and why it is faster: one kernel instead of two (plus a 4-byte
 * memset of *out, since the atomics need a 0 to add into): no second launch,
 * no partials written to and read back from memory, no gap between two
 * kernels. That matters most for small n, where the second launch is a
 * sizeable part of the time; at large n the main loop dominates and the time
 * is that of variant 9. The README's table, against variant 9: 0.0104 ->
 * 0.0080 ms at n = 2^20 (1.30x), 0.0438 -> 0.0409 ms at 2^24 (1.07x),
 * 0.4410 -> 0.4378 ms at 2^28 (1.01x).
 *
 * What is left: the main loop is still one 4-byte load per iteration, one in
 * flight per thread (the same loop as variant 9), so the bandwidth is still
 * latency-limited (50.9% of peak at 2^28); and the float result now depends
 * on the order the atomics arrive: not bitwise reproducible from run to run
 * (i32 is exact in any order). Bound by: memory latency.
 *
 * Limits: sum only (CUDA's atomicMax and atomicMin have no float overload,
 * and this file keeps one path for both types). 256 threads per block;
 * grid min(ceil(n/256), 1024); any n.
 * From common.cuh in this folder: the Sum operation, variant 8's block
 * reduction (v8::block_reduce), the memset-then-launch and the dtype switch.
 * This file and that header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 10_block_atomic.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;       /* threads per block */
constexpr size_t kMaxBlocks = 1024;    /* grid */

template <typename T>
__global__ void __launch_bounds__(kBlock) reduce_block_atomic(const T *__restrict__ in, size_t n, T *out)
{
    T v = Sum::identity(T());
    const size_t stride = (size_t)gridDim.x * kBlock;
    for (size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x; i < n; i += stride) v = Sum::apply(v, in[i]);
    v = v8::block_reduce<T, Sum, kBlock>(v);
    if (threadIdx.x == 0) atomicAdd(out, v); /* one atomic per block */
}

} // namespace

extern "C" size_t gk_reduce_10_block_atomic_workspace(size_t /* n */, size_t /* elem_size */) { return 0; }

/* op: 0 = sum, the only one here. No partials, no workspace. */
extern "C" cudaError_t gk_reduce_10_block_atomic_run(const void *in, size_t n, int dtype, int op, void *out,
                                                     void * /* partials */, void * /* workspace */, cudaStream_t stream)
{
    size_t blocks = ceil_div(n, kBlock);
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    return dispatch_sum(dtype, op, [=](auto t) {
        return run_atomic_sum(reduce_block_atomic<decltype(t)>, kBlock, blocks, in, n, out, stream);
    });
}
