/* The gemm module's entry in gk_bench (bench/bench.h).
 *
 * Sizes: "4096" (square) or "4097x3001x2049" (m x n x k), each axis any count
 * gk_parse_size reads (so "2^12" works); and, drawn by the runner (bench/cli.h),
 * a sweep: "sweep:100" is 100 shapes whose m, n and k are each drawn
 * log-uniformly from 1 to 8192 with the seed 2026 (the same shapes on
 * every run), "sweep:N:LO..HI:SEED" another count, range or seed.
 *
 * Parameters, each a list that the runner sweeps (--param key=v1,v2):
 *   dtype     f32, bf16, f16: the type of A, B, C and the bias (default
 *             f32,bf16).
 *   layout    nn, nt, tn, tt: op_a then op_b in the library's row-major
 *             terms (gk/gemm.h): "nt" stores B as n x k (y = x W^T, W the
 *             weight of a linear layer), "tn" stores A as k x m (default nn).
 *   batch     products per call (default 1). With batch > 1 they are dense
 *             and consecutive: stride_a = m*k, stride_b = k*n, stride_c = m*n.
 *   epilogue  none, bias, bias_relu, bias_gelu (default none): fused into
 *             the store, C = epi(A*B + bias[j]), GELU in its tanh form.
 * One call computes C = epi(op(A) op(B)) for each product (alpha = 1, beta =
 * 0, dense leading dimensions of the stored layout). The default run (f32
 * and bf16, nn, one product, no epilogue) is the plain C = A*B of gk_gemm
 * and gk_gemm_bf16; its groups are "C = A*B" and "C = A*B, bf16", and any
 * other option shows in the group's name ("C = gelu(A*B^T + bias), f16,
 * batch 64").
 *
 * Cases: every row of the variant table under its table id, the id that
 * gk_gemm_ex takes (1-12 store fp32, 11-12 with TF32 products; 13-17 are
 * the 16-bit tensor-core rungs, 19 the skinny products' weight stream, 20
 * the tiny products' dot products, 21 the mid-size products' tiles, 22
 * their fp32 FFMA twin; 18
 * multiplies FP8 inputs and has its own module, gemm_fp8), then the auto
 * row, the references and the ceiling. A run shows the variants that store
 * its dtype (variant->types): f32 ids 1-12 and 20-22, bf16 ids 13-17, 19-21 and
 * 23, f16 ids 17, 19-21 and 23. Each runs through gk_gemm_ex with the run's
 * description and a workspace of the size its two-phase query asks for
 * (poisoned). A variant that does not take the description (transposed
 * operands, a batch or an epilogue on a variant that is not extended) says
 * GK_ERROR_UNSUPPORTED, and the table shows it as n/a with the library's
 * message; so does a variant this GPU or this build cannot run (older than
 * variant->min_cc, or a wgmma variant without sm_90a), which a 1x1x1 call
 * of the same description finds before the check. After the variants, the
 * auto row (id 0, GK_GEMM_AUTO): the variant gk/gemm.h's table picks for
 * the run's description, compared with the reference of that pick's
 * precision; for f32, --param compute=tf32 lets it pick the TF32 rungs
 * (then against cuBLAS TF32).
 *
 * References, timed in the same run on the same inputs, with the same
 * layout, batch and epilogue:
 *   - No epilogue: cuBLAS, cublasGemmEx for one product and
 *     cublasGemmStridedBatchedEx for a batch. Row-major C = op(A) op(B) is
 *     column-major C^T = op(B)^T op(A)^T: cuBLAS gets B's memory as its
 *     left operand and A's as its right one, each with its own op flag
 *     and stored leading dimension, and C as an n x m column-major matrix.
 *     cublas_fp32 (CUBLAS_COMPUTE_32F, never TF32), cublas_tf32
 *     (CUBLAS_COMPUTE_32F_FAST_TF32), cublas_bf16 and cublas_fp16
 *     (CUDA_R_16BF or CUDA_R_16F in and out, CUBLAS_COMPUTE_32F).
 *   - An epilogue: cuBLASLt, cublasLtMatmul with CUBLASLT_EPILOGUE_BIAS,
 *     RELU_BIAS or GELU_BIAS, the bias of C's type, the same operand swap and
 *     op flags, a batch as CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT and
 *     STRIDED_BATCH_OFFSET: cublaslt_fp32, cublaslt_tf32, cublaslt_bf16,
 *     cublaslt_fp16, with the compute types above. Its algorithm is the first
 *     that cublasLtMatmulAlgoGetHeuristic gives for a 32 MiB workspace, picked
 *     once per case and size (untimed); the workspace is allocated once per
 *     size.
 * A run of dtype f32 times cuBLAS fp32 and TF32 (or cuBLASLt's), bf16 and
 * f16 the reference of their type. Each variant is compared with the
 * reference of its type, precision and epilogue: the case list names the
 * default run's (cublas_fp32 for variants 1-10 and 22, cublas_tf32 for 11-12,
 * cublas_bf16 for 13-17, 19-21 and 23), and in_run gives the run's (cublas_fp16
 * for 17, 19-21 and 23 in an f16 run, cublas_fp32 for 20 and cublas_tf32 for 21
 * in an f32 run, cublaslt_* with an epilogue), with the run's precision
 * (gk_gemm_variant_precision: fp16 for 17, 19-21 and 23 in an f16 run, fp32 and
 * TF32 for 20 and 21 in an f32 run).
 *
 * The ceiling, read_stream ("read-only stream", last, in every run and at
 * every size): gk_ceiling_read_stream (bench/ceilings.h) over the bytes of
 * op(B) as stored, the weight: k*n elements of the run's dtype for every
 * product of the batch (the bench's stride_b = k*n), in the buffer the
 * cases read, with a 4-byte sink allocated once per size. No product can
 * take less time than reading its weight once, so this is the limit of a
 * skinny product (m of 1 to 256 rows against a large weight: inference
 * with a few tokens), which is memory bound. It is no case's reference:
 * "vs ref" stays against cuBLAS or cuBLASLt. Its GB/s counts only the
 * bytes it reads (e*k*n*batch), the variants' count A, B and C (below);
 * "%ceil" is its time over a case's, so for a skinny product a variant's
 * %ceil is how close it comes to streaming the weight once, and the ratio
 * of its GB/s to the ceiling's is that same figure raised by the bytes of
 * A and C it also moves ((m*k + m*n) / (k*n): 1.6% at m = 64, 6.25% at
 * m = 256 for n = k = 8192). Its FLOPs are the product's, so its TFLOP/s
 * is the most a product that reads its weight once can reach (for a large
 * square product a figure far above the tensor cores' peak: such a product
 * is bound by its arithmetic, not by its weight).
 *
 * Verification: every case's C is poisoned with NaN before its run (beta =
 * 0: every element must be written and none read), then (every case but
 * the ceiling, which computes nothing to check) checked against
 * cuBLAS fp32's result on the same inputs, layout and batch (computed once
 * per size, with CUBLAS_COMPUTE_32F), with the epilogue applied to it on the
 * host in double (gk_gemm_epilogue_ref: + bias[j], then max(x, 0) or the
 * tanh-form GELU), at the tolerance of gemm_ref.h for the case's precision
 * and epilogue (gk_gemm_tolerance_ex) with both = 1: cuBLAS fp32 is off by
 * at most its own tolerance before the epilogue, and ReLU and GELU (at most
 * 1.13 times) carry that into no more than a second tolerance. The sizes
 * the tolerance needs, sum_p |a b| (plus |bias[j]| with an epilogue) and
 * sqrt(sum_p (a b)^2), come from cuBLAS fp32 on |A|, |B| and on the squares
 * of A and B (their own relative error, about k 2^-24, is far inside the
 * tolerance's factor lambda = 10). The 16-bit inputs and bias are random
 * numbers of that type held as floats that are exactly those numbers, so
 * the fp32 reference is that of the very inputs the 16-bit cases read. The
 * products of a batch are checked one by one; the first that fails prints
 * its mismatches (row and column within the product).
 *
 * Work per call: 2*m*n*k*batch FLOPs; A, B (and the bias) read once and C
 * written once, e * (m*k*batch + k*n*batch (+ n)) bytes read and e * m*n*batch
 * written, e = 4 for f32 and 2 for bf16 and f16; the ceiling reads e *
 * k*n*batch bytes and writes none. % of peak: the fp32 FMA peak for fp32
 * cases, the dense TF32 tensor peak for TF32, the dense BF16 tensor peak
 * for bf16 and f16 (FP16's dense peak is the same figure on the GPUs the
 * 16-bit rungs run on: A100, H100, H200), DRAM bandwidth for the ceiling.
 *
 * The slowest rungs (variants 1 and 2) are skipped above 2*4096^3 FLOPs per
 * call (--no-skip runs them: about a minute each at 8192^3), and variant
 * 20 (tiny products, two loads per multiply-add) above 2*1024^3.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cublasLt.h>

#include "bench.h"
#include "bench_gemm.h"
#include "ceilings.h"
#include "cli.h"
#include "gemm_ref.h"
#include "gk/cuda_check.h"
#include "gk/gemm.h"
#include "gk/random.h"

/* The squares from 256 to 8192, the skinny products of inference (m = 1 to
 * 256 rows against an 8192 x 8192 weight), a long-k product and the odd
 * shape whose rows the TMA cannot address. */
