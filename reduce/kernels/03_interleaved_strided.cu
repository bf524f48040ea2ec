/* Variant 3: interleaved addressing with a strided index, no divergence
 * (kernel 2 of Harris, "Optimizing Parallel Reduction in CUDA").
 *
 * The idea: the same tree as variant 2, with the work given to different
 * threads. At step s, thread t works on index 2*s*t (and adds index
 * 2*s*t + s into it), so the active threads are always the first
 * 256/(2s) ones: consecutive threads, whole warps busy or whole warps idle.
 *
 * What changed and why it is faster: no `%`, and no warp is half busy until
 * fewer than 32 threads are left, so the warps that have nothing to do skip
 * the step instead of being issued with their lanes masked off. The README's
 * table: 0.0201 -> 0.0155 ms at n = 2^20 (1.30x), 0.1714 -> 0.1117 ms at
 * 2^24 (1.53x), 2.5655 -> 1.5812 ms at 2^28 (1.62x).
 *
 * The new problem: shared-memory bank conflicts. Shared memory is 32 banks of
 * 4-byte words; word w is in bank w % 32. A warp's access takes as many
 * rounds as the largest number of different words it touches in one bank.
 * At step s the active threads are t < 128/s, a warp's active lanes touch
 * words 2s*t (and 2s*t + s, the same pattern shifted), 2s words apart, and
 * those fall in 32/gcd(2s, 32) different banks. Counting, for a 256-thread
 * block:
 *     s   active threads  active lanes per warp  banks used  ways
 *     1   128 (warps 0-3)        32                  16         2
 *     2    64 (warps 0-1)        32                   8         4
 *     4    32 (warp 0)           32                   4         8
 *     8    16                    16                   2         8
 *    16     8                     8                   1         8
 *    32     4                     4                   1         4
 *    64     2                     2                   1         2
 *   128     1                     1                   1         1
 * (ways = active lanes / banks used). So 2-way, 4-way, then at most 8-way,
 * never 16: from s = 8 on, fewer lanes are active than would be needed to
 * fill the higher ways. The addressing that fixed divergence serialises the
 * shared-memory accesses by up to 8x. Bound by: shared-memory accesses and
 * instruction issue.
 *
 * Limits: 256 threads per block, any n.
 * From common.cuh in this folder: the Sum/Max/Min operations and the chain of
 * launches that reduces the per-block values (run_passes). This file and that
 * header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 03_interleaved_strided.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;      /* threads per block */
constexpr unsigned kChunk = kBlock;   /* elements per block in a pass */

template <typename T, typename Op>
__global__ void reduce_interleaved_strided(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
{
    __shared__ T s[kBlock];
    const unsigned t = threadIdx.x;
    /* One element per thread. size_t index: n may exceed 2^31. Past the end
     * the thread loads the identity, so the tree below needs no bounds. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    s[t] = i < n ? in[i] : Op::identity(T());
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        /* Thread t owns slot 2*stride*t: the active threads are t < 256/(2*stride). */
        unsigned idx = 2 * stride * t;
        if (idx < blockDim.x) s[idx] = Op::apply(s[idx], s[idx + stride]);
        __syncthreads(); /* this level's sums are complete before the next level reads them */
    }
    if (t == 0) block_out[blockIdx.x] = s[0];
}

} // namespace

/* The entry points that reduce/variants.h declares, gk_reduce_03_interleaved_strided_workspace,
 * _num_partials and _run: common.cuh's chain of passes, launching this kernel. */
GK_REDUCE_PASSES_ENTRY_POINTS(gk_reduce_03_interleaved_strided, reduce_interleaved_strided, kBlock, kChunk)
