/* histogram/kernels/levels.cuh: the plumbing of the variants that bin real
 * samples (8 and up), written once: sample types and their keys, the exact
 * bin boundaries, the plan a launch reads, the workspace.
 *
 * Every such kernel file includes this header and common.cuh (both found
 * next to the file) and nothing else of the library.
 *
 * 1. Keys. Every sample is compared through an integer key whose order is
 *    the order of the values:
 *      u8, u16   the value (32-bit key);
 *      i32, u32  the value as a 64-bit integer;
 *      f32, f16  (f16 widened to f32 first, exactly) the float's bits with
 *                the sign folded: negative b -> ~b, positive b -> b | 2^31,
 *                and -0.0 taken as +0.0 first (they are one value). Keys of
 *                -inf..+inf are 0x007fffff..0xff800000; a NaN's key lies
 *                below -inf's (negative NaN) or above +inf's (positive NaN).
 *                No float arithmetic touches a sample on the way to its key,
 *                so a denormal is never flushed, whatever -ftz says.
 *
 * 2. Thresholds. For each counted channel with bins B the workspace holds
 *    B + 1 keys t[0..B]: t[i] is the key of the least sample value that
 *    belongs to bin i or above. Then, for every sample x with key k:
 *      x is counted  <=>  t[0] <= k < t[B]
 *      its bin       =    the largest i < B with t[i] <= k
 *    which is the exact rule of both forms, because t[i] <= k <=> x >= the
 *    i-th boundary by construction, for every sample value. NaN: its key is
 *    outside [t[0], t[B]) (t[0] >= key(-inf), t[B] <= key(+inf)), so it is
 *    never counted. All exactness lives here, computed once per call on the
 *    GPU by the kernel `thresholds` (B + 1 threads):
 *      Levels (range form), boundary l_i (a double):
 *        integers: ceil(l_i) clamped to [type min, type max + 1];
 *        floats:   key(__double2float_ru(l_i)), the least float >= l_i (the
 *                  conversion rounds up, correctly rounded).
 *      Even bins over [L, U), boundary i is L + i (U - L) / B; x >= it
 *      <=> B (x - L) >= i (U - L) (B > 0), an integer comparison once
 *      scaled:
 *        integers: L, U integers, so t[i] = L + ceil(i (U - L) / B), in
 *                  64-bit integers (i (U - L) <= 2^24 x 2^33 < 2^63);
 *        floats:   L, U and x are f32 values, each an integer multiple of
 *                  2^-149 below 2^128, so X = x 2^149 etc. are integers below
 *                  2^277 and B (X - L) - i (U - L) is below 2^303 in
 *                  magnitude: a 320-bit two's-complement integer (Big below)
 *                  holds it exactly, and its sign answers x >= boundary i.
 *                  t[i] = the least key in [key(L), key(U)] whose float
 *                  passes, found by binary search over the keys (the test is
 *                  monotone in x): 32 tests at most, never an approximation.
 *
 * 3. The plan: a launch's Plan (by value, __grid_constant__) holds the
 *    region (in, channels, rows, row_pixels, stride) and per channel its
 *    bins, form, thresholds, counts, its offset among the block's shared
 *    counters, and for even bins the estimate's lower and scale (variant 8).
 *    prepare() builds it: zero every counted channel's counts, copy levels
 *    into the workspace, launch `thresholds`.
 *
 * 4. The workspace, for each counted channel in order: the levels (range
 *    form, (B + 1) doubles) then the thresholds ((B + 1) keys of 4 or 8
 *    bytes), each rounded up to 16 bytes.
 *
 * 5. What the kernels share besides: sample_at (a flat index to its sample
 *    and channel: variants 8 and 9), search_lifting (the branch-free search
 *    of variant 9, which variant 10 uses too), by_sample_type.
 */
#ifndef GK_HISTOGRAM_KERNELS_LEVELS_CUH
#define GK_HISTOGRAM_KERNELS_LEVELS_CUH

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

