/* CPU tests of the gemm module: the float64 references (gk_gemm_ref, and
 * gk_gemm_ref_ex with its transposed operands and epilogues) and the
 * tolerances against known answers, the table of 20 variants (and its BF16
 * view) against itself and against gemm/kernels/, the bf16 and fp16
 * conversions, gk_gemm_desc_init's defaults and the type and epilogue
 * names, and argument checking of gk_gemm, gk_gemm_bf16 and gk_gemm_ex
 * (every rejected call launches nothing and writes nothing, a workspace
 * query launches nothing, so none of this needs a GPU). */
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

static int stores(const gk_gemm_variant *v, gk_gemm_type t) { return (v->types & GK_GEMM_TYPE_BIT(t)) != 0; }

/* The name behind kernel file NN_name.cu (an fp32 row, id NN),
 * bf16_NN_name.cu (row NN of the BF16 view, id 12 + NN) and fp8_NN_name.cu
 * (the FP8 row, id 17 + NN); NULL when there is none (gk_test_kernel_files). */
static const char *row_name(int id)
{
    const gk_gemm_variant *v = gk_gemm_find_variant(id);
    return v && stores(v, GK_GEMM_TYPE_F32) && v->precision != GK_GEMM_FP8 ? v->name : NULL;
}

static const char *fp8_row_name(int id)
{
    const gk_gemm_variant *v = gk_gemm_find_variant(17 + id);
    return v && v->precision == GK_GEMM_FP8 ? v->name : NULL;
}

/* bf16_NN_name.cu: the 16-bit ladder, ids 12 + NN (13-17). */
static const char *bf16_row_name(int id)
{
    const gk_gemm_variant *v = id >= 1 && id <= 5 ? gk_gemm_bf16_find_variant(12 + id) : NULL;
    return v ? v->name : NULL;
}

/* skinny_NN_name.cu: the region kernels beside it, ids 18 + NN. */
static const char *skinny_row_name(int id)
{
    const gk_gemm_variant *v = id >= 1 ? gk_gemm_bf16_find_variant(18 + id) : NULL;
    return v ? v->name : NULL;
}

static const char *small_row_name(int id)
{
    const gk_gemm_variant *v = id >= 1 && id <= 4 ? gk_gemm_find_variant(19 + id) : NULL;
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
    /* One table: ids 1-12 store fp32 (1-10 fp32 products, 11-12 TF32), 13-17
     * are the 16-bit rungs (bf16 everywhere, fp16 too where extended), 18
     * multiplies FP8 inputs (storing fp32, bf16 or fp16), 19 is the skinny
     * products' kernel, 20 the tiny products' and 21 the mid-size products'
     * (bf16 and fp16, and fp32: 20 in fp32, 21 on TF32), 22 the mid-size
     * fp32 products' in fp32, 23 the mid-size 16-bit products' on wgmma. */
    size_t count = gk_gemm_variant_count();
    CHECK(count == 23, "the table has %zu variants", count);
    CHECK(gk_gemm_variant_at(count) == NULL && gk_gemm_find_variant(0) == NULL &&
              gk_gemm_find_variant((int)count + 1) == NULL && gk_gemm_find_variant(-1) == NULL,
          "out of range");
    CHECK(gk_gemm_best_variant() == 12, "the best fp32-storing variant is 12: %d", gk_gemm_best_variant());
    CHECK(gk_gemm_find_variant(gk_gemm_best_variant())->precision == GK_GEMM_TF32, "the best is a TF32 variant");
    CHECK(gk_gemm_best_fp32_variant() == 10, "the best fp32 variant is 10: %d", gk_gemm_best_fp32_variant());
    const gk_gemm_variant *bf = gk_gemm_find_variant(gk_gemm_best_fp32_variant());
    CHECK(bf != NULL && bf->precision == GK_GEMM_FP32, "the best fp32 variant is fp32");
    for (size_t i = 0; bf && i < count; ++i)
        CHECK(gk_gemm_variant_at(i)->precision != GK_GEMM_FP32 || gk_gemm_variant_at(i)->id <= bf->id ||
                  gk_gemm_variant_at(i)->id > 17,
              "no fp32 rung of the ladder after the best fp32 one (22 serves a region)");
    const unsigned f32 = GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), b16 = GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16),
                   f16 = GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16);
    for (size_t i = 0; i < count; ++i) {
        const gk_gemm_variant *v = gk_gemm_variant_at(i);
        CHECK(v->id == (int)i + 1, "row %zu has id %d", i, v->id);
        CHECK(gk_gemm_find_variant(v->id) == v, "find %d", v->id);
        const gk_gemm_row *row = gk_gemm_row_find(v->id);
        CHECK(row && &row->info == v, "row %d is found", v->id);
        CHECK(v->name && v->name[0] && v->idea && v->idea[0], "row %d has a name and an idea", v->id);
        CHECK(v->min_cc == 75 || v->min_cc == 80 || v->min_cc == 90, "variant %d min_cc %d", v->id, v->min_cc);
        CHECK(v->extended == 0 || v->extended == 1, "variant %d extended %d", v->id, v->extended);
        if (v->id == 18) {
            CHECK(v->precision == GK_GEMM_FP8, "variant 18 precision %d", (int)v->precision);
            CHECK(v->types == (f32 | b16 | f16), "variant 18 types %#x", v->types);
            CHECK(row && !row->run && !row->run16 && !row->run_ex && row->run_fp8 && row->scratch_fp8,
                  "row 18 has its FP8 functions only");
        } else if (v->id <= 12) {
            CHECK(v->precision == (v->id <= 10 ? GK_GEMM_FP32 : GK_GEMM_TF32), "variant %d precision %d", v->id,
                  (int)v->precision);
            CHECK(v->types == f32, "variant %d stores fp32 only: types %#x", v->id, v->types);
            CHECK(row && row->run && !row->run16, "row %d has its fp32 function", v->id);
        } else if (v->id == 19) {
            CHECK(v->precision == GK_GEMM_BF16 && v->types == (b16 | f16) && v->min_cc == 90,
                  "variant 19: bf16 and fp16, sm_90");
            CHECK(row && !row->run && !row->run16 && row->run_ex && !row->scratch && !row->run_fp8,
                  "row 19 has its extended function only (no workspace)");
        } else if (v->id == 20) {
            CHECK(v->precision == GK_GEMM_BF16 && v->types == (b16 | f16 | f32) && v->min_cc == 80,
                  "variant 20: bf16, fp16 and fp32, sm_80");
            CHECK(row && row->run && row->run16 && row->run_ex && !row->scratch && !row->run_fp8,
                  "row 20 has its fp32, 16-bit and extended functions (no workspace)");
            CHECK(gk_gemm_variant_precision(v, GK_GEMM_TYPE_F32) == GK_GEMM_FP32 &&
                      gk_gemm_variant_precision(v, GK_GEMM_TYPE_BF16) == GK_GEMM_BF16 &&
                      gk_gemm_variant_precision(v, GK_GEMM_TYPE_F16) == GK_GEMM_FP16,
                  "variant 20 computes in fp32, bf16 or fp16 by type");
        } else if (v->id == 21) {
            CHECK(v->precision == GK_GEMM_BF16 && v->types == (b16 | f16 | f32) && v->min_cc == 80,
                  "variant 21: bf16, fp16 and fp32, sm_80");
            CHECK(row && row->run && row->run16 && row->run_ex && !row->scratch && !row->run_fp8 && row->split,
                  "row 21 has its fp32, 16-bit, extended and split functions (no workspace)");
            CHECK(gk_gemm_variant_precision(v, GK_GEMM_TYPE_F32) == GK_GEMM_TF32 &&
                      gk_gemm_variant_precision(v, GK_GEMM_TYPE_BF16) == GK_GEMM_BF16 &&
                      gk_gemm_variant_precision(v, GK_GEMM_TYPE_F16) == GK_GEMM_FP16,
                  "variant 21 computes fp32 on TF32, bf16 and fp16 as themselves");
        } else if (v->id == 22) {
            CHECK(v->precision == GK_GEMM_FP32 && v->types == f32 && v->min_cc == 80, "variant 22: fp32, sm_80");
            CHECK(row && row->run && !row->run16 && row->run_ex && !row->scratch && !row->run_fp8 && row->split,
                  "row 22 has its fp32, extended and split functions (no workspace)");
            CHECK(gk_gemm_variant_precision(v, GK_GEMM_TYPE_F32) == GK_GEMM_FP32, "variant 22 computes in fp32");
        } else if (v->id == 23) {
            CHECK(v->precision == GK_GEMM_BF16 && v->types == (b16 | f16) && v->min_cc == 90,
                  "variant 23: bf16 and fp16, sm_90");
            CHECK(row && !row->run && row->run16 && row->run_ex && row->scratch && !row->run_fp8 && row->split,
                  "row 23 has its 16-bit, extended, split and scratch functions (a workspace for the padded "
                  "copies of rows its TMA cannot address)");
            CHECK(gk_gemm_variant_precision(v, GK_GEMM_TYPE_BF16) == GK_GEMM_BF16 &&
                      gk_gemm_variant_precision(v, GK_GEMM_TYPE_F16) == GK_GEMM_FP16,
                  "variant 23 computes bf16 and fp16 as themselves");
        } else {
            CHECK(v->precision == GK_GEMM_BF16, "variant %d precision %d", v->id, (int)v->precision);
            CHECK(v->types == (v->id == 17 ? (b16 | f16) : b16), "variant %d types %#x", v->id, v->types);
            CHECK(row && !row->run && row->run16, "row %d has its 16-bit function", v->id);
            /* 17 copies rows its TMA cannot address into the workspace
             * (padded rows); 13-16 take none. */
            CHECK(row && (row->scratch != NULL) == (v->id == 17) && !row->run_fp8,
                  v->id == 17 ? "row %d has its scratch function (a workspace for the padded copies)"
                              : "row %d has no scratch function (no workspace)",
                  v->id);
        }
        /* Extended exactly where the row has an extended entry point: the
         * best fp32 rung (10) and the best 16-bit one (17) today. */
        CHECK(v->extended == (v->id == 10 || v->id == 11 || v->id == 12 || v->id >= 17),
              "variant %d extended %d", v->id, v->extended);
        CHECK(row && (row->run_ex != NULL || row->run_fp8 != NULL) == (v->extended == 1),
              "row %d: an extended entry point iff extended", v->id);
        for (size_t j = 0; j < i; ++j)
            CHECK(strcmp(v->name, gk_gemm_variant_at(j)->name) != 0, "names unique");
    }
    CHECK(strcmp(gk_gemm_precision_name(GK_GEMM_FP32), "fp32") == 0 &&
              strcmp(gk_gemm_precision_name(GK_GEMM_TF32), "tf32") == 0 &&
              strcmp(gk_gemm_precision_name(GK_GEMM_BF16), "bf16") == 0 &&
              strcmp(gk_gemm_precision_name(GK_GEMM_FP16), "fp16") == 0 &&
              strcmp(gk_gemm_precision_name(GK_GEMM_FP8), "fp8") == 0,
          "precision names");

    /* Every kernel file is a row: NN_name.cu of an fp32 row (12 files),
     * bf16_NN_name.cu of the 16-bit ladder (5 files), fp8_NN_name.cu of the
     * FP8 row (1 file), skinny_NN_name.cu of the skinny row (1 file),
     * small_NN_name.cu of the tiny and mid-size products' rows (4 files). */
    size_t nf32 = 0, nfp8 = 0;
    for (size_t i = 0; i < count; ++i) {
        const gk_gemm_variant *v = gk_gemm_variant_at(i);
        nfp8 += v->precision == GK_GEMM_FP8;
        nf32 += stores(v, GK_GEMM_TYPE_F32) && (v->precision == GK_GEMM_FP32 || v->precision == GK_GEMM_TF32) &&
                v->id <= 12;
    }
    CHECK(nf32 == 12 && nfp8 == 1, "%zu fp32 rows, %zu FP8 rows", nf32, nfp8);
    CHECK(gk_gemm_bf16_variant_count() == 9, "%zu 16-bit rows", gk_gemm_bf16_variant_count());
    gk_test_table t[5] = {{"", row_name, nf32},
                          {"bf16_", bf16_row_name, 5},
                          {"fp8_", fp8_row_name, nfp8},
                          {"skinny_", skinny_row_name, 1},
                          {"small_", small_row_name, 4}};
    gk_test_kernel_files(GK_GEMM_KERNEL_DIR, t, 5);
}

