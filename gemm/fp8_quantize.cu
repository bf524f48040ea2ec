/* gk_gemm_fp8_quantize: fp32 values to FP8 bytes with a scale, saturating
 * (gk/gemm.h, "FP8"). The step before an FP8 product: a caller holds fp32
 * (or 16-bit) activations and weights, picks a scale from their absolute
 * maximum (448 / amax for e4m3, so that the largest value lands on the
 * largest finite e4m3), and stores scale * x in one byte per value; the
 * product's scale_a or scale_b is then 1 / scale. Not a rung: the
 * library's conversion, beside gemm.c as split_k.cu is.
 *
 * Each value: __nv_cvt_float_to_fp8(scale * x, __NV_SATFINITE, type)
 * (<cuda_fp8.h>): round to nearest even, a magnitude above the type's
 * largest finite (e4m3 448, e5m2 57344) stored as that largest finite with
 * its sign, NaN as NaN (e4m3 has no infinity; with __NV_SATFINITE e5m2's
 * infinities are not produced either). On sm_89 and later the intrinsic is
 * the cvt.rn.satfinite.e4m3x2.f32 instruction (PTX ISA 7.8).
 *
 * The amax: max |x| (before the scale) over the call, the statistic the
 * caller turns into the next scale. Each thread keeps its running maximum,
 * a warp combines them with __reduce_max_sync on the bit patterns (for
 * non-negative floats, and NaN's positive patterns above +inf, the integer
 * order is the float order), and lane 0 raises *amax with atomicMax on the
 * same bits after the launch's memset to 0: an order-independent result.
 *
 * The loop: a grid-stride walk over the values, 4 per thread per step
 * (one 16-byte load and one 4-byte store where x is 16-byte aligned and out
 * 4-byte aligned, element by element otherwise), about 8 blocks of 256
 * threads per SM.
 */
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "variants.h"

namespace {

__device__ __forceinline__ unsigned char to_fp8(float v, __nv_fp8_interpretation_t kind)
{
    return (unsigned char)__nv_cvt_float_to_fp8(v, __NV_SATFINITE, kind);
}

/* |x| as its bit pattern (sign cleared): ordered as the floats are. */
__device__ __forceinline__ unsigned abs_bits(float x) { return __float_as_uint(x) & 0x7fffffffu; }

template <bool kVec>
__global__ void __launch_bounds__(256) quantize(const float *__restrict__ x, size_t count, float scale,
                                               unsigned char *__restrict__ out, unsigned *amax, int type)
{
    const __nv_fp8_interpretation_t kind = type == 3 ? __NV_E4M3 : __NV_E5M2;
    const size_t stride = (size_t)gridDim.x * blockDim.x * 4;
    unsigned mx = 0u;
    for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 4; i < count; i += stride) {
        if (kVec && i + 4 <= count) {
            const float4 v = __ldg(reinterpret_cast<const float4 *>(x + i));
            const uint32_t w = (uint32_t)to_fp8(scale * v.x, kind) | (uint32_t)to_fp8(scale * v.y, kind) << 8 |
                               (uint32_t)to_fp8(scale * v.z, kind) << 16 | (uint32_t)to_fp8(scale * v.w, kind) << 24;
            *reinterpret_cast<uint32_t *>(out + i) = w;
            mx = max(max(mx, abs_bits(v.x)), max(abs_bits(v.y), max(abs_bits(v.z), abs_bits(v.w))));
        } else {
            for (size_t j = i; j < i + 4 && j < count; ++j) {
                const float v = __ldg(x + j);
                out[j] = to_fp8(scale * v, kind);
                mx = max(mx, abs_bits(v));
            }
        }
    }
    if (amax != nullptr) {
        mx = __reduce_max_sync(0xffffffffu, mx); /* every lane reaches here: the loop has no early exit */
        if ((threadIdx.x & 31) == 0 && mx != 0u) atomicMax(amax, mx);
    }
}

} // namespace

extern "C" cudaError_t gk_gemm_fp8_quantize_launch(int type, const float *x, size_t count, float scale, void *out,
                                                   float *amax, cudaStream_t stream)
{
    int dev = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    if (amax != nullptr && (err = cudaMemsetAsync(amax, 0, sizeof(float), stream)) != cudaSuccess) return err;
    const size_t groups = (count + 3) / 4, cap = (size_t)sms * 8 * 256;
    const unsigned blocks = (unsigned)(((groups < cap ? groups : cap) + 255) / 256);
    unsigned *const bits = reinterpret_cast<unsigned *>(amax);
    unsigned char *const o = static_cast<unsigned char *>(out);
    if (((uintptr_t)x & 15u) == 0 && ((uintptr_t)out & 3u) == 0)
        quantize<true><<<blocks, 256, 0, stream>>>(x, count, scale, o, bits, type);
    else
        quantize<false><<<blocks, 256, 0, stream>>>(x, count, scale, o, bits, type);
    return cudaGetLastError();
}
