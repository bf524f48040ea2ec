/* GPU tests of the gemm module.
 *
 * For each variant, each shape below and each of five calling configurations
 * (alpha and beta; beta = 0 over a C full of NaN; leading dimensions longer
 * than the rows; pointers offset by one element, so never 16-byte aligned):
 * fresh random inputs (a new seed every run, printed for --seed), C and the
 * memory around it poisoned first, then every element of C compared with a
 * float64 CPU reference within gk_gemm_tolerance (gemm_ref.h: derived from
 * k, sum |a b| and sqrt(sum (a b)^2); TF32's for variant 11), and every float
 * outside C (the padding of each row, and guards before and after) checked
 * untouched. The large shapes are compared with cuBLAS in pure fp32
 * (CUBLAS_COMPUTE_32F) instead, at twice the tolerance (two GPU results);
 * there sum |a b| and sum (a b)^2 come from cuBLAS too, on |A|, |B| and on
 * the squares of A and B (their own relative error, about k * 2^-24, is far
 * inside the tolerance's factor lambda = 10).
 * Every variant is run twice on one shape and must give the same bits.
 *
 * BF16 (gk_gemm_bf16: the 16-bit rows 13-17, 19-21 and 23 of the table): the same shapes
 * and configurations, with A,
 * B and C holding bf16 numbers (random floats rounded to bf16, so the float64
 * reference of the rounded values is exact), C and its surroundings poisoned
 * with a bf16 NaN, the tolerance of GK_GEMM_BF16; the large shapes are
 * compared with cuBLAS in bf16 (cublasGemmEx, CUDA_R_16BF in and out,
 * CUBLAS_COMPUTE_32F) computing the same alpha * A * B + beta * C, at twice
 * the tolerance. Leading dimensions +3/+5/+1 make the byte strides of A and
 * B not multiples of 16 (the slow copy path); offset 1 moves every pointer
 * 2 bytes off 16-byte alignment.
 *
 * gk_gemm_ex: for every variant, the default description through gk_gemm_ex
 * must give the bits of gk_gemm (fp32 rows) or gk_gemm_bf16 (16-bit rows);
 * a variant that is not extended must answer GK_ERROR_UNSUPPORTED to a
 * transposed operand, a batch and an epilogue, writing nothing. For every
 * extended variant (variant->extended, found through the table) and every
 * type it stores (variant->types): every layout (nn, nt, tn, tt) x epilogue
 * (none, bias, bias_relu, bias_gelu) x batch (1; 3 with distinct strides
 * and padding between the products; 3 with stride_a = 0; 3 with stride_b =
 * 0) on the shapes of ex_shapes (some run all 64 combinations, the costlier
 * ones a covering subset: see there), each combination under one of four
 * calling configurations in turn (alpha and beta; beta = 0 over a NaN C;
 * dense leading dimensions given as 0, padded by 8 elements (the TMA path:
 * 16-byte rows for multiples of 8), or by odd amounts (the gather path);
 * pointers 16-byte aligned or offset by one element), plus C interleaved
 * across the batch (ldc = 3 n, stride_c = n). Inputs are fresh random
 * numbers of the type (held as floats), every element of A, B, C, the bias
 * and the memory around them (guards, row padding, the gaps between
 * products) that is not an input is a NaN, the float64 reference is
 * gk_gemm_ref_ex, the tolerance gk_gemm_tolerance_ex (gemm_ref.h derives it:
 * the sums, the bias's rounding, GELU's Lipschitz constant and relative
 * error, the rounding to the type), and every element outside the C
 * matrices must keep its bits. One case of the largest shape runs twice
 * and must give the same bits.
 *
 *   test_gemm_gpu [--variant ID | --bf16 ID | --table fp32|bf16] [--ex] [--auto] [--small] [--seed S]
 *
 * --variant ID: variant ID only (any id of the table); --bf16 ID: the same,
 * for an id of the 16-bit rows (13-17, 19-21 and 23) only; --table: every variant of the
 * fp32 rows (1-12) or of the 16-bit rows; none of them: every variant.
 * --ex: only the gk_gemm_ex tests. --auto: only GK_GEMM_AUTO's (its picks
 * and split-K; the default run includes them). --small: only the small odd shapes, and
 * a small but covering set of gk_gemm_ex cases (what scripts/sanitize.sh
 * runs under compute-sanitizer). Exit 77 (a CTest skip) when no GPU is
 * visible.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_test.h"
#include "gemm_ref.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/gemm.h"
#include "gk/random.h"
#include "gk/verify.h"
#include "test_util.h"


typedef struct shape {
    size_t m, n, k;
    int large;    /* checked against cuBLAS instead of the CPU */
    int positive; /* inputs uniform in [0, 1) instead of [-1, 1) */
} shape;

/* Odd shapes, tile multiples and their neighbours, m != n != k, k = 0. */
static const shape small_shapes[] = {
    {1, 1, 1, 0, 0},     {7, 7, 7, 0, 0},     {1, 129, 127, 0, 0},  {127, 1, 129, 0, 0}, {129, 127, 130, 0, 0},
    {33, 65, 0, 0, 0},   {64, 64, 8, 0, 0},   {128, 128, 16, 0, 0}, {127, 129, 17, 0, 0}, {5, 257, 33, 0, 0},
};
static const shape medium_shapes[] = {
    {1000, 7, 129, 0, 0},   {7, 1000, 1000, 0, 0},  {127, 1000, 129, 0, 0}, {1000, 127, 1, 0, 0}, {256, 512, 64, 0, 0},
    {129, 129, 129, 0, 0},  {4097, 33, 65, 0, 0},   {33, 4097, 17, 0, 0},   {1000, 1000, 1000, 0, 0},
    {4097, 3001, 2049, 1, 0}, {2048, 2048, 2048, 1, 0},
    /* Rows the TMA can address (lda = 200, ldb = 100 floats: 800 and 400
     * bytes) with n not a multiple of 32: variant 12's last 32-column B
     * panel lies partly outside the matrix (the TMA zero-fills it). */
    {300, 100, 200, 0, 0},
    /* As above with n = 36 (ldb 144 bytes): variant 12 loads B in 32-column
     * panels, and its last two panels lie wholly right of column n (not
     * loaded: their stale contents must reach no stored element). */
    {300, 36, 200, 0, 0},
    /* Every product positive: a one-sided rounding error (an operand
     * truncated to TF32 instead of rounded, say) then adds up over k. A
     * truncated operand in [0, 1) is off by 2^-11 ln 2 of its value on
     * average, so |A B|, about k / 4 = 2048, comes out about 0.69 low per
     * truncated operand, where the TF32 tolerance of rounded operands grows
     * like sqrt(k): 10 * 2 * 2^-11 * sqrt(k / 9) = 0.29 (gemm_ref.h): such a
     * kernel fails here. Dense lds are multiples of 4 floats and of 8 bf16
     * (the TMA paths); configs 1 and 2 take the others. */
    {200, 136, 8192, 0, 1},
};

/* How a shape is called: alpha, beta, C's contents, leading-dimension padding
 * and the element offset of every pointer from a 256-byte boundary. */
typedef struct config {
    const char *name;
    float alpha, beta;
    int nan_c;            /* C full of NaN (only with beta = 0) */
    size_t pad_a, pad_b, pad_c;
    size_t offset;
} config;

static const config configs[] = {
    {"alpha=1 beta=0, C NaN, dense", 1.0f, 0.0f, 1, 0, 0, 0, 0},
    {"alpha=0.75 beta=-1.25, ld+3/+5/+1, offset 1", 0.75f, -1.25f, 0, 3, 5, 1, 1},
    {"alpha=-2 beta=0.5, dense, offset 1", -2.0f, 0.5f, 0, 0, 0, 0, 1},
    {"alpha=1.5 beta=0, C NaN, ld+4", 1.5f, 0.0f, 1, 4, 4, 4, 0},
    /* Leading dimensions 8 elements longer: for k and n multiples of 8, rows
     * of 16-byte multiples in fp32 and bf16 alike, so the TMA paths run on
     * padded matrices, and BF16 variant 5 stores C through the TMA with an
     * alpha other than 1. */
    {"alpha=-0.5 beta=0, C NaN, ld+8", -0.5f, 0.0f, 1, 8, 8, 8, 0},
};

enum { GUARD = 64 }; /* floats poisoned before and after each matrix */
static const uint32_t POISON = 0x7fc0dead;  /* a NaN */

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

/* One matrix in device memory: GUARD poisoned floats, `offset` more, then
 * the rows (rows x ld, of which cols used), GUARD poisoned floats. */
typedef struct dmat {
    float *base, *p;
    size_t rows, cols, ld, total;
} dmat;

static void dmat_make(dmat *d, const float *host, size_t rows, size_t cols, size_t ld, size_t offset, int nan_fill)
{
    d->rows = rows, d->cols = cols, d->ld = ld;
    d->total = GUARD + offset + rows * ld + GUARD;
    float *h = (float *)gk_test_xmalloc(d->total * sizeof(float));
    for (size_t i = 0; i < d->total; ++i) memcpy(&h[i], &POISON, 4);
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) {
            if (nan_fill) memcpy(&h[GUARD + offset + r * ld + c], &POISON, 4);
            else h[GUARD + offset + r * ld + c] = host[r * cols + c];
        }
    TRY_CUDA(cudaMalloc((void **)&d->base, d->total * sizeof(float)));
    TRY_CUDA(cudaMemcpy(d->base, h, d->total * sizeof(float), cudaMemcpyHostToDevice));
    d->p = d->base + GUARD + offset;
    free(h);
}

/* Everything outside the m x n used part of C must still be poison. */
static size_t untouched_outside(const float *h, const dmat *d, size_t offset, const char *label)
{
    size_t bad = 0;
    for (size_t i = 0; i < d->total; ++i) {
        size_t j = i - GUARD - offset;
        int inside = i >= GUARD + offset && j < d->rows * d->ld && j % d->ld < d->cols;
        if (!inside && memcmp(&h[i], &POISON, 4) != 0) {
            if (bad < 4) printf("  %s: wrote outside C, at float %zd from C's start\n", label, (ptrdiff_t)i - (ptrdiff_t)(GUARD + offset));
            ++bad;
        }
    }
    return bad;
}