static const char *const default_sizes[] = {"256",           "512",           "1024",          "2048",
                                            "4096",          "8192",          "1x8192x8192",   "16x8192x8192",
                                            "64x8192x8192",  "256x8192x8192", "256x256x65536", "4097x3001x2049"};

int gk_gemm_bench_parse_size(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    int xs = 0;
    for (const char *p = s; *p; ++p) xs += *p == 'x';
    if (xs != 0 && xs != 2) {
        snprintf(err, err_size, "write one dimension (a square product) or three, m x n x k");
        return 1;
    }
    char buf[GK_CLI_ITEM];
    snprintf(buf, sizeof buf, "%s", s);
    char *p = buf;
    for (int i = 0; i <= xs; ++i) {
        char *x = strchr(p, 'x');
        if (x) *x = '\0';
        size_t v;
        if (gk_parse_size(p, &v) != 0 || v == 0 || v > GK_GEMM_MAX_DIM) {
            snprintf(err, err_size, "'%s' is not a dimension from 1 to 2^31-1", p);
            return 1;
        }
        shape->v[i] = v;
        p = x ? x + 1 : p;
    }
    if (xs == 0) shape->v[1] = shape->v[2] = shape->v[0];
    shape->count = 3;
    return 0;
}

void gk_gemm_bench_format_size(const gk_bench_shape *shape, char *buf, size_t size)
{
    if (shape->v[0] == shape->v[1] && shape->v[1] == shape->v[2]) snprintf(buf, size, "%zu", shape->v[0]);
    else snprintf(buf, size, "%zux%zux%zu", shape->v[0], shape->v[1], shape->v[2]);
}

/* The parameters, in this order in gk_bench_params.value. */
enum { P_DTYPE, P_LAYOUT, P_BATCH, P_EPILOGUE, P_COMPUTE };
static const gk_bench_param_decl params[] = {
    {"dtype", "f32,bf16,f16", "f32,bf16",
     "type of A, B, C: f32 runs ids 1-12 (fp32, TF32), 20 and 22 (fp32) and 21 (TF32), bf16 and f16 the ids that store them (13-17, 19-21, 23; 17, 19-21, 23)",
     NULL},
    {"layout", "nn,nt,tn,tt", "nn",
     "op_a op_b, row-major: nt = B stored n x k (y = x W^T), tn = A stored k x m", NULL},
    {"batch", "any positive integer", "1",
     "products per call, dense and consecutive (stride_a = m*k, stride_b = k*n, stride_c = m*n)",
     gk_accepts_positive_count},
    {"epilogue", "none,bias,bias_relu,bias_gelu", "none",
     "fused into the store: + bias[j], then ReLU or GELU (tanh form); the reference is then cuBLASLt", NULL},
    {"compute", "default,tf32", "default",
     "what the auto row (id 0, GK_GEMM_AUTO) may compute f32 in: fp32 (vs cuBLAS fp32) or TF32 (vs cuBLAS TF32)",
     NULL},
};

/* The comparison cases, after the variants. Each runs for one dtype, with
 * (lt = 1) or without an epilogue. */
typedef struct reference {
    gk_bench_case c;
    gk_gemm_type type;
    gk_gemm_precision precision;
    int lt; /* cuBLASLt with the run's epilogue; 0: cuBLAS, no epilogue */
} reference;

