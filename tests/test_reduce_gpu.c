/* GPU tests of the reduce module.
 *
 * For each variant, f32 and i32, each operation it supports, and n in the
 * awkward sizes below: fresh random input (a new seed every run, printed so a
 * failure can be replayed with --seed), the input placed at an element
 * offset 0-3 from a 16-byte boundary, the output and the partials poisoned
 * first, the workspace filled with 0xa5 bytes, random bytes or what the
 * last call left in it, in turn, then the result compared with the CPU reference:
 * f32 sums within gk_sum_tolerance (derived from n and sum |x|), everything
 * else exactly. Variants with per-block partials are run a second time
 * through gk_reduce_partials and every partial is checked against its own
 * reference. Deterministic variants are run twice and must agree bitwise.
 *
 *   test_reduce_gpu [--variant ID] [--sizes LIST] [--large] [--seed S]
 *
 * Variants without the whole-array form (rows and segments only) are
 * test_reduce_forms_gpu's, as are the types beyond f32 and i32.
 *
 * --large runs n = 2^31 + 17 instead (sum for every variant, and max/min for
 * the best), skipped when the GPU or the host lacks the memory. Exit 77 (a
 * CTest skip) when no GPU is visible.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_test.h"
#include "cli.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/random.h"
#include "gk/reduce.h"
#include "gk/verify.h"
#include "reduce_ref.h"
#include "test_util.h"

static const char *const default_sizes =
    "0,1,2,31,32,33,255,256,257,1000,4097,65537,2^20,2^20+13,2^24+7";

typedef struct buffers {
    char *d_in;           /* capacity cap_in bytes (+16 for the offset) */
    void *d_out, *d_partials, *d_ws;
    size_t cap_in, cap_partials, cap_ws;
    void *h_in, *h_partials;
    gk_ref_f32 *ref_pf;
    int32_t *ref_pi;
    size_t cap_h, cap_hp;
    /* The CPU reference of the input in h_in, per operation, computed once
     * (at n = 2^31 it takes seconds). fill() invalidates it. */
    int ref_valid[3];
    gk_ref_f32 ref_f[3];
    int32_t ref_i[3];
} buffers;


