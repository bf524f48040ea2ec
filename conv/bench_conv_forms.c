/* The 2D and depthwise forms' entries in gk_bench (bench/bench.h): modules
 * conv2d and conv_depthwise. (bench/modules.c lists them.)
 *
 * conv2d. Size: rows x cols ("8192x8192"), rows and cols from 1 up; the
 * image contiguous (stride = cols). Parameter: mask, a square side
 * (3, 5, 7, 15, 31 by default). Cases: the 2D table (ids 8-13); cuFFT 2D
 * (key cufft2d), the reference every 2D variant is compared with ("vs its
 * reference"); and a device-to-device copy of the same 4 rows cols bytes,
 * the memory ceiling. Work per call: 4 rows cols bytes read (+ the mask), as
 * many written, 2 rows cols k FLOPs; "% of peak" of DRAM, and the module's
 * second peak the fp32 one. Every case is credited with that same work,
 * cuFFT and the copy included, so their TFLOP/s is the direct method's
 * FLOPs over their time.
 *
 * What the cuFFT 2D case times (cufft_conv.h: gk_cufft_conv2d_run), per
 * call on the bench's stream: the padding of the image and of the reversed
 * mask into two Ny x Nx arrays (one kernel), the R2C transforms of both, the
 * scaled complex product, the C2R transform and the crop into out. The mask's
 * spectrum is computed in every call, as the direct kernels read the mask
 * in every call. Not timed: the two cuFFT plans and the two padded buffers,
 * made once per size and mask in prepare(). Where they do not fit in device
 * memory the row shows n/a.
 *
 * conv_depthwise. Size: batch x channels x length ("8x2048x8192").
 * Parameters: width (4, 31), padding (causal, same), epilogue (silu: bias
 * + SiLU, none: no bias, no activation). Cases: the depthwise table (ids
 * 14-16) and the device copy of the tensor. Work: 4 B C L bytes each way,
 * 2 B C L w FLOPs.
 *
 * Checks: every output finite, and sampled outputs (the borders and 2^16
 * others) within the derived tolerance (conv_ref.h); for cuFFT 2D each of
 * them within its normwise bound, gk_conv_fft_tolerance(Ny Nx, ||in||_2,
 * ||mask||_1), and the error norm estimated from the drawn ones within it
 * too (gk_conv2d_check_fft_sampled; conv_ref.h derives the bound). The GPU
 * tests check every output. Variants 8-11 and 14 above 2^38 FLOPs per call
 * are skipped (--no-skip runs them), as the 1D module does for its slow
 * rungs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ceilings.h"
#include "cli.h"
#include "conv_ref.h"
#include "cufft_conv.h"
#include "gk/conv.h"
#include "gk/cuda_check.h"

#define SLOW_FLOPS 274877906944.0 /* 2^38 */
#define SAMPLES ((size_t)1 << 16)

/* "AxB" or "AxBxC": `axes` counts of at least 1, product <= GK_CONV_MAX_N. */
static int parse_dims(const char *s, int axes, gk_bench_shape *shape, char *err, size_t err_size)
{
    char buf[128];
    size_t len = strlen(s), prod = 1;
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *p = buf;
    shape->count = 0;
    for (int k = 0; k < axes; ++k) {
        char *x = strchr(p, 'x');
        if ((x == NULL) != (k == axes - 1)) break;
        if (x) *x = 0;
        size_t v;
        if (gk_parse_size(p, &v) != 0 || v == 0 || v > GK_CONV_MAX_N / prod) break;
        prod *= v;
        shape->v[shape->count++] = v;
        p = x ? x + 1 : p;
    }
    if (shape->count == axes) return 0;
    snprintf(err, err_size, axes == 2 ? "not rows x cols of at least 1 each (try 8192x8192)"
                                      : "not batch x channels x length of at least 1 each (try 8x2048x8192)");
    return 1;
}

static void format_dims(const gk_bench_shape *shape, char *buf, size_t size)
{
    size_t at = 0;
    for (int k = 0; k < shape->count && at < size; ++k)
        at += (size_t)snprintf(buf + at, size - at, k ? "x%zu" : "%zu", shape->v[k]);
}

