/* CPU tests of the reduce module: the CPU references against known answers,
 * the variant table's consistency with itself and with reduce/kernels/, and
 * argument checking (every rejected call launches nothing and writes
 * nothing, so none of this needs a GPU). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gk/reduce.h"
#include "gk/verify.h"
#include "reduce_ref.h"
#include "test_util.h"
#include "variants.h" /* the internal table: each row's functions */

/* The name of variant `id`, NULL when there is none (gk_test_kernel_files). */
static const char *row_name(int id)
{
    const gk_reduce_variant *v = gk_reduce_find_variant(id);
    return v ? v->name : NULL;
}

static void test_references(void)
{
    float x[100];
    int32_t xi[100];
    for (int i = 0; i < 100; ++i) x[i] = (float)(i + 1), xi[i] = i + 1;
    x[37] = -3.5f;
    gk_ref_f32 r = gk_reduce_ref_f32(x, 100, GK_REDUCE_SUM);
    CHECK(r.value == 5050.0 - 38.0 - 3.5 && r.sum_abs == 5050.0 - 38.0 + 3.5 && r.count == 100, "sum %g abs %g",
          r.value, r.sum_abs);
    CHECK(gk_reduce_ref_f32(x, 100, GK_REDUCE_MAX).value == 100.0, "max");
    CHECK(gk_reduce_ref_f32(x, 100, GK_REDUCE_MIN).value == -3.5, "min");
    CHECK(gk_reduce_ref_f32(x, 0, GK_REDUCE_SUM).value == 0.0, "empty sum");
    CHECK(isinf(gk_reduce_ref_f32(x, 0, GK_REDUCE_MAX).value) && gk_reduce_ref_f32(x, 0, GK_REDUCE_MAX).value < 0,
          "empty max is -inf");
    CHECK(gk_reduce_ref_i32(xi, 100, GK_REDUCE_SUM) == 5050, "i32 sum");
    CHECK(gk_reduce_ref_i32(xi, 0, GK_REDUCE_MIN) == INT32_MAX && gk_reduce_ref_i32(xi, 0, GK_REDUCE_MAX) == INT32_MIN,
          "i32 identities");
    int32_t wrap[3] = {INT32_MAX, 1, 5};
    CHECK(gk_reduce_ref_i32(wrap, 2, GK_REDUCE_SUM) == INT32_MIN, "i32 sums wrap modulo 2^32");
    CHECK(gk_reduce_ref_i32(wrap, 3, GK_REDUCE_SUM) == INT32_MIN + 5, "and keep going");

    /* Partials: 10 elements 1..10, tile 4. Chunked into 3 blocks: 1-4, 5-8,
     * 9-10. Tiled round-robin over 2 blocks: tiles {1-4, 9-10} and {5-8}. */
    int32_t p[3];
    gk_reduce_ref_partials_i32(xi, 10, GK_PARTITION_CHUNKED, 4, 3, GK_REDUCE_SUM, p);
    CHECK(p[0] == 10 && p[1] == 26 && p[2] == 19, "chunked %d %d %d", p[0], p[1], p[2]);
    gk_reduce_ref_partials_i32(xi, 10, GK_PARTITION_TILED, 4, 2, GK_REDUCE_SUM, p);
    CHECK(p[0] == 29 && p[1] == 26, "tiled %d %d", p[0], p[1]);
    gk_ref_f32 pf[2];
    gk_reduce_ref_partials_f32(x, 10, GK_PARTITION_TILED, 4, 2, GK_REDUCE_MAX, pf);
    CHECK(pf[0].value == 10.0 && pf[1].value == 8.0 && pf[0].count == 6 && pf[1].count == 4, "tiled max");
}