#define GEMMEX "cublasGemmEx (cublasGemmStridedBatchedEx for a batch)"
#define LTMATMUL "cublasLtMatmul with the epilogue (CUBLASLT_EPILOGUE_BIAS, RELU_BIAS, GELU_BIAS)"
static const reference references[] = {
    {{0, "cublas_fp32", "cuBLAS fp32", GEMMEX ", CUBLAS_COMPUTE_32F (no TF32)", GK_ROLE_REFERENCE, "fp32",
      GK_PEAK_FP32, NULL},
     GK_GEMM_TYPE_F32, GK_GEMM_FP32, 0},
    {{0, "cublas_tf32", "cuBLAS TF32", GEMMEX ", CUBLAS_COMPUTE_32F_FAST_TF32", GK_ROLE_REFERENCE, "tf32",
      GK_PEAK_TF32, NULL},
     GK_GEMM_TYPE_F32, GK_GEMM_TF32, 0},
    {{0, "cublas_bf16", "cuBLAS BF16", GEMMEX ", CUDA_R_16BF in and out, CUBLAS_COMPUTE_32F", GK_ROLE_REFERENCE,
      "bf16", GK_PEAK_BF16, NULL},
     GK_GEMM_TYPE_BF16, GK_GEMM_BF16, 0},
    {{0, "cublas_fp16", "cuBLAS FP16", GEMMEX ", CUDA_R_16F in and out, CUBLAS_COMPUTE_32F", GK_ROLE_REFERENCE,
      "fp16", GK_PEAK_BF16, NULL},
     GK_GEMM_TYPE_F16, GK_GEMM_FP16, 0},
    {{0, "cublaslt_fp32", "cuBLASLt fp32", LTMATMUL ", CUBLAS_COMPUTE_32F (no TF32)", GK_ROLE_REFERENCE, "fp32",
      GK_PEAK_FP32, NULL},
     GK_GEMM_TYPE_F32, GK_GEMM_FP32, 1},
    {{0, "cublaslt_tf32", "cuBLASLt TF32", LTMATMUL ", CUBLAS_COMPUTE_32F_FAST_TF32", GK_ROLE_REFERENCE, "tf32",
      GK_PEAK_TF32, NULL},
     GK_GEMM_TYPE_F32, GK_GEMM_TF32, 1},
    {{0, "cublaslt_bf16", "cuBLASLt BF16", LTMATMUL ", CUDA_R_16BF in and out, CUBLAS_COMPUTE_32F",
      GK_ROLE_REFERENCE, "bf16", GK_PEAK_BF16, NULL},
     GK_GEMM_TYPE_BF16, GK_GEMM_BF16, 1},
    {{0, "cublaslt_fp16", "cuBLASLt FP16", LTMATMUL ", CUDA_R_16F in and out, CUBLAS_COMPUTE_32F",
      GK_ROLE_REFERENCE, "fp16", GK_PEAK_BF16, NULL},
     GK_GEMM_TYPE_F16, GK_GEMM_FP16, 1},
};
#define NUM_REFERENCES (sizeof references / sizeof references[0])

/* The reference of a case with this key, NULL for a variant. */
static const reference *find_reference(const char *key)
{
    for (size_t i = 0; key != NULL && i < NUM_REFERENCES; ++i)
        if (strcmp(references[i].c.key, key) == 0) return &references[i];
    return NULL;
}

/* The key of the reference for products of `type` in `precision` (TF32 or
 * not), with (lt) or without an epilogue. */
static const char *reference_key(gk_gemm_type type, gk_gemm_precision precision, int lt)
{
    for (size_t i = 0; i < NUM_REFERENCES; ++i) {
        const reference *r = &references[i];
        if (r->type == type && r->lt == lt && (type != GK_GEMM_TYPE_F32 || r->precision == precision))
            return r->c.key;
    }
    return NULL;
}

static int is_16bit(const gk_gemm_variant *v) { return v->precision == GK_GEMM_BF16; }

/* The auto row: GK_GEMM_AUTO (id 0), whichever variant gk_gemm_auto_variant
 * picks for the run's description (in_run names its precision and
 * reference). It comes after the variants, before the references. */
static const gk_bench_case auto_case = {
    GK_GEMM_AUTO, "auto", "auto", "GK_GEMM_AUTO: the variant gk/gemm.h's table picks for this description",
    GK_ROLE_VARIANT, "fp32", GK_PEAK_FP32, "cublas_fp32"};

/* The ceiling: a read-only stream over the weight, op(B) as stored (see the
 * top of this file). Last, after the references; no case's reference. */
static const gk_bench_case ceiling_case = {
    0, "read_stream", "read-only stream", "reads the weight, op(B) as stored (every product of a batch), once, "
    "16-byte loads", GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL};

static size_t num_cases(void) { return gk_gemm_variant_count() + 1 + NUM_REFERENCES + 1; }

/* The variants as the default run shows them (the 16-bit rungs in bf16, no
 * epilogue), the auto row, the references, then the ceiling. */
static gk_bench_case case_at(size_t i)
{
    const gk_gemm_variant *v = gk_gemm_variant_at(i);
    if (v != NULL) {
        gk_gemm_type t = is_16bit(v) ? GK_GEMM_TYPE_BF16 : GK_GEMM_TYPE_F32;
        gk_bench_peak peak = v->precision == GK_GEMM_TF32 ? GK_PEAK_TF32
                             : is_16bit(v)                ? GK_PEAK_BF16
                                                          : GK_PEAK_FP32;
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, gk_gemm_precision_name(v->precision),
                           peak, reference_key(t, v->precision, 0)};
        return c;
    }
    if (i == gk_gemm_variant_count()) return auto_case;
    if (i - gk_gemm_variant_count() - 1 < NUM_REFERENCES) return references[i - gk_gemm_variant_count() - 1].c;
    return ceiling_case;
}

