/* gk_gemm_ex, and gk_gemm and gk_gemm_bf16 on top of it: argument checking
 * and dispatch through the table. Every check happens before anything is
 * launched or written. */
#include <stdint.h>

#include "gk/cuda_check.h"
#include "gk/gemm.h"
#include "../common/module.h"
#include "variants.h"


static const size_t k_elem_bytes[5] = {4, 2, 2, 1, 1}; /* f32, bf16, f16, e4m3, e5m2 */

static int is_fp8(gk_gemm_type t) { return t == GK_GEMM_TYPE_E4M3 || t == GK_GEMM_TYPE_E5M2; }
/* FP8 inputs: type_a and type_b are read (gk/gemm.h, "FP8"). */
static int fp8_inputs(const gk_gemm_desc *d) { return is_fp8(d->type_a) || is_fp8(d->type_b); }

gk_gemm_desc gk_gemm_desc_init(gk_gemm_type type, size_t m, size_t n, size_t k)
{
    gk_gemm_desc d;
    d.type = type;
    d.op_a = GK_GEMM_OP_N;
    d.op_b = GK_GEMM_OP_N;
    d.m = m;
    d.n = n;
    d.k = k;
    d.lda = 0;
    d.ldb = 0;
    d.ldc = 0;
    d.alpha = 1.0f;
    d.beta = 0.0f;
    d.batch = 1;
    d.stride_a = 0;
    d.stride_b = 0;
    d.stride_c = 0;
    d.epilogue = GK_GEMM_EPILOGUE_NONE;
    d.bias = NULL;
    d.compute = GK_GEMM_COMPUTE_DEFAULT;
    d.type_a = type;
    d.type_b = type;
    d.scale_a = NULL;
    d.scale_b = NULL;
    d.scale_a_rows = NULL;
    d.scale_b_cols = NULL;
    d.amax = NULL;
    d.fast_accum = 0;
    return d;
}

const char *gk_gemm_type_name(gk_gemm_type t)
{
    switch (t) {
    case GK_GEMM_TYPE_F32: return "f32";
    case GK_GEMM_TYPE_BF16: return "bf16";
    case GK_GEMM_TYPE_F16: return "f16";
    case GK_GEMM_TYPE_E4M3: return "e4m3";
    case GK_GEMM_TYPE_E5M2: return "e5m2";
    default: return "?";
    }
}

const char *gk_gemm_epilogue_name(gk_gemm_epilogue e)
{
    switch (e) {
    case GK_GEMM_EPILOGUE_NONE: return "none";
    case GK_GEMM_EPILOGUE_BIAS: return "bias";
    case GK_GEMM_EPILOGUE_BIAS_RELU: return "bias_relu";
    case GK_GEMM_EPILOGUE_BIAS_GELU: return "bias_gelu";
    default: return "?";
    }
}

/* The byte extents below stay under 2^62, so that no offset computed from
 * them (in size_t, in the kernels too) can wrap. */
#define EXTENT_LIMIT ((size_t)1 << 62)

/* Elements spanned by `batch` stored matrices of rows x cols (leading
 * dimension ld) `stride` apart: (batch - 1) stride + (rows - 1) ld + cols,
 * or 0 if that is at least `limit` (too large). 1 for an empty matrix. */
static size_t span(size_t rows, size_t cols, size_t ld, size_t batch, size_t stride, size_t limit)
{
    if (rows == 0 || cols == 0) return 1;
    if (ld != 0 && rows - 1 > (limit - cols) / ld) return 0;
    size_t one = (rows - 1) * ld + cols;
    if (one >= limit) return 0;
    if (batch > 1 && stride != 0) {
        if (batch - 1 > (limit - one) / stride) return 0;
        one += (batch - 1) * stride;
        if (one >= limit) return 0;
    }
    return one;
}

/* Do two of the batch's outputs share an element? C_z's element (i, j) is
 * at z s + i ldc + j (0 <= j < n <= ldc). Two products z < z' collide iff
 * (z' - z) s + di ldc + dj = 0 for some |di| < m, |dj| < n (within one
 * product the rows never overlap, ldc >= n). For each distance dz = z' - z
 * the best di leaves x = dz s modulo ldc or ldc minus it; once dz s passes
 * C's own extent (m - 1) ldc + n no larger dz can collide. Exact, and
 * O(batch) at worst (the interleaved layouts that pass, e.g. s = n with ldc
 * = batch n). */
static int outputs_overlap(size_t batch, size_t s, size_t m, size_t n, size_t ldc)
{
    const size_t extent = (m - 1) * ldc + n; /* < 2^62: checked before */
    for (size_t dz = 1; dz < batch; ++dz) {
        if (s != 0 && dz > (extent - 1) / s) return 0; /* dz s >= extent: none from here on */
        const size_t x = dz * s, q = x / ldc, r = x % ldc;
        if (q > m - 1) return 1;      /* then x - (m - 1) ldc lies in [0, n): a collision */
        if (r < n) return 1;          /* di = -q */
        if (q + 1 <= m - 1 && ldc - r < n) return 1; /* di = -(q + 1) */
    }
    return 0;
}

/* What the checks resolve, for the dispatch. */
typedef struct problem {
    size_t lda, ldb, ldc;
    int plain; /* as stored, one product, no epilogue */
    int fp8;   /* FP8 inputs: variant 18's run_fp8 */
} problem;

/* The checks of a description shared by gk_gemm_ex and the two wrappers, in
 * the order gk/gemm.h gives, up to the workspace (which only gk_gemm_ex
 * has). dense_ld: leading dimensions of 0 mean the dense ones (gk_gemm_ex);
 * the wrappers pass theirs as given. */
