/* The gemm module's FP8 entry in gk_bench (bench/bench.h): module gemm_fp8.
 *
 * What it measures: gk_gemm_ex with FP8 inputs (gk/gemm.h, "FP8"),
 *
 *     D = epi(x W^T + bias),  x m x k and W n x k, both e4m3 or e5m2,
 *
 * the product of a linear layer, against cuBLASLt's FP8 matmul on the same
 * bytes in the same run. alpha = 1, beta = 0, per-tensor scales sa = sb = 1
 * passed as device floats (the scale path runs; multiplying by 1 is
 * exact), no row or column scales, no amax.
 *
 * Sizes: "4096" (square) or "4097x3001x2049" (m x n x k), as the gemm
 * module takes them. Default: the squares 1024 to 8192 and 4097 x 3001 x
 * 2049 (rows of 2049 bytes: neither we nor cuBLASLt can load them with the
 * TMA as they are).
 *
 * Parameters, each a list that the runner sweeps (--param key=v1,v2):
 *   pair        e4m3xe4m3, e4m3xe5m2, e5m2xe4m3: type_a x type_b (x's
 *               type, then W's); cuBLASLt takes these three, not e5m2 x
 *               e5m2 (default e4m3xe4m3).
 *   out         bf16, f16, f32: D's (and the bias's) type (default bf16).
 *   fast_accum  0, 1: desc.fast_accum and cuBLASLt's
 *               CUBLASLT_MATMUL_DESC_FAST_ACCUM, the same in both. 0
 *               promotes partial sums to fp32 registers every 128 k, 1
 *               keeps the whole sum in the tensor cores' accumulator
 *               (default 0,1: both, as separate groups).
 *   layout      nt, nn, tn, tt: op_a then op_b in the library's row-major
 *               terms. nt is y = x W^T (A = x stored m x k, B = W stored
 *               n x k): both operands K-major, the only layout the FP8
 *               wgmma reads, and the only one cuBLASLt's FP8 matmul takes.
 *               The others store x as k x m (t first) or W as k x n (n
 *               second); our call then copies the operand K-major into its
 *               workspace first, and the table shows that cost: those runs
 *               time ours only, with no ratio (default nt).
 *   epilogue    none, bias, bias_relu, bias_gelu (default none).
 *
 * Cases: the FP8 rows of the module's table (variant 18, scaled_wgmma,
 * found by precision GK_GEMM_FP8), the auto row (id 0, GK_GEMM_AUTO, which
 * picks 18 for FP8 inputs), both through gk_gemm_ex with a workspace of
 * the size its two-phase query asks for (poisoned), then the reference:
 *
 *   cublaslt_fp8: cublasLtMatmul, CUBLAS_COMPUTE_32F, scale type CUDA_R_32F,
 *   A and B in CUDA_R_8F_E4M3 / CUDA_R_8F_E5M2, C = D in CUDA_R_16BF,
 *   CUDA_R_16F or CUDA_R_32F, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER and
 *   B_SCALE_POINTER (device floats), CUBLASLT_MATMUL_DESC_FAST_ACCUM as
 *   ours, and with an epilogue CUBLASLT_EPILOGUE_BIAS, RELU_BIAS or
 *   GELU_BIAS with CUBLASLT_MATMUL_DESC_BIAS_POINTER (the bias in D's type;
 *   for an fp32 D cuBLASLt's FP8 kernels take a bf16 bias, so the bias is
 *   made of numbers exact in bf16 and cuBLASLt reads a bf16 copy of the
 *   same numbers). Workspace 32 MiB, the first algorithm of
 *   cublasLtMatmulAlgoGetHeuristic, picked once per group (untimed).
 *   cuBLASLt's FP8 matmul takes only the "TN" form (column-major terms:
 *   transa = T, transb = N). Row-major D = x W^T (m x n) is column-major
 *   D^T = W x^T (n x m): cuBLASLt's m' = n, n' = m, its A is W (stored
 *   k x n column-major, ld k: W's row-major n x k bytes) with transa = T,
 *   its B is x (k x m column-major, ld k: x's row-major m x k bytes) with
 *   transb = N, and D is n x m column-major with ld n, which is our
 *   row-major m x n. So cuBLASLt's A is our B and its A_SCALE is our
 *   scale_b (and B_SCALE our scale_a). Its FP8 kernels want leading
 *   dimensions that are multiples of 16: at 4097 x 3001 x 2049 it has no
 *   algorithm, and its row shows n/a (ours is still checked, below).
 *
 * Inputs: x and W are normal(0, 1) floats (Box-Muller on the host, seeded),
 * quantized on the GPU by gk_gemm_fp8_quantize with scale 1: e4m3's normal
 * range starts at 2^-6, so the values use its exponents from about 2^-9
 * (subnormal) to 2^2, and none saturates (|x| < 448). The bytes are read
 * back and decoded on the host (exact) for the check; the transposed
 * layouts get transposed copies of the same bytes. The bias: k / 128 for
 * random integers k in [-128, 127], k != 0, exact in bf16, fp16 and fp32.
 *
 * Work per call: 2 m n k FLOPs; x and W read once (1 byte an element), the
 * bias once, D written once: m k + n k (+ e n) bytes read, e m n written,
 * e = 2 for bf16 and f16, 4 for f32. % of peak: Hopper's FP8 tensor cores
 * run at twice the BF16 rate per SM and clock (H100 SXM: 1979 against 989
 * dense TFLOP/s at the boost clock). The runner's peaks (gk/device.h) have
 * no FP8 entry yet: until they do (GK_BENCH_HAS_FP8_PEAK, below) the
 * %peak column is taken against the dense BF16 peak and says so ("BF16"
 * in its 'of' column): the % of the FP8 peak is half that figure.
 *
 * Verification. Every case's D is poisoned with NaN (0xff bytes) before its
 * run; beta = 0, so every element must be written. Then two checks, with
 * tolerances derived here. Notation: u_tc for the tensor cores' FP8
 * accumulator, u32 = 2^-24, u64 = 2^-53, u_out = 2^-8 (bf16), 2^-11 (f16),
 * 2^-24 (f32), p the k products of one element (each exact: two FP8
 * numbers have at most 4 x 4 significant bits and exponents within fp32's
 * range), mag = sum |p|.
 *
 * The accumulation model (an assumption about the hardware, stated in
 * gk/gemm.h after the DeepSeek-V3 report, arXiv:2412.19437, 3.3.2: about
 * 14 significant bits kept): each exact product p is added into the
 * accumulator s aligned to the larger magnitude and truncated, so
 *     |s' - (s + p)| <= u_tc (|s| + |p|),  u_tc = 2^-13
 * (14 bits kept by truncation lose less than 2^-13 of the larger operand;
 * a model that charged this once per k32 step instead of once per product
 * is refuted on the H100, gemm_ref.h says how). With the computed partial
 * sum off by E_{j-1} from the exact S_{j-1}, product j gives
 *     E_j <= E_{j-1} + u_tc (|S_{j-1}| + E_{j-1} + |p_j|).
 * fast_accum = 1: the whole sum is one such chain of k products.
 * fast_accum = 0: a chain of at most 128 products (restarted from 0: our
 * kernel's promotion every 128 k, gk/gemm.h), each chunk then added into
 * an fp32 register, R_c = fl(R_{c-1} + chunk_c): E^R_c <= E^R_{c-1} +
 * E_chunk + u32 (|S_c| + E^R_{c-1} + E_chunk). cuBLASLt is assumed to obey
 * the same model (with FAST_ACCUM = 0 promoting at least every 128 k, as
 * CUTLASS's default interval of 4 k32 MMAs does); a failure of the
 * cuBLASLt row's own check says this assumption is wrong.
 *
 * (1) Against the exact value, on S_SAMPLES elements (the four corners,
 * the middle, and seeded random ones): the float64 sum of the exact
 * products (off by at most (k + 2) u64 mag) and the chain above run on the
 * exact partial sums, per element, for the case's fast_accum: the tight
 * check, which follows each element's own partial sums. Then the
 * epilogue, as gemm_ref.h derives it: a bias added in fp32 (t_x = t +
 * u32 (|x| + t)), ReLU 1-Lipschitz, GELU at most GK_GELU_LIPSCHITZ = 1.13
 * times t_x plus its evaluation's relative error (ours 2^-16, gk/gemm.h;
 * cuBLASLt's assumed below 2^-12), and D's rounding: tol = t_e + u_out
 * (|ref| + t_e) (+ 2^-25 for f16's subnormal spacing). Our variants and
 * the auto row are checked with our model, cuBLASLt's row with the same
 * (its assumption above).
 *
 * (2) Our D against cuBLASLt's D, every element (same bytes, same
 * fast_accum; cuBLASLt's D made once per group, untimed; skipped, with a
 * note, where cuBLASLt has no algorithm). Without the partial sums, the
 * chain is bounded through M = ||x_i||_2 ||w_j||_2 >= mag >= |S_j| (Cauchy
 * and Schwarz, each row and column norm computed once): E <= g M with
 *     fast_accum = 1:  g = (1 + u_tc)^J - 1
 *     fast_accum = 0:  g = (1 + u32)^C (g4 + C u32),  g4 = (1 + u_tc)^4 - 1,
 *                      C = ceil(k / 128) chunks
 * for each side; then the bias and GELU as in (1) with M + |bias_j| for
 * |x|, and each D's rounding from its own stored value: |x~ - d| <=
 * u_out |x~| <= 2 u_out |d|. So
 *     tol = t_ours + t_cublaslt + 2 u_out (|d_ours| + |d_cublaslt|)
 * (+ 2 * 2^-25 for f16). For normal inputs M is about 1.6 mag; with
 * fast_accum = 0 the bound is about 2^-10 M, an eighth of |D| at k = 4096;
 * with fast_accum = 1 it grows with J and passes |D| itself from k of a
 * few thousand, so at large k this check then catches only what is not
 * finite (a NaN left by the poison, an overflow): the tight check of fast
 * accumulation is (1).
 * NaN and Inf always fail. The first mismatches print with their row and
 * column, the value, the reference and the tolerance; a failure is
 * GK_ERROR_VERIFY_FAILED, which the table and the JSON show for the row.
 *
 * The parse and print of sizes are the gemm module's (bench_gemm.c keeps
 * them static, so they are repeated here).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cublasLt.h>

#include "bench.h"
#include "bench_gemm.h"
#include "cli.h"
#include "gemm_ref.h"
#include "gk/cuda_check.h"
#include "gk/gemm.h"
#include "gk/random.h"

/* The peak the %peak column uses (see the header comment). */
#ifdef GK_BENCH_HAS_FP8_PEAK
#define FP8_PEAK GK_PEAK_FP8
#else
#define FP8_PEAK GK_PEAK_BF16
#endif