static int parse2d(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    return parse_dims(s, 2, shape, err, err_size);
}

static int parse3d(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    return parse_dims(s, 3, shape, err, err_size);
}

/* ---- Shared state --------------------------------------------------------- */

typedef struct state {
    int form; /* 2: conv2d, 1: depthwise */
    size_t rows, cols, side;                 /* 2D */
    size_t batch, channels, length, width;   /* depthwise */
    int causal, silu;
    size_t count; /* elements of in and out */
    float *h_in, *h_mask, *h_bias, *h_out;
    float *d_in, *d_mask, *d_bias, *d_out;
    void *d_ws;
    size_t ws_bytes;
    gk_cufft_conv2d *fft2d;      /* 2D: cuFFT's plans and buffers, made by its first prepare() */
    double in_norm2, mask_norm1; /* 2D: the norms of cuFFT's tolerance */
    uint64_t seed;
    gk_bench_case c;
    char describe[64];
} state;

static void teardown(void *p)
{
    state *s = (state *)p;
    gk_cufft_conv2d_destroy(s->fft2d);
    cudaFree(s->d_in), cudaFree(s->d_mask), cudaFree(s->d_bias), cudaFree(s->d_out), cudaFree(s->d_ws);
    free(s->h_in), free(s->h_mask), free(s->h_bias), free(s->h_out);
}

static gk_status alloc_common(state *s, size_t masks, size_t biases)
{
    s->h_in = (float *)malloc(s->count * sizeof(float));
    s->h_out = (float *)malloc(s->count * sizeof(float));
    s->h_mask = (float *)malloc(masks * sizeof(float));
    s->h_bias = (float *)malloc((biases ? biases : 1) * sizeof(float));
    if (!s->h_in || !s->h_out || !s->h_mask || !s->h_bias) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    gk_conv_fill(s->h_in, s->count, GK_CONV_DATA_REAL, s->seed);
    gk_conv_fill(s->h_mask, masks, GK_CONV_DATA_REAL, s->seed ^ 0x6d61736bULL);
    if (biases) gk_conv_fill(s->h_bias, biases, GK_CONV_DATA_REAL, s->seed ^ 0x62696173ULL);
    GK_CUDA_TRY(cudaMalloc((void **)&s->d_in, s->count * sizeof(float)));
    GK_CUDA_TRY(cudaMalloc((void **)&s->d_out, s->count * sizeof(float)));
    GK_CUDA_TRY(cudaMalloc((void **)&s->d_mask, masks * sizeof(float)));
    GK_CUDA_TRY(cudaMemcpy(s->d_in, s->h_in, s->count * sizeof(float), cudaMemcpyHostToDevice));
    GK_CUDA_TRY(cudaMemcpy(s->d_mask, s->h_mask, masks * sizeof(float), cudaMemcpyHostToDevice));
    if (biases) {
        GK_CUDA_TRY(cudaMalloc((void **)&s->d_bias, biases * sizeof(float)));
        GK_CUDA_TRY(cudaMemcpy(s->d_bias, s->h_bias, biases * sizeof(float), cudaMemcpyHostToDevice));
    }
    return gk_success();
}

static const char *describe(void *p) { return ((state *)p)->describe; }

static double flops(const state *s)
{
    return s->form == 2 ? 2.0 * (double)s->count * (double)(s->side * s->side)
                        : 2.0 * (double)s->count * (double)s->width;
}

static const char *skip(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    int slow = (c->id >= 8 && c->id <= 11) || c->id == 14;
    if (c->role == GK_ROLE_VARIANT && slow && flops(s) > SLOW_FLOPS)
        return "a slow rung above 2^38 FLOPs per call (--no-skip runs it)";
    return NULL;
}

