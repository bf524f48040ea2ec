/* GPU tests of the gemm module's FP8 rung: gk_gemm_ex with e4m3 and e5m2
 * inputs (gk/gemm.h, "FP8": variant 18, and GK_GEMM_AUTO, which picks it
 * for FP8 inputs) and gk_gemm_fp8_quantize.
 *
 * The products: inputs are fresh random floats (a new seed every run,
 * printed for --seed) rounded to FP8 on the host (gk_fp8_bits), so the
 * float64 reference (gk_gemm_fp8_ref) multiplies exactly what the GPU
 * reads. Every type pair (e4m3 x e4m3, e4m3 x e5m2, e5m2 x e4m3) meets every
 * C type (f32, bf16, f16) in every layout (nn, nt, tn, tt), on shapes that
 * turn with them (m 1, 2, 17, 128, 255, 256, 300; n odd and even; k 0, 1,
 * 7, 16, 100, 129, 256, 4097), and with them in turn: a batch of 3 with
 * strides (gaps of 16-byte multiples or odd ones), with A or B broadcast
 * (stride 0); the four epilogues; alpha and beta, beta = 0 over a C full of
 * NaN (which must not leak); per-tensor scales sa, sb in {2^-10, 1, 2^10}
 * or none (NULL), with and without per-row scales of A and per-column
 * scales of B; the amax; fast_accum 0 and 1; leading dimensions dense
 * (given as 0), padded by 16-byte multiples, or odd, and a, b off 16-byte
 * boundaries by 1 and 3 bytes (where the kernel copies them). Then longer
 * cases: k = 4097 on 255 x 130 and 256 x 256, k = 65537 on tiny m and n
 * (inputs of one sign as well: every error adds up), an f16 C whose scaled
 * values pass 65504 (stored as +-inf), an e4m3 NaN byte (its row of D NaN,
 * the amax NaN), GK_GEMM_AUTO against variant 18 (the same bits), and a
 * call made twice (the same bits, C and amax).
 *
 * What is checked, each case: every element of C against the reference
 * within gk_gemm_fp8_tolerance (gemm_ref.h derives it: exact FP8
 * products; the tensor cores' accumulator assumed to keep 13 fractional
 * bits per product, restarted every 128 k with fast_accum = 0; the scales,
 * beta C and the bias in fp32; GELU; the rounding to C's type), NaN and
 * infinity failing except where the reference says so (NaN from a NaN
 * byte; +-inf for an f16 value at or past 65520); the amax within
 * [max(|ref| - te), max(|ref| + te)] over all elements (te the tolerance
 * before C's rounding, which the amax does not see); every element around
 * and between the C matrices (guards, row padding, batch gaps) keeping its
 * poison bits; the bytes after the workspace the query asked for kept.
 * Inputs are poisoned around the matrices with FP8 NaN bytes (0x7f, a NaN
 * in both types): a kernel that reads past a row or a matrix and adds it
 * makes NaN.
 *
 * The calls that must fail (a workspace one granule short, a misaligned
 * workspace, e5m2 x e5m2, FP8 inputs to variant 17, a scale with bf16
 * inputs) return their statuses and leave C and the amax as they were;
 * m = 0 leaves the amax alone.
 *
 * gk_gemm_fp8_quantize: both types, counts from 1 to past 2^20, x off a
 * 16-byte boundary and out off a 4-byte one (the element-wise path),
 * scales that push values past 448 and 57344, and values at every edge
 * (ties, underflow, +-inf, NaN): every byte equal to gk_fp8_bits(type,
 * scale * x) (the host's __NV_SATFINITE conversion), NaN compared as NaN;
 * the amax max |x| to the bit (inf with an infinity, NaN with a NaN); the
 * bytes around out kept; count = 0 writing nothing.
 *
 *   test_gemm_fp8_gpu [--variant ID] [--small] [--accuracy] [--seed S]
 *
 * --variant ID: an FP8 row of the table (default: each of them, 18).
 * --small: a few small cases covering each path (what scripts/sanitize.sh
 * runs under compute-sanitizer). --accuracy: no test; a measurement for
 * gemm/README.md: e4m3 x e4m3 at 256 x 256 x 4096 and 16384, C in bf16 and
 * f32, fast_accum 0 and 1, the error against float64 (its maximum and rms
 * relative to the rms of the result, and relative to the derived bound).
 * Exit 77 (a CTest skip) when no GPU is visible, and when variant 18
 * cannot run here (it needs a compute capability 9.0 GPU and a library
 * built for sm_90a).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gemm_ref.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/gemm.h"
#include "gk/random.h"
#include "gk/verify.h"
#include "gpu_test.h"
#include "test_util.h"

static const gk_gemm_type E4 = GK_GEMM_TYPE_E4M3, E5 = GK_GEMM_TYPE_E5M2;
static const gk_gemm_type F32 = GK_GEMM_TYPE_F32, BF16 = GK_GEMM_TYPE_BF16, F16 = GK_GEMM_TYPE_F16;

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

/* ---- Buffers -------------------------------------------------------------------- */

enum { GUARD = 256 };                        /* elements poisoned before and after each buffer */
static const uint32_t POISON32 = 0x7fc0dead; /* an fp32 NaN */
static const unsigned short POISON_BF16 = 0x7fad, POISON_F16 = 0x7dad;
static const unsigned char POISON8 = 0x7f; /* a NaN in e4m3 and in e5m2 */

static size_t esize(gk_gemm_type t) { return t == F32 ? 4 : (t == BF16 || t == F16) ? 2 : 1; }

/* The bits of x in type t; NaN is the type's poison pattern. x is a number
 * of the type (exact), or NaN. */
static void encode(gk_gemm_type t, float x, unsigned char *out)
{
    if (t == F32) {
        if (isnan(x)) memcpy(out, &POISON32, 4);
        else memcpy(out, &x, 4);
    } else if (t == BF16 || t == F16) {
        const unsigned short h = isnan(x) ? (t == BF16 ? POISON_BF16 : POISON_F16)
                                          : (t == BF16 ? gk_bf16_bits(x) : gk_fp16_bits(x));
        memcpy(out, &h, 2);
    } else {
        *out = isnan(x) ? POISON8 : gk_fp8_bits(t, x);
    }
}

static double decode(gk_gemm_type t, const unsigned char *p)
{
    if (t == F32) {
        float f;
        memcpy(&f, p, 4);
        return (double)f;
    }
    if (t == BF16 || t == F16) {
        unsigned short h;
        memcpy(&h, p, 2);
        return t == BF16 ? (double)gk_bf16_value(h) : (double)gk_fp16_value(h);
    }
    return gk_fp8_value(t, *p);
}

/* One operand as it lies in memory: GUARD elements, `offset` more, then
 * `count` matrices of rows x cols (leading dimension ld) `stride` apart,
 * then GUARD. h: the values (NaN outside the matrices), in: 1 on the
 * matrices' elements, raw: the bytes uploaded, d: the device copy; start:
 * the first element of product 0. */
typedef struct buf {
    gk_gemm_type t;
    size_t total, start;
    float *h;
    unsigned char *in, *raw;
    void *d;
} buf;

/* v: count * rows * cols values of the type, product by product, row by
 * row; NULL: NaN (a C that beta = 0 must not read). */
