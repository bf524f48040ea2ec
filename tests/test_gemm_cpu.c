/* CPU tests of the gemm module: the float64 reference and the tolerance
 * against known answers, the variant tables (fp32 and BF16) against
 * themselves and against gemm/kernels/, the bf16 conversions, and argument
 * checking of gk_gemm and gk_gemm_bf16 (every rejected call launches nothing
 * and writes nothing, so none of this needs a GPU). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gemm_ref.h"
#include "gk/gemm.h"
#include "gk/verify.h"
#include "test_util.h"
#include "variants.h"

/* The name of variant `id` of each table, NULL when there is none
 * (gk_test_kernel_files). */
static const char *row_name(int id)
{
    const gk_gemm_variant *v = gk_gemm_find_variant(id);
    return v ? v->name : NULL;
}

static const char *bf16_row_name(int id)
{
    const gk_gemm_variant *v = gk_gemm_bf16_find_variant(id);
    return v ? v->name : NULL;
}

static void test_reference(void)
{
    /* A = [1 2 3; 4 5 6] (2x3, lda 4), B = [1 0; 0 -1; 2 1] (3x2, ldb 3),
     * C = [1 1; 1 1] (ldc 2): A*B = [7 1; 16 1]. */
    const float a[] = {1, 2, 3, 99, 4, 5, 6, 99};
    const float b[] = {1, 0, 99, 0, -1, 99, 2, 1, 99};
    const float c[] = {1, 1, 1, 1};
    double ref[4], mag[4], rms[4];
    gk_gemm_ref(2, 2, 3, 2.0, a, 4, b, 3, -1.0, c, 2, ref, mag, rms);
    CHECK(ref[0] == 13 && ref[1] == 1 && ref[2] == 31 && ref[3] == 1, "2AB - C: %g %g %g %g", ref[0], ref[1], ref[2],
          ref[3]);
    /* mag = 2 * sum |a b| + |c|: (1+0+6)*2+1, (0+2+3)*2+1, (4+0+12)*2+1, (0+5+6)*2+1. */
    CHECK(mag[0] == 15 && mag[1] == 11 && mag[2] == 33 && mag[3] == 23, "magnitudes %g %g %g %g", mag[0], mag[1],
          mag[2], mag[3]);
    /* rms = 2 sqrt(sum (a b)^2): (1 + 0 + 36), (0 + 4 + 9), (16 + 0 + 144), (0 + 25 + 36). */
    CHECK(fabs(rms[0] - 2 * sqrt(37.0)) < 1e-12 && fabs(rms[1] - 2 * sqrt(13.0)) < 1e-12 &&
              fabs(rms[2] - 2 * sqrt(160.0)) < 1e-12 && fabs(rms[3] - 2 * sqrt(61.0)) < 1e-12,
          "rms %g %g %g %g", rms[0], rms[1], rms[2], rms[3]);
    const float nan_c[] = {NAN, NAN, NAN, NAN};
    gk_gemm_ref(2, 2, 3, 1.0, a, 4, b, 3, 0.0, nan_c, 2, ref, mag, rms);
    CHECK(ref[0] == 7 && ref[3] == 1 && !isnan(mag[0]), "beta = 0 does not read C");
    gk_gemm_ref(2, 2, 0, 1.0, a, 4, b, 3, 3.0, c, 2, ref, mag, rms);
    CHECK(ref[0] == 3 && ref[3] == 3, "k = 0 scales C by beta");

    /* The addition part grows with sqrt(k + 2) and the magnitude; the
     * product part with rms; TF32's products are far looser than fp32's. */
    double t1 = gk_gemm_tolerance(GK_GEMM_FP32, 100, 1.0, 0.0, 0.0, 0);
    double t4 = gk_gemm_tolerance(GK_GEMM_FP32, 406, 1.0, 0.0, 0.0, 0); /* (406 + 2) = 4 (100 + 2) */
    CHECK(fabs(t4 / t1 - 2.0) < 0.01, "sqrt(k + 2) growth: %g", t4 / t1);
    CHECK(fabs(gk_gemm_tolerance(GK_GEMM_FP32, 100, 3.0, 0.0, 0.0, 0) / t1 - 3.0) < 1e-9, "linear in the magnitude");
    CHECK(gk_gemm_tolerance(GK_GEMM_TF32, 100, 1.0, 1.0, 0.0, 0) - gk_gemm_tolerance(GK_GEMM_FP32, 100, 1.0, 1.0, 0.0, 0) >
              1000 * GK_F32_UNIT_ROUNDOFF * 10,
          "TF32's products are much looser");
    CHECK(gk_gemm_tolerance(GK_GEMM_FP32, 100, 1.0, 0.0, 0.0, 1) == 2 * t1, "both: doubled");
    /* k = 4096, a and b uniform on [-1, 1]: sum |a b| is about 4096/4 =
     * 1024, sum (a b)^2 about 4096/9, so rms about 21.3, and |C| is about
     * rms too. fp32 against cuBLAS: 2 * 10 * (2^-24 * 21.3 + 2^-24 * 64 *
     * 1024) = 0.078, below the average |a b| of one product (1/4): a lost or
     * doubled product is caught (most of them). TF32: 2 * 10 * (2^-10 * 21.3
     * + ...) = 0.49, far below |C|: a wrong or zero result fails. */
    double t_big = gk_gemm_tolerance(GK_GEMM_FP32, 4096, 1024.0, 21.3, 20.0, 1);
    CHECK(t_big > 0.07 && t_big < 0.085, "fp32, k = 4096: %g", t_big);
    double t_tf = gk_gemm_tolerance(GK_GEMM_TF32, 4096, 1024.0, 21.3, 20.0, 1);
    CHECK(t_tf > 0.4 && t_tf < 0.6, "TF32, k = 4096: %g, far below |C| ~ 21", t_tf);

    /* The check: NaN fails, the tolerance passes, beyond it fails. */
    double r2[2] = {1.0, 2.0}, m2[2] = {4.0, 4.0}, q2[2] = {2.0, 2.0};
    double tol = gk_gemm_tolerance(GK_GEMM_FP32, 8, 4.0, 2.0, 2.0, 0);
    float good[2] = {1.0f, (float)(2.0 + 0.5 * tol)}, far[2] = {1.0f, (float)(2.0 + 4 * tol)}, bad[2] = {NAN, 2.0f};
    CHECK(gk_gemm_check(good, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP32, 0, "good", NULL) == 0, "inside");
    CHECK(gk_gemm_check(far, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP32, 0, "far", NULL) == 1, "outside");
    CHECK(gk_gemm_check(bad, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP32, 0, "nan", NULL) == 1, "NaN never passes");
}