/* The rule both the GPU tests and the bench apply to a result. */
static void test_check_result(void)
{
    float ninf = -INFINITY, zero = 0.0f, nan = NAN;
    gk_ref_f32 empty_max = gk_reduce_ref_f32(NULL, 0, GK_REDUCE_MAX);
    CHECK(gk_reduce_check_result(GK_F32, GK_REDUCE_MAX, 0, &ninf, &empty_max, 0, "empty", NULL), "-inf is the max of nothing");
    CHECK(!gk_reduce_check_result(GK_F32, GK_REDUCE_MAX, 0, &zero, &empty_max, 0, "empty", NULL), "0 is not");
    float x[1000];
    for (int i = 0; i < 1000; ++i) x[i] = (i % 7 - 3) * 0.25f + 0.125f;
    gk_ref_f32 r = gk_reduce_ref_f32(x, 1000, GK_REDUCE_SUM);
    double tol = gk_sum_tolerance(1000, r.sum_abs, r.value);
    float near = (float)(r.value + 0.5 * tol), far = (float)(r.value + 3.0 * tol);
    CHECK(gk_reduce_check_result(GK_F32, GK_REDUCE_SUM, 1000, &near, &r, 0, "near", NULL), "inside the tolerance");
    CHECK(!gk_reduce_check_result(GK_F32, GK_REDUCE_SUM, 1000, &far, &r, 0, "far", NULL), "outside the tolerance");
    CHECK(!gk_reduce_check_result(GK_F32, GK_REDUCE_SUM, 1000, &nan, &r, 0, "nan", NULL), "NaN never passes");
    gk_ref_f32 m = gk_reduce_ref_f32(x, 1000, GK_REDUCE_MAX);
    float mx = (float)m.value, off = nextafterf(mx, 0.0f);
    CHECK(gk_reduce_check_result(GK_F32, GK_REDUCE_MAX, 1000, &mx, &m, 0, "max", NULL), "max exact");
    CHECK(!gk_reduce_check_result(GK_F32, GK_REDUCE_MAX, 1000, &off, &m, 0, "max", NULL), "max one ulp off fails");
    int32_t a = 41, b = 42;
    CHECK(gk_reduce_check_result(GK_I32, GK_REDUCE_SUM, 3, &b, NULL, 42, "i", NULL) &&
              !gk_reduce_check_result(GK_I32, GK_REDUCE_SUM, 3, &a, NULL, 42, "i", NULL),
          "ints exactly");
}