static void buf_make(buf *b, gk_gemm_type t, size_t rows, size_t cols, size_t ld, size_t count, size_t stride,
                     size_t offset, const float *v)
{
    b->t = t;
    const size_t span = rows && cols ? (count - 1) * stride + (rows - 1) * ld + cols : 0;
    b->start = GUARD + offset;
    b->total = 2 * GUARD + offset + span;
    b->h = (float *)gk_test_xmalloc(b->total * sizeof(float));
    b->in = (unsigned char *)gk_test_xmalloc(b->total);
    memset(b->in, 0, b->total);
    for (size_t i = 0; i < b->total; ++i) b->h[i] = NAN;
    for (size_t z = 0; z < count; ++z)
        for (size_t r = 0; r < rows; ++r)
            for (size_t c = 0; c < cols; ++c) {
                const size_t at = b->start + z * stride + r * ld + c;
                b->h[at] = v ? v[(z * rows + r) * cols + c] : NAN;
                b->in[at] = 1;
            }
    const size_t es = esize(t);
    b->raw = (unsigned char *)gk_test_xmalloc(b->total * es);
    for (size_t i = 0; i < b->total; ++i) encode(t, b->h[i], b->raw + i * es);
    TRY_CUDA(cudaMalloc(&b->d, b->total * es));
    TRY_CUDA(cudaMemcpy(b->d, b->raw, b->total * es, cudaMemcpyHostToDevice));
}

static void *buf_dev(const buf *b) { return (unsigned char *)b->d + b->start * esize(b->t); }

static void buf_free(buf *b)
{
    free(b->h), free(b->in), free(b->raw);
    cudaFree(b->d);
    memset(b, 0, sizeof *b);
}

/* n random numbers of type t: uniform in [-amp, amp) ([0, amp) when
 * positive), rounded to the type. */
static float *random_values(gk_gemm_type t, size_t n, uint64_t seed, double amp, int positive)
{
    float *v = (float *)gk_test_xmalloc((n ? n : 1) * sizeof(float));
    gk_fill_f32(v, n, seed, positive ? 0.0f : -1.0f, 1.0f);
    for (size_t i = 0; i < n; ++i) {
        const float x = (float)(amp * v[i]);
        v[i] = t == BF16 ? gk_bf16_value(gk_bf16_bits(x))
               : t == F16 ? gk_fp16_value(gk_fp16_bits(x))
               : t == F32 ? x
                          : (float)gk_fp8_value(t, gk_fp8_bits(t, x));
    }
    return v;
}

/* ---- One product ------------------------------------------------------------------ */

/* How the operands lie: leading dimensions dense (given as 0) or padded by
 * pad_* elements; a and b off_a and off_b bytes past a 256-byte boundary,
 * C and the bias off_c elements; the gaps between products of 16-byte
 * multiples (aligned) or odd. */
typedef struct layout_cfg {
    const char *name;
    int dense;
    size_t pad_a, pad_b, pad_c;
    size_t off_a, off_b, off_c;
    int aligned;
} layout_cfg;

static const layout_cfg cfgs[] = {
    {"ld 0 (dense), aligned", 1, 0, 0, 0, 0, 0, 0, 1},
    {"ld +3/+5/+1, a+1 b+3 bytes, C+1", 0, 3, 5, 1, 1, 3, 1, 0},
    {"ld +16/+32/+8, aligned", 0, 16, 32, 8, 0, 0, 0, 1},
    {"ld +1/+1/+2, a+16 b+0 bytes, C+2", 0, 1, 1, 2, 16, 0, 2, 0},
};
enum { N_CFGS = sizeof cfgs / sizeof cfgs[0] };

/* Per-tensor scales (0: the pointer NULL). */
static const float scale_sets[][2] = {{0, 0},         {1, 1},         {0x1p-10f, 0x1p10f}, {0x1p10f, 0x1p-10f},
                                      {0x1p-10f, 1},  {1, 0x1p10f},   {0x1p-10f, 0x1p-10f}, {0x1p10f, 0x1p10f}};
enum { N_SCALE_SETS = sizeof scale_sets / sizeof scale_sets[0] };

static const char *const batch_names[] = {"batch 1", "batch 3", "batch 3, stride_a 0", "batch 3, stride_b 0"};

typedef struct fcase {
    gk_gemm_type ta, tb, tc;
    int layout; /* bit 1: op_a = T; bit 0: op_b = T */
    size_t m, n, k;
    int bmode;  /* batch_names */
    int epi;
    float alpha, beta; /* beta = 0: C full of NaN */
    int scales;        /* scale_sets */
    int rowcol;        /* bit 0: scale_a_rows; bit 1: scale_b_cols; bit 2: column j's scale
                          +-2^(j/2 - 6), alternating in sign (the f16 overflow case); else
                          the scales are random in [0.5, 2) */
    int amax;
    int fast;
    int cfg;           /* cfgs */
    int positive;      /* inputs of one sign */
    int twice;         /* called again on the same inputs: the same bits */
    int nan_byte;      /* A's element (m / 2, k / 2) of product 0 an FP8 NaN */
    int use_auto;      /* the first call with GK_GEMM_AUTO, the second (twice) with the variant */
    double amp;        /* input amplitude; 0: from the scales */
} fcase;

/* The input amplitude: alpha sa sb amp^2 about 1, between 2^-3 and 2^6. */
static double amplitude(const fcase *x)
{
    if (x->amp > 0) return x->amp;
    const float *s = scale_sets[x->scales];
    const double prod = fabs((double)x->alpha) * (s[0] ? s[0] : 1.0) * (s[1] ? s[1] : 1.0);
    double e = floor(-0.5 * log2(prod) + 0.5);
    if (e < -3) e = -3;
    if (e > 6) e = 6;
    return ldexp(1.0, (int)e);
}

/* Every element of the C matrices against the reference; the amax's
 * interval. Returns the mismatches. */
static size_t check_c(const buf *C, const unsigned char *got, const fcase *x, size_t batch, size_t ldc, size_t sc,
                      const double *ref, const double *sab, const double *mag, double *lo, double *hi, int *any_nan,
                      const char *label)
{
    const size_t m = x->m, n = x->n, es = esize(x->tc);
    size_t bad = 0;
    *lo = 0.0, *hi = 0.0, *any_nan = 0;
    for (size_t z = 0; z < batch; ++z)
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                const size_t e = (z * m + i) * n + j;
                const double r = ref[e], g = decode(x->tc, got + (C->start + z * sc + i * ldc + j) * es);
                int ok;
                double tol = 0.0;
                if (isnan(r)) {
                    *any_nan = 1;
                    ok = isnan(g) != 0;
                } else {
                    const double te = gk_gemm_fp8_tolerance_pre(x->epi, x->fast, x->k, sab[e], mag[e], r);
                    tol = gk_gemm_fp8_tolerance(x->tc, x->epi, x->fast, x->k, sab[e], mag[e], r);
                    if (fabs(r) - te > *lo) *lo = fabs(r) - te;
                    if (fabs(r) + te > *hi) *hi = fabs(r) + te;
                    const int inf_ok = x->tc == F16 && fabs(r) + te >= 65520.0; /* may round to inf */
                    const int inf_must = x->tc == F16 && fabs(r) - te >= 65520.0;
                    if (isinf(g)) ok = inf_ok && (g > 0) == (r > 0);
                    else ok = !inf_must && isfinite(g) && fabs(g - r) <= tol;
                }
                if (!ok) {
                    if (bad < GK_VERIFY_SHOW)
                        printf("  %s: product %zu (%zu, %zu): got %.9g expected %.9g (|diff| %.3g, tol %.3g)\n", label,
                               z, i, j, g, r, fabs(g - r), tol);
                    ++bad;
                }
            }
    if (bad > GK_VERIFY_SHOW) printf("  %s: %zu of %zu elements mismatch\n", label, bad, batch * m * n);
    return bad;
}