static gk_status call(state *s, void *ws, size_t *bytes, cudaStream_t stream)
{
    if (s->form == 2)
        return gk_conv2d(s->c.id, s->d_in, s->rows, s->cols, s->cols, s->d_mask, s->side, s->side, s->d_out, s->cols,
                         ws, bytes, stream);
    return gk_conv1d_depthwise(s->c.id, s->d_in, s->batch, s->channels, s->length, s->length, s->d_mask, s->width,
                               s->silu ? s->d_bias : NULL, s->causal ? GK_CONV_PAD_CAUSAL : GK_CONV_PAD_SAME,
                               s->silu ? GK_CONV_ACT_SILU : GK_CONV_ACT_NONE, s->d_out, s->length, ws, bytes, stream);
}

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->c = *c;
    if (c->role == GK_ROLE_VARIANT) {
        size_t need = 0;
        GK_TRY(call(s, NULL, &need, 0)); /* GK_ERROR_UNSUPPORTED shows as n/a */
        GK_TRY(gk_bench_poisoned_workspace(&s->d_ws, &s->ws_bytes, need, 0x5a));
    } else if (c->role == GK_ROLE_REFERENCE && s->fft2d == NULL) {
        /* Plans and buffers, once, untimed; GK_ERROR_UNSUPPORTED (they do
         * not fit in device memory) shows as n/a. */
        GK_TRY(gk_cufft_conv2d_create(&s->fft2d, s->rows, s->cols, s->side, s->side));
    }
    GK_CUDA_TRY(cudaMemset(s->d_out, 0xff, s->count * sizeof(float))); /* NaN: every output must be written */
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) {
        GK_CUDA_TRY(gk_ceiling_copy(s->d_out, s->d_in, s->count * sizeof(float), stream));
        return gk_success();
    }
    if (s->c.role == GK_ROLE_REFERENCE) /* conv2d only: what is timed is said at the top */
        return gk_cufft_conv2d_run(s->fft2d, s->d_in, s->cols, s->d_mask, s->d_out, s->cols, stream);
    size_t bytes = s->ws_bytes;
    return call(s, s->d_ws, &bytes, stream);
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) return gk_success();
    GK_CUDA_TRY(cudaMemcpy(s->h_out, s->d_out, s->count * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad;
    if (s->c.role == GK_ROLE_REFERENCE) {
        size_t ny, nx;
        gk_cufft_conv2d_size(s->fft2d, &ny, &nx);
        double tol = gk_conv_fft_tolerance(ny * nx, s->in_norm2, s->mask_norm1);
        bad = gk_conv2d_check_fft_sampled(s->h_out, s->cols, s->h_in, s->rows, s->cols, s->cols, s->h_mask, s->side,
                                          s->side, tol, SAMPLES, s->seed, s->c.name, log);
    } else if (s->form == 2)
        bad = gk_conv2d_check_sampled(s->h_out, s->cols, s->h_in, s->rows, s->cols, s->cols, s->h_mask, s->side,
                                      s->side, SAMPLES, s->seed, s->c.name, log);
    else
        bad = gk_conv_dw_check_sampled(s->h_out, s->length, s->h_in, s->batch * s->channels, s->channels, s->length,
                                       s->length, s->h_mask, s->width, s->silu ? s->h_bias : NULL, s->causal,
                                       s->silu ? GK_CONV_ACT_SILU : GK_CONV_ACT_NONE, SAMPLES, s->seed, s->c.name, log);
    if (bad != 0) return GK_FAIL(GK_ERROR_VERIFY_FAILED, "the output differs from the CPU's float64 reference");
    return gk_success();
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    double masks = s->form == 2 ? (double)(s->side * s->side) : (double)(s->channels * s->width);
    gk_bench_work w = {4.0 * (double)s->count + 4.0 * masks, 4.0 * (double)s->count, flops(s)};
    return w;
}

static gk_bench_case ceiling_case(void)
{
    gk_bench_case c = {0, "copy", "device copy", "cudaMemcpyAsync of the same bytes: the memory limit",
                       GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL};
    return c;
}

/* ---- conv2d ---------------------------------------------------------------- */

static const char *const sizes2d[] = {"8192x8192"};
static const gk_bench_param_decl params2d[] = {
    {"mask", "any positive integer", "3,5,7,15,31", "the mask's side (a square mask)", gk_accepts_positive_count},
};

static size_t cases2d(void) { return gk_conv2d_variant_count() + 2; }

static gk_bench_case case2d(size_t i)
{
    const gk_conv_variant *v = gk_conv2d_variant_at(i);
    if (v != NULL) {
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, "fp32", GK_PEAK_DRAM, "cufft2d"};
        return c;
    }
    if (i == gk_conv2d_variant_count()) {
        gk_bench_case c = {0, "cufft2d", "cuFFT 2D", "pad image and reversed mask, R2C of both, product, C2R, crop",
                           GK_ROLE_REFERENCE, "fp32", GK_PEAK_DRAM, NULL};
        return c;
    }
    return ceiling_case();
}