typedef struct state {
    size_t m, n, k, batch;
    gk_gemm_type type; /* the run's dtype */
    gk_gemm_op op_a, op_b;
    gk_gemm_epilogue epilogue;
    gk_gemm_compute compute; /* the auto row's */
    char describe[96];
    /* The inputs as floats (exactly numbers of the run's type) and cuBLAS
     * fp32's C: the reference is computed on these, and the f32 cases read
     * and write them. */
    float *d_a, *d_b, *d_c, *d_bias;
    /* The 16-bit copies the bf16 and f16 cases read and write. */
    void *d_a16, *d_b16, *d_c16, *d_bias16;
    /* The run's type's buffers: one of the two sets above. */
    const void *a, *b, *bias;
    void *c;
    unsigned *d_sink; /* the ceiling's 4 bytes (bench/ceilings.h) */
    double *ref, *mag, *rms; /* epi(cuBLAS fp32's C + bias), sum |a b| (+ |bias|), sqrt(sum (a b)^2) */
    float *h_c;
    unsigned short *h_c16;
    cublasHandle_t h;
    int cc; /* the GPU's compute capability, e.g. 90 */
    /* The prepared case. */
    gk_bench_case cur;
    gk_gemm_precision precision; /* what it computes in: its tolerance */
    gk_gemm_desc desc;           /* variants: the call's description */
    void *ws;                    /* ... and gk_gemm_ex's workspace */
    size_t ws_bytes;
    const reference *ref_case; /* references: which one */
    /* cuBLASLt (runs with an epilogue): handle and workspace per size,
     * descriptors and algorithm per case. */
    cublasLtHandle_t lt;
    void *lt_ws;
    size_t lt_ws_bytes;
    cublasLtMatmulDesc_t lt_op;
    cublasLtMatrixLayout_t lt_x, lt_y, lt_c;
    cublasLtMatmulAlgo_t lt_algo;
} state;

#define LT_WORKSPACE_BYTES ((size_t)32 << 20)

static size_t elem_bytes(gk_gemm_type t) { return t == GK_GEMM_TYPE_F32 ? 4 : 2; }
static cudaDataType_t cuda_type(gk_gemm_type t)
{
    return t == GK_GEMM_TYPE_F32 ? CUDA_R_32F : t == GK_GEMM_TYPE_BF16 ? CUDA_R_16BF : CUDA_R_16F;
}
/* Leading dimensions of the stored operands (dense). */
static size_t lda_of(const state *s) { return s->op_a == GK_GEMM_OP_N ? s->k : s->m; }
static size_t ldb_of(const state *s) { return s->op_b == GK_GEMM_OP_N ? s->n : s->k; }
static cublasOperation_t cublas_op(gk_gemm_op op) { return op == GK_GEMM_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N; }
/* The bytes of op(B) as stored, every product of the batch: what the
 * ceiling reads (dense and consecutive, stride_b = k*n). */
static size_t weight_bytes(const state *s) { return s->k * s->n * s->batch * elem_bytes(s->type); }

static void lt_free_case(state *s)
{
    if (s->lt_op) cublasLtMatmulDescDestroy(s->lt_op);
    if (s->lt_x) cublasLtMatrixLayoutDestroy(s->lt_x);
    if (s->lt_y) cublasLtMatrixLayoutDestroy(s->lt_y);
    if (s->lt_c) cublasLtMatrixLayoutDestroy(s->lt_c);
    s->lt_op = NULL;
    s->lt_x = s->lt_y = s->lt_c = NULL;
}

static void teardown(void *p)
{
    state *s = (state *)p;
    lt_free_case(s);
    if (s->lt) cublasLtDestroy(s->lt);
    cudaFree(s->lt_ws);
    cudaFree(s->ws);
    cudaFree(s->d_a);
    cudaFree(s->d_b);
    cudaFree(s->d_c);
    cudaFree(s->d_bias);
    cudaFree(s->d_a16);
    cudaFree(s->d_b16);
    cudaFree(s->d_c16);
    cudaFree(s->d_bias16);
    cudaFree(s->d_sink);
    free(s->h_c16);
    if (s->h) cublasDestroy(s->h);
    free(s->ref);
    free(s->mag);
    free(s->rms);
    free(s->h_c);
}

/* Row-major C_z = op(A_z) op(B_z) for z < batch (alpha = 1, beta = 0, dense
 * and consecutive) through cuBLAS, in column-major terms C_z^T = op(B_z)^T
 * op(A_z)^T: B's memory is cuBLAS's left operand with op_b's flag, A's the
 * right one with op_a's, C an n x m matrix with leading dimension n. */
static cublasStatus_t cublas_product(const state *s, gk_gemm_type type, cublasComputeType_t ct, const void *a,
                                     const void *b, void *c)
{
    const float one = 1.0f, zero = 0.0f;
    const cudaDataType_t t = cuda_type(type);
    const int m = (int)s->m, n = (int)s->n, k = (int)s->k, lda = (int)lda_of(s), ldb = (int)ldb_of(s);
    if (s->batch == 1)
        return cublasGemmEx(s->h, cublas_op(s->op_b), cublas_op(s->op_a), n, m, k, &one, b, t, ldb, a, t, lda, &zero,
                            c, t, n, ct, CUBLAS_GEMM_DEFAULT);
    return cublasGemmStridedBatchedEx(s->h, cublas_op(s->op_b), cublas_op(s->op_a), n, m, k, &one, b, t, ldb,
                                      (long long)(s->k * s->n), a, t, lda, (long long)(s->m * s->k), &zero, c, t, n,
                                      (long long)(s->m * s->n), (int)s->batch, ct, CUBLAS_GEMM_DEFAULT);
}

/* |x| (square = 0) or x^2 (1) of n floats, through host scratch, uploaded to d. */
static gk_status upload_fn(float *d, const float *h, float *tmp, size_t n, int square)
{
    for (size_t i = 0; i < n; ++i) tmp[i] = square ? h[i] * h[i] : fabsf(h[i]);
    GK_CUDA_TRY(cudaMemcpy(d, tmp, n * sizeof(float), cudaMemcpyHostToDevice));
    return gk_success();
}

/* The 16-bit patterns of n floats (exact numbers of `type`), through host
 * scratch, into a new device buffer *d. */
static gk_status upload16(void **d, const float *h, unsigned short *tmp, size_t n, gk_gemm_type type)
{
    for (size_t i = 0; i < n; ++i) tmp[i] = type == GK_GEMM_TYPE_BF16 ? gk_bf16_bits(h[i]) : gk_fp16_bits(h[i]);
    GK_CUDA_TRY(cudaMalloc(d, n * 2));
    GK_CUDA_TRY(cudaMemcpy(*d, tmp, n * 2, cudaMemcpyHostToDevice));
    return gk_success();
}