static gk_status check_desc(const gk_gemm_row *v, const gk_gemm_desc *d, int dense_ld, problem *p)
{
    if ((unsigned)d->type > (unsigned)GK_GEMM_TYPE_E5M2)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->type is not a gk_gemm_type");
    const int fp8 = fp8_inputs(d);
    if (fp8) {
        if ((unsigned)d->type_a > (unsigned)GK_GEMM_TYPE_E5M2 || (unsigned)d->type_b > (unsigned)GK_GEMM_TYPE_E5M2)
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->type_a or desc->type_b is not a gk_gemm_type");
        if (!is_fp8(d->type_a) || !is_fp8(d->type_b))
            return GK_FAIL(GK_ERROR_UNSUPPORTED,
                           "one FP8 operand beside a wider one: type_a and type_b are both E4M3/E5M2, or neither");
        if (d->type_a == GK_GEMM_TYPE_E5M2 && d->type_b == GK_GEMM_TYPE_E5M2)
            return GK_FAIL(GK_ERROR_UNSUPPORTED, "e5m2 x e5m2 is not offered (as in cuBLASLt): one operand is e4m3");
        if (is_fp8(d->type))
            return GK_FAIL(GK_ERROR_UNSUPPORTED, "C in FP8 is not offered: with FP8 inputs type is F32, BF16 or F16");
    } else {
        if (is_fp8(d->type))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT,
                           "desc->type is E4M3 or E5M2, an input type: set type_a and type_b to it, type to C's");
        if (d->scale_a != NULL || d->scale_b != NULL || d->scale_a_rows != NULL || d->scale_b_cols != NULL ||
            d->amax != NULL)
            return GK_FAIL(GK_ERROR_UNSUPPORTED, "scales and amax are for FP8 inputs (type_a, type_b E4M3/E5M2)");
    }
    if (d->fast_accum != 0 && d->fast_accum != 1)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->fast_accum is neither 0 nor 1");
    if ((unsigned)d->op_a > (unsigned)GK_GEMM_OP_T || (unsigned)d->op_b > (unsigned)GK_GEMM_OP_T)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->op_a or desc->op_b is not a gk_gemm_op");
    if ((unsigned)d->epilogue > (unsigned)GK_GEMM_EPILOGUE_BIAS_GELU)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->epilogue is not a gk_gemm_epilogue");
    if ((unsigned)d->compute > (unsigned)GK_GEMM_COMPUTE_TF32)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->compute is not a gk_gemm_compute");
    if (d->compute == GK_GEMM_COMPUTE_TF32 && d->type != GK_GEMM_TYPE_F32)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->compute is TF32 and the type is not F32");
    if (d->compute == GK_GEMM_COMPUTE_TF32 && fp8)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "desc->compute is TF32 and the inputs are FP8 (TF32 is for fp32 inputs)");
    if (d->batch == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "desc->batch is 0 (one product or more)");
    if (d->m > GK_GEMM_MAX_DIM || d->n > GK_GEMM_MAX_DIM || d->k > GK_GEMM_MAX_DIM)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "m, n or k is above GK_GEMM_MAX_DIM (2^31 - 1)");
    if (d->batch > GK_GEMM_MAX_DIM) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "batch is above 2^31 - 1");
    /* Stored shapes: A is m x k (N) or k x m (T); B is k x n (N) or n x k (T). */
    const int ta = d->op_a == GK_GEMM_OP_T, tb = d->op_b == GK_GEMM_OP_T;
    const size_t a_rows = ta ? d->k : d->m, a_cols = ta ? d->m : d->k;
    const size_t b_rows = tb ? d->n : d->k, b_cols = tb ? d->k : d->n;
    p->lda = dense_ld && d->lda == 0 ? a_cols : d->lda;
    p->ldb = dense_ld && d->ldb == 0 ? b_cols : d->ldb;
    p->ldc = dense_ld && d->ldc == 0 ? d->n : d->ldc;
    if (p->lda < a_cols)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT,
                       ta ? "lda is smaller than m (op_a = T: A is stored k x m)"
                          : "lda is smaller than k (A is row-major m x k)");
    if (p->ldb < b_cols)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT,
                       tb ? "ldb is smaller than k (op_b = T: B is stored n x k)"
                          : "ldb is smaller than n (B is row-major k x n)");
    if (p->ldc < d->n) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "ldc is smaller than n (C is row-major m x n)");
    const size_t elem = k_elem_bytes[d->type], limit = EXTENT_LIMIT / elem;
    const size_t limit_ab = fp8 ? EXTENT_LIMIT : limit; /* FP8 elements are bytes */
    const size_t batch = d->batch;
    if (d->m != 0 && d->n != 0) {
        if (span(a_rows, a_cols, p->lda, batch, d->stride_a, limit_ab) == 0 ||
            span(b_rows, b_cols, p->ldb, batch, d->stride_b, limit_ab) == 0 ||
            span(d->m, d->n, p->ldc, batch, d->stride_c, limit) == 0)
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a matrix or batch spans 2^62 bytes or more: its offsets would overflow");
        if (batch > 1 && outputs_overlap(batch, d->stride_c, d->m, d->n, p->ldc))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT,
                           "stride_c makes two products of the batch write the same element of C");
    }
    if ((v->info.types & GK_GEMM_TYPE_BIT(d->type)) == 0)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant does not store this type (see variant->types)");
    if (fp8 && v->run_fp8 == NULL)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "FP8 inputs take the FP8 variant (18, precision GK_GEMM_FP8)");
    if (!fp8 && v->run_fp8 != NULL)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant multiplies FP8 inputs: set type_a and type_b (E4M3, E5M2)");
    p->fp8 = fp8;
    if (fp8) {
        p->plain = 0;
        return gk_success();
    }
    p->plain = !ta && !tb && batch == 1 && d->epilogue == GK_GEMM_EPILOGUE_NONE;
    if (!p->plain && v->run_ex == NULL)
        return GK_FAIL(GK_ERROR_UNSUPPORTED,
                       "this variant takes only the default description: operands as stored, one product, no "
                       "epilogue (see variant->extended)");
    return gk_success();
}

/* After the workspace: the pointers, then the launch. */
/* GK_GEMM_AUTO's split-K (gk/gemm.h): `splits` slices of kc (the last
 * one shorter when kc does not divide k). splits = 1: no split. The rest,
 * set by split_slices once the leading dimensions are known: `whole`
 * slices of kc run as one batch, `last` (0 when kc divides k) is the depth
 * of the shorter one after them, slice z starts sa elements into A and sb
 * into B, and the partials take partial_bytes at the workspace's start. */
typedef struct split_plan {
    size_t splits, kc;
    size_t whole, last, sa, sb, partial_bytes;
} split_plan;