static gk_status setup2d(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->form = 2;
    s->rows = shape->v[0], s->cols = shape->v[1], s->count = s->rows * s->cols, s->seed = params->seed;
    if (gk_parse_size(params->value[0], &s->side) != 0 || s->side == 0 || s->side > ((size_t)1 << 20))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "conv2d: --param mask takes a positive integer");
    snprintf(s->describe, sizeof s->describe, "mask %zux%zu", s->side, s->side);
    GK_TRY(alloc_common(s, s->side * s->side, 0));
    s->in_norm2 = gk_conv2d_norm2(s->h_in, s->rows, s->cols, s->cols);
    s->mask_norm1 = gk_conv_norm1(s->h_mask, s->side * s->side);
    return gk_success();
}

const gk_bench_module gk_conv2d_bench_module = {
    "conv2d", "rows x cols", "rows x cols: 8192x8192, 4096x3; the mask by --param mask=3,5,...",
    sizes2d, 1, "gbps", params2d, 1, parse2d, format_dims, cases2d, case2d, setup2d, skip, prepare, run, verify, work,
    describe, teardown, GK_PEAK_FP32, .state_size = sizeof(state),
};

/* ---- conv_depthwise ------------------------------------------------------------ */

static const char *const sizesdw[] = {"8x2048x8192"};
static const gk_bench_param_decl paramsdw[] = {
    {"width", "any positive integer", "4,31", "mask width in taps", gk_accepts_positive_count},
    {"padding", "causal,same", "causal,same", "causal: out[t] sees in[t - w + 1 .. t]; same: centred", NULL},
    {"epilogue", "silu,none", "silu,none", "silu: bias + SiLU fused; none: no bias, no activation", NULL},
};

static size_t casesdw(void) { return gk_conv_depthwise_variant_count() + 1; }

static gk_bench_case casedw(size_t i)
{
    const gk_conv_variant *v = gk_conv_depthwise_variant_at(i);
    if (v != NULL) {
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, "fp32", GK_PEAK_DRAM, NULL};
        return c;
    }
    return ceiling_case();
}

static gk_status setupdw(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->form = 1;
    s->batch = shape->v[0], s->channels = shape->v[1], s->length = shape->v[2];
    s->count = s->batch * s->channels * s->length, s->seed = params->seed;
    if (gk_parse_size(params->value[0], &s->width) != 0 || s->width == 0 || s->width > ((size_t)1 << 20))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "conv_depthwise: --param width takes a positive integer");
    s->causal = strcmp(params->value[1], "causal") == 0;
    s->silu = strcmp(params->value[2], "silu") == 0;
    snprintf(s->describe, sizeof s->describe, "width %zu %s%s", s->width, s->causal ? "causal" : "same",
             s->silu ? " bias+silu" : "");
    return alloc_common(s, s->channels * s->width, s->channels);
}

const gk_bench_module gk_conv_depthwise_bench_module = {
    "conv_depthwise", "batch x channels x length",
    "batch x channels x length: 8x2048x8192; --param width=4,31 padding=causal,same epilogue=silu,none",
    sizesdw, 1, "gbps", paramsdw, 3, parse3d, format_dims, casesdw, casedw, setupdw, skip, prepare, run, verify, work,
    describe, teardown, GK_PEAK_FP32, .state_size = sizeof(state),
};
