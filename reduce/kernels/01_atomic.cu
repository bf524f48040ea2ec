/* Variant 1: one global atomicAdd per element, the baseline.
 *
 * The idea: the simplest correct parallel sum. Thread i adds element i into
 * the single output word with atomicAdd; the hardware makes each
 * read-modify-write indivisible, so no addition is lost.
 *
 * Why it is slow: every one of the n atomics targets the same address, and
 * the L2 slice that owns that address serves them one after another. Memory
 * bandwidth is irrelevant; the run time is n divided by the rate of
 * same-address atomics. The README's table gives that rate: at n = 2^28 it
 * shows 471.156 ms, so 2^28 / 471.156 ms = 570 million atomics per second,
 * 1.76 ns each (2^20 and 2^24 give the same rate). The other variants are
 * 92x (variant 2 at 2^20) to 1936x (variant 11 at 2^28) faster: the table's
 * "vs variant 1" column, since this is the baseline every speed-up in the
 * bench is measured against.
 *
 * Limits: sum only (CUDA's atomicMax and atomicMin have no float overload,
 * and this file keeps one path for both types). The output is first set to
 * 0 with cudaMemsetAsync, so the call is two operations on the stream. The
 * float result depends on the order the atomics are served, which changes
 * from run to run: not bitwise reproducible. Bound by: same-address atomic
 * throughput. (atomicAdd whose result is unused compiles to a RED, a
 * fire-and-forget reduction: the thread does not wait for it.)
 *
 * Build alone: nvcc -arch=sm_90 -c 01_atomic.cu
 */
#include <cuda_runtime.h>
#include <stddef.h>

namespace {

constexpr unsigned kBlock = 256;

template <typename T>
__global__ void reduce_atomic(const T *__restrict__ in, size_t n, T *out)
{
    /* size_t index: n may exceed 2^31. */
    size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]); /* int atomicAdd wraps modulo 2^32 */
}

template <typename T>
cudaError_t run(const void *in, size_t n, void *out, cudaStream_t stream)
{
    /* 0 is the identity of the sum, and all-zero bits are 0 for both types. */
    cudaError_t err = cudaMemsetAsync(out, 0, sizeof(T), stream);
    if (err != cudaSuccess || n == 0) return err;
    size_t blocks = (n + kBlock - 1) / kBlock;
    reduce_atomic<T><<<(unsigned)blocks, kBlock, 0, stream>>>((const T *)in, n, (T *)out);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_01_atomic_workspace(size_t n, size_t elem_size)
{
    (void)n;
    (void)elem_size;
    return 0;
}

/* dtype: 0 = float, 1 = int32; op: 0 = sum (the only one here). */
extern "C" cudaError_t gk_reduce_01_atomic_run(const void *in, size_t n, int dtype, int op, void *out,
                                               void *partials, void *workspace, cudaStream_t stream)
{
    (void)partials;
    (void)workspace;
    if (op != 0) return cudaErrorNotSupported;
    if (dtype == 0) return run<float>(in, n, out, stream);
    if (dtype == 1) return run<int>(in, n, out, stream);
    return cudaErrorInvalidValue;
}
