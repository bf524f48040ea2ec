/* GPU test of the promise every public header makes: any call may be made
 * from several host threads at once, on different streams or devices, with
 * nothing shared between them.
 *
 * The calls: every variant of every module (reduce; gemm's fp32/TF32 rungs
 * through gk_gemm and its 16-bit rungs through gk_gemm_bf16; histogram;
 * conv), each at several sizes chosen so that
 * the launch settings change from call to call: the grid, the block count of
 * the multi-pass drivers, and above all the dynamic shared memory a launcher
 * sizes from the call (histogram bins 100 and 256 of u8 samples, 256, 4096,
 * 65536, 100000 and 2^20 of u32: sub-histograms from 1 KiB of shared memory
 * to more than a block can have, each at n = 4099 and 2^20 + 13; conv widths
 * 3, 7, 31, 127 and 1023 at n = 1000 and 2^20 + 13; reduce f32 and i32 sum,
 * max and min at n = 1, 1000 and 2^20 + 13; gemm shapes 64x48x40,
 * 300x100x200, 257x129x65, 256x192x128 and 1000x7x129, m != n != k, whose
 * rows the TMA can or cannot address). Each call has its own input (fresh
 * random data, never zeros, a new seed every run, printed for --seed), its
 * own output, its own workspace and its own stream. The inputs of reduce,
 * histogram and conv start 0-3 elements past a 256-byte boundary; gemm's
 * matrices start on one (so that the TMA paths run where the rows allow).
 * Where several GPUs are visible the calls are dealt to them in turn, so
 * calls on different devices run at the same time too.
 *
 * 1. Alone: every call is made once, serially, each synchronized before the
 *    next, and its output bytes kept. A call that returns
 *    GK_ERROR_UNSUPPORTED here (a wgmma variant on a GPU other than sm_90,
 *    or a library built without sm_90a) is skipped from then on and counted.
 * 2. Together: T host threads (8 by default) take the calls from a shared
 *    atomic index, in an order that changes each round (in order, so that
 *    neighbouring threads run one variant at different sizes, then reversed,
 *    then shuffled). A thread makes each call on a stream it creates for
 *    that call, poisons the output first (a byte that differs from round to
 *    round and from the alone run, so an element left unwritten shows) and
 *    copies the output back. R rounds (3 by default).
 * 3. Every output is compared with the same call made alone, BIT FOR BIT,
 *    and the bytes after it (a guard) must still hold the round's poison.
 *    The one exception: the f32 sums of the reduce variants whose headers
 *    say their block results are combined by atomicAdd in whatever order the
 *    hardware serves them (variant->f32_sum_deterministic == 0: variants 1,
 *    10, 11). Each run of such a sum is within gk_sum_tolerance (gk/verify.h)
 *    of the exact sum, so two runs are within twice that of each other: that
 *    is what is checked there (and that the result is finite). Everything
 *    else is deterministic by its header: integer sums, every max and min,
 *    the histogram counts, every gemm variant of both tables ("the same bits
 *    run to run", gk/gemm.h) and every conv variant (each adds in a fixed
 *    order of its own, gk/conv.h; none uses atomics).
 *
 *   test_threads_gpu [--small] [--threads T] [--rounds R] [--seed S]
 *
 * --small: fewer and smaller calls (reduce n = 1000 and 65537, f32 sum and
 * max, i32 sum and min; gemm 64x48x40 and 257x129x65; histogram n = 4099 at
 * u8 256 and u32 4096, 65536 and 100000 bins; conv n = 5000), what
 * scripts/sanitize.sh runs under compute-sanitizer. Exit 77 (a CTest skip)
 * when no GPU is visible.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gemm_ref.h"
#include "gk/conv.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/gemm.h"
#include "gk/histogram.h"
#include "gk/random.h"
#include "gk/reduce.h"
#include "gk/verify.h"
#include "gpu_test.h"
#include "histogram_ref.h"
#include "reduce_ref.h"
#include "test_util.h"

enum { GUARD = 256 };                 /* bytes after each output that no call may write */
static const unsigned char ALONE_POISON = 0xa5;
static const unsigned char ROUND_POISON[] = {0x5a, 0xc3, 0x3c, 0x96, 0x69};
#define N_ROUND_POISON (sizeof ROUND_POISON / sizeof ROUND_POISON[0])