static const char *const default_sizes[] = {"1024", "2048", "4096", "8192", "4097x3001x2049"};

/* The parameters, in this order in gk_bench_params.value. */
enum { P_PAIR, P_OUT, P_FAST, P_LAYOUT, P_EPILOGUE };
static const gk_bench_param_decl params[] = {
    {"pair", "e4m3xe4m3,e4m3xe5m2,e5m2xe4m3", "e4m3xe4m3", "type_a x type_b: x's FP8 type, then W's", NULL},
    {"out", "bf16,f16,f32", "bf16", "D's (and the bias's) type", NULL},
    {"fast_accum", "0,1", "0,1",
     "0: partial sums promoted to fp32 every 128 k; 1: the tensor cores' accumulator for the whole sum (ours and "
     "cuBLASLt's CUBLASLT_MATMUL_DESC_FAST_ACCUM alike)",
     NULL},
    {"layout", "nt,nn,tn,tt", "nt",
     "op_a op_b, row-major: nt = y = x W^T (both K-major, the only layout cuBLASLt's FP8 takes); the others time "
     "ours only, with its copy of the operand",
     NULL},
    {"epilogue", "none,bias,bias_relu,bias_gelu", "none", "fused into the store: + bias[j], then ReLU or GELU",
     NULL},
};

