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
 *    GPU by the kernel `prepare_channels` (B + 1 threads per channel):
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
 *                  passes (the test is monotone in x), searched from the
 *                  float nearest the boundary computed in double: 2 tests
 *                  where that estimate is within an ulp, at most 64 where
 *                  it is not, never an approximation.
 *
 * 3. The plan: a launch's Plan (by value, __grid_constant__) holds the
 *    region (in, channels, rows, row_pixels, stride) and per channel its
 *    bins, form, thresholds, counts, its offset among the block's shared
 *    counters, and for even bins the estimate's lower and scale (variant 8).
 *    prepare() builds it: copy levels into the workspace, then one launch
 *    of `prepare_channels` for all counted channels, which zeroes their
 *    counts and writes their thresholds.
 *
 * 4. The workspace, for each counted channel in order: the levels (range
 *    form, (B + 1) doubles) then the thresholds ((B + 1) keys of 4 or 8
 *    bytes), each rounded up to 16 bytes.
 *
 * 5. What the kernels share besides: sample_at (a flat index to its sample
 *    and channel: variants 8 and 9), search_lifting (the branch-free search
 *    of variant 9, which variants 10 and 11 use too), walk_rows,
 *    merge_replicas, each_rows_launch and replica_shift (variant 10's walk
 *    over a region's rows in 16-byte vectors, its counters' replicas and
 *    its launches, which variant 11 shares), by_sample_type.
 */
#ifndef GK_HISTOGRAM_KERNELS_LEVELS_CUH
#define GK_HISTOGRAM_KERNELS_LEVELS_CUH

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

