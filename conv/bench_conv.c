/* The conv module's entry in gk_bench (bench/bench.h).
 *
 * Sizes: n, the number of outputs (and inputs), any count gk_parse_size
 * reads from 1 to 2^60; by default 2^24 and 2^28. Parameter: width, the
 * mask's taps, any positive integer (an open parameter), swept over
 * 3, 7, 31, 127, 1023 by default: from deep in the memory-bound region to
 * deep in the arithmetic-bound one. Cases: the rows of the variant table;
 * the convolution through cuFFT (the reference every variant is compared
 * with: O(L log L) work against the direct kernels' O(n width), so it wins
 * at large widths); and a device-to-device copy of the same 4n bytes (the
 * ceiling: a convolution reads its input and writes its output at least
 * once, which is what a copy does).
 *
 * One call must read 4n bytes of input and 4 width of mask and write 4n of
 * output, and does 2 n width FLOPs (a multiply and an add per tap). Every
 * case is credited with that same work, cuFFT and the copy included: the
 * copy's "TFLOP/s" is then the rate a convolution would reach at the copy's
 * speed (the memory roof at this width), and cuFFT's is the direct method's
 * FLOPs over cuFFT's time. "% of peak" is of DRAM bandwidth, and the
 * module's second peak puts every case's TFLOP/s against the fp32 peak too.
 *
 * The CPU reference of n = 2^28 outputs at width 1023 would take minutes, so
 * a case is checked on every output near the two ends (where the ghost cells
 * are) and 2^16 others drawn at random, each within the tolerance of
 * conv_ref.h, and every output must be finite (conv_ref.h:
 * gk_conv_check_sampled; cuFFT: gk_conv_check_fft_sampled with its normwise
 * tolerance). The GPU test checks every output.
 *
 * Skipped: variants 1-5 above 2^38 FLOPs per call (2^28 outputs at width
 * 1023), so that the default sweep of every module stays within minutes;
 * --no-skip runs them.
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

static const char *const default_sizes[] = {"2^24", "2^28"};

static const gk_bench_param_decl params_decl[] = {
    {"width", "any positive integer", "3,7,31,127,1023", "mask width in taps (r = width / 2 on each side)",
     gk_accepts_positive_count},
};

#define SLOW_FLOPS 274877906944.0 /* 2^38 */
#define SAMPLES ((size_t)1 << 16)

static int parse_size(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    return gk_bench_parse_count(s, 1, GK_CONV_MAX_N, "not a count of outputs from 1 up (try 1000, 2^24, 2^20+13, 16Mi)",
                                "n is above GK_CONV_MAX_N (2^60)", shape, err, err_size);
}

static size_t num_cases(void) { return gk_conv_variant_count() + 2; }

static gk_bench_case case_at(size_t i)
{
    const gk_conv_variant *v = gk_conv_variant_at(i);
    if (v != NULL) {
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, "fp32", GK_PEAK_DRAM, "cufft"};
        return c;
    }
    if (i == gk_conv_variant_count()) {
        gk_bench_case c = {0, "cufft", "cuFFT", "R2C of the padded input and reversed mask, product, C2R: O(L log L)",
                           GK_ROLE_REFERENCE, "fp32", GK_PEAK_DRAM, NULL};
        return c;
    }
    gk_bench_case c = {0, "copy", "device copy", "cudaMemcpyAsync of the same 4n bytes: the memory limit",
                       GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL};
    return c;
}

typedef struct state {
    size_t n, width;
    float *h_in, *h_mask, *h_out;
    float *d_in, *d_mask, *d_out;
    void *d_ws;
    size_t ws_bytes;
    gk_cufft_conv *fft;
    double in_norm2, mask_norm1;
    uint64_t seed;
    gk_bench_case c;
    char describe[48];
} state;