namespace {

constexpr int kMaxChannels = 4;

/* gk_dtype's values (gk/dtype.h), which the entry points receive. */
enum DtypeId { kF32 = 0, kI32 = 1, kU8 = 2, kU32 = 3, kF16 = 5, kU16 = 8 };

/* ---- 1. Sample types and keys. ----------------------------------------- */

struct Half { unsigned short bits; }; /* an f16 sample, as stored */

/* The ordered key of a float, -0.0 taken as +0.0. */
__device__ __forceinline__ unsigned fkey(float f)
{
    unsigned b = __float_as_uint(f);
    if (b == 0x80000000u) b = 0;
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
/* The float of a key (the inverse of fkey but for -0.0). */
__device__ __forceinline__ float key_float(unsigned k)
{
    return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

template <typename T> struct Sample;

template <> struct Sample<float> {
    using Key = unsigned;
    static constexpr bool kFloat = true;
    __device__ static float value(float x) { return x; }
    __device__ static Key key(float x) { return fkey(x); }
};
template <> struct Sample<Half> {
    using Key = unsigned;
    static constexpr bool kFloat = true;
    __device__ static float value(Half x) { return __half2float(__ushort_as_half(x.bits)); } /* exact */
    __device__ static Key key(Half x) { return fkey(value(x)); }
};
template <typename T, typename K, long long Min, long long End> struct IntSample {
    using Key = K;
    static constexpr bool kFloat = false;
    static constexpr long long kMin = Min, kEnd = End; /* the type's range is [kMin, kEnd) */
    __device__ static Key key(T x) { return (Key)x; }
};
template <> struct Sample<uint8_t> : IntSample<uint8_t, unsigned, 0, 256> {};
template <> struct Sample<uint16_t> : IntSample<uint16_t, unsigned, 0, 65536> {};
template <> struct Sample<int32_t> : IntSample<int32_t, long long, -2147483648LL, 2147483648LL> {};
template <> struct Sample<uint32_t> : IntSample<uint32_t, long long, 0, 4294967296LL> {};

/* ---- 2. Exact thresholds. ---------------------------------------------- */

/* A 320-bit two's-complement integer, limb 0 least significant. */
struct Big {
    unsigned w[10];
};
__device__ __forceinline__ Big big_neg(Big a)
{
    unsigned carry = 1;
    for (int j = 0; j < 10; ++j) {
        const unsigned long long s = (unsigned long long)(~a.w[j]) + carry;
        a.w[j] = (unsigned)s;
        carry = (unsigned)(s >> 32);
    }
    return a;
}
__device__ __forceinline__ Big big_add(const Big &a, const Big &b)
{
    Big r;
    unsigned carry = 0;
    for (int j = 0; j < 10; ++j) {
        const unsigned long long s = (unsigned long long)a.w[j] + b.w[j] + carry;
        r.w[j] = (unsigned)s;
        carry = (unsigned)(s >> 32);
    }
    return r;
}
/* a times k, modulo 2^320: exact for a signed a when the product fits. */
__device__ __forceinline__ Big big_mul(const Big &a, unsigned k)
{
    Big r;
    unsigned long long carry = 0;
    for (int j = 0; j < 10; ++j) {
        const unsigned long long s = (unsigned long long)a.w[j] * k + carry;
        r.w[j] = (unsigned)s;
        carry = s >> 32;
    }
    return r;
}
/* f x 2^149 for a finite float f: its 24-bit significand m placed at bit
 * e - 1 (value m 2^(e - 150), e the biased exponent, 1 for denormals), bits
 * 0..277. */
__device__ __forceinline__ Big big_of(float f)
{
    const unsigned b = __float_as_uint(f);
    unsigned e = (b >> 23) & 255, m = b & 0x7fffffu;
    if (e) m |= 0x800000u;
    else e = 1;
    const unsigned sh = e - 1, q = sh / 32, s = sh % 32; /* sh <= 253: q <= 7 */
    Big r = {};
    r.w[q] = m << s;
    if (s) r.w[q + 1] = m >> (32 - s);
    return (b >> 31) ? big_neg(r) : r;
}
/* B (x - L) >= i (U - L), exactly. */
__device__ __forceinline__ bool even_passes(float x, float lo, float hi, unsigned i, unsigned bins)
{
    const Big nl = big_neg(big_of(lo));
    const Big lhs = big_mul(big_add(big_of(x), nl), bins);
    const Big rhs = big_mul(big_add(big_of(hi), nl), i);
    const Big d = big_add(lhs, big_neg(rhs));
    return (d.w[9] >> 31) == 0;
}

template <typename T, bool F = Sample<T>::kFloat> struct Edge;
template <typename T> struct Edge<T, true> {
    using Key = unsigned;
    __device__ static Key level(double l) { return fkey(__double2float_ru(l)); }
    __device__ static Key even(unsigned i, unsigned bins, double lower, double upper)
    {
        const float lo = (float)lower, hi = (float)upper; /* exact: checked to be floats */
        unsigned a = fkey(lo), z = fkey(hi);              /* the answer is in [a, z]: i = B passes at hi */
        while (a < z) {                                   /* least key in [a, z] that passes */
            const unsigned mid = a + (z - a) / 2;
            if (even_passes(key_float(mid), lo, hi, i, bins)) z = mid;
            else a = mid + 1;
        }
        return a == 0x7fffffffu ? 0x80000000u : a; /* -0.0 found: the same value as +0.0 */
    }
};
template <typename T> struct Edge<T, false> {
    using S = Sample<T>;
    using Key = typename S::Key;
    __device__ static Key level(double l)
    {
        if (l <= (double)S::kMin) return (Key)S::kMin;
        if (l >= (double)S::kEnd) return (Key)S::kEnd;
        return (Key)(long long)ceil(l); /* |l| < 2^33: exact in a double and a long long */
    }
    __device__ static Key even(unsigned i, unsigned bins, double lower, double upper)
    {
        const long long lo = (long long)lower, hi = (long long)upper; /* integers: checked */
        const unsigned long long num = (unsigned long long)i * (unsigned long long)(hi - lo);
        return (Key)(lo + (long long)((num + bins - 1) / bins));
    }
};

/* t[i] for i in [0, bins]; levels (device) is NULL for even bins. */
template <typename T>
__global__ void thresholds(typename Sample<T>::Key *t, unsigned bins, const double *levels, double lower,
                           double upper)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > bins) return;
    t[i] = levels ? Edge<T>::level(levels[i]) : Edge<T>::even(i, bins, lower, upper);
}

/* ---- 3. The plan. ------------------------------------------------------- */

struct Chan {
    unsigned bins;               /* 0: not counted */
    unsigned even;               /* 1: even bins; 0: levels */
    unsigned off;                /* first of its counters among the block's shared ones */
    unsigned toff;               /* first of its thresholds among the block's shared keys (variant 9) */
    float lowf, scalef;          /* even, float samples: lower and bins / (upper - lower) */
    long long lowi;              /* even, integer samples: lower */
    const void *t;               /* bins + 1 threshold keys (workspace) */
    unsigned long long *counts;  /* bins 64-bit counts */
};
struct Plan {
    const char *in;
    unsigned channels;
    size_t rows, row_pixels, row_samples, stride; /* row_samples = row_pixels * channels */
    unsigned total_bins;                          /* the counted channels' bins, summed */
    unsigned counted;                             /* the counted channels */
    Chan ch[kMaxChannels];
};

/* x - lower as a float, for even bins, x in [lower, upper): exact integer
 * difference then one rounding for integers; one float subtraction for
 * floats. */
template <typename T> __device__ __forceinline__ float even_diff(T x, const Chan &c)
{
    if constexpr (Sample<T>::kFloat) return Sample<T>::value(x) - c.lowf;
    else return (float)((long long)Sample<T>::key(x) - c.lowi);
}

/* ---- 4. The workspace and the host side. ------------------------------- */

inline size_t round16(size_t x) { return (x + 15) / 16 * 16; }
inline size_t key_bytes(int dtype) { return dtype == kI32 || dtype == kU32 ? 8 : 4; }

inline size_t plan_workspace(int dtype, int channels, const size_t *bins, const double *const *levels)
{
    size_t w = 0;
    for (int c = 0; c < channels; ++c)
        if (bins[c]) w += (levels[c] ? round16((bins[c] + 1) * 8) : 0) + round16((bins[c] + 1) * key_bytes(dtype));
    return w;
}

/* Zeroes every counted channel's counts, copies its levels, queues its
 * thresholds and fills *p. Arguments as gk_histogram_ex checked them. */
template <typename T>
cudaError_t prepare(const void *in, int channels, size_t rows, size_t row_pixels, size_t stride, const size_t *bins,
                    const double *lower, const double *upper, const double *const *levels,
                    unsigned long long *const *counts, void *workspace, cudaStream_t stream, Plan *p)
{
    using Key = typename Sample<T>::Key;
    *p = Plan{};
    p->in = (const char *)in;
    p->channels = (unsigned)channels;
    p->rows = rows;
    p->row_pixels = row_pixels;
    p->row_samples = row_pixels * (size_t)channels;
    p->stride = rows > 1 ? stride : p->row_samples * sizeof(T);
    char *ws = (char *)workspace;
    cudaError_t e = cudaSuccess;
    for (int c = 0; c < channels && !e; ++c) {
        if (bins[c] == 0) continue;
        Chan &ch = p->ch[c];
        ch.bins = (unsigned)bins[c];
        ch.even = levels[c] == NULL;
        ch.off = p->total_bins;
        ch.toff = p->total_bins + p->counted;
        p->total_bins += ch.bins;
        p->counted += 1;
        ch.counts = counts[c];
        const double *dlev = NULL;
        if (levels[c]) {
            dlev = (const double *)ws;
            e = cudaMemcpyAsync(ws, levels[c], (bins[c] + 1) * 8, cudaMemcpyHostToDevice, stream);
            ws += round16((bins[c] + 1) * 8);
        } else {
            ch.lowf = (float)lower[c];
            ch.lowi = (long long)lower[c];
            ch.scalef = (float)((double)bins[c] / (upper[c] - lower[c]));
        }
        ch.t = ws;
        ws += round16((bins[c] + 1) * sizeof(Key));
        if (!e) e = cudaMemsetAsync(counts[c], 0, bins[c] * sizeof(unsigned long long), stream);
        if (!e) {
            thresholds<T><<<(unsigned)((bins[c] + 1 + 255) / 256), 256, 0, stream>>>(
                (Key *)ch.t, ch.bins, dlev, levels[c] ? 0.0 : lower[c], levels[c] ? 0.0 : upper[c]);
            e = cudaGetLastError();
        }
    }
    return e;
}

/* The address of flat sample f of the region (row-major over rows of
 * row_samples samples). One 64-bit division when there is more than one
 * row. */
template <typename T> __device__ __forceinline__ const T *sample_at(const Plan &p, size_t f, unsigned *channel)
{
    size_t row = 0, col = f;
    if (p.rows > 1) {
        row = f / p.row_samples;
        col = f - row * p.row_samples;
    }
    *channel = p.channels == 1 ? 0u : (unsigned)(col % p.channels);
    return reinterpret_cast<const T *>(p.in + row * p.stride) + col;
}

/* The largest i < bins with t[i] <= k, given t[0] <= k < t[bins]: binary
 * lifting, one select per step, the same steps for every lane (variant 9's
 * header proves it; variant 10 uses it too). t: shared or global memory. */
template <typename Key> __device__ __forceinline__ unsigned search_lifting(const Key *t, unsigned bins, Key k)
{
    unsigned b = 0;
    for (unsigned step = 1u << (31 - __clz(bins)); step; step >>= 1) {
        const unsigned j = min(b + step, bins); /* t[bins] exists and is > k */
        b = t[j] <= k ? j : b;
    }
    return b;
}

/* Calls run.template operator()<T>() for the entry point's dtype. */
template <typename F> cudaError_t by_sample_type(int dtype, F run)
{
    switch (dtype) {
    case kF32: return run((float *)0);
    case kF16: return run((Half *)0);
    case kU8: return run((uint8_t *)0);
    case kU16: return run((uint16_t *)0);
    case kI32: return run((int32_t *)0);
    case kU32: return run((uint32_t *)0);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

#endif /* GK_HISTOGRAM_KERNELS_LEVELS_CUH */