typedef struct inputs {
    shape s;
    float *a, *b, *c;      /* dense host copies */
    double *ab, *absab, *rmsab; /* A*B, |A|*|B|, sqrt((A.A)*(B.B)) (CPU, float64), small shapes */
    int have_ref;
} inputs;

static void make_inputs(inputs *in, const shape *s, uint64_t seed)
{
    in->s = *s;
    in->a = (float *)gk_test_xmalloc(s->m * s->k * sizeof(float));
    in->b = (float *)gk_test_xmalloc(s->k * s->n * sizeof(float));
    in->c = (float *)gk_test_xmalloc(s->m * s->n * sizeof(float));
    const float lo = s->positive ? 0.0f : -1.0f;
    gk_fill_f32(in->a, s->m * s->k, mix(seed, s->m, 1), lo, 1.0f);
    gk_fill_f32(in->b, s->k * s->n, mix(seed, s->n, 2), lo, 1.0f);
    gk_fill_f32(in->c, s->m * s->n, mix(seed, s->k, 3), -1.0f, 1.0f);
    in->ab = in->absab = in->rmsab = NULL;
    in->have_ref = 0;
    if (!s->large) {
        in->ab = (double *)gk_test_xmalloc(s->m * s->n * sizeof(double));
        in->absab = (double *)gk_test_xmalloc(s->m * s->n * sizeof(double));
        in->rmsab = (double *)gk_test_xmalloc(s->m * s->n * sizeof(double));
        gk_gemm_ref(s->m, s->n, s->k, 1.0, in->a, s->k, in->b, s->n, 0.0, NULL, s->n, in->ab, in->absab, in->rmsab);
        in->have_ref = 1;
    }
}

static void free_inputs(inputs *in)
{
    free(in->a), free(in->b), free(in->c), free(in->ab), free(in->absab), free(in->rmsab);
}

/* The expected C and its magnitudes for one configuration. Small shapes:
 * from the CPU's A*B. Large ones: cuBLAS fp32 on the same device data. */
/* cuBLAS fp32: out = f(A) * f(B) for f = |x| (square = 0) or x^2 (1). */
static void cublas_of(cublasHandle_t h, const inputs *in, int square, float *d_out, float *h_out)
{
    const shape *s = &in->s;
    float *ta = (float *)gk_test_xmalloc(s->m * s->k * sizeof(float));
    float *tb = (float *)gk_test_xmalloc(s->k * s->n * sizeof(float));
    for (size_t i = 0; i < s->m * s->k; ++i) ta[i] = square ? in->a[i] * in->a[i] : fabsf(in->a[i]);
    for (size_t i = 0; i < s->k * s->n; ++i) tb[i] = square ? in->b[i] * in->b[i] : fabsf(in->b[i]);
    float *fa = NULL, *fb = NULL;
    TRY_CUDA(cudaMalloc((void **)&fa, s->m * s->k * sizeof(float)));
    TRY_CUDA(cudaMalloc((void **)&fb, s->k * s->n * sizeof(float)));
    TRY_CUDA(cudaMemcpy(fa, ta, s->m * s->k * sizeof(float), cudaMemcpyHostToDevice));
    TRY_CUDA(cudaMemcpy(fb, tb, s->k * s->n * sizeof(float), cudaMemcpyHostToDevice));
    if (gk_cublas_gemm(h, GK_GEMM_FP32, s->m, s->n, s->k, 1.0f, fa, s->k, fb, s->n, 0.0f, d_out, s->n) !=
        CUBLAS_STATUS_SUCCESS) {
        printf("FATAL cublasGemmEx failed\n");
        exit(1);
    }
    TRY_CUDA(cudaMemcpy(h_out, d_out, s->m * s->n * sizeof(float), cudaMemcpyDeviceToHost));
    cudaFree(fa), cudaFree(fb);
    free(ta), free(tb);
}