static void test_table(void)
{
    size_t count = gk_gemm_variant_count();
    CHECK(count >= 1, "the ladder has %zu variants", count);
    CHECK(gk_gemm_variant_at(count) == NULL && gk_gemm_find_variant(0) == NULL &&
              gk_gemm_find_variant((int)count + 1) == NULL,
          "out of range");
    CHECK(gk_gemm_best_variant() == (int)count, "the best is the last rung: %d", gk_gemm_best_variant());
    CHECK(gk_gemm_find_variant(gk_gemm_best_variant())->precision == GK_GEMM_TF32, "the best is a TF32 variant");
    const gk_gemm_variant *bf = gk_gemm_find_variant(gk_gemm_best_fp32_variant());
    CHECK(bf != NULL && bf->precision == GK_GEMM_FP32, "the best fp32 variant is fp32");
    for (size_t i = 0; bf && i < count; ++i)
        CHECK(gk_gemm_variant_at(i)->precision != GK_GEMM_FP32 || gk_gemm_variant_at(i)->id <= bf->id,
              "no fp32 variant after the best fp32 one");
    for (size_t i = 0; i < count; ++i) {
        const gk_gemm_variant *v = gk_gemm_variant_at(i);
        CHECK(v->id == (int)i + 1, "row %zu has id %d", i, v->id);
        CHECK(gk_gemm_find_variant(v->id) == v, "find %d", v->id);
        const gk_gemm_row *row = gk_gemm_row_find(v->id);
        CHECK(row && &row->info == v && row->run, "row %d has its function", v->id);
        CHECK(v->name && v->name[0] && v->idea && v->idea[0], "row %d has a name and an idea", v->id);
        CHECK(v->precision == GK_GEMM_FP32 || v->precision == GK_GEMM_TF32, "variant %d precision", v->id);
        CHECK(v->min_cc == 75 || v->min_cc == 80 || v->min_cc == 90, "variant %d min_cc %d", v->id, v->min_cc);
        for (size_t j = 0; j < i; ++j) CHECK(strcmp(v->name, gk_gemm_variant_at(j)->name) != 0, "names unique");
    }
    CHECK(strcmp(gk_gemm_precision_name(GK_GEMM_TF32), "tf32") == 0, "precision names");

    /* Every kernel file is a row: NN_name.cu of gk_gemm's table, or
     * bf16_NN_name.cu of gk_gemm_bf16's. */
    gk_test_table t[2] = {{"", row_name, count}, {"bf16_", bf16_row_name, gk_gemm_bf16_variant_count()}};
    gk_test_kernel_files(GK_GEMM_KERNEL_DIR, t, 2);
}