static void split_slices(split_plan *sp, const gk_gemm_desc *d, const problem *p)
{
    const size_t k = d->k, kc = sp->kc;
    sp->whole = k % kc == 0 ? sp->splits : sp->splits - 1;
    sp->last = k - sp->whole * kc;
    /* Slice z: A's columns z kc .. (rows, stored k x m), B's rows (columns, stored n x k). */
    sp->sa = d->op_a == GK_GEMM_OP_T ? kc * p->lda : kc;
    sp->sb = d->op_b == GK_GEMM_OP_T ? kc : kc * p->ldb;
    /* No overflow: fewer than 64 tiles of 256 x 128 or 128 x 256 (10, 12),
     * or at most 32 pairs of 128 x 256 tiles (17), keep m and n below 2^14,
     * and splits <= k / 512 < 2^22; at most 264 tiles of 64 x 64 (21, 22) keep
     * m n below 2^21 and splits <= 528. Whole granules, so that
     * the variant's scratch after them stays 256-byte aligned. */
    sp->partial_bytes = (sp->splits * d->m * d->n * sizeof(float) + 255) / 256 * 256;
}

/* The split product: the slices as one strided batch of the variant
 * itself (alpha 1, beta 0, no epilogue) into dense fp32 partials at the
 * workspace's start (a shorter last slice as a second call), the
 * variant's own scratch after them, then gemm/split_k.cu's fixed-order sum
 * with alpha, beta and the epilogue. */
static cudaError_t run_split(const gk_gemm_row *v, const gk_gemm_desc *d, const problem *p, const split_plan *sp,
                             const void *a, const void *b, void *c, void *workspace, cudaStream_t stream)
{
    const size_t m = d->m, n = d->n, mn = m * n, whole = sp->whole, sa = sp->sa, sb = sp->sb;
    float *const partials = (float *)workspace;
    void *const inner = (unsigned char *)workspace + sp->partial_bytes;
    cudaError_t err;
    if (v->split != NULL) {
        /* Variant 17: every slice, the shorter last one too, in one launch. */
        err = v->split((int)d->type, (int)d->op_a, (int)d->op_b, m, n, d->k, sp->kc, sp->splits, a, p->lda, b,
                       p->ldb, partials, stream);
    } else {
        const float *fa = (const float *)a, *fb = (const float *)b;
        err = v->run_ex(0, (int)d->op_a, (int)d->op_b, m, n, sp->kc, 1.0f, fa, p->lda, sa, fb, p->ldb, sb, 0.0f,
                        partials, n, mn, whole, 0, NULL, inner, stream);
        if (err == cudaSuccess && sp->last > 0)
            err = v->run_ex(0, (int)d->op_a, (int)d->op_b, m, n, sp->last, 1.0f, fa + whole * sa, p->lda, 0,
                            fb + whole * sb, p->ldb, 0, 0.0f, partials + whole * mn, n, 0, 1, 0, NULL, inner, stream);
    }
    if (err == cudaSuccess)
        err = gk_gemm_split_k_sum((int)d->type, partials, sp->splits, m, n, d->alpha, d->beta, c, p->ldc,
                                  (int)d->epilogue, d->bias, stream);
    return err;
}

/* The FP8 rung's view of a checked description. */
static gk_gemm_fp8_problem fp8_problem(const gk_gemm_desc *d, const problem *p, const void *a, const void *b,
                                       void *c)
{
    const int batched = d->batch > 1;
    gk_gemm_fp8_problem f = {
        .type_a = (int)d->type_a, .type_b = (int)d->type_b, .type_c = (int)d->type,
        .op_a = (int)d->op_a, .op_b = (int)d->op_b,
        .m = d->m, .n = d->n, .k = d->k, .batch = d->batch,
        .a = a, .b = b, .lda = p->lda, .ldb = p->ldb,
        .stride_a = batched ? d->stride_a : 0, .stride_b = batched ? d->stride_b : 0,
        .c = c, .ldc = p->ldc, .stride_c = batched ? d->stride_c : 0,
        .alpha = d->alpha, .beta = d->beta, .epilogue = (int)d->epilogue, .bias = d->bias,
        .scale_a = d->scale_a, .scale_b = d->scale_b, .scale_a_rows = d->scale_a_rows,
        .scale_b_cols = d->scale_b_cols, .amax = d->amax, .fast_accum = d->fast_accum};
    return f;
}

