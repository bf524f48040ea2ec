/* GPU tests of gk_conv2d (variants 8-13) and gk_conv1d_depthwise (14-16).
 *
 * 2D: images 1 x 1, 1 x n, n x 1, 16385 x 3 and 3 x 16385, the tiles of the
 * tiled variants one short of, at and one past (15 x 17, 16 x 16, 33 x 129,
 * 32 x 128, 31 x 257, 64 x 255), primes (97 x 101); masks 1 x 1, 3 x 3, 2 x 4
 * (even: the centre), 5 x 5, 7 x 7, 1 x 9, 9 x 1, 16 x 16, 17 x 3, 31 x 31
 * and 64 x 64 (larger than the small images); row strides equal to cols and
 * larger (cols + 1, + 3, + 8), in and out 0-3 floats past a 16-byte
 * boundary in turn. Depthwise: batch and channels of 1 and more, lengths 1,
 * 3 (shorter than the mask), 127, 128, 129, 513 and 4099, widths 1, 2, 4,
 * 7, 31, 32, 33 and 100, both paddings, with and without bias, each
 * activation, channel strides equal to length and larger, offsets as above.
 *
 * Every call: fresh random inputs in [-1, 1) (a new seed every run, printed
 * for --seed), the whole out buffer poisoned first with a NaN pattern,
 * including the padding between rows and 64 guard floats on each side;
 * after the call every output must match the float64 reference within its
 * derived tolerance (conv_ref.h: gamma_(k + 2) sum |products| for 2D; the
 * depthwise bound with the bias and the activation), NaN and Inf failing,
 * and every float of the padding and the guards must still hold the poison.
 * Where the reference is cheap enough, a second run with small integers
 * (exact in fp32 in any order) must match bit for bit (2D always; depthwise
 * without SiLU). A mask above the variant's max_width must return
 * GK_ERROR_UNSUPPORTED and write nothing.
 *
 *   test_conv_forms_gpu [--variant ID] [--small] [--cufft] [--large] [--seed S]
 *
 * --small: the cases whose reference costs at most 2^21 multiply-adds
 * (what scripts/sanitize.sh runs). --cufft: the cuFFT 2D reference
 * (cufft_conv.h: gk_cufft_conv2d, the bench's case cufft2d) instead of the
 * variants, against the float64 reference within its normwise bound
 * (conv_ref.h: gk_conv_fft_tolerance of the Ny x Nx transform), on a 1 x 1
 * image, 1 x n and n x 1, 3 x 16385 with a 3 x 3 mask, 37 x 53 with 7 x 5,
 * masks larger than the image, an even mask, prime sides with 31 x 31, row
 * strides above cols for in and out, the same poisoned out buffer and
 * offsets as the variants, the padding and guards left alone, and the
 * output shifted by one place as the control that the check can fail; and
 * its argument checks. --large: a 2D image of 46341 x 46341 =
 * 2^31 + 88009 elements with a 3 x 3 mask, every 2D variant, every output
 * checked exactly with integer data; skipped when the GPU or the host lacks
 * the memory (2 x 8.6 GB each). Exit 77 without a GPU.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "conv_ref.h"
#include "cufft_conv.h"
#include "gk/conv.h"
#include "gk/random.h"
#include "gpu_test.h"
#include "test_util.h"

enum { GUARD = 64 };
static const uint32_t POISON = 0x7fc0deadu; /* a NaN with a payload no kernel writes */
#define BUDGET ((double)((size_t)1 << 27))
#define SMALL_BUDGET ((double)((size_t)1 << 21))

typedef struct dev {
    float *in, *mask, *bias, *out;
    void *ws;
    size_t cap_in, cap_mask, cap_bias, cap_out, cap_ws;
} dev;

static uint64_t seed_of(uint64_t seed, uint64_t a, uint64_t b)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