static void test_bf16_table(void)
{
    /* The 16-bit view: rows 13..17 (the ladder), 19, 20, 21 and 23 of the same table. */
    size_t count = gk_gemm_bf16_variant_count();
    CHECK(count == 9, "the 16-bit view has %zu variants", count);
    CHECK(gk_gemm_bf16_variant_at(count) == NULL && gk_gemm_bf16_find_variant(0) == NULL &&
              gk_gemm_bf16_find_variant(1) == NULL && gk_gemm_bf16_find_variant(5) == NULL &&
              gk_gemm_bf16_find_variant(12) == NULL && gk_gemm_bf16_find_variant(18) == NULL,
          "out of range: the fp32 ids and the old 1..5 are not BF16 ids");
    CHECK(gk_gemm_bf16_best_variant() == 17, "the best BF16 variant is 17: %d", gk_gemm_bf16_best_variant());
    for (size_t i = 0; i < count; ++i) {
        const gk_gemm_variant *v = gk_gemm_bf16_variant_at(i);
        CHECK(v->id == (i < 5 ? 13 + (int)i : i < 8 ? 14 + (int)i : 23), "bf16 row %zu has id %d", i, v->id);
        CHECK(gk_gemm_bf16_find_variant(v->id) == v && gk_gemm_find_variant(v->id) == v,
              "find %d: the same row in both views", v->id);
        CHECK(v->precision == GK_GEMM_BF16, "bf16 variant %d precision %d", v->id, (int)v->precision);
        CHECK(v->min_cc == 80 || v->min_cc == 90, "bf16 variant %d min_cc %d", v->id, v->min_cc);
    }
    static const char *const names[] = {"mma_sync", "wgmma", "tma", "warp_specialized", "persistent"};
    for (int i = 0; i < 5; ++i) {
        const gk_gemm_variant *v = gk_gemm_bf16_find_variant(13 + i);
        CHECK(v && strcmp(v->name, names[i]) == 0 && v->min_cc == (i == 0 ? 80 : 90), "variant %d: %s, sm_%d", 13 + i,
              names[i], i == 0 ? 80 : 90);
    }
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
        if (!stores(gk_gemm_variant_at(i), GK_GEMM_TYPE_F32) || gk_gemm_variant_at(i)->precision == GK_GEMM_FP8) {
            /* The 16-bit rungs do not store floats, and the FP8 rung takes
             * FP8 inputs only: gk_gemm says so before the pointers are looked
             * at (m = 0 or not). */
            EXPECT(gk_gemm(v, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNSUPPORTED);
            EXPECT(gk_gemm(v, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4, 0), GK_ERROR_UNSUPPORTED);
            continue;
        }
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
    EXPECT(gk_gemm(99, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_gemm((int)gk_gemm_variant_count() + 1, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_gemm(-3, 0, 0, 0, 1, NULL, 0, NULL, 0, 0, NULL, 0, 0), GK_ERROR_UNKNOWN_VARIANT);
    gk_status s = gk_gemm(99, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0);
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
    EXPECT(gk_gemm_bf16(99, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_gemm_bf16((int)gk_gemm_variant_count() + 1, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0),
           GK_ERROR_UNKNOWN_VARIANT);
    /* The fp32 rows (the old BF16 ids 1..5 among them) do not store bf16. */
    for (int v = 1; v <= 12; ++v) {
        EXPECT(gk_gemm_bf16(v, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0), GK_ERROR_UNSUPPORTED);
        EXPECT(gk_gemm_bf16(v, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4, 0), GK_ERROR_UNSUPPORTED);
    }
    EXPECT(gk_gemm_bf16(-3, 0, 0, 0, 1, NULL, 0, NULL, 0, 0, NULL, 0, 0), GK_ERROR_UNKNOWN_VARIANT);
    gk_status s = gk_gemm_bf16(99, 4, 4, 4, 1, a, 4, b, 4, 0, c, 4, 0);
    CHECK(strcmp(s.file, "gemm/gemm.c") == 0, "status file from the source root: %s", s.file);
}

static void test_fp16_reference(void)
{
    /* IEEE half: 1 sign, 5 exponent, 10 mantissa bits. Exact values, ties to
     * even, the largest finite (65504) and the overflow threshold (65520:
     * halfway to 2^16, rounds to Inf), subnormals down to 2^-24, NaN, Inf. */
    CHECK(gk_fp16_bits(1.0f) == 0x3c00 && gk_fp16_bits(-2.0f) == 0xc000 && gk_fp16_bits(0.5f) == 0x3800,
          "1, -2, 0.5");
    CHECK(gk_fp16_bits(0.0f) == 0x0000 && gk_fp16_bits(-0.0f) == 0x8000, "signed zeros");
    CHECK(gk_fp16_value(0x3c00) == 1.0f && gk_fp16_value(0xb800) == -0.5f && gk_fp16_value(0x7bff) == 65504.0f,
          "back to float");
    /* 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: to even (1); 1 + 3*2^-11 to 1 + 2^-9. */
    CHECK(gk_fp16_bits(1.0f + 0x1p-11f) == 0x3c00, "tie to even, down");
    CHECK(gk_fp16_bits(1.0f + 3 * 0x1p-11f) == 0x3c02, "tie to even, up");
    CHECK(gk_fp16_bits(1.0f + 0x1p-11f + 0x1p-20f) == 0x3c01, "just past the tie: up");
    CHECK(gk_fp16_bits(65504.0f) == 0x7bff && gk_fp16_bits(65519.0f) == 0x7bff, "65519 rounds to 65504");
    CHECK(gk_fp16_bits(65520.0f) == 0x7c00 && gk_fp16_bits(-1e6f) == 0xfc00, "65520 and past: +-Inf");
    CHECK(gk_fp16_bits(INFINITY) == 0x7c00 && gk_fp16_bits(-INFINITY) == 0xfc00, "Inf stays Inf");
    CHECK(isnan(gk_fp16_value(gk_fp16_bits(NAN))) && isinf(gk_fp16_value(0x7c00)), "NaN stays NaN");
    /* Subnormals: multiples of 2^-24 below 2^-14. */
    CHECK(gk_fp16_bits(0x1p-14f) == 0x0400 && gk_fp16_bits(0x1p-24f) == 0x0001 && gk_fp16_value(0x0001) == 0x1p-24f,
          "smallest normal and subnormal");
    CHECK(gk_fp16_bits(0x1p-25f) == 0x0000 && gk_fp16_bits(1.5f * 0x1p-24f) == 0x0002 &&
              gk_fp16_bits(2.5f * 0x1p-24f) == 0x0002 && gk_fp16_bits(0x1p-25f + 0x1p-30f) == 0x0001,
          "subnormal ties to even, and just past one");
    CHECK(gk_fp16_bits(0x1p-14f - 0x1p-26f) == 0x0400, "rounding up into the normals");
    CHECK(gk_fp16_bits(-3 * 0x1p-24f) == 0x8003 && gk_fp16_value(0x83ff) == -1023 * 0x1p-24f, "negative subnormals");
    CHECK(gk_fp16_bits(1e-10f) == 0x0000 && gk_fp16_bits(0x1p-149f) == 0x0000, "underflow to zero");
    float x[4] = {0.1f, -3.14159f, 1e-3f, 3e-6f};
    gk_round_to_fp16(x, 4);
    for (int i = 0; i < 4; ++i) CHECK(gk_fp16_value(gk_fp16_bits(x[i])) == x[i], "rounded values are half numbers");
    CHECK(fabs(x[0] - 0.1) <= 0.1 * GK_FP16_UNIT_ROUNDOFF && fabs(x[1] + 3.14159) <= 3.15 * GK_FP16_UNIT_ROUNDOFF,
          "within u_fp16: %g %g", x[0], x[1]);
    CHECK(fabs(x[3] - 3e-6) <= 0x1p-25, "a subnormal within half its spacing: %g", x[3]);

    /* The tolerance: the final rounding u_fp16 |ref| plus half a subnormal
     * spacing; the sums' part as BF16's. */
    double t0 = gk_gemm_tolerance(GK_GEMM_FP16, 100, 0.0, 0.0, 8.0, 0);
    CHECK(fabs(t0 - (8.0 * GK_FP16_UNIT_ROUNDOFF + 0x1p-25)) < 1e-15, "the output rounding alone: %g", t0);
    /* Apart from that absolute term, FP16's is BF16's with u_fp16 for u_bf16:
     * t (1 + u_out) at ref = 0. */
    double h16 = (gk_gemm_tolerance(GK_GEMM_FP16, 100, 1.0, 0.5, 0.0, 0) - 0x1p-25) / (1 + GK_FP16_UNIT_ROUNDOFF);
    double b16 = gk_gemm_tolerance(GK_GEMM_BF16, 100, 1.0, 0.5, 0.0, 0) / (1 + GK_BF16_UNIT_ROUNDOFF);
    CHECK(fabs(h16 - b16) <= 1e-12 * b16, "the sums' part is BF16's: %g %g", h16, b16);
    double tb = gk_gemm_tolerance(GK_GEMM_BF16, 4096, 1024.0, 21.3, 20.0, 1);
    double th = gk_gemm_tolerance(GK_GEMM_FP16, 4096, 1024.0, 21.3, 20.0, 1);
    CHECK(th < tb && th > 0.08 && th < 0.12, "FP16, k = 4096: %g (BF16 %g)", th, tb);

    /* gk_gemm_check16 on half and bf16 patterns: inside, outside, NaN, Inf. */
    double r2[2] = {1.0, 2.0}, m2[2] = {4.0, 4.0}, q2[2] = {2.0, 2.0};
    unsigned short good[2] = {gk_fp16_bits(1.0f), gk_fp16_bits(2.0f)};
    /* One unit in the last place of half at 2 (2^-9) is twice what a correct
     * rounding may be off (tol about 2^-11 * 2 + 1e-5 here). */
    unsigned short far[2] = {gk_fp16_bits(1.0f), gk_fp16_bits(2.0f + 0x1p-9f)};
    unsigned short bad[2] = {gk_fp16_bits(NAN), gk_fp16_bits(2.0f)};
    unsigned short inf[2] = {gk_fp16_bits(1.0f), 0x7c00};
    CHECK(gk_gemm_check16(good, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP16, GK_GEMM_EPILOGUE_NONE, 0, "good", NULL) == 0,
          "inside");
    CHECK(gk_gemm_check16(far, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP16, GK_GEMM_EPILOGUE_NONE, 0, "far", NULL) == 1,
          "one ulp off: outside");
    CHECK(gk_gemm_check16(bad, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP16, GK_GEMM_EPILOGUE_NONE, 0, "nan", NULL) == 1,
          "NaN never passes");
    CHECK(gk_gemm_check16(inf, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP16, GK_GEMM_EPILOGUE_NONE, 0, "inf", NULL) == 1,
          "Inf never passes");
    unsigned short bgood[2] = {gk_bf16_bits(1.0f), gk_bf16_bits(2.0f)};
    unsigned short bfar[2] = {gk_bf16_bits(1.0f), gk_bf16_bits(2.25f)};
    CHECK(gk_gemm_check16(bgood, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_BF16, GK_GEMM_EPILOGUE_NONE, 0, "bf16", NULL) == 0 &&
              gk_gemm_check16(bfar, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_BF16, GK_GEMM_EPILOGUE_NONE, 0, "bf16", NULL) == 1,
          "bf16 patterns read as bf16");
    CHECK(gk_gemm_check16(bgood, 2, r2, m2, q2, 1, 2, 8, GK_GEMM_FP32, GK_GEMM_EPILOGUE_NONE, 0, "f32", NULL) == 2,
          "a precision that is not 16-bit fails every element");
    /* A half subnormal result: 1e-7 is stored as 2^-24 * 2 (1.19e-7), off
     * by 1.9e-8 < 2^-25 + u_fp16 * 1e-7. */
    double rs[1] = {1e-7}, z1[1] = {0.0};
    unsigned short sub[1] = {gk_fp16_bits(1e-7f)};
    CHECK(sub[0] == 0x0002 && gk_gemm_check16(sub, 1, rs, z1, z1, 1, 1, 0, GK_GEMM_FP16, GK_GEMM_EPILOGUE_NONE, 0,
                                              "subnormal", NULL) == 0,
          "a subnormal half result passes: %#x", sub[0]);
}

static void test_reference_ex(void)
{
    /* gk_gemm_ref_ex on the four stored layouts of one product gives
     * gk_gemm_ref's values, bit for bit (the same products added in the same
     * order). A is m x k = 3 x 5, B is k x n = 5 x 4, stored as given and
     * transposed, with padded leading dimensions. */
    enum { M = 3, N = 4, K = 5, LDA = 7, LDAT = 6, LDB = 9, LDBT = 8, LDC = 5 };
    float a[M * LDA], at[K * LDAT], b[K * LDB], bt[N * LDBT], c[M * LDC], bias[N];
    for (size_t i = 0; i < sizeof a / sizeof a[0]; ++i) a[i] = 1e30f; /* padding: must not be read */
    for (size_t i = 0; i < sizeof at / sizeof at[0]; ++i) at[i] = 1e30f;
    for (size_t i = 0; i < sizeof b / sizeof b[0]; ++i) b[i] = 1e30f;
    for (size_t i = 0; i < sizeof bt / sizeof bt[0]; ++i) bt[i] = 1e30f;
    for (int i = 0; i < M; ++i)
        for (int p = 0; p < K; ++p) a[i * LDA + p] = at[p * LDAT + i] = (float)((i * 7 + p * 3) % 11) / 4.0f - 1.0f;
    for (int p = 0; p < K; ++p)
        for (int j = 0; j < N; ++j) b[p * LDB + j] = bt[j * LDBT + p] = (float)((p * 5 + j * 2) % 13) / 8.0f - 0.75f;
    for (int i = 0; i < M * LDC; ++i) c[i] = (float)(i % 7) - 3.0f;
    for (int j = 0; j < N; ++j) bias[j] = 0.5f * (float)j - 0.75f;
    double r0[M * N], g0[M * N], q0[M * N], r[M * N], g[M * N], q[M * N];
    gk_gemm_ref(M, N, K, -1.5, a, LDA, b, LDB, 0.25, c, LDC, r0, g0, q0);
    for (int layout = 0; layout < 4; ++layout) {
        int ta = layout >> 1, tb = layout & 1;
        gk_gemm_ref_ex(ta, tb, M, N, K, -1.5, ta ? at : a, ta ? LDAT : LDA, tb ? bt : b, tb ? LDBT : LDB, 0.25, c, LDC,
                       GK_GEMM_EPILOGUE_NONE, NULL, r, g, q);
        CHECK(memcmp(r, r0, sizeof r) == 0 && memcmp(g, g0, sizeof g) == 0 && memcmp(q, q0, sizeof q) == 0,
              "layout %c%c: the values of gk_gemm_ref", ta ? 't' : 'n', tb ? 't' : 'n');
        /* The epilogues: the bias added to the value and to mag, then ReLU or GELU on the value. */
        for (int e = GK_GEMM_EPILOGUE_BIAS; e <= GK_GEMM_EPILOGUE_BIAS_GELU; ++e) {
            gk_gemm_ref_ex(ta, tb, M, N, K, -1.5, ta ? at : a, ta ? LDAT : LDA, tb ? bt : b, tb ? LDBT : LDB, 0.25, c,
                           LDC, e, bias, r, g, q);
            int ok = 1;
            for (int i = 0; i < M * N; ++i) {
                double x = r0[i] + (double)bias[i % N];
                ok &= r[i] == gk_gemm_epilogue_ref(e, x) && g[i] == g0[i] + fabs((double)bias[i % N]) && q[i] == q0[i];
            }
            CHECK(ok, "layout %c%c, epilogue %s", ta ? 't' : 'n', tb ? 't' : 'n',
                  gk_gemm_epilogue_name((gk_gemm_epilogue)e));
        }
    }
    /* A known answer with both operands transposed: A^T stored 3 x 2, B^T
     * stored 2 x 3 (A = [1 2 3; 4 5 6], B = [1 0; 0 -1; 2 1] as in
     * test_reference): A*B = [7 1; 16 1], plus bias [1 -2], ReLU: [8 0; 17 0]. */
    const float a_t[] = {1, 4, 2, 5, 3, 6}, b_t[] = {1, 0, 2, 0, -1, 1}, bias2[] = {1, -2};
    double r4[4], g4[4], q4[4];
    gk_gemm_ref_ex(1, 1, 2, 2, 3, 1.0, a_t, 2, b_t, 3, 0.0, NULL, 2, GK_GEMM_EPILOGUE_BIAS_RELU, bias2, r4, g4, q4);
    CHECK(r4[0] == 8 && r4[1] == 0 && r4[2] == 17 && r4[3] == 0, "TT + bias + ReLU: %g %g %g %g", r4[0], r4[1], r4[2],
          r4[3]);
    CHECK(g4[0] == 7 + 1 && g4[1] == 5 + 2 && g4[2] == 16 + 1 && g4[3] == 11 + 2, "mag counts |bias|: %g %g %g %g",
          g4[0], g4[1], g4[2], g4[3]);
    /* k = 0: epi(beta C + bias). */
    const float c2[] = {1, 1, 1, 1};
    gk_gemm_ref_ex(0, 1, 2, 2, 0, 1.0, NULL, 0, NULL, 0, -3.0, c2, 2, GK_GEMM_EPILOGUE_BIAS, bias2, r4, g4, q4);
    CHECK(r4[0] == -2 && r4[1] == -5 && r4[3] == -5 && g4[1] == 5 && q4[0] == 0, "k = 0: beta C + bias");

    /* GELU, tanh form, against values computed independently. */
    static const double gx[] = {1.0, -1.0, 0.5, 3.0, -3.0};
    static const double gy[] = {0.8411919906082768, -0.15880800939172324, 0.34571400982514394, 2.996362607918227,
                                -0.0036373920817729943};
    for (int i = 0; i < 5; ++i)
        CHECK(fabs(gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS_GELU, gx[i]) - gy[i]) <= 1e-15 * fabs(gy[i]) + 1e-300,
              "gelu(%g) = %.17g", gx[i], gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS_GELU, gx[i]));
    CHECK(gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS_GELU, 0.0) == 0.0 &&
              gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS_GELU, 40.0) == 40.0 &&
              fabs(gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS_GELU, -40.0)) < 1e-300,
          "gelu at 0 and far out");
    CHECK(gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS_RELU, -2.5) == 0.0 &&
              gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS_RELU, 2.5) == 2.5 &&
              gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_BIAS, -2.5) == -2.5 &&
              gk_gemm_epilogue_ref(GK_GEMM_EPILOGUE_NONE, -2.5) == -2.5,
          "ReLU, bias, none");
    /* The Lipschitz constant the tolerance uses bounds |gelu'| on a grid
     * (central differences, step 1e-4, over [-30, 30]) and is not loose by
     * more than 0.1%. */
    double lmax = 0.0;
    for (double xv = -30.0; xv <= 30.0; xv += 1e-3) {
        double d = (gk_gemm_epilogue_ref(3, xv + 1e-4) - gk_gemm_epilogue_ref(3, xv - 1e-4)) / 2e-4;
        if (fabs(d) > lmax) lmax = fabs(d);
    }
    CHECK(lmax <= GK_GELU_LIPSCHITZ && lmax > GK_GELU_LIPSCHITZ - 1.2e-3, "max |gelu'| = %.6f", lmax);

    /* The tolerance with an epilogue: NONE is gk_gemm_tolerance; the bias
     * adds one fp32 rounding of the value (at most u32 * mag); ReLU as bias;
     * GELU L = 1.13 times that, plus its own 2^-16 |ref|; then the output's
     * rounding. */
    const gk_gemm_precision ps[] = {GK_GEMM_FP32, GK_GEMM_TF32, GK_GEMM_BF16, GK_GEMM_FP16};
    for (int i = 0; i < 4; ++i) {
        gk_gemm_precision pr = ps[i];
        double none = gk_gemm_tolerance_ex(pr, GK_GEMM_EPILOGUE_NONE, 100, 3.0, 1.0, 0.0, 0);
        double bias_t = gk_gemm_tolerance_ex(pr, GK_GEMM_EPILOGUE_BIAS, 100, 3.0, 1.0, 0.0, 0);
        double relu = gk_gemm_tolerance_ex(pr, GK_GEMM_EPILOGUE_BIAS_RELU, 100, 3.0, 1.0, 0.0, 0);
        double gelu = gk_gemm_tolerance_ex(pr, GK_GEMM_EPILOGUE_BIAS_GELU, 100, 3.0, 1.0, 0.0, 0);
        CHECK(none == gk_gemm_tolerance(pr, 100, 3.0, 1.0, 0.0, 0), "%s: NONE is gk_gemm_tolerance",
              gk_gemm_precision_name(pr));
        double extra = 0x1p-25 * (pr == GK_GEMM_FP16); /* the absolute term, outside the scaling */
        CHECK(bias_t > none && (bias_t - extra) - (none - extra) <= 1.01 * GK_F32_UNIT_ROUNDOFF * 3.0 * 1.01,
              "%s: the bias adds about u32 mag: %g -> %g", gk_gemm_precision_name(pr), none, bias_t);
        CHECK(relu == bias_t, "%s: ReLU is 1-Lipschitz: as the bias alone", gk_gemm_precision_name(pr));
        double ratio = (gelu - extra - 0x1p-100) / (bias_t - extra);
        CHECK(fabs(ratio - GK_GELU_LIPSCHITZ * (1 + GK_GELU_REL_ERROR)) < 1e-6, "%s: GELU is L (1 + 2^-16) = %.7f times",
              gk_gemm_precision_name(pr), ratio);
        CHECK(gk_gemm_tolerance_ex(pr, GK_GEMM_EPILOGUE_BIAS_GELU, 100, 3.0, 1.0, 0.0, 1) == 2 * gelu,
              "%s: both: doubled", gk_gemm_precision_name(pr));
    }
    /* An exact value (mag = rms = 0): GELU's own error 2^-16 |ref|, then bf16's 2^-8. */
    double tg = gk_gemm_tolerance_ex(GK_GEMM_BF16, GK_GEMM_EPILOGUE_BIAS_GELU, 10, 0.0, 0.0, 1000.0, 0);
    double want = 1000.0 * GK_GELU_REL_ERROR + GK_BF16_UNIT_ROUNDOFF * (1000.0 + 1000.0 * GK_GELU_REL_ERROR);
    CHECK(fabs(tg - want) < 1e-9, "GELU's relative error and the rounding: %g (%g)", tg, want);
    /* The check with an epilogue: a GELU result within the GELU tolerance
     * but outside the plain one passes only with the epilogue given. */
    double re[1] = {0.0}, me[1] = {1000.0}, qe[1] = {0.0};
    double tnone = gk_gemm_tolerance(GK_GEMM_FP32, 100, 1000.0, 0.0, 0.0, 0);
    double tgelu = gk_gemm_tolerance_ex(GK_GEMM_FP32, GK_GEMM_EPILOGUE_BIAS_GELU, 100, 1000.0, 0.0, 0.0, 0);
    float mid[1] = {(float)(0.5 * (tnone + tgelu))};
    CHECK(mid[0] > tnone && mid[0] < tgelu, "a value between the two tolerances: %g %g %g", tnone, mid[0], tgelu);
    CHECK(gk_gemm_check_ex(mid, 1, re, me, qe, 1, 1, 100, GK_GEMM_FP32, GK_GEMM_EPILOGUE_BIAS_GELU, 0, "gelu", NULL) ==
                  0 &&
              gk_gemm_check_ex(mid, 1, re, me, qe, 1, 1, 100, GK_GEMM_FP32, GK_GEMM_EPILOGUE_NONE, 0, "none", NULL) == 1,
          "gk_gemm_check_ex uses the epilogue's tolerance");
}