static gk_status run_checked(const gk_gemm_row *v, const gk_gemm_desc *d, const problem *p, const split_plan *sp,
                             const void *a, const void *b, void *c, void *workspace, cudaStream_t stream)
{
    if (d->m == 0 || d->n == 0) return gk_success(); /* nothing to compute */
    const size_t elem = k_elem_bytes[d->type];
    if (c == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "c is NULL and C is not empty");
    if (d->k > 0 && (a == NULL || b == NULL)) return GK_FAIL(GK_ERROR_NULL_POINTER, "a or b is NULL and k > 0");
    if (d->epilogue != GK_GEMM_EPILOGUE_NONE && d->bias == NULL)
        return GK_FAIL(GK_ERROR_NULL_POINTER, "desc->bias is NULL and the epilogue adds a bias");
    if (p->fp8) {
        /* FP8 elements are bytes: a and b need no alignment. */
        if (gk_misaligned(c, elem) || (d->epilogue != GK_GEMM_EPILOGUE_NONE && gk_misaligned(d->bias, elem)))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "c or bias is not aligned to C's element");
        if (gk_misaligned(d->scale_a, 4) || gk_misaligned(d->scale_b, 4) || gk_misaligned(d->scale_a_rows, 4) ||
            gk_misaligned(d->scale_b_cols, 4) || gk_misaligned(d->amax, 4))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a scale pointer or amax is not aligned to 4 bytes (a float)");
    } else if (gk_misaligned(c, elem) || (d->k > 0 && (gk_misaligned(a, elem) || gk_misaligned(b, elem))) ||
               (d->epilogue != GK_GEMM_EPILOGUE_NONE && gk_misaligned(d->bias, elem))) {
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, elem == sizeof(float)
                                                      ? "a, b, c or bias is not aligned to 4 bytes (a float)"
                                                      : "a, b, c or bias is not aligned to 2 bytes (a 16-bit element)");
    }
    /* A variant with scratch takes its workspace through run_ex, a plain
     * description too (10, 12, 17 and 23 copy rows they cannot read with
     * the TMA or 16-byte loads). */
    const int ws_ex = workspace != NULL && v->scratch != NULL && v->run_ex != NULL;
    cudaError_t err;
    if (p->fp8) {
        const gk_gemm_fp8_problem f = fp8_problem(d, p, a, b, c);
        err = v->run_fp8(f.type_a, f.type_b, f.type_c, f.op_a, f.op_b, f.m, f.n, f.k, f.batch, f.a, f.lda,
                         f.stride_a, f.b, f.ldb, f.stride_b, f.c, f.ldc, f.stride_c, f.alpha, f.beta, f.epilogue,
                         f.bias, f.scale_a, f.scale_b, f.scale_a_rows, f.scale_b_cols, f.amax, f.fast_accum,
                         workspace, stream);
    } else if (sp != NULL && sp->splits > 1 && d->k > 0 &&
               (err = run_split(v, d, p, sp, a, b, c, workspace, stream)) != cudaErrorNotSupported) {
        /* Split. (Variant 17 answers cudaErrorNotSupported, before it
         * launches anything, where the TMA cannot address a or b: such a
         * call runs unsplit below, in the same workspace.) */
    } else if (p->plain && d->type == GK_GEMM_TYPE_F32 && v->run != NULL && !ws_ex)
        err = v->run(d->m, d->n, d->k, d->alpha, (const float *)a, p->lda, (const float *)b, p->ldb, d->beta,
                     (float *)c, p->ldc, stream);
    else if (p->plain && d->type == GK_GEMM_TYPE_BF16 && v->run16 != NULL && !ws_ex)
        err = v->run16(d->m, d->n, d->k, d->alpha, a, p->lda, b, p->ldb, d->beta, c, p->ldc, stream);
    else if (v->run_ex != NULL)
        err = v->run_ex((int)d->type, (int)d->op_a, (int)d->op_b, d->m, d->n, d->k, d->alpha, a, p->lda,
                        d->stride_a, b, p->ldb, d->stride_b, d->beta, c, p->ldc, d->stride_c, d->batch,
                        (int)d->epilogue, d->bias, workspace, stream);
    else
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant does not take this description");
    if (err == cudaErrorNotSupported)
        return GK_FAIL(GK_ERROR_UNSUPPORTED,
                       "this variant cannot run here: see variant->min_cc (the wgmma variants need a cc 9.0 GPU "
                       "and a build for sm_90a)");
    if (err == cudaErrorInvalidConfiguration)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "the product needs more thread blocks or tiles than one launch can have");
    return GK_CUDA_STATUS(err);
}

/* k cut into s slices of kc = ceil(k / s) rounded up to a multiple of the
 * variant's k-tile (granule), then s = ceil(k / kc); no split (1 slice of
 * k) unless that leaves 2 or more. The last slice may be shorter. */
static split_plan split_into(const gk_gemm_desc *d, size_t s, size_t granule)
{
    split_plan sp = {.splits = 1, .kc = d->k};
    if (s < 2) return sp;
    const size_t kc = ((d->k + s - 1) / s + granule - 1) / granule * granule;
    sp.splits = (d->k + kc - 1) / kc;
    sp.kc = kc;
    if (sp.splits < 2) sp.splits = 1, sp.kc = d->k;
    return sp;
}

/* The rows of A and B (every product's) are whole 16-byte units: lda, ldb
 * and, for a batch, the strides are multiples of 8 elements (4 for F32:
 * the rows the TMA and cp.async address; the pointers are the call's to
 * check). */
static int rows16_bits(const gk_gemm_desc *d, int dense_ld)
{
    const int ta = d->op_a == GK_GEMM_OP_T, tb = d->op_b == GK_GEMM_OP_T;
    const size_t per = d->type == GK_GEMM_TYPE_F32 ? 4 : 8;
    const size_t lda = dense_ld && d->lda == 0 ? (ta ? d->m : d->k) : d->lda;
    const size_t ldb = dense_ld && d->ldb == 0 ? (tb ? d->k : d->n) : d->ldb;
    return lda % per == 0 && ldb % per == 0 &&
           (d->batch <= 1 || (d->stride_a % per == 0 && d->stride_b % per == 0));
}

/* GK_GEMM_AUTO's split of k for variant 17 (gk/gemm.h, "Split-K"): BF16
 * and F16, one product, k >= GK_GEMM_SPLIT16_MIN_K, A's and B's rows
 * whole 16-byte units (lda, ldb multiples of 8 elements: the TMA's), and at
 * most GK_GEMM_SPLIT16_MAX_PAIRS units of its work (pairs of 128 x 256
 * tiles stacked along m, one per cluster of 2 CTAs): S =
 * min(floor(GK_GEMM_SPLIT16_CLUSTERS / pairs), floor(k /
 * GK_GEMM_SPLIT16_MIN_KC)) >= 2 slices of kc = ceil(k / S) rounded up to a
 * multiple of 64 (its k-tile; then S = ceil(k / kc)). */
static split_plan auto_split16(const gk_gemm_desc *d, int dense_ld)
{
    split_plan sp = {.splits = 1, .kc = d->k};
    if (d->type == GK_GEMM_TYPE_F32 || fp8_inputs(d) || d->batch != 1 || d->m == 0 || d->n == 0 ||
        d->m > GK_GEMM_MAX_DIM || d->n > GK_GEMM_MAX_DIM || d->k > GK_GEMM_MAX_DIM || d->k < GK_GEMM_SPLIT16_MIN_K)
        return sp;
    if (!rows16_bits(d, dense_ld)) return sp;
    const size_t pairs = ((d->m + 255) / 256) * ((d->n + 255) / 256);
    if (pairs > GK_GEMM_SPLIT16_MAX_PAIRS) return sp;
    size_t s = GK_GEMM_SPLIT16_CLUSTERS / pairs;
    if (s > d->k / GK_GEMM_SPLIT16_MIN_KC) s = d->k / GK_GEMM_SPLIT16_MIN_KC;
    return split_into(d, s, 64);
}