#define LT_KEY "cublaslt_fp8"
static const gk_bench_case reference_case = {
    0, LT_KEY, "cuBLASLt FP8",
    "cublasLtMatmul, FP8 A and B (TN), COMPUTE_32F, A/B scale pointers, FAST_ACCUM as ours, the epilogue's bias",
    GK_ROLE_REFERENCE, "fp8", FP8_PEAK, NULL};

static const gk_bench_case auto_case = {
    GK_GEMM_AUTO, "auto", "auto", "GK_GEMM_AUTO: the variant gk/gemm.h's table picks for FP8 inputs",
    GK_ROLE_VARIANT, "fp8", FP8_PEAK, LT_KEY};

/* The FP8 rows of the module's table, in table order: index i of them. */
static const gk_gemm_variant *fp8_variant_at(size_t i)
{
    for (size_t t = 0; t < gk_gemm_variant_count(); ++t) {
        const gk_gemm_variant *v = gk_gemm_variant_at(t);
        if (v->precision == GK_GEMM_FP8 && i-- == 0) return v;
    }
    return NULL;
}

static size_t num_fp8_variants(void)
{
    size_t n = 0;
    while (fp8_variant_at(n) != NULL) ++n;
    return n;
}

static size_t num_cases(void) { return num_fp8_variants() + 2; }

static gk_bench_case case_at(size_t i)
{
    const gk_gemm_variant *v = fp8_variant_at(i);
    if (v != NULL) {
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, gk_gemm_precision_name(v->precision),
                           FP8_PEAK, LT_KEY};
        return c;
    }
    return i == num_fp8_variants() ? auto_case : reference_case;
}

/* Elements checked against the exact value (check 1). */
#define S_SAMPLES 1024
/* The model of the tensor cores' FP8 accumulator (header comment). */
#define U_TC 1.220703125e-04 /* 2^-13, per product */
#define U32 5.9604644775390625e-08 /* 2^-24 */
#define U64 1.1102230246251565e-16 /* 2^-53 */
#define PROMOTE_K 128              /* fast_accum = 0: k per chunk in the tensor cores */
#define GELU_REL_LT 2.44140625e-04 /* 2^-12: cuBLASLt's GELU, assumed */
#define LT_WORKSPACE_BYTES ((size_t)32 << 20)
#define MAX_PRINTED 8

typedef struct state {
    size_t m, n, k;
    gk_gemm_type type_a, type_b, out;
    int fast;
    gk_gemm_op op_a, op_b;
    gk_gemm_epilogue epilogue;
    char describe[64];
    int cc;
    /* Device: the K-major FP8 bytes (x m x k, W n x k), the layout's
     * stored operands (the same buffers for nt, transposed copies
     * otherwise), the scales {sa, sb}, the bias in D's type (and in bf16
     * for cuBLASLt with an fp32 D), D and cuBLASLt's D. */
    unsigned char *d_x8, *d_w8, *d_at, *d_bt;
    const void *a, *b;
    float *d_scales;
    void *d_bias, *d_bias_lt;
    void *d_d, *d_ref;
    /* Host: the decoded inputs (exact), row and column norms, the bias,
     * cuBLASLt's D and ours read back, the samples. */
    float *xa, *wb;
    double *rn, *cn;
    double *bias;
    void *h_ref, *h_d;
    size_t si[S_SAMPLES], sj[S_SAMPLES];
    double s_ref[S_SAMPLES], s_tol_ours[S_SAMPLES], s_tol_lt[S_SAMPLES];
    size_t num_samples;
    /* cuBLASLt: handle, workspace, the product's descriptors and algorithm. */
    cublasLtHandle_t lt;
    void *lt_ws;
    cublasLtMatmulDesc_t lt_op;
    cublasLtMatrixLayout_t lt_a, lt_b, lt_d;
    cublasLtMatmulAlgo_t lt_algo;
    int lt_ok;           /* cuBLASLt has an algorithm, and h_ref holds its D */
    const char *lt_why;  /* ... else why not */
    /* The prepared case. */
    gk_bench_case cur;
    gk_gemm_desc desc;
    void *ws;
    size_t ws_bytes;
} state;

static size_t out_bytes(gk_gemm_type t) { return t == GK_GEMM_TYPE_F32 ? 4 : 2; }
static cudaDataType_t out_cuda_type(gk_gemm_type t)
{
    return t == GK_GEMM_TYPE_F32 ? CUDA_R_32F : t == GK_GEMM_TYPE_BF16 ? CUDA_R_16BF : CUDA_R_16F;
}
static cudaDataType_t fp8_cuda_type(gk_gemm_type t) { return t == GK_GEMM_TYPE_E4M3 ? CUDA_R_8F_E4M3 : CUDA_R_8F_E5M2; }
static double u_out(gk_gemm_type t)
{
    return t == GK_GEMM_TYPE_F32 ? U32 : t == GK_GEMM_TYPE_BF16 ? GK_BF16_UNIT_ROUNDOFF : GK_FP16_UNIT_ROUNDOFF;
}
/* f16's subnormal spacing (2^-24): half of it, absolute, per rounding. */
static double sub_out(gk_gemm_type t) { return t == GK_GEMM_TYPE_F16 ? 2.98023223876953125e-08 : 0.0; }

/* The value of an FP8 byte (exact in a float): e4m3 (bias 7, no infinity,
 * 0x7f and 0xff NaN) or e5m2 (bias 15, IEEE-like). */
static float fp8_value(unsigned char byte, gk_gemm_type t)
{
    const int sign = byte >> 7;
    double v;
    if (t == GK_GEMM_TYPE_E4M3) {
        const int e = (byte >> 3) & 15, f = byte & 7;
        if (e == 15 && f == 7) return NAN;
        v = e == 0 ? ldexp(f, -9) : ldexp(8 + f, e - 10);
    } else {
        const int e = (byte >> 2) & 31, f = byte & 3;
        if (e == 31) return f == 0 ? (sign ? -INFINITY : INFINITY) : NAN;
        v = e == 0 ? ldexp(f, -16) : ldexp(4 + f, e - 17);
    }
    return (float)(sign ? -v : v);
}

