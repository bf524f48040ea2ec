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
 * That rate is the f32 path's: there every thread issues its own atomic.
 * For int32, nvcc does fewer: integer addition is associative, so the
 * compiler first adds the warp's 32 values (cuobjdump -sass for sm_90:
 * REDUX.SUM) and one lane issues the atomic, n/32 atomics in all. The bench
 * times f32 only.
 *
 * Limits: sum only (CUDA's atomicMax and atomicMin have no float overload,
 * and this file keeps one path for both types). The output is first set to
 * 0 with cudaMemsetAsync, so the call is two operations on the stream. The
 * float result depends on the order the atomics are served, which changes
 * from run to run: not bitwise reproducible. Bound by: same-address atomic
 * throughput. (atomicAdd whose result is unused compiles to a RED, a
 * fire-and-forget reduction: the thread does not wait for it.)
 *
 * The launch (the memset, then the kernel) and the dtype switch come from
 * common.cuh in this folder; this file and that header are all a project
 * needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 01_atomic.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;

template <typename T>
__global__ void reduce_atomic(const T *__restrict__ in, size_t n, T *out)
{
    /* size_t index: n may exceed 2^31. */
    size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]); /* int atomicAdd wraps modulo 2^32 */
}

} // namespace

extern "C" size_t gk_reduce_01_atomic_workspace(size_t /* n */, size_t /* elem_size */) { return 0; }

/* op: 0 = sum, the only one here. No partials, no workspace. */
extern "C" cudaError_t gk_reduce_01_atomic_run(const void *in, size_t n, int dtype, int op, void *out,
                                               void * /* partials */, void * /* workspace */, cudaStream_t stream)
{
    return dispatch_sum(dtype, op, [=](auto t) {
        return run_atomic_sum(reduce_atomic<decltype(t)>, kBlock, ceil_div(n, kBlock), in, n, out, stream);
    });
}
