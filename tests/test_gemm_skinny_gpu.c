/* GPU tests of the gemm module's skinny rung: gk_gemm_ex and gk_gemm_bf16
 * with variant 19 (gk/gemm.h, "Skinny products": a few rows of op(A)
 * against a large op(B), the weight), and GK_GEMM_AUTO, which picks it for
 * BF16 and F16 when n k >= GK_GEMM_SKINNY_MIN_NK and m <=
 * GK_GEMM_SKINNY_MAX_M (weight stored n x k, op_b = T) or
 * GK_GEMM_SKINNY_MAX_M_KN (stored k x n, op_b = N), and for a small C with
 * a long k (m n <= GK_GEMM_LONGK_MAX_MN, k >= GK_GEMM_LONGK_MIN_K) that
 * none of variants 17, 21 and 23 can split.
 *
 * First, on the CPU (no GPU needed, so these run before the GPU is looked
 * for): variant 19's row of the table (its name, types, extended, min_cc);
 * gk_gemm_auto_variant at the edges of the skinny region, for both weight
 * layouts (m at the layout's edge picks 19, one more row 23 or 21; n k =
 * GK_GEMM_SKINNY_MIN_NK picks 19, one less 20 or 21, at balanced and extreme
 * aspect ratios; the layout, batch, leading dimensions and epilogue
 * changing nothing there; F32 never 19, FP8 inputs 18; the long-k region
 * 19 only where none of 17, 21 and 23 can split k); the workspace
 * query (at least one granule, GK_GEMM_AUTO's equal to variant 19's); and
 * the descriptions variant 19 refuses (F32 storage, FP8 inputs, compute
 * TF32: with the status gk/gemm.h gives and nothing written).
 *
 * Then the products, each one case of: a 16-bit type (BF16, F16); a layout
 * (op_a and op_b N or T: B stored k x n, or n x k as a linear layer's
 * weight); an epilogue (none, bias, bias + ReLU, bias + GELU); a batch (1;
 * 3 with gaps between the products; 3 with stride_a = 0; 3 with stride_b =
 * 0, one weight for every product; 3 with C interleaved, ldc = 3 n + pad
 * and stride_c = n); and a calling configuration (cfgs: alpha and beta,
 * beta = 0 over a C full of NaN; leading dimensions dense and given as 0,
 * odd and longer than the rows, or 16-byte rows padded by 16 bytes; a, b,
 * C and the bias at 16-byte boundaries or 1 to 7 elements past them,
 * in different combinations, so that the weight's 16-byte loads and the
 * element loads both run; batch gaps of 16-byte multiples or odd). The
 * shapes: every m of {1, 2, 17, 31, 33, 64, 65, 255} with every (n, k) of
 * {1, 7, 129, 1000, 4100} x {1, 7, 33, 1000, 4099}, the options turning
 * with them (layout = case mod 4, epilogue = case / 4 mod 4, batch = case
 * mod 5, configuration = case / 5 mod 7, the type alternating so that
 * each layout and epilogue meets both), those whose CPU reference would
 * exceed CASE_WORK_CAP multiply-adds left out or run with one product;
 * then one case each of: k = 65537 with small n (inputs of one sign as
 * well: every rounding error adds up), k = 0 (C = epi(beta C + bias), a
 * and b NULL), the largest shapes the loop left out (64 x 1000 x 4099, 65
 * x 4100 x 1000, 255 x 1000 x 1000), m at 8, 9, 16 and 32 (the row groups
 * a skinny kernel tiles op(A) by) and n at 255, 256 and 257 (its column
 * blocks) with k up to 20000, GK_GEMM_AUTO on shapes of the skinny
 * region (gk_gemm_auto_variant must say 19; then the same bits from
 * variant 19 named), gk_gemm_bf16(19, ...) (the plain description; then
 * the same bits from gk_gemm_ex), and the determinism case: 16 x 4096 x
 * 8192 with the weight stored n x k, called three times, the third on a
 * second stream: the same bits (as a batch of 3 F16 products sharing one
 * weight, too). m = 65 and 255 lie outside the region GK_GEMM_AUTO gives
 * variant 19; they are tested through the id (gk/gemm.h: correct for any
 * m).
 *
 * What is checked, each case: inputs are fresh random numbers (uniform in
 * [-1, 1), or [0, 1), rounded to the type, a new seed every run, printed
 * for --seed); every element of every C against the float64 reference
 * (gk_gemm_ref_ex) within gk_gemm_tolerance_ex's bound (gemm_ref.h
 * derives it: exact products of 16-bit numbers, fp32 sums in any order
 * (Higham and Mary's probabilistic bound, lambda = 10), alpha, beta and
 * the bias in fp32, GELU's Lipschitz constant and relative error, the one
 * rounding to BF16 (2^-8) or F16 (2^-11, plus half its subnormal
 * spacing)), through gk_gemm_check16, NaN and Inf failing; every element
 * of C's buffer outside the C matrices (64 guards each side, row padding,
 * the gaps between products) keeping its NaN bits; A, B and the bias
 * poisoned the same way around their matrices (a kernel that adds a
 * padding or guard element makes NaN); the bytes after the workspace the
 * query asked for kept.
 *
 * The calls that must fail (GPU part, with real buffers): a workspace one
 * byte short and an empty one (GK_ERROR_WORKSPACE_TOO_SMALL), a workspace
 * off 16 bytes, a pointer off its 2-byte element, ldb too small
 * (GK_ERROR_INVALID_ARGUMENT), a NULL bias with a bias epilogue
 * (GK_ERROR_NULL_POINTER), F32 storage through gk_gemm_ex and gk_gemm and
 * FP8 inputs (GK_ERROR_UNSUPPORTED); then m = 0 and n = 0 (success): C and
 * the workspace as they were.
 *
 *   test_gemm_skinny_gpu [--variant 19] [--small] [--seed S]
 *
 * --variant 19: the skinny rung, the only one (the same run as without
 * it: GK_GEMM_AUTO's cases lie in the rung's region). --small: a reduced
 * set covering each path (the loop over m <= 65, n <= 129, k <= 1000; the
 * special cases smaller; k = 0 and 65537 kept: 75 cases, 83 calls, 8.7e7
 * multiply-adds of reference): what scripts/sanitize.sh runs under
 * compute-sanitizer. The full set (209 cases, 219 calls) computes 3.3e9
 * multiply-adds of float64 reference on the CPU, at most 5.4e8 in one case
 * (printed at the end, with the CPU time they took). Exit 77 (a CTest
 * skip) when no GPU is visible or variant 19 cannot run here (it needs a
 * compute capability 9.0 GPU and a library built for sm_90a, and answers
 * GK_ERROR_UNSUPPORTED elsewhere, which is checked), once the CPU checks
 * have passed; 1 when any check fails.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "gemm_ref.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/gemm.h"
#include "gk/random.h"
#include "gk/verify.h"
#include "gpu_test.h"
#include "test_util.h"

enum { SKINNY_ID = 19 }; /* gk/gemm.h: "Skinny products: variant 19" */

static const gk_gemm_type F32 = GK_GEMM_TYPE_F32, BF16 = GK_GEMM_TYPE_BF16, F16 = GK_GEMM_TYPE_F16;

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

/* ---- CPU: the table's row, GK_GEMM_AUTO's picks, the queries ----------------------- */

/* The largest divisor of x at most sqrt(x): x = f * (x / f), as square as x allows. */
static size_t square_factor(size_t x)
{
    size_t f = 1;
    for (size_t d = 1; d * d <= x; ++d)
        if (x % d == 0) f = d;
    return f;
}

