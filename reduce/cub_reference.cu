/* cub_reference.cu: cub::DeviceReduce, the reference the tests and the bench
 * compare the reduce ladder with. Never used by the library itself. */
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cub_reference.h"

namespace {
template <typename T>
cudaError_t cub_reduce(const T *in, int64_t n, int op, T *out, void *temp, size_t *temp_bytes, cudaStream_t s)
{
    switch (op) {
    case 0: return cub::DeviceReduce::Sum(temp, *temp_bytes, in, out, n, s);
    case 1: return cub::DeviceReduce::Max(temp, *temp_bytes, in, out, n, s);
    case 2: return cub::DeviceReduce::Min(temp, *temp_bytes, in, out, n, s);
    default: return cudaErrorInvalidValue;
    }
}
} // namespace

extern "C" cudaError_t gk_cub_reduce(const void *in, size_t n, int dtype, int op, void *out, void *temp,
                                     size_t *temp_bytes, cudaStream_t stream)
{
    if (dtype == 0) return cub_reduce((const float *)in, (int64_t)n, op, (float *)out, temp, temp_bytes, stream);
    if (dtype == 1) return cub_reduce((const int *)in, (int64_t)n, op, (int *)out, temp, temp_bytes, stream);
    return cudaErrorInvalidValue;
}