/* GK_GEMM_AUTO's split of k for variants 21 and 22 (gk/gemm.h, "Split-K"):
 * any type (F32: 21 on TF32, 22 in fp32), one product, k >= GK_GEMM_SPLIT21_MIN_K, at most
 * GK_GEMM_SPLIT21_CTAS / 2 tiles of 64 x 64 (so m n < 2^21: no overflow
 * below): S = min(floor(GK_GEMM_SPLIT21_CTAS / tiles), floor(k / kc_min))
 * >= 2 slices (kc_min = GK_GEMM_SPLIT21_MIN_KC, GK_GEMM_SPLIT21_GATHER_MIN_KC
 * where A's or B's rows are not whole 16-byte units, 4 GK_GEMM_SPLIT21_MIN_KC
 * past GK_GEMM_SPLIT21_CTAS / 4 tiles) of kc = ceil(k / S) rounded up to a
 * multiple of 64 (then S = ceil(k / kc)). Any layout and leading dimension. */
static split_plan auto_split21(const gk_gemm_desc *d)
{
    split_plan sp = {.splits = 1, .kc = d->k};
    if (fp8_inputs(d) || d->batch != 1 || d->m == 0 || d->n == 0 || d->m > GK_GEMM_MAX_DIM ||
        d->n > GK_GEMM_MAX_DIM || d->k > GK_GEMM_MAX_DIM || d->k < GK_GEMM_SPLIT21_MIN_K)
        return sp;
    const size_t tm = (d->m + 63) / 64, tn = (d->n + 63) / 64;
    if (tm > GK_GEMM_SPLIT21_CTAS || tn > GK_GEMM_SPLIT21_CTAS || tm * tn > GK_GEMM_SPLIT21_CTAS / 2) return sp;
    size_t s = GK_GEMM_SPLIT21_CTAS / (tm * tn);
    /* Rows of whole 16-byte units: the cp.async path. */
    const size_t kc_rows = rows16_bits(d, 1) ? GK_GEMM_SPLIT21_MIN_KC : GK_GEMM_SPLIT21_GATHER_MIN_KC;
    /* Past one tile per SM (2 slices at most), slices of at least 4 GK_GEMM_SPLIT21_MIN_KC. */
    const size_t min_kc = tm * tn > GK_GEMM_SPLIT21_CTAS / 4 ? 4 * GK_GEMM_SPLIT21_MIN_KC : kc_rows;
    if (s > d->k / min_kc) s = d->k / min_kc;
    return split_into(d, s, 64);
}

/* GK_GEMM_AUTO's split of k for variant 22 (gk/gemm.h, "Split-K"): F32 in
 * fp32, one product, k >= GK_GEMM_SPLIT22_MIN_K, at most
 * GK_GEMM_SPLIT22_MAX_TILES tiles of 64 x 64: S = min(floor(GK_GEMM_SPLIT21_CTAS
 * / tiles), floor(k / kc_min)) >= 2 slices, kc_min = GK_GEMM_SPLIT22_MIN_KC up
 * to GK_GEMM_SPLIT21_CTAS / 4 tiles and GK_GEMM_SPLIT22_WIDE_MIN_KC past it;
 * kc = ceil(k / S) rounded up to a multiple of 64 (then S = ceil(k / kc)). */
static split_plan auto_split22(const gk_gemm_desc *d)
{
    split_plan sp = {.splits = 1, .kc = d->k};
    if (d->batch != 1 || d->m == 0 || d->n == 0 || d->m > GK_GEMM_MAX_DIM || d->n > GK_GEMM_MAX_DIM ||
        d->k > GK_GEMM_MAX_DIM || d->k < GK_GEMM_SPLIT22_MIN_K)
        return sp;
    const size_t tm = (d->m + 63) / 64, tn = (d->n + 63) / 64;
    if (tm > GK_GEMM_SPLIT22_MAX_TILES || tn > GK_GEMM_SPLIT22_MAX_TILES) return sp;
    const size_t tiles = tm * tn;
    if (tiles > GK_GEMM_SPLIT22_MAX_TILES) return sp;
    size_t s = GK_GEMM_SPLIT21_CTAS / tiles;
    const size_t min_kc = tiles > GK_GEMM_SPLIT21_CTAS / 4 ? GK_GEMM_SPLIT22_WIDE_MIN_KC : GK_GEMM_SPLIT22_MIN_KC;
    if (s > d->k / min_kc) s = d->k / min_kc;
    return split_into(d, s, 64);
}

/* GK_GEMM_AUTO's split of k for variant 23 (gk/gemm.h, "Split-K"): BF16
 * and F16, one product, k >= GK_GEMM_SPLIT23_MIN_K, A's and B's rows whole
 * 16-byte units (its TMA's), at most GK_GEMM_SPLIT23_CTAS / 2 of its
 * 128 x 64 tiles: S = min(floor(GK_GEMM_SPLIT23_CTAS / tiles), floor(k /
 * GK_GEMM_SPLIT23_MIN_KC)) >= 2 slices of kc = ceil(k / S) rounded up to a
 * multiple of 64 (then S = ceil(k / kc)). */
static split_plan auto_split23(const gk_gemm_desc *d, int dense_ld)
{
    split_plan sp = {.splits = 1, .kc = d->k};
    if (d->type == GK_GEMM_TYPE_F32 || fp8_inputs(d) || d->batch != 1 || d->m == 0 || d->n == 0 ||
        d->m > GK_GEMM_MAX_DIM || d->n > GK_GEMM_MAX_DIM || d->k > GK_GEMM_MAX_DIM || d->k < GK_GEMM_SPLIT23_MIN_K)
        return sp;
    if (!rows16_bits(d, dense_ld)) return sp;
    const size_t tm = (d->m + 127) / 128, tn = (d->n + 63) / 64;
    if (tm > GK_GEMM_SPLIT23_CTAS || tn > GK_GEMM_SPLIT23_CTAS || tm * tn > GK_GEMM_SPLIT23_CTAS / 2) return sp;
    size_t s = GK_GEMM_SPLIT23_CTAS / (tm * tn);
    if (s > d->k / GK_GEMM_SPLIT23_MIN_KC) s = d->k / GK_GEMM_SPLIT23_MIN_KC;
    return split_into(d, s, 64);
}