/* Everything of the buffer outside its matrices kept its bits. */
static size_t untouched(const buf *b, const unsigned char *got, const char *label)
{
    const size_t es = esize(b->t);
    size_t bad = 0;
    for (size_t i = 0; i < b->total; ++i) {
        if (b->in[i] || memcmp(got + i * es, b->raw + i * es, es) == 0) continue;
        if (bad < 4)
            printf("  %s: wrote outside C, at element %td from C's start\n", label,
                   (ptrdiff_t)i - (ptrdiff_t)b->start);
        ++bad;
    }
    return bad;
}

enum { WS_GUARD = 4096 }; /* bytes after the workspace that must be kept */

/* One case: 1 on a pass. */
static int run_case(int variant, const fcase *x, uint64_t seed)
{
    const layout_cfg *cf = &cfgs[x->cfg];
    const size_t m = x->m, n = x->n, k = x->k;
    const int ta = x->layout >> 1, tb = x->layout & 1;
    char label[320];
    snprintf(label, sizeof label, "v%02d%s %s x %s -> %s %s%s %s %s %zux%zux%zu alpha %g beta %g, scales %g %g%s%s%s, %s%s [%s]",
             variant, x->use_auto ? " (auto)" : "", gk_gemm_type_name(x->ta), gk_gemm_type_name(x->tb),
             gk_gemm_type_name(x->tc), ta ? "t" : "n", tb ? "t" : "n", gk_gemm_epilogue_name((gk_gemm_epilogue)x->epi),
             batch_names[x->bmode], m, n, k, (double)x->alpha, (double)x->beta, (double)scale_sets[x->scales][0],
             (double)scale_sets[x->scales][1], x->rowcol & 1 ? ", rows" : "", x->rowcol & 2 ? ", cols" : "",
             x->amax ? ", amax" : "", x->fast ? "fast_accum" : "promoted", x->positive ? ", positive" : "", cf->name);
    /* Stored shapes (row-major): A m x k or k x m, B k x n or n x k. */
    const size_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
    const size_t batch = x->bmode ? 3 : 1;
    const size_t lda = ca + cf->pad_a, ldb = cb + cf->pad_b, ldc = n + cf->pad_c;
    /* Gaps between products: to a 16-byte multiple and 16 bytes more, or
     * odd. With one product the strides are not read: odd values that
     * would overlap. */
    const size_t ea = ra && ca ? (ra - 1) * lda + ca : 0, eb = rb && cb ? (rb - 1) * ldb + cb : 0;
    const size_t ec = (m - 1) * ldc + n, cel = esize(x->tc);
    size_t sa = cf->aligned ? (ea + 15) / 16 * 16 + 16 : ea + 5;
    size_t sb = cf->aligned ? (eb + 15) / 16 * 16 + 16 : eb + 3;
    size_t sc = cf->aligned ? (ec * cel + 15) / 16 * 16 / cel + 16 / cel : ec + 7;
    if (x->bmode == 2) sa = 0;
    if (x->bmode == 3) sb = 0;
    const size_t na = batch > 1 && sa ? batch : 1, nb = batch > 1 && sb ? batch : 1;

    const double amp = amplitude(x);
    float *va = random_values(x->ta, na * ra * ca, mix(seed, 1, 0), amp, x->positive);
    float *vb = random_values(x->tb, nb * rb * cb, mix(seed, 2, 0), amp, x->positive);
    float *vc = x->beta != 0.0f ? random_values(x->tc, batch * m * n, mix(seed, 3, 0), 1.0, 0) : NULL;
    float *vbias = random_values(x->tc, n, mix(seed, 4, 0), 1.0, 0);
    float *vrows = random_values(F32, m, mix(seed, 5, 0), 1.0, 1), *vcols = random_values(F32, n, mix(seed, 6, 0), 1.0, 1);
    for (size_t i = 0; i < m; ++i) vrows[i] = 0.5f + 1.5f * vrows[i]; /* [0.5, 2) */
    for (size_t j = 0; j < n; ++j)
        vcols[j] = x->rowcol & 4 ? (j % 2 ? -1.0f : 1.0f) * ldexpf(1.0f, (int)(j / 2) - 6) : 0.5f + 1.5f * vcols[j];
    buf A, B, C, bias, rows, cols, sc2;
    buf_make(&A, x->ta, ra, ca, lda, na, sa, cf->off_a, va);
    buf_make(&B, x->tb, rb, cb, ldb, nb, sb, cf->off_b, vb);
    buf_make(&C, x->tc, m, n, ldc, batch, sc, cf->off_c, vc);
    buf_make(&bias, x->tc, 1, n, n, 1, 0, cf->off_c, vbias);
    buf_make(&rows, F32, 1, m, m, 1, 0, 0, vrows);
    buf_make(&cols, F32, 1, n, n, 1, 0, 0, vcols);
    const float *s = scale_sets[x->scales];
    const float svals[2] = {s[0], s[1]};
    buf_make(&sc2, F32, 1, 2, 2, 1, 0, 0, svals);
    free(va), free(vb), free(vc), free(vbias), free(vrows), free(vcols);
    if (x->nan_byte && k > 0) { /* A's (m / 2, k / 2) of product 0: the byte 0x7f */
        const size_t i = m / 2, p = k / 2, at = A.start + (ta ? p * lda + i : i * lda + p);
        A.raw[at] = POISON8, A.h[at] = NAN;
        TRY_CUDA(cudaMemcpy((unsigned char *)A.d + at, &A.raw[at], 1, cudaMemcpyHostToDevice));
    }
    float *amax_d = NULL;
    TRY_CUDA(cudaMalloc((void **)&amax_d, 16));
    TRY_CUDA(cudaMemcpy(amax_d, &POISON32, 4, cudaMemcpyHostToDevice));

    gk_gemm_desc d = gk_gemm_desc_init(x->tc, m, n, k);
    d.type_a = x->ta, d.type_b = x->tb;
    d.op_a = ta ? GK_GEMM_OP_T : GK_GEMM_OP_N, d.op_b = tb ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    if (!cf->dense) d.lda = lda, d.ldb = ldb, d.ldc = ldc;
    d.alpha = x->alpha, d.beta = x->beta;
    d.batch = batch;
    d.stride_a = batch > 1 ? sa : 3, d.stride_b = batch > 1 ? sb : 1, d.stride_c = batch > 1 ? sc : 1;
    d.epilogue = (gk_gemm_epilogue)x->epi;
    d.bias = x->epi != GK_GEMM_EPILOGUE_NONE ? buf_dev(&bias) : NULL;
    d.scale_a = s[0] ? (const float *)buf_dev(&sc2) : NULL;
    d.scale_b = s[1] ? (const float *)buf_dev(&sc2) + 1 : NULL;
    d.scale_a_rows = x->rowcol & 1 ? (const float *)buf_dev(&rows) : NULL;
    d.scale_b_cols = x->rowcol & 2 ? (const float *)buf_dev(&cols) : NULL;
    d.amax = x->amax ? amax_d : NULL;
    d.fast_accum = x->fast;
    /* k = 0: A and B are not read; pass NULL with the offset configurations. */
    const void *pa = k == 0 && cf->off_a ? NULL : buf_dev(&A), *pb = k == 0 && cf->off_a ? NULL : buf_dev(&B);

    const size_t total = batch * m * n;
    double *ref = (double *)gk_test_xmalloc(3 * total * sizeof(double)), *sab = ref + total, *mag = sab + total;
    if (gk_gemm_fp8_ref(&d, A.raw + A.start, B.raw + B.start, C.h + C.start, bias.h + bias.start, s[0] ? s[0] : 1.0,
                        s[1] ? s[1] : 1.0, x->rowcol & 1 ? rows.h + rows.start : NULL,
                        x->rowcol & 2 ? cols.h + cols.start : NULL, ref, sab, mag) != 0) {
        printf("FATAL out of host memory for the reference\n");
        exit(1);
    }
    int ok = 1;
    const int first = x->use_auto ? GK_GEMM_AUTO : variant;
    if (x->use_auto) {
        int pick = -1;
        size_t splits = 0;
        const gk_status st = gk_gemm_auto_variant(&d, &pick, &splits);
        ok &= gk_test_ok(st, label, "gk_gemm_auto_variant") && pick == 18 && splits == 1;
        if (pick != 18 || splits != 1) printf("  %s: GK_GEMM_AUTO picks %d (%zu slices), not 18\n", label, pick, splits);
    }
    /* The workspace the query asks for, with the call's pointers, and
     * WS_GUARD bytes after it that must be kept. */
    size_t bytes = 0;
    gk_test_require(gk_gemm_ex(first, &d, pa, pb, buf_dev(&C), NULL, &bytes, 0), label);
    unsigned char *ws = NULL;
    TRY_CUDA(cudaMalloc((void **)&ws, bytes + WS_GUARD));
    TRY_CUDA(cudaMemset(ws, 0xcd, bytes + WS_GUARD));
    size_t b2 = bytes;
    gk_status st = gk_gemm_ex(first, &d, pa, pb, buf_dev(&C), ws, &b2, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(st, label);
    const size_t cbytes = C.total * cel;
    unsigned char *got = (unsigned char *)gk_test_xmalloc(cbytes), *guard = (unsigned char *)gk_test_xmalloc(WS_GUARD);
    float amax_got;
    TRY_CUDA(cudaMemcpy(got, C.d, cbytes, cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(&amax_got, amax_d, 4, cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(guard, ws + bytes, WS_GUARD, cudaMemcpyDeviceToHost));

    double lo, hi;
    int any_nan;
    ok &= check_c(&C, got, x, batch, ldc, sc, ref, sab, mag, &lo, &hi, &any_nan, label) == 0;
    ok &= untouched(&C, got, label) == 0;
    int guard_kept = 1;
    for (size_t i = 0; i < WS_GUARD; ++i) guard_kept &= guard[i] == 0xcd;
    if (!guard_kept) printf("  %s: wrote past the %zu workspace bytes it asked for\n", label, bytes);
    ok &= guard_kept;
    if (x->amax) {
        const int written = memcmp(&amax_got, &POISON32, 4) != 0;
        const int in = any_nan ? isnan(amax_got) != 0 : (double)amax_got >= lo && (double)amax_got <= hi;
        if (!written || !in)
            printf("  %s: amax %.9g%s, expected %s [%.9g, %.9g]\n", label, (double)amax_got,
                   written ? "" : " (not written)", any_nan ? "NaN, not" : "within", lo, hi);
        ok &= written && in;
    } else if (memcmp(&amax_got, &POISON32, 4) != 0) {
        printf("  %s: amax written without being asked for\n", label);
        ok = 0;
    }
    if (x->twice) {
        /* The same inputs again (C restored: it may be read, the amax
         * poisoned), through the variant named when the first call was
         * GK_GEMM_AUTO: the same bits. */
        TRY_CUDA(cudaMemcpy(C.d, C.raw, cbytes, cudaMemcpyHostToDevice));
        TRY_CUDA(cudaMemcpy(amax_d, &POISON32, 4, cudaMemcpyHostToDevice));
        size_t bytes2 = 0;
        gk_test_require(gk_gemm_ex(variant, &d, pa, pb, buf_dev(&C), NULL, &bytes2, 0), label);
        unsigned char *ws2 = NULL;
        TRY_CUDA(cudaMalloc((void **)&ws2, bytes2));
        st = gk_gemm_ex(variant, &d, pa, pb, buf_dev(&C), ws2, &bytes2, 0);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
        gk_test_require(st, label);
        unsigned char *again = (unsigned char *)gk_test_xmalloc(cbytes);
        float amax_again;
        TRY_CUDA(cudaMemcpy(again, C.d, cbytes, cudaMemcpyDeviceToHost));
        TRY_CUDA(cudaMemcpy(&amax_again, amax_d, 4, cudaMemcpyDeviceToHost));
        const int same = memcmp(got, again, cbytes) == 0 && memcmp(&amax_got, &amax_again, 4) == 0;
        if (!same)
            printf("  %s: a second call%s gave different bits (documented deterministic)\n", label,
                   x->use_auto ? " (naming the variant)" : "");
        ok &= same;
        free(again);
        cudaFree(ws2);
    }
    if (!ok) printf("  %s FAILED\n", label);
    free(got), free(guard), free(ref);
    cudaFree(ws), cudaFree(amax_d);
    buf_free(&A), buf_free(&B), buf_free(&C), buf_free(&bias), buf_free(&rows), buf_free(&cols), buf_free(&sc2);
    return ok;
}

static fcase mk(gk_gemm_type ta, gk_gemm_type tb, gk_gemm_type tc, int layout, size_t m, size_t n, size_t k)
{
    fcase c;
    memset(&c, 0, sizeof c);
    c.ta = ta, c.tb = tb, c.tc = tc, c.layout = layout, c.m = m, c.n = n, c.k = k;
    c.alpha = 1.0f;
    return c;
}

/* ---- The cases ---------------------------------------------------------------------- */

/* The shapes the coverage loop turns through: 13 of them (prime), so that
 * each layout (the loop index mod 4) meets each shape. */
static const size_t cover_shapes[][3] = {
    {1, 1, 1},     {2, 7, 16},      {17, 33, 100}, {255, 130, 7},  {256, 64, 100},  {300, 129, 16}, {17, 2, 4097},
    {256, 257, 1}, {2, 31, 0},      {300, 40, 129}, {255, 256, 16}, {1, 300, 100}, {128, 96, 256},
};
enum { N_COVER = sizeof cover_shapes / sizeof cover_shapes[0] };

static const gk_gemm_type pairs[3][2] = {{GK_GEMM_TYPE_E4M3, GK_GEMM_TYPE_E4M3},
                                         {GK_GEMM_TYPE_E4M3, GK_GEMM_TYPE_E5M2},
                                         {GK_GEMM_TYPE_E5M2, GK_GEMM_TYPE_E4M3}};
static const gk_gemm_type ctypes[3] = {GK_GEMM_TYPE_F32, GK_GEMM_TYPE_BF16, GK_GEMM_TYPE_F16};

static size_t build_cases(fcase *out, int small)
{
    size_t nc = 0;
    if (small) {
        /* One of each path, small: about 12 launches. */
        fcase c = mk(E4, E4, BF16, 1, 17, 33, 100);
        c.epi = GK_GEMM_EPILOGUE_BIAS, c.scales = 2, c.amax = 1, c.cfg = 0;
        out[nc++] = c;
        c = mk(E4, E5, F32, 0, 2, 7, 16);
        c.bmode = 1, c.epi = GK_GEMM_EPILOGUE_BIAS_RELU, c.rowcol = 3, c.fast = 1, c.cfg = 1, c.alpha = -1.5f,
        c.beta = 0.5f, c.scales = 3;
        out[nc++] = c;
        c = mk(E5, E4, F16, 2, 33, 17, 7);
        c.bmode = 2, c.epi = GK_GEMM_EPILOGUE_BIAS_GELU, c.cfg = 3, c.beta = -1.25f, c.scales = 4, c.amax = 1;
        out[nc++] = c;
        c = mk(E4, E4, F32, 3, 64, 40, 129);
        c.bmode = 3, c.cfg = 2, c.amax = 1, c.rowcol = 1, c.scales = 1;
        out[nc++] = c;
        c = mk(E4, E5, BF16, 1, 3, 5, 0); /* k = 0: epi(beta C + bias), A and B NULL */
        c.epi = GK_GEMM_EPILOGUE_BIAS, c.beta = 0.5f, c.cfg = 1, c.amax = 1;
        out[nc++] = c;
        c = mk(E4, E4, F16, 1, 130, 72, 64); /* GK_GEMM_AUTO, then variant 18: the same bits */
        c.use_auto = 1, c.twice = 1, c.amax = 1, c.scales = 6;
        out[nc++] = c;
        c = mk(E5, E4, F32, 0, 1, 1, 1);
        c.cfg = 1, c.fast = 1;
        out[nc++] = c;
        c = mk(E4, E5, BF16, 1, 9, 13, 70); /* a NaN byte */
        c.nan_byte = 1, c.amax = 1, c.cfg = 1;
        out[nc++] = c;
        return nc;
    }
    /* Every pair x C type x layout (36), the rest turning with the index. */
    for (int pi = 0; pi < 3; ++pi)
        for (int t = 0; t < 3; ++t)
            for (int layout = 0; layout < 4; ++layout) {
                const int idx = (pi * 3 + t) * 4 + layout;
                const size_t *sh = cover_shapes[idx % N_COVER];
                fcase c = mk(pairs[pi][0], pairs[pi][1], ctypes[t], layout, sh[0], sh[1], sh[2]);
                c.epi = (idx + idx / 4) % 4;
                c.bmode = (idx / 3) % 4;
                c.cfg = (idx + idx / 12) % N_CFGS;
                c.scales = idx % N_SCALE_SETS;
                if (c.tc == F16 && c.scales == 7) c.scales = 2; /* 2^20 times amp^2 = 2^-6 would pass f16's range */
                c.rowcol = (idx / 2) % 4;
                c.alpha = idx % 2 ? 0.75f : -1.5f;
                c.beta = idx % 3 == 0 ? 0.0f : idx % 3 == 1 ? 0.5f : -1.25f;
                c.amax = (idx / 5) % 2;
                c.fast = (idx / 6) % 2;
                out[nc++] = c;
            }
    /* Every epilogue with a batch and scales on one mid-sized shape. */
    for (int e = 0; e < 4; ++e) {
        fcase c = mk(E4, E4, BF16, 1, 300, 255, 100);
        c.epi = e, c.bmode = 1 + e % 3, c.scales = 2 + e, c.rowcol = 3, c.amax = 1, c.beta = e % 2 ? 0.5f : 0.0f,
        c.cfg = e % N_CFGS;
        out[nc++] = c;
    }
    /* k = 4097 on wider shapes, both modes; determinism there. */
    fcase c = mk(E4, E4, BF16, 1, 255, 130, 4097);
    out[nc++] = c;
    c.fast = 1, c.cfg = 2, c.amax = 1;
    out[nc++] = c;
    c = mk(E5, E4, F32, 2, 256, 256, 4097);
    c.rowcol = 3, c.amax = 1, c.scales = 3, c.twice = 1, c.epi = GK_GEMM_EPILOGUE_BIAS_GELU, c.beta = -1.25f;
    out[nc++] = c;
    /* Promoted with an even number of k-tiles past the first two (k = 1000:
     * 8), and n past two 128-column tiles. */
    c = mk(E4, E4, BF16, 1, 300, 257, 1000);
    c.amax = 1, c.scales = 2, c.epi = GK_GEMM_EPILOGUE_BIAS;
    out[nc++] = c;
    /* k = 65537 at small m and n: promoted with inputs of one sign (the
     * errors add up), fast_accum with mixed signs, e4m3 x e5m2. */
    c = mk(E4, E4, F32, 1, 3, 5, 65537);
    c.positive = 1, c.amax = 1;
    out[nc++] = c;
    c = mk(E4, E4, F32, 2, 2, 3, 65537);
    c.fast = 1, c.cfg = 1;
    out[nc++] = c;
    c = mk(E4, E5, BF16, 0, 3, 2, 65537);
    c.cfg = 3, c.scales = 6, c.rowcol = 2;
    out[nc++] = c;
    /* An f16 C past 65504: inputs of one sign in [0, 1) (A B about k / 4 =
     * 16), column scales +-2^-6 .. 2^13 alternating in sign: the columns
     * whose scale is 2^12 or more are +-inf, the others finite; the amax
     * finite (it is taken before the rounding). */
    c = mk(E4, E4, F16, 1, 33, 40, 64);
    c.positive = 1, c.amp = 1.0, c.rowcol = 2 | 4, c.amax = 1;
    out[nc++] = c;
    c.layout = 0, c.fast = 1, c.bmode = 1, c.epi = GK_GEMM_EPILOGUE_BIAS_RELU, c.cfg = 1;
    out[nc++] = c;
    /* An FP8 NaN byte: its row of D NaN, the amax NaN. */
    c = mk(E4, E5, BF16, 1, 40, 24, 100);
    c.nan_byte = 1, c.amax = 1;
    out[nc++] = c;
    c = mk(E4, E4, F32, 2, 17, 9, 33);
    c.nan_byte = 1, c.amax = 1, c.cfg = 1, c.bmode = 3, c.epi = GK_GEMM_EPILOGUE_BIAS_GELU;
    out[nc++] = c;
    /* GK_GEMM_AUTO: the pick is 18, and its bits are variant 18's. */
    c = mk(E4, E4, BF16, 1, 129, 200, 300);
    c.use_auto = 1, c.twice = 1, c.amax = 1, c.scales = 2;
    out[nc++] = c;
    c = mk(E5, E4, F16, 0, 70, 33, 48);
    c.use_auto = 1, c.twice = 1, c.bmode = 1, c.epi = GK_GEMM_EPILOGUE_BIAS, c.fast = 1, c.cfg = 1, c.beta = 0.5f;
    out[nc++] = c;
    return nc;
}

/* ---- The calls that must fail ----------------------------------------------------------- */

/* A workspace one granule short, a misaligned one, e5m2 x e5m2, FP8 inputs
 * to variant 17, a scale with bf16 inputs: their statuses, C and the amax
 * untouched; m = 0 with an amax: success, the amax untouched. */
static void test_rejections(int variant, uint64_t seed)
{
    const size_t m = 40, n = 24, k = 100;
    float *va = random_values(E4, m * k, mix(seed, 21, 0), 1.0, 0), *vb = random_values(E4, n * k, mix(seed, 22, 0), 1.0, 0);
    float *vc = random_values(BF16, m * n, mix(seed, 23, 0), 1.0, 0);
    buf A, B, C;
    buf_make(&A, E4, m, k, k + 1, 1, 0, 1, va); /* odd rows and a + 1: the copy path, a workspace to match */
    buf_make(&B, E4, n, k, k, 1, 0, 3, vb);
    buf_make(&C, BF16, m, n, n, 1, 0, 0, vc);
    free(va), free(vb), free(vc);
    float *scale_d = NULL;
    const float one[2] = {1.0f, 1.0f};
    TRY_CUDA(cudaMalloc((void **)&scale_d, 16));
    TRY_CUDA(cudaMemcpy(scale_d, one, 8, cudaMemcpyHostToDevice));
    float *amax_d = scale_d + 2;
    TRY_CUDA(cudaMemcpy(amax_d, &POISON32, 4, cudaMemcpyHostToDevice));
    gk_gemm_desc d = gk_gemm_desc_init(BF16, m, n, k);
    d.type_a = d.type_b = E4, d.op_b = GK_GEMM_OP_T, d.lda = k + 1, d.amax = amax_d, d.scale_a = scale_d;
    size_t need = 0;
    gk_test_require(gk_gemm_ex(variant, &d, buf_dev(&A), buf_dev(&B), buf_dev(&C), NULL, &need, 0), "query");
    unsigned char *ws = NULL;
    TRY_CUDA(cudaMalloc((void **)&ws, need + 256));
    size_t bytes = need - 256;
    gk_status st = gk_gemm_ex(variant, &d, buf_dev(&A), buf_dev(&B), buf_dev(&C), ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_WORKSPACE_TOO_SMALL && bytes == need - 256, "a workspace one granule short (%zu of %zu): %s",
          need - 256, need, gk_status_string(st.code));
    bytes = need;
    st = gk_gemm_ex(variant, &d, buf_dev(&A), buf_dev(&B), buf_dev(&C), ws + 8, &bytes, 0);
    CHECK(st.code == GK_ERROR_INVALID_ARGUMENT, "a workspace off 16 bytes: %s", gk_status_string(st.code));
    gk_gemm_desc e = d;
    e.type_a = e.type_b = E5;
    st = gk_gemm_ex(variant, &e, buf_dev(&A), buf_dev(&B), buf_dev(&C), ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "e5m2 x e5m2: %s", gk_status_string(st.code));
    st = gk_gemm_ex(GK_GEMM_AUTO, &e, buf_dev(&A), buf_dev(&B), buf_dev(&C), ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "e5m2 x e5m2, GK_GEMM_AUTO: %s", gk_status_string(st.code));
    st = gk_gemm_ex(17, &d, buf_dev(&A), buf_dev(&B), buf_dev(&C), ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "FP8 inputs to variant 17: %s", gk_status_string(st.code));
    e = gk_gemm_desc_init(BF16, m, n, k / 2); /* bf16 A and B in the same bytes */
    e.op_b = GK_GEMM_OP_T, e.lda = k / 2, e.ldb = k / 2, e.scale_b = scale_d;
    st = gk_gemm_ex(17, &e, buf_dev(&C), buf_dev(&C), buf_dev(&C), ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "a scale with bf16 inputs: %s", gk_status_string(st.code));
    e.scale_b = NULL, e.amax = amax_d;
    st = gk_gemm_ex(GK_GEMM_AUTO, &e, buf_dev(&C), buf_dev(&C), buf_dev(&C), ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "an amax with bf16 inputs: %s", gk_status_string(st.code));
    e = d, e.m = 0;
    st = gk_gemm_ex(variant, &e, buf_dev(&A), buf_dev(&B), buf_dev(&C), ws, &bytes, 0);
    CHECK(gk_ok(st), "m = 0: %s", gk_status_string(st.code));
    e = d, e.n = 0;
    st = gk_gemm_ex(variant, &e, NULL, NULL, NULL, ws, &bytes, 0);
    CHECK(gk_ok(st), "n = 0: %s", gk_status_string(st.code));
    TRY_CUDA(cudaDeviceSynchronize());
    unsigned char *got = (unsigned char *)gk_test_xmalloc(C.total * 2);
    float amax_got;
    TRY_CUDA(cudaMemcpy(got, C.d, C.total * 2, cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(&amax_got, amax_d, 4, cudaMemcpyDeviceToHost));
    CHECK(memcmp(got, C.raw, C.total * 2) == 0, "the rejected and empty calls left C as it was");
    CHECK(memcmp(&amax_got, &POISON32, 4) == 0, "the rejected and empty calls left the amax as it was");
    printf("rejections: done\n");
    free(got);
    cudaFree(ws), cudaFree(scale_d);
    buf_free(&A), buf_free(&B), buf_free(&C);
}

/* ---- gk_gemm_fp8_quantize --------------------------------------------------------------- */

/* Values at the edges of both types: ties, saturation, underflow, zeros. */
static const float edge_values[] = {0.0f,   -0.0f,   1.0f,     -1.0f,     448.0f,    -448.0f,    464.0f,   -464.0f,
                                    465.0f, 480.0f,  57344.0f, -57344.0f, 61440.0f,  -61440.0f,  61441.0f, 1e30f,
                                    -1e30f, FLT_MAX, 0x1p-10f, -0x1p-10f, 0x1.8p-9f, 0x1p-17f,   -0x1p-17f, 0x1p-16f,
                                    1e-30f, -1e-30f, 0x1p-149f, 3.0f,     0x1.1p0f,  0x1.3p0f,   0x1.5p0f,  -0x1.7p0f};

/* One call: count values (x `xoff` floats and out `ooff` bytes past
 * 256-byte boundaries), `specials`: 0 finite only, 1 with +-inf, 2 with a
 * NaN too. Returns 1 on a pass. */
static int quantize_case(gk_gemm_type t, size_t count, size_t xoff, size_t ooff, float scale, int specials, int with_amax,
                         uint64_t seed)
{
    char label[160];
    snprintf(label, sizeof label, "quantize %s, %zu values, x+%zu floats, out+%zu bytes, scale %g, %s%s",
             gk_gemm_type_name(t), count, xoff, ooff, (double)scale,
             specials == 0 ? "finite" : specials == 1 ? "with +-inf" : "with inf and NaN", with_amax ? ", amax" : "");
    float *x = (float *)gk_test_xmalloc((count + xoff) * sizeof(float));
    for (size_t i = 0; i < xoff; ++i) x[i] = 1.0f;
    gk_rng r;
    gk_rng_seed(&r, seed);
    for (size_t i = 0; i < count; ++i) { /* sign * [1, 2) * 2^e, e in [-30, 20]: every range of both types */
        const uint64_t u = gk_rng_next(&r);
        const double mant = 1.0 + (double)(u >> 40) / (double)(1ull << 24);
        x[xoff + i] = (float)((u & 1 ? -1.0 : 1.0) * ldexp(mant, (int)((u >> 8) % 51) - 30));
    }
    const size_t ne = sizeof edge_values / sizeof edge_values[0];
    for (size_t i = 0; i < ne && i < count; ++i) x[xoff + (i * 7919) % count] = edge_values[i];
    if (specials >= 1 && count >= 3) x[xoff + count / 2] = INFINITY, x[xoff + count - 1] = -INFINITY;
    if (specials >= 2 && count >= 3) x[xoff + count / 3] = NAN;
    /* The expected bytes and amax. */
    unsigned char *want = (unsigned char *)gk_test_xmalloc(count);
    float amax_want = 0.0f;
    int any_nan = 0;
    for (size_t i = 0; i < count; ++i) {
        const float v = x[xoff + i], sv = scale * v; /* the product in fp32, as the kernel forms it */
        want[i] = gk_fp8_bits(t, sv);
        if (isnan(v)) any_nan = 1;
        else if (fabsf(v) > amax_want) amax_want = fabsf(v);
    }
    enum { OG = 64 }; /* bytes poisoned around out */
    const size_t obytes = ooff + count + 2 * OG;
    unsigned char *oh = (unsigned char *)gk_test_xmalloc(obytes);
    memset(oh, 0xa5, obytes);
    float *xd = NULL, *amax_d = NULL;
    unsigned char *od = NULL;
    TRY_CUDA(cudaMalloc((void **)&xd, (count + xoff) * sizeof(float)));
    TRY_CUDA(cudaMalloc((void **)&od, obytes));
    TRY_CUDA(cudaMalloc((void **)&amax_d, 16));
    TRY_CUDA(cudaMemcpy(xd, x, (count + xoff) * sizeof(float), cudaMemcpyHostToDevice));
    TRY_CUDA(cudaMemcpy(od, oh, obytes, cudaMemcpyHostToDevice));
    TRY_CUDA(cudaMemcpy(amax_d, &POISON32, 4, cudaMemcpyHostToDevice));
    gk_status st = gk_gemm_fp8_quantize(t, xd + xoff, count, scale, od + OG + ooff, with_amax ? amax_d : NULL, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    int ok = gk_test_ok(st, label, "gk_gemm_fp8_quantize");
    unsigned char *got = (unsigned char *)gk_test_xmalloc(obytes);
    float amax_got;
    TRY_CUDA(cudaMemcpy(got, od, obytes, cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(&amax_got, amax_d, 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < count; ++i) {
        const unsigned char g = got[OG + ooff + i];
        const int same = isnan(x[xoff + i]) ? isnan(gk_fp8_value(t, g)) != 0 : g == want[i];
        if (!same && bad++ < GK_VERIFY_SHOW)
            printf("  %s: x[%zu] = %.9g (scaled %.9g): got 0x%02x (%g), expected 0x%02x (%g)\n", label, i,
                   (double)x[xoff + i], (double)(scale * x[xoff + i]), g, gk_fp8_value(t, g), want[i],
                   gk_fp8_value(t, want[i]));
    }
    if (bad) printf("  %s: %zu of %zu bytes differ\n", label, bad, count);
    ok &= bad == 0;
    size_t outside = 0;
    for (size_t i = 0; i < obytes; ++i)
        if ((i < OG + ooff || i >= OG + ooff + count) && got[i] != 0xa5) ++outside;
    if (outside) printf("  %s: %zu bytes written outside out\n", label, outside);
    ok &= outside == 0;
    if (with_amax) {
        /* max |x| before the scale, to the bit; NaN with a NaN. */
        const int am = any_nan ? isnan(amax_got) != 0 : memcmp(&amax_got, &amax_want, 4) == 0;
        if (!am) printf("  %s: amax %.9g, expected %.9g\n", label, (double)amax_got, any_nan ? NAN : (double)amax_want);
        ok &= am;
    } else if (memcmp(&amax_got, &POISON32, 4) != 0) {
        printf("  %s: amax written without being asked for\n", label);
        ok = 0;
    }
    if (!ok) printf("  %s FAILED\n", label);
    free(x), free(want), free(oh), free(got);
    cudaFree(xd), cudaFree(od), cudaFree(amax_d);
    return ok;
}

static void test_quantize(uint64_t seed, int small)
{
    static const size_t counts[] = {1, 3, 4, 5, 17, 1000, 65543, ((size_t)1 << 22) + 3};
    const size_t ncounts = small ? 5 : sizeof counts / sizeof counts[0];
    int cases = 0, failed_before = check_failed;
    for (int ti = 0; ti < 2; ++ti) {
        const gk_gemm_type t = ti ? E5 : E4;
        const float scales[] = {1.0f, 0.125f, 128.0f, ti ? 57344.0f / 1024.0f : 448.0f / 1024.0f};
        for (size_t ci = 0; ci < ncounts; ++ci) {
            const size_t count = counts[ci];
            /* The layouts (x aligned or not, out aligned or not), scales and
             * specials turning with the count. */
            const size_t xoff = ci % 2, ooff = ci % 3 == 2 ? 3 : ci % 3;
            const float scale = scales[ci % 4];
            const int specials = (int)(ci % 3), with_amax = ci != 4;
            int ok = quantize_case(t, count, xoff, ooff, scale, specials, with_amax, mix(seed, 31 + ti, ci));
            CHECK(ok, "quantize %s count %zu", gk_gemm_type_name(t), count);
            ++cases;
            if (!small && count >= 1000) { /* the vector path with every option at once, and the other path */
                ok = quantize_case(t, count, 0, 0, scales[(ci + 1) % 4], 2, 1, mix(seed, 41 + ti, ci));
                CHECK(ok, "quantize %s count %zu aligned", gk_gemm_type_name(t), count);
                ok = quantize_case(t, count, 1, 1, scales[(ci + 2) % 4], 1, 1, mix(seed, 51 + ti, ci));
                CHECK(ok, "quantize %s count %zu unaligned", gk_gemm_type_name(t), count);
                cases += 2;
            }
        }
        /* count = 0: nothing written, not even the amax. */
        unsigned char *od = NULL;
        float *amax_d = NULL, amax_got;
        TRY_CUDA(cudaMalloc((void **)&od, 16));
        TRY_CUDA(cudaMalloc((void **)&amax_d, 16));
        TRY_CUDA(cudaMemset(od, 0xa5, 16));
        TRY_CUDA(cudaMemcpy(amax_d, &POISON32, 4, cudaMemcpyHostToDevice));
        gk_status st = gk_gemm_fp8_quantize(t, amax_d, 0, 1.0f, od, amax_d, 0);
        TRY_CUDA(cudaDeviceSynchronize());
        unsigned char o[16];
        TRY_CUDA(cudaMemcpy(o, od, 16, cudaMemcpyDeviceToHost));
        TRY_CUDA(cudaMemcpy(&amax_got, amax_d, 4, cudaMemcpyDeviceToHost));
        int kept = gk_ok(st) && memcmp(&amax_got, &POISON32, 4) == 0;
        for (int i = 0; i < 16; ++i) kept &= o[i] == 0xa5;
        CHECK(kept, "quantize %s, count 0: success, nothing written", gk_gemm_type_name(t));
        cudaFree(od), cudaFree(amax_d);
    }
    printf("gk_gemm_fp8_quantize: %d cases, %s\n", cases, check_failed == failed_before ? "all passed" : "FAILURES above");
}

/* ---- --accuracy -------------------------------------------------------------------------- */

static void accuracy(int variant, uint64_t seed)
{
    const size_t m = 256, n = 256;
    static const size_t ks[2] = {4096, 16384};
    const gk_gemm_type outs[2] = {BF16, F32};
    printf("accuracy of variant %d: e4m3 x e4m3 (A m x k, B stored n x k: y = x W^T), m = n = 256, inputs uniform\n"
           "random numbers rounded to e4m3, against the float64 product of those e4m3 values. err = got - ref;\n"
           "relative to rms(ref) = sqrt(mean ref^2) (normwise); /S: |err| / sum_k |a b| (per element, the bound's\n"
           "unit); /tol: |err| over the tolerance the tests use (gemm_ref.h: 13 bits kept per product assumed;\n"
           "above 1 means that assumption is wrong on this GPU).\n",
           variant);
    printf("%-9s %6s %4s %10s %16s %16s %12s %10s\n", "inputs", "k", "C", "fast_accum", "max|err|/rms(ref)",
           "rms(err)/rms(ref)", "max|err|/S", "max/tol");
    for (int dist = 0; dist < 2; ++dist)
        for (int ki = 0; ki < 2; ++ki) {
            const size_t k = ks[ki];
            float *va = random_values(E4, m * k, mix(seed, 61, ki), 1.0, dist), *vb = random_values(E4, n * k, mix(seed, 62, ki), 1.0, dist);
            buf A, B;
            buf_make(&A, E4, m, k, k, 1, 0, 0, va);
            buf_make(&B, E4, n, k, k, 1, 0, 0, vb);
            free(va), free(vb);
            gk_gemm_desc d = gk_gemm_desc_init(F32, m, n, k);
            d.type_a = d.type_b = E4, d.op_b = GK_GEMM_OP_T;
            double *ref = (double *)gk_test_xmalloc(3 * m * n * sizeof(double)), *sab = ref + m * n, *mag = sab + m * n;
            if (gk_gemm_fp8_ref(&d, A.raw + A.start, B.raw + B.start, NULL, NULL, 1.0, 1.0, NULL, NULL, ref, sab, mag) != 0) {
                printf("FATAL out of host memory for the reference\n");
                exit(1);
            }
            double ss = 0.0;
            for (size_t e = 0; e < m * n; ++e) ss += ref[e] * ref[e];
            const double rms_ref = sqrt(ss / (double)(m * n));
            for (int o = 0; o < 2; ++o) {
                double res[2][2];
                for (int fast = 0; fast < 2; ++fast) {
                    d.type = outs[o], d.fast_accum = fast;
                    buf C;
                    buf_make(&C, outs[o], m, n, n, 1, 0, 0, NULL);
                    size_t bytes = 0;
                    gk_test_require(gk_gemm_ex(variant, &d, buf_dev(&A), buf_dev(&B), buf_dev(&C), NULL, &bytes, 0), "accuracy");
                    void *ws = NULL;
                    TRY_CUDA(cudaMalloc(&ws, bytes));
                    gk_status st = gk_gemm_ex(variant, &d, buf_dev(&A), buf_dev(&B), buf_dev(&C), ws, &bytes, 0);
                    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
                    gk_test_require(st, "accuracy");
                    const size_t es = esize(outs[o]);
                    unsigned char *got = (unsigned char *)gk_test_xmalloc(C.total * es);
                    TRY_CUDA(cudaMemcpy(got, C.d, C.total * es, cudaMemcpyDeviceToHost));
                    double emax = 0.0, esum = 0.0, smax = 0.0, tmax = 0.0;
                    int finite = 1;
                    for (size_t i = 0; i < m; ++i)
                        for (size_t j = 0; j < n; ++j) {
                            const size_t e = i * n + j;
                            const double g = decode(outs[o], got + (C.start + e) * es), err = fabs(g - ref[e]);
                            finite &= isfinite(g) != 0;
                            if (err > emax) emax = err;
                            esum += err * err;
                            if (sab[e] > 0 && err / sab[e] > smax) smax = err / sab[e];
                            const double tol = gk_gemm_fp8_tolerance(outs[o], 0, fast, k, sab[e], mag[e], ref[e]);
                            if (err / tol > tmax) tmax = err / tol;
                        }
                    CHECK(finite, "accuracy: every element finite (%s, fast_accum %d, k %zu)", gk_gemm_type_name(outs[o]),
                          fast, k);
                    res[fast][0] = emax / rms_ref, res[fast][1] = sqrt(esum / (double)(m * n)) / rms_ref;
                    printf("%-9s %6zu %4s %10d %16.3e %16.3e %12.3e %10.3f%s\n", dist ? "[0, 1)" : "[-1, 1)", k,
                           gk_gemm_type_name(outs[o]), fast, res[fast][0], res[fast][1], smax, tmax,
                           tmax > 1.0 ? "  EXCEEDS the derived bound" : "");
                    free(got);
                    cudaFree(ws);
                    buf_free(&C);
                }
                printf("%-9s %6zu %4s   fast_accum 1 / 0: max %.2f, rms %.2f\n", dist ? "[0, 1)" : "[-1, 1)", k,
                       gk_gemm_type_name(outs[o]), res[1][0] / res[0][0], res[1][1] / res[0][1]);
            }
            fflush(stdout);
            free(ref);
            buf_free(&A), buf_free(&B);
        }
}

/* ---- main ---------------------------------------------------------------------------- */

/* 1 when variant v runs here; 0, saying why, when it cannot (it needs
 * compute capability 9.0 and a library built for sm_90a, and says
 * GK_ERROR_UNSUPPORTED elsewhere). */
static int runs_here(const gk_gemm_variant *v, const gk_device_info *dev)
{
    if (dev->cc_major * 10 + dev->cc_minor != 90) {
        printf("SKIPPED: variant %d (%s) needs a compute capability 9.0 GPU (H100, H200); this one is %d.%d\n", v->id,
               v->name, dev->cc_major, dev->cc_minor);
        return 0;
    }
    unsigned char *mem = NULL;
    TRY_CUDA(cudaMalloc((void **)&mem, 1024));
    TRY_CUDA(cudaMemset(mem, 0x38, 1024)); /* e4m3 1.0 */
    gk_gemm_desc d = gk_gemm_desc_init(F32, 1, 1, 1);
    d.type_a = d.type_b = E4;
    size_t bytes = 0;
    gk_status st = gk_gemm_ex(v->id, &d, mem, mem + 16, mem + 256, NULL, &bytes, 0);
    void *ws = NULL;
    if (gk_ok(st)) {
        TRY_CUDA(cudaMalloc(&ws, bytes));
        st = gk_gemm_ex(v->id, &d, mem, mem + 16, mem + 256, ws, &bytes, 0);
    }
    TRY_CUDA(cudaDeviceSynchronize());
    cudaFree(ws), cudaFree(mem);
    if (st.code == GK_ERROR_UNSUPPORTED) {
        printf("SKIPPED: variant %d (%s) answers GK_ERROR_UNSUPPORTED here (%s)\n", v->id, v->name, st.what);
        return 0;
    }
    gk_test_require(st, "variant probe");
    return 1;
}

int main(int argc, char **argv)
{
    int variant = 0, small = 0, acc = 0;
    uint64_t seed = gk_test_new_seed();
    const gk_test_option opts[] = {{"--small", &small, NULL}, {"--accuracy", &acc, NULL}};
    if (gk_test_args(argc, argv, opts, 2, "test_gemm_fp8_gpu [--variant ID] [--small] [--accuracy] [--seed S]", &variant,
                     &seed) != 0)
        return 2;
    const gk_gemm_variant *only = variant ? gk_gemm_find_variant(variant) : NULL;
    if (variant && (only == NULL || only->precision != GK_GEMM_FP8)) {
        printf("no FP8 variant %d\n", variant);
        return 2;
    }
    gk_device_info dev;
    if (gk_test_open_gpu(&dev, seed) != 0) return GK_TEST_SKIP;
    if (!acc) test_quantize(seed, small); /* not a rung: runs on any GPU */
    int ran = 0;
    for (size_t vi = 0; vi < gk_gemm_variant_count(); ++vi) {
        const gk_gemm_variant *v = gk_gemm_variant_at(vi);
        if (v->precision != GK_GEMM_FP8 || (only && v != only)) continue;
        if (!runs_here(v, &dev)) continue;
        ran = 1;
        if (acc) {
            accuracy(v->id, seed);
            continue;
        }
        test_rejections(v->id, seed);
        static fcase cases[128];
        const size_t nc = build_cases(cases, small);
        int failed_before = check_failed;
        for (size_t ci = 0; ci < nc; ++ci) {
            const int ok = run_case(v->id, &cases[ci], mix(seed, 1000 + ci, (uint64_t)v->id));
            CHECK(ok, "variant %d case %zu", v->id, ci);
            if ((ci + 1) % 10 == 0 || ci + 1 == nc) {
                printf("variant %d: %zu of %zu cases done\n", v->id, ci + 1, nc);
                fflush(stdout);
            }
        }
        printf("variant %d (%s): %zu cases, %s\n", v->id, v->name, nc,
               check_failed == failed_before ? "all passed" : "FAILURES above");
    }
    if (!ran) {
        if (check_failed) return check_summary("test_gemm_fp8_gpu");
        printf("no FP8 variant can run here: skipped (gk_gemm_fp8_quantize: %d checks passed)\n", check_passed);
        return GK_TEST_SKIP;
    }
    return check_summary("test_gemm_fp8_gpu");
}