static void test_bf16_table(void)
{
    size_t count = gk_gemm_bf16_variant_count();
    CHECK(count == 5, "the BF16 ladder has %zu variants", count);
    CHECK(gk_gemm_bf16_variant_at(count) == NULL && gk_gemm_bf16_find_variant(0) == NULL &&
              gk_gemm_bf16_find_variant((int)count + 1) == NULL,
          "out of range");
    CHECK(gk_gemm_bf16_best_variant() == (int)count, "the best is the last rung: %d", gk_gemm_bf16_best_variant());
    for (size_t i = 0; i < count; ++i) {
        const gk_gemm_variant *v = gk_gemm_bf16_variant_at(i);
        CHECK(v->id == (int)i + 1, "bf16 row %zu has id %d", i, v->id);
        CHECK(gk_gemm_bf16_find_variant(v->id) == v, "find %d", v->id);
        const gk_gemm_bf16_row *row = gk_gemm_bf16_row_find(v->id);
        CHECK(row && &row->info == v && row->run, "bf16 row %d has its function", v->id);
        CHECK(v->name && v->name[0] && v->idea && v->idea[0], "bf16 row %d has a name and an idea", v->id);
        CHECK(v->precision == GK_GEMM_BF16, "bf16 variant %d precision %d", v->id, (int)v->precision);
        CHECK(v->min_cc == 80 || v->min_cc == 90, "bf16 variant %d min_cc %d", v->id, v->min_cc);
        for (size_t j = 0; j < i; ++j) CHECK(strcmp(v->name, gk_gemm_bf16_variant_at(j)->name) != 0, "names unique");
    }
    CHECK(strcmp(gk_gemm_bf16_find_variant(1)->name, "mma_sync") == 0 && gk_gemm_bf16_find_variant(1)->min_cc == 80,
          "variant 1: mma.sync, sm_80");
    CHECK(strcmp(gk_gemm_bf16_find_variant(2)->name, "wgmma") == 0 && gk_gemm_bf16_find_variant(2)->min_cc == 90,
          "variant 2: wgmma, sm_90(a)");
    CHECK(strcmp(gk_gemm_bf16_find_variant(3)->name, "tma") == 0 && gk_gemm_bf16_find_variant(3)->min_cc == 90,
          "variant 3: TMA, sm_90(a)");
    CHECK(strcmp(gk_gemm_bf16_find_variant(4)->name, "warp_specialized") == 0 &&
              gk_gemm_bf16_find_variant(4)->min_cc == 90,
          "variant 4: warp specialized, sm_90(a)");
    CHECK(strcmp(gk_gemm_bf16_find_variant(5)->name, "persistent") == 0 &&
              gk_gemm_bf16_find_variant(5)->min_cc == 90,
          "variant 5: persistent, sm_90(a)");
    CHECK(gk_gemm_bf16_best_variant() == 5, "the best BF16 variant is 5: %d", gk_gemm_bf16_best_variant());
    CHECK(strcmp(gk_gemm_precision_name(GK_GEMM_BF16), "bf16") == 0, "precision name bf16");
}

