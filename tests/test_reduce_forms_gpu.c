/* GPU tests of the reduce module's other types and forms: every type of the
 * variants that take more than f32 and i32 (whole arrays), arg-max and
 * arg-min, rows and segments, and determinism.
 *
 * Each call: fresh random input (a new seed every run, printed, replayable
 * with --seed), placed at every element offset from a 16-byte boundary in
 * turn, outputs poisoned (values 0xff, indices 0xa5, and one slot past the
 * last output that must stay poisoned), then every result compared with the
 * CPU reference (reduce_ref.h): f32-result sums (f32, f16, bf16) within
 * gk_sum_tolerance, f64 sums within gk_reduce_tolerance_f64, everything else
 * exactly, indices exactly.
 *
 *   array     variants whose dtypes go beyond f32/i32 (test_reduce_gpu runs
 *             f32 and i32 on every variant): every type x sum/max/min.
 *   arg       variants with the arg form: every type x max/min, random
 *             data, then ties planted at the start, the end and both, NaN
 *             (first NaN wins) and infinities, and all elements equal.
 *   rows      variants with the rows form: every type x 5 operations, cols
 *             0, 1, 31, 33, 256, 1000, 1100, 4097, 4100, 70001 (--small),
 *             2^20; rows 1-2000, strides > cols.
 *   segments  empty, single-element, overlapping, out-of-order and very long
 *             segments; invalid offsets (begin > end, end > n) flagged; and
 *             1100 (--small) or 3000 segments of random lengths and places.
 *   determinism  the f32 sums of every variant documented deterministic:
 *             1000 runs (20 with --small) alternating two streams, with
 *             other work on a third, bit for bit the same; rows likewise,
 *             rows of 1000 and a few long rows (cut into slices).
 *
 *   test_reduce_forms_gpu [--small] [--large] [--seed S]
 *
 * --small: fewer sizes and runs (for the sanitizer). --large: n = 2^31 + 17
 * instead: arg-max f32 (the maximum planted past 2^31, with a tie before it
 * and after it) and the f32 sum of the deterministic variants, run twice;
 * skipped when the GPU or the host lacks the memory (cudaMemGetInfo is asked
 * first). Exit 77 (a CTest skip) when no GPU is visible.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_test.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/random.h"
#include "gk/reduce.h"
#include "gk/verify.h"
#include "reduce_ref.h"
#include "test_util.h"

static const gk_dtype all_types[] = {GK_F32, GK_I32, GK_U32, GK_F64, GK_F16, GK_BF16, GK_I64};
#define NTYPES 7

static int small_run = 0;

typedef struct bufs {
    char *d_in;
    void *d_out, *d_ws;
    size_t *d_idx, *d_beg, *d_end;
    int *d_bad;
    size_t cap_in, cap_out, cap_ws, cap_idx, cap_beg, cap_end;
} bufs;
static bufs B;

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b << 40) ^ (c * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

static size_t esize(gk_dtype dt) { return gk_dtype_size(dt); }
static size_t rsize(gk_dtype dt) { return gk_dtype_size(gk_reduce_result_dtype(dt)); }
static int is_float(gk_dtype dt) { return dt == GK_F32 || dt == GK_F64 || dt == GK_F16 || dt == GK_BF16; }

/* Upload n elements of h at element offset off; outputs for `outs` results
 * (+1 poisoned slot each), poisoned. Returns the device input pointer. */
static const void *prepare(gk_dtype dt, const void *h, size_t n, size_t off, size_t outs)
{
    size_t e = esize(dt);
    gk_test_ensure_device((void **)&B.d_in, &B.cap_in, (n + 16) * e);
    if (n) TRY_CUDA(cudaMemcpy(B.d_in + off * e, h, n * e, cudaMemcpyHostToDevice));
    gk_test_ensure_device(&B.d_out, &B.cap_out, (outs + 1) * 8);
    gk_test_ensure_device((void **)&B.d_idx, &B.cap_idx, (outs + 1) * sizeof(size_t));
    TRY_CUDA(cudaMemset(B.d_out, 0xff, B.cap_out));
    TRY_CUDA(cudaMemset(B.d_idx, 0xa5, B.cap_idx));
    return B.d_in + off * e;
}

/* The workspace for `need` bytes, poisoned: it must need no initialisation. */
static void workspace(size_t need)
{
    gk_test_ensure_device(&B.d_ws, &B.cap_ws, need);
    TRY_CUDA(cudaMemset(B.d_ws, 0xa5, B.cap_ws));
}

/* Fetch `outs` results (and indices when arg) and check the poisoned slot
 * after them; returns host copies (static buffers grown as needed). */