namespace {

constexpr int kMaxChannels = 4;

/* gk_dtype's values (gk/dtype.h), which the entry points receive. */
enum DtypeId { kF32 = 0, kI32 = 1, kU8 = 2, kU32 = 3, kF16 = 5, kU16 = 8 };

/* ---- 1. Sample types and keys. ----------------------------------------- */

struct Half { unsigned short bits; }; /* an f16 sample, as stored */

/* The ordered key of a float, -0.0 taken as +0.0 (also on the host, where
 * variant 11 plans its key cells). */
__host__ __device__ __forceinline__ unsigned fkey(float f)
{
#ifdef __CUDA_ARCH__
    unsigned b = __float_as_uint(f);
#else
    unsigned b;
    memcpy(&b, &f, 4);
#endif
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
        /* The least key in [a, z] whose float passes (the test is monotone
         * in the key; z = key(hi) passes, as i <= B). Start at the float
         * nearest the boundary computed in double, k; gallop from k (down
         * while keys pass, up while they fail, 1, 2, 4, ... keys a step)
         * until the answer is bracketed, then bisect the bracket. Where the
         * double estimate is within a float's ulp of the boundary (all but
         * boundaries that cancel to near 0 from far larger L and U) that
         * is 2 tests; never more than 2 x 32. */
        unsigned a = fkey(lo), z = fkey(hi);
        unsigned k = fkey((float)(lower + (double)i * ((upper - lower) / (double)bins)));
        k = k < a ? a : k > z ? z : k;
        if (even_passes(key_float(k), lo, hi, i, bins)) {
            z = k; /* keys below a fail; z passes */
            for (unsigned step = 1; a < z; step = step < 0x80000000u ? 2 * step : step) {
                const unsigned p = z - a > step ? z - step : a;
                if (even_passes(key_float(p), lo, hi, i, bins)) z = p;
                else {
                    a = p + 1;
                    break;
                }
            }
        } else {
            a = k + 1; /* keys up to k fail; z passes */
            for (unsigned step = 1; a < z; step = step < 0x80000000u ? 2 * step : step) {
                const unsigned p = z - a > step ? a + step - 1 : z - 1;
                if (even_passes(key_float(p), lo, hi, i, bins)) {
                    z = p;
                    break;
                }
                a = p + 1;
            }
        }
        while (a < z) {
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

/* The work before a histogram, for every counted channel in one launch
 * (blockIdx.y: the channel's place among the counted ones): its counts
 * zeroed and its thresholds t[i], i in [0, bins], written; levels (device)
 * NULL for even bins. */
template <typename T> struct Prep {
    typename Sample<T>::Key *t[kMaxChannels];
    const double *levels[kMaxChannels];
    double lower[kMaxChannels], upper[kMaxChannels];
    unsigned long long *counts[kMaxChannels];
    unsigned bins[kMaxChannels];
};
template <typename T> __global__ void prepare_channels(const Prep<T> q)
{
    const unsigned c = blockIdx.y, i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < q.bins[c]) q.counts[c][i] = 0;
    if (i <= q.bins[c])
        q.t[c][i] = q.levels[c] ? Edge<T>::level(q.levels[c][i]) : Edge<T>::even(i, q.bins[c], q.lower[c], q.upper[c]);
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
    const double *levels;        /* levels: the bins + 1 levels (workspace); even bins: NULL */
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
    Prep<T> q = {};
    unsigned most = 0; /* the most bins of a counted channel */
    for (int c = 0; c < channels && !e; ++c) {
        if (bins[c] == 0) continue;
        Chan &ch = p->ch[c];
        const unsigned j = p->counted;
        ch.bins = (unsigned)bins[c];
        ch.even = levels[c] == NULL;
        ch.off = p->total_bins;
        ch.toff = p->total_bins + p->counted;
        p->total_bins += ch.bins;
        p->counted += 1;
        ch.counts = counts[c];
        if (levels[c]) {
            ch.levels = (const double *)ws;
            e = cudaMemcpyAsync(ws, levels[c], (bins[c] + 1) * 8, cudaMemcpyHostToDevice, stream);
            ws += round16((bins[c] + 1) * 8);
        } else {
            ch.lowf = (float)lower[c];
            ch.lowi = (long long)lower[c];
            ch.scalef = (float)((double)bins[c] / (upper[c] - lower[c]));
            q.lower[j] = lower[c];
            q.upper[j] = upper[c];
        }
        ch.t = ws;
        ws += round16((bins[c] + 1) * sizeof(Key));
        q.t[j] = (Key *)ch.t;
        q.levels[j] = ch.levels;
        q.counts[j] = ch.counts;
        q.bins[j] = ch.bins;
        most = ch.bins > most ? ch.bins : most;
    }
    if (!e && p->counted) {
        prepare_channels<T><<<dim3((most + 1 + 255) / 256, p->counted), 256, 0, stream>>>(q);
        e = cudaGetLastError();
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

/* ---- 5b. The walk over a region's rows (variants 10 and 11). --------- */

constexpr unsigned kUnroll = 4; /* 16-byte loads in flight per thread (variant 10; the walk's default) */

template <typename T> struct Vector {
    static constexpr unsigned kPer = 16 / sizeof(T); /* samples per 16-byte vector */
    union {
        uint4 v;
        T e[kPer];
    };
};

/* A block's copy of the channels' plan, first in dynamic shared memory
 * (dynamic, not static: common.cuh's opt-in sets the dynamic limit to the
 * device's whole maximum, which static shared memory would overrun). */
static_assert(sizeof(Chan) % 8 == 0, "the counters after the channels stay 8-byte aligned");
constexpr size_t kChanBytes = sizeof(Chan) * kMaxChannels;

/* Items [w0, w0 + items) of the region, item w being piece w % segs (of
 * kBlock x U vectors) of row w / segs, each thread of the block taking every
 * kBlock-th vector of the piece (variant 10's header, items 1 and 2, says
 * why and how); U, the 16-byte loads each thread has in flight, is kUnroll
 * unless the caller says otherwise. CC: the channel count when it is 1, 2 or 4 (it then divides
 * the samples per vector, so every vector of every thread of an item starts
 * on the same channel, ph), or 0 for any count. The counter k is called as
 *   k.count(x, c)     for sample x in channel c: every sample when CC = 0
 *                     (but see k.all_whole3 below), else those of heads
 *                     and tails;
 *   k.channel(c)      (CC = 2, 4) for each channel c of an item's vectors
 *                     in turn, returning whether c is counted, then
 *   k.each_mode(body) which calls body(m) with m a std::integral_constant
 *                     (the channel's way of binning, a constant), and body
 *                     calls k.count_as<m>(x) for each of that channel's
 *                     samples in the item's vectors (for CC = 1
 *                     the kernel calls k.channel(0) once, before the walk),
 * so that a channel's plan is read once per item, not once per sample, and
 * an uncounted channel's samples cost nothing. A counter that has
 * all_whole3() (variant 11) may take CC = 0's 3 channels without count():
 * when it returns true, sample x of channel c of a vector goes to
 * k.add_at(k.offset(c), x), the offsets taken once per vector.
 * Every load lies inside [0, row_samples) of its row: the padding after a
 * row is never read. An item wholly inside its row (every item of a row
 * but the last, when CC > 0) loads and counts its vectors with no test of
 * the row's end; the last one tests each vector. */
/* Whether a counter K has the three-channel whole form (variant 11's
 * all_whole3, offset and add_at; see the walk below). */
template <typename K, typename = void> struct HasWhole3 : std::false_type {};
template <typename K> struct HasWhole3<K, std::void_t<decltype(&K::all_whole3)>> : std::true_type {};
template <typename K> __device__ __forceinline__ bool use_whole3(const K &k)
{
    if constexpr (HasWhole3<K>::value) return k.all_whole3();
    else return false;
}

template <typename T, int CC, unsigned U = kUnroll, typename K>
__device__ __forceinline__ void walk_rows(const Plan &p, K &k, size_t w0, unsigned items, size_t segs)
{
    constexpr unsigned V = Vector<T>::kPer;
    constexpr unsigned kSegVecs = kBlock * U; /* vectors per item */
    static_assert(CC == 0 || CC == 1 || CC == 2 || CC == 4, "CC: 1, 2, 4, or 0 for any channel count");
    const unsigned C = CC ? (unsigned)CC : p.channels;
    const unsigned dv = V % C;                 /* a vector's samples advance the channel by V mod C */
    const unsigned step = (kBlock * dv) % C;   /* from a thread's vector to its next, kBlock vectors on */
    const size_t rs = p.row_samples;           /* > 0: the entry point stops on an empty region */
    for (unsigned it = blockIdx.x; it < items; it += gridDim.x) {
        const size_t w = w0 + it;
        /* The item's row: no division for one row or for rows of one
         * piece, a 32-bit one while w and segs fit in 32 bits, else one
         * 64-bit division (per item, not per sample). */
        size_t row;
        if (segs == 1 || p.rows == 1) row = segs == 1 ? w : 0;
        else if ((w | segs) >> 32 == 0) row = (unsigned)w / (unsigned)segs;
        else row = w / segs;
        const size_t seg = w - row * segs;
        const char *rowp = p.in + row * p.stride;
        const size_t align = ((16 - ((uintptr_t)rowp & 15)) & 15) / sizeof(T); /* the row starts element-aligned */
        const unsigned head = (unsigned)(align < rs ? align : rs);
        const size_t nvec = (rs - head) / V;
        const uint4 *vp = reinterpret_cast<const uint4 *>(rowp + (size_t)head * sizeof(T)); /* 16-byte aligned */
        const size_t v0 = seg * kSegVecs;
        if (v0 < nvec) {
            const size_t left = nvec - v0; /* vectors of this row from v0 on */
            /* The channel of this thread's first vector's first sample,
             * sample head + (v0 + threadIdx.x) V of the row, mod C. For C =
             * 1, 2 and 4, V (4, 8 or 16) is a multiple of C: it is head mod
             * C. For C = 3: v0 = seg kSegVecs, so with residues mod 3,
             * head + (seg mod 3)(kSegVecs mod 3)(V mod 3) + threadIdx.x
             * (V mod 3); modulo by the constant 3 is a multiply, not a
             * division. */
            unsigned ph = head & (C - 1); /* head mod C for C = 1, 2, 4 */
            if (C == 3)
                ph = (head + (unsigned)(seg % 3u) * (kSegVecs % 3u) * (V % 3u) + threadIdx.x * (V % 3u)) % 3u;
            Vector<T> x[U];
            const bool whole = left >= (size_t)kSegVecs; /* every thread's U vectors inside the row */
#pragma unroll
            for (unsigned u = 0; u < U; ++u)
                if (whole || u * kBlock + threadIdx.x < left) x[u].v = __ldg(vp + v0 + u * kBlock + threadIdx.x);
            if constexpr (CC > 0) {
                /* Sample e of every vector is in channel (ph + e) mod CC. */
#pragma unroll
                for (unsigned j = 0; j < (unsigned)CC; ++j) {
                    if (CC > 1 && !k.channel((ph + j) & (CC - 1))) continue;
                    k.each_mode([&](auto m) {
                        if (whole) {
#pragma unroll
                            for (unsigned u = 0; u < U; ++u)
#pragma unroll
                                for (unsigned i = 0; i < V / CC; ++i)
                                    k.template count_as<decltype(m)::value>(x[u].e[j + i * CC]);
                        } else {
#pragma unroll
                            for (unsigned u = 0; u < U; ++u)
                                if (u * kBlock + threadIdx.x < left)
#pragma unroll
                                    for (unsigned i = 0; i < V / CC; ++i)
                                        k.template count_as<decltype(m)::value>(x[u].e[j + i * CC]);
                        }
                    });
                }
            } else if (C == 3 && use_whole3(k)) {
                /* Three channels, each counted by its value (the counter
                 * says so): sample e of a vector is in channel (ph + e) mod
                 * 3, so with the three channels' counter offsets taken in
                 * that order once per vector, each sample's offset is a
                 * compile-time choice of the three. */
                if constexpr (HasWhole3<K>::value) {
#pragma unroll
                    for (unsigned u = 0; u < U; ++u) {
                        if (whole || u * kBlock + threadIdx.x < left) {
                            const unsigned p1 = ph == 2 ? 0 : ph + 1, p2 = ph == 0 ? 2 : ph - 1;
                            const unsigned o[3] = {k.offset(ph), k.offset(p1), k.offset(p2)};
#pragma unroll
                            for (unsigned e = 0; e < V; ++e) k.add_at(o[e % 3], x[u].e[e]);
                        }
                        ph += step;
                        ph = ph >= C ? ph - C : ph;
                    }
                }
            } else {
#pragma unroll
                for (unsigned u = 0; u < U; ++u) {
                    if (u * kBlock + threadIdx.x < left) {
                        unsigned c = ph;
#pragma unroll
                        for (unsigned e = 0; e < V; ++e) {
                            k.count(x[u].e[e], c);
                            c = c + 1 == C ? 0 : c + 1;
                        }
                    }
                    ph += step;
                    ph = ph >= C ? ph - C : ph;
                }
            }
        }
        if (seg == 0) {
            /* The head (samples 0..head-1, channel j % C for j < 16) and
             * the tail (the last m = rs - tail0 < V samples: sample rs - i,
             * 1 <= i <= m, is in channel (C - i % C) % C, rs being a whole
             * number of pixels), one sample per thread. */
            const unsigned tail = (unsigned)(rs - head - nvec * V);
            const T *s = reinterpret_cast<const T *>(rowp);
            if (threadIdx.x < head) k.count(s[threadIdx.x], threadIdx.x % C);
            else if (threadIdx.x - head < tail) {
                const unsigned i = tail - (threadIdx.x - head); /* 1..tail */
                k.count(s[rs - i], (C - i % C) % C);
            }
        }
    }
}

/* After a __syncthreads(): counter b of channel c, summed over its 2^shift
 * replicas (replica r of counter b at word (b << shift) + r), added to the
 * channel's 64-bit counts. The r-th replica read is (r + b) mod reps, so
 * that consecutive b (a warp's lanes) read different banks. Threads: the
 * block's. */
template <unsigned Threads = kBlock>
__device__ __forceinline__ void merge_replicas(const Plan &p, const unsigned *hist, unsigned shift)
{
    const unsigned reps = 1u << shift;
    for (unsigned c = 0; c < p.channels; ++c)
        for (unsigned b = threadIdx.x; b < p.ch[c].bins; b += Threads) {
            const unsigned *h = hist + ((p.ch[c].off + b) << shift);
            unsigned n = 0; /* <= 2^31: a launch counts at most 2^31 samples */
            for (unsigned r = 0; r < reps; ++r) n += h[(r + b) & (reps - 1)];
            if (n) atomicAdd(p.ch[c].counts + b, (unsigned long long)n);
        }
}

/* Cuts the region's items (rows x pieces) into launches of at most 2^31
 * samples (32-bit shared counters never wrap) and calls
 * launch(grid, w0, items, segs) for each; grid <= resident (> 0). */
template <typename T, unsigned U = kUnroll, typename F>
cudaError_t each_rows_launch(const Plan &p, size_t resident, F launch)
{
    constexpr size_t V = Vector<T>::kPer;
    constexpr size_t kSegVecs = kBlock * U;
    /* nvec <= row_samples / V for every row, whatever its head. */
    size_t segs = (p.row_samples / V + kSegVecs - 1) / kSegVecs;
    if (segs == 0) segs = 1; /* rows of fewer than V samples: head and tail only */
    const size_t items = p.rows * segs;
    /* An item holds at most kSegVecs vectors plus a head and a tail below V each. */
    const size_t per_launch = kChunk / ((size_t)kSegVecs * V + 2 * V);
    for (size_t w0 = 0; w0 < items; w0 += per_launch) {
        const size_t len = items - w0 < per_launch ? items - w0 : per_launch;
        /* As many blocks as the resident ones, or fewer where that evens
         * out the rounds: every block then takes ceil(len / grid) or one
         * item less, and no round is left to a few blocks (16384 items on
         * 528 resident blocks: 512 blocks of 32 items, not 16 blocks of 32
         * and 512 of 31). */
        const size_t rounds = (len + resident - 1) / resident;
        launch((unsigned)((len + rounds - 1) / rounds), w0, (unsigned)len, segs);
        const cudaError_t e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

/* The replicas of each shared counter: the most (a power of two, at most
 * 32) with which a block's shared memory, `other` bytes besides the
 * counters, stays within `budget` (kReplicaBudget: 4 blocks fit in an
 * sm_90 SM's 228 KB, 1 KB of it reserved per block); *fits: whether one
 * copy does. */
constexpr size_t kReplicaBudget = 56 * 1024;
inline unsigned replica_shift(unsigned total_bins, size_t other, bool *fits, size_t budget = kReplicaBudget)
{
    unsigned shift = 0;
    *fits = (size_t)total_bins * 4 + other <= budget;
    while (shift < 5 && ((size_t)total_bins << (shift + 1)) * 4 + other <= budget) ++shift;
    return shift;
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