/* Element i of a D of type t, as a float (exact). */
static double out_value(const void *d, size_t i, gk_gemm_type t)
{
    if (t == GK_GEMM_TYPE_F32) return ((const float *)d)[i];
    const unsigned short bits = ((const unsigned short *)d)[i];
    return t == GK_GEMM_TYPE_BF16 ? gk_bf16_value(bits) : gk_fp16_value(bits);
}

/* x[i] normal(0, 1), seeded: Box-Muller on two uniform doubles. */
static void fill_normal(float *x, size_t n, uint64_t seed)
{
    gk_rng r;
    gk_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i += 2) {
        const double u1 = (double)((gk_rng_next(&r) >> 11) + 1) * 0x1p-53; /* (0, 1]: log(u1) finite */
        const double u2 = (double)(gk_rng_next(&r) >> 11) * 0x1p-53;       /* [0, 1) */
        const double rad = sqrt(-2.0 * log(u1)), th = 6.283185307179586 * u2;
        x[i] = (float)(rad * cos(th));
        if (i + 1 < n) x[i + 1] = (float)(rad * sin(th));
    }
}

static void lt_free(state *s)
{
    if (s->lt_op) cublasLtMatmulDescDestroy(s->lt_op);
    if (s->lt_a) cublasLtMatrixLayoutDestroy(s->lt_a);
    if (s->lt_b) cublasLtMatrixLayoutDestroy(s->lt_b);
    if (s->lt_d) cublasLtMatrixLayoutDestroy(s->lt_d);
    s->lt_op = NULL;
    s->lt_a = s->lt_b = s->lt_d = NULL;
}

static void teardown(void *p)
{
    state *s = (state *)p;
    lt_free(s);
    if (s->lt) cublasLtDestroy(s->lt);
    cudaFree(s->lt_ws);
    cudaFree(s->ws);
    cudaFree(s->d_x8);
    cudaFree(s->d_w8);
    cudaFree(s->d_at);
    cudaFree(s->d_bt);
    cudaFree(s->d_scales);
    cudaFree(s->d_bias);
    cudaFree(s->d_bias_lt);
    cudaFree(s->d_d);
    cudaFree(s->d_ref);
    free(s->xa);
    free(s->wb);
    free(s->rn);
    free(s->cn);
    free(s->bias);
    free(s->h_ref);
    free(s->h_d);
}

static void make_describe(state *s)
{
    static const char *const ops[2][2] = {{"A*B", "A*B^T"}, {"A^T*B", "A^T*B^T"}};
    const char *prod = ops[s->op_a][s->op_b];
    char expr[40];
    switch (s->epilogue) {
    case GK_GEMM_EPILOGUE_BIAS: snprintf(expr, sizeof expr, "%s + bias", prod); break;
    case GK_GEMM_EPILOGUE_BIAS_RELU: snprintf(expr, sizeof expr, "relu(%s + bias)", prod); break;
    case GK_GEMM_EPILOGUE_BIAS_GELU: snprintf(expr, sizeof expr, "gelu(%s + bias)", prod); break;
    default: snprintf(expr, sizeof expr, "%s", prod); break;
    }
    snprintf(s->describe, sizeof s->describe, "D = %s, %sx%s -> %s%s", expr, gk_gemm_type_name(s->type_a),
             gk_gemm_type_name(s->type_b), gk_gemm_type_name(s->out), s->fast ? ", fast accum" : "");
}

static void parse_params(state *s, const gk_bench_params *params)
{
    const char *pair = params->value[P_PAIR], *out = params->value[P_OUT], *fast = params->value[P_FAST];
    const char *layout = params->value[P_LAYOUT], *epi = params->value[P_EPILOGUE];
    s->type_a = pair != NULL && strncmp(pair, "e5m2", 4) == 0 ? GK_GEMM_TYPE_E5M2 : GK_GEMM_TYPE_E4M3;
    s->type_b = pair != NULL && strlen(pair) == 9 && strcmp(pair + 5, "e5m2") == 0 ? GK_GEMM_TYPE_E5M2
                                                                                    : GK_GEMM_TYPE_E4M3;
    s->out = GK_GEMM_TYPE_BF16;
    if (out != NULL && strcmp(out, "f16") == 0) s->out = GK_GEMM_TYPE_F16;
    if (out != NULL && strcmp(out, "f32") == 0) s->out = GK_GEMM_TYPE_F32;
    s->fast = fast != NULL && strcmp(fast, "1") == 0;
    if (layout == NULL) layout = "nt";
    s->op_a = layout[0] == 't' ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    s->op_b = layout[0] != '\0' && layout[1] == 't' ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    s->epilogue = GK_GEMM_EPILOGUE_NONE;
    for (int e = GK_GEMM_EPILOGUE_NONE; epi != NULL && e <= GK_GEMM_EPILOGUE_BIAS_GELU; ++e)
        if (strcmp(epi, gk_gemm_epilogue_name((gk_gemm_epilogue)e)) == 0) s->epilogue = (gk_gemm_epilogue)e;
    make_describe(s);
}

static int is_nt(const state *s) { return s->op_a == GK_GEMM_OP_N && s->op_b == GK_GEMM_OP_T; }

/* out[c * rows + r] = in[r * cols + c]: a rows x cols byte matrix transposed. */
static void transpose_bytes(unsigned char *out, const unsigned char *in, size_t rows, size_t cols)
{
    const size_t T = 64; /* blocks, for the host's caches */
    for (size_t r0 = 0; r0 < rows; r0 += T)
        for (size_t c0 = 0; c0 < cols; c0 += T)
            for (size_t r = r0; r < r0 + T && r < rows; ++r)
                for (size_t c = c0; c < c0 + T && c < cols; ++c) out[c * rows + r] = in[r * cols + c];
}

/* The tolerance of the epilogue and D's rounding on top of an error t of the
 * fp32 sum (header comment): x_mag bounds |x| = |sum + bias| (the exact
 * reference's |ref| in check 1), gelu_rel the GELU's relative error. Returns
 * t_e, before D's rounding. */