static void test_table(void)
{
    size_t count = gk_reduce_variant_count();
    const unsigned every_type = GK_REDUCE_DTYPE_BIT(GK_F32) | GK_REDUCE_DTYPE_BIT(GK_I32) |
                                GK_REDUCE_DTYPE_BIT(GK_U32) | GK_REDUCE_DTYPE_BIT(GK_F64) |
                                GK_REDUCE_DTYPE_BIT(GK_F16) | GK_REDUCE_DTYPE_BIT(GK_BF16) |
                                GK_REDUCE_DTYPE_BIT(GK_I64);
    const unsigned all_forms =
        GK_REDUCE_FORM_ARRAY | GK_REDUCE_FORM_ARG | GK_REDUCE_FORM_ROWS | GK_REDUCE_FORM_SEGMENTS;
    CHECK(count >= 1, "the ladder has %zu variants", count);
    CHECK(gk_reduce_variant_at(count) == NULL, "past the end");
    for (size_t i = 0; i < count; ++i) {
        const gk_reduce_variant *v = gk_reduce_variant_at(i);
        CHECK(v->id == (int)i + 1, "row %zu has id %d: ids are 1..N in order", i, v->id);
        CHECK(gk_reduce_find_variant(v->id) == v, "find %d", v->id);
        CHECK(v->name && v->name[0] && v->idea && v->idea[0], "row %d has a name and an idea", v->id);
        CHECK(v->forms != 0 && (v->forms & ~all_forms) == 0, "known forms, at least one (%d)", v->id);
        CHECK((v->dtypes & ~every_type) == 0 && (v->dtypes & GK_REDUCE_DTYPE_BIT(GK_F32)) &&
                  (v->dtypes & GK_REDUCE_DTYPE_BIT(GK_I32)),
              "known types, f32 and i32 among them (%d)", v->id);
        if (v->forms & GK_REDUCE_FORM_ARRAY)
            CHECK(v->ops & GK_REDUCE_OP_BIT(GK_REDUCE_SUM), "every whole-array variant sums (%d)", v->id);
        else
            CHECK(v->ops == 0, "ops are gk_reduce's: none without the array form (%d)", v->id);
        CHECK((v->ops & ~GK_REDUCE_ALL_OPS) == 0, "only known ops (%d)", v->id);
        const gk_reduce_row *row = gk_reduce_row_find(v->id);
        CHECK(row != NULL && &row->info == v, "the public description is the row's (%d)", v->id);
        CHECK(row->workspace != NULL, "row %d has its workspace function", v->id);
        CHECK((row->run != NULL) == !!(v->forms & GK_REDUCE_FORM_ARRAY), "run iff the array form (%d)", v->id);
        CHECK((row->arg != NULL) == !!(v->forms & GK_REDUCE_FORM_ARG), "arg iff the arg form (%d)", v->id);
        CHECK((row->rows != NULL) == !!(v->forms & GK_REDUCE_FORM_ROWS), "rows iff the rows form (%d)", v->id);
        CHECK((row->segments != NULL) == !!(v->forms & GK_REDUCE_FORM_SEGMENTS), "segments iff the form (%d)",
              v->id);
        CHECK((v->partition == GK_PARTITION_NONE) == (row->num_partials == NULL),
              "partials function iff partition (%d)", v->id);
        CHECK((v->partition == GK_PARTITION_NONE) == (v->partition_tile == 0), "tile iff partition (%d)", v->id);
        for (size_t j = 0; j < i; ++j)
            CHECK(strcmp(v->name, gk_reduce_variant_at(j)->name) != 0, "names unique (%s)", v->name);
        if (row->num_partials) {
            CHECK(row->num_partials(1) == 1, "one element, one block (%d)", v->id);
            if (v->partition == GK_PARTITION_CHUNKED)
                CHECK(row->num_partials(10 * v->partition_tile + 1) == 11, "chunks of the tile (%d)", v->id);
        }
    }
    CHECK(gk_reduce_find_variant(0) == NULL && gk_reduce_find_variant((int)count + 1) == NULL, "unknown ids");

    /* The best of each form is the last rung that does it, and it takes
     * every type and every operation. */
    unsigned forms[] = {GK_REDUCE_FORM_ARRAY, GK_REDUCE_FORM_ARG, GK_REDUCE_FORM_ROWS, GK_REDUCE_FORM_SEGMENTS};
    for (int f = 0; f < 4; ++f) {
        int best = gk_reduce_best_variant_for(forms[f]);
        const gk_reduce_variant *b = gk_reduce_find_variant(best);
        CHECK(b != NULL && (b->forms & forms[f]), "form %u has a best variant (%d)", forms[f], best);
        if (b == NULL) continue;
        CHECK(b->dtypes == every_type, "the best of form %u takes every type", forms[f]);
        for (int id = best + 1; id <= (int)count; ++id)
            CHECK(!(gk_reduce_find_variant(id)->forms & forms[f]), "no later rung does form %u (%d)", forms[f], id);
    }
    CHECK(gk_reduce_best_variant() == gk_reduce_best_variant_for(GK_REDUCE_FORM_ARRAY), "best = best array");
    CHECK(gk_reduce_find_variant(gk_reduce_best_variant())->ops == GK_REDUCE_ALL_OPS,
          "the best does sum, max and min");
    CHECK(gk_reduce_find_variant(gk_reduce_best_variant())->forms & GK_REDUCE_FORM_ARG,
          "and arg-max and arg-min");
    CHECK(gk_reduce_best_variant_for(0) == 0 && gk_reduce_best_variant_for(64) == 0, "no best for no form");

    /* One kernel file per row, named NN_<name>.cu, and no file without a row. */
    gk_test_table t = {"", row_name, count};
    gk_test_kernel_files(GK_REDUCE_KERNEL_DIR, &t, 1);
}