/* gk_gemm_auto_variant's pick (-1 on a failing status) and its slices. */
static int auto_of(const gk_gemm_desc *d, size_t *splits)
{
    int id = -1;
    size_t s = 0;
    const gk_status st = gk_gemm_auto_variant(d, &id, &s);
    if (splits) *splits = s;
    return gk_ok(st) ? id : -1;
}

/* CHECK that GK_GEMM_AUTO picks `want` for an m x n x k product of type t
 * as stored, dense, one product, cut into `splits` slices (gk/gemm.h:
 * variants 17 and 23 split k for few tiles and a long enough k, rows the
 * TMA can address, one product; variant 21 for few tiles and k >= 1024, one
 * product), and `want_other` for the same product
 * transposed, batched with a broadcast weight, padded (odd leading
 * dimensions) and with an epilogue, never split: the skinny region reads
 * the type, m, n and k only, the long-k one also whether 17, 21 or 23 may split. */
static void expect_pick(gk_gemm_type t, gk_gemm_op op_b, size_t m, size_t n, size_t k, int want, size_t want_splits,
                        int want_other)
{
    gk_gemm_desc d = gk_gemm_desc_init(t, m, n, k);
    d.op_b = op_b;
    size_t splits = 0;
    int id = auto_of(&d, &splits);
    CHECK(id == want && splits == want_splits,
          "GK_GEMM_AUTO, %s %zu x %zu x %zu op_b %d: variant %d, %zu slices (want %d, %zu)", gk_gemm_type_name(t), m,
          n, k, (int)op_b, id, splits, want, want_splits);
    d.op_a = GK_GEMM_OP_T;
    const size_t wdim = op_b == GK_GEMM_OP_T ? k : n; /* the weight's dense leading dimension */
    d.lda = m + 3, d.ldb = wdim + 5, d.ldc = n + 1;
    d.batch = 3, d.stride_a = k * (m + 3) + 7, d.stride_b = 0, d.stride_c = m * (n + 1) + 3;
    d.epilogue = GK_GEMM_EPILOGUE_BIAS_GELU, d.bias = (const void *)256; /* not read: nothing runs */
    d.alpha = 0.5f, d.beta = -1.0f;
    id = auto_of(&d, &splits);
    /* The skinny region also reads whether the weight's rows are whole
     * 16-byte units: with ldb = wdim + 5 it does not pick 19 unless ldb is
     * a multiple of 8; with ldb rounded up to one, it does. (The long-k
     * region, which a batch sends to 19 on any rows, is left as it is.) */
    const size_t max_m = op_b == GK_GEMM_OP_T ? GK_GEMM_SKINNY_MAX_M : GK_GEMM_SKINNY_MAX_M_KN;
    const int skinny_shape = m <= max_m && n * k >= GK_GEMM_SKINNY_MIN_NK;
    const int longk = m * n <= GK_GEMM_LONGK_MAX_MN && k >= GK_GEMM_LONGK_MIN_K;
    if (skinny_shape && !longk && want_other == SKINNY_ID) {
        CHECK(id >= 0 && (d.ldb % 8 == 0) == (id == SKINNY_ID),
              "GK_GEMM_AUTO, %s %zu x %zu x %zu op_a T, op_b %d, batch 3 with stride_b 0, ldb %zu, bias_gelu: "
              "variant %d",
              gk_gemm_type_name(t), m, n, k, (int)op_b, (size_t)d.ldb, id);
        d.ldb = (wdim + 5 + 7) / 8 * 8;
        id = auto_of(&d, &splits);
    }
    CHECK(id == want_other && splits == 1,
          "GK_GEMM_AUTO, %s %zu x %zu x %zu op_a T, op_b %d, batch 3 with stride_b 0, ldb %zu, odd lda ldc, "
          "bias_gelu: variant %d, %zu slices (want %d, 1)",
          gk_gemm_type_name(t), m, n, k, (int)op_b, (size_t)d.ldb, id, splits, want_other);
}