static void fetch(gk_dtype dt, size_t outs, int arg, unsigned char **vals, size_t **idx, const char *label)
{
    static unsigned char *hv;
    static size_t *hi, cap;
    if (outs + 1 > cap) {
        free(hv);
        free(hi);
        cap = outs + 1;
        hv = (unsigned char *)gk_test_xmalloc(cap * 8);
        hi = (size_t *)gk_test_xmalloc(cap * sizeof(size_t));
    }
    size_t r = rsize(dt);
    TRY_CUDA(cudaMemcpy(hv, B.d_out, (outs + 1) * r, cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(hi, B.d_idx, (outs + 1) * sizeof(size_t), cudaMemcpyDeviceToHost));
    int intact = 1;
    for (size_t b = 0; b < r; ++b) intact &= hv[outs * r + b] == 0xff;
    CHECK(intact, "%s: nothing written past the last result", label);
    size_t poison;
    memset(&poison, 0xa5, sizeof poison);
    if (!arg) {
        int untouched = 1;
        for (size_t i = 0; i <= outs; ++i) untouched &= hi[i] == poison;
        CHECK(untouched, "%s: no index written without the arg form", label);
    } else {
        CHECK(hi[outs] == poison, "%s: no index written past the last", label);
    }
    *vals = hv;
    *idx = hi;
}

/* ---- Whole arrays, every type ------------------------------------------- */
static void test_array(const gk_reduce_variant *v, uint64_t seed)
{
    static const size_t big_sizes[] = {0, 1, 2, 7, 8, 9, 31, 33, 255, 257, 1000, 4097, 65537, 1048589, 16777223};
    static const size_t small_sizes[] = {0, 1, 9, 257, 65537};
    const size_t *sizes = small_run ? small_sizes : big_sizes;
    size_t nsizes = small_run ? 5 : sizeof big_sizes / sizeof *big_sizes;
    int before = check_failed;
    for (int t = 0; t < NTYPES; ++t) {
        gk_dtype dt = all_types[t];
        if (!(v->dtypes & GK_REDUCE_DTYPE_BIT(dt)) || dt == GK_F32 || dt == GK_I32) continue;
        for (size_t si = 0; si < nsizes; ++si) {
            size_t n = sizes[si], off = si % (16 / esize(dt));
            void *h = gk_test_xmalloc(n * esize(dt));
            gk_reduce_fill(dt, h, n, mix(seed, (uint64_t)v->id, (uint64_t)dt, n));
            for (int o = 0; o < 3; ++o) {
                gk_reduce_op op = (gk_reduce_op)o;
                if (!(v->ops & GK_REDUCE_OP_BIT(op))) continue;
                char label[128];
                snprintf(label, sizeof label, "v%d %s %s n=%zu offset=%zu", v->id, gk_dtype_name(dt),
                         gk_reduce_op_name(op), n, off);
                const void *in = prepare(dt, h, n, off, 1);
                size_t need = 0;
                gk_test_require(gk_reduce(v->id, dt, op, in, n, B.d_out, NULL, &need, 0), label);
                workspace(need);
                size_t have = B.cap_ws;
                gk_test_require(gk_reduce(v->id, dt, op, in, n, B.d_out, B.d_ws, &have, 0), label);
                TRY_CUDA(cudaDeviceSynchronize());
                unsigned char *vals;
                size_t *idx;
                fetch(dt, 1, 0, &vals, &idx, label);
                gk_ref_value ref = gk_reduce_ref_typed(dt, op, 0, h, n);
                CHECK(gk_reduce_check_typed(dt, op, 0, vals, 0, &ref, label, stdout), "%s", label);
            }
            free(h);
        }
    }
    printf("array    v%02d %-20s %s\n", v->id, v->name, check_failed == before ? "ok" : "FAILED");
}

/* ---- Arg-max, arg-min --------------------------------------------------- */
/* Store at i a value beyond every random one of gk_reduce_fill (floats are
 * in [-1, 1], i32 within 2^20): the type's extreme for the integers, 2 for
 * the floats; `max` picks the top or the bottom. */
static void put_extreme(gk_dtype dt, void *h, size_t i, int max)
{
    switch (dt) {
    case GK_I32: ((int32_t *)h)[i] = max ? INT32_MAX : INT32_MIN; break;
    case GK_U32: ((uint32_t *)h)[i] = max ? UINT32_MAX : 0u; break;
    case GK_I64: ((int64_t *)h)[i] = max ? INT64_MAX : INT64_MIN; break;
    default: gk_reduce_store(dt, h, i, max ? 2.0 : -2.0); break;
    }
}

/* Plant special values: the extremum tied at the start, the end, both, all
 * elements equal, NaN, infinities, all elements the identity's value. `how`
 * picks; returns a short name, NULL when it does not apply to the type. */
static const char *plant(gk_dtype dt, void *h, size_t n, gk_reduce_op op, int how, uint64_t seed)
{
    if (n == 0) return how == 0 ? "random" : NULL;
    int max = op == GK_REDUCE_MAX;
    size_t mid = (size_t)(seed % n);
    switch (how) {
    case 0: return "random";
    case 1: put_extreme(dt, h, 0, max); put_extreme(dt, h, mid, max); return "tie at the start";
    case 2: put_extreme(dt, h, n - 1, max); put_extreme(dt, h, mid / 2 + n / 2, max); return "tie at the end";
    case 3: put_extreme(dt, h, 0, max); put_extreme(dt, h, n - 1, max); return "tie at both ends";
    case 4:
        for (size_t i = 0; i < n; ++i) put_extreme(dt, h, i, max);
        return "all equal";
    case 5:
        if (!is_float(dt)) return NULL;
        gk_reduce_store(dt, h, mid, NAN);
        gk_reduce_store(dt, h, n - 1, NAN);
        return "NaN (first one wins)";
    case 6:
        if (!is_float(dt)) return NULL;
        gk_reduce_store(dt, h, mid, max ? INFINITY : -INFINITY);
        gk_reduce_store(dt, h, n - 1, max ? INFINITY : -INFINITY);
        return "inf";
    case 7:
        if (!is_float(dt)) return NULL;
        for (size_t i = 0; i < n; ++i) gk_reduce_store(dt, h, i, max ? -INFINITY : INFINITY);
        return "all the identity's value";
    default: return NULL;
    }
}

static void test_arg(const gk_reduce_variant *v, uint64_t seed)
{
    static const size_t big_sizes[] = {0, 1, 2, 9, 33, 257, 4097, 65537, 1048589};
    static const size_t small_sizes[] = {0, 1, 33, 65537};
    const size_t *sizes = small_run ? small_sizes : big_sizes;
    size_t nsizes = small_run ? 4 : sizeof big_sizes / sizeof *big_sizes;
    int before = check_failed;
    for (int t = 0; t < NTYPES; ++t) {
        gk_dtype dt = all_types[t];
        if (!(v->dtypes & GK_REDUCE_DTYPE_BIT(dt))) continue;
        for (size_t si = 0; si < nsizes; ++si) {
            size_t n = sizes[si], off = si % (16 / esize(dt));
            void *h = gk_test_xmalloc(n * esize(dt));
            for (int o = 1; o <= 2; ++o) {
                gk_reduce_op op = (gk_reduce_op)o;
                for (int how = 0; how < 8; ++how) {
                    gk_reduce_fill(dt, h, n, mix(seed, (uint64_t)dt, n, (uint64_t)(o * 8 + how)));
                    const char *what = plant(dt, h, n, op, how, mix(seed, 5, n, (uint64_t)how));
                    if (what == NULL) continue;
                    char label[160];
                    snprintf(label, sizeof label, "v%d arg-%s %s n=%zu offset=%zu %s", v->id, gk_reduce_op_name(op),
                             gk_dtype_name(dt), n, off, what);
                    const void *in = prepare(dt, h, n, off, 1);
                    size_t need = 0;
                    gk_test_require(gk_reduce_arg(v->id, dt, op, in, n, B.d_out, B.d_idx, NULL, &need, 0), label);
                    workspace(need);
                    size_t have = B.cap_ws;
                    gk_test_require(gk_reduce_arg(v->id, dt, op, in, n, B.d_out, B.d_idx, B.d_ws, &have, 0), label);
                    TRY_CUDA(cudaDeviceSynchronize());
                    unsigned char *vals;
                    size_t *idx;
                    fetch(dt, 1, 1, &vals, &idx, label);
                    gk_ref_value ref = gk_reduce_ref_typed(dt, op, 1, h, n);
                    CHECK(gk_reduce_check_typed(dt, op, 1, vals, idx[0], &ref, label, stdout), "%s", label);
                }
            }
            free(h);
        }
    }
    printf("arg      v%02d %-20s %s\n", v->id, v->name, check_failed == before ? "ok" : "FAILED");
}

/* ---- Rows and segments -------------------------------------------------- */
/* Check `outs` results against the references of the ranges
 * [first[i], first[i] + len[i]) of h (len 0 / invalid: the identity). */
static void check_ranges(gk_dtype dt, gk_reduce_op op, int arg, const void *h, size_t outs, const size_t *first,
                         const size_t *len, const char *label)
{
    unsigned char *vals;
    size_t *idx;
    fetch(dt, outs, arg, &vals, &idx, label);
    size_t bad = 0;
    for (size_t i = 0; i < outs; ++i) {
        gk_ref_value ref = gk_reduce_ref_typed(dt, op, arg, (const char *)h + first[i] * esize(dt), len[i]);
        char l[200];
        snprintf(l, sizeof l, "%s result %zu", label, i);
        if (!gk_reduce_check_typed(dt, op, arg, vals + i * rsize(dt), arg ? idx[i] : 0, &ref, l,
                                   bad < GK_VERIFY_SHOW ? stdout : NULL))
            ++bad;
    }
    CHECK(bad == 0, "%s: %zu of %zu results wrong", label, bad, outs);
}

typedef struct shape {
    size_t rows, cols, ld;
} shape;

static void test_rows(const gk_reduce_variant *v, uint64_t seed)
{
    static const shape big_shapes[] = {{1, 0, 0},     {5, 0, 3},      {1, 1, 1},      {7, 1, 5},    {100, 31, 33},
                                       {99, 33, 40},  {1000, 256, 256}, {1000, 256, 259}, {13, 1000, 1017},
                                       {9, 4097, 4100}, {3, 1048576, 1048581}, {2, 1048589, 1048589},
                                       {2000, 1100, 1103}, {1200, 4100, 4100}};
    static const shape small_shapes[] = {{5, 0, 3},         {7, 1, 5},        {99, 33, 40}, {13, 1000, 1017},
                                         {2, 4097, 4100},   {3, 70001, 70005}, {1100, 4100, 4103}};
    const shape *shapes = small_run ? small_shapes : big_shapes;
    size_t nshapes = small_run ? sizeof small_shapes / sizeof *small_shapes : sizeof big_shapes / sizeof *big_shapes;
    int before = check_failed;
    for (int t = 0; t < NTYPES; ++t) {
        gk_dtype dt = all_types[t];
        if (!(v->dtypes & GK_REDUCE_DTYPE_BIT(dt))) continue;
        for (size_t si = 0; si < nshapes; ++si) {
            shape sh = shapes[si];
            size_t off = si % (16 / esize(dt));
            size_t n = sh.rows ? (sh.rows - 1) * sh.ld + sh.cols : 0;
            void *h = gk_test_xmalloc(n * esize(dt));
            size_t *first = (size_t *)gk_test_xmalloc(sh.rows * sizeof(size_t));
            size_t *len = (size_t *)gk_test_xmalloc(sh.rows * sizeof(size_t));
            for (size_t r = 0; r < sh.rows; ++r) first[r] = r * sh.ld, len[r] = sh.cols;
            for (int o = 0; o < 5; ++o) {
                gk_reduce_op op = (gk_reduce_op)(o < 3 ? o : o - 2);
                int arg = o >= 3;
                gk_reduce_fill(dt, h, n, mix(seed, (uint64_t)dt, si, (uint64_t)o));
                /* Ties within rows: in every third row the extremum twice,
                 * at the start or the middle, and at the end. */
                if (arg && sh.cols > 1)
                    for (size_t r = 0; r < sh.rows; r += 3) {
                        put_extreme(dt, h, first[r] + (r % 2 ? 0 : sh.cols / 2), o == 3);
                        put_extreme(dt, h, first[r] + sh.cols - 1, o == 3);
                    }
                char label[160];
                snprintf(label, sizeof label, "v%d rows %s %s%s %zux%zu ld=%zu offset=%zu", v->id,
                         gk_dtype_name(dt), arg ? "arg-" : "", gk_reduce_op_name(op), sh.rows, sh.cols, sh.ld, off);
                const void *in = prepare(dt, h, n, off, sh.rows);
                size_t *oi = arg ? B.d_idx : NULL;
                size_t need = 0;
                gk_test_require(gk_reduce_rows(v->id, dt, op, in, sh.rows, sh.cols, sh.ld, B.d_out, oi, NULL, &need,
                                               0),
                                label);
                workspace(need);
                size_t have = B.cap_ws;
                gk_test_require(gk_reduce_rows(v->id, dt, op, in, sh.rows, sh.cols, sh.ld, B.d_out, oi, B.d_ws,
                                               &have, 0),
                                label);
                TRY_CUDA(cudaDeviceSynchronize());
                check_ranges(dt, op, arg, h, sh.rows, first, len, label);
            }
            free(h);
            free(first);
            free(len);
        }
    }
    printf("rows     v%02d %-20s %s\n", v->id, v->name, check_failed == before ? "ok" : "FAILED");
}

/* The m segments' begin and end offsets into device memory (B.d_beg,
 * B.d_end), and the invalid flag's int. */
static void upload_segments(const size_t *beg, const size_t *end, size_t m)
{
    gk_test_ensure_device((void **)&B.d_beg, &B.cap_beg, m * sizeof(size_t));
    gk_test_ensure_device((void **)&B.d_end, &B.cap_end, m * sizeof(size_t));
    if (B.d_bad == NULL) TRY_CUDA(cudaMalloc((void **)&B.d_bad, sizeof(int)));
    TRY_CUDA(cudaMemcpy(B.d_beg, beg, m * sizeof(size_t), cudaMemcpyHostToDevice));
    TRY_CUDA(cudaMemcpy(B.d_end, end, m * sizeof(size_t), cudaMemcpyHostToDevice));
}

/* gk_reduce_segments over the uploaded segments of `in` (h on the host), its
 * workspace queried and poisoned, the flag poisoned first: the flag must be
 * expect_bad and each segment's result (first[i], len[i] on the host: len 0
 * for an invalid one) the CPU reference's. */
static void run_segments(const gk_reduce_variant *v, gk_dtype dt, gk_reduce_op op, int arg, const void *h,
                         const void *in, size_t n, size_t m, const size_t *first, const size_t *len, int expect_bad,
                         const char *label)
{
    TRY_CUDA(cudaMemset(B.d_bad, 0x5a, sizeof(int)));
    size_t *oi = arg ? B.d_idx : NULL;
    size_t need = 0;
    gk_test_require(gk_reduce_segments(v->id, dt, op, in, n, m, B.d_beg, B.d_end, B.d_out, oi, B.d_bad, NULL, &need,
                                       0),
                    label);
    workspace(need);
    size_t have = B.cap_ws;
    gk_test_require(gk_reduce_segments(v->id, dt, op, in, n, m, B.d_beg, B.d_end, B.d_out, oi, B.d_bad, B.d_ws,
                                       &have, 0),
                    label);
    TRY_CUDA(cudaDeviceSynchronize());
    int bad = -1;
    TRY_CUDA(cudaMemcpy(&bad, B.d_bad, sizeof bad, cudaMemcpyDeviceToHost));
    CHECK(bad == expect_bad, "%s: invalid flag %d, expected %d", label, bad, expect_bad);
    check_ranges(dt, op, arg, h, m, first, len, label);
}

/* Segments over an array of n: a mix of empty, single, overlapping, out of
 * order and long segments; then invalid ones. */
static void test_segments(const gk_reduce_variant *v, uint64_t seed)
{
    int before = check_failed;
    /* A long array (mean segment length large: a block per segment) and a
     * short one (a warp per segment). */
    const size_t lengths[2] = {small_run ? 70001 : ((size_t)1 << 21) + 77, 2000};
    for (int t = 0; t < 2 * NTYPES; ++t) {
        size_t n = lengths[t / NTYPES];
        gk_dtype dt = all_types[t % NTYPES];
        if (!(v->dtypes & GK_REDUCE_DTYPE_BIT(dt))) continue;
        void *h = gk_test_xmalloc(n * esize(dt));
        enum { S = 12 };
        /* Empty (2, 8: at the end), single (1, 3), overlapping, out of order. */
        size_t beg[S] = {0, 5, 5, n - 1, n / 2, 1, 3, 100, n, 0, 17, 2},
               end[S] = {0, 6, 5, n, n, n - 1, 3 + 31, 133, n, n / 2 + 3, 17 + 1000, 2 + (n > 5000 ? 4097 : n / 3)};
        size_t len[S];
        for (int s = 0; s < S; ++s) len[s] = end[s] - beg[s];
        for (int mode = 0; mode < 2; ++mode) { /* 0: all valid; 1: segment 6 and 9 invalid */
            size_t b2[S], e2[S], l2[S];
            memcpy(b2, beg, sizeof b2);
            memcpy(e2, end, sizeof e2);
            memcpy(l2, len, sizeof l2);
            if (mode == 1) {
                b2[6] = 40, e2[6] = 39, l2[6] = 0; /* begin > end */
                e2[9] = n + 1, l2[9] = 0;          /* end > n */
            }
            for (int o = 0; o < 5; ++o) {
                gk_reduce_op op = (gk_reduce_op)(o < 3 ? o : o - 2);
                int arg = o >= 3;
                size_t off = (size_t)(o + mode) % (16 / esize(dt));
                gk_reduce_fill(dt, h, n, mix(seed, (uint64_t)dt, (uint64_t)mode, (uint64_t)o));
                char label[160];
                snprintf(label, sizeof label, "v%d segments %s %s%s n=%zu offset=%zu %s", v->id, gk_dtype_name(dt),
                         arg ? "arg-" : "", gk_reduce_op_name(op), n, off, mode ? "with invalid offsets" : "valid");
                const void *in = prepare(dt, h, n, off, S);
                upload_segments(b2, e2, S);
                run_segments(v, dt, op, arg, h, in, n, S, b2, l2, mode, label);
            }
        }
        free(h);
    }
    /* No segments at all: nothing written but the flag. */
    TRY_CUDA(cudaMemset(B.d_bad, 0x5a, sizeof(int)));
    size_t have = B.cap_ws;
    gk_test_require(gk_reduce_segments(v->id, GK_F32, GK_REDUCE_SUM, B.d_in, 0, 0, NULL, NULL, NULL, NULL, B.d_bad,
                                       B.d_ws, &have, 0),
                    "no segments");
    int bad = -1;
    TRY_CUDA(cudaMemcpy(&bad, B.d_bad, sizeof bad, cudaMemcpyDeviceToHost));
    CHECK(bad == 0, "no segments: flag %d", bad);
    printf("segments v%02d %-20s %s\n", v->id, v->name, check_failed == before ? "ok" : "FAILED");
}

/* Many long segments, more than a GPU holds blocks at once (1056 of
 * variant 15's on an H100 or H200): one block a segment for the 4- and
 * 8-byte types (a mean of 16.8 KB and more), the block-per-row loop for the
 * 2-byte ones (8.4 KB). Random lengths up to twice the mean, random places,
 * so they overlap and come in any order. */
static void test_segments_many(const gk_reduce_variant *v, uint64_t seed)
{
    int before = check_failed;
    const size_t m = small_run ? 1100 : 3000, mean = 4200, n = m * mean + 5;
    size_t *b = (size_t *)gk_test_xmalloc(m * sizeof(size_t)), *e = (size_t *)gk_test_xmalloc(m * sizeof(size_t)),
           *len = (size_t *)gk_test_xmalloc(m * sizeof(size_t));
    gk_rng r;
    gk_rng_seed(&r, mix(seed, 91, (uint64_t)v->id, m));
    for (size_t i = 0; i < m; ++i) {
        len[i] = gk_rng_next(&r) % (2 * mean + 1);
        b[i] = gk_rng_next(&r) % (n - len[i] + 1);
        e[i] = b[i] + len[i];
    }
    upload_segments(b, e, m);
    for (int t = 0; t < NTYPES; ++t) {
        gk_dtype dt = all_types[t];
        if (!(v->dtypes & GK_REDUCE_DTYPE_BIT(dt))) continue;
        void *h = gk_test_xmalloc(n * esize(dt));
        for (int o = 0; o < 5; ++o) {
            gk_reduce_op op = (gk_reduce_op)(o < 3 ? o : o - 2);
            int arg = o >= 3;
            size_t off = (size_t)o % (16 / esize(dt));
            gk_reduce_fill(dt, h, n, mix(seed, (uint64_t)dt, 92, (uint64_t)o));
            char label[160];
            snprintf(label, sizeof label, "v%d %zu segments %s %s%s n=%zu offset=%zu", v->id, m, gk_dtype_name(dt),
                     arg ? "arg-" : "", gk_reduce_op_name(op), n, off);
            const void *in = prepare(dt, h, n, off, m);
            run_segments(v, dt, op, arg, h, in, n, m, b, len, 0, label);
        }
        free(h);
    }
    free(b);
    free(e);
    free(len);
    printf("segments v%02d %-20s %zu of mean %zu: %s\n", v->id, v->name, m, mean,
           check_failed == before ? "ok" : "FAILED");
}

/* ---- Determinism -------------------------------------------------------- */
/* `runs` calls alternating between two streams, while a third stream runs
 * another reduction of the same input (other work competing for the SMs):
 * every result must have the same bits as the first. */
static void test_determinism(const gk_reduce_variant *v, uint64_t seed, size_t cols)
{
    const int runs = small_run ? 20 : 1000;
    const size_t n = small_run ? 65537 : ((size_t)1 << 24) + 7;
    int before = check_failed;
    float *h = (float *)gk_test_xmalloc(n * sizeof(float));
    gk_reduce_fill(GK_F32, h, n, mix(seed, 77, (uint64_t)v->id, n));
    const void *in = prepare(GK_F32, h, n, 1, 2);
    cudaStream_t st[3];
    for (int i = 0; i < 3; ++i) TRY_CUDA(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
    int rows_form = !(v->forms & GK_REDUCE_FORM_ARRAY);
    const size_t rows = n / cols;
    size_t need = 0, need_other = 0;
    if (rows_form)
        gk_test_require(gk_reduce_rows(v->id, GK_F32, GK_REDUCE_SUM, in, rows, cols, cols, NULL, NULL, NULL, &need, 0),
                        "query");
    else gk_test_require(gk_reduce(v->id, GK_F32, GK_REDUCE_SUM, in, n, NULL, NULL, &need, 0), "query");
    int other = gk_reduce_best_variant();
    gk_test_require(gk_reduce(other, GK_F32, GK_REDUCE_SUM, in, n, NULL, NULL, &need_other, 0), "query");
    void *ws[2], *ws_other, *outs, *out_other;
    size_t per_out = rows_form ? rows * sizeof(float) : sizeof(float);
    for (int i = 0; i < 2; ++i) TRY_CUDA(cudaMalloc(&ws[i], need));
    TRY_CUDA(cudaMalloc(&ws_other, need_other));
    TRY_CUDA(cudaMalloc(&outs, (size_t)runs * per_out));
    TRY_CUDA(cudaMalloc(&out_other, sizeof(float)));
    TRY_CUDA(cudaMemset(outs, 0xff, (size_t)runs * per_out));
    TRY_CUDA(cudaDeviceSynchronize());
    for (int r = 0; r < runs; ++r) {
        size_t have = need, have_o = need_other;
        void *o = (char *)outs + (size_t)r * per_out;
        gk_status s = rows_form ? gk_reduce_rows(v->id, GK_F32, GK_REDUCE_SUM, in, rows, cols, cols, o, NULL,
                                                 ws[r % 2], &have, st[r % 2])
                                : gk_reduce(v->id, GK_F32, GK_REDUCE_SUM, in, n, o, ws[r % 2], &have, st[r % 2]);
        gk_test_require(s, "determinism run");
        if (r % 4 == 0)
            gk_test_require(gk_reduce(other, GK_F32, GK_REDUCE_SUM, in, n, out_other, ws_other, &have_o, st[2]),
                            "other work");
        /* Two calls on different streams share one workspace only after
         * the first finished: the workspace alternates with the stream, and
         * each stream's calls run in order. */
    }
    TRY_CUDA(cudaDeviceSynchronize());
    unsigned char *hb = (unsigned char *)gk_test_xmalloc((size_t)runs * per_out);
    TRY_CUDA(cudaMemcpy(hb, outs, (size_t)runs * per_out, cudaMemcpyDeviceToHost));
    int differ = 0;
    for (int r = 1; r < runs; ++r) differ += memcmp(hb, hb + (size_t)r * per_out, per_out) != 0;
    CHECK(differ == 0, "v%d: %d of %d runs differ from the first in some bit", v->id, differ, runs);
    /* And the first is right. */
    if (rows_form) {
        size_t bad = 0;
        for (size_t r = 0; r < rows; ++r) {
            gk_ref_value ref = gk_reduce_ref_typed(GK_F32, GK_REDUCE_SUM, 0, h + r * cols, cols);
            bad += !gk_reduce_check_typed(GK_F32, GK_REDUCE_SUM, 0, hb + r * sizeof(float), 0, &ref, "row",
                                          bad < GK_VERIFY_SHOW ? stdout : NULL);
        }
        CHECK(bad == 0, "v%d determinism rows: %zu wrong", v->id, bad);
    } else {
        gk_ref_value ref = gk_reduce_ref_typed(GK_F32, GK_REDUCE_SUM, 0, h, n);
        CHECK(gk_reduce_check_typed(GK_F32, GK_REDUCE_SUM, 0, hb, 0, &ref, "determinism", stdout), "v%d", v->id);
    }
    free(hb);
    free(h);
    for (int i = 0; i < 2; ++i) cudaFree(ws[i]);
    cudaFree(ws_other);
    cudaFree(outs);
    cudaFree(out_other);
    for (int i = 0; i < 3; ++i) cudaStreamDestroy(st[i]);
    printf("determ.  v%02d %-20s %d runs, 2 streams%s: %s\n", v->id, v->name, runs,
           rows_form ? (cols < 10000 ? ", short rows" : ", few long rows") : "", check_failed == before ? "ok" : "FAILED");
}

/* ---- n > 2^31 ----------------------------------------------------------- */
static int test_large(uint64_t seed)
{
    const size_t n = ((size_t)1 << 31) + 17;
    size_t free_b = 0, total_b = 0;
    TRY_CUDA(cudaMemGetInfo(&free_b, &total_b));
    size_t need = (n + 16) * 4 + ((size_t)256 << 20);
    void *probe = malloc(n * 4);
    if (free_b < need || probe == NULL) {
        free(probe);
        printf("SKIPPED: n = 2^31+17 needs %.1f GB free on the GPU (has %.1f) and %.1f GB of host memory%s\n",
               need / 1e9, free_b / 1e9, n * 4 / 1e9, probe ? "" : " (malloc failed)");
        return GK_TEST_SKIP;
    }
    float *h = (float *)probe;
    printf("n = 2^31+17: generating the input...\n");
    fflush(stdout);
    gk_reduce_fill(GK_F32, h, n, mix(seed, 99, 1, n));
    /* The maximum (3, above every random value) first at an index past 2^31,
     * which needs 64 bits, and tied at the last element. */
    size_t at = ((size_t)1 << 31) + 5;
    h[at] = 3.0f;
    h[n - 1] = 3.0f;
    const void *in = prepare(GK_F32, h, n, 1, 1);
    int arg = gk_reduce_best_variant_for(GK_REDUCE_FORM_ARG);
    size_t ws_need = 0, have;
    gk_test_require(gk_reduce_arg(arg, GK_F32, GK_REDUCE_MAX, in, n, B.d_out, B.d_idx, NULL, &ws_need, 0), "query");
    workspace(ws_need);
    have = B.cap_ws;
    gk_test_require(gk_reduce_arg(arg, GK_F32, GK_REDUCE_MAX, in, n, B.d_out, B.d_idx, B.d_ws, &have, 0), "arg");
    TRY_CUDA(cudaDeviceSynchronize());
    unsigned char *vals;
    size_t *idx;
    fetch(GK_F32, 1, 1, &vals, &idx, "large arg-max");
    float gv;
    memcpy(&gv, vals, 4);
    CHECK(gv == 3.0f && idx[0] == at, "v%d arg-max n=2^31+17: got %g at %zu, expected 3 at %zu", arg, gv, idx[0],
          at);
    gk_ref_value ref = gk_reduce_ref_typed(GK_F32, GK_REDUCE_SUM, 0, h, n);
    for (size_t i = 0; i < gk_reduce_variant_count(); ++i) {
        const gk_reduce_variant *v = gk_reduce_variant_at(i);
        if (!v->f32_sum_deterministic || !(v->forms & GK_REDUCE_FORM_ARRAY) || v->id < 12) continue;
        uint32_t bits[2];
        for (int k = 0; k < 2; ++k) {
            size_t need_v = 0;
            gk_test_require(gk_reduce(v->id, GK_F32, GK_REDUCE_SUM, in, n, B.d_out, NULL, &need_v, 0), "query");
            workspace(need_v);
            have = B.cap_ws;
            TRY_CUDA(cudaMemset(B.d_out, 0xff, 8));
            gk_test_require(gk_reduce(v->id, GK_F32, GK_REDUCE_SUM, in, n, B.d_out, B.d_ws, &have, 0), "sum");
            TRY_CUDA(cudaDeviceSynchronize());
            TRY_CUDA(cudaMemcpy(&bits[k], B.d_out, 4, cudaMemcpyDeviceToHost));
        }
        char label[64];
        snprintf(label, sizeof label, "v%d f32 sum n=2^31+17", v->id);
        CHECK(gk_reduce_check_typed(GK_F32, GK_REDUCE_SUM, 0, &bits[0], 0, &ref, label, stdout), "%s", label);
        CHECK(bits[0] == bits[1], "%s: %08x then %08x", label, (unsigned)bits[0], (unsigned)bits[1]);
        printf("  %s done\n", label);
    }
    free(h);
    return 0;
}

int main(int argc, char **argv)
{
    int variant = 0, large = 0;
    uint64_t seed = gk_test_new_seed();
    const gk_test_option opts[] = {{"--small", &small_run, NULL}, {"--large", &large, NULL}};
    if (gk_test_args(argc, argv, opts, 2, "test_reduce_forms_gpu [--small] [--large] [--seed S]", &variant,
                     &seed) != 0)
        return 2;
    gk_device_info dev;
    const gk_reduce_variant *only = variant ? gk_reduce_find_variant(variant) : NULL;
    int rc = gk_test_start(gk_test_open_gpu(&dev, seed), variant, only != NULL);
    if (rc != 0) return rc;
    if (large) {
        if (test_large(seed) == GK_TEST_SKIP) return GK_TEST_SKIP;
    } else {
        for (size_t i = 0; i < gk_reduce_variant_count(); ++i) {
            const gk_reduce_variant *v = gk_reduce_variant_at(i);
            if (only != NULL && v != only) continue;
            if ((v->forms & GK_REDUCE_FORM_ARRAY) && v->dtypes != (GK_REDUCE_DTYPE_BIT(GK_F32) | GK_REDUCE_DTYPE_BIT(GK_I32)))
                test_array(v, seed);
            if (v->forms & GK_REDUCE_FORM_ARG) test_arg(v, seed);
            if (v->forms & GK_REDUCE_FORM_ROWS) test_rows(v, seed);
            if (v->forms & GK_REDUCE_FORM_SEGMENTS) {
                test_segments(v, seed);
                test_segments_many(v, seed);
            }
            if (v->f32_sum_deterministic && v->id >= 12) {
                test_determinism(v, seed, 1000);
                /* Rows of n / 8 (2 for --small): long enough to be cut into
                 * slices, few enough to need it. */
                if (!(v->forms & GK_REDUCE_FORM_ARRAY)) test_determinism(v, seed, small_run ? 32768 : (1u << 21));
            }
        }
    }
    cudaFree(B.d_in);
    cudaFree(B.d_out);
    cudaFree(B.d_ws);
    cudaFree(B.d_idx);
    cudaFree(B.d_beg);
    cudaFree(B.d_end);
    cudaFree(B.d_bad);
    return check_summary("test_reduce_forms_gpu");
}
