/* cub_histogram.cu: cub::DeviceHistogram::HistogramEven, the reference the
 * tests and the bench compare the histogram ladder with. Never used by the
 * library itself. */
#include <cub/device/device_histogram.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

#include "histogram_ref.h"

namespace {
template <typename T>
cudaError_t even(const T *in, int64_t n, size_t bins, unsigned *counts, void *temp, size_t *temp_bytes,
                 cudaStream_t s)
{
    /* Levels 0, 1, ..., bins: bin v holds the samples in [v, v + 1), i.e.
     * the value v. Levels are 64-bit so that bins + 1 fits for every type. */
    const long long lower = 0, upper = (long long)bins;
    return cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, in, counts, (int)bins + 1, lower, upper, n, s);
}
} // namespace

extern "C" cudaError_t gk_cub_histogram(const void *in, size_t n, int dtype, size_t bins, unsigned *counts,
                                        void *temp, size_t *temp_bytes, cudaStream_t stream)
{
    if (dtype == 2) return even((const uint8_t *)in, (int64_t)n, bins, counts, temp, temp_bytes, stream);
    if (dtype == 3) return even((const uint32_t *)in, (int64_t)n, bins, counts, temp, temp_bytes, stream);
    return cudaErrorInvalidValue;
}