static double epilogue_error(gk_gemm_epilogue epi, double t, double x_mag, double ref_mag, double gelu_rel)
{
    if (epi == GK_GEMM_EPILOGUE_NONE) return t;
    const double tx = t + U32 * (x_mag + t); /* the bias added in fp32 */
    if (epi != GK_GEMM_EPILOGUE_BIAS_GELU) return tx; /* BIAS, and ReLU: 1-Lipschitz */
    return GK_GELU_LIPSCHITZ * tx + gelu_rel * (ref_mag + GK_GELU_LIPSCHITZ * tx) + 0x1p-100;
}

/* Check 1's reference and tolerances for element (i, j): the exact value
 * (float64 sum of exact products, then the epilogue) and the bound of the
 * accumulation model run on its exact partial sums. */
static void sample(state *s, size_t idx)
{
    const size_t i = s->si[idx], j = s->sj[idx], k = s->k;
    const float *x = s->xa + i * k, *w = s->wb + j * k;
    double S = 0.0, mag = 0.0;  /* exact sum so far (to (k + 2) u64 mag), sum |p| */
    double E = 0.0;             /* the model's bound on the computed sum's error */
    double T = 0.0, Ec = 0.0;   /* fast_accum = 0: the chunk's exact sum and its bound */
    for (size_t p = 0; p < k; ++p) {
        const double prod = (double)x[p] * (double)w[p]; /* exact: 8 x 8 significant bits at most */
        const double P = fabs(prod);
        mag += P;
        if (s->fast) {
            E += U_TC * (fabs(S) + E + P); /* S: the exact sum before this product */
            S += prod;
        } else {
            Ec += U_TC * (fabs(T) + Ec + P); /* T: the chunk's exact sum before this product */
            T += prod;
            S += prod;
            if ((p + 1) % PROMOTE_K == 0 || p + 1 == k) { /* the chunk goes into the fp32 register, */
                E += Ec + U32 * (fabs(S) + E + Ec);    /* whose exact value is now S */
                T = 0.0;
                Ec = 0.0;
            }
        }
    }
    const double t = E + (double)(k + 2) * U64 * mag; /* and the float64 sum's own error */
    const int bias = s->epilogue != GK_GEMM_EPILOGUE_NONE;
    const double xval = S + (bias ? s->bias[j] : 0.0);
    const double ref = bias ? gk_gemm_epilogue_ref(s->epilogue, xval) : xval;
    const double uo = u_out(s->out), so = sub_out(s->out);
    const double te_ours = epilogue_error(s->epilogue, t, fabs(xval), fabs(ref), GK_GELU_REL_ERROR);
    const double te_lt = epilogue_error(s->epilogue, t, fabs(xval), fabs(ref), GELU_REL_LT);
    s->s_ref[idx] = ref;
    s->s_tol_ours[idx] = te_ours + uo * (fabs(ref) + te_ours) + so;
    s->s_tol_lt[idx] = te_lt + uo * (fabs(ref) + te_lt) + so;
}

/* Check 2's factor g (header comment): the accumulation error of either
 * side is at most g * ||x_i|| ||w_j||. */
static double full_factor(const state *s)
{
    if (s->fast) return pow(1.0 + U_TC, (double)s->k) - 1.0;
    const double c = (double)((s->k + PROMOTE_K - 1) / PROMOTE_K);
    const double gc = pow(1.0 + U_TC, (double)(s->k < PROMOTE_K ? s->k : PROMOTE_K)) - 1.0;
    return pow(1.0 + U32, c) * (gc + c * U32);
}

#define LT_TRY(call)                                                                                             \
    do {                                                                                                         \
        if ((call) != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, #call " failed");                    \
    } while (0)

/* cuBLASLt's description of D^T = W x^T (column-major, TN) with the run's
 * types, scales, fast accumulation and epilogue, and its heuristic's first
 * algorithm; GK_ERROR_UNSUPPORTED where it has none. */
static gk_status prepare_lt(state *s)
{
    LT_TRY(cublasLtMatmulDescCreate(&s->lt_op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    const int8_t fast = (int8_t)s->fast;
    const float *scale_a = s->d_scales + 4, *scale_b = s->d_scales; /* its A is our B: sb; its B our A: sa */
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_a, sizeof scale_a));
    LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_b, sizeof scale_b));
    if (s->epilogue != GK_GEMM_EPILOGUE_NONE) {
        const cublasLtEpilogue_t epi = s->epilogue == GK_GEMM_EPILOGUE_BIAS_RELU   ? CUBLASLT_EPILOGUE_RELU_BIAS
                                       : s->epilogue == GK_GEMM_EPILOGUE_BIAS_GELU ? CUBLASLT_EPILOGUE_GELU_BIAS
                                                                                   : CUBLASLT_EPILOGUE_BIAS;
        /* The bias runs along cuBLASLt's rows of D (n of them): bias[j] for every row i of ours. */
        const void *bias = s->d_bias_lt != NULL ? s->d_bias_lt : s->d_bias; /* bf16 copy for an fp32 D */
        const int32_t bias_type = (int32_t)(s->out == GK_GEMM_TYPE_F32 ? CUDA_R_16BF : out_cuda_type(s->out));
        LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
        LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
        LT_TRY(cublasLtMatmulDescSetAttribute(s->lt_op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type,
                                              sizeof bias_type));
    }
    /* Its A: W's bytes, k x n column-major (ld k); its B: x's, k x m (ld k);
     * C = D: n x m (ld n). */
    LT_TRY(cublasLtMatrixLayoutCreate(&s->lt_a, fp8_cuda_type(s->type_b), s->k, s->n, (int64_t)s->k));
    LT_TRY(cublasLtMatrixLayoutCreate(&s->lt_b, fp8_cuda_type(s->type_a), s->k, s->m, (int64_t)s->k));
    LT_TRY(cublasLtMatrixLayoutCreate(&s->lt_d, out_cuda_type(s->out), s->n, s->m, (int64_t)s->n));
    cublasLtMatmulPreference_t pref = NULL;
    LT_TRY(cublasLtMatmulPreferenceCreate(&pref));
    uint64_t ws = LT_WORKSPACE_BYTES;
    cublasLtMatmulHeuristicResult_t result;
    int found = 0;
    cublasStatus_t cs =
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    if (cs == CUBLAS_STATUS_SUCCESS)
        cs = cublasLtMatmulAlgoGetHeuristic(s->lt, s->lt_op, s->lt_a, s->lt_b, s->lt_d, s->lt_d, pref, 1, &result,
                                            &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (cs == CUBLAS_STATUS_NOT_SUPPORTED || cs == CUBLAS_STATUS_INVALID_VALUE ||
        (cs == CUBLAS_STATUS_SUCCESS && found == 0))
        return GK_FAIL(GK_ERROR_UNSUPPORTED,
                       "cuBLASLt has no FP8 algorithm for this product (its FP8 kernels want leading dimensions "
                       "that are multiples of 16, and this GPU to have FP8 tensor cores)");
    if (cs != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, "cublasLtMatmulAlgoGetHeuristic failed");
    s->lt_algo = result.algo;
    return gk_success();
}