static void test_cpu(void)
{
    size_t bytes = 0;
    /* The row. */
    const gk_gemm_variant *v = gk_gemm_find_variant(SKINNY_ID);
    CHECK(v != NULL, "variant %d is a row of the table", SKINNY_ID);
    if (v == NULL) return; /* gk_gemm_auto_variant would pick a row that is not there */
    CHECK(strcmp(v->name, "weight_stream") == 0, "variant 19's name: %s (kernels/skinny_01_weight_stream.cu)",
          v->name);
    CHECK(v->types == (GK_GEMM_TYPE_BIT(BF16) | GK_GEMM_TYPE_BIT(F16)), "variant 19 stores BF16 and F16 (types %#x)",
          v->types);
    CHECK(v->extended == 1, "variant 19 is extended");
    CHECK(v->precision == GK_GEMM_BF16, "variant 19's precision: %s", gk_gemm_precision_name(v->precision));
    CHECK(v->min_cc == 90, "variant 19 needs compute capability 9.0 (clusters): min_cc %d", v->min_cc);
    CHECK(gk_gemm_bf16_find_variant(SKINNY_ID) == v, "gk_gemm_bf16 takes variant 19");

    /* GK_GEMM_AUTO at the region's edges, for both 16-bit types and both
     * weight layouts (m up to GK_GEMM_SKINNY_MAX_M with the weight stored
     * n x k, op_b = T; GK_GEMM_SKINNY_MAX_M_KN stored k x n, op_b = N). */
    const size_t NK = GK_GEMM_SKINNY_MIN_NK;
    const size_t f0 = square_factor(NK), f1 = square_factor(NK - 1);
    printf("the skinny region: m <= %zu (op_b T) or %zu (op_b N), n k >= %zu (%zu x %zu; one less: %zu x %zu)\n",
           (size_t)GK_GEMM_SKINNY_MAX_M, (size_t)GK_GEMM_SKINNY_MAX_M_KN, NK, f0, NK / f0, f1, (NK - 1) / f1);
    CHECK(GK_GEMM_SKINNY_MAX_M_KN <= GK_GEMM_SKINNY_MAX_M, "the k x n edge is inside the n x k one");
    for (int ti = 0; ti < 2; ++ti)
        for (int oi = 0; oi < 2; ++oi) {
            const gk_gemm_type t = ti ? F16 : BF16;
            const gk_gemm_op ob = oi ? GK_GEMM_OP_T : GK_GEMM_OP_N;
            const size_t MM = oi ? GK_GEMM_SKINNY_MAX_M : GK_GEMM_SKINNY_MAX_M_KN;
            const int S = SKINNY_ID;
            expect_pick(t, ob, MM, f0, NK / f0, S, 1, S); /* both edges at once */
            /* One row more: mid-size, variant 23 on rows of 16 bytes (lda = ldb = 1024; k = 1024 below
             * GK_GEMM_SPLIT23_MIN_K: no split); on padded copies of the odd rows (lda m + 3 = 20 or
             * 36, a batch: 21 does not split; 2^25.6 multiply-adds or more, k = 1024). */
            expect_pick(t, ob, MM + 1, f0, NK / f0, 23, 1, 23);
            /* n k one less: tiny (variant 20: at most 2^13 outputs, 2^22 multiply-adds), or 21 (lda 1025,
             * odd rows: 16 tiles of 64 x 64, S = min(33, 1025 / GK_GEMM_SPLIT21_GATHER_MIN_KC = 16) = 16,
             * kc = 65 -> 128, S = 9); batched with odd rows (3 x 16 x 1023 x 1025 or more: above 2^21,
             * k >= 160), 23 on padded copies. */
            expect_pick(t, ob, 1, f1, (NK - 1) / f1, 20, 1, 20);
            expect_pick(t, ob, MM, f1, (NK - 1) / f1, 21, 9, 23);
            expect_pick(t, ob, 1, f0, NK / f0, S, 1, S);
            /* Extreme aspect ratios: the weight's rows are 2 bytes when it
             * is stored k x n with n = 1 (21 splits k: one tile, 528
             * slices of 1986 -> 2048, 512) or n x k with k = 1 (21). */
            expect_pick(t, ob, 1, 1, NK, oi ? S : 21, oi ? 1 : 512, S);
            expect_pick(t, ob, 1, NK, 1, oi ? 21 : S, 1, S);
            /* Below both regions: tiny (variant 20). */
            expect_pick(t, ob, 1, 1, GK_GEMM_LONGK_MIN_K - 1, 20, 1, 20);
            /* A small C with a long k: 21 splits it (lda 2^20 - 1: odd rows; 528 / 1 tile, kc = 1986 ->
             * 2048: 512 slices);
             * a batch (no split): 19. k = 1 with 2^20 - 1 outputs: 21 (odd rows, k below 160 and below 2^29
             * multiply-adds: no padded copies). */
            expect_pick(t, ob, 1, 1, NK - 1, 21, 512, S);
            expect_pick(t, ob, 1, NK - 1, 1, 21, 1, 21);
            expect_pick(t, ob, 16, 8192, 8192, S, 1, S); /* the bench's skinny shapes */
            expect_pick(t, ob, MM, 8192, 8192, S, 1, S);
            /* 128 and 256 rows (2^33, 2^34): 23 unsplit, one wave (1 x 128 tiles of 128 x 64; 2 x 64 of
             * 128 x 128). 512 rows, past GK_GEMM_WGMMA_WAVE_MAX_M: 17, unsplit (2 x 32 = 64 pairs of its
             * 128 x 256 tiles, more than the 32 it splits). Batched with odd rows: 17. */
            expect_pick(t, ob, 128, 8192, 8192, 23, 1, 17);
            expect_pick(t, ob, 256, 8192, 8192, 23, 1, 17);
            expect_pick(t, ob, 512, 8192, 8192, 17, 1, 17);
            /* n k just past the edge; stored k x n, ldb 4100 is not a
             * multiple of 8: 23 on padded copies (k = 256 < 1024: 21 does
             * not split; 2^24 multiply-adds). */
            expect_pick(t, ob, 16, 4100, (NK + 4099) / 4100, oi ? S : 23, 1, S);
            /* The long-k region: m n <= GK_GEMM_LONGK_MAX_MN, k >= GK_GEMM_LONGK_MIN_K:
             * 23 split where it can be (rows of 16-byte units, 2^31 multiply-adds: 4 x 8 = 32 tiles
             * of 128 x 64, S = min(132 / 32 = 4, 8192 / 512 = 16) = 4, kc = 2048), 21 split or
             * unsplit in the mid region, 19 for a batch. */
            expect_pick(t, ob, 512, 512, GK_GEMM_LONGK_MIN_K, 23, 4, S);
            /* 512 x 513: m n > 2^18. Where B's rows (k = 8192 for op_b T) allow it, 23 past 2^30
             * because it splits: 4 x 9 = 36 tiles, S = min(3, 16) = 3, kc = 2731 -> 2752, S = 3;
             * n = 513 (op_b N): odd rows, 21 with 8 x 9 tiles: S = min(7, 128) = 7, kc = 1171 -> 1216,
             * S = 7. Batched: 23 on padded copies (odd rows, 2^32.6, below 2^33; no split). */
            expect_pick(t, ob, 512, 513, GK_GEMM_LONGK_MIN_K, oi ? 23 : 21, oi ? 3 : 7, 23);
            /* lda 8191: odd rows, 21 (64 tiles: S = min(8, 127) = 8); batched, 23 on copies. */
            expect_pick(t, ob, 512, 512, GK_GEMM_LONGK_MIN_K - 1, 21, 8, 23);
            /* 23: 2 x 4 = 8 tiles, S = min(16, 128) = 16, kc = 4096. */
            expect_pick(t, ob, 256, 256, 65536, 23, 16, S);
        }
    /* F32 storage never 19: the F32 rows of the table (22 in fp32 and 21
     * on TF32 up to their mid-size edges: 4 x 8192 x 8192 is 2^28
     * multiply-adds, 16 x 8192 x 8192 2^30), 20 for tiny products (1 x
     * 1024 x 1024: 2^20 multiply-adds, where 22 would split k); FP8
     * inputs: 18. */
    gk_gemm_desc d = gk_gemm_desc_init(F32, 1, 1024, 1024);
    int id = auto_of(&d, NULL);
    CHECK(id == 20, "GK_GEMM_AUTO, f32 1 x 1024 x 1024: %d (want 20, never 19)", id);
    d = gk_gemm_desc_init(F32, 4, 8192, 8192);
    id = auto_of(&d, NULL);
    CHECK(id == 22, "GK_GEMM_AUTO, f32 4 x 8192 x 8192: %d (want 22, never 19)", id);
    d.op_b = GK_GEMM_OP_T;
    id = auto_of(&d, NULL);
    CHECK(id == 22, "GK_GEMM_AUTO, f32 4 x 8192 x 8192 nt: %d (want 22, never 19)", id);
    d.compute = GK_GEMM_COMPUTE_TF32;
    id = auto_of(&d, NULL);
    CHECK(id == 21, "GK_GEMM_AUTO, f32 TF32 4 x 8192 x 8192 nt: %d (want 21, never 19)", id);
    d = gk_gemm_desc_init(F32, 16, 8192, 8192);
    d.op_b = GK_GEMM_OP_T;
    id = auto_of(&d, NULL);
    CHECK(id != SKINNY_ID && id == 22, "GK_GEMM_AUTO, f32 16 x 8192 x 8192 nt: %d (want 22, never 19)", id);
    d = gk_gemm_desc_init(BF16, 1, 1024, 1024);
    d.type_a = d.type_b = GK_GEMM_TYPE_E4M3, d.op_b = GK_GEMM_OP_T;
    id = auto_of(&d, NULL);
    CHECK(id == 18, "GK_GEMM_AUTO, e4m3 inputs, bf16 C, 1 x 1024 x 1024: %d (want 18)", id);

    /* The workspace query: whole granules, at least one (gk/gemm.h: one),
     * GK_GEMM_AUTO's the same as 19's for a description it gives to 19. */
    d = gk_gemm_desc_init(BF16, 16, 4096, 8192);
    d.op_b = GK_GEMM_OP_T;
    EXPECT(gk_gemm_ex(SKINNY_ID, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
    CHECK(bytes >= 256 && bytes % 256 == 0, "variant 19's query: %zu bytes (whole granules, at least one)", bytes);
    size_t auto_bytes = 0;
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &d, NULL, NULL, NULL, NULL, &auto_bytes, 0), GK_SUCCESS);
    CHECK(auto_bytes == bytes, "GK_GEMM_AUTO's query %zu bytes, variant 19's %zu", auto_bytes, bytes);
    d = gk_gemm_desc_init(F16, 3, 129, 4099);
    d.op_a = GK_GEMM_OP_T, d.batch = 3, d.stride_a = 5000, d.stride_b = 0, d.stride_c = 3 * 129 + 1;
    d.epilogue = GK_GEMM_EPILOGUE_BIAS, d.bias = (const void *)256;
    EXPECT(gk_gemm_ex(SKINNY_ID, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
    CHECK(bytes >= 256 && bytes % 256 == 0, "variant 19's query, f16 tn batch 3: %zu bytes", bytes);

    /* What variant 19 does not take, refused before anything is written. */
    d = gk_gemm_desc_init(F32, 16, 4096, 8192);
    REJECT(gk_gemm_ex(SKINNY_ID, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    d.compute = GK_GEMM_COMPUTE_TF32;
    REJECT(gk_gemm_ex(SKINNY_ID, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    d = gk_gemm_desc_init(BF16, 16, 4096, 8192);
    d.type_a = d.type_b = GK_GEMM_TYPE_E4M3, d.op_b = GK_GEMM_OP_T;
    REJECT(gk_gemm_ex(SKINNY_ID, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    d.type = F16; /* e4m3 x e4m3 with an F16 C */
    REJECT(gk_gemm_ex(SKINNY_ID, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    d = gk_gemm_desc_init(BF16, 16, 4096, 8192);
    d.compute = GK_GEMM_COMPUTE_TF32;
    REJECT(gk_gemm_ex(SKINNY_ID, &d, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    /* gk_gemm (fp32 storage) refuses the 16-bit id before it looks at a pointer. */
    EXPECT(gk_gemm(SKINNY_ID, 4, 4, 4, 1.0f, NULL, 4, NULL, 4, 0.0f, NULL, 4, 0), GK_ERROR_UNSUPPORTED);
    printf("CPU checks (table row, GK_GEMM_AUTO's picks, queries, refusals): done\n");
}

/* ---- Buffers ------------------------------------------------------------------------ */

enum { GUARD = 64 }; /* elements poisoned before and after each buffer */
static const unsigned short POISON_BF16 = 0x7fad, POISON_F16 = 0x7dad; /* a NaN of each type */

static unsigned short bits16(gk_gemm_type t, float x)
{
    if (isnan(x)) return t == BF16 ? POISON_BF16 : POISON_F16;
    return t == BF16 ? gk_bf16_bits(x) : gk_fp16_bits(x);
}

/* One operand as it lies in memory: GUARD elements, `offset` more, then
 * `count` matrices of rows x cols (leading dimension ld) `stride` apart,
 * then GUARD. h: the values (NaN outside the matrices), in: 1 on the
 * matrices' elements, raw: the bits uploaded, d: the device copy; start:
 * the first element of product 0. */
typedef struct buf {
    gk_gemm_type t;
    size_t total, start, count, stride;
    float *h;
    unsigned char *in;
    unsigned short *raw;
    void *d;
} buf;

/* fill: 0 uniform in [-1, 1), 1 in [0, 1), rounded to t; 2 NaN (a C that
 * beta = 0 must not read). */
static void buf_make(buf *b, gk_gemm_type t, size_t rows, size_t cols, size_t ld, size_t count, size_t stride,
                     size_t offset, uint64_t seed, int fill)
{
    b->t = t, b->count = count, b->stride = stride;
    const size_t span = rows && cols ? (count - 1) * stride + (rows - 1) * ld + cols : 0;
    b->start = GUARD + offset;
    b->total = 2 * GUARD + offset + span;
    b->h = (float *)gk_test_xmalloc(b->total * sizeof(float));
    b->in = (unsigned char *)gk_test_xmalloc(b->total);
    memset(b->in, 0, b->total);
    for (size_t i = 0; i < b->total; ++i) b->h[i] = NAN;
    const size_t nv = count * rows * cols;
    float *v = (float *)gk_test_xmalloc(nv * sizeof(float));
    if (fill != 2) {
        gk_fill_f32(v, nv, seed, fill == 1 ? 0.0f : -1.0f, 1.0f);
        if (t == BF16) gk_round_to_bf16(v, nv);
        else gk_round_to_fp16(v, nv);
    }
    for (size_t z = 0; z < count; ++z)
        for (size_t r = 0; r < rows; ++r)
            for (size_t c = 0; c < cols; ++c) {
                const size_t at = b->start + z * stride + r * ld + c;
                b->h[at] = fill == 2 ? NAN : v[(z * rows + r) * cols + c];
                b->in[at] = 1;
            }
    free(v);
    b->raw = (unsigned short *)gk_test_xmalloc(b->total * sizeof(unsigned short));
    for (size_t i = 0; i < b->total; ++i) b->raw[i] = bits16(t, b->h[i]);
    TRY_CUDA(cudaMalloc(&b->d, b->total * sizeof(unsigned short)));
    TRY_CUDA(cudaMemcpy(b->d, b->raw, b->total * sizeof(unsigned short), cudaMemcpyHostToDevice));
}

/* The device address of product 0 (what the call gets). */
static void *buf_dev(const buf *b) { return (unsigned short *)b->d + b->start; }

/* The host values of product z (product 0 when the operand is broadcast). */
static const float *buf_host(const buf *b, size_t z) { return b->h + b->start + (b->count > 1 ? z : 0) * b->stride; }

static void buf_restore(const buf *b)
{
    TRY_CUDA(cudaMemcpy(b->d, b->raw, b->total * sizeof(unsigned short), cudaMemcpyHostToDevice));
}

static void buf_free(buf *b)
{
    free(b->h), free(b->in), free(b->raw);
    cudaFree(b->d);
    memset(b, 0, sizeof *b);
}

/* Every element of the buffer outside its matrices kept its bits. */
static size_t untouched(const buf *b, const unsigned short *got, const char *label)
{
    size_t bad = 0;
    for (size_t i = 0; i < b->total; ++i) {
        if (b->in[i] || got[i] == b->raw[i]) continue;
        if (bad < 4)
            printf("  %s: wrote outside C, at element %td from C's start\n", label, (ptrdiff_t)i - (ptrdiff_t)b->start);
        ++bad;
    }
    return bad;
}

/* ---- The cases ------------------------------------------------------------------------ */

/* How the operands lie and the call's scalars. ld: LD_ZERO the dense
 * leading dimensions, passed as 0; LD_ODD (dense + 2) | 1, odd and longer
 * than the row; LD_ROW16 the row rounded up to 8 elements (16 bytes) and 8
 * more, so that every row starts on a 16-byte boundary when the matrix
 * does. off_*: elements past a 16-byte boundary (the bias takes off_c).
 * aligned: gaps between products of 16-byte multiples, else 6 bytes past
 * one. beta = 0: C full of NaN. */
enum { LD_ZERO, LD_ODD, LD_ROW16 };
typedef struct cfg {
    const char *name;
    int ld;
    size_t off_a, off_b, off_c;
    float alpha, beta;
    int aligned;
} cfg;

static const cfg cfgs[] = {
    {"ld 0 (dense), aligned, alpha 1 beta 0, C NaN", LD_ZERO, 0, 0, 0, 1.0f, 0.0f, 1},
    {"ld odd, a+1 b+3 C+1, alpha 0.75 beta -1.25", LD_ODD, 1, 3, 1, 0.75f, -1.25f, 0},
    {"ld 16-byte rows + 16, aligned, alpha -2 beta 0.5", LD_ROW16, 0, 0, 0, -2.0f, 0.5f, 1},
    {"ld odd, a+0 b+1 C+2, alpha 1.5 beta 0, C NaN", LD_ODD, 0, 1, 2, 1.5f, 0.0f, 0},
    {"ld 16-byte rows + 16, a+1 b+0 C+0, alpha 0.5 beta 1", LD_ROW16, 1, 0, 0, 0.5f, 1.0f, 1},
    {"ld 16-byte rows + 16, aligned, odd batch gaps, alpha -1 beta 0, C NaN", LD_ROW16, 0, 0, 0, -1.0f, 0.0f, 0},
    {"ld 0 (dense), a+3 b+5 C+7, alpha 1 beta -0.5", LD_ZERO, 3, 5, 7, 1.0f, -0.5f, 0},
};
enum { N_CFGS = sizeof cfgs / sizeof cfgs[0] };

static size_t ld_of(int mode, size_t dense)
{
    return mode == LD_ODD ? (dense + 2) | 1 : mode == LD_ROW16 ? (dense + 7) / 8 * 8 + 8 : dense;
}

/* The distance from one product to the next for a matrix of `extent`
 * elements: past it, to a multiple of 8 elements (16 bytes) and 8 more, or
 * 3 more than that (odd). */
static size_t gap_of(size_t extent, int aligned) { return (extent + 7) / 8 * 8 + (aligned ? 8 : 11); }

enum { BM_ONE, BM_GAPS, BM_A0, BM_B0, BM_INTERLEAVED };
static const char *const batch_names[] = {"batch 1", "batch 3", "batch 3, stride_a 0", "batch 3, stride_b 0",
                                          "batch 3, C interleaved"};

/* How the case is called: gk_gemm_ex with variant 19, with GK_GEMM_AUTO,
 * or gk_gemm_bf16 with variant 19 (the plain description). */
enum { CALL_EX, CALL_AUTO, CALL_PLAIN };

typedef struct scase {
    gk_gemm_type t;
    int layout; /* bit 1: op_a = T; bit 0: op_b = T */
    size_t m, n, k;
    int epi;
    int bmode;    /* batch_names */
    int cfg;      /* cfgs */
    int call;     /* CALL_* */
    int positive; /* inputs in [0, 1) */
    int twice;    /* called again, and again on a second stream: the same bits */
    int null_ab;  /* k = 0: a and b passed as NULL */
} scase;

/* Reference work: the float64 multiply-adds and the CPU time they took. */
static double ref_work, ref_seconds;

static gk_status call_one(int call, const scase *x, const gk_gemm_desc *d, const void *pa, const void *pb, void *pc,
                          void *ws, size_t bytes, cudaStream_t stream)
{
    if (call == CALL_PLAIN)
        return gk_gemm_bf16(SKINNY_ID, x->m, x->n, x->k, d->alpha, pa, d->lda, pb, d->ldb, d->beta, pc, d->ldc,
                            stream);
    size_t b2 = bytes;
    return gk_gemm_ex(call == CALL_AUTO ? GK_GEMM_AUTO : SKINNY_ID, d, pa, pb, pc, ws, &b2, stream);
}

enum { WS_GUARD = 4096 }; /* bytes after the workspace that must be kept */

/* One case: 1 on a pass. */
static int run_case(const scase *x, uint64_t seed)
{
    const cfg *cf = &cfgs[x->cfg];
    const gk_gemm_type t = x->t;
    const size_t m = x->m, n = x->n, k = x->k;
    const int ta = x->layout >> 1, tb = x->layout & 1;
    char label[320];
    snprintf(label, sizeof label, "v%02d%s %s %s%s %s %s %zux%zux%zu%s [%s]", SKINNY_ID,
             x->call == CALL_AUTO ? " (GK_GEMM_AUTO)" : x->call == CALL_PLAIN ? " (gk_gemm_bf16)" : "",
             gk_gemm_type_name(t), ta ? "t" : "n", tb ? "t" : "n", gk_gemm_epilogue_name((gk_gemm_epilogue)x->epi),
             batch_names[x->bmode], m, n, k, x->positive ? ", inputs of one sign" : "", cf->name);
    /* Stored shapes (row-major): A m x k or k x m, B k x n or n x k. */
    const size_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
    const size_t batch = x->bmode == BM_ONE ? 1 : 3;
    const size_t lda = ld_of(cf->ld, ca), ldb = ld_of(cf->ld, cb);
    const size_t ldc = x->bmode == BM_INTERLEAVED ? ld_of(cf->ld, batch * n) : ld_of(cf->ld, n);
    const size_t ea = ra && ca ? (ra - 1) * lda + ca : 0, eb = rb && cb ? (rb - 1) * ldb + cb : 0;
    const size_t ec = (m - 1) * ldc + n;
    size_t sa = gap_of(ea, cf->aligned), sb = gap_of(eb, cf->aligned);
    const size_t sc = x->bmode == BM_INTERLEAVED ? n : gap_of(ec, cf->aligned);
    if (x->bmode == BM_A0) sa = 0;
    if (x->bmode == BM_B0) sb = 0;
    const size_t na = batch > 1 && sa ? batch : 1, nb = batch > 1 && sb ? batch : 1;

    buf A, B, C, bias;
    buf_make(&A, t, ra, ca, lda, na, sa, cf->off_a, mix(seed, 1, 0), x->positive);
    buf_make(&B, t, rb, cb, ldb, nb, sb, cf->off_b, mix(seed, 2, 0), x->positive);
    buf_make(&C, t, m, n, ldc, batch, sc, cf->off_c, mix(seed, 3, 0), cf->beta == 0.0f ? 2 : 0);
    buf_make(&bias, t, 1, n, n, 1, 0, cf->off_c, mix(seed, 4, 0), 0);

    gk_gemm_desc d = gk_gemm_desc_init(t, m, n, k);
    d.op_a = ta ? GK_GEMM_OP_T : GK_GEMM_OP_N, d.op_b = tb ? GK_GEMM_OP_T : GK_GEMM_OP_N;
    if (cf->ld != LD_ZERO || x->call == CALL_PLAIN) d.lda = lda, d.ldb = ldb, d.ldc = ldc;
    if (x->bmode == BM_INTERLEAVED) d.ldc = ldc;
    d.alpha = cf->alpha, d.beta = cf->beta;
    d.batch = batch;
    /* With one product the strides are not read: odd values that would overlap. */
    d.stride_a = batch > 1 ? sa : 3, d.stride_b = batch > 1 ? sb : 1, d.stride_c = batch > 1 ? sc : 1;
    d.epilogue = (gk_gemm_epilogue)x->epi;
    d.bias = x->epi != GK_GEMM_EPILOGUE_NONE ? buf_dev(&bias) : NULL;
    const void *pa = x->null_ab ? NULL : buf_dev(&A), *pb = x->null_ab ? NULL : buf_dev(&B);
    void *pc = buf_dev(&C);

    int ok = 1;
    if (x->call == CALL_AUTO) {
        /* 19 where the weight's rows are whole 16-byte units (ldb and the
         * batch stride multiples of 8: gk/gemm.h); elsewhere another
         * variant, which the same checks below then verify. */
        const size_t ldb_d = d.ldb != 0 ? d.ldb : (tb ? k : n);
        const int rows16 = ldb_d % 8 == 0 && (batch <= 1 || d.stride_b % 8 == 0);
        int pick = -1;
        size_t splits = 0;
        const gk_status st = gk_gemm_auto_variant(&d, &pick, &splits);
        const int right = gk_test_ok(st, label, "gk_gemm_auto_variant") &&
                          (rows16 ? pick == SKINNY_ID && splits == 1 : pick != SKINNY_ID);
        if (!right)
            printf("  %s: GK_GEMM_AUTO picks %d (%zu slices), %s %d\n", label, pick, splits, rows16 ? "not" : "yet",
                   SKINNY_ID);
        ok &= right;
    }
    /* The workspace the query asks for (of the call made first and of
     * variant 19, which the repeats name), WS_GUARD bytes after it kept. */
    size_t bytes = 0, bytes19 = 0;
    if (x->call == CALL_AUTO) gk_test_require(gk_gemm_ex(GK_GEMM_AUTO, &d, pa, pb, pc, NULL, &bytes, 0), label);
    gk_test_require(gk_gemm_ex(SKINNY_ID, &d, pa, pb, pc, NULL, &bytes19, 0), label);
    if (bytes19 > bytes) bytes = bytes19;
    unsigned char *ws = NULL;
    TRY_CUDA(cudaMalloc((void **)&ws, bytes + WS_GUARD));
    TRY_CUDA(cudaMemset(ws, 0xcd, bytes + WS_GUARD));

    gk_status st = call_one(x->call, x, &d, pa, pb, pc, ws, bytes, 0);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(st, label);
    unsigned short *got = (unsigned short *)gk_test_xmalloc(C.total * sizeof(unsigned short));
    unsigned char *guard = (unsigned char *)gk_test_xmalloc(WS_GUARD);
    TRY_CUDA(cudaMemcpy(got, C.d, C.total * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(guard, ws + bytes, WS_GUARD, cudaMemcpyDeviceToHost));

    /* Every product against the float64 reference. */
    double *ref = (double *)gk_test_xmalloc(3 * m * n * sizeof(double)), *mag = ref + m * n, *rms = mag + m * n;
    const gk_gemm_precision pr = t == F16 ? GK_GEMM_FP16 : GK_GEMM_BF16;
    size_t bad = 0;
    for (size_t z = 0; z < batch; ++z) {
        const clock_t t0 = clock();
        gk_gemm_ref_ex(ta, tb, m, n, k, cf->alpha, buf_host(&A, z), lda, buf_host(&B, z), ldb, cf->beta,
                       buf_host(&C, z), ldc, x->epi, x->epi != GK_GEMM_EPILOGUE_NONE ? buf_host(&bias, 0) : NULL, ref,
                       mag, rms);
        ref_seconds += (double)(clock() - t0) / CLOCKS_PER_SEC;
        ref_work += (double)m * (double)n * (double)k;
        char zl[360];
        snprintf(zl, sizeof zl, "%s product %zu", label, z);
        if (bad < GK_VERIFY_SHOW)
            bad += gk_gemm_check16(got + C.start + z * sc, ldc, ref, mag, rms, m, n, k, pr, x->epi, 0, zl, stdout);
    }
    ok &= bad == 0;
    ok &= untouched(&C, got, label) == 0;
    int guard_kept = 1;
    for (size_t i = 0; i < WS_GUARD; ++i) guard_kept &= guard[i] == 0xcd;
    if (!guard_kept) printf("  %s: wrote past the %zu workspace bytes it asked for\n", label, bytes);
    ok &= guard_kept;

    if (x->twice) {
        /* The same inputs again (C restored: it may be read), through
         * variant 19 named (gk_gemm_ex; after a gk_gemm_bf16 call, with the
         * same description), then on a second stream (after GK_GEMM_AUTO or
         * gk_gemm_ex: gk_gemm_ex(19); after gk_gemm_bf16: gk_gemm_bf16). */
        cudaStream_t s2;
        TRY_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
        unsigned short *again = (unsigned short *)gk_test_xmalloc(C.total * sizeof(unsigned short));
        for (int pass = 0; pass < 2; ++pass) {
            buf_restore(&C);
            TRY_CUDA(cudaDeviceSynchronize()); /* the copy done before s2 (which does not wait for stream 0) reads C */
            const int call = pass == 1 && x->call == CALL_PLAIN ? CALL_PLAIN : CALL_EX;
            const cudaStream_t s = pass == 0 ? 0 : s2;
            st = call_one(call, x, &d, pa, pb, pc, ws, bytes, s);
            if (gk_ok(st)) st = GK_CUDA_STATUS(cudaStreamSynchronize(s));
            gk_test_require(st, label);
            TRY_CUDA(cudaMemcpy(again, C.d, C.total * sizeof(unsigned short), cudaMemcpyDeviceToHost));
            const int same = memcmp(got, again, C.total * sizeof(unsigned short)) == 0;
            if (!same)
                printf("  %s: call %d (%s, %s) gave other bits than the first (documented deterministic)\n", label,
                       pass + 2, call == CALL_PLAIN ? "gk_gemm_bf16" : "gk_gemm_ex(19)",
                       pass == 0 ? "stream 0" : "a second stream");
            ok &= same;
        }
        free(again);
        TRY_CUDA(cudaStreamDestroy(s2));
    }
    if (!ok) printf("  %s FAILED\n", label);
    free(got), free(guard), free(ref);
    cudaFree(ws);
    buf_free(&A), buf_free(&B), buf_free(&C), buf_free(&bias);
    return ok;
}

static scase mk(gk_gemm_type t, int layout, size_t m, size_t n, size_t k, int epi, int bmode, int cfg_index)
{
    scase c;
    memset(&c, 0, sizeof c);
    c.t = t, c.layout = layout, c.m = m, c.n = n, c.k = k, c.epi = epi, c.bmode = bmode, c.cfg = cfg_index;
    c.call = CALL_EX;
    return c;
}

static size_t add(scase *out, size_t nc, size_t cap, scase c)
{
    if (nc >= cap) {
        printf("FATAL more than %zu cases: enlarge the case array\n", cap);
        exit(1);
    }
    out[nc] = c;
    return nc + 1;
}

/* The coverage loop's shapes (and --small's). */
static const size_t full_m[] = {1, 2, 17, 31, 33, 64, 65, 255};
static const size_t full_n[] = {1, 7, 129, 1000, 4100};
static const size_t full_k[] = {1, 7, 33, 1000, 4099};
static const size_t small_m[] = {1, 2, 17, 33, 65};
static const size_t small_n[] = {1, 7, 129};
static const size_t small_k[] = {1, 7, 33, 1000};
/* A coverage case whose reference (batch m n k multiply-adds) would pass
 * this runs with one product, or not at all when m n k passes it (the
 * largest of those run once each below): the loop then costs 1.35e9. */
#define CASE_WORK_CAP 1e8

enum { NONE = GK_GEMM_EPILOGUE_NONE, BIAS = GK_GEMM_EPILOGUE_BIAS, RELU = GK_GEMM_EPILOGUE_BIAS_RELU,
       GELU = GK_GEMM_EPILOGUE_BIAS_GELU };
enum { NN = 0, NT = 1, TN = 2, TT = 3 };

static size_t build_cases(scase *out, size_t cap, int small)
{
    const size_t *ms = small ? small_m : full_m, *ns = small ? small_n : full_n, *ks = small ? small_k : full_k;
    const size_t nm = small ? sizeof small_m / sizeof small_m[0] : sizeof full_m / sizeof full_m[0];
    const size_t nn = small ? sizeof small_n / sizeof small_n[0] : sizeof full_n / sizeof full_n[0];
    const size_t nk = small ? sizeof small_k / sizeof small_k[0] : sizeof full_k / sizeof full_k[0];
    size_t nc = 0, c = 0;
    for (size_t mi = 0; mi < nm; ++mi)
        for (size_t ni = 0; ni < nn; ++ni)
            for (size_t ki = 0; ki < nk; ++ki, ++c) {
                /* The options turn with the case index c: layout c mod 4,
                 * epilogue c / 4 mod 4, batch c mod 5, configuration
                 * c / 5 mod 7; the type flips with the epilogue and every
                 * 16 cases, so that each (layout, epilogue) meets both. */
                scase x = mk((c / 16 + c / 4) % 2 ? F16 : BF16, (int)(c % 4), ms[mi], ns[ni], ks[ki], (int)(c / 4 % 4),
                             (int)(c % 5), (int)(c / 5 % N_CFGS));
                const double w = (double)x.m * (double)x.n * (double)x.k;
                if (x.bmode != BM_ONE && 3.0 * w > CASE_WORK_CAP) x.bmode = BM_ONE;
                if (w > CASE_WORK_CAP) continue;
                nc = add(out, nc, cap, x);
            }
    const size_t MM = GK_GEMM_SKINNY_MAX_M, NK = GK_GEMM_SKINNY_MIN_NK;
    scase x;
    /* A long k with small n: one sign (every rounding error adds up) and signed. */
    x = mk(BF16, NT, 2, 7, 65537, NONE, BM_ONE, 0), x.positive = 1, nc = add(out, nc, cap, x);
    x = mk(F16, NN, 17, 3, 65537, BIAS, BM_B0, 1), nc = add(out, nc, cap, x);
    if (!small) {
        x = mk(BF16, TT, 1, 129, 65537, GELU, BM_GAPS, 2), nc = add(out, nc, cap, x);
        x = mk(F16, NT, 1, 4, 65537, NONE, BM_ONE, 4), x.positive = 1, nc = add(out, nc, cap, x);
        x = mk(BF16, NT, 8, 1000, 4099, NONE, BM_ONE, 0), x.positive = 1, nc = add(out, nc, cap, x);
    }
    /* k = 0: C = epi(beta C + bias); a and b NULL, or pointers not read. */
    x = mk(BF16, NT, 33, 129, 0, GELU, BM_ONE, 2), x.null_ab = 1, nc = add(out, nc, cap, x);
    x = mk(F16, NN, 1, 7, 0, NONE, BM_GAPS, 1), nc = add(out, nc, cap, x);
    x = mk(BF16, TN, 64, 1000, 0, BIAS, BM_B0, 0), x.null_ab = 1, nc = add(out, nc, cap, x); /* beta 0: C = bias */
    /* The largest shapes the loop leaves out, one product each. */
    if (!small) {
        x = mk(BF16, NT, 64, 1000, 4099, RELU, BM_ONE, 2), nc = add(out, nc, cap, x);
        x = mk(F16, TN, 65, 4100, 1000, BIAS, BM_ONE, 1), nc = add(out, nc, cap, x);
        x = mk(BF16, NN, 255, 1000, 1000, GELU, BM_ONE, 3), nc = add(out, nc, cap, x);
    }
    /* Around the sizes a skinny kernel tiles by: 8, 16 and 32 rows of op(A)
     * (and one past), 256 columns of C (and one short), k long enough to
     * take several chunks of the rows of op(A) through on-chip memory. */
    x = mk(BF16, NT, 8, small ? 65 : 257, 1000, BIAS, BM_ONE, 2), nc = add(out, nc, cap, x);
    x = mk(F16, NN, 9, 33, small ? 2100 : 20000, NONE, BM_ONE, 0), nc = add(out, nc, cap, x);
    x = mk(BF16, TT, 16, small ? 40 : 300, 2049, RELU, BM_GAPS, 4), nc = add(out, nc, cap, x);
    x = mk(F16, TN, 32, small ? 20 : 129, small ? 1100 : 4099, GELU, BM_B0, 5), nc = add(out, nc, cap, x);
    if (!small) {
        x = mk(BF16, NT, 2, 256, 4096, NONE, BM_ONE, 0), nc = add(out, nc, cap, x);
        x = mk(F16, NN, 17, 255, 2048, BIAS, BM_ONE, 2), nc = add(out, nc, cap, x);
        x = mk(BF16, NT, 64, 5, 65537, GELU, BM_ONE, 6), nc = add(out, nc, cap, x);
    }
    /* GK_GEMM_AUTO in the skinny region (it must pick 19 where the weight's
     * rows are whole 16-byte units, another variant elsewhere), the first
     * at both of the region's edges at once when m = MM. */
    x = mk(BF16, NT, 1, 1024, (NK + 1023) / 1024, NONE, BM_ONE, 0), x.call = CALL_AUTO, x.twice = 1;
    nc = add(out, nc, cap, x);
    x = mk(F16, TT, 2, 1000, (NK + 999) / 1000, BIAS, BM_ONE, 4), x.call = CALL_AUTO, nc = add(out, nc, cap, x);
    if (!small) {
        x = mk(F16, TN, GK_GEMM_SKINNY_MAX_M_KN, 257, (NK + 256) / 257, RELU, BM_B0, 1), x.call = CALL_AUTO;
        nc = add(out, nc, cap, x);
        x = mk(BF16, NN, GK_GEMM_SKINNY_MAX_M_KN, 4100, (NK + 4099) / 4100, GELU, BM_GAPS, 3), x.call = CALL_AUTO;
        nc = add(out, nc, cap, x);
        x = mk(BF16, NT, MM, 1024, (NK + 1023) / 1024, BIAS, BM_ONE, 6), x.call = CALL_AUTO, x.twice = 1;
        nc = add(out, nc, cap, x);
    }
    /* gk_gemm_bf16(19, ...): the plain description, odd rows and offset
     * pointers, then dense. */
    x = mk(BF16, NN, small ? 17 : 31, small ? 129 : 1000, 1000, NONE, BM_ONE, 1), x.call = CALL_PLAIN, x.twice = 1;
    nc = add(out, nc, cap, x);
    x = mk(BF16, NN, 2, small ? 129 : 4100, 33, NONE, BM_ONE, 0), x.call = CALL_PLAIN, nc = add(out, nc, cap, x);
    /* Determinism: the weight stored n x k, three calls (the third on a
     * second stream), the same bits; and a batch of F16 products sharing
     * one weight. */
    x = mk(BF16, NT, 16, small ? 256 : 4096, small ? 4096 : 8192, GELU, BM_ONE, 2), x.twice = 1;
    nc = add(out, nc, cap, x);
    x = mk(F16, NN, 3, small ? 128 : 2048, small ? 1000 : 2048, NONE, BM_B0, 0), x.twice = 1;
    nc = add(out, nc, cap, x);
    return nc;
}

/* ---- The calls that must fail ------------------------------------------------------------ */

static void test_rejections(uint64_t seed)
{
    const size_t m = 8, n = 40, k = 64;
    buf A, B, C, bias;
    buf_make(&A, BF16, m, k, k, 1, 0, 0, mix(seed, 21, 0), 0);
    buf_make(&B, BF16, n, k, k, 1, 0, 0, mix(seed, 22, 0), 0); /* the weight, n x k */
    buf_make(&C, BF16, m, n, n, 1, 0, 0, mix(seed, 23, 0), 0);
    buf_make(&bias, BF16, 1, n, n, 1, 0, 0, mix(seed, 24, 0), 0);
    gk_gemm_desc d = gk_gemm_desc_init(BF16, m, n, k);
    d.op_b = GK_GEMM_OP_T, d.beta = 1.0f, d.epilogue = GK_GEMM_EPILOGUE_BIAS, d.bias = buf_dev(&bias);
    void *pa = buf_dev(&A), *pb = buf_dev(&B), *pc = buf_dev(&C);
    size_t need = 0;
    gk_test_require(gk_gemm_ex(SKINNY_ID, &d, pa, pb, pc, NULL, &need, 0), "query");
    CHECK(need >= 256 && need % 256 == 0, "the query: %zu bytes (whole granules, at least one)", need);
    unsigned char *ws = NULL;
    TRY_CUDA(cudaMalloc((void **)&ws, need + 256));
    TRY_CUDA(cudaMemset(ws, 0xcd, need + 256));
    size_t bytes = need - 1;
    gk_status st = gk_gemm_ex(SKINNY_ID, &d, pa, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_WORKSPACE_TOO_SMALL && bytes == need - 1, "a workspace one byte short (%zu of %zu): %s",
          need - 1, need, gk_status_string(st.code));
    bytes = 0;
    st = gk_gemm_ex(SKINNY_ID, &d, pa, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_WORKSPACE_TOO_SMALL, "a workspace of 0 bytes: %s", gk_status_string(st.code));
    bytes = need - 1;
    st = gk_gemm_ex(GK_GEMM_AUTO, &d, pa, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_WORKSPACE_TOO_SMALL, "GK_GEMM_AUTO, a workspace one byte short: %s",
          gk_status_string(st.code));
    bytes = need;
    st = gk_gemm_ex(SKINNY_ID, &d, pa, pb, pc, ws + 8, &bytes, 0);
    CHECK(st.code == GK_ERROR_INVALID_ARGUMENT, "a workspace off 16 bytes: %s", gk_status_string(st.code));
    st = gk_gemm_ex(SKINNY_ID, &d, (const unsigned char *)pa + 1, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_INVALID_ARGUMENT, "a off its 2-byte element: %s", gk_status_string(st.code));
    st = gk_gemm_ex(SKINNY_ID, &d, pa, (const unsigned char *)pb + 1, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_INVALID_ARGUMENT, "b off its 2-byte element: %s", gk_status_string(st.code));
    gk_gemm_desc e = d;
    e.ldb = k - 1;
    st = gk_gemm_ex(SKINNY_ID, &e, pa, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_INVALID_ARGUMENT, "ldb < k (the weight n x k): %s", gk_status_string(st.code));
    e = d, e.bias = NULL;
    st = gk_gemm_ex(SKINNY_ID, &e, pa, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_NULL_POINTER, "a NULL bias with a bias epilogue: %s", gk_status_string(st.code));
    e = d, e.type = F32; /* the same bytes read as floats: refused before anything runs */
    e.n = n / 2, e.k = k / 2, e.bias = NULL, e.epilogue = GK_GEMM_EPILOGUE_NONE;
    st = gk_gemm_ex(SKINNY_ID, &e, pa, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "F32 storage: %s", gk_status_string(st.code));
    st = gk_gemm(SKINNY_ID, m, n / 2, k / 2, 1.0f, (const float *)pa, k / 2, (const float *)pb, n / 2, 0.0f,
                 (float *)pc, n / 2, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "gk_gemm (fp32) with variant 19: %s", gk_status_string(st.code));
    e = d, e.type_a = e.type_b = GK_GEMM_TYPE_E4M3, e.k = 2 * k; /* the same bytes read as e4m3 */
    st = gk_gemm_ex(SKINNY_ID, &e, pa, pb, pc, ws, &bytes, 0);
    CHECK(st.code == GK_ERROR_UNSUPPORTED, "FP8 inputs: %s", gk_status_string(st.code));
    /* Empty products: success, nothing written. */
    e = d, e.m = 0;
    st = gk_gemm_ex(SKINNY_ID, &e, pa, pb, pc, ws, &bytes, 0);
    CHECK(gk_ok(st), "m = 0: %s", gk_status_string(st.code));
    e = d, e.n = 0;
    st = gk_gemm_ex(SKINNY_ID, &e, NULL, NULL, NULL, ws, &bytes, 0);
    CHECK(gk_ok(st), "n = 0 (NULL pointers): %s", gk_status_string(st.code));
    st = gk_gemm_bf16(SKINNY_ID, 0, n, k, 1.0f, NULL, k, NULL, n, 0.0f, NULL, n, 0);
    CHECK(gk_ok(st), "gk_gemm_bf16, m = 0: %s", gk_status_string(st.code));
    TRY_CUDA(cudaDeviceSynchronize());
    unsigned short *got = (unsigned short *)gk_test_xmalloc(C.total * sizeof(unsigned short));
    unsigned char *wgot = (unsigned char *)gk_test_xmalloc(need + 256);
    TRY_CUDA(cudaMemcpy(got, C.d, C.total * sizeof(unsigned short), cudaMemcpyDeviceToHost));
    TRY_CUDA(cudaMemcpy(wgot, ws, need + 256, cudaMemcpyDeviceToHost));
    CHECK(memcmp(got, C.raw, C.total * sizeof(unsigned short)) == 0, "the refused and empty calls left C as it was");
    int kept = 1;
    for (size_t i = 0; i < need + 256; ++i) kept &= wgot[i] == 0xcd;
    CHECK(kept, "the refused and empty calls left the workspace as it was");
    printf("refusals: done\n");
    free(got), free(wgot);
    cudaFree(ws);
    buf_free(&A), buf_free(&B), buf_free(&C), buf_free(&bias);
}

/* ---- main --------------------------------------------------------------------------------- */

/* 1 when variant 19 runs here; 0, saying why, when it cannot: on a GPU
 * other than compute capability 9.0 it must answer GK_ERROR_UNSUPPORTED
 * (checked), and it may there too when the library was not built for
 * sm_90a. */
static int runs_here(const gk_device_info *dev)
{
    const int cc = dev->cc_major * 10 + dev->cc_minor;
    unsigned short *mem = NULL;
    const unsigned short one[4] = {0x3f80, 0x3f80, 0x3f80, 0x3f80}; /* bf16 1.0 */
    TRY_CUDA(cudaMalloc((void **)&mem, 256));
    TRY_CUDA(cudaMemcpy(mem, one, sizeof one, cudaMemcpyHostToDevice));
    const gk_status st = gk_gemm_bf16(SKINNY_ID, 1, 1, 1, 1.0f, mem, 1, mem + 1, 1, 0.0f, mem + 64, 1, 0);
    TRY_CUDA(cudaDeviceSynchronize());
    cudaFree(mem);
    if (cc != 90) {
        CHECK(st.code == GK_ERROR_UNSUPPORTED, "variant 19 on compute capability %d.%d: %s (want UNSUPPORTED)",
              dev->cc_major, dev->cc_minor, gk_status_string(st.code));
        printf("SKIPPED: variant 19 (weight_stream) needs a compute capability 9.0 GPU (H100, H200); this one is "
               "%d.%d\n",
               dev->cc_major, dev->cc_minor);
        return 0;
    }
    if (st.code == GK_ERROR_UNSUPPORTED) {
        printf("SKIPPED: variant 19 (weight_stream) answers GK_ERROR_UNSUPPORTED here (%s)\n", st.what);
        return 0;
    }
    gk_test_require(st, "variant 19 probe");
    return 1;
}

int main(int argc, char **argv)
{
    int variant = 0, small = 0;
    uint64_t seed = gk_test_new_seed();
    const gk_test_option opts[] = {{"--small", &small, NULL}};
    if (gk_test_args(argc, argv, opts, 1, "test_gemm_skinny_gpu [--variant 19] [--small] [--seed S]", &variant,
                     &seed) != 0)
        return 2;
    if (variant != 0 && variant != SKINNY_ID) {
        printf("no skinny variant %d (this test covers variant %d, weight_stream)\n", variant, SKINNY_ID);
        return 2;
    }
    test_cpu(); /* needs no GPU */
    gk_device_info dev;
    if (gk_test_open_gpu(&dev, seed) != 0) {
        if (check_failed) return check_summary("test_gemm_skinny_gpu");
        printf("(the CPU checks: %d passed)\n", check_passed);
        return GK_TEST_SKIP;
    }
    if (!runs_here(&dev)) {
        if (check_failed) return check_summary("test_gemm_skinny_gpu");
        printf("(the CPU checks: %d passed)\n", check_passed);
        return GK_TEST_SKIP;
    }
    test_rejections(seed);
    static scase cases[256];
    const size_t nc = build_cases(cases, sizeof cases / sizeof cases[0], small);
    const int failed_before = check_failed;
    for (size_t ci = 0; ci < nc; ++ci) {
        const int ok = run_case(&cases[ci], mix(seed, 1000 + ci, (uint64_t)small));
        CHECK(ok, "case %zu", ci);
        if ((ci + 1) % 20 == 0 || ci + 1 == nc) {
            printf("%zu of %zu cases done\n", ci + 1, nc);
            fflush(stdout);
        }
    }
    printf("variant %d (weight_stream) and GK_GEMM_AUTO: %zu cases, %s; CPU reference: %.3g multiply-adds in %.1f s\n",
           SKINNY_ID, nc, check_failed == failed_before ? "all passed" : "FAILURES above", ref_work, ref_seconds);
    return check_summary("test_gemm_skinny_gpu");
}
