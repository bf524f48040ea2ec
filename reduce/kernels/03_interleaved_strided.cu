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
 * Build alone: nvcc -arch=sm_90 -c 03_interleaved_strided.cu
 */
#include <cuda_runtime.h>
#include <stddef.h>

namespace {

/* ---- Operations. Each kernel file carries this block so that it compiles on
 * its own: copy one file into your project and it builds. ---------------- */
struct Sum {
    __device__ static float apply(float a, float b) { return a + b; }
    /* int32 sums wrap modulo 2^32: add as unsigned, where wrapping is defined. */
    __device__ static int apply(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
    __device__ static float identity(float) { return 0.0f; }
    __device__ static int identity(int) { return 0; }
};
struct Max {
    __device__ static float apply(float a, float b) { return fmaxf(a, b); }
    __device__ static int apply(int a, int b) { return a > b ? a : b; }
    __device__ static float identity(float) { return __int_as_float(0xff800000); } /* -inf */
    __device__ static int identity(int) { return -2147483647 - 1; }
};
struct Min {
    __device__ static float apply(float a, float b) { return fminf(a, b); }
    __device__ static int apply(int a, int b) { return a < b ? a : b; }
    __device__ static float identity(float) { return __int_as_float(0x7f800000); } /* +inf */
    __device__ static int identity(int) { return 2147483647; }
};

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

/* The passes. Pass 1 reduces the input to one value per block (the M
 * per-block partials, written to `partials` when the caller asked for them);
 * each later pass reduces the previous pass's values the same way, until a
 * single block is left, which writes *out. The intermediate levels live in
 * the workspace, one after another. */
template <typename T, typename Op>
cudaError_t run(const void *in_, size_t n, void *out_, void *partials_, void *ws_, cudaStream_t stream)
{
    const T *src = (const T *)in_;
    T *out = (T *)out_, *partials = (T *)partials_, *ws = (T *)ws_;
    size_t m = n;
    for (int pass = 1;; ++pass) {
        size_t blocks = (m + kChunk - 1) / kChunk;
        if (blocks == 0) blocks = 1; /* n = 0: one block writes the identity */
        T *dst;
        if (pass == 1 && partials != NULL) dst = partials;
        else if (blocks == 1) dst = out;
        else {
            dst = ws;
            ws += blocks;
        }
        reduce_interleaved_strided<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(src, m, dst);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || dst == out) return err;
        src = dst;
        m = blocks;
    }
}

} // namespace

/* Workspace: every intermediate level of more than one value. */
extern "C" size_t gk_reduce_03_interleaved_strided_workspace(size_t n, size_t elem_size)
{
    size_t bytes = 0;
    for (size_t m = (n + kChunk - 1) / kChunk; m > 1; m = (m + kChunk - 1) / kChunk)
        bytes += m * elem_size;
    return bytes;
}

/* M: the number of blocks of pass 1, one partial each (block b: elements
 * [b*kChunk, (b+1)*kChunk)). */
extern "C" size_t gk_reduce_03_interleaved_strided_num_partials(size_t n) { return (n + kChunk - 1) / kChunk; }

/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h). */
extern "C" cudaError_t gk_reduce_03_interleaved_strided_run(const void *in, size_t n, int dtype, int op, void *out,
                                  void *partials, void *workspace, cudaStream_t stream)
{
    switch (dtype * 3 + op) {
    case 0: return run<float, Sum>(in, n, out, partials, workspace, stream);
    case 1: return run<float, Max>(in, n, out, partials, workspace, stream);
    case 2: return run<float, Min>(in, n, out, partials, workspace, stream);
    case 3: return run<int, Sum>(in, n, out, partials, workspace, stream);
    case 4: return run<int, Max>(in, n, out, partials, workspace, stream);
    case 5: return run<int, Min>(in, n, out, partials, workspace, stream);
    default: return cudaErrorInvalidValue;
    }
}