typedef enum module { M_REDUCE, M_GEMM, M_GEMM_BF16, M_HISTOGRAM, M_CONV } module;
static const char *const module_name[] = {"reduce", "gemm", "gemm_bf16", "histogram", "conv"};

/* How an output's elements are printed when they differ. */
typedef enum value_type { VT_F32, VT_I32, VT_BF16, VT_U64 } value_type;
static const size_t value_size[] = {4, 4, 2, 8};

typedef struct call {
    module mod;
    int variant;
    char label[160];
    int device;
    /* The problem. reduce: dtype, op, n. gemm: m, n, k, alpha, beta (C is
     * m x n, dense leading dimensions). histogram: dtype, n, bins. conv: n,
     * width. */
    gk_dtype dtype;
    gk_reduce_op op;
    size_t m, n, k, bins, width;
    float alpha, beta;
    gk_hist_dist dist; /* histogram: the distribution the samples are drawn from */
    size_t offset; /* elements the input starts past its allocation (256-byte aligned) */
    value_type vt;
    /* The call's own device buffers. in2: gemm's B, conv's mask. c0: gemm's
     * C before the call (beta != 0), copied into out before each run. */
    void *d_in, *d_in2, *d_c0, *d_out, *d_ws;
    size_t in_bytes, out_bytes, ws_bytes;
    /* How the output is compared: bit for bit, or (tolerant) within 2 tol. */
    int tolerant;
    double tol;
    int unsupported;            /* GK_ERROR_UNSUPPORTED here: skipped */
    int excluded;               /* failed alone (counted): not run together */
    unsigned char *alone, *got; /* out_bytes + GUARD each */
    char error[320];            /* what went wrong in the latest run; "" when nothing */
} call;

typedef struct call_list {
    call *c;
    size_t count, cap;
} call_list;

static call *add_call(call_list *L, module mod, int variant)
{
    if (L->count == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 256;
        L->c = (call *)realloc(L->c, L->cap * sizeof *L->c);
        if (L->c == NULL) {
            printf("FATAL out of host memory\n");
            exit(1);
        }
    }
    call *c = &L->c[L->count++];
    memset(c, 0, sizeof *c);
    c->mod = mod;
    c->variant = variant;
    return c;
}

/* ---- the lists -------------------------------------------------------------- */

static void list_reduce(call_list *L, int small)
{
    static const size_t full_n[] = {1, 1000, ((size_t)1 << 20) + 13};
    static const size_t small_n[] = {1000, 65537};
    const size_t *ns = small ? small_n : full_n;
    size_t nn = small ? sizeof small_n / sizeof *small_n : sizeof full_n / sizeof *full_n;
    for (size_t i = 0; i < gk_reduce_variant_count(); ++i) {
        const gk_reduce_variant *v = gk_reduce_variant_at(i);
        for (int d = 0; d < 2; ++d) {
            gk_dtype dt = d ? GK_I32 : GK_F32;
            for (int o = 0; o < 3; ++o) {
                gk_reduce_op op = (gk_reduce_op)o;
                if (!(v->ops & GK_REDUCE_OP_BIT(op))) continue;
                if (small && op == (dt == GK_F32 ? GK_REDUCE_MIN : GK_REDUCE_MAX)) continue;
                for (size_t j = 0; j < nn; ++j) {
                    call *c = add_call(L, M_REDUCE, v->id);
                    c->dtype = dt;
                    c->op = op;
                    c->n = ns[j];
                    c->offset = L->count % 4;
                    c->vt = dt == GK_F32 ? VT_F32 : VT_I32;
                    c->out_bytes = 4;
                    /* Block results added by atomicAdd in any order: the
                     * last bits of an f32 sum may change run to run (gk/reduce.h). */
                    c->tolerant = dt == GK_F32 && op == GK_REDUCE_SUM && !v->f32_sum_deterministic;
                    snprintf(c->label, sizeof c->label, "reduce v%d %s %s %s n=%zu offset %zu", v->id, v->name,
                             gk_dtype_name(dt), gk_reduce_op_name(op), c->n, c->offset);
                }
            }
        }
    }
}

typedef struct gemm_shape {
    size_t m, n, k;
} gemm_shape;