static void test_desc(void)
{
    gk_gemm_desc d = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 3, 5, 7);
    CHECK(d.type == GK_GEMM_TYPE_F16 && d.m == 3 && d.n == 5 && d.k == 7, "type and shape");
    CHECK(d.op_a == GK_GEMM_OP_N && d.op_b == GK_GEMM_OP_N, "as stored");
    CHECK(d.lda == 0 && d.ldb == 0 && d.ldc == 0, "dense leading dimensions (0)");
    CHECK(d.alpha == 1.0f && d.beta == 0.0f, "alpha 1, beta 0");
    CHECK(d.batch == 1 && d.stride_a == 0 && d.stride_b == 0 && d.stride_c == 0, "one product, strides 0");
    CHECK(d.epilogue == GK_GEMM_EPILOGUE_NONE && d.bias == NULL, "no epilogue, no bias");
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 0, 0, 0);
    CHECK(d.type == GK_GEMM_TYPE_F32 && d.m == 0 && d.n == 0 && d.k == 0 && d.batch == 1, "an empty product");

    CHECK(strcmp(gk_gemm_type_name(GK_GEMM_TYPE_F32), "f32") == 0 &&
              strcmp(gk_gemm_type_name(GK_GEMM_TYPE_BF16), "bf16") == 0 &&
              strcmp(gk_gemm_type_name(GK_GEMM_TYPE_F16), "f16") == 0,
          "type names");
    CHECK(strcmp(gk_gemm_epilogue_name(GK_GEMM_EPILOGUE_NONE), "none") == 0 &&
              strcmp(gk_gemm_epilogue_name(GK_GEMM_EPILOGUE_BIAS), "bias") == 0 &&
              strcmp(gk_gemm_epilogue_name(GK_GEMM_EPILOGUE_BIAS_RELU), "bias_relu") == 0 &&
              strcmp(gk_gemm_epilogue_name(GK_GEMM_EPILOGUE_BIAS_GELU), "bias_gelu") == 0,
          "epilogue names");
    /* An unknown value still gets a string (to print), none of the real names. */
    const char *ut = gk_gemm_type_name((gk_gemm_type)3), *ue = gk_gemm_epilogue_name((gk_gemm_epilogue)4);
    CHECK(ut != NULL && strcmp(ut, "f32") != 0 && strcmp(ut, "bf16") != 0 && strcmp(ut, "f16") != 0,
          "unknown type: %s", ut ? ut : "(null)");
    CHECK(ue != NULL && strcmp(ue, "none") != 0 && strcmp(ue, "bias") != 0 && strcmp(ue, "bias_relu") != 0 &&
              strcmp(ue, "bias_gelu") != 0,
          "unknown epilogue: %s", ue ? ue : "(null)");
}

/* Host memory standing in for device memory in test_ex_arguments: every
 * call there is rejected, or a workspace query, or has nothing to do
 * (m = 0 or n = 0), so nothing reads or writes it; it is compared with a
 * copy at the end. */
static _Alignas(256) unsigned char ex_mem[4 * 1024];
static _Alignas(256) unsigned char ex_ws[1024];

/* The workspace gk/gemm.h documents for a description (an explicit
 * variant: no split): one granule (256 bytes), or, for the TF32 rungs,
 * their transposed copies rounded up to whole granules: variant 12 copies
 * A when op_a = T and op_b = N, variant 11 A when op_a = T and B when
 * op_b = T (B's copy starting on a granule after A's); a copy is the
 * operand as op() presents it, rows x cols with rows padded to a multiple
 * of 4 floats, once per product with its own operand. Beside them the TMA
 * rungs 17 and 23 (16-bit types only: they store no fp32) copy an operand
 * as stored (A k x m when op_a = T, else m x k; B n x k when op_b = T,
 * else k x n) whose rows are not whole 16-byte units (2 ld bytes, ld
 * resolved: 0 is the dense one, the stored cols), or whose batch stride
 * is not (batch > 1 and a stride other than 0): rows x cols with cols
 * padded to a multiple of 8 elements, once per product where the operand
 * has its own (batch > 1, stride not 0), else once, each copy's bytes in
 * whole granules (A's first, B's from the next granule), none at all when
 * m, n or k is 0 (common.cuh, padded_copy and padded_pair16). */
static size_t granules(size_t x) { return x == 0 ? 256 : (x + 255) / 256 * 256; }
static size_t copy_bytes(size_t rows, size_t cols, const gk_gemm_desc *d, size_t stride)
{
    const size_t count = d->batch > 1 && stride != 0 ? d->batch : 1;
    return 4 * rows * ((cols + 3) / 4 * 4) * count;
}
/* A padded copy of one operand (elem bytes each) stored rows x cols with
 * leading dimension ld (resolved) and batch stride `stride`: 0 when its
 * rows and stride are whole 16-byte units, else rows x cols with cols
 * padded to a multiple of 16 / elem, once per product where the operand
 * has its own, in whole granules (common.cuh, padded_copy). */
static size_t pad_bytes(size_t rows, size_t cols, size_t ld, const gk_gemm_desc *d, size_t stride, size_t elem)
{
    const int batched = d->batch > 1 && stride != 0;
    if ((ld * elem) % 16 == 0 && (!batched || (stride * elem) % 16 == 0)) return 0;
    const size_t count = batched ? d->batch : 1, unit = 16 / elem;
    return (rows * ((cols + unit - 1) / unit * unit) * elem * count + 255) / 256 * 256;
}
/* The workspace above, also for variant 10 (B's padded copy when op_b =
 * N: its 16-byte copies read B only) and 12 (A's transposed copy, or
 * else A's padded copy, then B's padded copy). */
static size_t expected_workspace(int id, const gk_gemm_desc *d)
{
    const int ta = d->op_a == GK_GEMM_OP_T, tb = d->op_b == GK_GEMM_OP_T;
    const size_t a_rows = ta ? d->k : d->m, a_cols = ta ? d->m : d->k;
    const size_t b_rows = tb ? d->n : d->k, b_cols = tb ? d->k : d->n;
    const size_t lda = d->lda != 0 ? d->lda : a_cols, ldb = d->ldb != 0 ? d->ldb : b_cols;
    const int empty = d->m == 0 || d->n == 0 || d->k == 0;
    if (id == 17 || id == 23) {
        if (empty) return granules(0);
        return granules(pad_bytes(a_rows, a_cols, lda, d, d->stride_a, 2) +
                        pad_bytes(b_rows, b_cols, ldb, d, d->stride_b, 2));
    }
    if (id == 10) return granules(empty || tb ? 0 : pad_bytes(b_rows, b_cols, ldb, d, d->stride_b, 4));
    if (id == 12) {
        size_t a = 0;
        if (ta && !tb) a = (copy_bytes(d->m, d->k, d, d->stride_a) + 255) / 256 * 256;
        else if (!empty) a = pad_bytes(a_rows, a_cols, lda, d, d->stride_a, 4);
        const size_t b = empty ? 0 : pad_bytes(b_rows, b_cols, ldb, d, d->stride_b, 4);
        return granules(a + b);
    }
    size_t a = 0, b = 0;
    if (id == 11 && d->op_a == GK_GEMM_OP_T) a = copy_bytes(d->m, d->k, d, d->stride_a);
    if (id == 11 && d->op_b == GK_GEMM_OP_T) b = copy_bytes(d->k, d->n, d, d->stride_b);
    return b == 0 ? granules(a) : granules((a + 255) / 256 * 256 + b);
}

