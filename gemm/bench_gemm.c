/* The gemm module's entry in gk_bench (bench/bench.h).
 *
 * Sizes: "4096" (square) or "4097x3001x2049" (m x n x k), each axis any count
 * gk_parse_size reads (so "2^12" works). Cases: the rows of the variant
 * table, cuBLAS in pure fp32 (cublasGemmEx, CUBLAS_COMPUTE_32F) and cuBLAS in
 * TF32 (CUBLAS_COMPUTE_32F_FAST_TF32). Each fp32 variant is compared with
 * cuBLAS fp32 and its % of peak is of the fp32 FMA peak; the TF32 variant is
 * compared with cuBLAS TF32 and the dense TF32 tensor peak.
 *
 * One call computes C = A*B (alpha = 1, beta = 0, dense leading dimensions),
 * 2*m*n*k FLOPs, and must read A and B and write C once: 4*(m*k + k*n + m*n)
 * bytes. Every case is checked against cuBLAS fp32's result, with the
 * tolerance of gemm_ref.h for the case's precision (both = 1: two GPU
 * results); the sums of |a b| and of (a b)^2 it needs come from cuBLAS fp32
 * on |A|, |B| and on the squares of A and B (their own relative error, about
 * k * 2^-24, is far inside the tolerance's factor lambda = 10).
 *
 * The slowest rungs (variants 1 and 2) are skipped above 2*4096^3 FLOPs
 * (--no-skip runs them: about a minute each at 8192^3).
 *
 * BF16: the parameter dtype (--param dtype=f32,bf16, both by default) picks
 * the table. dtype=f32 runs the rows above, unchanged ("C = A*B"); dtype=bf16
 * ("C = A*B, bf16") runs gk_gemm_bf16's table against cuBLAS in bf16
 * (cublasGemmEx, CUDA_R_16BF in and out, CUBLAS_COMPUTE_32F; key
 * cublas_bf16), % of the dense BF16 tensor peak, 2*(m*k + k*n + m*n) bytes.
 * The inputs are random bf16 numbers; the check is against cuBLAS fp32 on
 * those same (exact) values, with the BF16 tolerance of gemm_ref.h (both =
 * 1). The case list is one for both values of the parameter (the runner's
 * cases do not depend on it): in a dtype=f32 run the BF16 cases show as n/a,
 * and the fp32 ones in a dtype=bf16 run. The bench numbers a BF16 variant
 * after the fp32 table (bench id = gk_gemm_variant_count() + its table id:
 * 13 for BF16 variant 1), since the runner's ids are one sequence per
 * module; the case's name is the BF16 table's name of the variant.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "gemm_ref.h"
#include "gk/cuda_check.h"
#include "gk/gemm.h"
#include "gk/random.h"

static const char *const default_sizes[] = {"1024", "2048", "4096", "8192", "4097x3001x2049"};

static int parse_size(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    int xs = 0;
    for (const char *p = s; *p; ++p) xs += *p == 'x';
    if (xs != 0 && xs != 2) {
        snprintf(err, err_size, "write one dimension (a square product) or three, m x n x k");
        return 1;
    }
    char buf[GK_CLI_ITEM];
    snprintf(buf, sizeof buf, "%s", s);
    char *p = buf;
    for (int i = 0; i <= xs; ++i) {
        char *x = strchr(p, 'x');
        if (x) *x = '\0';
        size_t v;
        if (gk_parse_size(p, &v) != 0 || v == 0 || v > GK_GEMM_MAX_DIM) {
            snprintf(err, err_size, "'%s' is not a dimension from 1 to 2^31-1", p);
            return 1;
        }
        shape->v[i] = v;
        p = x ? x + 1 : p;
    }
    if (xs == 0) shape->v[1] = shape->v[2] = shape->v[0];
    shape->count = 3;
    return 0;
}

static void format_size(const gk_bench_shape *shape, char *buf, size_t size)
{
    if (shape->v[0] == shape->v[1] && shape->v[1] == shape->v[2]) snprintf(buf, size, "%zu", shape->v[0]);
    else snprintf(buf, size, "%zux%zux%zu", shape->v[0], shape->v[1], shape->v[2]);
}

static const gk_bench_param_decl params[] = {
    {"dtype", "f32,bf16", "f32,bf16",
     "f32: gk_gemm (fp32, TF32) vs cuBLAS fp32/TF32; bf16: gk_gemm_bf16 vs cuBLAS bf16"},
};

/* The bench id of BF16 variant `id`, and back (0: not a BF16 case). */
static int bf16_bench_id(int id) { return (int)gk_gemm_variant_count() + id; }
static int bf16_table_id(int bench_id)
{
    int id = bench_id - (int)gk_gemm_variant_count();
    return id >= 1 && id <= (int)gk_gemm_bf16_variant_count() ? id : 0;
}