static void list_gemm(call_list *L, int small, int bf16)
{
    /* Rows the TMA can address (64x48x40, 300x100x200 in fp32, 256x192x128)
     * and rows it cannot (257x129x65, 1000x7x129), m != n != k. */
    static const gemm_shape full[] = {{64, 48, 40}, {300, 100, 200}, {257, 129, 65}, {256, 192, 128}, {1000, 7, 129}};
    static const gemm_shape few[] = {{64, 48, 40}, {257, 129, 65}};
    const gemm_shape *sh = small ? few : full;
    size_t ns = small ? sizeof few / sizeof *few : sizeof full / sizeof *full;
    size_t count = bf16 ? gk_gemm_bf16_variant_count() : gk_gemm_variant_count();
    for (size_t i = 0; i < count; ++i) {
        const gk_gemm_variant *v = bf16 ? gk_gemm_bf16_variant_at(i) : gk_gemm_variant_at(i);
        if (!bf16 && !(v->types & GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32))) continue; /* the 16-bit rungs: bf16 = 1 */
        if (v->precision == GK_GEMM_FP8) continue; /* FP8 inputs: its own calls below */
        for (size_t j = 0; j < ns; ++j) {
            call *c = add_call(L, bf16 ? M_GEMM_BF16 : M_GEMM, v->id);
            c->m = sh[j].m;
            c->n = sh[j].n;
            c->k = sh[j].k;
            c->alpha = 1.5f;
            c->beta = (i + j) % 2 ? -0.5f : 0.0f; /* beta = 0: C (poisoned) is not read */
            c->vt = bf16 ? VT_BF16 : VT_F32;
            c->out_bytes = c->m * c->n * (bf16 ? 2 : 4);
            snprintf(c->label, sizeof c->label, "%s v%d %s %zux%zux%zu alpha %g beta %g", bf16 ? "gemm_bf16" : "gemm",
                     v->id, v->name, c->m, c->n, c->k, c->alpha, c->beta);
        }
    }
}

static void list_histogram(call_list *L, int small)
{
    typedef struct hcase {
        gk_dtype dt;
        size_t bins;
        int in_small;
    } hcase;
    static const hcase cases[] = {{GK_U8, 100, 0},      {GK_U8, 256, 1},     {GK_U32, 256, 0},
                                  {GK_U32, 4096, 1},    {GK_U32, 65536, 1},  {GK_U32, 100000, 1},
                                  {GK_U32, (size_t)1 << 20, 0}};
    static const size_t full_n[] = {4099, ((size_t)1 << 20) + 13};
    for (size_t i = 0; i < gk_histogram_variant_count(); ++i) {
        const gk_histogram_variant *v = gk_histogram_variant_at(i);
        for (size_t j = 0; j < sizeof cases / sizeof *cases; ++j) {
            if (small && !cases[j].in_small) continue;
            for (size_t q = 0; q < (small ? 1 : 2); ++q) {
                call *c = add_call(L, M_HISTOGRAM, v->id);
                c->dtype = cases[j].dt;
                c->bins = cases[j].bins;
                c->n = full_n[q];
                c->offset = L->count % 4;
                c->dist = (gk_hist_dist)(L->count % GK_DIST_COUNT); /* each in turn */
                c->vt = VT_U64;
                c->out_bytes = c->bins * 8;
                snprintf(c->label, sizeof c->label, "histogram v%d %s %s n=%zu bins=%zu %s offset %zu", v->id,
                         v->name, gk_dtype_name(c->dtype), c->n, c->bins, gk_hist_dist_name(c->dist), c->offset);
            }
        }
    }
}

static void list_conv(call_list *L, int small)
{
    static const size_t widths[] = {3, 7, 31, 127, 1023};
    static const size_t full_n[] = {1000, ((size_t)1 << 20) + 13};
    static const size_t small_n[] = {5000};
    const size_t *ns = small ? small_n : full_n;
    size_t nn = small ? 1 : 2;
    for (size_t i = 0; i < gk_conv_variant_count(); ++i) {
        const gk_conv_variant *v = gk_conv_variant_at(i);
        for (size_t j = 0; j < sizeof widths / sizeof *widths; ++j)
            for (size_t q = 0; q < nn; ++q) {
                call *c = add_call(L, M_CONV, v->id);
                c->width = widths[j];
                c->n = ns[q];
                c->offset = L->count % 4;
                c->vt = VT_F32;
                c->out_bytes = c->n * 4;
                snprintf(c->label, sizeof c->label, "conv v%d %s n=%zu width=%zu offset %zu", v->id, v->name, c->n,
                         c->width, c->offset);
            }
    }
}