/* The references of every type: decoding, wrapping, the arg rules. */
static void test_typed_references(void)
{
    /* f16: 1.0 = 0x3c00, -2.5 = 0xc100, the smallest subnormal 2^-24 = 0x0001,
     * 65504 = 0x7bff, inf = 0x7c00. bf16: 1.0 = 0x3f80, -2.5 = 0xc020. */
    uint16_t h[5] = {0x3c00, 0xc100, 0x0001, 0x7bff, 0x7c00}, bf[2] = {0x3f80, 0xc020};
    CHECK(gk_reduce_elem_f64(GK_F16, h, 0) == 1.0 && gk_reduce_elem_f64(GK_F16, h, 1) == -2.5, "f16 decode");
    CHECK(gk_reduce_elem_f64(GK_F16, h, 2) == ldexp(1.0, -24) && gk_reduce_elem_f64(GK_F16, h, 3) == 65504.0,
          "f16 subnormal and largest");
    CHECK(isinf(gk_reduce_elem_f64(GK_F16, h, 4)), "f16 inf");
    CHECK(gk_reduce_elem_f64(GK_BF16, bf, 0) == 1.0 && gk_reduce_elem_f64(GK_BF16, bf, 1) == -2.5, "bf16 decode");
    uint16_t back[5];
    for (int i = 0; i < 5; ++i) gk_reduce_store(GK_F16, back, (size_t)i, gk_reduce_elem_f64(GK_F16, h, (size_t)i));
    CHECK(memcmp(back, h, sizeof h) == 0, "f16 store is decode's inverse");
    /* Sums of halves are f32 sums: 65504 + 65504 overflows f16, not the result. */
    uint16_t big[2] = {0x7bff, 0x7bff};
    CHECK(gk_reduce_ref_typed(GK_F16, GK_REDUCE_SUM, 0, big, 2).f == 131008.0, "f16 sum past 65504");

    uint32_t u[3] = {0xffffffffu, 2u, 7u};
    CHECK(gk_reduce_ref_typed(GK_U32, GK_REDUCE_SUM, 0, u, 2).i == 1, "u32 sums wrap modulo 2^32");
    CHECK(gk_reduce_ref_typed(GK_U32, GK_REDUCE_MAX, 0, u, 3).i == 0xffffffffLL, "u32 max is unsigned");
    CHECK(gk_reduce_ref_typed(GK_U32, GK_REDUCE_MIN, 0, u, 0).i == 0xffffffffLL, "u32 min of nothing");
    int64_t l[2] = {INT64_MAX, 3};
    CHECK(gk_reduce_ref_typed(GK_I64, GK_REDUCE_SUM, 0, l, 2).i == INT64_MIN + 2, "i64 sums wrap modulo 2^64");
    double d[3] = {1e16, 1.0, -1e16};
    CHECK(gk_reduce_ref_typed(GK_F64, GK_REDUCE_SUM, 0, d, 3).f == 1.0, "compensated f64 reference");

    /* Arg: ties at the start, the end, both; NaN first; -inf only. */
    float a[6] = {5, 1, 5, 2, 3, 5};
    gk_ref_value r = gk_reduce_ref_typed(GK_F32, GK_REDUCE_MAX, 1, a, 6);
    CHECK(r.f == 5.0 && r.index == 0, "arg-max: first of three ties (%zu)", r.index);
    r = gk_reduce_ref_typed(GK_F32, GK_REDUCE_MIN, 1, a, 6);
    CHECK(r.f == 1.0 && r.index == 1, "arg-min");
    float b[4] = {1, 2, NAN, NAN};
    r = gk_reduce_ref_typed(GK_F32, GK_REDUCE_MIN, 1, b, 4);
    CHECK(isnan(r.f) && r.index == 2, "a NaN wins arg-min too, the first one");
    CHECK(gk_reduce_ref_typed(GK_F32, GK_REDUCE_MAX, 0, b, 4).f == 2.0, "plain max: a NaN loses");
    float c[3] = {-INFINITY, -INFINITY, -INFINITY};
    r = gk_reduce_ref_typed(GK_F32, GK_REDUCE_MAX, 1, c, 3);
    CHECK(isinf(r.f) && r.index == 0, "arg-max of -inf only is index 0");
    r = gk_reduce_ref_typed(GK_F32, GK_REDUCE_MAX, 1, c, 0);
    CHECK(r.index == SIZE_MAX, "arg of nothing: SIZE_MAX");
    int32_t m[3] = {INT32_MIN, INT32_MIN, 4};
    r = gk_reduce_ref_typed(GK_I32, GK_REDUCE_MIN, 1, m, 3);
    CHECK(r.i == INT32_MIN && r.index == 0, "i32 arg-min at the identity's value");

    /* The check: exact for arg, the f64 tolerance can fail, NaN only where legal. */
    float got = 5.0f, nanf_ = NAN;
    r = gk_reduce_ref_typed(GK_F32, GK_REDUCE_MAX, 1, a, 6);
    CHECK(gk_reduce_check_typed(GK_F32, GK_REDUCE_MAX, 1, &got, 0, &r, "arg", NULL), "arg match");
    CHECK(!gk_reduce_check_typed(GK_F32, GK_REDUCE_MAX, 1, &got, 2, &r, "arg", NULL), "a later tie is wrong");
    r = gk_reduce_ref_typed(GK_F32, GK_REDUCE_MIN, 1, b, 4);
    CHECK(gk_reduce_check_typed(GK_F32, GK_REDUCE_MIN, 1, &nanf_, 2, &r, "nan", NULL), "NaN answer matches NaN");
    double x[1000];
    gk_reduce_fill(GK_F64, x, 1000, 7);
    r = gk_reduce_ref_typed(GK_F64, GK_REDUCE_SUM, 0, x, 1000);
    double tol = gk_reduce_tolerance_f64(1000, r.sum_abs, r.f), near = r.f + 0.5 * tol, far = r.f + 3 * tol;
    CHECK(tol > 0 && tol < 1e-9 * r.sum_abs, "an f64 tolerance is tight (%g of %g)", tol, r.sum_abs);
    CHECK(gk_reduce_check_typed(GK_F64, GK_REDUCE_SUM, 0, &near, 0, &r, "near", NULL), "f64 inside");
    CHECK(!gk_reduce_check_typed(GK_F64, GK_REDUCE_SUM, 0, &far, 0, &r, "far", NULL), "f64 outside");
    uint16_t hf[64];
    gk_reduce_fill(GK_F16, hf, 64, 3);
    int distinct = 0;
    for (int i = 1; i < 64; ++i) distinct += hf[i] != hf[0];
    CHECK(distinct > 32, "random halves differ");
    CHECK(gk_reduce_result_dtype(GK_F16) == GK_F32 && gk_reduce_result_dtype(GK_BF16) == GK_F32 &&
              gk_reduce_result_dtype(GK_I64) == GK_I64,
          "result types");
}