static void expected(const inputs *in, const config *cf, cublasHandle_t h, const dmat *da, const dmat *db,
                     double *ref, double *mag, double *rms)
{
    const shape *s = &in->s;
    size_t mn = s->m * s->n;
    double aa = fabs((double)cf->alpha);
    if (in->have_ref) {
        for (size_t i = 0; i < mn; ++i) {
            double cb = cf->beta != 0.0f ? (double)cf->beta * in->c[i] : 0.0;
            ref[i] = cf->alpha * in->ab[i] + cb;
            mag[i] = aa * in->absab[i] + fabs(cb);
            rms[i] = aa * in->rmsab[i];
        }
        return;
    }
    /* cuBLAS: A*B and |A|*|B| into a dense scratch C. */
    float *d = NULL, *h_out = (float *)gk_test_xmalloc(mn * sizeof(float));
    TRY_CUDA(cudaMalloc((void **)&d, mn * sizeof(float)));
    if (gk_cublas_gemm(h, GK_GEMM_FP32, s->m, s->n, s->k, 1.0f, da->p, da->ld, db->p, db->ld, 0.0f, d, s->n) !=
        CUBLAS_STATUS_SUCCESS) {
        printf("FATAL cublasGemmEx failed\n");
        exit(1);
    }
    TRY_CUDA(cudaMemcpy(h_out, d, mn * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < mn; ++i) {
        double cb = cf->beta != 0.0f ? (double)cf->beta * in->c[i] : 0.0;
        ref[i] = cf->alpha * (double)h_out[i] + cb;
        mag[i] = fabs(cb);
    }
    cublas_of(h, in, 0, d, h_out);
    for (size_t i = 0; i < mn; ++i) mag[i] += aa * h_out[i];
    cublas_of(h, in, 1, d, h_out);
    for (size_t i = 0; i < mn; ++i) rms[i] = aa * sqrt((double)h_out[i]);
    cudaFree(d);
    free(h_out);
}

/* One variant, one shape, one configuration: 1 on a pass. With `bits`, the
 * result is also compared bitwise with a second call. */
static int run_case(const gk_gemm_variant *v, const inputs *in, const config *cf, cublasHandle_t h, int twice)
{
    const shape *s = &in->s;
    char label[192];
    snprintf(label, sizeof label, "v%02d %s %zux%zux%zu [%s]", v->id, v->name, s->m, s->n, s->k, cf->name);
    size_t lda = s->k + cf->pad_a, ldb = s->n + cf->pad_b, ldc = s->n + cf->pad_c;
    dmat da, db, dc;
    dmat_make(&da, in->a, s->m, s->k, lda, cf->offset, 0);
    dmat_make(&db, in->b, s->k, s->n, ldb, cf->offset, 0);
    dmat_make(&dc, in->c, s->m, s->n, ldc, cf->offset, cf->nan_c);
    size_t mn = s->m * s->n;
    double *ref = (double *)gk_test_xmalloc(mn * sizeof(double)), *mag = (double *)gk_test_xmalloc(mn * sizeof(double));
    double *rms = (double *)gk_test_xmalloc(mn * sizeof(double));
    expected(in, cf, h, &da, &db, ref, mag, rms);

    gk_status st = gk_gemm(v->id, s->m, s->n, s->k, cf->alpha, da.p, lda, db.p, ldb, cf->beta, dc.p, ldc, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(st, label);
    float *got = (float *)gk_test_xmalloc(dc.total * sizeof(float));
    TRY_CUDA(cudaMemcpy(got, dc.base, dc.total * sizeof(float), cudaMemcpyDeviceToHost));
    int ok = gk_gemm_check(got + GUARD + cf->offset, ldc, ref, mag, rms, s->m, s->n, s->k,
                           gk_gemm_variant_precision(v, GK_GEMM_TYPE_F32), s->large,
                           label, stdout) == 0;
    ok &= untouched_outside(got, &dc, cf->offset, label) == 0;
    if (twice && ok) {
        /* The same inputs again (C restored first when it is read). */
        if (cf->beta != 0.0f)
            for (size_t r = 0; r < s->m; ++r)
                TRY_CUDA(cudaMemcpy(dc.p + r * ldc, in->c + r * s->n, s->n * sizeof(float), cudaMemcpyHostToDevice));
        float *again = (float *)gk_test_xmalloc(dc.total * sizeof(float));
        st = gk_gemm(v->id, s->m, s->n, s->k, cf->alpha, da.p, lda, db.p, ldb, cf->beta, dc.p, ldc, 0);
        TRY_CUDA(cudaDeviceSynchronize());
        TRY_CUDA(cudaMemcpy(again, dc.base, dc.total * sizeof(float), cudaMemcpyDeviceToHost));
        int same = gk_ok(st) && memcmp(got, again, dc.total * sizeof(float)) == 0;
        if (!same) printf("  %s: a second call gave different bits (documented deterministic)\n", label);
        ok &= same;
        free(again);
    }
    free(got), free(ref), free(mag), free(rms);
    cudaFree(da.base), cudaFree(db.base), cudaFree(dc.base);
    return ok;
}

/* ---- BF16 ------------------------------------------------------------------ */
enum { GUARD16 = 64 };                        /* bf16 elements poisoned around each matrix */
static const unsigned short POISON16 = 0x7fad; /* a bf16 NaN */

typedef struct dmat16 {
    unsigned short *base, *p;
    size_t rows, cols, ld, total;
} dmat16;

static void dmat16_make(dmat16 *d, const float *host, size_t rows, size_t cols, size_t ld, size_t offset,
                        int nan_fill)
{
    d->rows = rows, d->cols = cols, d->ld = ld;
    d->total = GUARD16 + offset + rows * ld + GUARD16;
    unsigned short *h = (unsigned short *)gk_test_xmalloc(d->total * sizeof(unsigned short));
    for (size_t i = 0; i < d->total; ++i) h[i] = POISON16;
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c)
            h[GUARD16 + offset + r * ld + c] = nan_fill ? POISON16 : gk_bf16_bits(host[r * cols + c]);
    TRY_CUDA(cudaMalloc((void **)&d->base, d->total * sizeof(unsigned short)));
    TRY_CUDA(cudaMemcpy(d->base, h, d->total * sizeof(unsigned short), cudaMemcpyHostToDevice));
    d->p = d->base + GUARD16 + offset;
    free(h);
}

static size_t untouched_outside16(const unsigned short *h, const dmat16 *d, size_t offset, const char *label)
{
    size_t bad = 0;
    for (size_t i = 0; i < d->total; ++i) {
        size_t j = i - GUARD16 - offset;
        int inside = i >= GUARD16 + offset && j < d->rows * d->ld && j % d->ld < d->cols;
        if (!inside && h[i] != POISON16) {
            if (bad < 4)
                printf("  %s: wrote outside C, at element %zd from C's start\n", label,
                       (ptrdiff_t)i - (ptrdiff_t)(GUARD16 + offset));
            ++bad;
        }
    }
    return bad;
}

/* Inputs as make_inputs, rounded to bf16 numbers first (so the float64
 * reference is that of exactly what the GPU reads). */
static void make_inputs_bf16(inputs *in, const shape *s, uint64_t seed)
{
    make_inputs(in, s, seed ^ 0xb16b16ULL);
    gk_round_to_bf16(in->a, s->m * s->k);
    gk_round_to_bf16(in->b, s->k * s->n);
    gk_round_to_bf16(in->c, s->m * s->n);
    if (in->have_ref)
        gk_gemm_ref(s->m, s->n, s->k, 1.0, in->a, s->k, in->b, s->n, 0.0, NULL, s->n, in->ab, in->absab, in->rmsab);
}

/* The expected C for the large shapes: cuBLAS bf16 on the same device A and
 * B, the same alpha and beta, and C as the call gets it (dense copy). */
static void expected_bf16_cublas(const inputs *in, const config *cf, cublasHandle_t h, const dmat16 *da,
                                 const dmat16 *db, double *ref, double *mag, double *rms)
{
    const shape *s = &in->s;
    size_t mn = s->m * s->n;
    double aa = fabs((double)cf->alpha);
    dmat16 dc;
    dmat16_make(&dc, in->c, s->m, s->n, s->n, 0, cf->nan_c);
    if (gk_cublas_gemm_bf16(h, s->m, s->n, s->k, cf->alpha, da->p, da->ld, db->p, db->ld, cf->beta, dc.p, s->n) !=
        CUBLAS_STATUS_SUCCESS) {
        printf("FATAL cublasGemmEx (bf16) failed\n");
        exit(1);
    }
    unsigned short *h16 = (unsigned short *)gk_test_xmalloc(mn * sizeof(unsigned short));
    TRY_CUDA(cudaMemcpy(h16, dc.p, mn * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < mn; ++i) {
        ref[i] = (double)gk_bf16_value(h16[i]);
        mag[i] = cf->beta != 0.0f ? fabs((double)cf->beta * in->c[i]) : 0.0;
    }
    float *d = NULL, *h_out = (float *)gk_test_xmalloc(mn * sizeof(float));
    TRY_CUDA(cudaMalloc((void **)&d, mn * sizeof(float)));
    cublas_of(h, in, 0, d, h_out);
    for (size_t i = 0; i < mn; ++i) mag[i] += aa * h_out[i];
    cublas_of(h, in, 1, d, h_out);
    for (size_t i = 0; i < mn; ++i) rms[i] = aa * sqrt((double)h_out[i]);
    cudaFree(d), cudaFree(dc.base);
    free(h_out), free(h16);
}

static int run_case_bf16(const gk_gemm_variant *v, const inputs *in, const config *cf, cublasHandle_t h, int twice)
{
    const shape *s = &in->s;
    char label[192];
    snprintf(label, sizeof label, "bf16 v%02d %s %zux%zux%zu [%s]", v->id, v->name, s->m, s->n, s->k, cf->name);
    size_t lda = s->k + cf->pad_a, ldb = s->n + cf->pad_b, ldc = s->n + cf->pad_c;
    dmat16 da, db, dc;
    dmat16_make(&da, in->a, s->m, s->k, lda, cf->offset, 0);
    dmat16_make(&db, in->b, s->k, s->n, ldb, cf->offset, 0);
    dmat16_make(&dc, in->c, s->m, s->n, ldc, cf->offset, cf->nan_c);
    size_t mn = s->m * s->n;
    double *ref = (double *)gk_test_xmalloc(mn * sizeof(double)), *mag = (double *)gk_test_xmalloc(mn * sizeof(double));
    double *rms = (double *)gk_test_xmalloc(mn * sizeof(double));
    if (in->have_ref) {
        double aa = fabs((double)cf->alpha);
        for (size_t i = 0; i < mn; ++i) {
            double cb = cf->beta != 0.0f ? (double)cf->beta * in->c[i] : 0.0;
            ref[i] = cf->alpha * in->ab[i] + cb;
            mag[i] = aa * in->absab[i] + fabs(cb);
            rms[i] = aa * in->rmsab[i];
        }
    } else {
        expected_bf16_cublas(in, cf, h, &da, &db, ref, mag, rms);
    }

    gk_status st = gk_gemm_bf16(v->id, s->m, s->n, s->k, cf->alpha, da.p, lda, db.p, ldb, cf->beta, dc.p, ldc, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(st, label);
    unsigned short *got = (unsigned short *)gk_test_xmalloc(dc.total * sizeof(unsigned short));
    TRY_CUDA(cudaMemcpy(got, dc.base, dc.total * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    int ok = gk_gemm_check_bf16(got + GUARD16 + cf->offset, ldc, ref, mag, rms, s->m, s->n, s->k, s->large, label,
                                stdout) == 0;
    ok &= untouched_outside16(got, &dc, cf->offset, label) == 0;
    if (twice && ok) {
        if (cf->beta != 0.0f) { /* C restored first: the call reads it */
            dmat16 fresh;
            dmat16_make(&fresh, in->c, s->m, s->n, ldc, cf->offset, 0);
            TRY_CUDA(cudaMemcpy(dc.base, fresh.base, dc.total * sizeof(unsigned short), cudaMemcpyDeviceToDevice));
            cudaFree(fresh.base);
        }
        unsigned short *again = (unsigned short *)gk_test_xmalloc(dc.total * sizeof(unsigned short));
        st = gk_gemm_bf16(v->id, s->m, s->n, s->k, cf->alpha, da.p, lda, db.p, ldb, cf->beta, dc.p, ldc, 0);
        TRY_CUDA(cudaDeviceSynchronize());
        TRY_CUDA(cudaMemcpy(again, dc.base, dc.total * sizeof(unsigned short), cudaMemcpyDeviceToHost));
        int same = gk_ok(st) && memcmp(got, again, dc.total * sizeof(unsigned short)) == 0;
        if (!same) printf("  %s: a second call gave different bits (documented deterministic)\n", label);
        ok &= same;
        free(again);
    }
    free(got), free(ref), free(mag), free(rms);
    cudaFree(da.base), cudaFree(db.base), cudaFree(dc.base);
    return ok;
}

/* 1 when variant v can run here; 0, saying why, when it cannot: a GPU older
 * than v->min_cc, or a variant the build or the GPU cannot run (wgmma: cc
 * 9.0 and a build for sm_90a), which says so with GK_ERROR_UNSUPPORTED. */
static int runs_here(const gk_gemm_variant *v, const gk_device_info *dev)
{
    const int bf16 = !(v->types & GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32));
    const char *tag = bf16 ? "bf16 " : "";
    int cc = dev->cc_major * 10 + dev->cc_minor;
    if (v->min_cc > cc) {
        printf("%sv%02d needs compute capability %d: skipped on this GPU\n", tag, v->id, v->min_cc);
        return 0;
    }
    static float one[8];
    float *d1 = NULL;
    TRY_CUDA(cudaMalloc((void **)&d1, sizeof one));
    TRY_CUDA(cudaMemcpy(d1, one, sizeof one, cudaMemcpyHostToDevice));
    gk_status st = bf16 ? gk_gemm_bf16(v->id, 1, 1, 1, 1.0f, d1, 1, d1 + 2, 1, 0.0f, d1 + 4, 1, 0)
                        : gk_gemm(v->id, 1, 1, 1, 1.0f, d1, 1, d1 + 2, 1, 0.0f, d1 + 4, 1, 0);
    TRY_CUDA(cudaDeviceSynchronize());
    cudaFree(d1);
    if (st.code == GK_ERROR_UNSUPPORTED) {
        printf("%sv%02d %s: GK_ERROR_UNSUPPORTED here (%s): skipped\n", tag, v->id, v->name, st.what);
        return 0;
    }
    return 1;
}

/* Every variant of one table (or the one asked for) on one shape. */
static void run_shape(const shape *sh, uint64_t seed, int bf16, const gk_gemm_variant *only, const gk_device_info *dev,
                      cublasHandle_t h)
{
    inputs in;
    if (bf16) make_inputs_bf16(&in, sh, seed);
    else make_inputs(&in, sh, seed);
    size_t count = bf16 ? gk_gemm_bf16_variant_count() : gk_gemm_variant_count();
    for (size_t vi = 0; vi < count; ++vi) {
        const gk_gemm_variant *v = bf16 ? gk_gemm_bf16_variant_at(vi) : gk_gemm_variant_at(vi);
        if (only && v != only) continue;
        if (!bf16 && !(v->types & GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32))) continue; /* a 16-bit row */
        if (v->precision == GK_GEMM_FP8) continue; /* FP8 inputs: test_gemm_fp8_gpu */
        const char *tag = bf16 ? "bf16 " : "";
        if (!runs_here(v, dev)) continue;
        int before = check_failed;
        for (size_t ci = 0; ci < sizeof configs / sizeof configs[0]; ++ci) {
            if (sh->large && ci != 0 && ci != 1) continue;
            int twice = ci == 1 && sh->m == 129 && sh->n == 127;
            int ok = bf16 ? run_case_bf16(v, &in, &configs[ci], h, twice) : run_case(v, &in, &configs[ci], h, twice);
            CHECK(ok, "%sv%d %zux%zux%zu config %zu", tag, v->id, sh->m, sh->n, sh->k, ci);
        }
        if (check_failed != before) printf("%sv%02d %s %zux%zux%zu FAILED\n", tag, v->id, v->name, sh->m, sh->n, sh->k);
    }
    printf("shape %zux%zux%zu done (%s%s)\n", sh->m, sh->n, sh->k, bf16 ? "bf16, " : "",
           sh->large ? (bf16 ? "vs cuBLAS bf16" : "vs cuBLAS fp32") : "vs CPU float64");
    fflush(stdout);
    free_inputs(&in);
}

/* ---- gk_gemm_ex ------------------------------------------------------------- */

/* A shape of the extended tests, and which of the 64 (layout, epilogue,
 * batch) combinations it runs: level 0 all of them; 1 the 16 (layout,
 * epilogue) pairs, the batch mode turning with them ((layout + epilogue) %
 * 4, so each layout and each epilogue meets every batch mode); 2 the 4
 * layouts, the epilogue and the batch mode turning with the layout; 3 the 4
 * layouts with C interleaved across a batch of 3 (ldc = 3 n + pad, stride_c
 * = n), the epilogue turning. */
typedef struct ex_shape {
    size_t m, n, k;
    int level;
} ex_shape;

/* The CPU reference costs sum m n k over the products: about 6.5e8 for
 * both types (the largest shape 4.3e8, 33 x 7 x 4097 0.8e8). */
static const ex_shape ex_shapes[] = {
    {1, 1, 1, 0},
    {7, 33, 5, 0},
    {33, 65, 0, 0},    /* k = 0: C = epi(beta C + bias) */
    {40, 72, 64, 0},   /* multiples of 8: with dense or +8 rows and aligned pointers, the TMA path */
    {47, 129, 40, 0},  /* m != n != k, odd */
    {33, 7, 4097, 1},  /* a long k */
    {33, 40, 24, 3},   /* interleaved C */
    /* 3 x 3 tiles of 128 x 256 (the last ones partial), k past two 64-deep
     * k-tiles; multiples of 8, so that the aligned configurations take the
     * TMA path in every layout. */
    {304, 520, 136, 2},
};
/* --small (the sanitizer): every combination once on a gather-path shape,
 * the others on a subset; about 240 launches per type. */
static const ex_shape ex_small_shapes[] = {
    {7, 33, 5, 0}, {1, 1, 1, 1}, {33, 65, 0, 1}, {16, 24, 32, 1}, {33, 40, 24, 3}, {130, 260, 24, 2},
};

/* How a case is called. pad_*: leading dimension minus the stored row
 * length (dense = 1: lda, ldb, ldc given as 0, the default); offset: elements
 * from a 256-byte boundary for every pointer (the bias too); aligned: the
 * gaps between products keep 16-byte alignment (8 elements) or not. */
typedef struct ex_config {
    const char *name;
    float alpha, beta;
    int nan_c;
    int dense;
    size_t pad_a, pad_b, pad_c;
    size_t offset;
    int aligned;
} ex_config;

static const ex_config ex_configs[] = {
    {"alpha=1 beta=0, C NaN, ld 0 (dense), aligned", 1.0f, 0.0f, 1, 1, 0, 0, 0, 0, 1},
    {"alpha=0.75 beta=-1.25, ld+3/+5/+1, offset 1", 0.75f, -1.25f, 0, 0, 3, 5, 1, 1, 0},
    {"alpha=-2 beta=0.5, ld+8, aligned", -2.0f, 0.5f, 0, 0, 8, 8, 8, 0, 1},
    {"alpha=1.5 beta=0, C NaN, ld+8, offset 1", 1.5f, 0.0f, 1, 0, 8, 8, 8, 1, 0},
};
enum { N_EX_CONFIGS = sizeof ex_configs / sizeof ex_configs[0] };

static const char *const batch_names[] = {"batch 1", "batch 3", "batch 3, stride_a 0", "batch 3, stride_b 0",
                                          "batch 3, C interleaved"};

enum { EX_GUARD = 64 }; /* elements poisoned before and after each buffer */

static size_t elem_size(gk_gemm_type t) { return t == GK_GEMM_TYPE_F32 ? 4 : 2; }

/* The bits of x in type t; a NaN becomes the type's poison pattern (every
 * poisoned element is that NaN: the inputs are never NaN). */
static void encode(gk_gemm_type t, float x, unsigned char *out)
{
    if (t == GK_GEMM_TYPE_F32) {
        if (isnan(x)) memcpy(out, &POISON, 4);
        else memcpy(out, &x, 4);
        return;
    }
    unsigned short h = t == GK_GEMM_TYPE_BF16 ? (isnan(x) ? POISON16 : gk_bf16_bits(x))
                                              : (isnan(x) ? (unsigned short)0x7dad : gk_fp16_bits(x)); /* a half NaN */
    memcpy(out, &h, 2);
}

/* One operand as it lies in memory: EX_GUARD elements, `offset` more, then
 * `count` matrices of rows x cols (leading dimension ld) `stride` apart,
 * then EX_GUARD. h holds the values as floats (numbers of the type; NaN
 * outside the matrices, and inside them too with nan_fill), in marks the
 * elements of the matrices, raw the bits uploaded, d the device copy. */
typedef struct ex_buf {
    size_t rows, cols, ld, stride, count, offset, total;
    float *h;
    unsigned char *in, *raw;
    void *d;
} ex_buf;

static void ex_buf_make(ex_buf *b, gk_gemm_type t, size_t rows, size_t cols, size_t ld, size_t count, size_t stride,
                        size_t offset, uint64_t seed, int nan_fill)
{
    b->rows = rows, b->cols = cols, b->ld = ld, b->count = count, b->stride = stride, b->offset = offset;
    size_t span = rows && cols ? (count - 1) * stride + (rows - 1) * ld + cols : 0;
    b->total = 2 * EX_GUARD + offset + span;
    b->h = (float *)gk_test_xmalloc(b->total * sizeof(float));
    b->in = (unsigned char *)gk_test_xmalloc(b->total);
    memset(b->in, 0, b->total);
    for (size_t i = 0; i < b->total; ++i) b->h[i] = NAN;
    size_t nv = count * rows * cols;
    float *v = (float *)gk_test_xmalloc(nv * sizeof(float));
    gk_fill_f32(v, nv, seed, -1.0f, 1.0f);
    if (t == GK_GEMM_TYPE_BF16) gk_round_to_bf16(v, nv);
    if (t == GK_GEMM_TYPE_F16) gk_round_to_fp16(v, nv);
    for (size_t z = 0; z < count; ++z)
        for (size_t r = 0; r < rows; ++r)
            for (size_t c = 0; c < cols; ++c) {
                size_t at = EX_GUARD + offset + z * stride + r * ld + c;
                b->h[at] = nan_fill ? NAN : v[(z * rows + r) * cols + c];
                b->in[at] = 1;
            }
    free(v);
    const size_t es = elem_size(t);
    b->raw = (unsigned char *)gk_test_xmalloc(b->total * es);
    for (size_t i = 0; i < b->total; ++i) encode(t, b->h[i], b->raw + i * es);
    TRY_CUDA(cudaMalloc(&b->d, b->total * es));
    TRY_CUDA(cudaMemcpy(b->d, b->raw, b->total * es, cudaMemcpyHostToDevice));
}

/* The device address of product 0 (what the call gets). */
static void *ex_dev(const ex_buf *b, gk_gemm_type t)
{
    return (unsigned char *)b->d + (EX_GUARD + b->offset) * elem_size(t);
}

/* The host values of product z (product 0 when the operand is broadcast). */
static const float *ex_host(const ex_buf *b, size_t z)
{
    return b->h + EX_GUARD + b->offset + (b->count > 1 ? z : 0) * b->stride;
}

static void ex_buf_free(ex_buf *b)
{
    free(b->h), free(b->in), free(b->raw);
    cudaFree(b->d);
}

/* The C buffer read back: every element outside the matrices must have
 * kept its bits. Returns how many did not. */
static size_t ex_untouched(const ex_buf *b, gk_gemm_type t, const unsigned char *got, const char *label)
{
    const size_t es = elem_size(t);
    size_t bad = 0;
    for (size_t i = 0; i < b->total; ++i) {
        if (b->in[i] || memcmp(got + i * es, b->raw + i * es, es) == 0) continue;
        if (bad < 4)
            printf("  %s: wrote outside C, at element %td from C's start\n", label,
                   (ptrdiff_t)i - (ptrdiff_t)(EX_GUARD + b->offset));
        ++bad;
    }
    return bad;
}

/* The precision a C of type t from variant v is checked at. */
static gk_gemm_precision ex_precision(const gk_gemm_variant *v, gk_gemm_type t)
{
    return gk_gemm_variant_precision(v, t);
}

/* A workspace of the size the query asks for (grown on demand). */
static void *ex_workspace(int id, const gk_gemm_desc *d, void **ws, size_t *cap, size_t *bytes, const char *label)
{
    *bytes = 0;
    gk_test_require(gk_gemm_ex(id, d, NULL, NULL, NULL, NULL, bytes, 0), label);
    gk_test_ensure_device(ws, cap, *bytes);
    return *ws;
}

/* One extended case: 1 on a pass. layout: bit 1 op_a = T, bit 0 op_b = T;
 * bmode indexes batch_names. With `twice`, the call is made again on the
 * same inputs and must give the same bits. */
static int run_ex_case(const gk_gemm_variant *v, gk_gemm_type t, const ex_shape *sh, int layout, int epi, int bmode,
                       const ex_config *cf, uint64_t seed, void **ws, size_t *ws_cap, int twice)
{
    const size_t m = sh->m, n = sh->n, k = sh->k;
    const int ta = layout >> 1, tb = layout & 1;
    char label[256];
    snprintf(label, sizeof label, "v%02d %s %s%s %s %s %zux%zux%zu [%s]", v->id, gk_gemm_type_name(t),
             ta ? "t" : "n", tb ? "t" : "n", gk_gemm_epilogue_name((gk_gemm_epilogue)epi), batch_names[bmode], m,
             n, k, cf->name);
    /* Stored shapes (row-major): A m x k or k x m, B k x n or n x k. */
    const size_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
    const size_t batch = bmode == 0 ? 1 : 3;
    const size_t lda = ca + cf->pad_a, ldb = cb + cf->pad_b;
    const size_t ldc = (bmode == 4 ? batch * n : n) + cf->pad_c;
    /* Gaps between products: 8 elements past a multiple of 8 (aligned), or
     * odd ones; C interleaved: stride n. Broadcast: stride 0. With one
     * product the strides are not read: odd values that would overlap. */
    const size_t ea = ra && ca ? (ra - 1) * lda + ca : 0, eb = rb && cb ? (rb - 1) * ldb + cb : 0;
    const size_t ec = (m - 1) * ldc + n;
    size_t sa = cf->aligned ? (ea + 7) / 8 * 8 + 8 : ea + 5;
    size_t sb = cf->aligned ? (eb + 7) / 8 * 8 + 8 : eb + 3;
    size_t sc = bmode == 4 ? n : cf->aligned ? (ec + 7) / 8 * 8 + 8 : ec + 7;
    if (bmode == 2) sa = 0;
    if (bmode == 3) sb = 0;
    const size_t na = batch > 1 && sa ? batch : 1, nb = batch > 1 && sb ? batch : 1;

    ex_buf A, B, C, bias;
    ex_buf_make(&A, t, ra, ca, lda, na, sa, cf->offset, mix(seed, 1, layout), 0);
    ex_buf_make(&B, t, rb, cb, ldb, nb, sb, cf->offset, mix(seed, 2, layout), 0);
    ex_buf_make(&C, t, m, n, ldc, batch, sc, cf->offset, mix(seed, 3, layout), cf->nan_c);
    ex_buf_make(&bias, t, 1, n, n, 1, 0, cf->offset, mix(seed, 4, epi), 0);

    gk_gemm_desc d = gk_gemm_desc_init(t, m, n, k);
    d.op_a = ta ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    d.op_b = tb ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    if (!cf->dense || bmode == 4) d.lda = lda, d.ldb = ldb, d.ldc = ldc;
    d.alpha = cf->alpha, d.beta = cf->beta;
    d.batch = batch;
    d.stride_a = batch > 1 ? sa : 3, d.stride_b = batch > 1 ? sb : 1, d.stride_c = batch > 1 ? sc : 1;
    d.epilogue = (gk_gemm_epilogue)epi;
    d.bias = epi != GK_GEMM_EPILOGUE_NONE ? ex_dev(&bias, t) : NULL;
    /* k = 0: A and B are not read; pass NULL with the unaligned configurations. */
    const void *pa = k == 0 && cf->offset ? NULL : ex_dev(&A, t), *pb = k == 0 && cf->offset ? NULL : ex_dev(&B, t);

    size_t bytes = 0;
    void *w = ex_workspace(v->id, &d, ws, ws_cap, &bytes, label);
    gk_status st = gk_gemm_ex(v->id, &d, pa, pb, ex_dev(&C, t), w, &bytes, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(st, label);
    const size_t es = elem_size(t);
    unsigned char *got = (unsigned char *)gk_test_xmalloc(C.total * es);
    TRY_CUDA(cudaMemcpy(got, C.d, C.total * es, cudaMemcpyDeviceToHost));

    double *ref = (double *)gk_test_xmalloc(m * n * sizeof(double));
    double *mag = (double *)gk_test_xmalloc(m * n * sizeof(double));
    double *rms = (double *)gk_test_xmalloc(m * n * sizeof(double));
    const gk_gemm_precision pr = ex_precision(v, t);
    size_t bad = 0;
    for (size_t z = 0; z < batch; ++z) {
        gk_gemm_ref_ex(ta, tb, m, n, k, cf->alpha, ex_host(&A, z), lda, ex_host(&B, z), ldb, cf->beta, ex_host(&C, z),
                       ldc, epi, epi != GK_GEMM_EPILOGUE_NONE ? ex_host(&bias, 0) : NULL, ref, mag, rms);
        char zl[300];
        snprintf(zl, sizeof zl, "%s product %zu", label, z);
        const unsigned char *gz = got + (EX_GUARD + cf->offset + z * sc) * es;
        if (bad < GK_VERIFY_SHOW) {
            if (t == GK_GEMM_TYPE_F32)
                bad += gk_gemm_check_ex((const float *)gz, ldc, ref, mag, rms, m, n, k, pr, epi, 0, zl, stdout);
            else
                bad += gk_gemm_check16((const unsigned short *)gz, ldc, ref, mag, rms, m, n, k, pr, epi, 0, zl, stdout);
        }
    }
    int ok = bad == 0;
    ok &= ex_untouched(&C, t, got, label) == 0;
    if (twice && ok) {
        /* The same inputs again (C restored: it may be read), the same bits. */
        TRY_CUDA(cudaMemcpy(C.d, C.raw, C.total * es, cudaMemcpyHostToDevice));
        st = gk_gemm_ex(v->id, &d, pa, pb, ex_dev(&C, t), w, &bytes, 0);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
        gk_test_require(st, label);
        unsigned char *again = (unsigned char *)gk_test_xmalloc(C.total * es);
        TRY_CUDA(cudaMemcpy(again, C.d, C.total * es, cudaMemcpyDeviceToHost));
        int same = memcmp(got, again, C.total * es) == 0;
        if (!same) printf("  %s: a second call gave different bits (documented deterministic)\n", label);
        ok &= same;
        free(again);
    }
    if (!ok) printf("  %s FAILED (seed of the run: see above)\n", label);
    free(got), free(ref), free(mag), free(rms);
    ex_buf_free(&A), ex_buf_free(&B), ex_buf_free(&C), ex_buf_free(&bias);
    return ok;
}

/* Every extended case of variant v (extended) for type t. */
static void run_ex_variant(const gk_gemm_variant *v, gk_gemm_type t, int small_only, uint64_t seed, void **ws,
                           size_t *ws_cap)
{
    const ex_shape *shapes = small_only ? ex_small_shapes : ex_shapes;
    const size_t nshapes = small_only ? sizeof ex_small_shapes / sizeof ex_small_shapes[0]
                                      : sizeof ex_shapes / sizeof ex_shapes[0];
    int cases = 0, failed_before = check_failed;
    for (size_t si = 0; si < nshapes; ++si) {
        const ex_shape *sh = &shapes[si];
        int first_of_shape = 1;
        for (int layout = 0; layout < 4; ++layout)
            for (int epi = 0; epi < 4; ++epi)
                for (int bmode = 0; bmode < 5; ++bmode) {
                    int run = sh->level == 0   ? bmode < 4
                              : sh->level == 1 ? bmode == (layout + epi) % 4
                              : sh->level == 2 ? epi == layout && bmode == (layout + 1) % 4
                                               : bmode == 4 && epi == (layout + 1) % 4;
                    if (!run) continue;
                    /* The configuration turns with the case, the shape and the type. */
                    size_t ci = ((size_t)(layout * 16 + epi * 4 + bmode) + si + (size_t)t) % N_EX_CONFIGS;
                    /* The largest shape's first case also runs twice (determinism). */
                    int twice = first_of_shape && sh->level == 2;
                    uint64_t cs = mix(seed, (uint64_t)(si * 1000 + layout * 100 + epi * 10 + bmode), (uint64_t)t);
                    int ok = run_ex_case(v, t, sh, layout, epi, bmode, &ex_configs[ci], cs, ws, ws_cap, twice);
                    CHECK(ok, "v%d %s layout %d epilogue %d batch mode %d %zux%zux%zu config %zu", v->id,
                          gk_gemm_type_name(t), layout, epi, bmode, sh->m, sh->n, sh->k, ci);
                    first_of_shape = 0;
                    ++cases;
                }
        printf("gk_gemm_ex v%02d %s %zux%zux%zu done\n", v->id, gk_gemm_type_name(t), sh->m, sh->n, sh->k);
        fflush(stdout);
    }
    printf("gk_gemm_ex v%02d %s: %d cases, %s\n", v->id, gk_gemm_type_name(t), cases,
           check_failed == failed_before ? "all passed" : "FAILURES above");
}

/* The default description through gk_gemm_ex against gk_gemm or
 * gk_gemm_bf16 (the same bits), and, for a variant that is not extended,
 * GK_ERROR_UNSUPPORTED for what it does not take, with C untouched. */
static void run_ex_default(const gk_gemm_variant *v, int small_only, uint64_t seed, void **ws, size_t *ws_cap)
{
    const gk_gemm_type t =
        v->types & GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32) ? GK_GEMM_TYPE_F32 : GK_GEMM_TYPE_BF16;
    const size_t m = small_only ? 33 : 129, n = small_only ? 17 : 127, k = small_only ? 9 : 130;
    const ex_config *cf = &ex_configs[1]; /* odd rows, offset pointers, alpha and beta */
    const size_t lda = k + cf->pad_a, ldb = n + cf->pad_b, ldc = n + cf->pad_c, es = elem_size(t);
    char label[160];
    snprintf(label, sizeof label, "v%02d %s gk_gemm_ex default %zux%zux%zu", v->id, gk_gemm_type_name(t), m, n, k);
    ex_buf A, B, C;
    ex_buf_make(&A, t, m, k, lda, 1, 0, cf->offset, mix(seed, 11, (uint64_t)v->id), 0);
    ex_buf_make(&B, t, k, n, ldb, 1, 0, cf->offset, mix(seed, 12, (uint64_t)v->id), 0);
    ex_buf_make(&C, t, m, n, ldc, 1, 0, cf->offset, mix(seed, 13, (uint64_t)v->id), 0);
    void *pa = ex_dev(&A, t), *pb = ex_dev(&B, t), *pc = ex_dev(&C, t);
    gk_status st = t == GK_GEMM_TYPE_F32
                       ? gk_gemm(v->id, m, n, k, cf->alpha, (const float *)pa, lda, (const float *)pb, ldb, cf->beta,
                                 (float *)pc, ldc, 0)
                       : gk_gemm_bf16(v->id, m, n, k, cf->alpha, pa, lda, pb, ldb, cf->beta, pc, ldc, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(st, label);
    unsigned char *plain = (unsigned char *)gk_test_xmalloc(C.total * es);
    unsigned char *ex = (unsigned char *)gk_test_xmalloc(C.total * es);
    TRY_CUDA(cudaMemcpy(plain, C.d, C.total * es, cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(C.d, C.raw, C.total * es, cudaMemcpyHostToDevice));
    gk_gemm_desc d = gk_gemm_desc_init(t, m, n, k);
    d.lda = lda, d.ldb = ldb, d.ldc = ldc, d.alpha = cf->alpha, d.beta = cf->beta;
    size_t bytes = 0;
    void *w = ex_workspace(v->id, &d, ws, ws_cap, &bytes, label);
    st = gk_gemm_ex(v->id, &d, pa, pb, pc, w, &bytes, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(st, label);
    TRY_CUDA(cudaMemcpy(ex, C.d, C.total * es, cudaMemcpyDeviceToHost));
    CHECK(memcmp(plain, ex, C.total * es) == 0, "%s: the bits of %s", label,
          t == GK_GEMM_TYPE_F32 ? "gk_gemm" : "gk_gemm_bf16");
    CHECK(memcmp(plain, C.raw, C.total * es) != 0, "%s: C was written", label);
    if (!v->extended) {
        /* Each option alone: UNSUPPORTED, nothing launched, C as it was. */
        TRY_CUDA(cudaMemcpy(C.d, C.raw, C.total * es, cudaMemcpyHostToDevice));
        gk_gemm_desc o[4] = {d, d, d, d};
        o[0].op_a = GK_GEMM_OP_T, o[0].lda = m + cf->pad_a; /* A stored k x m (the same buffer is large enough) */
        o[1].op_b = GK_GEMM_OP_T, o[1].ldb = k;             /* B stored n x k */
        o[2].batch = 2, o[2].stride_c = m * ldc;            /* (not run: no second C) */
        o[3].epilogue = GK_GEMM_EPILOGUE_BIAS, o[3].bias = pb;
        static const char *const what[] = {"op_a = T", "op_b = T", "batch 2", "an epilogue"};
        for (int i = 0; i < 4; ++i) {
            bytes = *ws_cap;
            st = gk_gemm_ex(v->id, &o[i], pa, pb, pc, *ws, &bytes, 0);
            CHECK(st.code == GK_ERROR_UNSUPPORTED, "%s, %s: %s", label, what[i], gk_status_string(st.code));
        }
        TRY_CUDA(cudaDeviceSynchronize());
        TRY_CUDA(cudaMemcpy(ex, C.d, C.total * es, cudaMemcpyDeviceToHost));
        CHECK(memcmp(ex, C.raw, C.total * es) == 0, "%s: the rejected calls wrote nothing", label);
    }
    printf("%s: %s\n", label, v->extended ? "the same bits" : "the same bits; options UNSUPPORTED");
    free(plain), free(ex);
    ex_buf_free(&A), ex_buf_free(&B), ex_buf_free(&C);
}

/* GK_GEMM_AUTO: a call with it must give, bit for bit, what a call with
 * the variant gk_gemm_auto_variant names gives (the kernels are
 * deterministic, and each is checked against the reference above), one
 * description per rule of gk/gemm.h's table. */
static void test_auto(uint64_t seed, void **ws, size_t *ws_cap)
{
    typedef struct auto_case {
        gk_gemm_type t;
        gk_gemm_compute compute;
        gk_gemm_op op_a, op_b;
        size_t m, n, k, lda, batch;
        gk_gemm_epilogue epi;
        float beta;
        int want; /* the pick the table gives */
    } auto_case;
    static const auto_case cs[] = {
        /* fp32: 22 in the mid region (odd rows, k = 255 below GK_GEMM_SPLIT22_MIN_K: unsplit, so that the
         * bits match the named variant's; a batch), 10 past 2^32. */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 200, 100, 255, 257, 1, GK_GEMM_EPILOGUE_NONE, 0.5f, 22},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 200, 100, 520, 0, 2, GK_GEMM_EPILOGUE_BIAS_GELU, 0.0f, 22},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 2048, 2048, 1028, 0, 1, GK_GEMM_EPILOGUE_BIAS, 0.0f, 10},
        /* TF32: 12's narrow tiles from 2^22 with k >= 128 (a batch, A stored k x m: its transposed copy),
         * 21 where n is below 32 (odd rows; 12,000 outputs, past the tiny rule's 2^13), then 12 (on padded
         * copies where the rows are not 16-byte units: lda 1101). */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_T, GK_GEMM_OP_N, 200, 120, 372, 0, 3, GK_GEMM_EPILOGUE_BIAS, 0.0f, 12},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, GK_GEMM_OP_N, 400, 30, 650, 651, 1, GK_GEMM_EPILOGUE_NONE, -1.0f, 21},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, GK_GEMM_OP_N, 1040, 1024, 520, 0, 1, GK_GEMM_EPILOGUE_BIAS_RELU, 0.5f, 12},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, GK_GEMM_OP_T, 1024, 1024, 1100, 1101, 1, GK_GEMM_EPILOGUE_NONE, 0.0f, 12},
        /* TF32 with k <= 20, 2^18 outputs or more and C's rows not 16-byte units (ldc 401): 22, in fp32
         * (B stored n x k, a bias and GELU). */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, GK_GEMM_OP_T, 700, 401, 12, 0, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.5f, 22},
        /* 20 with fp32: tiny products, either compute. */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 33, 7, 9001, 0, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.5f, 20},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_T, GK_GEMM_OP_T, 40, 30, 500, 0, 2, GK_GEMM_EPILOGUE_BIAS, 0.0f, 20},
        /* 20: tiny (a short k and few outputs; a few outputs with a long k). */
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 33, 7, 9001, 0, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.0f, 20},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 300, 400, 5, 0, 1, GK_GEMM_EPILOGUE_BIAS, 0.5f, 20},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 40, 100, 700, 0, 2, GK_GEMM_EPILOGUE_NONE, -1.0f, 20},
        /* 21: mid-size on rows that are not whole 16-byte units, short of the depth where padded
         * copies pay (k < 160; lda m = 129, a batch, past the tiny rule's 2^21 multiply-adds; lda 65,
         * past its 2^15 outputs for 8 < k < 192; lda 151). */
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_T, 129, 70, 150, 0, 2, GK_GEMM_EPILOGUE_BIAS_RELU, 0.0f, 21},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 131, 300, 64, 65, 1, GK_GEMM_EPILOGUE_NONE, 0.25f, 21},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 200, 136, 150, 151, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.5f, 21},
        /* 23 on padded copies in the workspace: such rows from 2^21 multiply-adds with k >= 160, where 21
         * does not split k (k below 1024; a batch): lda 521 (3.1 x 10^7); lda m = 260 (A stored k x m),
         * 2 products (7.1 x 10^7). */
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 300, 200, 520, 521, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.5f, 23},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 260, 136, 1000, 0, 2, GK_GEMM_EPILOGUE_BIAS, 0.0f, 23},
        /* 17: above 2^30 multiply-adds where 23 does not split (k below 2048; a batch of 8: 264 x 264 x
         * 2048 x 8 = 2^30.09), with odd rows on padded copies (ldb 2049). */
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 1024, 1024, 1032, 0, 1, GK_GEMM_EPILOGUE_NONE, 0.25f, 17},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_T, 264, 264, 2048, 0, 8, GK_GEMM_EPILOGUE_BIAS_RELU, 0.0f, 17},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 4096, 2049, 1025, 0, 1, GK_GEMM_EPILOGUE_NONE, 0.0f, 17},
        /* 23: mid-size on rows of 16-byte units (lda, ldb and stride_a multiples of 8), up to 2^30, unsplit
         * (k below 2048 or a batch), every layout, both types, a batch, epilogues. */
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 200, 136, 512, 0, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.5f, 23},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 131, 300, 64, 0, 1, GK_GEMM_EPILOGUE_NONE, 0.25f, 23},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 264, 264, 2048, 0, 2, GK_GEMM_EPILOGUE_BIAS_RELU, -1.0f, 23},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_T, 264, 264, 2048, 0, 2, GK_GEMM_EPILOGUE_BIAS, 0.0f, 23},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 1024, 1024, 1024, 0, 1, GK_GEMM_EPILOGUE_NONE, 0.5f, 23},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 100, 3000, 1000, 1000, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.0f, 23},
        /* 19: a skinny product (n k >= 2^20), and a small C with a long k (a batch: no split). */
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 17, 1100, 1000, 0, 1, GK_GEMM_EPILOGUE_BIAS_GELU, 0.0f, 19},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 70, 90, 20000, 0, 2, GK_GEMM_EPILOGUE_NONE, 0.5f, 19},
    };
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ++ci) {
        const auto_case *x = &cs[ci];
        const size_t elem = x->t == GK_GEMM_TYPE_F32 ? 4 : 2;
        gk_gemm_desc d = gk_gemm_desc_init(x->t, x->m, x->n, x->k);
        d.compute = x->compute, d.op_a = x->op_a, d.op_b = x->op_b, d.lda = x->lda, d.batch = x->batch;
        d.epilogue = x->epi, d.beta = x->beta;
        const size_t na = x->m * (x->lda ? x->lda : x->k), nb = x->k * x->n, nc = x->m * x->n;
        d.stride_a = na, d.stride_b = 0, d.stride_c = nc; /* B shared by the batch */
        int pick = -1;
        gk_status st = gk_gemm_auto_variant(&d, &pick, NULL);
        CHECK(gk_ok(st) && pick == x->want, "auto case %zu: picks %d, the table says %d", ci, pick, x->want);
        const gk_gemm_variant *v = gk_gemm_find_variant(pick);
        if (v == NULL) continue;
        gk_device_info dev;
        if (!gk_ok(gk_device_query(0, &dev)) || !runs_here(v, &dev)) continue;
        /* Inputs: multiples of 1/256 in [-1, 1), exact in every type. */
        const size_t ta = na * x->batch, tc = nc * x->batch;
        unsigned char *h = malloc((ta + nb + x->n + tc) * elem), *c1 = malloc(tc * elem), *c2 = malloc(tc * elem);
        gk_rng r;
        gk_rng_seed(&r, seed ^ (0xa070 + ci));
        for (size_t i = 0; i < ta + nb + x->n + tc; ++i) {
            const float f = (float)((int)(gk_rng_next(&r) % 512) - 256) / 256.0f;
            if (elem == 4) memcpy(h + 4 * i, &f, 4);
            else {
                const unsigned short b = x->t == GK_GEMM_TYPE_BF16 ? gk_bf16_bits(f) : gk_fp16_bits(f);
                memcpy(h + 2 * i, &b, 2);
            }
        }
        unsigned char *da = NULL;
        TRY_CUDA(cudaMalloc((void **)&da, (ta + nb + x->n + tc) * elem));
        unsigned char *db = da + ta * elem, *dbias = db + nb * elem, *dc = dbias + x->n * elem;
        d.bias = x->epi != GK_GEMM_EPILOGUE_NONE ? (const void *)dbias : NULL;
        size_t bytes = 0;
        void *w = ex_workspace(pick, &d, ws, ws_cap, &bytes, "auto");
        for (int pass = 0; pass < 2; ++pass) {
            TRY_CUDA(cudaMemcpy(da, h, (ta + nb + x->n + tc) * elem, cudaMemcpyHostToDevice));
            size_t b2 = bytes;
            st = gk_gemm_ex(pass == 0 ? pick : GK_GEMM_AUTO, &d, da, db, dc, w, &b2, 0);
            CHECK(gk_ok(st), "auto case %zu pass %d: %s", ci, pass, gk_status_string(st.code));
            TRY_CUDA(cudaDeviceSynchronize());
            TRY_CUDA(cudaMemcpy(pass == 0 ? c1 : c2, dc, tc * elem, cudaMemcpyDeviceToHost));
        }
        CHECK(memcmp(c1, c2, tc * elem) == 0, "auto case %zu: GK_GEMM_AUTO and variant %d give the same bits", ci, pick);
        cudaFree(da);
        free(h), free(c1), free(c2);
    }

    /* Split-K (gk/gemm.h): products that AUTO cuts along k, against the
     * float64 reference within the tolerance of the pick's precision, twice
     * (the same bits: the partials are added in a fixed order). */
    typedef struct split_case {
        gk_gemm_type t;
        gk_gemm_compute compute;
        gk_gemm_op op_a, op_b;
        size_t m, n, k;
        float alpha, beta;
        gk_gemm_epilogue epi;
        int id;        /* the pick */
        size_t splits; /* what the rule gives */
    } split_case;
    static const split_case sc[] = {
        /* Variant 12 (fp32 storage, past TF32's mid region): slices as a strided batch. */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, GK_GEMM_OP_N, 512, 256, 8192, 1.0f, 0.0f, GK_GEMM_EPILOGUE_NONE, 12, 16},
        /* Variant 10 inside 22's region (a long k, its tiles well filled): 600 x 700 x 4096, 15 tiles,
         * S = 8, kc = 512, slices as a strided batch. */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 600, 700, 4096, 0.5f, -0.75f, GK_GEMM_EPILOGUE_BIAS_RELU, 10, 8},
        /* Variant 22 (fp32 in fp32, mid-size): one launch, a shorter last slice. 70 x 300 x 3000 nt: 2 x 5
         * tiles, S = min(52, 3000 / 64 = 46) = 46, kc = 66 -> 128, S = 24 (the last slice 56 deep);
         * 100 x 136 x 5000 tn: 2 x 3 tiles, S = min(88, 78) = 78, kc = 65 -> 128, S = 40 (the last 8). */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 70, 300, 3000, 1.0f, 0.0f, GK_GEMM_EPILOGUE_BIAS, 22, 24},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 100, 136, 5000, -1.0f, 0.5f, GK_GEMM_EPILOGUE_BIAS_GELU, 22, 40},
        /* Variant 21 on TF32 (mid-size): a shorter last slice, A transposed. */
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, GK_GEMM_OP_N, 136, 128, 4100, 0.75f, -1.25f, GK_GEMM_EPILOGUE_BIAS_GELU, 21, 13},
        {GK_GEMM_TYPE_F32, GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_T, GK_GEMM_OP_N, 128, 136, 2048, -2.0f, 0.5f, GK_GEMM_EPILOGUE_BIAS_RELU, 21, 8},
        /* Variant 23's split (BF16, F16, rows of 16-byte units, at most 66 tiles of 128 x 64): S =
         * min(132 / tiles, k / 512), kc = ceil(k / S) rounded up to 64, S = ceil(k / kc); every layout,
         * a shorter last slice. 256 x 256 x 8192: 8 tiles, S = min(16, 16) = 16, kc = 512. 264 x 128 x 8192
         * tt (lda m = 264): 3 x 2 = 6 tiles, S = min(22, 16) = 16. 136 x 512 x 4160 nt: 2 x 8 = 16 tiles,
         * S = min(8, 8) = 8, kc = 520 -> 576, S = 8 (the last slice 128 deep). 384 x 384 x 4096: 18 tiles,
         * S = min(7, 8) = 7, kc = 586 -> 640, S = 7 (the last 256). 80 x 512 x 2048 nt: 8 tiles, S = min(16,
         * 4) = 4, kc = 512. 40 x 1000 x 2560 tn (lda m = 40, ldb n = 1000): 1 x 16 tiles, S = min(8, 5) =
         * 5, kc = 512. 100 x 3000 x 5000 nt (2^30.5, past 2^30: 23 because it splits): 1 x 47 tiles,
         * S = min(2, 9) = 2, kc = 2500 -> 2560 (the last 2440). */
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 256, 256, 8192, 1.0f, 0.0f, GK_GEMM_EPILOGUE_NONE, 23, 16},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_T, 264, 128, 8192, 0.5f, -1.0f, GK_GEMM_EPILOGUE_BIAS_GELU, 23, 16},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 136, 512, 4160, 1.5f, 0.25f, GK_GEMM_EPILOGUE_BIAS_RELU, 23, 8},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 384, 384, 4096, -1.0f, 0.5f, GK_GEMM_EPILOGUE_BIAS, 23, 7},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 80, 512, 2048, 1.5f, 0.25f, GK_GEMM_EPILOGUE_BIAS_RELU, 23, 4},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 40, 1000, 2560, -1.0f, 0.0f, GK_GEMM_EPILOGUE_BIAS, 23, 5},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 100, 3000, 5000, 1.0f, 0.0f, GK_GEMM_EPILOGUE_BIAS_GELU, 23, 2},
        /* Variant 17's split (past 2^30 multiply-adds, more than 66 of 23's tiles): S = min(64 / pairs,
         * k / 512) over pairs of 128 x 256 tiles, kc = ceil(k / S) rounded up to 64, S = ceil(k / kc); a
         * shorter last slice. 136 x 2176 x 4160 (2^30.2; 2 x 34 = 68 tiles of 23's): 1 x 9 pairs, S = min(7,
         * 8) = 7, kc = 595 -> 640, S = 7 (the last 320); nn, and tt (lda m = 136, ldb k = 4160). 1024 x 576
         * x 2200 nt (2^30.3; 8 x 9 = 72 tiles): 4 x 3 = 12 pairs, S = min(5, 4) = 4, kc = 550 -> 576, S = 4
         * (the last 472). */
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 136, 2176, 4160, 1.0f, 0.0f, GK_GEMM_EPILOGUE_NONE, 17, 7},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_T, 136, 2176, 4160, 0.5f, -1.0f, GK_GEMM_EPILOGUE_BIAS_GELU, 17, 7},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 1024, 576, 2200, 1.5f, 0.25f, GK_GEMM_EPILOGUE_BIAS_RELU, 17, 4},
        /* Variant 21's split (BF16, F16, mid-size rows that are not whole 16-byte units): S = min(528 /
         * tiles, k / GK_GEMM_SPLIT21_GATHER_MIN_KC = k / 64) over 64 x 64 tiles; every layout, a shorter
         * last slice. 100 x 297 x 5000 (ldb 297): 2 x 5 tiles, S = min(52, 78) = 52, kc = 97 -> 128, S = 40
         * (the last slice 8 deep). 263 x 72 x 3000 tt (lda 263): 5 x 2 tiles, S = min(52, 46) = 46, kc = 66
         * -> 128, S = 24 (the last 56). 80 x 512 x 2044 nt (lda = ldb = 2044): 2 x 8 tiles, S = min(33, 31)
         * = 31, kc = 66 -> 128, S = 16 (the last 124). 41 x 1000 x 2560 tn (lda 41): 1 x 16 tiles, S =
         * min(33, 40) = 33, kc = 78 -> 128, S = 20. 100 x 300 x 5001 (lda 5001): as the first, S = 40 (the
         * last 9). */
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 100, 297, 5000, 1.0f, 0.0f, GK_GEMM_EPILOGUE_NONE, 21, 40},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_T, 263, 72, 3000, 0.5f, -1.0f, GK_GEMM_EPILOGUE_BIAS_GELU, 21, 24},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_T, 80, 512, 2044, 1.5f, 0.25f, GK_GEMM_EPILOGUE_BIAS_RELU, 21, 16},
        {GK_GEMM_TYPE_F16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, GK_GEMM_OP_N, 41, 1000, 2560, -1.0f, 0.0f, GK_GEMM_EPILOGUE_BIAS, 21, 20},
        {GK_GEMM_TYPE_BF16, GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, GK_GEMM_OP_N, 100, 300, 5001, 1.0f, 0.0f, GK_GEMM_EPILOGUE_NONE, 21, 40},
    };
    for (size_t ci = 0; ci < sizeof sc / sizeof sc[0]; ++ci) {
        const split_case *x = &sc[ci];
        gk_gemm_desc d = gk_gemm_desc_init(x->t, x->m, x->n, x->k);
        d.compute = x->compute, d.op_a = x->op_a, d.op_b = x->op_b, d.alpha = x->alpha, d.beta = x->beta;
        d.epilogue = x->epi;
        int pick = -1;
        size_t splits = 0;
        gk_status st = gk_gemm_auto_variant(&d, &pick, &splits);
        CHECK(gk_ok(st) && pick == x->id && splits == x->splits, "split case %zu: variant %d, %zu slices (want %d, %zu)",
              ci, pick, splits, x->id, x->splits);
        const gk_gemm_variant *v = gk_gemm_find_variant(pick);
        gk_device_info dev;
        if (v == NULL || !gk_ok(gk_device_query(0, &dev)) || !runs_here(v, &dev)) continue;
        const size_t m = x->m, n = x->n, k = x->k, na = m * k, nb = k * n, nc = m * n;
        const size_t lda = x->op_a == GK_GEMM_OP_T ? m : k, ldb = x->op_b == GK_GEMM_OP_T ? k : n;
        const size_t total = na + nb + n + nc, es = elem_size(x->t);
        float *h = malloc(total * sizeof(float));
        unsigned char *raw = malloc(total * es), *got = malloc(2 * nc * es);
        double *ref = malloc(3 * nc * sizeof(double));
        gk_fill_f32(h, total, seed ^ (0x5b11 + ci), -1.0f, 1.0f);
        /* 16-bit types: the inputs rounded to the type first, so that the
         * reference multiplies exactly the numbers the GPU reads. */
        if (x->t == GK_GEMM_TYPE_BF16) gk_round_to_bf16(h, total);
        if (x->t == GK_GEMM_TYPE_F16) gk_round_to_fp16(h, total);
        for (size_t i = 0; i < total; ++i) encode(x->t, h[i], raw + i * es);
        const float *ha = h, *hb = h + na, *hbias = h + na + nb, *hc = h + na + nb + n;
        gk_gemm_ref_ex((int)x->op_a, (int)x->op_b, m, n, k, x->alpha, ha, lda, hb, ldb, x->beta, hc, n, (int)x->epi,
                       hbias, ref, ref + nc, ref + 2 * nc);
        unsigned char *dmem = NULL;
        TRY_CUDA(cudaMalloc((void **)&dmem, total * es));
        d.bias = dmem + (na + nb) * es;
        size_t bytes = 0;
        void *w = ex_workspace(GK_GEMM_AUTO, &d, ws, ws_cap, &bytes, "split");
        for (int pass = 0; pass < 2; ++pass) {
            TRY_CUDA(cudaMemcpy(dmem, raw, total * es, cudaMemcpyHostToDevice));
            size_t b2 = bytes;
            st = gk_gemm_ex(GK_GEMM_AUTO, &d, dmem, dmem + na * es, dmem + (na + nb + n) * es, w, &b2, 0);
            CHECK(gk_ok(st), "split case %zu pass %d: %s", ci, pass, gk_status_string(st.code));
            TRY_CUDA(cudaDeviceSynchronize());
            TRY_CUDA(cudaMemcpy(got + pass * nc * es, dmem + (na + nb + n) * es, nc * es, cudaMemcpyDeviceToHost));
        }
        char label[96];
        snprintf(label, sizeof label, "split case %zu (%s, variant %d, %zu slices)", ci, gk_gemm_type_name(x->t), pick,
                 splits);
        const gk_gemm_precision pr = ex_precision(v, x->t);
        const size_t bad = x->t == GK_GEMM_TYPE_F32
                               ? gk_gemm_check_ex((const float *)got, n, ref, ref + nc, ref + 2 * nc, m, n, k, pr,
                                                  (int)x->epi, 0, label, stdout)
                               : gk_gemm_check16((const unsigned short *)got, n, ref, ref + nc, ref + 2 * nc, m, n, k,
                                                 pr, (int)x->epi, 0, label, stdout);
        CHECK(bad == 0, "%s: %zu elements outside the tolerance", label, bad);
        CHECK(memcmp(got, got + nc * es, nc * es) == 0, "%s: the same bits twice", label);
        cudaFree(dmem);
        free(h), free(raw), free(got), free(ref);
    }
}

