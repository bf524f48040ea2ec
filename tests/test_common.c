/* CPU tests of common/: statuses, the CUDA check macro, verification,
 * generators, the median, the device-peak arithmetic. No GPU needed. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/random.h"
#include "gk/dtype.h"
#include "gk/status.h"
#include "gk/timing.h"
#include "gk/verify.h"

static gk_status fails_inside(int *line)
{
    *line = __LINE__ + 1;
    GK_CUDA_TRY(cudaErrorInvalidValue);
    return gk_success();
}

static void test_status(void)
{
    for (int c = 0; c < GK_CODE_COUNT; ++c) {
        const char *s = gk_status_string((gk_code)c);
        CHECK(s != NULL && strncmp(s, "GK_", 3) == 0, "code %d has text '%s'", c, s ? s : "(null)");
        for (int d = 0; d < c; ++d) CHECK(strcmp(s, gk_status_string((gk_code)d)) != 0, "codes %d and %d share text", c, d);
    }
    CHECK(strstr(gk_status_string((gk_code)999), "unknown") != NULL, "out-of-range code");

    int line = 0;
    gk_status s = fails_inside(&line);
    CHECK(s.code == GK_ERROR_CUDA, "code %d", s.code);
    CHECK(s.cuda_error == (int)cudaErrorInvalidValue, "cuda error %d", s.cuda_error);
    CHECK(s.line == line, "line %d, expected %d", s.line, line);
    CHECK(s.file != NULL && strstr(s.file, "test_common.c") != NULL, "file %s", s.file ? s.file : "(null)");
    CHECK(s.what != NULL && strcmp(s.what, "cudaErrorInvalidValue") == 0, "what %s", s.what ? s.what : "(null)");
    char buf[512];
    gk_status_format(s, buf, sizeof buf);
    CHECK(strstr(buf, "GK_ERROR_CUDA") && strstr(buf, "cudaErrorInvalidValue") && strstr(buf, "test_common.c:"),
          "formatted '%s'", buf);

    CHECK(gk_ok(GK_CUDA_STATUS(cudaSuccess)), "cudaSuccess is success");
    CHECK(GK_CUDA_STATUS(cudaErrorNoDevice).code == GK_ERROR_NO_DEVICE, "no device has its own code");
    gk_status f = GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL");
    gk_status_format(f, buf, sizeof buf);
    CHECK(strstr(buf, "in is NULL") && strstr(buf, "GK_ERROR_NULL_POINTER"), "formatted '%s'", buf);
    CHECK(gk_status_format(f, buf, 4) > 4 && strlen(buf) == 3, "truncation keeps the terminator");

    /* Portable places: the build gives paths from the source root, and an
     * absolute path is cut to the file name, so a message names no machine's
     * directories. */
    CHECK(strcmp(s.file, "tests/test_common.c") == 0, "__FILE__ relative to the source root: %s", s.file);
    CHECK(strcmp(gk_status_file(s), "tests/test_common.c") == 0, "kept as it is: %s", gk_status_file(s));
    gk_status abs_unix = gk_status_make(GK_ERROR_CUDA, 0, "x", "/home/someone/build/gpukernels/common/x.c", 7);
    gk_status abs_win = gk_status_make(GK_ERROR_CUDA, 0, "x", "C:\\src\\gpukernels\\common\\y.c", 8);
    CHECK(strcmp(gk_status_file(abs_unix), "x.c") == 0, "absolute unix path cut: %s", gk_status_file(abs_unix));
    CHECK(strcmp(gk_status_file(abs_win), "y.c") == 0, "absolute windows path cut: %s", gk_status_file(abs_win));
    gk_status_format(abs_unix, buf, sizeof buf);
    CHECK(strstr(buf, "(at x.c:7)") != NULL && strstr(buf, "/home") == NULL, "formatted '%s'", buf);
    CHECK(strcmp(gk_status_file(gk_success()), "?") == 0, "success has no place");
}