static void test_bf16_reference(void)
{
    /* Conversions: exact values survive, ties go to even, NaN and Inf stay. */
    CHECK(gk_bf16_bits(1.0f) == 0x3f80 && gk_bf16_bits(-2.0f) == 0xc000, "1 and -2");
    CHECK(gk_bf16_value(0x3f80) == 1.0f && gk_bf16_value(0xbf00) == -0.5f, "back to float");
    /* 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to even (1); 1 + 3*2^-8 to 1 + 2^-6. */
    CHECK(gk_bf16_bits(1.0f + 0.00390625f) == 0x3f80, "tie to even, down");
    CHECK(gk_bf16_bits(1.0f + 3 * 0.00390625f) == 0x3f82, "tie to even, up");
    CHECK(gk_bf16_bits(1.0f + 0.005f) == 0x3f81, "nearest");
    CHECK(isnan(gk_bf16_value(gk_bf16_bits(NAN))) && isinf(gk_bf16_value(gk_bf16_bits(INFINITY))), "NaN, Inf");
    float x[3] = {0.1f, -3.14159f, 1e-3f};
    gk_round_to_bf16(x, 3);
    for (int i = 0; i < 3; ++i) CHECK(gk_bf16_value(gk_bf16_bits(x[i])) == x[i], "rounded values are bf16 numbers");
    CHECK(fabs(x[0] - 0.1) <= 0.1 * GK_BF16_UNIT_ROUNDOFF, "within u_bf16: %g", x[0]);

    /* The tolerance: dominated by the final rounding u_bf16 |ref|, growing
     * with sqrt(k + 2) * mag for the sums, doubled by both. */
    double t0 = gk_gemm_tolerance(GK_GEMM_BF16, 100, 0.0, 0.0, 8.0, 0);
    CHECK(fabs(t0 - 8.0 * GK_BF16_UNIT_ROUNDOFF) < 1e-12, "the output rounding alone: %g", t0);
    double t1 = gk_gemm_tolerance(GK_GEMM_BF16, 100, 1.0, 0.0, 0.0, 0);
    double t4 = gk_gemm_tolerance(GK_GEMM_BF16, 406, 1.0, 0.0, 0.0, 0);
    CHECK(fabs(t4 / t1 - 2.0) < 0.01, "sqrt(k + 2) growth: %g", t4 / t1);
    CHECK(gk_gemm_tolerance(GK_GEMM_BF16, 100, 1.0, 0.5, 2.0, 1) == 2 * gk_gemm_tolerance(GK_GEMM_BF16, 100, 1.0, 0.5, 2.0, 0),
          "both: doubled");
    /* k = 4096, a and b uniform on [-1, 1] (see test_reference): |C| ~ 21,
     * tol against cuBLAS about 2 * (0.039 + 2^-8 * 21) = 0.24, far below |C|. */
    double tb = gk_gemm_tolerance(GK_GEMM_BF16, 4096, 1024.0, 21.3, 20.0, 1);
    CHECK(tb > 0.2 && tb < 0.3, "BF16, k = 4096: %g", tb);

    /* The check on bf16 patterns: inside, outside, NaN. */
    double r2[2] = {1.0, 2.0}, m2[2] = {4.0, 4.0}, q2[2] = {2.0, 2.0};
    unsigned short good[2] = {gk_bf16_bits(1.0f), gk_bf16_bits(2.0f)};
    unsigned short far[2] = {gk_bf16_bits(1.0f), gk_bf16_bits(2.25f)};
    unsigned short bad[2] = {gk_bf16_bits(NAN), gk_bf16_bits(2.0f)};
    CHECK(gk_gemm_check_bf16(good, 2, r2, m2, q2, 1, 2, 8, 0, "good", NULL) == 0, "inside");
    CHECK(gk_gemm_check_bf16(far, 2, r2, m2, q2, 1, 2, 8, 0, "far", NULL) == 1, "outside");
    CHECK(gk_gemm_check_bf16(bad, 2, r2, m2, q2, 1, 2, 8, 0, "nan", NULL) == 1, "NaN never passes");
}