static size_t num_cases(void) { return gk_gemm_variant_count() + gk_gemm_bf16_variant_count() + 3; }

static gk_bench_case case_at(size_t i)
{
    const size_t nf = gk_gemm_variant_count(), nb = gk_gemm_bf16_variant_count();
    if (i >= nf && i < nf + nb) {
        const gk_gemm_variant *v = gk_gemm_bf16_variant_at(i - nf);
        gk_bench_case c = {bf16_bench_id(v->id), NULL, v->name, v->idea, GK_ROLE_VARIANT, "bf16", GK_PEAK_BF16,
                           "cublas_bf16"};
        return c;
    }
    if (i >= nf + nb) i -= nb; /* the comparison cases after both tables */
    const gk_gemm_variant *v = gk_gemm_variant_at(i);
    if (v != NULL) {
        int tf32 = v->precision == GK_GEMM_TF32;
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, gk_gemm_precision_name(v->precision),
                           tf32 ? GK_PEAK_TF32 : GK_PEAK_FP32, tf32 ? "cublas_tf32" : "cublas_fp32"};
        return c;
    }
    if (i == gk_gemm_variant_count()) {
        gk_bench_case c = {0, "cublas_fp32", "cuBLAS fp32", "cublasGemmEx, CUBLAS_COMPUTE_32F (no TF32)",
                           GK_ROLE_REFERENCE, "fp32", GK_PEAK_FP32, NULL};
        return c;
    }
    if (i == gk_gemm_variant_count() + 1) {
        gk_bench_case c = {0, "cublas_tf32", "cuBLAS TF32", "cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32",
                           GK_ROLE_REFERENCE, "tf32", GK_PEAK_TF32, NULL};
        return c;
    }
    gk_bench_case c = {0, "cublas_bf16", "cuBLAS BF16", "cublasGemmEx, CUDA_R_16BF in and out, CUBLAS_COMPUTE_32F",
                       GK_ROLE_REFERENCE, "bf16", GK_PEAK_BF16, NULL};
    return c;
}

static int case_is_bf16(const gk_bench_case *c) { return c->precision && strcmp(c->precision, "bf16") == 0; }

typedef struct state {
    size_t m, n, k;
    float *d_a, *d_b, *d_c;
    double *ref, *mag, *rms; /* cuBLAS fp32's C, |A|*|B| and sqrt((A.A)*(B.B)), on the host */
    float *h_c;
    cublasHandle_t h;
    gk_bench_case c;
    gk_gemm_precision precision;
    int cc;   /* the GPU's compute capability, e.g. 90 */
    int bf16; /* dtype=bf16: the BF16 table, on the bf16 copies below */
    void *d_a16, *d_b16, *d_c16;
    unsigned short *h_c16;
} state;

static void teardown(void *p)
{
    state *s = (state *)p;
    cudaFree(s->d_a);
    cudaFree(s->d_b);
    cudaFree(s->d_c);
    cudaFree(s->d_a16);
    cudaFree(s->d_b16);
    cudaFree(s->d_c16);
    free(s->h_c16);
    if (s->h) cublasDestroy(s->h);
    free(s->ref);
    free(s->mag);
    free(s->rms);
    free(s->h_c);
}