static void round_to_type(float *x, size_t n, gk_gemm_type type)
{
    if (type == GK_GEMM_TYPE_BF16) gk_round_to_bf16(x, n);
    else if (type == GK_GEMM_TYPE_F16) gk_round_to_fp16(x, n);
}

/* The group's name: the product, its type (f32 unnamed, as in the default
 * run), the batch, and compute=tf32 when it is asked for. */
static void make_describe(state *s)
{
    static const char *const ops[2][2] = {{"A*B", "A*B^T"}, {"A^T*B", "A^T*B^T"}};
    const char *prod = ops[s->op_a][s->op_b];
    char expr[48];
    switch (s->epilogue) {
    case GK_GEMM_EPILOGUE_BIAS: snprintf(expr, sizeof expr, "%s + bias", prod); break;
    case GK_GEMM_EPILOGUE_BIAS_RELU: snprintf(expr, sizeof expr, "relu(%s + bias)", prod); break;
    case GK_GEMM_EPILOGUE_BIAS_GELU: snprintf(expr, sizeof expr, "gelu(%s + bias)", prod); break;
    default: snprintf(expr, sizeof expr, "%s", prod); break;
    }
    int len = snprintf(s->describe, sizeof s->describe, "C = %s", expr);
    if (s->type != GK_GEMM_TYPE_F32 && len > 0 && (size_t)len < sizeof s->describe)
        len += snprintf(s->describe + len, sizeof s->describe - (size_t)len, ", %s", gk_gemm_type_name(s->type));
    if (s->batch > 1 && len > 0 && (size_t)len < sizeof s->describe)
        len += snprintf(s->describe + len, sizeof s->describe - (size_t)len, ", batch %zu", s->batch);
    /* compute=tf32 changes the auto row (its pick and its reference): a
     * group of its own, apart from the same product in fp32. */
    if (s->compute == GK_GEMM_COMPUTE_TF32 && len > 0 && (size_t)len < sizeof s->describe)
        snprintf(s->describe + len, sizeof s->describe - (size_t)len, ", compute tf32");
}