/* Copies h (count floats) to the device at `off` floats past d's 16-byte aligned start. */
static float *upload(void **d, size_t *cap, const float *h, size_t count, size_t off)
{
    gk_test_ensure_device(d, cap, (count + 4) * sizeof(float));
    float *p = (float *)*d + off;
    if (count) TRY_CUDA(cudaMemcpy(p, h, count * sizeof(float), cudaMemcpyHostToDevice));
    return p;
}

/* The out buffer: `total` floats of output span plus the guards, all poison. */
static float *poison_out(dev *d, size_t total, size_t off, float *h)
{
    size_t all = total + 2 * GUARD + 4;
    for (size_t i = 0; i < all; ++i) memcpy(&h[i], &POISON, 4);
    float *p = upload((void **)&d->out, &d->cap_out, h, all, 0);
    return p + GUARD + off;
}

/* 1 when every float of h (all floats of the buffer) that is not an output
 * (row r < nrows, column c < ncols at r * stride + c from `lo`) still holds
 * the poison. */
static int untouched(const float *h, size_t all, size_t lo, size_t nrows, size_t ncols, size_t stride,
                     const char *label)
{
    for (size_t i = 0; i < all; ++i) {
        int inside = 0;
        if (i >= lo) {
            size_t k = i - lo;
            inside = k / stride < nrows && k % stride < ncols;
        }
        uint32_t bits;
        memcpy(&bits, &h[i], 4);
        if (!inside && bits != POISON) {
            printf("  %s: wrote outside the outputs at float %lld of out\n", label, (long long)i - (long long)lo);
            return 0;
        }
    }
    return 1;
}

/* ---- 2D ------------------------------------------------------------------- */

static int run2d(dev *d, const gk_conv_variant *v, size_t rows, size_t cols, size_t sin, size_t sout, size_t mr,
                 size_t mc, size_t off, gk_conv_data kind, uint64_t seed)
{
    char label[160];
    snprintf(label, sizeof label, "variant %d, %zu x %zu (strides %zu, %zu), mask %zu x %zu, offset %zu, %s", v->id,
             rows, cols, sin, sout, mr, mc, off, kind == GK_CONV_DATA_INTEGER ? "integers" : "reals");
    size_t in_total = rows ? (rows - 1) * sin + cols : 0, out_total = rows ? (rows - 1) * sout + cols : 0;
    float *hin = gk_test_xmalloc((in_total + 1) * sizeof(float)), *hmask = gk_test_xmalloc(mr * mc * sizeof(float));
    float *hout = gk_test_xmalloc((out_total + 2 * GUARD + 4) * sizeof(float));
    gk_conv_fill(hin, in_total, kind, seed);
    gk_conv_fill(hmask, mr * mc, kind, seed ^ 0x6d61736bULL);
    const float *din = upload((void **)&d->in, &d->cap_in, hin, in_total, off);
    const float *dmask = upload((void **)&d->mask, &d->cap_mask, hmask, mr * mc, (off + 1) % 4);
    float *dout = poison_out(d, out_total, (off + 2) % 4, hout);
    size_t need = 0, bytes;
    gk_status s = gk_conv2d(v->id, din, rows, cols, sin, dmask, mr, mc, dout, sout, NULL, &need, 0);
    int ok = gk_test_ok(s, label, "query");
    if (ok) {
        gk_test_ensure_device(&d->ws, &d->cap_ws, need);
        TRY_CUDA(cudaMemset(d->ws, 0x5a, need));
        bytes = need;
        s = gk_conv2d(v->id, din, rows, cols, sin, dmask, mr, mc, dout, sout, d->ws, &bytes, 0);
        if (v->max_width != 0 && (mr > v->max_width || mc > v->max_width)) {
            CHECK(s.code == GK_ERROR_UNSUPPORTED, "%s: a mask above max_width is unsupported", label);
        } else {
            ok = gk_test_ok(s, label, "gk_conv2d");
            TRY_CUDA(cudaDeviceSynchronize());
        }
        size_t all = out_total + 2 * GUARD + 4, lo = GUARD + (off + 2) % 4;
        TRY_CUDA(cudaMemcpy(hout, d->out, all * sizeof(float), cudaMemcpyDeviceToHost));
        if (ok && s.code == GK_SUCCESS) {
            size_t bad = gk_conv2d_check(hout + lo, sout, hin, rows, cols, sin, hmask, mr, mc,
                                         kind == GK_CONV_DATA_INTEGER, label, stdout);
            ok = bad == 0;
        }
        ok &= untouched(hout, all, lo, s.code == GK_SUCCESS ? rows : 0, cols, sout, label);
        CHECK(ok, "%s", label);
    }
    free(hin), free(hmask), free(hout);
    return ok;
}