#define CUBLAS_TRY(call)                                                                                         \
    do {                                                                                                         \
        if ((call) != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, #call " failed");                    \
    } while (0)

/* |x| (square = 0) or x^2 (1) of n floats, through host scratch, uploaded to d. */
static gk_status upload_fn(float *d, const float *h, float *tmp, size_t n, int square)
{
    for (size_t i = 0; i < n; ++i) tmp[i] = square ? h[i] * h[i] : fabsf(h[i]);
    GK_CUDA_TRY(cudaMemcpy(d, tmp, n * sizeof(float), cudaMemcpyHostToDevice));
    return gk_success();
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->m = shape->v[0], s->n = shape->v[1], s->k = shape->v[2];
    s->bf16 = params->value[0] != NULL && strcmp(params->value[0], "bf16") == 0;
    size_t na = s->m * s->k, nb = s->k * s->n, nc = s->m * s->n;
    float *ha = (float *)malloc(na * sizeof(float)), *hb = (float *)malloc(nb * sizeof(float));
    s->h_c = (float *)malloc(nc * sizeof(float));
    s->ref = (double *)malloc(nc * sizeof(double));
    s->mag = (double *)malloc(nc * sizeof(double));
    s->rms = (double *)malloc(nc * sizeof(double));
    gk_status st = gk_success();
    if (!ha || !hb || !s->h_c || !s->ref || !s->mag || !s->rms)
        st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    if (gk_ok(st)) {
        gk_fill_f32(ha, na, params->seed, -1.0f, 1.0f);
        gk_fill_f32(hb, nb, params->seed + 1, -1.0f, 1.0f);
        if (s->bf16) { /* bf16 numbers: the fp32 reference below is then that of exactly these inputs */
            gk_round_to_bf16(ha, na);
            gk_round_to_bf16(hb, nb);
        }
        st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_a, na * sizeof(float)));
    }
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_b, nb * sizeof(float)));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_c, nc * sizeof(float)));
    if (gk_ok(st) && cublasCreate(&s->h) != CUBLAS_STATUS_SUCCESS) st = GK_FAIL(GK_ERROR_CUDA, "cublasCreate failed");
    int dev = 0, major = 0, minor = 0;
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaGetDevice(&dev));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    s->cc = 10 * major + minor;
    /* |A| * |B| and (A.A) * (B.B) first (the sizes the tolerance needs), then
     * A * B (the reference), all in pure fp32 through cuBLAS. */
    float *tmp = gk_ok(st) ? (float *)malloc((na > nb ? na : nb) * sizeof(float)) : NULL;
    if (gk_ok(st) && tmp == NULL) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    for (int square = 0; square < 2 && gk_ok(st); ++square) {
        st = upload_fn(s->d_a, ha, tmp, na, square);
        if (gk_ok(st)) st = upload_fn(s->d_b, hb, tmp, nb, square);
        if (gk_ok(st) && gk_cublas_gemm(s->h, GK_GEMM_FP32, s->m, s->n, s->k, 1.0f, s->d_a, s->k, s->d_b, s->n, 0.0f,
                                        s->d_c, s->n) != CUBLAS_STATUS_SUCCESS)
            st = GK_FAIL(GK_ERROR_CUDA, "cuBLAS on |A|, |B| or their squares failed");
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->h_c, s->d_c, nc * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t i = 0; gk_ok(st) && i < nc; ++i) {
            if (square) s->rms[i] = sqrt((double)s->h_c[i]);
            else s->mag[i] = (double)s->h_c[i];
        }
    }
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_a, ha, na * sizeof(float), cudaMemcpyHostToDevice));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_b, hb, nb * sizeof(float), cudaMemcpyHostToDevice));
    if (gk_ok(st) && gk_cublas_gemm(s->h, GK_GEMM_FP32, s->m, s->n, s->k, 1.0f, s->d_a, s->k, s->d_b, s->n, 0.0f,
                                    s->d_c, s->n) != CUBLAS_STATUS_SUCCESS)
        st = GK_FAIL(GK_ERROR_CUDA, "cuBLAS A*B failed");
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->h_c, s->d_c, nc * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; gk_ok(st) && i < nc; ++i) s->ref[i] = (double)s->h_c[i];
    if (gk_ok(st) && s->bf16) { /* the bf16 copies the BF16 cases read and write */
        size_t nmax = na > nb ? na : nb;
        unsigned short *t16 = (unsigned short *)malloc((nmax > nc ? nmax : nc) * sizeof(unsigned short));
        s->h_c16 = (unsigned short *)malloc(nc * sizeof(unsigned short));
        if (t16 == NULL || s->h_c16 == NULL) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_a16, na * 2));
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_b16, nb * 2));
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_c16, nc * 2));
        for (size_t i = 0; gk_ok(st) && i < na; ++i) t16[i] = gk_bf16_bits(ha[i]);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_a16, t16, na * 2, cudaMemcpyHostToDevice));
        for (size_t i = 0; gk_ok(st) && i < nb; ++i) t16[i] = gk_bf16_bits(hb[i]);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_b16, t16, nb * 2, cudaMemcpyHostToDevice));
        free(t16);
    }
    free(tmp);
    free(ha);
    free(hb);
    return st;
}

static const char *describe(void *p)
{
    return ((state *)p)->bf16 ? "C = A*B, bf16" : "C = A*B";
}

static const char *skip(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k;
    if (c->role == GK_ROLE_VARIANT && c->id <= 2 && flops > 2.0 * 4096.0 * 4096.0 * 4096.0)
        return "a slow rung above 2*4096^3 FLOPs (--no-skip runs it)";
    return NULL;
}

/* A run has one dtype: the fp32 and TF32 cases belong to dtype=f32, the BF16
 * ones to dtype=bf16; the others get no row in the table. */