static void test_dtype(void)
{
    CHECK(gk_dtype_size(GK_F32) == 4 && gk_dtype_size(GK_I32) == 4 && gk_dtype_size(GK_U8) == 1 &&
              gk_dtype_size(GK_U32) == 4 && gk_dtype_size(GK_F64) == 8 && gk_dtype_size(GK_F16) == 2 &&
              gk_dtype_size(GK_BF16) == 2 && gk_dtype_size(GK_I64) == 8 && gk_dtype_size(GK_U16) == 2 &&
              gk_dtype_size((gk_dtype)99) == 0,
          "sizes");
    CHECK(strcmp(gk_dtype_name(GK_U8), "u8") == 0 && strcmp(gk_dtype_name(GK_U32), "u32") == 0 &&
              strcmp(gk_dtype_name(GK_F32), "f32") == 0 && strcmp(gk_dtype_name((gk_dtype)-1), "?") == 0,
          "names");
}

static void test_verify(void)
{
    enum { N = 1000 };
    float got[N];
    double exp[N], tol[N];
    for (int i = 0; i < N; ++i) {
        got[i] = (float)i * 0.5f;
        exp[i] = i * 0.5;
        tol[i] = 1e-6;
    }
    FILE *log = tmpfile();
    CHECK(gk_verify_f32(got, exp, tol, N, "same", log) == 0, "equal arrays pass");
    got[123] += 0.01f; /* a planted error */
    CHECK(gk_verify_f32(got, exp, tol, N, "planted", log) == 1, "the planted error is caught");
    got[123] = NAN;
    tol[123] = INFINITY; /* no tolerance lets a NaN through */
    CHECK(gk_verify_f32(got, exp, tol, N, "nan", log) == 1, "NaN fails");
    got[123] = INFINITY;
    CHECK(gk_verify_f32(got, exp, tol, N, "inf", log) == 1, "Inf fails");
    got[123] = 61.5f;
    tol[123] = 1e-6;
    CHECK(gk_verify_f32(got, exp, tol, N, "restored", log) == 0, "restored passes");
    /* The log names the index, the value got and the value expected. */
    rewind(log);
    char text[4096] = {0};
    size_t len = fread(text, 1, sizeof text - 1, log);
    text[len] = 0;
    CHECK(strstr(text, "planted mismatch at [123]: got 61.5") != NULL && strstr(text, "expected 61.5") != NULL,
          "log: %s", text);
    fclose(log);

    int32_t gi[5] = {1, 2, 3, 4, 5}, ei[5] = {1, 2, 3, 4, 5};
    CHECK(gk_verify_i32(gi, ei, 5, "i", NULL) == 0, "equal ints pass");
    gi[4] = 6;
    gi[0] = -1;
    CHECK(gk_verify_i32(gi, ei, 5, "i", NULL) == 2, "two int mismatches are counted");
}

/* The sum tolerance is neither vacuous nor too tight: a real float sum of
 * random data lands inside it, a sum missing one element lands outside. */
static void test_sum_tolerance(void)
{
    enum { N = 1 << 20 };
    float *x = (float *)malloc(N * sizeof *x);
    gk_fill_f32(x, N, 7, -1.0f, 1.0f);
    double exact = 0.0, sum_abs = 0.0;
    float f = 0.0f; /* the worst order: one long chain of float additions */
    for (int i = 0; i < N; ++i) {
        exact += x[i];
        sum_abs += fabs(x[i]);
        f += x[i];
    }
    double tol = gk_sum_tolerance(N, sum_abs, exact);
    CHECK(fabs(f - exact) <= tol, "sequential float sum error %.3g within tol %.3g", fabs(f - exact), tol);
    CHECK(tol < 0.02 * sum_abs, "tol %.3g is well under sum|x| %.3g", tol, sum_abs);
    double small_exact = 0.0, small_abs = 0.0;
    for (int i = 0; i < 1000; ++i) small_exact += x[i], small_abs += fabs(x[i]);
    double small_tol = gk_sum_tolerance(1000, small_abs, small_exact);
    CHECK(fabs(x[999]) > small_tol || fabs(x[998]) > small_tol,
          "dropping one of 1000 elements is caught (tol %.3g)", small_tol);
    CHECK(gk_sum_tolerance(4000, small_abs, small_exact) > small_tol, "tolerance grows with n");
    free(x);
}