int main(int argc, char **argv)
{
    int variant = 0, bf16_variant = 0, small_only = 0, ex_only = 0, auto_only = 0;
    int tables = 3; /* bit 0: fp32, bit 1: bf16 */
    uint64_t seed = gk_test_new_seed();
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc) variant = atoi(argv[++i]), tables = 1;
        else if (strcmp(argv[i], "--bf16") == 0 && i + 1 < argc) bf16_variant = atoi(argv[++i]), tables = 2;
        else if (strcmp(argv[i], "--table") == 0 && i + 1 < argc) {
            ++i;
            tables = strcmp(argv[i], "fp32") == 0 ? 1 : strcmp(argv[i], "bf16") == 0 ? 2 : 0;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--small") == 0) small_only = 1;
        else if (strcmp(argv[i], "--ex") == 0) ex_only = 1;
        else if (strcmp(argv[i], "--auto") == 0) auto_only = 1;
        else tables = 0;
        if (tables == 0 || (variant && bf16_variant)) {
            printf("usage: test_gemm_gpu [--variant ID | --bf16 ID | --table fp32|bf16] [--ex] [--auto] [--small] "
                   "[--seed S]\n");
            return 2;
        }
    }
    gk_device_info dev;
    if (gk_test_open_gpu(&dev, seed) != 0) return GK_TEST_SKIP;
    const gk_gemm_variant *only = NULL, *only_bf16 = NULL;
    if (variant != 0 && (only = gk_gemm_find_variant(variant)) == NULL) {
        printf("no variant %d\n", variant);
        return 2;
    }
    if (only && !(only->types & GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32))) /* a 16-bit row: gk_gemm_bf16's */
        only_bf16 = only, only = NULL, tables = 2;
    /* A file of the small_ series that stores fp32 only (22) comes here as
     * --bf16 too (tests/CMakeLists.txt numbers the series alike): its fp32 rows. */
    const gk_gemm_variant *named = bf16_variant != 0 ? gk_gemm_find_variant(bf16_variant) : NULL;
    if (named && named->types == GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32))
        only = named, bf16_variant = 0, tables = 1;
    if (bf16_variant != 0 && (only_bf16 = gk_gemm_bf16_find_variant(bf16_variant)) == NULL) {
        printf("no bf16 variant %d (the 16-bit rows are 13-17, 19-21 and 23)\n", bf16_variant);
        return 2;
    }
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        printf("FATAL cublasCreate failed\n");
        return 1;
    }
    if (auto_only) { /* GK_GEMM_AUTO's tests alone: its picks and split-K */
        void *ws = NULL;
        size_t ws_cap = 0;
        test_auto(seed, &ws, &ws_cap);
        if (ws) cudaFree(ws);
        cublasDestroy(h);
        return check_summary("test_gemm_gpu");
    }
    size_t nsmall = sizeof small_shapes / sizeof small_shapes[0];
    size_t nmed = small_only ? 0 : sizeof medium_shapes / sizeof medium_shapes[0];
    for (int bf16 = 0; bf16 < 2 && !ex_only; ++bf16) {
        if (!(tables & (1 << bf16))) continue;
        for (size_t si = 0; si < nsmall + nmed; ++si)
            run_shape(si < nsmall ? &small_shapes[si] : &medium_shapes[si - nsmall], seed, bf16,
                      bf16 ? only_bf16 : only, &dev, h);
    }
    /* gk_gemm_ex: every selected variant's default description, then every
     * extended variant's options, type by type. */
    void *ws = NULL;
    size_t ws_cap = 0;
    for (size_t vi = 0; vi < gk_gemm_variant_count(); ++vi) {
        const gk_gemm_variant *v = gk_gemm_variant_at(vi);
        if (v->precision == GK_GEMM_FP8) continue; /* FP8 inputs: test_gemm_fp8_gpu */
        /* The tables a row belongs to: fp32 (bit 0) where it stores F32,
         * 16-bit (bit 1) where it stores BF16 or F16 (variant 20: both). */
        const unsigned b16 = GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16);
        const int in_tables = ((v->types & GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32)) ? 1 : 0) | ((v->types & b16) ? 2 : 0);
        if (!(tables & in_tables)) continue;
        if ((only || only_bf16) && v != only && v != only_bf16) continue;
        if (!runs_here(v, &dev)) continue;
        run_ex_default(v, small_only, seed, &ws, &ws_cap);
        if (!v->extended) continue;
        for (int t = GK_GEMM_TYPE_F32; t <= GK_GEMM_TYPE_F16; ++t)
            if ((v->types & GK_GEMM_TYPE_BIT(t)) && (tables & (t == GK_GEMM_TYPE_F32 ? 1 : 2)))
                run_ex_variant(v, (gk_gemm_type)t, small_only, seed, &ws, &ws_cap);
    }
    if (!only && !only_bf16 && tables == 3) test_auto(seed, &ws, &ws_cap);
    if (ws) cudaFree(ws);
    cublasDestroy(h);
    return check_summary("test_gemm_gpu");
}