static void test2d(dev *d, const gk_conv_variant *v, int small, uint64_t seed)
{
    static const size_t images[][2] = {{1, 1}, {1, 1000}, {1000, 1}, {16385, 3}, {3, 16385}, {15, 17}, {16, 16},
                                       {33, 129}, {32, 128}, {31, 257}, {64, 255}, {97, 101}, {300, 517}};
    static const size_t masks[][2] = {{1, 1}, {3, 3}, {2, 4}, {5, 5}, {7, 7}, {1, 9}, {9, 1}, {16, 16}, {17, 3},
                                      {31, 31}, {64, 64}, {65, 2}};
    static const size_t pads[] = {0, 1, 3, 8};
    const double budget = small ? SMALL_BUDGET : BUDGET;
    size_t k = 0;
    for (size_t a = 0; a < sizeof images / sizeof images[0]; ++a)
        for (size_t b = 0; b < sizeof masks / sizeof masks[0]; ++b, ++k) {
            size_t rows = images[a][0], cols = images[a][1], mr = masks[b][0], mc = masks[b][1];
            double cost = (double)rows * cols * mr * mc;
            if (cost > budget) continue;
            size_t sin = cols + pads[k % 4], sout = cols + pads[(k + 1) % 4], off = k % 4;
            run2d(d, v, rows, cols, sin, sout, mr, mc, off, GK_CONV_DATA_REAL, seed_of(seed, k, 1));
            if (64.0 * mr * mc <= 16777216.0 && cost <= budget / 4)
                run2d(d, v, rows, cols, sin, sout, mr, mc, (off + 1) % 4, GK_CONV_DATA_INTEGER, seed_of(seed, k, 2));
        }
    /* Empty images succeed without touching anything. */
    size_t bytes = 0;
    CHECK(gk_ok(gk_conv2d(v->id, NULL, 0, 5, 5, NULL, 3, 3, NULL, 5, NULL, &bytes, 0)), "empty query");
}

/* ---- Depthwise ------------------------------------------------------------ */