static void test_random(void)
{
    enum { N = 100000 };
    float *a = (float *)malloc(N * sizeof *a), *b = (float *)malloc(N * sizeof *b);
    int32_t *ia = (int32_t *)malloc(N * sizeof *ia);
    gk_fill_f32(a, N, 42, -1.0f, 1.0f);
    gk_fill_f32(b, N, 42, -1.0f, 1.0f);
    CHECK(memcmp(a, b, N * sizeof *a) == 0, "same seed, same data");
    gk_fill_f32(b, N, 43, -1.0f, 1.0f);
    CHECK(memcmp(a, b, N * sizeof *a) != 0, "another seed, other data");
    int zeros = 0, out = 0, neg = 0;
    for (int i = 0; i < N; ++i) {
        zeros += a[i] == 0.0f;
        out += a[i] < -1.0f || a[i] >= 1.0f;
        neg += a[i] < 0.0f;
    }
    CHECK(zeros == 0 && out == 0, "%d zeros, %d out of range", zeros, out);
    CHECK(neg > N / 3 && neg < 2 * N / 3, "both signs (%d negative)", neg);
    gk_fill_i32(ia, N, 1, -3, 3);
    zeros = out = 0;
    for (int i = 0; i < N; ++i) zeros += ia[i] == 0, out += ia[i] < -3 || ia[i] > 3;
    CHECK(zeros == 0 && out == 0, "i32: %d zeros, %d out of range", zeros, out);
    free(a);
    free(b);
    free(ia);
}

static void test_median_and_peaks(void)
{
    double v1[] = {5, 1, 3};
    double v2[] = {4, 1, 3, 2};
    CHECK(gk_median(v1, 3) == 3.0, "odd median");
    CHECK(gk_median(v2, 4) == 2.5, "even median");
    /* H100 SXM: 2619 MHz HBM3 on a 5120-bit bus = 3.35 TB/s. */
    CHECK(fabs(gk_peak_dram_bandwidth(2619000, 5120) - 3.352e12) < 1e9, "H100 bandwidth %.4g",
          gk_peak_dram_bandwidth(2619000, 5120));
    CHECK(gk_fp32_lanes_per_sm(9, 0) == 128 && gk_fp32_lanes_per_sm(8, 0) == 64 && gk_fp32_lanes_per_sm(7, 5) == 64,
          "fp32 lanes");
    CHECK(gk_fp32_lanes_per_sm(3, 0) == 0, "unknown architecture: 0, not a guess");
    /* H100 SXM: 132 SMs at 1.83 GHz x 2048 TF32 FLOP/clock = 494.7 TFLOP/s, the
     * whitepaper's dense TF32 rate; BF16 twice that. */
    CHECK(gk_tensor_flops_per_clock(9, 0, 19) == 2048 && gk_tensor_flops_per_clock(9, 0, 16) == 4096,
          "Hopper tensor rates");
    CHECK(fabs(132 * 1.83e9 * gk_tensor_flops_per_clock(9, 0, 19) / 1e12 - 494.7) < 0.5, "H100 TF32 peak");
    /* FP8 (8-bit inputs): twice BF16 on Hopper (1979 dense TFLOP/s on the
     * H100 SXM); an A100 has no FP8 tensor cores. */
    CHECK(gk_tensor_flops_per_clock(9, 0, 8) == 8192 && fabs(132 * 1.83e9 * 8192 / 1e12 - 1978.9) < 0.1,
          "Hopper FP8 rate");
    CHECK(gk_tensor_flops_per_clock(8, 6, 19) == 0 && gk_tensor_flops_per_clock(10, 0, 16) == 0 &&
              gk_tensor_flops_per_clock(8, 0, 8) == 0,
          "not in the table: 0 (n/a), not a guess");
}

int main(void)
{
    test_status();
    test_dtype();
    test_verify();
    test_sum_tolerance();
    test_random();
    test_median_and_peaks();
    return check_summary("test_common");
}