/* The arg, rows and segments forms: every rejection before any launch. */
static void test_form_arguments(void)
{
    static _Alignas(16) float in[64], out[64];
    static size_t idx[64], beg[4], end_[4];
    static int bad;
    static _Alignas(16) unsigned char ws[1 << 18]; /* more than any query here returns */
    size_t bytes, big = sizeof ws;
    int arg = gk_reduce_best_variant_for(GK_REDUCE_FORM_ARG);
    int rows = gk_reduce_best_variant_for(GK_REDUCE_FORM_ROWS);
    int seg = gk_reduce_best_variant_for(GK_REDUCE_FORM_SEGMENTS);

    /* Queries succeed for every type of the best variants. */
    gk_dtype types[] = {GK_F32, GK_I32, GK_U32, GK_F64, GK_F16, GK_BF16, GK_I64};
    for (int t = 0; t < 7; ++t) {
        bytes = 0;
        EXPECT(gk_reduce(gk_reduce_best_variant(), types[t], GK_REDUCE_SUM, NULL, 100, NULL, NULL, &bytes, 0),
               GK_SUCCESS);
        CHECK(bytes > 0 && bytes % 256 == 0, "array query %s", gk_dtype_name(types[t]));
        EXPECT(gk_reduce_arg(arg, types[t], GK_REDUCE_MAX, NULL, 100, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
        EXPECT(gk_reduce_rows(rows, types[t], GK_REDUCE_MIN, NULL, 10, 10, 10, NULL, NULL, NULL, &bytes, 0),
               GK_SUCCESS);
        EXPECT(gk_reduce_segments(seg, types[t], GK_REDUCE_SUM, NULL, 100, 4, NULL, NULL, NULL, NULL, NULL, NULL,
                                  &bytes, 0),
               GK_SUCCESS);
    }
    /* Forms a variant does not have; types an old variant does not take. */
    REJECT(gk_reduce_arg(11, GK_F32, GK_REDUCE_MAX, in, 64, out, idx, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    REJECT(gk_reduce(rows, GK_F32, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    REJECT(gk_reduce_rows(arg, GK_F32, GK_REDUCE_SUM, in, 8, 8, 8, out, NULL, NULL, &bytes, 0),
           GK_ERROR_UNSUPPORTED);
    REJECT(gk_reduce_segments(11, GK_F32, GK_REDUCE_SUM, in, 64, 1, beg, end_, out, NULL, NULL, NULL, &bytes, 0),
           GK_ERROR_UNSUPPORTED);
    REJECT(gk_reduce(12, GK_F16, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce(11, GK_F64, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce(arg, GK_U8, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce(arg, GK_U16, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce(arg, (gk_dtype)40, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    /* Arg takes max or min only; an index goes with max or min only. */
    REJECT(gk_reduce_arg(arg, GK_F32, GK_REDUCE_SUM, in, 64, out, idx, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce_arg(arg, GK_F32, (gk_reduce_op)7, in, 64, out, idx, NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, in, 8, 8, 8, out, idx, NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce_segments(seg, GK_F32, GK_REDUCE_SUM, in, 64, 1, beg, end_, out, idx, NULL, NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce_arg(arg, GK_F32, GK_REDUCE_MAX, in, GK_REDUCE_MAX_N + 1, out, idx, NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    /* Rows: ld below cols; a span past GK_REDUCE_MAX_N, or one whose product overflows. */
    REJECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, in, 8, 8, 7, out, NULL, NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, in, (size_t)1 << 20, 1 << 18, (size_t)1 << 19, out, NULL,
                          NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, in, SIZE_MAX / 2, 2, SIZE_MAX / 4, out, NULL, NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    /* ... but the largest span is taken: 2^18 rows of 2^20, exactly 2^38. */
    EXPECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, NULL, (size_t)1 << 18, (size_t)1 << 20, (size_t)1 << 20,
                          NULL, NULL, NULL, &bytes, 0),
           GK_SUCCESS);
    REJECT(gk_reduce_segments(seg, GK_F32, GK_REDUCE_SUM, in, GK_REDUCE_MAX_N + 1, 1, beg, end_, out, NULL, NULL,
                              NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, in, 8, 8, 8, out, NULL, NULL, NULL, 0), GK_ERROR_NULL_POINTER);

    /* Real calls: NULLs, misalignment; *workspace_bytes untouched. */
    bytes = big;
    EXPECT(gk_reduce_arg(arg, GK_F32, GK_REDUCE_MAX, in, 64, out, NULL, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce_arg(arg, GK_F32, GK_REDUCE_MAX, in, 64, NULL, idx, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce_arg(arg, GK_F32, GK_REDUCE_MAX, NULL, 64, out, idx, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce_arg(arg, GK_F32, GK_REDUCE_MAX, in, 64, out, (size_t *)((char *)idx + 4), ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce_arg(arg, GK_F64, GK_REDUCE_MAX, in, 8, (char *)out + 4, idx, ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce_arg(arg, GK_F16, GK_REDUCE_MAX, (char *)in + 1, 8, out, idx, ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce(arg, GK_F16, GK_REDUCE_SUM, in, 8, (char *)out + 2, ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT); /* an f16 sum is an f32: 4-byte aligned */
    EXPECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, in, 8, 8, 8, NULL, NULL, ws, &bytes, 0),
           GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, NULL, 8, 8, 8, out, NULL, ws, &bytes, 0),
           GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce_segments(seg, GK_F32, GK_REDUCE_SUM, in, 64, 2, NULL, end_, out, NULL, NULL, ws, &bytes, 0),
           GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce_segments(seg, GK_F32, GK_REDUCE_SUM, in, 64, 2, beg, end_, out, NULL,
                              (int *)((char *)&bad + 1), ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce_segments(seg, GK_F32, GK_REDUCE_SUM, in, 64, 2, (const size_t *)((const char *)beg + 4), end_,
                              out, NULL, NULL, ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce_rows(rows, GK_F32, GK_REDUCE_SUM, in, 8, 8, 8, out, NULL, ws + 8, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    CHECK(bytes == big, "*workspace_bytes untouched by real calls");
}

static void test_arguments(void)
{
    /* Host buffers stand in for device pointers: every call below must be
     * rejected before anything would dereference or launch on them. */
    static float in[64], out[4], partials[64];
    static _Alignas(16) unsigned char ws[1 << 16];
    size_t bytes;

    EXPECT(gk_reduce(0, GK_F32, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    gk_status where = gk_reduce(0, GK_F32, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0);
    CHECK(where.file != NULL && strcmp(where.file, "reduce/reduce.c") == 0,
          "a status names its file from the source root, not this machine's path: %s", where.file);
    EXPECT(gk_reduce((int)gk_reduce_variant_count() + 1, GK_F32, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0),
           GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_reduce(-1, GK_F32, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    EXPECT(gk_reduce(4, (gk_dtype)99, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce(4, GK_U32, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce(4, GK_U8, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce(4, GK_F32, (gk_reduce_op)3, in, 64, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce(1, GK_F32, GK_REDUCE_MAX, in, 64, out, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    EXPECT(gk_reduce(10, GK_I32, GK_REDUCE_MIN, in, 64, out, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    EXPECT(gk_reduce(4, GK_F32, GK_REDUCE_SUM, in, 64, out, NULL, NULL, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce(4, GK_F32, GK_REDUCE_SUM, in, GK_REDUCE_MAX_N + 1, out, NULL, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);

    /* The query: every variant, many n; the size never depends on the GPU,
     * is never 0 and is a whole number of 256-byte granules. Pointers may be
     * NULL in the query. */
    size_t ns[] = {0, 1, 257, 65537, (size_t)1 << 31, GK_REDUCE_MAX_N};
    for (size_t i = 0; i < gk_reduce_variant_count(); ++i) {
        int id = gk_reduce_variant_at(i)->id;
        if (!(gk_reduce_variant_at(i)->forms & GK_REDUCE_FORM_ARRAY)) continue;
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
            bytes = 0;
            EXPECT(gk_reduce(id, GK_I32, GK_REDUCE_SUM, NULL, ns[k], NULL, NULL, &bytes, 0), GK_SUCCESS);
            CHECK(bytes > 0 && bytes % 256 == 0, "variant %d n=%zu: %zu bytes", id, ns[k], bytes);
        }
    }
    /* Chunked variants need a level per pass: for 2^31 elements and 256-element
     * blocks, 2^23 + 2^15 + 2^7 partials. */
    EXPECT(gk_reduce(4, GK_F32, GK_REDUCE_SUM, NULL, (size_t)1 << 31, NULL, NULL, &bytes, 0), GK_SUCCESS);
    CHECK(bytes == ((size_t)1 << 23) * 4 + ((size_t)1 << 15) * 4 + 512, "variant 4 at 2^31: %zu bytes", bytes);

    /* Everything below is rejected and must leave *workspace_bytes alone. */
    size_t need;
    gk_reduce(4, GK_F32, GK_REDUCE_SUM, in, 1 << 20, out, NULL, &need, 0);
    REJECT(gk_reduce(99, GK_F32, GK_REDUCE_SUM, in, 64, out, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    bytes = need - 1;
    EXPECT(gk_reduce(4, GK_F32, GK_REDUCE_SUM, in, 1 << 20, out, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
    CHECK(bytes == need - 1, "too small: *workspace_bytes untouched");
    size_t big = sizeof ws;
    bytes = big;
    EXPECT(gk_reduce(4, GK_F32, GK_REDUCE_SUM, in, 64, NULL, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce(4, GK_F32, GK_REDUCE_SUM, NULL, 64, out, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce(11, GK_F32, GK_REDUCE_SUM, (const char *)in + 2, 64, out, ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce(11, GK_F32, GK_REDUCE_SUM, in, 64, (char *)out + 1, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce(11, GK_F32, GK_REDUCE_SUM, in, 64, out, ws + 8, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    CHECK(bytes == big, "*workspace_bytes untouched by real calls");

    /* Partials: only for variants with a partition, and only into an array
     * that is large enough. */
    size_t m = 0;
    EXPECT(gk_reduce_num_partials(4, 1000, &m), GK_SUCCESS);
    CHECK(m == 4, "1000 elements in 256-element chunks: 4 partials (%zu)", m);
    EXPECT(gk_reduce_num_partials(5, 1000, &m), GK_SUCCESS);
    CHECK(m == 2, "1000 elements in 512-element chunks: 2 partials (%zu)", m);
    EXPECT(gk_reduce_num_partials(9, (size_t)1 << 30, &m), GK_SUCCESS);
    CHECK(m == 1024, "grid-stride: 1024 blocks (%zu)", m);
    EXPECT(gk_reduce_num_partials(9, 0, &m), GK_SUCCESS);
    CHECK(m == 0, "no elements, no partials");
    EXPECT(gk_reduce_num_partials(11, 1000, &m), GK_ERROR_UNSUPPORTED);
    EXPECT(gk_reduce_num_partials(4, 1000, NULL), GK_ERROR_NULL_POINTER);
    EXPECT(gk_reduce_partials(1, GK_F32, GK_REDUCE_SUM, in, 64, out, partials, 64, NULL, &bytes, 0),
           GK_ERROR_UNSUPPORTED);
    EXPECT(gk_reduce_partials(11, GK_F32, GK_REDUCE_SUM, in, 64, out, partials, 64, NULL, &bytes, 0),
           GK_ERROR_UNSUPPORTED);
    bytes = big;
    EXPECT(gk_reduce_partials(4, GK_F32, GK_REDUCE_SUM, in, 1000, out, partials, 3, ws, &bytes, 0),
           GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_reduce_partials(4, GK_F32, GK_REDUCE_SUM, in, 1000, out, NULL, 4, ws, &bytes, 0),
           GK_ERROR_NULL_POINTER);
}

int main(void)
{
    test_references();
    test_check_result();
    test_table();
    test_arguments();
    test_typed_references();
    test_form_arguments();
    return check_summary("test_reduce_cpu");
}