static int rundw(dev *d, const gk_conv_variant *v, size_t batch, size_t channels, size_t length, size_t sin,
                 size_t sout, size_t width, int causal, int with_bias, gk_conv_activation act, size_t off,
                 gk_conv_data kind, uint64_t seed)
{
    char label[200];
    snprintf(label, sizeof label, "variant %d, %zu x %zu x %zu (strides %zu, %zu), width %zu, %s, %s, %s, offset %zu, %s",
             v->id, batch, channels, length, sin, sout, width, causal ? "causal" : "same", with_bias ? "bias" : "no bias",
             gk_conv_activation_name(act), off, kind == GK_CONV_DATA_INTEGER ? "integers" : "reals");
    size_t rows = batch * channels;
    size_t in_total = rows ? (rows - 1) * sin + length : 0, out_total = rows ? (rows - 1) * sout + length : 0;
    float *hin = gk_test_xmalloc((in_total + 1) * sizeof(float));
    float *hmask = gk_test_xmalloc(channels * width * sizeof(float)), *hbias = gk_test_xmalloc(channels * sizeof(float));
    float *hout = gk_test_xmalloc((out_total + 2 * GUARD + 4) * sizeof(float));
    gk_conv_fill(hin, in_total, kind, seed);
    gk_conv_fill(hmask, channels * width, kind, seed ^ 0x6d61736bULL);
    gk_conv_fill(hbias, channels, kind, seed ^ 0x62696173ULL);
    const float *din = upload((void **)&d->in, &d->cap_in, hin, in_total, off);
    const float *dmask = upload((void **)&d->mask, &d->cap_mask, hmask, channels * width, (off + 1) % 4);
    const float *dbias = with_bias ? upload((void **)&d->bias, &d->cap_bias, hbias, channels, (off + 3) % 4) : NULL;
    float *dout = poison_out(d, out_total, (off + 2) % 4, hout);
    gk_conv_padding pad = causal ? GK_CONV_PAD_CAUSAL : GK_CONV_PAD_SAME;
    size_t need = 0, bytes;
    gk_status s = gk_conv1d_depthwise(v->id, din, batch, channels, length, sin, dmask, width, dbias, pad, act, dout,
                                      sout, NULL, &need, 0);
    int ok = gk_test_ok(s, label, "query");
    if (ok) {
        gk_test_ensure_device(&d->ws, &d->cap_ws, need);
        TRY_CUDA(cudaMemset(d->ws, 0x5a, need));
        bytes = need;
        s = gk_conv1d_depthwise(v->id, din, batch, channels, length, sin, dmask, width, dbias, pad, act, dout, sout,
                                d->ws, &bytes, 0);
        if (v->max_width != 0 && width > v->max_width) {
            CHECK(s.code == GK_ERROR_UNSUPPORTED, "%s: a width above max_width is unsupported", label);
        } else {
            ok = gk_test_ok(s, label, "gk_conv1d_depthwise");
            TRY_CUDA(cudaDeviceSynchronize());
        }
        size_t all = out_total + 2 * GUARD + 4, lo = GUARD + (off + 2) % 4;
        TRY_CUDA(cudaMemcpy(hout, d->out, all * sizeof(float), cudaMemcpyDeviceToHost));
        if (ok && s.code == GK_SUCCESS) {
            int exact = kind == GK_CONV_DATA_INTEGER && act != GK_CONV_ACT_SILU;
            ok = gk_conv_dw_check(hout + lo, sout, hin, rows, channels, length, sin, hmask, width,
                                  with_bias ? hbias : NULL, causal, act, exact, label, stdout) == 0;
        }
        ok &= untouched(hout, all, lo, s.code == GK_SUCCESS ? rows : 0, length, sout, label);
        CHECK(ok, "%s", label);
    }
    free(hin), free(hmask), free(hbias), free(hout);
    return ok;
}

static void testdw(dev *d, const gk_conv_variant *v, int small, uint64_t seed)
{
    static const size_t shapes[][2] = {{1, 1}, {1, 3}, {2, 1}, {3, 5}, {8, 16}};
    static const size_t lengths[] = {1, 3, 127, 128, 129, 513, 4099};
    static const size_t widths[] = {1, 2, 4, 7, 31, 32, 33, 100};
    static const size_t pads[] = {0, 1, 3, 8};
    const double budget = small ? SMALL_BUDGET : BUDGET;
    size_t k = 0;
    for (size_t a = 0; a < sizeof shapes / sizeof shapes[0]; ++a)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; ++l)
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w, ++k) {
                size_t b = shapes[a][0], c = shapes[a][1], len = lengths[l], wd = widths[w];
                double cost = (double)b * c * len * wd;
                if (cost > budget) continue;
                /* Rotate through paddings, bias and activations so that every
                 * combination appears across the widths and lengths. */
                int causal = (int)(k % 2), with_bias = (int)((k / 2) % 2);
                gk_conv_activation act = (gk_conv_activation)((k / 4) % 3);
                size_t sin = len + pads[k % 4], sout = len + pads[(k / 3) % 4], off = (k / 5) % 4;
                rundw(d, v, b, c, len, sin, sout, wd, causal, with_bias, act, off, GK_CONV_DATA_REAL,
                      seed_of(seed, k, 3));
                if (act != GK_CONV_ACT_SILU)
                    rundw(d, v, b, c, len, sin, sout, wd, !causal, !with_bias, act, (off + 1) % 4,
                          GK_CONV_DATA_INTEGER, seed_of(seed, k, 4));
            }
    /* Every width from 1 to 40 the variant takes (variant 16 compiles one
     * kernel per width), on rows of two items of 512 outputs and a part,
     * both paddings, with and without a bias, each activation. */
    for (size_t wd = 1; wd <= 40; ++wd, ++k) {
        if (v->max_width && wd > v->max_width) break;
        size_t len = 1100, sin = len + pads[wd % 4], sout = len + pads[(wd / 2) % 4];
        rundw(d, v, 2, 3, len, sin, sout, wd, (int)(wd % 2), (int)((wd / 2) % 2), (gk_conv_activation)(wd % 3),
              wd % 4, GK_CONV_DATA_REAL, seed_of(seed, k, 5));
    }
}