/* Whether variant 23, unsplit, fills the GPU once (gk/gemm.h, "one
 * wave"): a product of at most GK_GEMM_WGMMA_WAVE_MAX_M rows whose CTAs
 * (its launcher's width: 128 x 128 tiles where those number 128 or more
 * over the batch, else 128 x 64) number GK_GEMM_WGMMA_WAVE_MIN_CTAS to
 * GK_GEMM_WGMMA_WAVE_MAX_CTAS. Factors checked before they multiply. */
static int wgmma_one_wave(const gk_gemm_desc *d)
{
    if (d->m == 0 || d->m > GK_GEMM_WGMMA_WAVE_MAX_M || d->n == 0 || d->n > GK_GEMM_MAX_DIM || d->batch == 0 ||
        d->batch > GK_GEMM_WGMMA_WAVE_MAX_CTAS)
        return 0;
    const size_t tm = (d->m + 127) / 128, wide = tm * ((d->n + 127) / 128), narrow = tm * ((d->n + 63) / 64);
    if (narrow > GK_GEMM_WGMMA_WAVE_MAX_CTAS * 2) return 0; /* then wide > the most, too */
    const size_t ctas = wide * d->batch >= 128 ? wide * d->batch : narrow * d->batch;
    return ctas >= GK_GEMM_WGMMA_WAVE_MIN_CTAS && ctas <= GK_GEMM_WGMMA_WAVE_MAX_CTAS;
}

/* m n batch and m n k batch of a product whose factors are each at most
 * GK_GEMM_MAX_DIM, saturated at 2^63. */
static void outputs_and_work(const gk_gemm_desc *d, size_t *outs, size_t *work)
{
    const size_t sat = (size_t)1 << 63, mn = d->m * d->n;
    *outs = d->batch == 0 || mn <= sat / d->batch ? mn * d->batch : sat;
    *work = d->k == 0 || *outs <= sat / d->k ? *outs * d->k : sat;
}

/* The tiny regions of variant 20 (gk/gemm.h), every type, for a non-empty
 * product whose factors are each at most GK_GEMM_MAX_DIM: a short k and
 * few outputs; a k between the short and the long and few multiply-adds;
 * or few outputs with a long k, up to
 * GK_GEMM_TINY_LONGK_SPLIT_MAX_MNK multiply-adds where variant 21 (22)
 * would split k (can_split: the call has a workspace), else
 * GK_GEMM_TINY_LONGK_MAX_MNK. */
static int tiny(const gk_gemm_desc *d, int can_split)
{
    size_t outs, work;
    outputs_and_work(d, &outs, &work);
    if (d->k <= GK_GEMM_TINY_SHORT_K && outs <= GK_GEMM_TINY_SHORT_K_MAX_MN) return 1;
    if (d->k < GK_GEMM_TINY_LONGK_MIN_K)
        return outs <= GK_GEMM_TINY_MIDK_MAX_MN && work <= GK_GEMM_TINY_MIDK_MAX_MNK;
    if (d->k > GK_GEMM_TINY_MAX_K || outs > GK_GEMM_TINY_LONGK_MAX_MN) return 0;
    const int split = can_split && auto_split21(d).splits > 1;
    return work <= (split ? GK_GEMM_TINY_LONGK_SPLIT_MAX_MNK : GK_GEMM_TINY_LONGK_MAX_MNK);
}

static split_plan auto_split(const gk_gemm_desc *d, int id);

/* Whether an fp32 product (compute DEFAULT, sized) that 10 would split
 * along k goes to 10 rather than 22 (gk/gemm.h,
 * GK_GEMM_F32_SPLIT10_MIN_UNITS): A and B as stored, B's rows whole
 * 16-byte units, 10 would split k (sp, its auto_split), its tiles times
 * the slices at least GK_GEMM_F32_SPLIT10_MIN_UNITS, and C covering at
 * least 4/5 of its 128 x 256 tiles. 10 splits only below 64
 * tiles, so m < 8192 and n < 16384 there: no product overflows. */
static int split10_fills(const gk_gemm_desc *d, size_t ldb, split_plan sp)
{
    if (d->op_a != GK_GEMM_OP_N || d->op_b != GK_GEMM_OP_N || ldb % 4 != 0 || sp.splits < 2) return 0;
    const size_t tiles = ((d->m + 127) / 128) * ((d->n + 255) / 256);
    return tiles * sp.splits >= GK_GEMM_F32_SPLIT10_MIN_UNITS && 5 * d->m * d->n >= 4 * tiles * 128 * 256;
}

/* GK_GEMM_AUTO's table (gk/gemm.h). Reads the description only; a
 * description check_desc rejects may pick anything. can_split: the call
 * has a workspace (gk_gemm_ex), so that variants 17, 21 and 23 may split k
 * and 17 and 23 may copy rows their TMA cannot address. */