static gk_status parse_params(state *s, const gk_bench_params *params)
{
    const char *dtype = params->value[P_DTYPE], *layout = params->value[P_LAYOUT];
    const char *batch = params->value[P_BATCH], *epi = params->value[P_EPILOGUE];
    s->type = GK_GEMM_TYPE_F32;
    if (dtype != NULL && strcmp(dtype, "bf16") == 0) s->type = GK_GEMM_TYPE_BF16;
    if (dtype != NULL && strcmp(dtype, "f16") == 0) s->type = GK_GEMM_TYPE_F16;
    s->op_a = layout != NULL && layout[0] == 't' ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    s->op_b = layout != NULL && layout[0] != '\0' && layout[1] == 't' ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    s->batch = 1;
    if (batch != NULL && (gk_parse_size(batch, &s->batch) != 0 || s->batch == 0))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "gemm: --param batch takes a positive integer");
    if (s->batch > INT_MAX) return GK_FAIL(GK_ERROR_UNSUPPORTED, "a batch above 2^31-1 (cuBLAS counts it in an int)");
    const char *compute = params->value[P_COMPUTE];
    s->compute = compute != NULL && strcmp(compute, "tf32") == 0 ? GK_GEMM_COMPUTE_TF32 : GK_GEMM_COMPUTE_DEFAULT;
    if (s->compute == GK_GEMM_COMPUTE_TF32 && s->type != GK_GEMM_TYPE_F32) s->compute = GK_GEMM_COMPUTE_DEFAULT;
    s->epilogue = GK_GEMM_EPILOGUE_NONE;
    for (int e = GK_GEMM_EPILOGUE_NONE; epi != NULL && e <= GK_GEMM_EPILOGUE_BIAS_GELU; ++e)
        if (strcmp(epi, gk_gemm_epilogue_name((gk_gemm_epilogue)e)) == 0) s->epilogue = (gk_gemm_epilogue)e;
    /* Every array (batch matrices of up to 2^62 elements) must fit a size_t
     * count of doubles: the host reference holds 3 of C. */
    const size_t big = s->m * s->k > s->k * s->n ? s->m * s->k : s->k * s->n;
    const size_t most = (big > s->m * s->n ? big : s->m * s->n);
    if (s->batch > ((size_t)1 << 59) / most)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "the batch's matrices are too large for this machine");
    make_describe(s);
    return gk_success();
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->m = shape->v[0], s->n = shape->v[1], s->k = shape->v[2];
    GK_TRY(parse_params(s, params));
    const int bias = s->epilogue != GK_GEMM_EPILOGUE_NONE;
    const size_t na = s->m * s->k * s->batch, nb = s->k * s->n * s->batch, nc = s->m * s->n * s->batch;
    float *ha = (float *)malloc(na * sizeof(float)), *hb = (float *)malloc(nb * sizeof(float));
    float *hbias = (float *)malloc(s->n * sizeof(float));
    s->h_c = (float *)malloc(nc * sizeof(float));
    s->ref = (double *)malloc(nc * sizeof(double));
    s->mag = (double *)malloc(nc * sizeof(double));
    s->rms = (double *)malloc(nc * sizeof(double));
    gk_status st = gk_success();
    if (!ha || !hb || !hbias || !s->h_c || !s->ref || !s->mag || !s->rms)
        st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    if (gk_ok(st)) {
        gk_fill_f32(ha, na, params->seed, -1.0f, 1.0f);
        gk_fill_f32(hb, nb, params->seed + 1, -1.0f, 1.0f);
        gk_fill_f32(hbias, s->n, params->seed + 2, -1.0f, 1.0f);
        /* 16-bit numbers: the fp32 reference below is then that of exactly these inputs. */
        round_to_type(ha, na, s->type);
        round_to_type(hb, nb, s->type);
        round_to_type(hbias, s->n, s->type);
        st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_a, na * sizeof(float)));
    }
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_b, nb * sizeof(float)));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_c, nc * sizeof(float)));
    if (gk_ok(st) && cublasCreate(&s->h) != CUBLAS_STATUS_SUCCESS) st = GK_FAIL(GK_ERROR_CUDA, "cublasCreate failed");
    int dev = 0, major = 0, minor = 0;
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaGetDevice(&dev));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    s->cc = 10 * major + minor;
    /* |A| * |B| and (A.A) * (B.B) first (the sizes the tolerance needs), then
     * A * B (the reference), all in pure fp32 through cuBLAS, with the run's
     * layout and batch. */
    float *tmp = gk_ok(st) ? (float *)malloc((na > nb ? na : nb) * sizeof(float)) : NULL;
    if (gk_ok(st) && tmp == NULL) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    for (int square = 0; square < 2 && gk_ok(st); ++square) {
        st = upload_fn(s->d_a, ha, tmp, na, square);
        if (gk_ok(st)) st = upload_fn(s->d_b, hb, tmp, nb, square);
        if (gk_ok(st) && cublas_product(s, GK_GEMM_TYPE_F32, CUBLAS_COMPUTE_32F, s->d_a, s->d_b, s->d_c) !=
                             CUBLAS_STATUS_SUCCESS)
            st = GK_FAIL(GK_ERROR_CUDA, "cuBLAS on |A|, |B| or their squares failed");
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->h_c, s->d_c, nc * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t i = 0; gk_ok(st) && i < nc; ++i) {
            if (square) s->rms[i] = sqrt((double)s->h_c[i]);
            else s->mag[i] = (double)s->h_c[i] + (bias ? fabs((double)hbias[i % s->n]) : 0.0);
        }
    }
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_a, ha, na * sizeof(float), cudaMemcpyHostToDevice));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_b, hb, nb * sizeof(float), cudaMemcpyHostToDevice));
    if (gk_ok(st) &&
        cublas_product(s, GK_GEMM_TYPE_F32, CUBLAS_COMPUTE_32F, s->d_a, s->d_b, s->d_c) != CUBLAS_STATUS_SUCCESS)
        st = GK_FAIL(GK_ERROR_CUDA, "cuBLAS A*B failed");
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->h_c, s->d_c, nc * sizeof(float), cudaMemcpyDeviceToHost));
    /* C is dense: element i of the batch's C is column i % n of its row. */
    for (size_t i = 0; gk_ok(st) && i < nc; ++i)
        s->ref[i] = bias ? gk_gemm_epilogue_ref(s->epilogue, (double)s->h_c[i] + (double)hbias[i % s->n])
                         : (double)s->h_c[i];
    if (gk_ok(st) && s->type == GK_GEMM_TYPE_F32) {
        s->a = s->d_a, s->b = s->d_b, s->c = s->d_c;
        if (bias) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_bias, s->n * sizeof(float)));
        if (gk_ok(st) && bias)
            st = GK_CUDA_STATUS(cudaMemcpy(s->d_bias, hbias, s->n * sizeof(float), cudaMemcpyHostToDevice));
        s->bias = s->d_bias;
    } else if (gk_ok(st)) { /* the 16-bit copies the bf16 and f16 cases read and write */
        size_t nmax = na > nb ? na : nb;
        unsigned short *t16 = (unsigned short *)malloc((nmax > s->n ? nmax : s->n) * sizeof(unsigned short));
        s->h_c16 = (unsigned short *)malloc(nc * sizeof(unsigned short));
        if (t16 == NULL || s->h_c16 == NULL) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
        if (gk_ok(st)) st = upload16(&s->d_a16, ha, t16, na, s->type);
        if (gk_ok(st)) st = upload16(&s->d_b16, hb, t16, nb, s->type);
        if (gk_ok(st) && bias) st = upload16(&s->d_bias16, hbias, t16, s->n, s->type);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_c16, nc * 2));
        free(t16);
        s->a = s->d_a16, s->b = s->d_b16, s->c = s->d_c16, s->bias = s->d_bias16;
    }
    /* The ceiling's sink (it reads the run's type's B, set above), once per
     * size. */
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_sink, sizeof(unsigned)));
    /* cuBLASLt, the reference of the epilogues: its handle and workspace,
     * once per size. */
    if (gk_ok(st) && bias && cublasLtCreate(&s->lt) != CUBLAS_STATUS_SUCCESS)
        st = GK_FAIL(GK_ERROR_CUDA, "cublasLtCreate failed");
    if (gk_ok(st) && bias) st = GK_CUDA_STATUS(cudaMalloc(&s->lt_ws, LT_WORKSPACE_BYTES));
    if (gk_ok(st) && bias) s->lt_ws_bytes = LT_WORKSPACE_BYTES;
    free(tmp);
    free(ha);
    free(hb);
    free(hbias);
    return st;
}

static const char *describe(void *p) { return ((state *)p)->describe; }

static const char *skip(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k * (double)s->batch;
    if (c->role == GK_ROLE_VARIANT && c->id >= 1 && c->id <= 2 && flops > 2.0 * 4096.0 * 4096.0 * 4096.0)
        return "a slow rung above 2*4096^3 FLOPs (--no-skip runs it)";
    if (c->role == GK_ROLE_VARIANT && c->id == 20 && flops > 2.0 * 1024.0 * 1024.0 * 1024.0)
        return "the tiny products' kernel above 2*1024^3 FLOPs (--no-skip runs it)";
    return NULL;
}

/* The case as it runs with this run's parameters (bench.h, in_run): a
 * 16-bit rung stores the run's type, and each variant is compared with the
 * reference of its type, precision and epilogue. */
static gk_gemm_desc make_desc(const state *s, size_t m, size_t n, size_t k, size_t batch);
static void in_run(void *p, gk_bench_case *c)
{
    const state *s = (const state *)p;
    const gk_gemm_variant *v = c->role == GK_ROLE_VARIANT ? gk_gemm_find_variant(c->id) : NULL;
    if (c->role == GK_ROLE_VARIANT && c->id == GK_GEMM_AUTO) {
        /* The auto row computes in its pick's precision. */
        const gk_gemm_desc d = make_desc(s, s->m, s->n, s->k, s->batch);
        int id = 0;
        if (gk_ok(gk_gemm_auto_variant(&d, &id, NULL))) v = gk_gemm_find_variant(id);
    }
    if (v == NULL) return;
    /* What the variant computes in for the run's type (variants 20 and 21
     * take fp32 as well as the 16-bit types: in fp32 and on TF32). */
    const gk_gemm_precision pr = gk_gemm_variant_precision(v, s->type);
    c->peak = pr == GK_GEMM_TF32 ? GK_PEAK_TF32 : pr == GK_GEMM_FP32 ? GK_PEAK_FP32 : GK_PEAK_BF16;
    c->precision = gk_gemm_precision_name(pr);
    c->reference = reference_key(s->type, pr, s->epilogue != GK_GEMM_EPILOGUE_NONE);
}