/* ---- cuFFT 2D ------------------------------------------------------------- */

static void cufft2d_case(dev *d, size_t rows, size_t cols, size_t sin, size_t sout, size_t mr, size_t mc, size_t off,
                         uint64_t seed)
{
    char label[160];
    snprintf(label, sizeof label, "cuFFT 2D, %zu x %zu (strides %zu, %zu), mask %zu x %zu, offset %zu", rows, cols, sin,
             sout, mr, mc, off);
    size_t in_total = (rows - 1) * sin + cols, out_total = (rows - 1) * sout + cols;
    float *hin = gk_test_xmalloc(in_total * sizeof(float)), *hmask = gk_test_xmalloc(mr * mc * sizeof(float));
    float *hout = gk_test_xmalloc((out_total + 2 * GUARD + 4) * sizeof(float));
    /* The padding between in's rows is random too: read, it would show. */
    gk_conv_fill(hin, in_total, GK_CONV_DATA_REAL, seed);
    gk_conv_fill(hmask, mr * mc, GK_CONV_DATA_REAL, seed ^ 0x6d61736bULL);
    const float *din = upload((void **)&d->in, &d->cap_in, hin, in_total, off);
    const float *dmask = upload((void **)&d->mask, &d->cap_mask, hmask, mr * mc, (off + 1) % 4);
    float *dout = poison_out(d, out_total, (off + 2) % 4, hout);
    gk_cufft_conv2d *plan = NULL;
    gk_status s = gk_cufft_conv2d_create(&plan, rows, cols, mr, mc);
    if (gk_ok(s)) s = gk_cufft_conv2d_run(plan, din, sin, dmask, dout, sout, 0);
    if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(s, label);
    size_t ny, nx, all = out_total + 2 * GUARD + 4, lo = GUARD + (off + 2) % 4;
    gk_cufft_conv2d_size(plan, &ny, &nx);
    TRY_CUDA(cudaMemcpy(hout, d->out, all * sizeof(float), cudaMemcpyDeviceToHost));
    double tol = gk_conv_fft_tolerance(ny * nx, gk_conv2d_norm2(hin, rows, cols, sin), gk_conv_norm1(hmask, mr * mc));
    int ok = gk_conv2d_check_fft(hout + lo, sout, hin, rows, cols, sin, hmask, mr, mc, tol, label, stdout) == 0;
    ok &= untouched(hout, all, lo, rows, cols, sout, label);
    CHECK(ok, "%s: within its normwise bound, nothing written outside the outputs", label);
    /* The control: the outputs, packed and rotated by one place, must fail
     * (from 31 outputs on, where the rotation's error norm, about sqrt(2)
     * ||ref||_2, is far above tol). */
    double refnorm = 0.0;
    float *packed = gk_test_xmalloc(rows * cols * sizeof(float));
    for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < cols; ++x) {
            double r = gk_conv2d_ref_at(hin, rows, cols, sin, hmask, mr, mc, y, x, NULL);
            refnorm += r * r;
            packed[(y * cols + x + 1) % (rows * cols)] = hout[lo + y * sout + x];
        }
    if (rows * cols >= 31)
        CHECK(gk_conv2d_check_fft(packed, cols, hin, rows, cols, sin, hmask, mr, mc, tol, label, NULL) != 0,
              "%s: a result shifted by one place fails", label);
    printf("%s: transform %zu x %zu, tol %.3g = %.2g of ||ref||_2\n", label, ny, nx, tol,
           refnorm > 0 ? tol / sqrt(refnorm) : 0.0);
    gk_cufft_conv2d_destroy(plan);
    free(hin), free(hmask), free(hout), free(packed);
}