static void teardown(void *p)
{
    state *s = (state *)p;
    gk_cufft_conv_destroy(s->fft);
    cudaFree(s->d_in);
    cudaFree(s->d_mask);
    cudaFree(s->d_out);
    cudaFree(s->d_ws);
    free(s->h_in);
    free(s->h_mask);
    free(s->h_out);
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->n = shape->v[0];
    if (gk_parse_size(params->value[0], &s->width) != 0 || s->width == 0 || s->width > GK_CONV_MAX_N)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "conv: --param width takes a positive integer");
    s->seed = params->seed;
    snprintf(s->describe, sizeof s->describe, "width %zu", s->width);
    s->h_in = (float *)malloc(s->n * sizeof(float));
    s->h_mask = (float *)malloc(s->width * sizeof(float));
    s->h_out = (float *)malloc(s->n * sizeof(float));
    if (!s->h_in || !s->h_mask || !s->h_out) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    gk_conv_fill(s->h_in, s->n, GK_CONV_DATA_REAL, params->seed);
    gk_conv_fill(s->h_mask, s->width, GK_CONV_DATA_REAL, params->seed ^ 0x6d61736bULL);
    s->in_norm2 = gk_conv_norm2(s->h_in, s->n);
    s->mask_norm1 = gk_conv_norm1(s->h_mask, s->width);
    GK_CUDA_TRY(cudaMalloc((void **)&s->d_in, s->n * sizeof(float)));
    GK_CUDA_TRY(cudaMalloc((void **)&s->d_mask, s->width * sizeof(float)));
    GK_CUDA_TRY(cudaMalloc((void **)&s->d_out, s->n * sizeof(float)));
    GK_CUDA_TRY(cudaMemcpy(s->d_in, s->h_in, s->n * sizeof(float), cudaMemcpyHostToDevice));
    GK_CUDA_TRY(cudaMemcpy(s->d_mask, s->h_mask, s->width * sizeof(float), cudaMemcpyHostToDevice));
    return gk_success();
}

static const char *describe(void *p) { return ((state *)p)->describe; }

static const char *skip(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    if (c->role == GK_ROLE_VARIANT && c->id <= 5 && 2.0 * (double)s->n * (double)s->width > SLOW_FLOPS)
        return "a slow rung above 2^38 FLOPs per call (--no-skip runs it)";
    return NULL;
}

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->c = *c;
    if (c->role == GK_ROLE_VARIANT) {
        size_t need = 0;
        /* GK_ERROR_UNSUPPORTED here (a width above the variant's max_width)
         * shows as n/a, with the status's message. */
        GK_TRY(gk_conv1d(c->id, s->d_in, s->n, s->d_mask, s->width, s->d_out, NULL, &need, 0));
        /* The workspace needs no initialisation: poison it. */
        GK_TRY(gk_bench_poisoned_workspace(&s->d_ws, &s->ws_bytes, need, 0x5a));
    } else if (c->role == GK_ROLE_REFERENCE && s->fft == NULL) {
        GK_TRY(gk_cufft_conv_create(&s->fft, s->n, s->width)); /* plans and buffers, once, untimed */
    }
    /* Poison the output with NaN (all bits set): every element must be
     * written, and an unwritten one fails the finiteness check. */
    GK_CUDA_TRY(cudaMemset(s->d_out, 0xff, s->n * sizeof(float)));
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) {
        GK_CUDA_TRY(gk_ceiling_copy(s->d_out, s->d_in, s->n * sizeof(float), stream));
        return gk_success();
    }
    if (s->c.role == GK_ROLE_REFERENCE) return gk_cufft_conv_run(s->fft, s->d_in, s->d_mask, s->d_out, stream);
    size_t bytes = s->ws_bytes;
    return gk_conv1d(s->c.id, s->d_in, s->n, s->d_mask, s->width, s->d_out, s->d_ws, &bytes, stream);
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) return gk_success(); /* it computes nothing to check */
    GK_CUDA_TRY(cudaMemcpy(s->h_out, s->d_out, s->n * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad;
    if (s->c.role == GK_ROLE_REFERENCE) {
        double tol = gk_conv_fft_tolerance(gk_cufft_conv_length(s->fft), s->in_norm2, s->mask_norm1);
        bad = gk_conv_check_fft_sampled(s->h_out, s->h_in, s->n, s->h_mask, s->width, tol, SAMPLES, s->seed, s->c.name,
                                        log);
    } else {
        bad = gk_conv_check_sampled(s->h_out, s->h_in, s->n, s->h_mask, s->width, SAMPLES, s->seed, s->c.name, log);
    }
    if (bad != 0) return GK_FAIL(GK_ERROR_VERIFY_FAILED, "the output differs from the CPU's float64 convolution");
    return gk_success();
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    gk_bench_work w = {4.0 * (double)s->n + 4.0 * (double)s->width, 4.0 * (double)s->n,
                       2.0 * (double)s->n * (double)s->width};
    return w;
}

const gk_bench_module gk_conv_bench_module = {
    "conv", "n", "n, the outputs (and inputs): 2^24, 2^28, 1000000; the mask by --param width=3,7,...",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "gbps",
    params_decl, sizeof params_decl / sizeof params_decl[0],
    parse_size, gk_bench_format_count, num_cases, case_at, setup, skip, prepare, run, verify, work, describe,
    teardown, GK_PEAK_FP32, .state_size = sizeof(state),
};