static int auto_pick(const gk_gemm_desc *d, int dense_ld, int can_split)
{
    if (fp8_inputs(d)) return 18;
    if (d->type != GK_GEMM_TYPE_F32) {
        /* Skinny: a few rows of op(A) against a weight of 2 MiB or more (n k
         * compared without overflow: each factor is checked first) whose
         * rows are whole 16-byte units (variant 19's stream). */
        const int wt = d->op_b == GK_GEMM_OP_T;
        const size_t max_m = wt ? GK_GEMM_SKINNY_MAX_M : GK_GEMM_SKINNY_MAX_M_KN;
        const size_t ldb_w = dense_ld && d->ldb == 0 ? (wt ? d->k : d->n) : d->ldb;
        const int w_rows16 = ldb_w % 8 == 0 && (d->batch <= 1 || d->stride_b % 8 == 0);
        const int skinny = d->m <= max_m && d->n <= GK_GEMM_MAX_DIM && d->k <= GK_GEMM_MAX_DIM &&
                           d->n * d->k >= GK_GEMM_SKINNY_MIN_NK && w_rows16;
        if (skinny) return 19;
        if (d->m == 0 || d->n == 0 || d->k == 0 || d->batch == 0) return 20; /* nothing to multiply */
        const size_t lim = GK_GEMM_MAX_DIM;
        if (d->m > lim || d->n > lim || d->k > lim || d->batch > lim) return 17; /* rejected by check_desc */
        size_t outs, work;
        outputs_and_work(d, &outs, &work);
        const size_t mn = d->m * d->n;
        const int rows16 = rows16_bits(d, dense_ld);
        const int split21 = can_split && auto_split21(d).splits > 1;
        const int split23 = can_split && auto_split23(d, dense_ld).splits > 1;
        /* Tiny: a short k and few outputs, or a few outputs and a long k. */
        if (tiny(d, can_split)) return 20;
        /* A small C with a long k that none of 17, 21 and 23 can split. */
        if (mn <= GK_GEMM_LONGK_MAX_MN && d->k >= GK_GEMM_LONGK_MIN_K && !split21 && !split23 &&
            !(can_split && auto_split16(d, dense_ld).splits > 1))
            return 19;
        /* Mid-size: 23 on rows of 16-byte units (its TMA's), up to the work
         * where 17's wider tiles win; 23 also where it splits k, and where
         * a few hundred rows fill the GPU once with its tiles. Other rows
         * with a workspace (gk_gemm_ex), no split of 21 and enough work to
         * pay for the copies: 23 on padded copies in the workspace up to
         * 21's edge, then 17 on them. Otherwise: 21, then 17 (gathering
         * without a workspace). */
        if (rows16) return work <= GK_GEMM_WGMMA_MAX_MNK || split23 || wgmma_one_wave(d) ? 23 : 17;
        const int pad = can_split && !split21 && work >= GK_GEMM_PAD_MIN_MNK &&
                        (d->k >= GK_GEMM_PAD_MIN_K || work >= GK_GEMM_PAD_SHORTK_MIN_MNK);
        if (pad) return work <= GK_GEMM_MID_MAX_MNK_GATHER ? 23 : 17;
        return work <= GK_GEMM_MID_MAX_MNK_GATHER ? 21 : 17;
    }
    /* F32: the 16-bit types' tiny rule (variant 20's fp32 products); in
     * TF32, 12 (narrow tiles at these sizes) from a few million
     * multiply-adds where 21 would not split k, n is not narrow and 12 has
     * its TMA (rows of 16 bytes, or padded copies in gk_gemm_ex's
     * workspace); then the mid region (21 on TF32, 22 in fp32; either
     * splits k as 21 does), then the ladder's top rungs. */
    const int sized = d->m != 0 && d->n != 0 && d->k != 0 && d->batch != 0 && d->m <= GK_GEMM_MAX_DIM &&
                      d->n <= GK_GEMM_MAX_DIM && d->k <= GK_GEMM_MAX_DIM && d->batch <= GK_GEMM_MAX_DIM;
    const int ta = d->op_a == GK_GEMM_OP_T, tb = d->op_b == GK_GEMM_OP_T;
    const size_t ldb = dense_ld && d->ldb == 0 ? (tb ? d->k : d->n) : d->ldb;
    const int batched = d->batch > 1;
    const int rows16 = rows16_bits(d, dense_ld);
    const int tf32 = d->compute == GK_GEMM_COMPUTE_TF32;
    if (sized) {
        if (tiny(d, can_split)) return 20;
        size_t outs, work;
        outputs_and_work(d, &outs, &work);
        /* TF32 with a very short k, many outputs and C's rows not whole
         * 16-byte units: C's stores bound it, and there 22 (fp32, more
         * precise) stores them sooner than 21 or 12. */
        const size_t ldc = dense_ld && d->ldc == 0 ? d->n : d->ldc;
        const int c_rows16 = ldc % 4 == 0 && (!batched || d->stride_c % 4 == 0);
        if (tf32 && d->k <= GK_GEMM_TF32_FFMA_MAX_K && outs >= GK_GEMM_TF32_FFMA_MIN_MN && !c_rows16) return 22;
        if (tf32 && (rows16 || can_split) && !(can_split && auto_split21(d).splits > 1) &&
            d->n >= GK_GEMM_TF32_WGMMA_MIN_N &&
            (work >= GK_GEMM_TF32_WGMMA_SHORTK_MIN_MNK ||
             (work >= GK_GEMM_TF32_WGMMA_MIN_MNK && d->k >= GK_GEMM_TF32_WGMMA_MIN_K)))
            return 12;
        if (tf32 && work <= (rows16 ? GK_GEMM_MID_TF32_MAX_MNK : GK_GEMM_MID_TF32_MAX_MNK_GATHER)) return 21;
        /* Few of 10's tiles and a long k (where 10 would split k): 10 split
         * where its tiles are well filled, else 22 at any size. */
        if (!tf32) {
            const split_plan s10 = auto_split(d, 10);
            if (s10.splits > 1) return can_split && split10_fills(d, ldb, s10) ? 10 : 22;
        }
        if (!tf32 && work <= GK_GEMM_MID_F32_MAX_MNK) return 22;
    }
    /* 12 on rows its TMA addresses, or on padded copies in gk_gemm_ex's workspace. */
    if (tf32) return rows16 || can_split ? 12 : 11;
    /* Past the mid region: 10; an empty product as stored: 9 (nothing to compute). */
    const int plain = !ta && !tb && d->batch == 1 && d->epilogue == GK_GEMM_EPILOGUE_NONE;
    return plain && !sized ? 9 : 10;
}

/* GK_GEMM_AUTO's split of k (gk/gemm.h): only fp32 storage on variant 10
 * or 12, one product. Their tiles (12: 256 rows x 128 columns of C; 10:
 * 128 x 256): with fewer than 64, k is cut into about 128 / tiles slices
 * of at least 512, each a multiple of the 32-deep k-tile. */
static split_plan auto_split(const gk_gemm_desc *d, int id)
{
    split_plan sp = {.splits = 1, .kc = d->k};
    if (id == 17) return auto_split16(d, 1);
    if (id == 21) return auto_split21(d);
    if (id == 22) return auto_split22(d);
    if (id == 23) return auto_split23(d, 1);
    if (d->type != GK_GEMM_TYPE_F32 || (id != 10 && id != 12) || d->batch != 1 || d->m == 0 || d->n == 0 ||
        d->k < 2048 || d->m > GK_GEMM_MAX_DIM || d->n > GK_GEMM_MAX_DIM || d->k > GK_GEMM_MAX_DIM)
        return sp;
    const size_t tm = id == 12 ? 256 : 128, tn = id == 12 ? 128 : 256;
    const size_t tiles = ((d->m + tm - 1) / tm) * ((d->n + tn - 1) / tn);
    if (tiles >= 64) return sp;
    size_t s = (128 + tiles - 1) / tiles;
    if (s > d->k / 512) s = d->k / 512;
    return split_into(d, s, 32);
}