static void test_cufft2d(dev *d, uint64_t seed)
{
    /* rows, cols, extra floats per row of in and of out, mask rows, mask cols */
    static const size_t cases[][6] = {
        {1, 1, 0, 0, 1, 1},      {1, 1, 3, 1, 3, 3},     /* 1 x 1, alone and under a larger mask */
        {3, 16385, 0, 0, 3, 3},  {37, 53, 3, 1, 7, 5},   /* 3 long rows; odd sides, both strides > cols */
        {5, 4, 8, 3, 9, 11},     {16, 16, 1, 0, 2, 4},   /* a mask larger than the image; an even mask */
        {1000, 1, 0, 8, 9, 1},   {1, 1000, 1, 0, 1, 9},  /* a column, a row */
        {97, 101, 8, 8, 31, 31}, {300, 517, 3, 0, 16, 16}, /* prime sides under 31 x 31; a 16 x 16 mask */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        const size_t *c = cases[k];
        cufft2d_case(d, c[0], c[1], c[1] + c[2], c[1] + c[3], c[4], c[5], k % 4, seed_of(seed, k, 5));
    }
    /* Arguments: sizes of 0, NULL pointers, strides below cols. */
    gk_cufft_conv2d *plan = NULL;
    CHECK(gk_cufft_conv2d_create(&plan, 0, 5, 3, 3).code == GK_ERROR_INVALID_ARGUMENT && plan == NULL,
          "cuFFT 2D: rows 0 rejected");
    CHECK(gk_cufft_conv2d_create(&plan, 5, 5, 3, 0).code == GK_ERROR_INVALID_ARGUMENT && plan == NULL,
          "cuFFT 2D: a mask side of 0 rejected");
    gk_test_require(gk_cufft_conv2d_create(&plan, 4, 6, 3, 3), "cuFFT 2D plan");
    float *p = d->in;
    CHECK(gk_cufft_conv2d_run(plan, p, 5, p, p + 64, 6, 0).code == GK_ERROR_INVALID_ARGUMENT,
          "cuFFT 2D: in_stride < cols rejected");
    CHECK(gk_cufft_conv2d_run(plan, p, 6, p, p + 64, 5, 0).code == GK_ERROR_INVALID_ARGUMENT,
          "cuFFT 2D: out_stride < cols rejected");
    CHECK(gk_cufft_conv2d_run(plan, NULL, 6, p, p + 64, 6, 0).code == GK_ERROR_NULL_POINTER &&
              gk_cufft_conv2d_run(NULL, p, 6, p, p + 64, 6, 0).code == GK_ERROR_NULL_POINTER,
          "cuFFT 2D: NULL rejected");
    gk_cufft_conv2d_destroy(plan);
    gk_cufft_conv2d_destroy(NULL);
}

/* ---- Large ---------------------------------------------------------------- */

