/* Variant 9: thread coarsening, grid-stride accumulation, two passes
 * (kernel 7 of Harris, "Optimizing Parallel Reduction in CUDA", "multiple
 * elements per thread"; PMPP, 4th ed., section 10.8, "Thread coarsening for
 * reduced overhead"; the two-kernel form of Luitjens, "Faster Parallel
 * Reductions on Kepler").
 *
 * The idea: stop launching one short block per 512 elements. Launch a fixed
 * grid of at most 1024 blocks of 256 threads and let each thread walk the
 * array in a grid-stride loop, accumulating in a register: thread t of block
 * b adds elements b*256 + t, then + 1024*256 (the grid's size in threads),
 * and so on. Only at the end does each block combine its 256 register
 * totals, with the warp shuffles of variant 8. Pass 2 is one block that
 * reduces the (at most 1024) block results the same way and writes *out:
 * two launches for any n (one when n <= 256 and no partials are asked for).
 *
 * How the grid fits: an sm_90 SM holds at most 2048 threads, so 2048 / 256 =
 * 8 of these blocks (ptxas -v: 18 registers per thread, which does not
 * limit it further). On the table's H200, 132 SMs x 8 = 1056 blocks fit at
 * once: the 1024 blocks are a single wave using 1024/1056 = 97% of the slots.
 * (On a GPU with fewer than 1024/8 = 128 SMs they are more than one wave.)
 *
 * What changed: the per-block costs (scheduling a block, shared memory,
 * barrier, the write of a partial) are paid 1024 times instead of n/512
 * times, and the chain of follow-up passes shrinks to one tiny launch. Each
 * thread now spends its life streaming loads, all coalesced. But it has
 * fewer loads in flight: see below. The README's table: against variant 8,
 * 0.0107 -> 0.0104 ms at n = 2^20 (1.02x), 0.0435 -> 0.0438 ms at 2^24
 * (0.99x, slightly slower), 0.4581 -> 0.4410 ms at 2^28 (1.04x). The
 * saving in per-block costs and the loss in bytes in flight (one 4-byte
 * load per thread where variant 8 had two, though no longer interrupted by
 * a tree every two loads) about cancel: a reading of the table, not a
 * profile.
 *
 * What is left: nvcc does not unroll the grid-stride loop (cuobjdump -sass
 * for sm_90: one LDG per trip, and the add that consumes it comes before
 * the next trip's LDG), so each thread has exactly one 4-byte load in
 * flight: 1024 blocks x 256 threads x 4 B = 1 MiB in the whole GPU, about
 * 8 KB per SM (8 blocks x 256 x 4 B = 8 KiB where 8 blocks sit). Little's
 * law (throughput = bytes in flight / latency) then caps the bandwidth. At
 * n = 2^28 the table shows 2435 GB/s, 50.6% of peak; with at most 1 MiB in
 * flight that means loads took at most 1 MiB / 2435 GB/s = 0.43 us on
 * average. If the latency stayed at that, the 4814 GB/s peak would need
 * 4814 GB/s x 0.43 us, about 2.1 MB in flight, twice what this variant has
 * (and latency grows as DRAM gets busier, so more in practice). At 2^24 the
 * table shows only 31.8% of peak; even CUB reaches only 49.4% at that size,
 * and the table's read-only stream (a kernel that does nothing but read the
 * same bytes) only 55.1%, so something besides bytes in flight weighs
 * there, on a kernel that only reads as well: presumably costs that do not
 * shrink with n (launching, the grid's ramp-up and drain) or the bench's L2
 * flush (the README discusses both): a hypothesis, not measured. Bound by:
 * memory latency (bytes in flight), about half of the DRAM bandwidth at
 * 2^28; not the bandwidth itself.
 *
 * Per-block partials: block b's value reduces the tiles of 256 elements
 * numbered b, b + M, b + 2M... (M = the grid size): element i belongs to
 * block (i / 256) % M.
 *
 * Limits: 256 threads per block; grid min(ceil(n/256), 1024); any n. The grid
 * does not depend on the GPU, so f32 sums are bitwise the same on every GPU.
 * From common.cuh in this folder: the Sum/Max/Min operations, variant 8's
 * block reduction (v8::block_reduce) and the dtype x op switch. This file and
 * that header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 09_grid_stride.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;       /* threads per block */
constexpr size_t kMaxBlocks = 1024;    /* grid of pass 1 */

template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock) reduce_grid_stride(const T *__restrict__ in, size_t n,
                                                               T *__restrict__ block_out)
{
    /* Coarsening: one register accumulator per thread over a grid-stride
     * loop. size_t index and stride: n may exceed 2^31. */
    T v = Op::identity(T());
    const size_t stride = (size_t)gridDim.x * kBlock;
    for (size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x; i < n; i += stride) v = Op::apply(v, in[i]);
    v = v8::block_reduce<T, Op, kBlock>(v);
    if (threadIdx.x == 0) block_out[blockIdx.x] = v;
}

size_t grid_for(size_t n)
{
    size_t blocks = ceil_div(n, kBlock);
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    return blocks == 0 ? 1 : blocks; /* n = 0: one block writes the identity */
}

template <typename T, typename Op>
cudaError_t run(const void *in, size_t n, void *out, void *partials, void *ws, cudaStream_t stream)
{
    size_t blocks = grid_for(n);
    /* Pass 1 writes straight to *out when one block covers everything and
     * the caller did not ask for the partials. */
    T *pass1 = partials != NULL ? (T *)partials : blocks == 1 ? (T *)out : (T *)ws;
    reduce_grid_stride<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>((const T *)in, n, pass1);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess || pass1 == (T *)out) return err;
    reduce_grid_stride<T, Op><<<1, kBlock, 0, stream>>>(pass1, blocks, (T *)out);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_09_grid_stride_workspace(size_t n, size_t elem_size)
{
    size_t blocks = grid_for(n);
    return blocks > 1 ? blocks * elem_size : 0;
}

extern "C" size_t gk_reduce_09_grid_stride_num_partials(size_t n) { return n == 0 ? 0 : grid_for(n); }

extern "C" cudaError_t gk_reduce_09_grid_stride_run(const void *in, size_t n, int dtype, int op, void *out,
                                                    void *partials, void *workspace, cudaStream_t stream)
{
    return dispatch(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, n, out, partials, workspace, stream);
    });
}