static gk_status run_lt(state *s, void *d, cudaStream_t stream)
{
    const float one = 1.0f, zero = 0.0f;
    LT_TRY(cublasLtMatmul(s->lt, s->lt_op, &one, s->d_w8, s->lt_a, s->d_x8, s->lt_b, &zero, d, s->lt_d, d, s->lt_d,
                          &s->lt_algo, s->lt_ws, LT_WORKSPACE_BYTES, stream));
    return gk_success();
}

/* The bias: n numbers c / 128, c in [-128, 127] and not 0, exact in bf16,
 * fp16 and fp32; uploaded in D's type (and in bf16 for cuBLASLt with an
 * fp32 D). */
static gk_status make_bias(state *s, uint64_t seed)
{
    const size_t n = s->n, e = out_bytes(s->out);
    s->bias = (double *)malloc(n * sizeof(double));
    int32_t *c = (int32_t *)malloc(n * sizeof(int32_t));
    unsigned char *h = (unsigned char *)malloc(n * 4);
    unsigned short *h16 = (unsigned short *)malloc(n * 2);
    gk_status st = gk_success();
    if (!s->bias || !c || !h || !h16) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    if (gk_ok(st)) {
        gk_fill_i32(c, n, seed, -128, 127); /* zeros redrawn */
        for (size_t j = 0; j < n; ++j) {
            const float v = (float)c[j] / 128.0f;
            s->bias[j] = v;
            h16[j] = gk_bf16_bits(v);
            if (s->out == GK_GEMM_TYPE_F32) memcpy(h + 4 * j, &v, 4);
            else {
                const unsigned short b = s->out == GK_GEMM_TYPE_BF16 ? h16[j] : gk_fp16_bits(v);
                memcpy(h + 2 * j, &b, 2);
            }
        }
        st = GK_CUDA_STATUS(cudaMalloc(&s->d_bias, n * e));
    }
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_bias, h, n * e, cudaMemcpyHostToDevice));
    if (gk_ok(st) && s->out == GK_GEMM_TYPE_F32) {
        st = GK_CUDA_STATUS(cudaMalloc(&s->d_bias_lt, n * 2));
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_bias_lt, h16, n * 2, cudaMemcpyHostToDevice));
    } /* else cuBLASLt reads ours (d_bias_lt stays NULL) */
    free(c);
    free(h);
    free(h16);
    return st;
}

/* n normal(0, 1) floats quantized to `type` on the GPU into *d8 (n bytes,
 * allocated here), read back and decoded into host[0..n). tmp: device
 * scratch of n floats. */
static gk_status make_operand(unsigned char **d8, float *host, float *tmp, size_t n, gk_gemm_type type,
                              uint64_t seed)
{
    unsigned char *bytes = (unsigned char *)malloc(n);
    if (bytes == NULL) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    fill_normal(host, n, seed);
    gk_status st = GK_CUDA_STATUS(cudaMemcpy(tmp, host, n * sizeof(float), cudaMemcpyHostToDevice));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)d8, n));
    if (gk_ok(st)) st = gk_gemm_fp8_quantize(type, tmp, n, 1.0f, *d8, NULL, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(bytes, *d8, n, cudaMemcpyDeviceToHost));
    if (gk_ok(st)) {
        float table[256];
        for (int b = 0; b < 256; ++b) table[b] = fp8_value((unsigned char)b, type);
        for (size_t i = 0; i < n; ++i) host[i] = table[bytes[i]];
    }
    free(bytes);
    return st;
}