gk_status gk_gemm_auto_variant(const gk_gemm_desc *desc, int *variant, size_t *splits)
{
    if (desc == NULL || variant == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "desc or variant is NULL");
    const int id = auto_pick(desc, 1, 1);
    problem p;
    const gk_status st = check_desc(gk_gemm_row_find(id), desc, 1, &p);
    if (!gk_ok(st)) return st;
    *variant = id;
    if (splits != NULL) *splits = auto_split(desc, id).splits;
    return gk_success();
}

gk_status gk_gemm_ex(int variant, const gk_gemm_desc *desc, const void *a, const void *b, void *c, void *workspace,
                     size_t *workspace_bytes, cudaStream_t stream)
{
    const int is_auto = variant == GK_GEMM_AUTO;
    if (is_auto) {
        if (desc == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "desc is NULL");
        variant = auto_pick(desc, 1, 1);
    }
    const gk_gemm_row *v = gk_gemm_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no gemm variant has this id");
    if (desc == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "desc is NULL");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    problem p;
    gk_status st = check_desc(v, desc, 1, &p);
    if (!gk_ok(st)) return st;
    split_plan sp = is_auto ? auto_split(desc, variant) : (split_plan){.splits = 1, .kc = desc->k};
    if (sp.splits > 1) split_slices(&sp, desc, &p);
    /* The scratch of the variant for this description (the TF32 rungs'
     * transposed copies of an operand, the padded copies of rows that 10,
     * 12, 17 and 23 read with 16-byte loads or the TMA; none elsewhere), in
     * whole granules and never 0; a split product's partials first. */
    size_t scratch = 0;
    const size_t overflow = (size_t)-1;
    if (sp.splits > 1) {
        /* The partials, then the variant's scratch for either call of run_split. */
        size_t inner = 0, inner_last = 0;
        if (v->scratch != NULL) {
            inner = v->scratch((int)desc->op_a, (int)desc->op_b, desc->m, desc->n, sp.kc, sp.whole,
                               sp.whole > 1 ? sp.sa : 0, sp.whole > 1 ? sp.sb : 0, p.lda, p.ldb);
            if (sp.last > 0)
                inner_last = v->scratch((int)desc->op_a, (int)desc->op_b, desc->m, desc->n, sp.last, 1, 0, 0, p.lda,
                                        p.ldb);
        }
        scratch = inner == overflow || inner_last == overflow
                      ? overflow
                      : sp.partial_bytes + (inner > inner_last ? inner : inner_last);
    } else if (p.fp8) {
        const gk_gemm_fp8_problem f = fp8_problem(desc, &p, a, b, c);
        scratch = desc->m == 0 || desc->n == 0
                      ? 0
                      : v->scratch_fp8(f.op_a, f.op_b, f.m, f.n, f.k, f.batch, f.a, f.lda, f.stride_a, f.b, f.ldb,
                                       f.stride_b);
    } else if (v->scratch != NULL) {
        scratch = v->scratch((int)desc->op_a, (int)desc->op_b, desc->m, desc->n, desc->k, desc->batch,
                             desc->batch > 1 ? desc->stride_a : 0, desc->batch > 1 ? desc->stride_b : 0, p.lda, p.ldb);
    }
    if (scratch == overflow)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT,
                       "the copy this variant makes of an operand (transposed or padded) would reach 2^62 bytes");
    const size_t need = gk_workspace_round(scratch);
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);
    return run_checked(v, desc, &p, &sp, a, b, c, workspace, stream);
}

/* The two calls that came first: gk_gemm_ex with the default description
 * and the caller's leading dimensions, which need no workspace. */
static gk_status plain_call(int variant, gk_gemm_type type, size_t m, size_t n, size_t k, float alpha,
                            const void *a, size_t lda, const void *b, size_t ldb, float beta, void *c, size_t ldc,
                            cudaStream_t stream)
{
    gk_gemm_desc d = gk_gemm_desc_init(type, m, n, k);
    d.lda = lda;
    d.ldb = ldb;
    d.ldc = ldc;
    d.alpha = alpha;
    d.beta = beta;
    if (variant == GK_GEMM_AUTO) variant = auto_pick(&d, 0, 0);
    const gk_gemm_row *v = gk_gemm_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no gemm variant has this id");
    problem p;
    gk_status st = check_desc(v, &d, 0, &p);
    if (!gk_ok(st)) return st;
    return run_checked(v, &d, &p, NULL, a, b, c, NULL, stream);
}

gk_status gk_gemm(int variant, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                  const float *b, size_t ldb, float beta, float *c, size_t ldc, cudaStream_t stream)
{
    return plain_call(variant, GK_GEMM_TYPE_F32, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
}

gk_status gk_gemm_bf16(int variant, size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                       const void *b, size_t ldb, float beta, void *c, size_t ldc, cudaStream_t stream)
{
    return plain_call(variant, GK_GEMM_TYPE_BF16, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
}

gk_status gk_gemm_fp8_quantize(gk_gemm_type type, const float *x, size_t count, float scale, void *out,
                               float *amax, cudaStream_t stream)
{
    if (!is_fp8(type)) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "type is not GK_GEMM_TYPE_E4M3 or GK_GEMM_TYPE_E5M2");
    if (count == 0) return gk_success();
    if (x == NULL || out == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "x or out is NULL and count > 0");
    if (gk_misaligned(x, sizeof(float)) || gk_misaligned(amax, sizeof(float)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "x or amax is not aligned to 4 bytes (a float)");
    if (count >= EXTENT_LIMIT / sizeof(float))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "count spans 2^62 bytes or more: its offsets would overflow");
    return GK_CUDA_STATUS(gk_gemm_fp8_quantize_launch((int)type, x, count, scale, out, amax, stream));
}