/* ---- inputs ----------------------------------------------------------------- */

static uint64_t mix(uint64_t seed, uint64_t a)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL));
    return gk_rng_next(&r);
}

/* Upload `bytes` of h to a new device buffer of `bytes + lead` bytes, at
 * byte offset `lead`. Returns the buffer's start. */
static void *upload(const void *h, size_t bytes, size_t lead)
{
    void *d = NULL;
    TRY_CUDA(cudaMalloc(&d, bytes + lead + 16));
    TRY_CUDA(cudaMemset(d, 0x77, bytes + lead + 16));
    if (bytes) TRY_CUDA(cudaMemcpy((char *)d + lead, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

static const char *in_ptr(const call *c, size_t elem) { return (const char *)c->d_in + c->offset * elem; }

/* The call's inputs, output and workspace on its device; the workspace
 * size from the module's query. A query that says GK_ERROR_UNSUPPORTED
 * marks the call unsupported. */
static void prepare(call *c, uint64_t seed)
{
    TRY_CUDA(cudaSetDevice(c->device));
    TRY_CUDA(cudaMalloc(&c->d_out, c->out_bytes + GUARD));
    c->alone = (unsigned char *)gk_test_xmalloc(c->out_bytes + GUARD);
    c->got = (unsigned char *)gk_test_xmalloc(c->out_bytes + GUARD);
    gk_status s = gk_success();
    size_t need = 0;
    switch (c->mod) {
    case M_REDUCE: {
        void *h = gk_test_xmalloc(c->n * 4);
        if (c->dtype == GK_F32) {
            gk_fill_f32((float *)h, c->n, seed, -1.0f, 1.0f);
            gk_ref_f32 r = gk_reduce_ref_f32((const float *)h, c->n, c->op);
            c->tol = gk_sum_tolerance(c->n, r.sum_abs, r.value);
        } else {
            gk_fill_i32((int32_t *)h, c->n, seed, -100000, 100000);
        }
        c->d_in = upload(h, c->n * 4, c->offset * 4);
        free(h);
        s = gk_reduce(c->variant, c->dtype, c->op, in_ptr(c, 4), c->n, c->d_out, NULL, &need, 0);
        break;
    }
    case M_GEMM:
    case M_GEMM_BF16: {
        int bf16 = c->mod == M_GEMM_BF16;
        size_t es = bf16 ? 2 : 4, na = c->m * c->k, nb = c->k * c->n, nc = c->m * c->n;
        float *f = (float *)gk_test_xmalloc((na + nb + nc) * 4);
        gk_fill_f32(f, na + nb + nc, seed, -1.0f, 1.0f);
        void *h = f;
        if (bf16) {
            unsigned short *b = (unsigned short *)gk_test_xmalloc((na + nb + nc) * 2);
            for (size_t i = 0; i < na + nb + nc; ++i) b[i] = gk_bf16_bits(f[i]);
            h = b;
        }
        c->d_in = upload(h, na * es, 0);
        c->d_in2 = upload((char *)h + na * es, nb * es, 0);
        if (c->beta != 0.0f) c->d_c0 = upload((char *)h + (na + nb) * es, nc * es, 0);
        if (bf16) free(h);
        free(f);
        break; /* no workspace; an unsupported variant says so when called */
    }
    case M_HISTOGRAM: {
        size_t es = gk_dtype_size(c->dtype);
        void *h = gk_test_xmalloc(c->n * es);
        gk_hist_fill(c->dtype, h, c->n, c->bins, c->dist, seed);
        c->d_in = upload(h, c->n * es, c->offset * es);
        free(h);
        s = gk_histogram(c->variant, c->dtype, in_ptr(c, es), c->n, c->bins, (uint64_t *)c->d_out, NULL, &need, 0);
        break;
    }
    case M_CONV: {
        float *h = (float *)gk_test_xmalloc((c->n + c->width) * 4);
        gk_fill_f32(h, c->n + c->width, seed, -1.0f, 1.0f);
        c->d_in = upload(h, c->n * 4, c->offset * 4);
        c->d_in2 = upload(h + c->n, c->width * 4, 0);
        free(h);
        s = gk_conv1d(c->variant, (const float *)in_ptr(c, 4), c->n, (const float *)c->d_in2, c->width,
                      (float *)c->d_out, NULL, &need, 0);
        break;
    }
    }
    if (s.code == GK_ERROR_UNSUPPORTED) {
        c->unsupported = 1;
    } else if (!gk_ok(s)) {
        char e[512];
        gk_status_format(s, e, sizeof e);
        printf("FATAL %s: workspace query: %s\n", c->label, e);
        exit(1);
    }
    if (need) {
        TRY_CUDA(cudaMalloc(&c->d_ws, need));
        c->ws_bytes = need;
    }
}

/* ---- one run of one call ---------------------------------------------------- */

/* Poison the output (and the guard after it) and the workspace, restore C
 * where beta != 0, make the call on `st`, copy the output and the guard back
 * to c->got, wait. All on the call's own buffers and the given stream. */
static gk_status run_call(call *c, cudaStream_t st, unsigned char poison, unsigned char *dst)
{
    GK_CUDA_TRY(cudaMemsetAsync(c->d_out, poison, c->out_bytes + GUARD, st));
    if (c->d_ws) GK_CUDA_TRY(cudaMemsetAsync(c->d_ws, poison ^ 0xff, c->ws_bytes, st)); /* needs no initialisation */
    if (c->d_c0) GK_CUDA_TRY(cudaMemcpyAsync(c->d_out, c->d_c0, c->out_bytes, cudaMemcpyDeviceToDevice, st));
    size_t have = c->ws_bytes;
    gk_status s = gk_success();
    switch (c->mod) {
    case M_REDUCE:
        s = gk_reduce(c->variant, c->dtype, c->op, in_ptr(c, 4), c->n, c->d_out, c->d_ws, &have, st);
        break;
    case M_GEMM:
        s = gk_gemm(c->variant, c->m, c->n, c->k, c->alpha, (const float *)c->d_in, c->k, (const float *)c->d_in2,
                    c->n, c->beta, (float *)c->d_out, c->n, st);
        break;
    case M_GEMM_BF16:
        s = gk_gemm_bf16(c->variant, c->m, c->n, c->k, c->alpha, c->d_in, c->k, c->d_in2, c->n, c->beta, c->d_out,
                         c->n, st);
        break;
    case M_HISTOGRAM:
        s = gk_histogram(c->variant, c->dtype, in_ptr(c, gk_dtype_size(c->dtype)), c->n, c->bins,
                         (uint64_t *)c->d_out, c->d_ws, &have, st);
        break;
    case M_CONV:
        s = gk_conv1d(c->variant, (const float *)in_ptr(c, 4), c->n, (const float *)c->d_in2, c->width,
                      (float *)c->d_out, c->d_ws, &have, st);
        break;
    }
    if (!gk_ok(s)) {
        cudaStreamSynchronize(st); /* the poisoning is queued there; leave nothing in flight */
        return s;
    }
    GK_CUDA_TRY(cudaMemcpyAsync(dst, c->d_out, c->out_bytes + GUARD, cudaMemcpyDeviceToHost, st));
    GK_CUDA_TRY(cudaStreamSynchronize(st));
    return gk_success();
}

/* One run on a stream created for it (on the call's device) by the calling
 * thread. The failure, if any, goes to c->error. */
static int run_on_own_stream(call *c, unsigned char poison, unsigned char *dst)
{
    c->error[0] = '\0';
    gk_status s = GK_CUDA_STATUS(cudaSetDevice(c->device));
    cudaStream_t st = NULL;
    if (gk_ok(s)) s = GK_CUDA_STATUS(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    if (gk_ok(s)) s = run_call(c, st, poison, dst);
    if (st) {
        gk_status d = GK_CUDA_STATUS(cudaStreamDestroy(st));
        if (gk_ok(s)) s = d;
    }
    if (gk_ok(s)) return 1;
    gk_status_format(s, c->error, sizeof c->error);
    return s.code == GK_ERROR_UNSUPPORTED ? -1 : 0;
}

/* ---- the threads ------------------------------------------------------------ */

typedef struct round_state {
    call_list *L;
    const size_t *order; /* the calls, in the order the threads take them */
    size_t count;
    atomic_size_t next;
    unsigned char poison;
} round_state;

static void *worker(void *arg)
{
    round_state *r = (round_state *)arg;
    for (;;) {
        size_t i = atomic_fetch_add(&r->next, 1);
        if (i >= r->count) break;
        call *c = &r->L->c[r->order[i]];
        run_on_own_stream(c, r->poison, c->got);
    }
    /* The thread's CUDA state ends with it; nothing to tear down. */
    return NULL;
}

/* ---- comparing -------------------------------------------------------------- */

static void print_value(value_type vt, const unsigned char *p)
{
    switch (vt) {
    case VT_F32: {
        float f;
        uint32_t u;
        memcpy(&f, p, 4);
        memcpy(&u, p, 4);
        printf("%.9g (0x%08x)", f, u);
        break;
    }
    case VT_I32: {
        int32_t v;
        memcpy(&v, p, 4);
        printf("%d", v);
        break;
    }
    case VT_BF16: {
        unsigned short b;
        memcpy(&b, p, 2);
        printf("%.5g (0x%04x)", gk_bf16_value(b), b);
        break;
    }
    case VT_U64: {
        uint64_t v;
        memcpy(&v, p, 8);
        printf("%llu", (unsigned long long)v);
        break;
    }
    }
}

/* Does run `round`'s output of c match the alone run? When `show`, prints
 * the first mismatches (their element index, the value got and the value
 * alone). */
static int compare(const call *c, int round, unsigned char poison, int show)
{
    size_t es = value_size[c->vt], count = c->out_bytes / es, bad = 0;
    if (c->tolerant) {
        float got, alone;
        memcpy(&got, c->got, 4);
        memcpy(&alone, c->alone, 4);
        if (!isfinite(got) || fabs((double)got - (double)alone) > 2.0 * c->tol) {
            if (show)
                    printf("  %s, round %d: %.9g, alone %.9g: differ by %.3g, more than twice the sum's tolerance %.3g\n",
                       c->label, round, got, alone, fabs((double)got - (double)alone), c->tol);
            bad = 1;
        }
    } else if (memcmp(c->got, c->alone, c->out_bytes) != 0) {
        for (size_t i = 0; i < count; ++i)
            if (memcmp(c->got + i * es, c->alone + i * es, es) != 0) {
                if (++bad <= GK_VERIFY_SHOW && show) {
                    printf("  %s, round %d: [%zu] = ", c->label, round, i);
                    print_value(c->vt, c->got + i * es);
                    printf(", alone ");
                    print_value(c->vt, c->alone + i * es);
                    printf("\n");
                }
            }
        if (show)
            printf("  %s, round %d: %zu of %zu elements differ from the call made alone\n", c->label, round, bad,
                   count);
    }
    for (size_t g = 0; g < GUARD; ++g)
        if (c->got[c->out_bytes + g] != poison) {
            if (show) printf("  %s, round %d: wrote past its output (guard byte %zu)\n", c->label, round, g);
            ++bad;
            break;
        }
    return bad == 0;
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    int small = 0, threads = 8, rounds = 3;
    uint64_t seed = gk_test_new_seed();
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--small") == 0) small = 1;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else {
            printf("usage: test_threads_gpu [--small] [--threads T] [--rounds R] [--seed S]\n");
            return 2;
        }
    }
    if (threads < 1 || threads > 256 || rounds < 1) {
        printf("--threads takes 1 to 256, --rounds at least 1\n");
        return 2;
    }
    gk_device_info dev;
    if (gk_test_open_gpu(&dev, seed) != 0) return GK_TEST_SKIP;
    int ndev = 1;
    TRY_CUDA(cudaGetDeviceCount(&ndev));

    call_list L = {NULL, 0, 0};
    list_reduce(&L, small);
    list_gemm(&L, small, 0);
    list_gemm(&L, small, 1);
    list_histogram(&L, small);
    list_conv(&L, small);
    for (size_t i = 0; i < L.count; ++i) {
        L.c[i].device = (int)(i % (size_t)ndev);
        prepare(&L.c[i], mix(seed, i));
    }
    printf("%zu calls on %d device%s, %d host threads, %d rounds%s\n", L.count, ndev, ndev > 1 ? "s" : "", threads,
           rounds, small ? " (--small)" : "");
    fflush(stdout);

    /* 1. Alone. */
    size_t skipped[5] = {0}, made[5] = {0};
    for (size_t i = 0; i < L.count; ++i) {
        call *c = &L.c[i];
        if (!c->unsupported) {
            int r = run_on_own_stream(c, ALONE_POISON, c->alone);
            if (r < 0) c->unsupported = 1;
            CHECK(r != 0, "%s, alone: %s", c->label, c->error);
            if (r == 0) c->excluded = 1; /* nothing to compare with */
            if (r > 0) {
                size_t g = 0;
                while (g < GUARD && c->alone[c->out_bytes + g] == ALONE_POISON) ++g;
                CHECK(g == GUARD, "%s, alone: wrote past its output (guard byte %zu)", c->label, g);
            }
        }
        if (c->unsupported) ++skipped[c->mod];
        else ++made[c->mod];
    }
    for (int m = 0; m < 5; ++m)
        printf("%-9s %4zu calls, %3zu skipped (GK_ERROR_UNSUPPORTED on this GPU or build)\n", module_name[m],
               made[m] + skipped[m], skipped[m]);
    fflush(stdout);

    /* 2. Together, 3. compared. */
    size_t *order = (size_t *)gk_test_xmalloc(L.count * sizeof *order);
    pthread_t *tid = (pthread_t *)gk_test_xmalloc((size_t)threads * sizeof *tid);
    gk_rng shuffle;
    gk_rng_seed(&shuffle, seed ^ 0x5eed);
    for (int round = 1; round <= rounds; ++round) {
        size_t k = 0;
        for (size_t i = 0; i < L.count; ++i)
            if (!L.c[i].unsupported && !L.c[i].excluded) order[k++] = i;
        if (round % 3 == 2) { /* reversed */
            for (size_t i = 0; i < k / 2; ++i) {
                size_t t = order[i];
                order[i] = order[k - 1 - i];
                order[k - 1 - i] = t;
            }
        } else if (round % 3 == 0) { /* shuffled (Fisher-Yates) */
            for (size_t i = k; i > 1; --i) {
                size_t j = (size_t)(gk_rng_next(&shuffle) % i), t = order[i - 1];
                order[i - 1] = order[j];
                order[j] = t;
            }
        }
        round_state rs;
        rs.L = &L;
        rs.order = order;
        rs.count = k;
        atomic_init(&rs.next, 0);
        rs.poison = ROUND_POISON[(round - 1) % N_ROUND_POISON];
        for (size_t i = 0; i < L.count; ++i) L.c[i].error[0] = '\0';
        int started = 0;
        for (int t = 0; t < threads; ++t) {
            if (pthread_create(&tid[t], NULL, worker, &rs) != 0) {
                printf("FATAL pthread_create failed for thread %d\n", t);
                exit(1);
            }
            ++started;
        }
        for (int t = 0; t < started; ++t) pthread_join(tid[t], NULL);

        int before = check_failed, shown = 0;
        for (size_t i = 0; i < k; ++i) {
            call *c = &L.c[order[i]];
            CHECK(c->error[0] == '\0', "%s, round %d, on %d threads at once: %s", c->label, round, threads,
                  c->error);
            if (c->error[0]) continue;
            /* The mismatches of the first 20 failing calls are printed;
             * every failing call is counted. */
            int ok = compare(c, round, rs.poison, shown < 20);
            if (!ok) ++shown;
            CHECK(ok, "%s, round %d: differs from the same call made alone (call %zu of the list)", c->label, round,
                  order[i]);
        }
        printf("round %d (%s order): %zu calls on %d threads, %s\n", round,
               round % 3 == 1 ? "table" : round % 3 == 2 ? "reversed" : "shuffled", k, threads,
               check_failed == before ? "every output as made alone" : "FAILED");
        fflush(stdout);
    }

    for (size_t i = 0; i < L.count; ++i) {
        call *c = &L.c[i];
        cudaSetDevice(c->device);
        cudaFree(c->d_in);
        cudaFree(c->d_in2);
        cudaFree(c->d_c0);
        cudaFree(c->d_out);
        cudaFree(c->d_ws);
        free(c->alone);
        free(c->got);
    }
    free(L.c);
    free(order);
    free(tid);
    return check_summary("test_threads_gpu");
}