/* A transposed device copy of the rows x cols bytes at d (through the host). */
static gk_status transposed_copy(unsigned char **out, const unsigned char *d, size_t rows, size_t cols)
{
    const size_t n = rows * cols;
    unsigned char *h = (unsigned char *)malloc(n), *t = (unsigned char *)malloc(n);
    gk_status st = h && t ? gk_success() : GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
    if (gk_ok(st)) transpose_bytes(t, h, rows, cols);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)out, n));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(*out, t, n, cudaMemcpyHostToDevice));
    free(h);
    free(t);
    return st;
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->m = shape->v[0], s->n = shape->v[1], s->k = shape->v[2];
    parse_params(s, params);
    const size_t m = s->m, n = s->n, k = s->k, mn = m * n, e = out_bytes(s->out);
    /* Host arrays: x and W as floats, D twice, and the norms. */
    if (m > ((size_t)1 << 40) / k || n > ((size_t)1 << 40) / k || m > ((size_t)1 << 40) / n)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "the matrices are too large for this machine");
    int dev = 0, major = 0, minor = 0;
    GK_CUDA_TRY(cudaGetDevice(&dev));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    s->cc = 10 * major + minor;
    s->xa = (float *)malloc(m * k * sizeof(float));
    s->wb = (float *)malloc(n * k * sizeof(float));
    s->rn = (double *)malloc(m * sizeof(double));
    s->cn = (double *)malloc(n * sizeof(double));
    s->h_ref = malloc(mn * e);
    s->h_d = malloc(mn * e);
    if (!s->xa || !s->wb || !s->rn || !s->cn || !s->h_ref || !s->h_d)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    /* The operands, quantized on the GPU, and their decoded values. */
    float *tmp = NULL;
    GK_CUDA_TRY(cudaMalloc((void **)&tmp, (m > n ? m : n) * k * sizeof(float)));
    gk_status st = make_operand(&s->d_x8, s->xa, tmp, m * k, s->type_a, params->seed);
    if (gk_ok(st)) st = make_operand(&s->d_w8, s->wb, tmp, n * k, s->type_b, params->seed + 1);
    cudaFree(tmp);
    GK_TRY(st);
    /* The stored operands of the layout: x as k x m for op_a = T, W as
     * k x n for op_b = N. */
    s->a = s->d_x8;
    s->b = s->d_w8;
    if (s->op_a == GK_GEMM_OP_T) {
        GK_TRY(transposed_copy(&s->d_at, s->d_x8, m, k));
        s->a = s->d_at;
    }
    if (s->op_b == GK_GEMM_OP_N) {
        GK_TRY(transposed_copy(&s->d_bt, s->d_w8, n, k));
        s->b = s->d_bt;
    }
    /* Row norms of x, column norms of op(B) = W^T (W's rows): check 2's M,
     * raised past their float64 sums' own error (at most (k + 2) u64 of the
     * sum of squares; the square root halves it). */
    const double up = 1.0 + (double)(k + 2) * U64;
    for (size_t i = 0; i < m; ++i) {
        double q = 0.0;
        for (size_t p = 0; p < k; ++p) q += (double)s->xa[i * k + p] * s->xa[i * k + p];
        s->rn[i] = sqrt(q) * up;
    }
    for (size_t j = 0; j < n; ++j) {
        double q = 0.0;
        for (size_t p = 0; p < k; ++p) q += (double)s->wb[j * k + p] * s->wb[j * k + p];
        s->cn[j] = sqrt(q) * up;
    }
    /* sa at 0, sb 16 bytes on: cuBLASLt refuses (CUBLAS_STATUS_NOT_SUPPORTED
     * at the call) a scale pointer off a 16-byte boundary. */
    float one[8] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f};
    GK_CUDA_TRY(cudaMalloc((void **)&s->d_scales, sizeof one));
    GK_CUDA_TRY(cudaMemcpy(s->d_scales, one, sizeof one, cudaMemcpyHostToDevice));
    if (s->epilogue != GK_GEMM_EPILOGUE_NONE) GK_TRY(make_bias(s, params->seed + 2));
    GK_CUDA_TRY(cudaMalloc(&s->d_d, mn * e));
    GK_CUDA_TRY(cudaMalloc(&s->d_ref, mn * e));
    /* cuBLASLt's D on the K-major bytes, once (untimed), for check 2 and the
     * reference row. */
    if (cublasLtCreate(&s->lt) != CUBLAS_STATUS_SUCCESS) return GK_FAIL(GK_ERROR_CUDA, "cublasLtCreate failed");
    GK_CUDA_TRY(cudaMalloc(&s->lt_ws, LT_WORKSPACE_BYTES));
    st = prepare_lt(s);
    if (st.code == GK_ERROR_UNSUPPORTED) {
        s->lt_ok = 0;
        s->lt_why = st.what;
    } else {
        GK_TRY(st);
        GK_CUDA_TRY(cudaMemset(s->d_ref, 0xff, mn * e)); /* NaN in every type */
        GK_TRY(run_lt(s, s->d_ref, 0));
        GK_CUDA_TRY(cudaMemcpy(s->h_ref, s->d_ref, mn * e, cudaMemcpyDeviceToHost));
        s->lt_ok = 1;
    }
    /* Check 1's elements: the corners, the middle, then seeded random ones. */
    const size_t fixed[5][2] = {{0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}, {m / 2, n / 2}};
    gk_rng r;
    gk_rng_seed(&r, params->seed + 3);
    s->num_samples = mn < S_SAMPLES ? mn : S_SAMPLES;
    for (size_t t = 0; t < s->num_samples; ++t) {
        if (t < 5) {
            s->si[t] = fixed[t][0];
            s->sj[t] = fixed[t][1];
        } else {
            s->si[t] = (size_t)(gk_rng_next(&r) % m);
            s->sj[t] = (size_t)(gk_rng_next(&r) % n);
        }
        sample(s, t);
    }
    return gk_success();
}

static const char *describe(void *p) { return ((state *)p)->describe; }

/* cuBLASLt's row only where it takes the layout (nt: y = x W^T). */
static int applies(void *p, const gk_bench_case *c)
{
    const state *s = (const state *)p;
    return c->role == GK_ROLE_VARIANT || is_nt(s);
}

/* Other layouts: ours alone, no ratio. */
static void in_run(void *p, gk_bench_case *c)
{
    const state *s = (const state *)p;
    if (c->role == GK_ROLE_VARIANT && !is_nt(s)) c->reference = NULL;
}

static gk_gemm_desc make_desc(const state *s, size_t m, size_t n, size_t k)
{
    gk_gemm_desc d = gk_gemm_desc_init(s->out, m, n, k);
    d.type_a = s->type_a;
    d.type_b = s->type_b;
    d.op_a = s->op_a;
    d.op_b = s->op_b;
    d.scale_a = s->d_scales;
    d.scale_b = s->d_scales + 4;
    d.epilogue = s->epilogue;
    d.bias = s->epilogue != GK_GEMM_EPILOGUE_NONE ? s->d_bias : NULL;
    d.fast_accum = s->fast;
    return d;
}