static void test_ex_arguments(void)
{
    unsigned char *a = ex_mem, *b = ex_mem + 1024, *c = ex_mem + 2048, *bias = ex_mem + 3072, *ws = ex_ws;
    for (size_t i = 0; i < sizeof ex_mem; ++i) ex_mem[i] = (unsigned char)(i * 37 + 11);
    for (size_t i = 0; i < sizeof ex_ws; ++i) ex_ws[i] = (unsigned char)(i * 53 + 7);
    unsigned char mem_copy[sizeof ex_mem], ws_copy[sizeof ex_ws];
    memcpy(mem_copy, ex_mem, sizeof ex_mem);
    memcpy(ws_copy, ex_ws, sizeof ex_ws);
    size_t bytes = 0, first = 0;
    const size_t big = GK_GEMM_MAX_DIM + 1;
    /* m = 4, n = 6, k = 8: every stored shape differs from its transpose. */
    enum { M = 4, N = 6, K = 8 };

    /* The variant first, then the two pointers to the description and the size. */
    gk_gemm_desc d0 = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, M, N, K);
    REJECT(gk_gemm_ex(99, &d0, a, b, c, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    REJECT(gk_gemm_ex((int)gk_gemm_variant_count() + 1, &d0, a, b, c, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    /* The FP8 rung with 16-bit inputs: UNSUPPORTED (test_gemm_fp8_cpu.c tests its own calls). */
    REJECT(gk_gemm_ex(18, &d0, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    REJECT(gk_gemm_ex(-1, &d0, a, b, c, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    REJECT(gk_gemm_ex(99, NULL, a, b, c, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    REJECT(gk_gemm_ex(GK_GEMM_AUTO, NULL, a, b, c, NULL, &bytes, 0), GK_ERROR_NULL_POINTER);
    REJECT(gk_gemm_ex(17, NULL, a, b, c, NULL, &bytes, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_gemm_ex(17, &d0, a, b, c, NULL, NULL, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_gemm_ex(17, &d0, a, b, c, ws, NULL, 0), GK_ERROR_NULL_POINTER);
    gk_status where = gk_gemm_ex(17, NULL, a, b, c, NULL, &bytes, 0);
    CHECK(where.file && strcmp(where.file, "gemm/gemm.c") == 0, "status file from the source root: %s",
          where.file ? where.file : "(null)");

    for (size_t vi = 0; vi < gk_gemm_variant_count(); ++vi) {
        const gk_gemm_variant *v = gk_gemm_variant_at(vi);
        const int id = v->id;
        if (v->precision == GK_GEMM_FP8) continue; /* FP8 inputs only: test_gemm_fp8_cpu.c */
        for (int t = GK_GEMM_TYPE_F32; t <= GK_GEMM_TYPE_F16; ++t) {
            gk_gemm_desc d = gk_gemm_desc_init((gk_gemm_type)t, M, N, K);
            if (!stores(v, (gk_gemm_type)t)) {
                /* A type the variant does not store: UNSUPPORTED, empty or not. */
                REJECT(gk_gemm_ex(id, &d, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
                REJECT(gk_gemm_ex(id, &d, a, b, c, ws, &bytes, 0), GK_ERROR_UNSUPPORTED);
                d.m = 0;
                REJECT(gk_gemm_ex(id, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
                /* The argument checks come first. */
                d = gk_gemm_desc_init((gk_gemm_type)t, M, N, K);
                d.lda = K - 1;
                REJECT(gk_gemm_ex(id, &d, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
                continue;
            }
            /* The workspace query: a nonzero multiple of 256 (256 for every
             * variant here), the same for the same call, stored and nothing
             * else done. For 17 and 23 (16-bit) this description has a copy:
             * A (4 x 8, lda 8: 16-byte rows) is read in place, B (8 x 6, ldb
             * 6: 12-byte rows) is copied with rows of 8, 8 x 8 x 2 = 128
             * bytes, one granule: 256 in all. */
            bytes = 0;
            EXPECT(gk_gemm_ex(id, &d, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
            first = bytes;
            CHECK(first == 256 && first == expected_workspace(id, &d), "variant %d %s: the query gives %zu bytes", id,
                  gk_gemm_type_name((gk_gemm_type)t), first);
            bytes = 7;
            EXPECT(gk_gemm_ex(id, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
            CHECK(bytes == first, "variant %d: the same size again (%zu, %zu)", id, first, bytes);
            d.m = 0;
            bytes = 0;
            EXPECT(gk_gemm_ex(id, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
            CHECK(bytes != 0 && bytes % 256 == 0, "variant %d, m = 0: %zu bytes, never 0", id, bytes);

            /* Bad enum values, batch 0, leading dimensions too small, dimensions
             * too large: INVALID_ARGUMENT for every variant, extended or not. */
            d = gk_gemm_desc_init((gk_gemm_type)t, M, N, K);
            gk_gemm_desc e = d;
            e.type = (gk_gemm_type)3;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e.type = (gk_gemm_type)-1;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.op_a = (gk_gemm_op)2;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.op_b = (gk_gemm_op)-1;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.epilogue = (gk_gemm_epilogue)4, e.bias = bias;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.epilogue = (gk_gemm_epilogue)-1, e.bias = bias;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.batch = 0;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.batch = 0, e.m = 0; /* checked even when there is nothing to compute */
            REJECT(gk_gemm_ex(id, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.lda = K - 1; /* A stored m x k */
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.ldb = N - 1; /* B stored k x n */
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.ldc = N - 1;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.op_a = GK_GEMM_OP_T, e.lda = M - 1; /* A stored k x m */
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.op_b = GK_GEMM_OP_T, e.ldb = K - 1; /* B stored n x k */
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.m = big, e.lda = K;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.n = big;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.k = big;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.lda = SIZE_MAX / 2; /* an extent whose offsets would overflow */
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            /* Outputs that overlap: rejected before the variant's options are looked at. */
            e = d, e.batch = 2, e.stride_c = 0;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e = d, e.batch = 2, e.stride_c = M * N - 1;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);

            /* What only an extended variant takes: transposed operands, a
             * batch, an epilogue. Each alone, then all at once. */
            gk_gemm_desc opt[5];
            for (int o = 0; o < 5; ++o) opt[o] = d;
            opt[0].op_a = GK_GEMM_OP_T;                       /* lda 0: dense, m */
            opt[1].op_b = GK_GEMM_OP_T, opt[1].ldb = K;       /* B stored n x k */
            opt[2].batch = 3, opt[2].stride_a = 0, opt[2].stride_b = 1, opt[2].stride_c = M * N;
            opt[3].epilogue = GK_GEMM_EPILOGUE_BIAS_GELU, opt[3].bias = bias;
            opt[4].op_a = opt[4].op_b = GK_GEMM_OP_T, opt[4].batch = 2, opt[4].stride_a = M * K,
            opt[4].stride_b = 0, opt[4].stride_c = M * N + 3, opt[4].epilogue = GK_GEMM_EPILOGUE_BIAS_RELU,
            opt[4].bias = bias, opt[4].alpha = 2.0f, opt[4].beta = -1.0f;
            /* 17's and 23's padded copies, by hand (A stored 4 x 8 or, op_a =
             * T, 8 x 4; B 8 x 6 or, op_b = T, 6 x 8; a copy's rows padded to 8
             * elements, 16 bytes):
             *   0: A 8 x 4 (lda 4: 8-byte rows) -> 8 x 8 x 2 = 128 -> 256, B 8 x 6
             *      (ldb 6) -> 128 -> 256: 512;
             *   1: A lda 8, B 6 x 8 with ldb 8: no copy, 256;
             *   2: A broadcast (stride 0) with lda 8: none; B ldb 6, stride 1,
             *      its own per product: 3 x 128 = 384 -> 512: 512;
             *   3: B's copy alone: 256;
             *   4: A 8 x 4 (lda 4), stride 32, 2 products: 2 x 128 = 256; B 6 x 8
             *      (ldb 8), broadcast: none: 256. */
            static const size_t want16[5] = {512, 256, 512, 256, 256};
            for (int o = 0; o < 5; ++o) {
                if (v->extended) {
                    bytes = 0;
                    EXPECT(gk_gemm_ex(id, &opt[o], a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                    CHECK(bytes == expected_workspace(id, &opt[o]), "variant %d option %d: %zu bytes", id, o, bytes);
                    if (id == 17 || id == 23)
                        CHECK(bytes == want16[o], "variant %d %s option %d: %zu bytes (by hand: %zu)", id,
                              gk_gemm_type_name((gk_gemm_type)t), o, bytes, want16[o]);
                } else {
                    REJECT(gk_gemm_ex(id, &opt[o], a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
                    REJECT(gk_gemm_ex(id, &opt[o], a, b, c, ws, &bytes, 0), GK_ERROR_UNSUPPORTED);
                }
            }
            /* The bias is not read without an epilogue: any pointer will do. */
            e = d, e.bias = (const void *)(bias + 1);
            bytes = 0;
            EXPECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
        }
    }

    /* The batch stride of C, on the extended variant (bf16): no element of C
     * may be written twice (C_z's (i, j) at z stride_c + i ldc + j). */
    typedef struct stride_case {
        size_t m, n, ldc, batch, stride_c;
        int ok;
    } stride_case;
    static const stride_case sc[] = {
        {4, 4, 0, 2, 16, 1},  /* dense products one after the other */
        {4, 4, 0, 2, 15, 0},  /* one element short */
        {4, 4, 0, 2, 0, 0},   /* every product on the same C */
        {4, 4, 0, 2, 4, 0},   /* one row apart */
        {4, 4, 0, 3, 1000, 1}, /* far apart */
        {4, 4, 0, 1, 0, 1},   /* one product: the stride is not read */
        {4, 4, 8, 2, 4, 1},   /* interleaved: ldc = batch n, products in alternate column blocks */
        {4, 4, 12, 3, 4, 1},  /* the same with 3 */
        {4, 4, 12, 3, 3, 0},  /* column blocks that overlap by one */
        {4, 4, 12, 4, 4, 0},  /* a 4th block is row 1 of the 1st */
        {3, 4, 10, 2, 5, 1},  /* products 0 and 1 miss each other ... */
        {3, 4, 10, 3, 5, 0},  /* ... but 0 and 2 meet (row 1 of 0 is row 0 of 2) */
        {2, 4, 4, 2, 8, 1},   /* exactly adjacent */
        {2, 4, 4, 2, 7, 0},
        {1, 4, 0, 5, 4, 1},   /* one row each, packed */
        {4, 4, 0, 3, (size_t)1 << 61, 0}, /* the batch spans 2^62 bytes: offsets would overflow */
    };
    for (size_t i = 0; i < sizeof sc / sizeof sc[0]; ++i) {
        gk_gemm_desc d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, sc[i].m, sc[i].n, K);
        d.ldc = sc[i].ldc, d.batch = sc[i].batch, d.stride_c = sc[i].stride_c;
        d.stride_a = 0, d.stride_b = 0; /* broadcast A and B: allowed */
        if (sc[i].ok) {
            /* 256: A (m x 8, lda 8) is read in place; B (8 x 4, ldb 4: 8-byte
             * rows) is copied once (broadcast) with rows of 8: 8 x 8 x 2 = 128
             * bytes, one granule. */
            bytes = 0;
            EXPECT(gk_gemm_ex(17, &d, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
            CHECK(bytes == 256 && bytes == expected_workspace(17, &d), "stride case %zu: accepted, %zu bytes", i,
                  bytes);
        } else {
            REJECT(gk_gemm_ex(17, &d, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        }
    }
    /* The TF32 rungs' workspace at a shape of some size, worked by hand:
     * 100 x 60 x 37, both operands transposed, 3 products, A's own per
     * product, B shared. A's copy is 100 rows of 37 -> 40 floats x 3 =
     * 48,000 bytes (188 granules: 48,128); B's 37 x 60 floats = 8,880. */
    gk_gemm_desc dt = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 100, 60, 37);
    dt.op_a = dt.op_b = GK_GEMM_OP_T, dt.batch = 3, dt.stride_a = 3700, dt.stride_b = 0, dt.stride_c = 6000;
    /* Variant 12 transposes nothing when both are transposed (it swaps the
     * operands) but pads B, stored 60 x 37 with ldb 37 (148-byte rows): 60
     * rows of 40 floats = 9,600 bytes, 38 granules = 9,728 (shared by the
     * products); with op_b = N it transposes A alone (B, 37 x 60 with ldb
     * 60, has 240-byte rows). Variant 10 pads only B stored k x n: here its
     * rows are whole units. */
    static const size_t want_t[2][3] = {{256, 48128 + 8960, 9728}, {256, 48128, 48128}}; /* variants 10, 11, 12 */
    for (int tn = 0; tn < 2; ++tn) {
        dt.op_b = tn ? GK_GEMM_OP_N : GK_GEMM_OP_T;
        for (int id = 10; id <= 12; ++id) {
            bytes = 0;
            EXPECT(gk_gemm_ex(id, &dt, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
            CHECK(bytes == want_t[tn][id - 10] && bytes == expected_workspace(id, &dt), "variant %d, %s: %zu bytes", id,
                  tn ? "tn" : "tt", bytes);
            size_t small = want_t[tn][id - 10] - 16;
            EXPECT(gk_gemm_ex(id, &dt, a, b, c, ws, &small, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        }
    }
    /* A copy that would reach 2^62 bytes (2^30 products of a 2^20 x 2^20 A
     * whose batch stride is one float: inputs may overlap): rejected by the
     * variants that copy, taken by the one that does not. */
    gk_gemm_desc dx = gk_gemm_desc_init(GK_GEMM_TYPE_F32, (size_t)1 << 20, 1, (size_t)1 << 20);
    dx.op_a = GK_GEMM_OP_T, dx.batch = (size_t)1 << 30, dx.stride_a = 1, dx.stride_b = 0, dx.stride_c = (size_t)1 << 20;
    bytes = 0;
    EXPECT(gk_gemm_ex(10, &dx, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
    REJECT(gk_gemm_ex(11, &dx, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_gemm_ex(12, &dx, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);

    /* Inputs may overlap across the batch (only C may not). */
    gk_gemm_desc dov = gk_gemm_desc_init(GK_GEMM_TYPE_F16, M, N, K);
    dov.batch = 3, dov.stride_a = 1, dov.stride_b = 2, dov.stride_c = M * N;
    bytes = 0;
    EXPECT(gk_gemm_ex(17, &dov, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
    /* Both copied, per product: A (4 x 8, lda 8) for its stride of 1 (2
     * bytes), 3 x 4 x 8 x 2 = 192 -> 256; B (8 x 6, ldb 6) 3 x 8 x 8 x 2 =
     * 384 -> 512: 768. */
    CHECK(bytes == 768 && bytes == expected_workspace(17, &dov), "overlapping inputs, variant 17: %zu bytes",
          bytes);

    /* The TMA rungs 17 and 23 copy the rows their TMA cannot address into
     * the workspace, worked by hand: BF16, 4097 x 3001 x 2049, dense (lda =
     * 2049, ldb = 3001: rows of 4,098 and 6,002 bytes, not whole 16-byte
     * units; gemm/README.md's odd shape).
     *   A, 4097 x 2049, copied with rows of 2056: 4097 x 2056 x 2 =
     *     16,846,864 bytes -> 65,809 granules = 16,847,104;
     *   B, 2049 x 3001, copied with rows of 3008 from the granule after A's:
     *     2049 x 3008 x 2 = 12,326,784 bytes -> 48,152 granules = 12,326,912;
     *   in all 16,847,104 + 12,326,912 = 29,174,016 bytes (113,961 granules).
     * One operand alone with the other's rows whole units (lda = 2056 or ldb
     * = 3008), none with both: 256. The same in F16 (2-byte elements too);
     * nothing with m, n or k 0. The query reads no pointer: a, b, c are the
     * host buffers above, and a call one granule short is refused before it
     * looks at anything. */
    {
        const size_t copy_a = 16847104, copy_b = 12326912, both = 29174016;
        static const int tma16[2] = {17, 23};
        for (int vi = 0; vi < 2; ++vi) {
            const int id = tma16[vi];
            for (int ti = 0; ti < 2; ++ti) {
                const gk_gemm_type t = ti ? GK_GEMM_TYPE_F16 : GK_GEMM_TYPE_BF16;
                const char *tn = gk_gemm_type_name(t);
                gk_gemm_desc dp = gk_gemm_desc_init(t, 4097, 3001, 2049); /* lda, ldb 0: dense, 2049 and 3001 */
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dp, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == both && bytes == expected_workspace(id, &dp),
                      "variant %d %s 4097 x 3001 x 2049, dense: %zu bytes (want %zu)", id, tn, bytes, both);
                dp.lda = 2049, dp.ldb = 3001; /* the same, spelled out */
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dp, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == both, "variant %d %s, lda 2049, ldb 3001: %zu bytes", id, tn, bytes);
                /* One granule short: too small, *workspace_bytes untouched, nothing written. */
                size_t short_by_one = both - 256;
                EXPECT(gk_gemm_ex(id, &dp, a, b, c, ws, &short_by_one, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
                CHECK(short_by_one == both - 256, "variant %d %s: too small, *workspace_bytes untouched (%zu)", id,
                      tn, short_by_one);
                size_t enough = both;
                EXPECT(gk_gemm_ex(id, &dp, a, b, c, ws + 8, &enough, 0), GK_ERROR_INVALID_ARGUMENT); /* not 16-byte aligned */
                CHECK(enough == both, "variant %d %s: *workspace_bytes untouched (%zu)", id, tn, enough);
                dp.lda = 2056; /* A's rows whole units: B's copy alone */
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dp, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == copy_b && bytes == expected_workspace(id, &dp), "variant %d %s, lda 2056: %zu bytes",
                      id, tn, bytes);
                dp.lda = 2049, dp.ldb = 3008; /* A's copy alone */
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dp, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == copy_a && bytes == expected_workspace(id, &dp), "variant %d %s, ldb 3008: %zu bytes",
                      id, tn, bytes);
                dp.lda = 2056; /* neither */
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dp, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == 256 && bytes == expected_workspace(id, &dp),
                      "variant %d %s, lda 2056, ldb 3008: %zu bytes", id, tn, bytes);
                size_t one = 255;
                EXPECT(gk_gemm_ex(id, &dp, a, b, c, ws, &one, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
                CHECK(one == 255, "variant %d %s: too small, *workspace_bytes untouched (%zu)", id, tn, one);
                /* Nothing is read with k = 0, nothing computed with m or n 0: no copy. */
                dp.lda = 2049, dp.ldb = 3001;
                gk_gemm_desc dz = dp;
                dz.k = 0;
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dz, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == 256 && bytes == expected_workspace(id, &dz), "variant %d %s, k = 0: %zu bytes", id, tn,
                      bytes);
                dz = dp, dz.m = 0;
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dz, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == 256, "variant %d %s, m = 0: %zu bytes", id, tn, bytes);
                dz = dp, dz.n = 0;
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &dz, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == 256, "variant %d %s, n = 0: %zu bytes", id, tn, bytes);
            }
        }
        /* GK_GEMM_AUTO picks 17 there (odd rows, 2^34.5 multiply-adds: past
         * 21's 2^33), unsplit (lda, ldb not multiples of 8): the same bytes. */
        gk_gemm_desc dp = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 4097, 3001, 2049);
        int pid = -1;
        size_t psplits = 0;
        EXPECT(gk_gemm_auto_variant(&dp, &pid, &psplits), GK_SUCCESS);
        bytes = 0;
        EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &dp, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
        CHECK(pid == 17 && psplits == 1 && bytes == both, "auto, bf16 4097 x 3001 x 2049: variant %d, %zu slices, %zu bytes",
              pid, psplits, bytes);

        /* In fp32 at that shape, variant 10 copies B (k x n: 2049 rows of
         * 3001 -> 3004 floats = 24,620,784 bytes -> 96,175 granules =
         * 24,620,800) and 12 A (4097 rows of 2049 -> 2052 floats =
         * 33,628,176 bytes -> 131,361 granules = 33,628,416) then B: 58,249,216
         * bytes; with lda 2056 and ldb 3008 (multiples of 4) nothing. */
        {
            gk_gemm_desc df = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 4097, 3001, 2049);
            static const size_t want_f[2] = {24620800, 58249216};
            for (int i = 0; i < 2; ++i) {
                const int id = i ? 12 : 10;
                df.lda = 2049, df.ldb = 3001;
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &df, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == want_f[i] && bytes == expected_workspace(id, &df),
                      "variant %d f32 4097 x 3001 x 2049, lda 2049, ldb 3001: %zu bytes", id, bytes);
                size_t short_by_one = want_f[i] - 256;
                EXPECT(gk_gemm_ex(id, &df, a, b, c, ws, &short_by_one, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
                CHECK(short_by_one == want_f[i] - 256, "variant %d: too small, *workspace_bytes untouched", id);
                df.lda = 2056, df.ldb = 3008;
                bytes = 0;
                EXPECT(gk_gemm_ex(id, &df, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == 256, "variant %d f32, lda 2056, ldb 3008: %zu bytes", id, bytes);
            }
        }
        /* Every other variant's plain query at that shape (and with rows of
         * whole units) is still one granule: in fp32 (1-9, 11, 20-22: 11
         * copies only transposed operands) and in the 16-bit types (13-16,
         * 19-21). */
        for (size_t vi = 0; vi < gk_gemm_variant_count(); ++vi) {
            const gk_gemm_variant *v = gk_gemm_variant_at(vi);
            if (v->precision == GK_GEMM_FP8 || v->id == 10 || v->id == 12 || v->id == 17 || v->id == 23) continue;
            for (int t = GK_GEMM_TYPE_F32; t <= GK_GEMM_TYPE_F16; ++t) {
                if (!stores(v, (gk_gemm_type)t)) continue;
                gk_gemm_desc dv = gk_gemm_desc_init((gk_gemm_type)t, 4097, 3001, 2049);
                for (int pad = 0; pad < 2; ++pad) {
                    dv.lda = pad ? 2056 : 2049, dv.ldb = pad ? 3008 : 3001;
                    bytes = 0;
                    EXPECT(gk_gemm_ex(v->id, &dv, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                    CHECK(bytes == 256 && bytes == expected_workspace(v->id, &dv),
                          "variant %d %s 4097 x 3001 x 2049, lda %zu, ldb %zu: %zu bytes", v->id,
                          gk_gemm_type_name((gk_gemm_type)t), dv.lda, dv.ldb, bytes);
                }
            }
        }
    }
    /* Transposed and batched, by hand: F16, 5 x 7 x 9, op_a = op_b = T, 3
     * products, dense lds (A stored k x m = 9 x 5, lda 5: 10-byte rows; B
     * stored n x k = 7 x 9, ldb 9: 18-byte rows), stride_a 45 (90 bytes, A's
     * own per product), B broadcast (stride 0), stride_c 35.
     *   dense:                  A 3 x 9 x 8 x 2 = 432 -> 512, B once 7 x 16 x 2
     *                           = 224 -> 256: 768;
     *   lda 8 (16-byte rows):   A still copied for its stride (90 bytes): 768;
     *   lda 8, stride_a 72:     A read in place (144 bytes), B alone: 256;
     *   ... and ldb 16:         nothing copied: 256;
     *   ldb 16, stride_b 63:    B copied for its stride (126 bytes), per
     *                           product: 3 x 7 x 16 x 2 = 672 -> 768: 768;
     *   stride_b 64:            nothing copied: 256;
     *   dense, one product (the strides not read): A 9 x 8 x 2 = 144 -> 256,
     *                           B 256: 512. */
    {
        typedef struct tb_case {
            size_t lda, ldb, batch, stride_a, stride_b, bytes;
        } tb_case;
        static const tb_case tc[] = {
            {0, 0, 3, 45, 0, 768}, {8, 0, 3, 45, 0, 768},   {8, 0, 3, 72, 0, 256}, {8, 16, 3, 72, 0, 256},
            {8, 16, 3, 72, 63, 768}, {8, 16, 3, 72, 64, 256}, {0, 0, 1, 45, 0, 512},
        };
        static const int tma16[2] = {17, 23};
        for (int vi = 0; vi < 2; ++vi)
            for (size_t i = 0; i < sizeof tc / sizeof tc[0]; ++i) {
                gk_gemm_desc dtb = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 5, 7, 9);
                dtb.op_a = dtb.op_b = GK_GEMM_OP_T, dtb.lda = tc[i].lda, dtb.ldb = tc[i].ldb, dtb.batch = tc[i].batch,
                dtb.stride_a = tc[i].stride_a, dtb.stride_b = tc[i].stride_b, dtb.stride_c = 35;
                bytes = 0;
                EXPECT(gk_gemm_ex(tma16[vi], &dtb, a, b, c, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes == tc[i].bytes && bytes == expected_workspace(tma16[vi], &dtb),
                      "variant %d tt case %zu: %zu bytes (by hand: %zu)", tma16[vi], i, bytes, tc[i].bytes);
                size_t short_by_one = tc[i].bytes - 256;
                if (short_by_one > 0) {
                    EXPECT(gk_gemm_ex(tma16[vi], &dtb, a, b, c, ws, &short_by_one, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
                    CHECK(short_by_one == tc[i].bytes - 256, "variant %d tt case %zu: *workspace_bytes untouched",
                          tma16[vi], i);
                }
            }
    }

    /* After the query: the workspace, then the pointers. For an fp32 variant
     * (10), a 16-bit one (13) and the extended one (17, in both its types). */
    static const struct {
        int id;
        gk_gemm_type t;
    } calls[] = {{10, GK_GEMM_TYPE_F32}, {13, GK_GEMM_TYPE_BF16}, {17, GK_GEMM_TYPE_BF16}, {17, GK_GEMM_TYPE_F16}};
    for (size_t ci = 0; ci < sizeof calls / sizeof calls[0]; ++ci) {
        const int id = calls[ci].id;
        const size_t elem = calls[ci].t == GK_GEMM_TYPE_F32 ? 4 : 2;
        gk_gemm_desc d = gk_gemm_desc_init(calls[ci].t, M, N, K);
        bytes = 255;
        EXPECT(gk_gemm_ex(id, &d, a, b, c, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        CHECK(bytes == 255, "too small: *workspace_bytes untouched (%zu)", bytes);
        bytes = 0;
        EXPECT(gk_gemm_ex(id, &d, a, b, c, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        CHECK(bytes == 0, "too small: *workspace_bytes untouched (%zu)", bytes);
        REJECT(gk_gemm_ex(id, &d, a, b, c, ws + 8, &bytes, 0), GK_ERROR_INVALID_ARGUMENT); /* not 16-byte aligned */
        /* Nothing to compute: success, whatever the pointers. */
        gk_gemm_desc e = d;
        e.m = 0;
        bytes = 256;
        EXPECT(gk_gemm_ex(id, &e, NULL, NULL, NULL, ws, &bytes, 0), GK_SUCCESS);
        e = d, e.n = 0;
        EXPECT(gk_gemm_ex(id, &e, NULL, NULL, NULL, ws, &bytes, 0), GK_SUCCESS);
        CHECK(bytes == 256, "a real call leaves *workspace_bytes alone (%zu)", bytes);
        /* NULL pointers. */
        REJECT(gk_gemm_ex(id, &d, a, b, NULL, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REJECT(gk_gemm_ex(id, &d, NULL, b, c, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REJECT(gk_gemm_ex(id, &d, a, NULL, c, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        e = d, e.k = 0; /* k = 0 needs C, not A and B */
        REJECT(gk_gemm_ex(id, &e, NULL, NULL, NULL, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        /* Misaligned pointers: one byte off (and two for a float). */
        REJECT(gk_gemm_ex(id, &d, a + 1, b, c, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_gemm_ex(id, &d, a, b + 1, c, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_gemm_ex(id, &d, a, b, c + 1, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        if (elem == 4) REJECT(gk_gemm_ex(id, &d, a + 2, b, c, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        if (gk_gemm_find_variant(id)->extended) {
            /* An epilogue needs its bias, aligned. */
            e = d, e.epilogue = GK_GEMM_EPILOGUE_BIAS;
            REJECT(gk_gemm_ex(id, &e, a, b, c, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
            e.epilogue = GK_GEMM_EPILOGUE_BIAS_GELU;
            REJECT(gk_gemm_ex(id, &e, a, b, c, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
            e.bias = bias + 1;
            REJECT(gk_gemm_ex(id, &e, a, b, c, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            e.k = 0, e.bias = NULL; /* k = 0 still adds the bias */
            REJECT(gk_gemm_ex(id, &e, NULL, NULL, c, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        }
    }
    CHECK(memcmp(mem_copy, ex_mem, sizeof ex_mem) == 0 && memcmp(ws_copy, ex_ws, sizeof ex_ws) == 0,
          "nothing written to A, B, C, the bias or the workspace");
}

/* GK_GEMM_AUTO: the table of gk/gemm.h at every rule's edges, the checks
 * it keeps, and that a call with it is the call with the variant it picks
 * (the same status and workspace size). */
static int auto_of(const gk_gemm_desc *d)
{
    int id = -1;
    const gk_status st = gk_gemm_auto_variant(d, &id, NULL);
    return gk_ok(st) ? id : -1;
}
static void test_auto(void)
{
    CHECK(GK_GEMM_AUTO == 0 && gk_gemm_find_variant(GK_GEMM_AUTO) == NULL, "GK_GEMM_AUTO is 0, no row of the table");
    gk_gemm_desc d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 2048, 2048, 1024);
    CHECK(d.compute == GK_GEMM_COMPUTE_DEFAULT, "the default compute");
    /* fp32: 22 up to m n k batch <= 2^32 (outside the tiny rule); past it
     * 10; an empty product as stored: 9. */
    CHECK(GK_GEMM_MID_F32_MAX_MNK == ((size_t)1 << 32), "fp32's mid-size edge");
    CHECK(auto_of(&d) == 22, "2048 x 2048 x 1024 (2^32) fp32: %d", auto_of(&d));
    d.k = 1025;
    CHECK(auto_of(&d) == 10, "2048 x 2048 x 1025 fp32: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 1024, 1024, 1024);
    CHECK(auto_of(&d) == 22, "1024^3 fp32: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, (size_t)1 << 30, 1, 1);
    CHECK(auto_of(&d) == 22, "2^30 x 1 x 1 (k = 1, 2^30 outputs: not tiny): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, (size_t)1 << 30, 8, 1);
    CHECK(auto_of(&d) == 10, "2^30 x 8 x 1 (2^33): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 0, 1024, 1024);
    CHECK(auto_of(&d) == 9, "an empty product: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 4096, 4096, 256);
    d.op_b = GK_GEMM_OP_T;
    CHECK(auto_of(&d) == 22, "4096 x 4096 x 256 nt (2^32): %d", auto_of(&d));
    d.k = 257;
    CHECK(auto_of(&d) == 10, "4096 x 4096 x 257 nt: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 1024, 1024, 1024);
    d.batch = 4, d.stride_c = 1024 * 1024;
    CHECK(auto_of(&d) == 22, "1024^3 x 4 (2^32): %d", auto_of(&d));
    d.batch = 5;
    CHECK(auto_of(&d) == 10, "1024^3 x 5: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 2048, 2048, 2048);
    d.epilogue = GK_GEMM_EPILOGUE_BIAS, d.bias = (const void *)64;
    CHECK(auto_of(&d) == 10, "2048^3 with a bias: %d", auto_of(&d));
    /* 10 split in 22's region (GK_GEMM_F32_SPLIT10_MIN_UNITS; the split table below has the slices):
     * 600 x 700 x 4096 as stored -> 10; ldb 701 (B's rows not 16-byte units) or a transposed A -> 22. */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 600, 700, 4096);
    CHECK(auto_of(&d) == 10, "600 x 700 x 4096 (10 split): %d", auto_of(&d));
    d.ldb = 701;
    CHECK(auto_of(&d) == 22, "600 x 700 x 4096, ldb 701: %d", auto_of(&d));
    d.ldb = 0, d.op_a = GK_GEMM_OP_T;
    CHECK(auto_of(&d) == 22, "600 x 700 x 4096, A stored k x m: %d", auto_of(&d));
    /* F32 tiny products (either compute) -> 20 by the 16-bit types' rule:
     * k <= 8 with m n batch <= 2^17; 8 < k < 192 with m n batch <= 2^15
     * and m n k batch <= 2^21; or m n batch <= 2^13 with 192 <= k <= 2^14
     * and m n k batch <= 2^22 where 21's split rule would split k, 2^27
     * where not. */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 64, 64, 64);
    d.op_b = GK_GEMM_OP_T;
    CHECK(auto_of(&d) == 20, "64^3 nt (k between the short and long regions): %d", auto_of(&d));
    d.m = 256, d.n = 256; /* 2^16 outputs */
    CHECK(auto_of(&d) == 22, "256 x 256 x 64 nt: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 512, 256, 8);
    CHECK(auto_of(&d) == 20, "512 x 256 x 8 (2^17 outputs, short k): %d", auto_of(&d));
    d.n = 257;
    CHECK(auto_of(&d) == 22, "512 x 257 x 8: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 64, 128, 1000);
    CHECK(auto_of(&d) == 20, "64 x 128 x 1000 (2^13 outputs, no split, under 2^27): %d", auto_of(&d));
    d.n = 129;
    CHECK(auto_of(&d) == 22, "64 x 129 x 1000: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 64, 64, 1024);
    CHECK(auto_of(&d) == 20, "64 x 64 x 1024 (22 would split it, 2^22): %d", auto_of(&d));
    d.k = 1100;
    CHECK(auto_of(&d) == 22, "64 x 64 x 1100 (split, above 2^22): %d", auto_of(&d));
    d.batch = 2, d.stride_c = 64 * 64; /* a batch is not split: the edge is 2^27 */
    CHECK(auto_of(&d) == 20, "64 x 64 x 1100, a batch of 2: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 0, 7, 9);
    CHECK(auto_of(&d) == 9, "f32, an empty product: %d", auto_of(&d));
    /* TF32: the 16-bit types' tiny rule -> 20 (no 2^23 clause); 22 for k <= 20 with 2^18 outputs and
     * C's rows not 16-byte units; 12 where 21
     * would not split k, n >= 32 and m n k batch >= 2^26, or >= 2^22 with k
     * >= 128 (rows of 16 bytes, or padded copies: gk_gemm_auto_variant
     * answers for gk_gemm_ex); else 21 up to m n k batch <= 2^29 with rows
     * of 16 bytes, 2^30 otherwise; then 12 with rows of 16 bytes, else 11. */
    CHECK(GK_GEMM_MID_TF32_MAX_MNK == ((size_t)1 << 29) && GK_GEMM_MID_TF32_MAX_MNK_GATHER == ((size_t)1 << 30),
          "TF32's mid-size edges");
    CHECK(GK_GEMM_TF32_WGMMA_MIN_MNK == ((size_t)1 << 22) && GK_GEMM_TF32_WGMMA_MIN_K == 128 &&
              GK_GEMM_TF32_WGMMA_SHORTK_MIN_MNK == ((size_t)1 << 26) && GK_GEMM_TF32_WGMMA_MIN_N == 32,
          "TF32's edges of variant 12's narrow tiles");
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 256, 256, 128);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 12, "tf32, 256 x 256 x 128 (2^23, k 128): %d", auto_of(&d));
    d.k = 127;
    CHECK(auto_of(&d) == 21, "tf32, 256 x 256 x 127 (k below 128, under 2^26): %d", auto_of(&d));
    d.m = 128, d.k = 128;
    CHECK(auto_of(&d) == 12, "tf32, 128 x 256 x 128 (2^22): %d", auto_of(&d));
    d.m = 127;
    CHECK(auto_of(&d) == 21, "tf32, 127 x 256 x 128 (below 2^22): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 4096, 4096, 4);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 12, "tf32, 4096 x 4096 x 4 (2^26, short k, C's rows 16-byte units): %d", auto_of(&d));
    d.n = 4095, d.ldb = 4096;
    CHECK(auto_of(&d) == 22, "tf32, 4096 x 4095 x 4 (short k, many outputs, ldc 4095): %d", auto_of(&d));
    /* k <= GK_GEMM_TF32_FFMA_MAX_K = 20 with m n batch >= GK_GEMM_TF32_FFMA_MIN_MN = 2^18 and C's rows
     * not 16-byte units: 22 (fp32). */
    CHECK(GK_GEMM_TF32_FFMA_MAX_K == 20 && GK_GEMM_TF32_FFMA_MIN_MN == ((size_t)1 << 18), "TF32's short-k edges");
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 512, 512, 20);
    d.compute = GK_GEMM_COMPUTE_TF32, d.ldc = 514;
    CHECK(auto_of(&d) == 22, "tf32, 512 x 512 x 20 (2^18 outputs, k 20, ldc 514): %d", auto_of(&d));
    d.ldc = 516;
    CHECK(auto_of(&d) == 21, "tf32, 512 x 512 x 20, ldc 516 (C's rows 16-byte units): %d", auto_of(&d));
    d.ldc = 514, d.k = 21;
    CHECK(auto_of(&d) == 21, "tf32, 512 x 512 x 21 (k past 20, under 2^26): %d", auto_of(&d));
    d.k = 20, d.n = 511;
    CHECK(auto_of(&d) == 21, "tf32, 512 x 511 x 20 (below 2^18 outputs): %d", auto_of(&d));
    d.n = 256, d.ldc = 256, d.batch = 2, d.stride_c = 512 * 256 + 2; /* 2^18 outputs, stride_c not 4k */
    CHECK(auto_of(&d) == 22, "tf32, 512 x 256 x 20 x 2 (2^18 outputs, stride_c odd pairs): %d", auto_of(&d));
    d.stride_c = 512 * 256;
    CHECK(auto_of(&d) == 21, "tf32, 512 x 256 x 20 x 2 (stride_c a multiple of 4): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 4096, 32, 1000);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 12, "tf32, 4096 x 32 x 1000 (n 32): %d", auto_of(&d));
    d.n = 31;
    CHECK(auto_of(&d) == 21, "tf32, 4096 x 31 x 1000 (n below 32): %d", auto_of(&d));
    d.n = 32, d.k = 1024; /* 64 tiles of 64 x 64: 21 splits k in 4 */
    CHECK(auto_of(&d) == 21, "tf32, 4096 x 32 x 1024 (21 splits k): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 512, 512, 2048);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 21, "tf32, 512 x 512 x 2048 (21 splits k: 64 tiles): %d", auto_of(&d));
    d.m = 512, d.n = 256, d.k = 8;
    CHECK(auto_of(&d) == 20, "tf32, 512 x 256 x 8 (2^17 outputs, short k): %d", auto_of(&d));
    d.n = 257; /* past the tiny rule, below TF32's short-k edge (2^18 outputs): 21 */
    CHECK(auto_of(&d) == 21, "tf32, 512 x 257 x 8: %d", auto_of(&d));
    d.n = 513;
    CHECK(auto_of(&d) == 22, "tf32, 512 x 513 x 8 (past the tiny rule: short k, 2^18 outputs, ldc 513): %d",
          auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 64, 64, 1000);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 20, "tf32, 64 x 64 x 1000 (2^12 outputs, no split, under 2^27): %d", auto_of(&d));
    d.k = 1024; /* 21 would split it in 4: the tiny edge is 2^22 */
    CHECK(auto_of(&d) == 20, "tf32, 64 x 64 x 1024 (split, 2^22): %d", auto_of(&d));
    d.k = 1100;
    CHECK(auto_of(&d) == 21, "tf32, 64 x 64 x 1100 (split, above 2^22): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 64, 128, 16384);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 21, "tf32, 64 x 128 x 16384 (21 splits, 2^27 > 2^22): %d", auto_of(&d));
    /* n below 32 (no narrow tiles of 12): 21 up to its edges. */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 1 << 15, 16, 1024);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 21, "tf32, 2^15 x 16 x 1024 (2^29): %d", auto_of(&d));
    d.k = 1028;
    CHECK(auto_of(&d) == 12, "tf32, 2^15 x 16 x 1028: %d", auto_of(&d));
    d.k = 2048, d.lda = 2049;
    CHECK(auto_of(&d) == 21, "tf32, 2^15 x 16 x 2048, lda 2049 (odd rows, 2^30): %d", auto_of(&d));
    d.k = 2049;
    CHECK(auto_of(&d) == 12, "tf32, 2^15 x 16 x 2049, lda 2049 (padded copies): %d", auto_of(&d));
    /* Past the mid region: 12, on padded copies where the rows are not 16
     * bytes (gk_gemm_auto_variant answers for gk_gemm_ex, which has a
     * workspace; gk_gemm, without one, takes 11 there). */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 1040, 1024, 1040);
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 12, "tf32, lda 1040, ldb 1024: %d", auto_of(&d));
    d.lda = 1041;
    CHECK(auto_of(&d) == 12, "tf32, lda 1041 (padded copies): %d", auto_of(&d));
    d.lda = 0, d.op_a = GK_GEMM_OP_T; /* dense lda = m = 1040 */
    CHECK(auto_of(&d) == 12, "tf32, A stored k x m, lda 1040: %d", auto_of(&d));
    d.m = 1041;
    CHECK(auto_of(&d) == 12, "tf32, A stored k x m, lda 1041 (padded copies): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 1024, 1024, 1024);
    d.compute = GK_GEMM_COMPUTE_TF32, d.batch = 3, d.stride_a = 1024 * 1024 + 2, d.stride_b = 0,
    d.stride_c = 1024 * 1024;
    CHECK(auto_of(&d) == 12, "tf32, stride_a not a multiple of 4 (padded copies): %d", auto_of(&d));
    d.stride_a = 1024 * 1024 + 4;
    CHECK(auto_of(&d) == 12, "tf32, stride_a a multiple of 4: %d", auto_of(&d));
    /* 16-bit types: 19 against a weight of n k >= GK_GEMM_SKINNY_MIN_NK
     * elements with m <= GK_GEMM_SKINNY_MAX_M (stored n x k, op_b = T) or
     * GK_GEMM_SKINNY_MAX_M_KN (stored k x n); 20 in the tiny regions; on
     * rows of whole 16-byte units (lda, ldb and the batch strides multiples
     * of 8) 23 up to GK_GEMM_WGMMA_MAX_MNK multiply-adds, or beyond where 23
     * splits k; on other rows 21 up to GK_GEMM_MID_MAX_MNK_GATHER, except 23
     * on padded copies where 21 does not split k and m n k batch >=
     * GK_GEMM_PAD_MIN_MNK with k >= GK_GEMM_PAD_MIN_K, or >=
     * GK_GEMM_PAD_SHORTK_MIN_MNK; 17 beyond. */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 7, 9, 8);
    CHECK(auto_of(&d) == 20, "bf16, tiny: %d", auto_of(&d));
    d.type = GK_GEMM_TYPE_F16;
    CHECK(auto_of(&d) == 20, "f16, tiny: %d", auto_of(&d));
    d.k = 9;
    CHECK(auto_of(&d) == 20, "7 x 9 x 9 (k past the short-k edge, few multiply-adds): %d", auto_of(&d));
    /* The tiny regions' edges: k <= 8 with m n batch <= 2^17; 8 < k < 192
     * with m n batch <= 2^15 and m n k batch <= 2^21; m n batch <= 2^13
     * with 192 <= k <= 2^14 and m n k batch <= 2^22 (21 splits k) or 2^27
     * (it does not). */
    CHECK(GK_GEMM_TINY_SHORT_K == 8 && GK_GEMM_TINY_SHORT_K_MAX_MN == 131072 && GK_GEMM_TINY_LONGK_MIN_K == 192 &&
              GK_GEMM_TINY_MIDK_MAX_MN == 32768 && GK_GEMM_TINY_MIDK_MAX_MNK == 2097152 &&
              GK_GEMM_TINY_MAX_K == 16384 && GK_GEMM_TINY_LONGK_MAX_MN == 8192 &&
              GK_GEMM_TINY_LONGK_SPLIT_MAX_MNK == 4194304 && GK_GEMM_TINY_LONGK_MAX_MNK == 134217728,
          "the tiny regions' edges");
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 128, 256, 9);
    CHECK(auto_of(&d) == 20, "128 x 256 x 9 (2^15 outputs): %d", auto_of(&d));
    d.n = 257; /* ldb 257: odd rows */
    CHECK(auto_of(&d) == 21, "128 x 257 x 9 (past 2^15 outputs): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 128, 128, 128);
    CHECK(auto_of(&d) == 20, "128 x 128 x 128 (2^21 multiply-adds): %d", auto_of(&d));
    d.k = 129; /* lda 129: odd rows */
    CHECK(auto_of(&d) == 21, "128 x 128 x 129 (past 2^21): %d", auto_of(&d));
    d.k = 191, d.m = 64; /* 2^13 outputs, k just below the long-k region */
    CHECK(auto_of(&d) == 20, "64 x 128 x 191: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 127, 69, 101);
    CHECK(auto_of(&d) == 20, "f32 127 x 69 x 101: %d", auto_of(&d));
    d.compute = GK_GEMM_COMPUTE_TF32;
    CHECK(auto_of(&d) == 20, "f32 127 x 69 x 101, TF32 allowed: %d", auto_of(&d));
    d.k = 240; /* 2^21.05 multiply-adds, k in the long-k region past 2^13 outputs */
    CHECK(auto_of(&d) != 20, "f32 127 x 69 x 240: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 512, 256, 8);
    CHECK(auto_of(&d) == 20, "512 x 256 x 8 (2^17 outputs): %d", auto_of(&d));
    d.n = 257;
    CHECK(auto_of(&d) == 21, "512 x 257 x 8: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 4096, 4096, 1);
    CHECK(auto_of(&d) == 21, "4096 x 4096 x 1 (2^24 outputs): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 64, 128, 192);
    CHECK(auto_of(&d) == 20, "64 x 128 x 192 (2^13 outputs, k < 1024: no split): %d", auto_of(&d));
    d.k = 192, d.n = 129;
    CHECK(auto_of(&d) == 21, "64 x 129 x 192: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 64, 128, 1023);
    CHECK(auto_of(&d) == 20, "64 x 128 x 1023 (2^27 at most, no split): %d", auto_of(&d));
    d.k = 1024; /* lda 1024, ldb 128: rows of 16 bytes, 2^23 <= 2^30 */
    CHECK(auto_of(&d) == 23, "64 x 128 x 1024 (21 would split it, above 2^22): %d", auto_of(&d));
    d.batch = 2, d.m = 32, d.stride_a = 0, d.stride_b = 0, d.stride_c = 32 * 128;
    CHECK(auto_of(&d) == 20, "32 x 128 x 1024, a batch of 2 (no split): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 16, 16, 16384);
    CHECK(auto_of(&d) == 20, "16 x 16 x 16384 (2^22): %d", auto_of(&d));
    d.n = 17;
    CHECK(auto_of(&d) == 21, "16 x 17 x 16384 (split): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 1, 4, 16384);
    CHECK(auto_of(&d) == 20, "1 x 4 x 16384: %d", auto_of(&d));
    d.k = 16385;
    CHECK(auto_of(&d) == 21, "1 x 4 x 16385 (k past the edge: 21 split): %d", auto_of(&d));
    /* The mid region's edges: 23 up to 2^30 with lda, ldb multiples of 8
     * (beyond where 23 splits k), else 21 up to 2^33. */
    CHECK(GK_GEMM_WGMMA_MAX_MNK == 1073741824 && GK_GEMM_MID_MAX_MNK_GATHER == ((size_t)1 << 33),
          "the mid region's edges");
    CHECK(GK_GEMM_SPLIT23_MIN_K == 2048 && GK_GEMM_SPLIT23_CTAS == 132 && GK_GEMM_SPLIT23_MIN_KC == 512,
          "variant 23's split-K");
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 512, 512, 1024);
    CHECK(auto_of(&d) == 23, "512 x 512 x 1024 (2^28): %d", auto_of(&d));
    d.k = 1032;
    CHECK(auto_of(&d) == 23, "512 x 512 x 1032 (2^28.01): %d", auto_of(&d));
    d.lda = 1033;
    CHECK(auto_of(&d) == 21, "512 x 512 x 1032, lda 1033: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 1024, 1024, 1024);
    CHECK(auto_of(&d) == 23, "1024^3 (2^30, k < 2048: no split): %d", auto_of(&d));
    d.type = GK_GEMM_TYPE_F16;
    CHECK(auto_of(&d) == 23, "f16 1024^3 (2^30): %d", auto_of(&d));
    d.k = 1032; /* lda 1032, ldb 1024; 128 x 16 = 128 of 23's tiles, k < 2048: no split */
    CHECK(auto_of(&d) == 17, "f16 1024 x 1024 x 1032 (above 2^30): %d", auto_of(&d));
    d.lda = 1033;
    CHECK(auto_of(&d) == 23, "f16 1024 x 1024 x 1032, lda 1033 (odd rows, below 2^33: padded copies): %d",
          auto_of(&d));
    d.lda = 0, d.op_a = GK_GEMM_OP_T, d.op_b = GK_GEMM_OP_T; /* lda m = 1024, ldb k = 1032 */
    CHECK(auto_of(&d) == 17, "f16 1024 x 1024 x 1032 tt: %d", auto_of(&d));
    d.k = 1024;
    CHECK(auto_of(&d) == 23, "f16 1024^3 tt: %d", auto_of(&d));
    d.m = 1025; /* lda 1025 */
    CHECK(auto_of(&d) == 23, "f16 1025 x 1024 x 1024 tt, lda 1025 (odd rows: padded copies): %d", auto_of(&d));
    /* Past 2^30 where 23 splits k: 512 x 512 x 4104 (2^30 + 2^21): 4 x 8 = 32 tiles of 128 x 64,
     * S = min(132 / 32 = 4, 4104 / 512 = 8) = 4, kc = 1026 -> 1088, S = ceil(4104 / 1088) = 4. */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 512, 512, 4096);
    CHECK(auto_of(&d) == 23, "512 x 512 x 4096 (2^30): %d", auto_of(&d));
    d.k = 4104;
    int id23 = -1;
    size_t nsplit = 0;
    EXPECT(gk_gemm_auto_variant(&d, &id23, &nsplit), GK_SUCCESS);
    CHECK(id23 == 23 && nsplit == 4, "512 x 512 x 4104 (23 splits it in 4): %d, %zu", id23, nsplit);
    d.batch = 2, d.stride_c = 512 * 512; /* a batch is not split */
    CHECK(auto_of(&d) == 17, "512 x 512 x 4104, a batch of 2: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 1024, 1024, 8192);
    d.lda = 8193;
    CHECK(auto_of(&d) == 21, "1024 x 1024 x 8192, lda 8193 (odd rows, 2^33): %d", auto_of(&d));
    d.k = 8193;
    CHECK(auto_of(&d) == 17, "1024 x 1024 x 8193 (above 2^33): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 256, 256, 256);
    d.op_a = GK_GEMM_OP_T, d.batch = 16, d.stride_a = 65536, d.stride_b = 65536 + 4, d.stride_c = 65536;
    CHECK(auto_of(&d) == 23, "256^3, a batch of 16 (2^28), stride_b not a multiple of 8 (padded copies): %d",
          auto_of(&d));
    d.batch = 65;
    CHECK(auto_of(&d) == 23, "a batch of 65 (2^30 + 2^24), stride_b not a multiple of 8 (padded copies): %d",
          auto_of(&d));
    d.batch = 17, d.stride_b = 65536;
    CHECK(auto_of(&d) == 23, "a batch of 17 (2^28 + 2^24), strides multiples of 8: %d", auto_of(&d));
    d.batch = 64;
    CHECK(auto_of(&d) == 23, "a batch of 64 (2^30), strides multiples of 8: %d", auto_of(&d));
    d.batch = 65;
    CHECK(auto_of(&d) == 17, "a batch of 65 (above 2^30), strides multiples of 8: %d", auto_of(&d));
    d.batch = 64, d.stride_a = 65536 + 2;
    CHECK(auto_of(&d) == 23, "a batch of 64, stride_a not a multiple of 8 (padded copies): %d", auto_of(&d));
    /* One wave of 23 past 2^30: m <= 256 and 128 to 132 CTAs (128 x 128
     * tiles where those number 128 or more, else 128 x 64). Weights stored
     * n x k (op_b = T, ldb = k = 8192 or 4096: rows of 16-byte units). */
    CHECK(GK_GEMM_WGMMA_WAVE_MAX_M == 256 && GK_GEMM_WGMMA_WAVE_MIN_CTAS == 128 && GK_GEMM_WGMMA_WAVE_MAX_CTAS == 132,
          "one wave of 23");
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 128, 8192, 8192);
    CHECK(auto_of(&d) == 23, "128 x 8192 x 8192 (2^33; 64 wide tiles, so 128 of 128 x 64): %d", auto_of(&d));
    d.m = 257;
    CHECK(auto_of(&d) == 17, "257 x 8192 x 8192 (m past 256): %d", auto_of(&d));
    d.op_b = GK_GEMM_OP_T, d.m = 256, d.n = 8448;
    CHECK(auto_of(&d) == 23, "256 x 8448 x 8192 nt (2 x 66 = 132 tiles of 128 x 128): %d", auto_of(&d));
    d.n = 8449;
    CHECK(auto_of(&d) == 17, "256 x 8449 x 8192 nt (2 x 67 = 134): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 256, 4033, 4096);
    d.op_b = GK_GEMM_OP_T;
    CHECK(auto_of(&d) == 23, "256 x 4033 x 4096 nt (64 wide tiles, 2 x 64 = 128 of 128 x 64): %d", auto_of(&d));
    d.n = 4032;
    CHECK(auto_of(&d) == 17, "256 x 4032 x 4096 nt (2 x 63 = 126 of 128 x 64): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 128, 4096, 4096);
    d.batch = 2, d.stride_a = 128 * 4096, d.stride_b = 4096 * 4096, d.stride_c = 128 * 4096;
    CHECK(auto_of(&d) == 23, "128 x 4096 x 4096, a batch of 2 (2 x 64 of 128 x 64): %d", auto_of(&d));
    d.batch = 3;
    CHECK(auto_of(&d) == 17, "a batch of 3 (3 x 32 = 96 wide, 192 narrow): %d", auto_of(&d));
    /* The padded copies' edges (odd lda, one product, k < 1024: 21 does
     * not split): 2^21 with k >= 160, 2^29 at any k. */
    CHECK(GK_GEMM_PAD_MIN_MNK == ((size_t)1 << 21) && GK_GEMM_PAD_MIN_K == 160 &&
              GK_GEMM_PAD_SHORTK_MIN_MNK == ((size_t)1 << 29),
          "the padded copies' edges");
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 256, 256, 256);
    d.lda = 257;
    CHECK(auto_of(&d) == 23, "256^3, lda 257 (2^24, k = 256): %d", auto_of(&d));
    /* 9,000 outputs (past the tiny rule's 2^13 for k >= 192): 90 x 100 x 234 is 2,106,000 multiply-adds,
     * 233 deep 2,097,000 (below 2^21 = 2,097,152). */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 90, 100, 234);
    d.lda = 235;
    CHECK(auto_of(&d) == 23, "90 x 100 x 234, lda 235 (2^21, k >= 160): %d", auto_of(&d));
    d.k = 233;
    CHECK(auto_of(&d) == 21, "90 x 100 x 233, lda 235 (below 2^21): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 256, 512, 160);
    d.lda = 161;
    CHECK(auto_of(&d) == 23, "256 x 512 x 160, lda 161 (2^24.3, k = 160): %d", auto_of(&d));
    d.k = 159;
    CHECK(auto_of(&d) == 21, "256 x 512 x 159, lda 161 (k < 160): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 8192, 1024, 64);
    d.lda = 65;
    CHECK(auto_of(&d) == 23, "8192 x 1024 x 64, lda 65 (2^29, any k): %d", auto_of(&d));
    d.m = 8191;
    CHECK(auto_of(&d) == 21, "8191 x 1024 x 64, lda 65 (below 2^29, k < 256): %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 7, 9, 8);
    CHECK(auto_of(&d) == 20, "f32, tiny: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 512, 512, 1024);
    CHECK(auto_of(&d) == 22, "f32 in fp32 is 22, never 21 (512 x 512 x 1024): %d", auto_of(&d));
    CHECK(GK_GEMM_SKINNY_MAX_M == 32 && GK_GEMM_SKINNY_MAX_M_KN == 16 && GK_GEMM_SKINNY_MIN_NK == 1048576,
          "the skinny region's edges");
    const gk_gemm_type t16[2] = {GK_GEMM_TYPE_BF16, GK_GEMM_TYPE_F16};
    for (int ti = 0; ti < 2; ++ti) {
        d = gk_gemm_desc_init(t16[ti], GK_GEMM_SKINNY_MAX_M_KN, 1024, 1024);
        CHECK(auto_of(&d) == 19, "%s m = 16, n k = 2^20, k x n: %d", gk_gemm_type_name(t16[ti]), auto_of(&d));
        d.m = GK_GEMM_SKINNY_MAX_M_KN + 1;
        CHECK(auto_of(&d) == 23, "m = 17, k x n (rows of 16 bytes): %d", auto_of(&d));
        d.op_b = GK_GEMM_OP_T;
        CHECK(auto_of(&d) == 19, "m = 17, n x k: %d", auto_of(&d));
        d.m = GK_GEMM_SKINNY_MAX_M;
        CHECK(auto_of(&d) == 19, "m = 32, n x k: %d", auto_of(&d));
        d.op_a = GK_GEMM_OP_T, d.epilogue = GK_GEMM_EPILOGUE_BIAS_GELU;
        CHECK(auto_of(&d) == 19, "any op_a and epilogue: %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], GK_GEMM_SKINNY_MAX_M + 1, 1024, 1024);
        d.op_b = GK_GEMM_OP_T;
        CHECK(auto_of(&d) == 23, "m = 33, n x k (rows of 16 bytes): %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], 1, 8192, 8192);
        CHECK(auto_of(&d) == 19, "m = 1: %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], 16, 1023, 1025);
        CHECK(auto_of(&d) == 21, "n k = 2^20 - 1 (not skinny; lda 1025): %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], 16, 1, GK_GEMM_SKINNY_MIN_NK);
        CHECK(auto_of(&d) != 19, "n = 1, k = 2^20, k x n (rows of 2 bytes): %d", auto_of(&d));
        d.op_b = GK_GEMM_OP_T; /* ldb = k = 2^20 */
        CHECK(auto_of(&d) == 19, "n = 1, k = 2^20, n x k: %d", auto_of(&d));
        /* The weight's rows must be whole 16-byte units (ldb, and the batch
         * stride, multiples of 8), in either layout; elsewhere 21 splits k. */
        d = gk_gemm_desc_init(t16[ti], 1, 4167, 2682);
        int idw = -1;
        size_t sw = 0;
        EXPECT(gk_gemm_auto_variant(&d, &idw, &sw), GK_SUCCESS);
        CHECK(idw == 21 && sw == 7, "1 x 4167 x 2682, k x n (ldb 4167): %d, %zu", idw, sw);
        d.ldb = 4168;
        CHECK(auto_of(&d) == 19, "1 x 4167 x 2682, k x n, ldb 4168: %d", auto_of(&d));
        d.ldb = 0, d.op_b = GK_GEMM_OP_T; /* ldb = k = 2682 */
        CHECK(auto_of(&d) == 21, "1 x 4167 x 2682, n x k (ldb 2682): %d", auto_of(&d));
        d.k = 2688;
        CHECK(auto_of(&d) == 19, "1 x 4167 x 2688, n x k (a ragged n): %d", auto_of(&d));
        d.batch = 2, d.stride_b = 4167 * 2688 + 4, d.stride_a = 2688, d.stride_c = 4167;
        CHECK(auto_of(&d) != 19, "a batch whose weights are 4 elements off 16 bytes: %d", auto_of(&d));
        d.stride_b = 4167 * 2688;
        CHECK(auto_of(&d) == 19, "a batch of weights on 16-byte rows: %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], 0, 4096, 4096);
        CHECK(auto_of(&d) == 19, "m = 0: %d", auto_of(&d));
        /* A small C with a long k: m n <= GK_GEMM_LONGK_MAX_MN and k >=
         * GK_GEMM_LONGK_MIN_K goes to 19 only where none of 17, 21 and 23
         * splits it (a batch); else the region's pick, which splits. */
        CHECK(GK_GEMM_LONGK_MAX_MN == 262144 && GK_GEMM_LONGK_MIN_K == 8192, "the long-k region's edges");
        d = gk_gemm_desc_init(t16[ti], 512, 512, 8192);
        CHECK(auto_of(&d) == 23, "512 x 512 x 8192 (2^31, 23 splits it in 4): %d", auto_of(&d));
        d.lda = 8200 + 1;
        CHECK(auto_of(&d) == 21, "512 x 512 x 8192, lda odd (21 split): %d", auto_of(&d));
        d.batch = 2, d.stride_a = 0, d.stride_b = 0, d.stride_c = 512 * 512;
        CHECK(auto_of(&d) == 19, "512 x 512 x 8192, a batch of 2 (no split): %d", auto_of(&d));
        d.k = 8191;
        CHECK(auto_of(&d) == 23, "512 x 512 x 8191, a batch of 2 (padded copies): %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], 1, 262144, 8192);
        CHECK(auto_of(&d) == 19, "1 x 2^18 x 8192 (skinny): %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], 262145, 1, 8192);
        CHECK(auto_of(&d) == 23, "(2^18 + 1) x 1 x 8192 (ldb 1, below 2^33: padded copies): %d", auto_of(&d));
        d = gk_gemm_desc_init(t16[ti], 256, 256, 65536);
        CHECK(auto_of(&d) == 23, "256 x 256 x 65536 (2^32, 23 splits it in 16): %d", auto_of(&d));
        d.op_a = GK_GEMM_OP_T, d.op_b = GK_GEMM_OP_T, d.batch = 4, d.stride_a = 0, d.stride_b = 0, d.stride_c = 65536;
        CHECK(auto_of(&d) == 19, "256 x 256 x 65536, tt, a batch: %d", auto_of(&d));
    }
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 1, 8192, 8192);
    CHECK(auto_of(&d) != 19, "f32 is never 19: %d", auto_of(&d));
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 7, 9, 11);
    /* The checks stay: a bad compute, TF32 with a 16-bit type, NULL pointers. */
    int id = 42;
    d.compute = GK_GEMM_COMPUTE_TF32;
    EXPECT(gk_gemm_auto_variant(&d, &id, NULL), GK_ERROR_INVALID_ARGUMENT);
    d.compute = (gk_gemm_compute)2, d.type = GK_GEMM_TYPE_F32;
    EXPECT(gk_gemm_auto_variant(&d, &id, NULL), GK_ERROR_INVALID_ARGUMENT);
    CHECK(id == 42, "nothing stored on a failure (%d)", id);
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 4, 4, 4);
    EXPECT(gk_gemm_auto_variant(NULL, &id, NULL), GK_ERROR_NULL_POINTER);
    EXPECT(gk_gemm_auto_variant(&d, NULL, NULL), GK_ERROR_NULL_POINTER);
    d.ldc = 3;
    EXPECT(gk_gemm_auto_variant(&d, &id, NULL), GK_ERROR_INVALID_ARGUMENT);
    /* A call with GK_GEMM_AUTO is the call with its pick: the same workspace
     * (A copied for a TF32 tn product past the mid region, 3 x 1024 x 1024
     * x 256: variant 12's copy of each product's A as 1024 rows of 256
     * floats, 3 x 1 MiB = 3,145,728 bytes), the same statuses. */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 1024, 1024, 256);
    d.compute = GK_GEMM_COMPUTE_TF32, d.op_a = GK_GEMM_OP_T, d.batch = 3, d.stride_a = 262144,
    d.stride_c = 1048576;
    size_t want = 0, got = 0;
    EXPECT(gk_gemm_ex(auto_of(&d), &d, NULL, NULL, NULL, NULL, &want, 0), GK_SUCCESS);
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &d, NULL, NULL, NULL, NULL, &got, 0), GK_SUCCESS);
    CHECK(auto_of(&d) == 12 && got == want && got == 3145728, "auto tn tf32: variant %d, %zu and %zu bytes",
          auto_of(&d), got, want);
    d.compute = GK_GEMM_COMPUTE_DEFAULT;
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &d, NULL, NULL, NULL, NULL, &got, 0), GK_SUCCESS);
    CHECK(got == 256, "auto tn fp32 (variant 10): %zu bytes", got);
    static _Alignas(256) unsigned char mem[256];
    EXPECT(gk_gemm(GK_GEMM_AUTO, 4, 4, 4, 1, NULL, 4, (const float *)mem, 4, 0, (float *)mem, 4, 0),
           GK_ERROR_NULL_POINTER);
    EXPECT(gk_gemm_bf16(GK_GEMM_AUTO, 4, 4, 4, 1, mem, 3, mem, 4, 0, mem, 4, 0), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_gemm(GK_GEMM_AUTO, 0, 4, 4, 1, NULL, 4, NULL, 4, 0, NULL, 4, 0), GK_SUCCESS);

    /* Split-K, worked by hand from gk/gemm.h's rule. */
    typedef struct split_case {
        gk_gemm_compute compute;
        gk_gemm_op op_b;
        size_t m, n, k, batch;
        int id;
        size_t splits, bytes; /* the workspace: splits m n floats in granules (+ 256 when nothing else) */
    } split_case;
    static const split_case sc[] = {
        /* 2 tiles of 12: S = min(64, 65536 / 512 = 128) = 64, kc = 1024: 64 x 256 x 256 floats = 16 MiB. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 256, 256, 65536, 1, 12, 64, 16777216},
        /* fp32, 2^32: 2 of 10's tiles, split S = min(64, 65536 / 512) = 64 (128 units, C covers them):
         * 10, kc = 1024: 64 x 256 x 256 floats = 16 MiB. Stored n x k: 22, 16 tiles of 64 x 64: S =
         * min(528 / 16 = 33, 65536 / 64) = 33, kc = 1986 -> 2048, S = 32: 8 MiB. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 256, 65536, 1, 10, 64, 16777216},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 256, 256, 65536, 1, 22, 32, 8388608},
        /* 10 (fp32, 2^33 > 2^32): 2 x 1 tiles of 128 x 256: S = min(64, 131072 / 512) = 64, kc = 2048. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 256, 131072, 1, 10, 64, 16777216},
        /* TF32, 136 x 128 x 4100 (below 2^29): 21, 3 x 2 = 6 tiles: S = min(528 / 6 = 88, 4100 / 256 =
         * 16) = 16, kc = 257 -> 320, S = ceil(4100 / 320) = 13 (the last slice 260 deep):
         * 13 x 136 x 128 x 4 = 905,216 bytes. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 136, 128, 4100, 1, 21, 13, 905216},
        /* Odd rows (lda = 4099, not whole 16-byte units): slices of at least
         * GK_GEMM_SPLIT21_GATHER_MIN_KC, S = min(88, 4099 / 64 = 64) = 64, kc = 65 -> 128, S = 33 (the
         * last slice 3 deep): 33 x 136 x 128 x 4 = 2,297,856 bytes. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 136, 128, 4099, 1, 21, 33, 2297856},
        /* 33 x 44 x 4100: 1,452 outputs, but 2^22.5 multiply-adds where 21 splits: 21, S = 13,
         * 13 x 33 x 44 x 4 = 75,504 -> 75,520. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 33, 44, 4100, 1, 21, 13, 75520},
        /* 33 x 44 x 2800: 4,065,600 multiply-adds, below 2^22: tiny (variant 20), not split. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 33, 44, 2800, 1, 20, 1, 256},
        /* 22 nt: 2 x 5 tiles, S = min(52, 3000 / 64 = 46) = 46, kc = 66 -> 128, S = 24:
         * 24 x 70 x 300 x 4 = 2,016,000 bytes. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 70, 300, 3000, 1, 22, 24, 2016000},
        /* 22's own edges (GK_GEMM_SPLIT22_*). k = 255 < GK_GEMM_SPLIT22_MIN_K: no split; k = 256, 16
         * tiles: S = min(33, 4) = 4, kc = 64: 4 x 256 x 256 x 4 = 1 MiB. 512^3, 64 tiles:
         * S = min(8, 8) = 8, kc = 64: 8 MiB. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 256, 255, 1, 22, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 256, 256, 1, 22, 4, 1048576},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 512, 512, 512, 1, 22, 8, 8388608},
        /* 132 tiles (768 x 704), k = 512: S = min(4, 512 / 64) = 4, kc = 128: 4 x 768 x 704 x 4 =
         * 8,650,752 bytes; 133 tiles (448 x 1216): slices of at least 256, S = min(3, 2) = 2, kc = 256:
         * 2 x 448 x 1216 x 4 = 4,358,144 bytes. 768^3, 144 tiles: S = min(3, 3) = 3, kc = 256:
         * 3 x 768 x 768 x 4 = 7,077,888 bytes. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 768, 704, 512, 1, 22, 4, 8650752},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 448, 1216, 512, 1, 22, 2, 4358144},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 768, 768, 768, 1, 22, 3, 7077888},
        /* 198 tiles (1152 x 704, GK_GEMM_SPLIT22_MAX_TILES), k = 1024: S = min(2, 4) = 2, kc = 512:
         * 2 x 1152 x 704 x 4 = 6,488,064 bytes; 199 tiles (12736 x 64; 100 of 10's, which does not split
         * it): none, at any k; 1024 x 1024 x 2048 stored n x k (256 tiles): none; 1300 x 1300 x 900: 21 x
         * 21 = 441 tiles: none. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1152, 704, 1024, 1, 22, 2, 6488064},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 12736, 64, 4096, 1, 22, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 1024, 1024, 2048, 1, 22, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1300, 1300, 900, 1, 22, 1, 256},
        /* 10 split inside 22's region (GK_GEMM_F32_SPLIT10_MIN_UNITS): 600 x 700 x 4096, 5 x 3 = 15 of
         * 10's tiles, S = min(ceil(128 / 15) = 9, 4096 / 512 = 8) = 8, kc = 512: 120 units, C covers
         * 420,000 of 491,520 (> 4/5): 10, 8 x 600 x 700 x 4 = 13,440,000 bytes. Stored n x k: 22, 10 x 11
         * = 110 tiles, S = min(4, 64) = 4, kc = 1024: 6,720,000 bytes. 384 x 1024 x 4096: 12 tiles x 8 =
         * 96 units: 22, 96 tiles, S = min(5, 64) = 5, kc = 820 -> 832, S = 5: 7,864,320 bytes. 1000 x 300
         * x 4096: 16 tiles x 8, but C covers 300,000 of 524,288: 22, 80 tiles, S = min(6, 64) = 6, kc =
         * 683 -> 704, S = 6: 7,200,000 bytes. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 600, 700, 4096, 1, 10, 8, 13440000},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 600, 700, 4096, 1, 22, 4, 6720000},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 384, 1024, 4096, 1, 22, 5, 7864320},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1000, 300, 4096, 1, 22, 6, 7200000},
        /* Past 2^32 where 10 would split k but its tiles are not well filled: 22 (its own split).
         * 2000 x 300 x 8192: 16 x 2 of 10's tiles, C covers 600,000 of 1,048,576; 22, 32 x 5 = 160 tiles,
         * S = min(3, 32) = 3, kc = 2731 -> 2752, S = 3: 7,200,000 bytes. 865 x 950 x 6788 (ldb 950):
         * 22, 210 tiles: none. 1024 x 1024 x 2048 as stored (2^31): 8 x 4 = 32 of 10's tiles, S = min(4,
         * 4) = 4, 128 units: 10, kc = 512, 16 MiB. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 2000, 300, 8192, 1, 22, 3, 7200000},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 865, 950, 6788, 1, 22, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 1024, 2048, 1, 10, 4, 16777216},
        /* 1024^3 TF32 (12): k = 1024 < 2048, no split; 1024 x 1024 x 2048: 4 x 8 = 32 tiles,
         * S = min(4, 4) = 4, kc = 512: 16 MiB. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 1024, 1024, 1024, 1, 12, 1, 256},
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 1024, 1024, 2048, 1, 12, 4, 16777216},
        /* k = 1020 < GK_GEMM_SPLIT21_MIN_K: 21 would not split k, so 12's narrow tiles (2^26, n 256), no
         * split (k < 2048); with n = 16 (below GK_GEMM_TF32_WGMMA_MIN_N) 21, unsplit. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 256, 256, 1020, 1, 12, 1, 256},
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 2048, 16, 1020, 1, 21, 1, 256},
        /* 64 tiles of 12 (2048 x 1024): no split. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 2048, 1024, 65536, 1, 12, 1, 256},
        /* 63 tiles (2048 x 1000 -> 8 x 8 = 64; 1792 x 1024 -> 7 x 8 = 56): S = ceil(128 / 56) = 3. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 1792, 1024, 65536, 1, 12, 3, 3 * 1792 * 1024 * 4},
        /* A batch: no split. */
        {GK_GEMM_COMPUTE_TF32, GK_GEMM_OP_N, 256, 256, 65536, 2, 12, 1, 256},
        /* bf16 on rows of 16 bytes (lda = k, ldb = n or k, multiples of 8): 23 up to 2^30, and past it
         * where 23 splits k; else 17, which splits by its own rule.
         * 23 split, 256 x 256 x 65536 (2^32): 2 x 4 = 8 tiles of 128 x 64, S = min(132 / 8 = 16,
         * 65536 / 512 = 128) = 16, kc = 4096: 16 x 256 x 256 floats = 4 MiB. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 256, 65536, 1, 23, 16, 4194304},
        /* 23, 384 x 384 x 4096 (2^29.2): 3 x 6 = 18 tiles, S = min(132 / 18 = 7, 4096 / 512 = 8) = 7,
         * kc = ceil(4096 / 7) = 586 -> 640, S = ceil(4096 / 640) = 7 (the last slice 256 deep):
         * 7 x 384 x 384 x 4 = 4,128,768 bytes. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 384, 384, 4096, 1, 23, 7, 4128768},
        /* k = 2048 = GK_GEMM_SPLIT23_MIN_K: S = min(7, 2048 / 512 = 4) = 4, kc = 512:
         * 4 x 384 x 384 x 4 = 2,359,296 bytes; k = 2040 (lda 2040): no split. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 384, 384, 2048, 1, 23, 4, 2359296},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 384, 384, 2040, 1, 23, 1, 256},
        /* Odd rows (ldb 383): 21, 6 x 6 = 36 tiles of 64 x 64, S = min(528 / 36 = 14, 4096 / 64 = 64) = 14,
         * kc = ceil(4096 / 14) = 293 -> 320, S = ceil(4096 / 320) = 13 (the last slice 256 deep):
         * 13 x 384 x 383 x 4 = 7,647,744 bytes. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 384, 383, 4096, 1, 21, 13, 7647744},
        /* nt, 100 x 3000 x 5000 (2^30.5, past 2^30 but split): 1 x 47 = 47 tiles, S = min(132 / 47 = 2,
         * 5000 / 512 = 9) = 2, kc = 2500 -> 2560, S = 2 (the last slice 2440 deep):
         * 2 x 100 x 3000 x 4 = 2,400,000 bytes (9,375 granules). */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 100, 3000, 5000, 1, 23, 2, 2400000},
        /* 768 x 704 x 4096 (2^31.04): 6 x 11 = 66 tiles (GK_GEMM_SPLIT23_CTAS / 2), S = min(2, 8) = 2,
         * kc = 2048: 2 x 768 x 704 x 4 = 4,325,376 bytes. 769 x 704: 7 x 11 = 77 tiles, no split by 23:
         * 17, 4 x 3 = 12 pairs of 128 x 256 tiles, S = min(64 / 12 = 5, 8) = 5, kc = 820 -> 832,
         * S = ceil(4096 / 832) = 5 (the last slice 768 deep): 5 x 769 x 704 x 4 = 10,827,520 bytes. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 768, 704, 4096, 1, 23, 2, 4325376},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 769, 704, 4096, 1, 17, 5, 10827520},
        /* 17 (2^32; 8 x 16 = 128 tiles of 23's), 4 x 4 = 16 pairs: S = min(64 / 16 = 4, 4096 / 512 = 8) = 4,
         * kc = 1024: 4 x 1024 x 1024 x 4 = 16 MiB; k = 5000: kc = 1250 -> 1280, S = 4 (the last slice
         * 1160 deep), the same 16 MiB. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 1024, 4096, 1, 17, 4, 16777216},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 1024, 5000, 1, 17, 4, 16777216},
        /* nt, 128 x 8192 x 8192 (2^33): one wave of 23 (1 x 128 tiles of 128 x 64), unsplit. 257 rows
         * (past GK_GEMM_WGMMA_WAVE_MAX_M): 17, 2 x 32 = 64 pairs, more than it splits. 128 x 8192 x 8192
         * in a batch of 2: 2 x 64 = 128 tiles of 128 x 128, one wave of 23; of 3 (192): 17, and a batch
         * is not split. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 128, 8192, 8192, 1, 23, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 257, 8192, 8192, 1, 17, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 128, 8192, 8192, 2, 23, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 128, 8192, 8192, 3, 17, 1, 256},
        /* 512 x 4352: 2 x 17 = 34 pairs, more than GK_GEMM_SPLIT16_MAX_PAIRS: no split. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 512, 4352, 8192, 1, 17, 1, 256},
        /* 256 x 256 x 2047 nt (lda = ldb = 2047: odd rows): 21, 16 tiles of 64 x 64: S = min(528 / 16 = 33,
         * 2047 / 64 = 31) = 31, kc = 67 -> 128, S = ceil(2047 / 128) = 16: 16 x 256 x 256 x 4 = 4,194,304
         * bytes. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_T, 256, 256, 2047, 1, 21, 16, 4194304},
        /* 991 x 132 x 3663 (odd rows): 16 x 3 = 48 tiles: S = min(11, 57) = 11, kc = 333 -> 384, S = 10:
         * 10 x 991 x 132 x 4 = 5,232,480 -> 5,232,640. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 991, 132, 3663, 1, 21, 10, 5232640},
        /* 1024 x 255 x 1024 (ldb 255: odd rows): 21, 16 x 4 = 64 tiles: S = min(8, 16) = 8, kc = 128:
         * 8 x 1024 x 255 x 4 = 8,355,840 bytes. With ldb 256: 23, k < GK_GEMM_SPLIT23_MIN_K, no split. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 255, 1024, 1, 21, 8, 8355840},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 256, 1024, 1, 23, 1, 256},
        /* More than 132 tiles: slices of at least 1024 (21, odd rows too), 256 (22, up to 198 tiles). 1024^3 fp32
         * (22, 256 tiles): none; 865 x 950 x 6788 bf16 (21: lda 6788, odd rows; 210 tiles): S = min(2, 6) = 2, kc = 3394 ->
         * 3456: 2 x 865 x 950 x 4 = 6,574,000 -> 6,574,080. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 1024, 1024, 1, 22, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 865, 950, 6788, 1, 21, 2, 6574080},
        /* Where 21 does not split odd rows, 23 on padded copies (2^21 or more, k >= 160): k = 1023 <
         * GK_GEMM_SPLIT21_MIN_K (lda 1023: A's copy 256 x 1024 x 2 = 524,288 bytes); a batch (23 on rows
         * of 16 bytes; 255 columns: B's copy, shared, 1024 x 256 x 2 = 524,288); 18 x 16 = 288 tiles >
         * 264 (lda 2047: A's copy 1089 x 2048 x 2 = 4,460,544). */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 256, 1023, 1, 23, 1, 524288},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 256, 4096, 2, 23, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 256, 255, 1024, 2, 23, 1, 524288},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1089, 1024, 2047, 1, 23, 1, 4460544},
        /* 1024 x 1024 x 1032 (past 2^30): 17, k below GK_GEMM_SPLIT16_MIN_K, no split; 1024^3 (2^30):
         * 23, k below GK_GEMM_SPLIT23_MIN_K, no split. */
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 1024, 1032, 1, 17, 1, 256},
        {GK_GEMM_COMPUTE_DEFAULT, GK_GEMM_OP_N, 1024, 1024, 1024, 1, 23, 1, 256},
    };
    for (size_t i = 0; i < sizeof sc / sizeof sc[0]; ++i) {
        /* BF16 for 17, 21 and 23 with the default compute (21 with TF32: F32), F32 for the others. */
        const int b16 = (sc[i].id == 17 || sc[i].id == 21 || sc[i].id == 23) && sc[i].compute == GK_GEMM_COMPUTE_DEFAULT;
        gk_gemm_desc e = gk_gemm_desc_init(b16 ? GK_GEMM_TYPE_BF16 : GK_GEMM_TYPE_F32, sc[i].m, sc[i].n, sc[i].k);
        e.compute = sc[i].compute, e.op_b = sc[i].op_b, e.batch = sc[i].batch, e.stride_c = sc[i].m * sc[i].n;
        int pid = -1;
        size_t splits = 0, bytes = 0;
        EXPECT(gk_gemm_auto_variant(&e, &pid, &splits), GK_SUCCESS);
        EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
        CHECK(pid == sc[i].id && splits == sc[i].splits && bytes == sc[i].bytes,
              "split case %zu: variant %d, %zu slices, %zu bytes (want %d, %zu, %zu)", i, pid, splits, bytes,
              sc[i].id, sc[i].splits, sc[i].bytes);
        /* An explicit variant never splits: its own workspace, one granule
         * except the three cases of 23 on padded copies above (whose
         * copies are all AUTO's workspace too). */
        EXPECT(gk_gemm_ex(sc[i].id, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
        CHECK(bytes == expected_workspace(sc[i].id, &e) && (sc[i].splits > 1 || bytes == sc[i].bytes),
              "split case %zu, variant %d named: %zu bytes", i, sc[i].id, bytes);
    }
    /* 23's edge at GK_GEMM_SPLIT23_MIN_K with A stored k x m (lda m = 384, ldb n = 384: rows of 16
     * bytes at any k): k = 2047, no split (256 bytes); k = 2048, 3 x 6 = 18 tiles, S = min(7, 4) = 4,
     * kc = 512: 4 x 384 x 384 x 4 = 2,359,296 bytes; in either 16-bit type. */
    for (int ti = 0; ti < 2; ++ti) {
        gk_gemm_desc f = gk_gemm_desc_init(ti ? GK_GEMM_TYPE_F16 : GK_GEMM_TYPE_BF16, 384, 384, 2047);
        f.op_a = GK_GEMM_OP_T;
        for (int edge = 0; edge < 2; ++edge, ++f.k) {
            int fid = -1;
            size_t fsplits = 0, fbytes = 0;
            EXPECT(gk_gemm_auto_variant(&f, &fid, &fsplits), GK_SUCCESS);
            EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &f, NULL, NULL, NULL, NULL, &fbytes, 0), GK_SUCCESS);
            CHECK(fid == 23 && fsplits == (edge ? 4u : 1u) && fbytes == (edge ? 2359296u : 256u),
                  "%s 384 x 384 x %zu tn: variant %d, %zu slices, %zu bytes", gk_gemm_type_name(f.type), f.k, fid,
                  fsplits, fbytes);
        }
    }
    /* A split tn product: the partials, then variant 12's copies of A's slices (64 copies of 256 x 1024). */
    gk_gemm_desc e = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 256, 256, 65536);
    e.compute = GK_GEMM_COMPUTE_TF32, e.op_a = GK_GEMM_OP_T;
    size_t bytes = 0;
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
    CHECK(bytes == 16777216 + (size_t)64 * 256 * 1024 * 4, "split tn: %zu bytes", bytes);
    /* A split call checks its workspace like any other: one granule short is
     * too small (before any pointer is looked at), and nothing is written. */
    static _Alignas(256) unsigned char wsmall[256];
    size_t short_by_one = bytes - 256;
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &e, NULL, NULL, NULL, wsmall, &short_by_one, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
    CHECK(short_by_one == bytes - 256, "too small: *workspace_bytes untouched");
    size_t enough = bytes;
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &e, NULL, NULL, NULL, wsmall + 8, &enough, 0), GK_ERROR_INVALID_ARGUMENT);
    e.m = 0; /* nothing to compute: success, whatever the pointers */
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &e, NULL, NULL, NULL, wsmall, &enough, 0), GK_SUCCESS);
}

int main(void)
{
    test_reference();
    test_table();
    test_arguments();
    test_bf16_table();
    test_bf16_reference();
    test_bf16_arguments();
    test_fp16_reference();
    test_reference_ex();
    test_desc();
    test_ex_arguments();
    test_auto();
    return check_summary("test_gemm_cpu");
}
