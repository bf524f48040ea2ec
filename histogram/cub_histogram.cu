/* cub_histogram.cu: cub::DeviceHistogram, the reference the tests and the
 * bench compare the histogram ladder with: HistogramEven for gk_histogram's
 * integer form, and HistogramEven, HistogramRange and MultiHistogramEven
 * for gk_histogram_ex's forms (histogram_ref.h). Never used by the library
 * itself. */
#include <cuda_fp16.h>
#include <cub/device/device_histogram.cuh>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

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

/* gk_dtype values (gk/dtype.h). */
enum { kF32 = 0, kI32 = 1, kU8 = 2, kU32 = 3, kF16 = 5, kU16 = 8 };

/* CUB's level type for each sample type (histogram_ref.h). */
template <typename T> struct LevelOf { using type = long long; };
template <> struct LevelOf<float> { using type = float; };
template <> struct LevelOf<__half> { using type = __half; };

template <typename L> L level(double v)
{
    if constexpr (std::is_same<L, __half>::value) return __float2half_rn((float)v);
    else return (L)v;
}

/* MultiHistogramEven<C, A> (HistogramEven when C = A = 1). */
template <int C, int A, typename T>
cudaError_t multi_even(const T *in, int64_t pixels, const size_t *bins, const double *lower, const double *upper,
                       unsigned *const *counts, void *temp, size_t *temp_bytes, cudaStream_t s)
{
    using L = typename LevelOf<T>::type;
    ::cuda::std::array<unsigned *, A> h;
    ::cuda::std::array<int, A> num_levels;
    ::cuda::std::array<L, A> lo, hi;
    for (int a = 0; a < A; ++a) {
        h[a] = counts[a];
        num_levels[a] = (int)bins[a] + 1;
        lo[a] = level<L>(lower[a]);
        hi[a] = level<L>(upper[a]);
    }
    if (C == 1) return cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, in, h[0], num_levels[0], lo[0], hi[0],
                                                           pixels, s);
    return cub::DeviceHistogram::MultiHistogramEven<C, A>(temp, *temp_bytes, in, h, num_levels, lo, hi, pixels, s);
}

template <typename T>
cudaError_t range(const T *in, int64_t n, size_t bins, const void *levels, unsigned *counts, void *temp,
                  size_t *temp_bytes, cudaStream_t s)
{
    using L = typename LevelOf<T>::type;
    return cub::DeviceHistogram::HistogramRange(temp, *temp_bytes, in, counts, (int)bins + 1, (const L *)levels, n,
                                                s);
}

template <typename T>
cudaError_t by_form(const void *in, int channels, int active, size_t pixels, const size_t *bins, const double *lower,
                    const double *upper, const void *const *levels, unsigned *const *counts, void *temp,
                    size_t *temp_bytes, cudaStream_t s)
{
    const T *x = (const T *)in;
    const int64_t p = (int64_t)pixels;
    if (channels == 1 && active == 1)
        return levels && levels[0] ? range(x, p, bins[0], levels[0], counts[0], temp, temp_bytes, s)
                                   : multi_even<1, 1>(x, p, bins, lower, upper, counts, temp, temp_bytes, s);
    if (levels) return cudaErrorInvalidValue;
    if (channels == 2 && active == 2) return multi_even<2, 2>(x, p, bins, lower, upper, counts, temp, temp_bytes, s);
    if (channels == 3 && active == 3) return multi_even<3, 3>(x, p, bins, lower, upper, counts, temp, temp_bytes, s);
    if (channels == 4 && active == 3) return multi_even<4, 3>(x, p, bins, lower, upper, counts, temp, temp_bytes, s);
    if (channels == 4 && active == 4) return multi_even<4, 4>(x, p, bins, lower, upper, counts, temp, temp_bytes, s);
    return cudaErrorInvalidValue;
}
} // namespace

extern "C" cudaError_t gk_cub_histogram(const void *in, size_t n, int dtype, size_t bins, unsigned *counts,
                                        void *temp, size_t *temp_bytes, cudaStream_t stream)
{
    if (dtype == kU8) return even((const uint8_t *)in, (int64_t)n, bins, counts, temp, temp_bytes, stream);
    if (dtype == kU32) return even((const uint32_t *)in, (int64_t)n, bins, counts, temp, temp_bytes, stream);
    return cudaErrorInvalidValue;
}

extern "C" cudaError_t gk_cub_histogram_ex(int dtype, const void *in, int channels, int active, size_t pixels,
                                           const size_t *bins, const double *lower, const double *upper,
                                           const void *const *levels, unsigned *const *counts, void *temp,
                                           size_t *temp_bytes, cudaStream_t stream)
{
#define GK_CUB_FORM(T) by_form<T>(in, channels, active, pixels, bins, lower, upper, levels, counts, temp, temp_bytes, stream)
    switch (dtype) {
    case kF32: return GK_CUB_FORM(float);
    case kF16: return GK_CUB_FORM(__half);
    case kU8: return GK_CUB_FORM(uint8_t);
    case kU16: return GK_CUB_FORM(uint16_t);
    case kI32: return GK_CUB_FORM(int32_t);
    case kU32: return GK_CUB_FORM(uint32_t);
    default: return cudaErrorInvalidValue;
    }
#undef GK_CUB_FORM
}

extern "C" size_t gk_cub_level_bytes(int dtype)
{
    switch (dtype) {
    case kF32: return sizeof(float);
    case kF16: return sizeof(__half);
    case kU8: case kU16: case kI32: case kU32: return sizeof(long long);
    default: return 0;
    }
}

extern "C" void gk_cub_levels(int dtype, const double *levels, size_t count, void *out)
{
    for (size_t i = 0; i < count; ++i) {
        if (dtype == kF32) ((float *)out)[i] = level<float>(levels[i]);
        else if (dtype == kF16) ((__half *)out)[i] = level<__half>(levels[i]);
        else ((long long *)out)[i] = level<long long>(levels[i]);
    }
}