/* A run has one dtype and one epilogue: the variants that store that type,
 * the references of that type with (cuBLASLt) or without (cuBLAS) an
 * epilogue, and the ceiling; the others get no row in the table. */
static int applies(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    if (c->role == GK_ROLE_CEILING) return 1; /* every run: it reads the run's B */
    if (c->role == GK_ROLE_VARIANT) {
        if (c->id == GK_GEMM_AUTO) return 1; /* every type */
        const gk_gemm_variant *v = gk_gemm_find_variant(c->id);
        /* The FP8 rung multiplies FP8 inputs: its own module, gemm_fp8. */
        return v != NULL && v->precision != GK_GEMM_FP8 && (v->types & GK_GEMM_TYPE_BIT(s->type)) != 0;
    }
    const reference *r = find_reference(c->key);
    return r != NULL && r->type == s->type && r->lt == (s->epilogue != GK_GEMM_EPILOGUE_NONE);
}

/* The description of the run's product with dimensions m x n x k and
 * `batch` products (the real ones, or one 1 x 1 x 1 for the trial call). */
static gk_gemm_desc make_desc(const state *s, size_t m, size_t n, size_t k, size_t batch)
{
    gk_gemm_desc d = gk_gemm_desc_init(s->type, m, n, k);
    d.op_a = s->op_a;
    d.op_b = s->op_b;
    d.batch = batch;
    d.stride_a = m * k;
    d.stride_b = k * n;
    d.stride_c = m * n;
    d.epilogue = s->epilogue;
    d.bias = s->bias;
    d.compute = s->compute;
    return d;
}

static gk_status prepare_variant(state *s)
{
    int id = s->cur.id;
    if (id == GK_GEMM_AUTO) {
        const gk_gemm_desc d = make_desc(s, s->m, s->n, s->k, s->batch);
        GK_TRY(gk_gemm_auto_variant(&d, &id, NULL));
    }
    const gk_gemm_variant *v = gk_gemm_find_variant(id);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such gemm variant");
    if (v->min_cc > s->cc) return GK_FAIL(GK_ERROR_UNSUPPORTED, "needs a newer GPU (variant->min_cc)");
    s->precision = gk_gemm_variant_precision(v, s->type);
    s->desc = make_desc(s, s->m, s->n, s->k, s->batch);
    gk_gemm_desc tiny = make_desc(s, 1, 1, 1, 1);
    /* The workspace query: GK_ERROR_UNSUPPORTED here when the variant does
     * not take this type, layout, batch or epilogue. */
    size_t need = 0, need_tiny = 0;
    GK_TRY(gk_gemm_ex(s->cur.id, &s->desc, NULL, NULL, NULL, NULL, &need, 0));
    GK_TRY(gk_gemm_ex(id, &tiny, NULL, NULL, NULL, NULL, &need_tiny, 0));
    GK_TRY(gk_bench_poisoned_workspace(&s->ws, &s->ws_bytes, need > need_tiny ? need : need_tiny, 0x5a));
    /* A 1x1x1 call: GK_ERROR_UNSUPPORTED where the build or the GPU cannot
     * run the variant (wgmma: cc 9.0, built for sm_90a). */
    size_t ws_bytes = s->ws_bytes;
    GK_TRY(gk_gemm_ex(id, &tiny, s->a, s->b, s->c, s->ws, &ws_bytes, 0)); /* the pick itself (auto may pick
                                                                            another for 1 x 1 x 1) */
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

#define LT_TRY(call)                                                                                             \
    do {                                                                                                         \
        if ((call) != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, #call " failed");                    \
    } while (0)

/* A cuBLASLt matrix layout of `rows` x `cols` (column-major, as cuBLASLt
 * sees it) with leading dimension ld, one per product of the batch. */
static gk_status lt_layout(const state *s, cublasLtMatrixLayout_t *l, size_t rows, size_t cols, size_t ld)
{
    LT_TRY(cublasLtMatrixLayoutCreate(l, cuda_type(s->type), rows, cols, (int64_t)ld));
    if (s->batch > 1) {
        int32_t count = (int32_t)s->batch;
        int64_t stride = (int64_t)(rows * cols); /* dense: ld is rows */
        LT_TRY(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count));
        LT_TRY(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                                                sizeof stride));
    }
    return gk_success();
}

/* cuBLASLt's description of the run's product with its epilogue, and the
 * algorithm its heuristic puts first: once per case and size, not timed. */