static void test_arguments(void)
{
    /* Host buffers stand in for device pointers: every call below is
     * rejected (or has nothing to do) before anything would touch them. */
    static float a[64], b[64], c[64];
    const size_t big = GK_GEMM_MAX_DIM + 1;
    for (size_t i = 0; i < gk_gemm_variant_count(); ++i) {
        int v = gk_gemm_variant_at(i)->id;
        EXPECT(gk_gemm(v, 4, 4, 4, 1, a, 3, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT); /* lda < k */
        EXPECT(gk_gemm(v, 4, 4, 4, 1, a, 4, b, 3, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT); /* ldb < n */
        EXPECT(gk_gemm(v, 4, 4, 4, 1, a, 4, b, 4, 0, c, 3, 0), GK_ERROR_INVALID_ARGUMENT); /* ldc < n */
        EXPECT(gk_gemm(v, 4, 4, 4, 1, a, 4, b, 4, 0, NULL, 4, 0), GK_ERROR_NULL_POINTER);
        EXPECT(gk_gemm(v, 4, 4, 4, 1, NULL, 4, b, 4, 0, c, 4, 0), GK_ERROR_NULL_POINTER);
        EXPECT(gk_gemm(v, 4, 4, 4, 1, a, 4, NULL, 4, 0, c, 4, 0), GK_ERROR_NULL_POINTER);
        EXPECT(gk_gemm(v, 4, 4, 4, 1, (const float *)((char *)a + 2), 4, b, 4, 0, c, 4, 0),
               GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm(v, 4, 4, 4, 1, a, 4, b, 4, 0, (float *)((char *)c + 1), 4, 0), GK_ERROR_INVALID_ARGUMENT);
        /* Dimensions too large, and extents whose offsets would overflow. */
        EXPECT(gk_gemm(v, big, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm(v, 4, big, 4, 1, a, 4, b, big, 0, c, big, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm(v, 4, 4, big, 1, a, big, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm(v, 4, 4, 4, 1, a, SIZE_MAX / 2, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm(v, 1u << 20, 4, 4, 1, a, 4, b, 4, 0, c, (size_t)1 << 42, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm(v, 4, 4, 1u << 20, 1, a, 1u << 20, b, (size_t)1 << 42, 0, c, 4, 0),
               GK_ERROR_INVALID_ARGUMENT);
        /* Nothing to do: m or n = 0 is a success that touches nothing, even
         * with NULL pointers. */
        EXPECT(gk_gemm(v, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4, 0), GK_SUCCESS);
        EXPECT(gk_gemm(v, 4, 0, 4, 1, NULL, 4, NULL, 0, 0, NULL, 0, 0), GK_SUCCESS);
        EXPECT(gk_gemm(v, 0, 0, 0, 1, NULL, 0, NULL, 0, 0, NULL, 0, 0), GK_SUCCESS);
        /* k = 0 needs C but not A and B. */
        EXPECT(gk_gemm(v, 4, 4, 0, 1, NULL, 0, NULL, 4, 0, NULL, 4, 0), GK_ERROR_NULL_POINTER);
    }
    EXPECT(gk_gemm(0, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_gemm((int)gk_gemm_variant_count() + 1, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_gemm(-3, 0, 0, 0, 1, NULL, 0, NULL, 0, 0, NULL, 0, 0), GK_ERROR_UNKNOWN_VARIANT);
    gk_status s = gk_gemm(0, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0);
    CHECK(strcmp(s.file, "gemm/gemm.c") == 0, "status file from the source root: %s", s.file);
}

static void test_bf16_arguments(void)
{
    /* As test_arguments, for gk_gemm_bf16 (2-byte elements). */
    static unsigned short a[64], b[64], c[64];
    const size_t big = GK_GEMM_MAX_DIM + 1;
    for (size_t i = 0; i < gk_gemm_bf16_variant_count(); ++i) {
        int v = gk_gemm_bf16_variant_at(i)->id;
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 3, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT); /* lda < k */
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 4, b, 3, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT); /* ldb < n */
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 4, b, 4, 0, c, 3, 0), GK_ERROR_INVALID_ARGUMENT); /* ldc < n */
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 4, b, 4, 0, NULL, 4, 0), GK_ERROR_NULL_POINTER);
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, NULL, 4, b, 4, 0, c, 4, 0), GK_ERROR_NULL_POINTER);
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 4, NULL, 4, 0, c, 4, 0), GK_ERROR_NULL_POINTER);
        /* Odd byte addresses: not aligned to a bf16. */
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, (const char *)a + 1, 4, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 4, (const char *)b + 1, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 4, b, 4, 0, (char *)c + 1, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        /* Dimensions too large, and extents whose offsets would overflow. */
        EXPECT(gk_gemm_bf16(v, big, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_bf16(v, 4, big, 4, 1, a, 4, b, big, 0, c, big, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_bf16(v, 4, 4, big, 1, a, big, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, SIZE_MAX / 2, b, 4, 0, c, 4, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_bf16(v, 1u << 20, 4, 4, 1, a, 4, b, 4, 0, c, (size_t)1 << 42, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_bf16(v, 4, 4, 1u << 20, 1, a, 1u << 20, b, (size_t)1 << 42, 0, c, 4, 0),
               GK_ERROR_INVALID_ARGUMENT);
        /* 2^61 elements of 2 bytes are 2^62 bytes: over; the same count of
         * floats' check (2^60 elements) would pass half of it. */
        EXPECT(gk_gemm_bf16(v, 2, 4, 4, 1, a, 4, b, 4, 0, c, (size_t)1 << 61, 0), GK_ERROR_INVALID_ARGUMENT);
        /* Nothing to do: m or n = 0 touches nothing, even with NULL pointers. */
        EXPECT(gk_gemm_bf16(v, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4, 0), GK_SUCCESS);
        EXPECT(gk_gemm_bf16(v, 4, 0, 4, 1, NULL, 4, NULL, 0, 0, NULL, 0, 0), GK_SUCCESS);
        EXPECT(gk_gemm_bf16(v, 0, 0, 0, 1, NULL, 0, NULL, 0, 0, NULL, 0, 0), GK_SUCCESS);
        /* k = 0 needs C but not A and B. */
        EXPECT(gk_gemm_bf16(v, 4, 4, 0, 1, NULL, 0, NULL, 4, 0, NULL, 4, 0), GK_ERROR_NULL_POINTER);
    }
    EXPECT(gk_gemm_bf16(0, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_gemm_bf16((int)gk_gemm_bf16_variant_count() + 1, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0),
           GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_gemm_bf16(-3, 0, 0, 0, 1, NULL, 0, NULL, 0, 0, NULL, 0, 0), GK_ERROR_UNKNOWN_VARIANT);
    gk_status s = gk_gemm_bf16(0, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0);
    CHECK(strcmp(s.file, "gemm/gemm.c") == 0, "status file from the source root: %s", s.file);
}

int main(void)
{
    test_reference();
    test_table();
    test_arguments();
    test_bf16_table();
    test_bf16_reference();
    test_bf16_arguments();
    return check_summary("test_gemm_cpu");
}