static void *ensure_host(void *p, size_t *cap, size_t bytes)
{
    if (bytes <= *cap) return p;
    free(p);
    *cap = bytes;
    return gk_test_xmalloc(bytes);
}

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b << 40) ^ (c * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

static void describe(char *buf, size_t size, const gk_reduce_variant *v, gk_dtype dt, gk_reduce_op op, size_t n,
                     size_t off, const char *how)
{
    char sz[32];
    gk_format_size(n, sz, sizeof sz);
    snprintf(buf, size, "v%02d %s %s %s n=%s offset=%zu%s", v->id, v->name, gk_dtype_name(dt), gk_reduce_op_name(op),
             sz, off, how);
}

/* Compare the device scalar at d_out with the reference; 1 if it matches. */
static int check_result(buffers *b, gk_dtype dt, gk_reduce_op op, size_t n, const char *label, uint32_t *bits)
{
    uint32_t got;
    TRY_CUDA(cudaMemcpy(&got, b->d_out, 4, cudaMemcpyDeviceToHost));
    if (bits) *bits = got;
    if (!b->ref_valid[op]) {
        if (dt == GK_F32) b->ref_f[op] = gk_reduce_ref_f32((const float *)b->h_in, n, op);
        else b->ref_i[op] = gk_reduce_ref_i32((const int32_t *)b->h_in, n, op);
        b->ref_valid[op] = 1;
    }
    return gk_reduce_check_result(dt, op, n, &got, &b->ref_f[op], b->ref_i[op], label, stdout);
}

static int check_partials(buffers *b, const gk_reduce_variant *v, gk_dtype dt, gk_reduce_op op, size_t n, size_t m,
                          const char *label)
{
    if (m == 0) return 1;
    b->h_partials = ensure_host(b->h_partials, &b->cap_hp, m * 4);
    TRY_CUDA(cudaMemcpy(b->h_partials, b->d_partials, m * 4, cudaMemcpyDeviceToHost));
    if (dt == GK_F32) {
        b->ref_pf = (gk_ref_f32 *)realloc(b->ref_pf, m * sizeof *b->ref_pf);
        double *exp = (double *)malloc(m * sizeof *exp), *tol = (double *)malloc(m * sizeof *tol);
        gk_reduce_ref_partials_f32((const float *)b->h_in, n, v->partition, v->partition_tile, m, op, b->ref_pf);
        for (size_t i = 0; i < m; ++i) {
            exp[i] = b->ref_pf[i].value;
            tol[i] = op == GK_REDUCE_SUM ? gk_sum_tolerance(b->ref_pf[i].count, b->ref_pf[i].sum_abs, exp[i]) : 0.0;
        }
        size_t bad = gk_verify_f32((const float *)b->h_partials, exp, tol, m, label, stdout);
        free(exp);
        free(tol);
        return bad == 0;
    }
    b->ref_pi = (int32_t *)realloc(b->ref_pi, m * sizeof *b->ref_pi);
    gk_reduce_ref_partials_i32((const int32_t *)b->h_in, n, v->partition, v->partition_tile, m, op, b->ref_pi);
    return gk_verify_i32((const int32_t *)b->h_partials, b->ref_pi, m, label, stdout) == 0;
}

/* One call of the variant on the input already in b->h_in (n elements),
 * uploaded at element offset `off`. partials: 1 to go through
 * gk_reduce_partials. Returns 1 on a pass. */
static int run_one(buffers *b, const gk_reduce_variant *v, gk_dtype dt, gk_reduce_op op, size_t n, size_t off,
                   int partials, uint32_t *bits)
{
    char label[160];
    describe(label, sizeof label, v, dt, op, n, off, partials ? " (with partials)" : "");
    const void *in = b->d_in + off * 4;
    size_t need = 0, m = 0;
    gk_status s = gk_reduce(v->id, dt, op, in, n, b->d_out, NULL, &need, 0);
    if (partials && gk_ok(s)) s = gk_reduce_num_partials(v->id, n, &m);
    if (!gk_test_ok(s, label, "query")) return 0;
    gk_test_ensure_device(&b->d_ws, &b->cap_ws, need);
    gk_test_ensure_device(&b->d_partials, &b->cap_partials, (m ? m : 1) * 4);
    /* Poison: the output must be written by the call; the workspace must need
     * no initialisation; every partial must be written. The workspace takes
     * in turn one byte everywhere (0xa5), random bytes, and what the last
     * call left in it (another n, operation or type: variant 12 keeps an
     * epoch and tagged slots there). */
    TRY_CUDA(cudaMemset(b->d_out, 0xff, 4));
    static unsigned poison_turn = 0;
    switch (poison_turn++ % 3) {
    case 0: TRY_CUDA(cudaMemset(b->d_ws, 0xa5, b->cap_ws)); break;
    case 1: {
        size_t words = b->cap_ws / 4;
        int32_t *h = (int32_t *)gk_test_xmalloc(words * 4 + 4);
        gk_fill_i32(h, words, mix(0x5eed, (uint64_t)poison_turn, n, off), INT32_MIN, INT32_MAX);
        TRY_CUDA(cudaMemcpy(b->d_ws, h, words * 4, cudaMemcpyHostToDevice));
        free(h);
        break;
    }
    default: break;
    }
    TRY_CUDA(cudaMemset(b->d_partials, 0xff, b->cap_partials));
    size_t bytes = b->cap_ws;
    s = partials ? gk_reduce_partials(v->id, dt, op, in, n, b->d_out, b->d_partials, m, b->d_ws, &bytes, 0)
                 : gk_reduce(v->id, dt, op, in, n, b->d_out, b->d_ws, &bytes, 0);
    if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(s, label);
    int ok = check_result(b, dt, op, n, label, bits);
    if (partials) ok &= check_partials(b, v, dt, op, n, m, label);
    return ok;
}

static void fill(buffers *b, gk_dtype dt, size_t n, uint64_t seed)
{
    b->h_in = ensure_host(b->h_in, &b->cap_h, (n ? n : 1) * 4);
    memset(b->ref_valid, 0, sizeof b->ref_valid);
    if (dt == GK_F32) gk_fill_f32((float *)b->h_in, n, seed, -1.0f, 1.0f);
    /* i32 across a wide range: sums of large n overflow 32 bits and must wrap. */
    else gk_fill_i32((int32_t *)b->h_in, n, seed, -(1 << 20), 1 << 20);
}

static void upload(buffers *b, size_t n, size_t off)
{
    gk_test_ensure_device((void **)&b->d_in, &b->cap_in, (n + 4) * 4);
    if (n) TRY_CUDA(cudaMemcpy(b->d_in + off * 4, b->h_in, n * 4, cudaMemcpyHostToDevice));
}

/* Variants 12-14 end with tagged slots in the workspace after a 256-byte
 * epoch (12_deterministic_sum.cu). A white-box check of what makes a
 * workspace shared with other calls safe: after a call on a zeroed
 * workspace, every slot is zero again (the last block clears what it
 * took), and with the epoch then set back to 0, as another variant's
 * 4-byte counter memset on the same workspace would leave it, the next
 * call on other data is still right. */
static void test_slots_cleared(buffers *b, const gk_reduce_variant *v, uint64_t seed)
{
    if (v->id < 12 || v->id > 14) return;
    const size_t n = ((size_t)1 << 20) + 13, epoch_bytes = 256;
    size_t need = 0;
    gk_test_require(gk_reduce(v->id, GK_F32, GK_REDUCE_SUM, NULL, n, NULL, NULL, &need, 0), "query");
    gk_test_ensure_device(&b->d_ws, &b->cap_ws, need);
    TRY_CUDA(cudaMemset(b->d_ws, 0, need));
    unsigned char *h = (unsigned char *)gk_test_xmalloc(need);
    for (int round = 0; round < 2; ++round) {
        fill(b, GK_F32, n, mix(seed, (uint64_t)v->id, 31, (uint64_t)round));
        upload(b, n, 0);
        if (round == 1) TRY_CUDA(cudaMemset(b->d_ws, 0, 8)); /* the epoch back to 0 */
        size_t bytes = need;
        gk_status st = gk_reduce(v->id, GK_F32, GK_REDUCE_SUM, b->d_in, n, b->d_out, b->d_ws, &bytes, 0);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
        gk_test_require(st, "slots");
        char label[96];
        snprintf(label, sizeof label, "v%d f32 sum n=%zu, call %d on one workspace", v->id, n, round + 1);
        CHECK(check_result(b, GK_F32, GK_REDUCE_SUM, n, label, NULL), "%s", label);
        TRY_CUDA(cudaMemcpy(h, b->d_ws, need, cudaMemcpyDeviceToHost));
        size_t dirty = 0;
        for (size_t i = epoch_bytes; i < need; ++i) dirty += h[i] != 0;
        CHECK(dirty == 0, "%s: %zu bytes of the slots left non-zero", label, dirty);
    }
    free(h);
}

static void test_variant(buffers *b, const gk_reduce_variant *v, const size_t *sizes, int nsizes, uint64_t seed)
{
    int before = check_failed;
    for (int si = 0; si < nsizes; ++si) {
        size_t n = sizes[si], off = (size_t)si % 4;
        for (int d = 0; d < 2; ++d) {
            gk_dtype dt = (gk_dtype)d;
            fill(b, dt, n, mix(seed, (uint64_t)v->id, (uint64_t)d, n));
            upload(b, n, off);
            for (int o = 0; o < 3; ++o) {
                gk_reduce_op op = (gk_reduce_op)o;
                if (!(v->ops & GK_REDUCE_OP_BIT(op))) continue;
                uint32_t first = 0, again = 0;
                CHECK(run_one(b, v, dt, op, n, off, 0, &first), "v%d %s %s n=%zu", v->id, gk_dtype_name(dt),
                      gk_reduce_op_name(op), n);
                if (v->partition != GK_PARTITION_NONE)
                    CHECK(run_one(b, v, dt, op, n, off, 1, NULL), "v%d partials %s %s n=%zu", v->id,
                          gk_dtype_name(dt), gk_reduce_op_name(op), n);
                if (dt == GK_F32 && op == GK_REDUCE_SUM && v->f32_sum_deterministic && n > 1000) {
                    run_one(b, v, dt, op, n, off, 0, &again);
                    CHECK(first == again, "v%d is documented deterministic: f32 sum n=%zu gave %08x then %08x",
                          v->id, n, (unsigned)first, (unsigned)again);
                }
            }
        }
    }
    /* Every alignment of the input, at one size. */
    size_t n = 4097;
    for (size_t off = 0; off < 4; ++off) {
        fill(b, GK_F32, n, mix(seed, (uint64_t)v->id, 7, off));
        upload(b, n, off);
        CHECK(run_one(b, v, GK_F32, GK_REDUCE_SUM, n, off, 0, NULL), "v%d offset %zu", v->id, off);
    }
    test_slots_cleared(b, v, seed);
    printf("variant %2d %-24s %s\n", v->id, v->name, check_failed == before ? "ok" : "FAILED");
}

static int test_large(buffers *b, const gk_reduce_variant *only, uint64_t seed)
{
    const size_t n = ((size_t)1 << 31) + 17;
    size_t free_b = 0, total_b = 0;
    TRY_CUDA(cudaMemGetInfo(&free_b, &total_b));
    size_t need = (n + 4) * 4 + ((size_t)64 << 20) + ((size_t)512 << 20);
    void *probe = malloc(n * 4);
    if (free_b < need || probe == NULL) {
        free(probe);
        printf("SKIPPED: n = 2^31+17 needs %.1f GB free on the GPU (has %.1f) and %.1f GB of host memory%s\n",
               need / 1e9, free_b / 1e9, n * 4 / 1e9, probe ? "" : " (malloc failed)");
        return GK_TEST_SKIP;
    }
    free(probe);
    for (int d = 0; d < 2; ++d) {
        gk_dtype dt = (gk_dtype)d;
        printf("n = 2^31+17 %s: generating the input...\n", gk_dtype_name(dt));
        fflush(stdout);
        fill(b, dt, n, mix(seed, 99, (uint64_t)d, n));
        upload(b, n, 1);
        for (size_t i = 0; i < gk_reduce_variant_count(); ++i) {
            const gk_reduce_variant *v = gk_reduce_variant_at(i);
            if (only && v != only) continue;
            if (!(v->forms & GK_REDUCE_FORM_ARRAY)) continue;
            for (int o = 0; o < 3; ++o) {
                gk_reduce_op op = (gk_reduce_op)o;
                if (!(v->ops & GK_REDUCE_OP_BIT(op))) continue;
                if (op != GK_REDUCE_SUM && v->id != gk_reduce_best_variant()) continue;
                CHECK(run_one(b, v, dt, op, n, 1, 0, NULL), "v%d %s %s n=2^31+17", v->id, gk_dtype_name(dt),
                      gk_reduce_op_name(op));
                printf("  v%02d %s %s done\n", v->id, gk_dtype_name(dt), gk_reduce_op_name(op));
                fflush(stdout);
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int variant = 0, large = 0;
    uint64_t seed = gk_test_new_seed();
    const char *size_list = default_sizes;
    const gk_test_option opts[] = {{"--sizes", NULL, &size_list}, {"--large", &large, NULL}};
    if (gk_test_args(argc, argv, opts, 2, "test_reduce_gpu [--variant ID] [--sizes LIST] [--large] [--seed S]",
                     &variant, &seed) != 0)
        return 2;
    size_t sizes[GK_CLI_MAX_LIST];
    int nsizes = 0;
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", size_list);
    for (char *t = strtok(tmp, ","); t && nsizes < GK_CLI_MAX_LIST; t = strtok(NULL, ","))
        if (gk_parse_size(t, &sizes[nsizes++]) != 0) {
            printf("bad size '%s'\n", t);
            return 2;
        }

    gk_device_info dev;
    const gk_reduce_variant *only = variant ? gk_reduce_find_variant(variant) : NULL;
    int rc = gk_test_start(gk_test_open_gpu(&dev, seed), variant, only != NULL);
    if (rc != 0) return rc;
    if (only != NULL && !(only->forms & GK_REDUCE_FORM_ARRAY)) {
        printf("SKIPPED: variant %d has no whole-array form; test_reduce_forms_gpu tests it\n", only->id);
        return GK_TEST_SKIP;
    }
    buffers b = {0};
    TRY_CUDA(cudaMalloc(&b.d_out, 4));
    if (large) {
        if (test_large(&b, only, seed) == GK_TEST_SKIP) return GK_TEST_SKIP;
    } else {
        for (size_t i = 0; i < gk_reduce_variant_count(); ++i) {
            const gk_reduce_variant *v = gk_reduce_variant_at(i);
            if (!(v->forms & GK_REDUCE_FORM_ARRAY)) continue; /* test_reduce_forms_gpu's */
            if (only == NULL || v == only) test_variant(&b, v, sizes, nsizes, seed);
        }
    }
    cudaFree(b.d_in);
    cudaFree(b.d_out);
    cudaFree(b.d_partials);
    cudaFree(b.d_ws);
    free(b.h_in);
    free(b.h_partials);
    free(b.ref_pf);
    free(b.ref_pi);
    return check_summary("test_reduce_gpu");
}