static void test_large(const gk_conv_variant *only, uint64_t seed)
{
    /* 2D: 46341 x 46341 > 2^31 elements, 3 x 3, integers: exact. */
    const size_t n = 46341, total = n * n;
    float *din = NULL, *dout = NULL, *dmask = NULL;
    float *h = (float *)malloc(total * sizeof(float)), *hout = (float *)malloc(total * sizeof(float));
    if (!h || !hout || cudaMalloc((void **)&din, total * 4) != cudaSuccess ||
        cudaMalloc((void **)&dout, total * 4) != cudaSuccess || cudaMalloc((void **)&dmask, 64) != cudaSuccess) {
        printf("SKIPPED the large 2D image: not enough GPU or host memory for 2 x %zu floats\n", total);
    } else {
        float m[9];
        gk_conv_fill(h, total, GK_CONV_DATA_INTEGER, seed);
        gk_conv_fill(m, 9, GK_CONV_DATA_INTEGER, seed + 1);
        TRY_CUDA(cudaMemcpy(din, h, total * 4, cudaMemcpyHostToDevice));
        TRY_CUDA(cudaMemcpy(dmask, m, 36, cudaMemcpyHostToDevice));
        for (size_t i = 0; i < gk_conv2d_variant_count(); ++i) {
            const gk_conv_variant *v = gk_conv2d_variant_at(i);
            if (only && only != v) continue;
            TRY_CUDA(cudaMemset(dout, 0xff, total * 4));
            size_t need = 0;
            void *ws = NULL;
            gk_test_require(gk_conv2d(v->id, din, n, n, n, dmask, 3, 3, dout, n, NULL, &need, 0), "query");
            TRY_CUDA(cudaMalloc(&ws, need));
            char label[64];
            snprintf(label, sizeof label, "large 2D, variant %d", v->id);
            int ok = gk_test_ok(gk_conv2d(v->id, din, n, n, n, dmask, 3, 3, dout, n, ws, &need, 0), label, "call");
            TRY_CUDA(cudaDeviceSynchronize());
            TRY_CUDA(cudaMemcpy(hout, dout, total * 4, cudaMemcpyDeviceToHost));
            if (ok) ok = gk_conv2d_check(hout, n, h, n, n, n, m, 3, 3, 1, label, stdout) == 0;
            CHECK(ok, "%s", label);
            cudaFree(ws);
        }
    }
    cudaFree(din), cudaFree(dout), cudaFree(dmask), free(h), free(hout);
}

int main(int argc, char **argv)
{
    int variant = 0, small = 0, large = 0, cufft = 0;
    uint64_t seed = gk_test_new_seed();
    gk_test_option opts[] = {{"--small", &small, NULL}, {"--large", &large, NULL}, {"--cufft", &cufft, NULL}};
    if (gk_test_args(argc, argv, opts, 3,
                     "test_conv_forms_gpu [--variant ID] [--small] [--cufft] [--large] [--seed S]", &variant, &seed))
        return 2;
    const gk_conv_variant *v2 = variant ? gk_conv2d_find_variant(variant) : NULL;
    const gk_conv_variant *vd = variant ? gk_conv_depthwise_find_variant(variant) : NULL;
    gk_device_info info;
    int rc = gk_test_start(gk_test_open_gpu(&info, seed), variant, v2 != NULL || vd != NULL);
    if (rc) return rc;
    dev d = {0};
    if (cufft) {
        test_cufft2d(&d, seed);
        cudaFree(d.in), cudaFree(d.mask), cudaFree(d.out);
        return check_summary("test_conv_forms_gpu --cufft");
    }
    if (large) {
        if (!vd) test_large(v2, seed);
        return check_summary("test_conv_forms_gpu --large");
    }
    for (size_t i = 0; i < gk_conv2d_variant_count(); ++i) {
        const gk_conv_variant *v = gk_conv2d_variant_at(i);
        if (variant == 0 || v == v2) test2d(&d, v, small, seed);
    }
    for (size_t i = 0; i < gk_conv_depthwise_variant_count(); ++i) {
        const gk_conv_variant *v = gk_conv_depthwise_variant_at(i);
        if (variant == 0 || v == vd) testdw(&d, v, small, seed);
    }
    cudaFree(d.in), cudaFree(d.mask), cudaFree(d.bias), cudaFree(d.out), cudaFree(d.ws);
    return check_summary("test_conv_forms_gpu");
}
