/* cub_reference.cu: cub::DeviceReduce and cub::DeviceSegmentedReduce, the
 * references the tests and the bench compare the reduce ladder with. Never
 * used by the library itself. */
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <thrust/iterator/transform_iterator.h>

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

/* f16 and bf16 read as f32, exactly. */
struct HalfToFloat {
    __host__ __device__ float operator()(__half h) const { return __half2float(h); }
};
struct Bf16ToFloat {
    __host__ __device__ float operator()(__nv_bfloat16 h) const { return __bfloat162float(h); }
};
struct Add {
    template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
struct Maximum {
    template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Minimum {
    template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};

/* Every op on an input iterator of values (op 3, 4: ArgMax, ArgMin). */
template <typename It, typename T>
cudaError_t typed(It in, int64_t n, int op, T *out, long long *index, void *temp, size_t *bytes, cudaStream_t s)
{
    switch (op) {
    case 0: return cub::DeviceReduce::Sum(temp, *bytes, in, out, n, s);
    case 1: return cub::DeviceReduce::Max(temp, *bytes, in, out, n, s);
    case 2: return cub::DeviceReduce::Min(temp, *bytes, in, out, n, s);
    case 3: return cub::DeviceReduce::ArgMax(temp, *bytes, in, out, index, n, s);
    case 4: return cub::DeviceReduce::ArgMin(temp, *bytes, in, out, index, n, s);
    default: return cudaErrorInvalidValue;
    }
}

/* The half types: TransformReduce for the plain ops (the issue's
 * reference), ArgMax/ArgMin over a converting iterator. */
template <typename H, typename Conv>
cudaError_t half_typed(const H *in, int64_t n, int op, float *out, long long *index, void *temp, size_t *bytes,
                       cudaStream_t s)
{
    switch (op) {
    case 0: return cub::DeviceReduce::TransformReduce(temp, *bytes, in, out, n, Add(), Conv(), 0.0f, s);
    case 1:
        return cub::DeviceReduce::TransformReduce(temp, *bytes, in, out, n, Maximum(), Conv(), -INFINITY, s);
    case 2: return cub::DeviceReduce::TransformReduce(temp, *bytes, in, out, n, Minimum(), Conv(), INFINITY, s);
    default: return typed(thrust::make_transform_iterator(in, Conv()), n, op, out, index, temp, bytes, s);
    }
}

template <typename It, typename T>
cudaError_t segmented(It in, int64_t segments, const size_t *begin, const size_t *end, int op, T *out, void *temp,
                      size_t *bytes, cudaStream_t s)
{
    switch (op) {
    case 0: return cub::DeviceSegmentedReduce::Sum(temp, *bytes, in, out, segments, begin, end, s);
    case 1: return cub::DeviceSegmentedReduce::Max(temp, *bytes, in, out, segments, begin, end, s);
    case 2: return cub::DeviceSegmentedReduce::Min(temp, *bytes, in, out, segments, begin, end, s);
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

/* dtype: gk_dtype's value (0 f32, 1 i32, 3 u32, 4 f64, 5 f16, 6 bf16, 7 i64). */
extern "C" cudaError_t gk_cub_reduce_typed(const void *in, size_t n, int dtype, int op, void *out,
                                           size_t *out_index, void *temp, size_t *temp_bytes, cudaStream_t stream)
{
    const int64_t m = (int64_t)n;
    long long *idx = (long long *)out_index;
    switch (dtype) {
    case 0: return typed((const float *)in, m, op, (float *)out, idx, temp, temp_bytes, stream);
    case 1: return typed((const int *)in, m, op, (int *)out, idx, temp, temp_bytes, stream);
    case 3: return typed((const unsigned *)in, m, op, (unsigned *)out, idx, temp, temp_bytes, stream);
    case 4: return typed((const double *)in, m, op, (double *)out, idx, temp, temp_bytes, stream);
    case 5: return half_typed<__half, HalfToFloat>((const __half *)in, m, op, (float *)out, idx, temp, temp_bytes, stream);
    case 6:
        return half_typed<__nv_bfloat16, Bf16ToFloat>((const __nv_bfloat16 *)in, m, op, (float *)out, idx, temp,
                                                      temp_bytes, stream);
    case 7: return typed((const long long *)in, m, op, (long long *)out, idx, temp, temp_bytes, stream);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t gk_cub_segmented(const void *in, size_t segments, const size_t *begin, const size_t *end,
                                        int dtype, int op, void *out, void *temp, size_t *temp_bytes,
                                        cudaStream_t stream)
{
    const int64_t m = (int64_t)segments;
    switch (dtype) {
    case 0: return segmented((const float *)in, m, begin, end, op, (float *)out, temp, temp_bytes, stream);
    case 1: return segmented((const int *)in, m, begin, end, op, (int *)out, temp, temp_bytes, stream);
    case 3: return segmented((const unsigned *)in, m, begin, end, op, (unsigned *)out, temp, temp_bytes, stream);
    case 4: return segmented((const double *)in, m, begin, end, op, (double *)out, temp, temp_bytes, stream);
    case 5:
        return segmented(thrust::make_transform_iterator((const __half *)in, HalfToFloat()), m, begin, end, op,
                         (float *)out, temp, temp_bytes, stream);
    case 6:
        return segmented(thrust::make_transform_iterator((const __nv_bfloat16 *)in, Bf16ToFloat()), m, begin, end,
                         op, (float *)out, temp, temp_bytes, stream);
    case 7: return segmented((const long long *)in, m, begin, end, op, (long long *)out, temp, temp_bytes, stream);
    default: return cudaErrorInvalidValue;
    }
}
