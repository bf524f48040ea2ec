/* common.cuh: the plumbing that the reduce kernels share.
 *
 * Every kernel file in this folder includes this header and nothing else of
 * the repository: to use one variant in another project, copy its file and
 * this header; they need nothing but the CUDA toolkit and C++14 or later
 * (nvcc's default), and `nvcc -arch=sm_90 -c 08_warp_shuffle.cu` compiles
 * it, since a quoted include is looked for next to the file first. What is
 * here is what the files would otherwise each repeat, and no step of the
 * ladder is about it:
 *   - Sum, Max, Min: the operation a kernel is instantiated for (how two
 *     values combine, and the identity), for float and int.
 *   - ceil_div.
 *   - dispatch(): the switch from the launchers' dtype and op codes to the
 *     template arguments T and Op.
 *   - run_passes() and passes_workspace(): the chain of launches of variants
 *     2-8, each launch reducing the previous one's per-block values; and
 *     GK_REDUCE_PASSES_ENTRY_POINTS, which writes those variants' three
 *     extern "C" entry points.
 *   - dispatch_sum() and run_atomic_sum(): the switch and the launch of
 *     variants 1 and 10, sums only, whose blocks add into *out with
 *     atomicAdd.
 *   - v8::warp_reduce and v8::block_reduce: variant 8's block reduction with
 *     warp shuffles, which variants 9-12 reuse. It is the lesson of
 *     08_warp_shuffle.cu, which keeps its own copy written out: read it there.
 * What a step teaches (the trees of 02-07, the shuffles of 08, the loops and
 * tails of 09-11) stays in its own file.
 *
 * All of it is in an anonymous namespace (but the macro): each kernel file
 * gets its own private copy, so the files of one library link together
 * without clashes. Nothing here keeps state or sets a launch attribute, so
 * calls from several host threads at once share nothing.
 */
#ifndef GK_REDUCE_KERNELS_COMMON_CUH
#define GK_REDUCE_KERNELS_COMMON_CUH

#include <cuda_runtime.h>
#include <stddef.h>

namespace {

/* ---- Operations ------------------------------------------------------- */
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

constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }

/* ---- From the launchers' codes to the templates ------------------------ */
/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h).
 * f is called with a value of each type, f(T(), Op()): a generic lambda
 * `[=](auto t, auto o) { ... }` gets T and Op as decltype(t), decltype(o). */
template <typename F>
cudaError_t dispatch(int dtype, int op, F f)
{
    switch (dtype * 3 + op) {
    case 0: return f(float(), Sum());
    case 1: return f(float(), Max());
    case 2: return f(float(), Min());
    case 3: return f(int(), Sum());
    case 4: return f(int(), Max());
    case 5: return f(int(), Min());
    default: return cudaErrorInvalidValue;
    }
}

/* ---- The passes of variants 2-8 --------------------------------------- */
/* Each of these kernels reduces chunks of `chunk` consecutive elements, one
 * per block of `block` threads, and writes one value per block. Pass 1
 * reduces the input to its M = ceil(n / chunk) per-block values (written to
 * `partials` when the caller asked for them); each later pass reduces the
 * previous pass's values the same way, until a single block is left, which
 * writes *out. The intermediate levels live in the workspace, one after
 * another. */
template <typename T>
cudaError_t run_passes(void (*kernel)(const T *, size_t, T *), unsigned block, size_t chunk, const void *in,
                       size_t n, void *out_, void *partials_, void *ws_, cudaStream_t stream)
{
    const T *src = (const T *)in;
    T *out = (T *)out_, *partials = (T *)partials_, *ws = (T *)ws_;
    size_t m = n;
    for (int pass = 1;; ++pass) {
        size_t blocks = ceil_div(m, chunk);
        if (blocks == 0) blocks = 1; /* n = 0: one block writes the identity */
        T *dst;
        if (pass == 1 && partials != NULL) dst = partials;
        else if (blocks == 1) dst = out;
        else {
            dst = ws;
            ws += blocks;
        }
        kernel<<<(unsigned)blocks, block, 0, stream>>>(src, m, dst);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || dst == out) return err;
        src = dst;
        m = blocks;
    }
}