static int applies(void *p, const gk_bench_case *c) { return case_is_bf16(c) == ((state *)p)->bf16; }

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->c = *c;
    if (s->bf16) {
        s->precision = GK_GEMM_BF16;
        if (c->role == GK_ROLE_VARIANT) {
            const gk_gemm_variant *v = gk_gemm_bf16_find_variant(bf16_table_id(c->id));
            if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such bf16 gemm variant");
            if (v->min_cc > s->cc) return GK_FAIL(GK_ERROR_UNSUPPORTED, "needs a newer GPU (variant->min_cc)");
            /* A 1x1x1 call: GK_ERROR_UNSUPPORTED where the build or the GPU
             * cannot run the variant (wgmma: cc 9.0, built for sm_90a). */
            GK_CUDA_TRY(cudaMemset(s->d_c16, 0, 2));
            gk_status st = gk_gemm_bf16(v->id, 1, 1, 1, 1.0f, s->d_a16, 1, s->d_b16, 1, 0.0f, s->d_c16, 1, 0);
            if (!gk_ok(st)) return st;
        }
        GK_CUDA_TRY(cudaMemset(s->d_c16, 0xff, s->m * s->n * 2)); /* NaN: must be written, not read */
        GK_CUDA_TRY(cudaDeviceSynchronize());
        return gk_success();
    }
    s->precision = c->precision && strcmp(c->precision, "tf32") == 0 ? GK_GEMM_TF32 : GK_GEMM_FP32;
    if (c->role == GK_ROLE_VARIANT) {
        const gk_gemm_variant *v = gk_gemm_find_variant(c->id);
        if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such gemm variant");
        if (v->min_cc > s->cc) return GK_FAIL(GK_ERROR_UNSUPPORTED, "needs a newer GPU (variant->min_cc)");
    }
    /* Poison C with NaN: beta = 0, so every element must be written and none read. */
    GK_CUDA_TRY(cudaMemset(s->d_c, 0xff, s->m * s->n * sizeof(float)));
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->bf16) {
        if (s->c.role == GK_ROLE_REFERENCE) {
            if (cublasSetStream(s->h, stream) != CUBLAS_STATUS_SUCCESS)
                return GK_FAIL(GK_ERROR_CUDA, "cublasSetStream");
            if (gk_cublas_gemm_bf16(s->h, s->m, s->n, s->k, 1.0f, s->d_a16, s->k, s->d_b16, s->n, 0.0f, s->d_c16,
                                    s->n) != CUBLAS_STATUS_SUCCESS)
                return GK_FAIL(GK_ERROR_CUDA, "cublasGemmEx (bf16) failed");
            return gk_success();
        }
        return gk_gemm_bf16(bf16_table_id(s->c.id), s->m, s->n, s->k, 1.0f, s->d_a16, s->k, s->d_b16, s->n, 0.0f,
                            s->d_c16, s->n, stream);
    }
    if (s->c.role == GK_ROLE_REFERENCE) {
        if (cublasSetStream(s->h, stream) != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, "cublasSetStream");
        if (gk_cublas_gemm(s->h, s->precision, s->m, s->n, s->k, 1.0f, s->d_a, s->k, s->d_b, s->n, 0.0f, s->d_c,
                           s->n) != CUBLAS_STATUS_SUCCESS)
            return GK_FAIL(GK_ERROR_CUDA, "cublasGemmEx failed");
        return gk_success();
    }
    return gk_gemm(s->c.id, s->m, s->n, s->k, 1.0f, s->d_a, s->k, s->d_b, s->n, 0.0f, s->d_c, s->n, stream);
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->bf16) {
        GK_CUDA_TRY(cudaMemcpy(s->h_c16, s->d_c16, s->m * s->n * 2, cudaMemcpyDeviceToHost));
        if (gk_gemm_check_bf16(s->h_c16, s->n, s->ref, s->mag, s->rms, s->m, s->n, s->k, 1, s->c.name, log) != 0)
            return GK_FAIL(GK_ERROR_VERIFY_FAILED, "C does not match cuBLAS fp32 within the BF16 tolerance");
        return gk_success();
    }
    GK_CUDA_TRY(cudaMemcpy(s->h_c, s->d_c, s->m * s->n * sizeof(float), cudaMemcpyDeviceToHost));
    if (gk_gemm_check(s->h_c, s->n, s->ref, s->mag, s->rms, s->m, s->n, s->k, s->precision, 1, s->c.name, log) != 0)
        return GK_FAIL(GK_ERROR_VERIFY_FAILED, "C does not match cuBLAS fp32 within the tolerance");
    return gk_success();
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    double m = (double)s->m, n = (double)s->n, k = (double)s->k, e = s->bf16 ? 2.0 : 4.0; /* bytes per element */
    gk_bench_work w = {e * (m * k + k * n), e * m * n, 2.0 * m * n * k};
    return w;
}

const gk_bench_module gk_gemm_bench_module = {
    "gemm", "m x n x k", "one size for a square product (4096, 2^12) or m x n x k (4097x3001x2049)",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "tflops", params, sizeof params / sizeof params[0],
    parse_size, format_size, num_cases, case_at, setup, skip, prepare, run, verify, work, describe, teardown,
    GK_PEAK_NONE, applies, .state_size = sizeof(state),
};