static gk_status prepare_lt(state *s)
{
    const reference *r = s->ref_case;
    cublasComputeType_t ct = r->precision == GK_GEMM_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    LT_TRY(cublasLtMatmulDescCreate(&s->lt_op, ct, CUDA_R_32F));
    /* Column-major C^T = op(B)^T op(A)^T: B's memory is cuBLASLt's A, with op_b's flag. */
    cublasOperation_t ta = cublas_op(s->op_b), tb = cublas_op(s->op_a);
    cublasLtEpilogue_t epi = s->epilogue == GK_GEMM_EPILOGUE_BIAS_RELU   ? CUBLASLT_EPILOGUE_RELU_BIAS
                             : s->epilogue == GK_GEMM_EPILOGUE_BIAS_GELU ? CUBLASLT_EPILOGUE_GELU_BIAS
                                                                         : CUBLASLT_EPILOGUE_BIAS;
    int32_t bias_type = (int32_t)cuda_type(s->type);
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    /* The bias runs along cuBLASLt's rows of D (n of them): bias[j] for every
     * row i of our C, the same vector for every product (batch stride 0). */
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &s->bias, sizeof s->bias));
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type,
                                          sizeof bias_type));
    /* The stored matrices in column-major terms: B (op_b = N: n x k, ld n;
     * T: k x n, ld k), A (op_a = N: k x m, ld k; T: m x k, ld m), C (n x m). */
    if (s->op_b == GK_GEMM_OP_N) GK_TRY(lt_layout(s, &s->lt_x, s->n, s->k, s->n));
    else GK_TRY(lt_layout(s, &s->lt_x, s->k, s->n, s->k));
    if (s->op_a == GK_GEMM_OP_N) GK_TRY(lt_layout(s, &s->lt_y, s->k, s->m, s->k));
    else GK_TRY(lt_layout(s, &s->lt_y, s->m, s->k, s->m));
    GK_TRY(lt_layout(s, &s->lt_c, s->n, s->m, s->n));
    cublasLtMatmulPreference_t pref = NULL;
    LT_TRY(cublasLtMatmulPreferenceCreate(&pref));
    uint64_t ws = s->lt_ws_bytes;
    cublasLtMatmulHeuristicResult_t result;
    int found = 0;
    cublasStatus_t cs =
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    if (cs == CUBLAS_STATUS_SUCCESS)
        cs = cublasLtMatmulAlgoGetHeuristic(s->lt, s->lt_op, s->lt_x, s->lt_y, s->lt_c, s->lt_c, pref, 1, &result,
                                            &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (cs == CUBLAS_STATUS_NOT_SUPPORTED || (cs == CUBLAS_STATUS_SUCCESS && found == 0))
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "cuBLASLt has no algorithm for this product and epilogue");
    if (cs != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, "cublasLtMatmulAlgoGetHeuristic failed");
    s->lt_algo = result.algo;
    return gk_success();
}

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->cur = *c;
    s->ref_case = NULL;
    lt_free_case(s);
    if (c->role == GK_ROLE_VARIANT) {
        GK_TRY(prepare_variant(s));
    } else if (c->role == GK_ROLE_REFERENCE) {
        s->ref_case = find_reference(c->key);
        if (s->ref_case == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such gemm reference");
        s->precision = s->ref_case->precision;
        if (s->ref_case->lt) GK_TRY(prepare_lt(s));
    } /* the ceiling needs nothing more: the size's B and sink */
    /* Poison C with NaN (0xff bytes: a NaN in fp32, bf16 and fp16): beta = 0,
     * so every element must be written and none read. */
    GK_CUDA_TRY(cudaMemset(s->c, 0xff, s->m * s->n * s->batch * elem_bytes(s->type)));
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->cur.role == GK_ROLE_CEILING) {
        GK_CUDA_TRY(gk_ceiling_read_stream(s->b, weight_bytes(s), s->d_sink, stream));
        return gk_success();
    }
    const reference *r = s->ref_case;
    if (r == NULL) return gk_gemm_ex(s->cur.id, &s->desc, s->a, s->b, s->c, s->ws, &s->ws_bytes, stream);
    if (r->lt) {
        const float one = 1.0f, zero = 0.0f;
        LT_TRY(cublasLtMatmul(s->lt, s->lt_op, &one, s->b, s->lt_x, s->a, s->lt_y, &zero, s->c, s->lt_c, s->c,
                              s->lt_c, &s->lt_algo, s->lt_ws, s->lt_ws_bytes, stream));
        return gk_success();
    }
    if (cublasSetStream(s->h, stream) != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, "cublasSetStream");
    cublasComputeType_t ct = r->precision == GK_GEMM_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    if (cublas_product(s, s->type, ct, s->a, s->b, s->c) != CUBLAS_STATUS_SUCCESS)
        return GK_FAIL(GK_ERROR_CUDA, "cublasGemmEx / cublasGemmStridedBatchedEx failed");
    return gk_success();
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->cur.role == GK_ROLE_CEILING) return gk_success(); /* it computes nothing to check */
    const size_t mn = s->m * s->n, nc = mn * s->batch;
    if (s->type == GK_GEMM_TYPE_F32) GK_CUDA_TRY(cudaMemcpy(s->h_c, s->d_c, nc * sizeof(float), cudaMemcpyDeviceToHost));
    else GK_CUDA_TRY(cudaMemcpy(s->h_c16, s->d_c16, nc * 2, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    char label[128];
    for (size_t z = 0; z < s->batch; ++z) {
        /* The first failing product prints its mismatches; the rest are counted. */
        FILE *out = bad == 0 ? log : NULL;
        if (s->batch > 1) snprintf(label, sizeof label, "%s (product %zu of %zu)", s->cur.name, z, s->batch);
        else snprintf(label, sizeof label, "%s", s->cur.name);
        const size_t o = z * mn;
        if (s->type == GK_GEMM_TYPE_F32)
            bad += gk_gemm_check_ex(s->h_c + o, s->n, s->ref + o, s->mag + o, s->rms + o, s->m, s->n, s->k,
                                    s->precision, s->epilogue, 1, label, out);
        else
            bad += gk_gemm_check16(s->h_c16 + o, s->n, s->ref + o, s->mag + o, s->rms + o, s->m, s->n, s->k,
                                   s->precision, s->epilogue, 1, label, out);
    }
    if (bad != 0) {
        if (log != NULL && s->batch > 1) fprintf(log, "  %s: %zu of %zu elements mismatch\n", s->cur.name, bad, nc);
        return GK_FAIL(GK_ERROR_VERIFY_FAILED, "C does not match cuBLAS fp32 (+ the epilogue) within the tolerance");
    }
    return gk_success();
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    double m = (double)s->m, n = (double)s->n, k = (double)s->k, z = (double)s->batch;
    double e = (double)elem_bytes(s->type);
    double bias = s->epilogue != GK_GEMM_EPILOGUE_NONE ? n : 0.0;
    gk_bench_work w = {e * (m * k * z + k * n * z + bias), e * m * n * z, 2.0 * m * n * k * z};
    /* The ceiling: the weight's bytes read, none written, and the product's
     * FLOPs (its TFLOP/s: the most a product that reads its weight once can
     * reach). */
    if (s->cur.role == GK_ROLE_CEILING) w.bytes_read = (double)weight_bytes(s), w.bytes_written = 0.0;
    return w;
}

const gk_bench_module gk_gemm_bench_module = {
    "gemm", "m x n x k",
    "one size for a square product (4096, 2^12) or m x n x k (4097x3001x2049); or sweep:N[:LO..HI[:SEED]], N "
    "shapes with every side drawn log-uniformly from LO to HI (sweep:100: 100 shapes, 1..8192, seed 2026)",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "tflops", params, sizeof params / sizeof params[0],
    gk_gemm_bench_parse_size, gk_gemm_bench_format_size, num_cases, case_at, setup, skip, prepare, run, verify, work,
    describe, teardown,
    GK_PEAK_NONE, applies, in_run, .state_size = sizeof(state),
};