/* Their workspace: every intermediate level of more than one value. */
inline size_t passes_workspace(size_t n, size_t elem_size, size_t chunk)
{
    size_t bytes = 0;
    for (size_t m = ceil_div(n, chunk); m > 1; m = ceil_div(m, chunk)) bytes += m * elem_size;
    return bytes;
}

/* The three entry points of a multi-pass variant, which reduce/variants.h
 * declares: PREFIX##_workspace, PREFIX##_num_partials (M, the blocks of pass
 * 1, one partial each; block b reduces elements [b*CHUNK, (b+1)*CHUNK)) and
 * PREFIX##_run, which launches KERNEL<T, Op> through run_passes(). A macro,
 * because the names of extern "C" functions cannot come from a template. */
#define GK_REDUCE_PASSES_ENTRY_POINTS(PREFIX, KERNEL, BLOCK, CHUNK)                                            \
    extern "C" size_t PREFIX##_workspace(size_t n, size_t elem_size)                                           \
    {                                                                                                          \
        return passes_workspace(n, elem_size, CHUNK);                                                          \
    }                                                                                                          \
    extern "C" size_t PREFIX##_num_partials(size_t n) { return ceil_div(n, CHUNK); }                           \
    extern "C" cudaError_t PREFIX##_run(const void *in, size_t n, int dtype, int op, void *out, void *partials, \
                                        void *workspace, cudaStream_t stream)                                  \
    {                                                                                                          \
        return dispatch(dtype, op, [=](auto t, auto o) {                                                       \
            return run_passes(KERNEL<decltype(t), decltype(o)>, BLOCK, CHUNK, in, n, out, partials, workspace, \
                              stream);                                                                         \
        });                                                                                                    \
    }

/* ---- The launch of variants 1 and 10: blocks atomicAdd into *out -------- */
/* Sums only (CUDA's atomicMax and atomicMin have no float overload, and
 * these files keep one path for both types): f is called as f(T()). */
template <typename F>
cudaError_t dispatch_sum(int dtype, int op, F f)
{
    if (op != 0) return cudaErrorNotSupported;
    if (dtype == 0) return f(float());
    if (dtype == 1) return f(int());
    return cudaErrorInvalidValue;
}

/* *out is first set to 0, the identity of the sum, with cudaMemsetAsync
 * (all-zero bits are 0 for both types), so a call is two operations on the
 * stream; then one launch of `blocks` blocks adds into it. */
template <typename T>
cudaError_t run_atomic_sum(void (*kernel)(const T *, size_t, T *), unsigned block, size_t blocks, const void *in,
                           size_t n, void *out, cudaStream_t stream)
{
    cudaError_t err = cudaMemsetAsync(out, 0, sizeof(T), stream);
    if (err != cudaSuccess || n == 0) return err;
    kernel<<<(unsigned)blocks, block, 0, stream>>>((const T *)in, n, (T *)out);
    return cudaGetLastError();
}

/* ---- Variant 8's block reduction, for the rungs after it --------------- */
/* The lesson of 08_warp_shuffle.cu, where it is written out and explained;
 * variants 9-12 call these. Block is the block size (a multiple of 32). */
namespace v8 {

/* Sum (or max, min) of one value per lane across a warp, in registers: at
 * each step lane l adds the value of lane l + offset, which __shfl_down_sync
 * reads straight out of that lane's register. After 5 steps lane 0 holds the
 * warp's result. The full mask says all 32 lanes take part (the kernels
 * always call this with whole warps). */
template <typename T, typename Op>
__device__ T warp_reduce(T v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = Op::apply(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}

/* Block-wide result from one value per thread: shuffle within each warp,
 * park each warp's result in shared memory, then warp 0 shuffles those.
 * Valid in thread 0. One barrier in all. */
template <typename T, typename Op, unsigned Block>
__device__ T block_reduce(T v)
{
    __shared__ T warp_results[Block / 32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_reduce<T, Op>(v);
    if (lane == 0) warp_results[warp] = v;
    __syncthreads(); /* every warp's result is in shared memory before warp 0 reads them */
    if (warp == 0) {
        v = lane < Block / 32 ? warp_results[lane] : Op::identity(T());
        v = warp_reduce<T, Op>(v);
    }
    return v;
}

} // namespace v8

} // namespace

#endif /* GK_REDUCE_KERNELS_COMMON_CUH */