static gk_status prepare_variant(state *s)
{
    int id = s->cur.id;
    s->desc = make_desc(s, s->m, s->n, s->k);
    if (id == GK_GEMM_AUTO) GK_TRY(gk_gemm_auto_variant(&s->desc, &id, NULL));
    const gk_gemm_variant *v = gk_gemm_find_variant(id);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such gemm variant");
    if (v->min_cc > s->cc) return GK_FAIL(GK_ERROR_UNSUPPORTED, "needs a newer GPU (variant->min_cc)");
    /* The workspace query with the call's pointers (the FP8 variant's size
     * depends on where a and b start), for the product and for a 1 x 1 x 1
     * trial of the same description: GK_ERROR_UNSUPPORTED where the variant
     * does not take it. */
    const gk_gemm_desc tiny = make_desc(s, 1, 1, 1);
    size_t need = 0, need_tiny = 0;
    GK_TRY(gk_gemm_ex(s->cur.id, &s->desc, s->a, s->b, s->d_d, NULL, &need, 0));
    GK_TRY(gk_gemm_ex(s->cur.id, &tiny, s->a, s->b, s->d_d, NULL, &need_tiny, 0));
    GK_TRY(gk_bench_poisoned_workspace(&s->ws, &s->ws_bytes, need > need_tiny ? need : need_tiny, 0x5a));
    /* The trial call: GK_ERROR_UNSUPPORTED where the build or the GPU cannot
     * run the variant (wgmma: cc 9.0, built for sm_90a). */
    size_t ws_bytes = s->ws_bytes;
    GK_TRY(gk_gemm_ex(s->cur.id, &tiny, s->a, s->b, s->d_d, s->ws, &ws_bytes, 0));
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->cur = *c;
    if (c->role == GK_ROLE_VARIANT) {
        GK_TRY(prepare_variant(s));
    } else if (!s->lt_ok) {
        return GK_FAIL(GK_ERROR_UNSUPPORTED, s->lt_why);
    }
    /* Poison D with NaN (0xff bytes: NaN in fp32, bf16 and fp16): beta = 0,
     * so every element must be written. */
    GK_CUDA_TRY(cudaMemset(s->d_d, 0xff, s->m * s->n * out_bytes(s->out)));
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->cur.role == GK_ROLE_VARIANT)
        return gk_gemm_ex(s->cur.id, &s->desc, s->a, s->b, s->d_d, s->ws, &s->ws_bytes, stream);
    return run_lt(s, s->d_d, stream);
}

/* Check 1: the samples against the exact value. */
static size_t check_samples(const state *s, FILE *log, int is_lt)
{
    size_t bad = 0;
    for (size_t t = 0; t < s->num_samples; ++t) {
        const size_t i = s->si[t], j = s->sj[t];
        const double got = out_value(s->h_d, i * s->n + j, s->out), ref = s->s_ref[t];
        const double tol = is_lt ? s->s_tol_lt[t] : s->s_tol_ours[t];
        if (isfinite(got) && fabs(got - ref) <= tol) continue;
        if (log != NULL && bad < MAX_PRINTED)
            fprintf(log, "  %s: D[%zu][%zu] = %.9g, exact %.9g, |diff| %.3g > tol %.3g\n", s->cur.name, i, j, got,
                    ref, fabs(got - ref), tol);
        ++bad;
    }
    if (bad != 0 && log != NULL)
        fprintf(log, "  %s: %zu of %zu sampled elements differ from the exact value beyond the model's bound%s\n",
                s->cur.name, bad, s->num_samples,
                is_lt ? " (cuBLASLt's accumulation is not what the model assumes: see bench_gemm_fp8.c)" : "");
    return bad;
}

/* Check 2: every element of ours against cuBLASLt's D. */
static size_t check_full(const state *s, FILE *log)
{
    const double g = full_factor(s), uo = u_out(s->out), so = sub_out(s->out);
    const int bias = s->epilogue != GK_GEMM_EPILOGUE_NONE;
    size_t bad = 0;
    for (size_t i = 0; i < s->m; ++i)
        for (size_t j = 0; j < s->n; ++j) {
            const size_t at = i * s->n + j;
            const double got = out_value(s->h_d, at, s->out), lt = out_value(s->h_ref, at, s->out);
            const double M = s->rn[i] * s->cn[j], t = g * M, x = M + t + (bias ? fabs(s->bias[j]) : 0.0);
            const double tol = epilogue_error(s->epilogue, t, x, x, GK_GELU_REL_ERROR) +
                               epilogue_error(s->epilogue, t, x, x, GELU_REL_LT) +
                               2.0 * uo * (fabs(got) + fabs(lt)) + 2.0 * so;
            if (isfinite(got) && isfinite(lt) && fabs(got - lt) <= tol) continue;
            if (log != NULL && bad < MAX_PRINTED)
                fprintf(log, "  %s: D[%zu][%zu] = %.9g, cuBLASLt %.9g, |diff| %.3g > tol %.3g\n", s->cur.name, i,
                        j, got, lt, fabs(got - lt), tol);
            ++bad;
        }
    if (bad != 0 && log != NULL)
        fprintf(log, "  %s: %zu of %zu elements differ from cuBLASLt's D beyond the tolerance\n", s->cur.name, bad,
                s->m * s->n);
    return bad;
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    GK_CUDA_TRY(cudaMemcpy(s->h_d, s->d_d, s->m * s->n * out_bytes(s->out), cudaMemcpyDeviceToHost));
    const int is_lt = s->cur.role != GK_ROLE_VARIANT;
    const size_t bad1 = check_samples(s, log, is_lt);
    size_t bad2 = 0;
    if (!is_lt && s->lt_ok) bad2 = check_full(s, log);
    else if (!is_lt && log != NULL)
        fprintf(log, "  %s: checked on %zu sampled elements only (no cuBLASLt D: %s)\n", s->cur.name,
                s->num_samples, s->lt_why);
    if (bad1 != 0)
        return GK_FAIL(GK_ERROR_VERIFY_FAILED, "sampled elements of D differ from the exact value beyond the bound");
    if (bad2 != 0) return GK_FAIL(GK_ERROR_VERIFY_FAILED, "D does not match cuBLASLt's D within the tolerance");
    return gk_success();
}

static gk_bench_work work(void *p)
{
    const state *s = (const state *)p;
    const double m = (double)s->m, n = (double)s->n, k = (double)s->k, e = (double)out_bytes(s->out);
    const double bias = s->epilogue != GK_GEMM_EPILOGUE_NONE ? e * n : 0.0;
    gk_bench_work w = {m * k + n * k + bias, e * m * n, 2.0 * m * n * k};
    return w;
}

const gk_bench_module gk_gemm_fp8_bench_module = {
    "gemm_fp8", "m x n x k", "one size for a square product (4096, 2^12) or m x n x k (4097x3001x2049)",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "tflops", params, sizeof params / sizeof params[0],
    gk_gemm_bench_parse_size, gk_gemm_bench_format_size, num_cases, case_at, setup, NULL, prepare, run, verify, work,
    describe, teardown,
    GK_PEAK_NONE, applies, in_run, .state_size = sizeof(state),
};
