/* CPU tests of the gemm module's FP8 path (gk/gemm.h, "FP8": gk_gemm_ex
 * with e4m3 and e5m2 inputs, variant 18, and gk_gemm_fp8_quantize), none
 * of which needs a GPU:
 *   - gemm_ref's FP8 helpers: the decoding of all 256 bytes of both types
 *     against values built another way (the fields placed into a float's
 *     bits) and against known ones; the encoding (round to nearest even,
 *     saturation, NaN, underflow) at every tie between neighbours and
 *     against a brute-force nearest search; the float64 reference on small
 *     products worked by hand (every layout, scales, batch, beta C, the
 *     epilogues, NaN bytes, k = 0); the tolerance's shape (zero at k = 0,
 *     growing with k and the magnitudes, the two accumulation modes);
 *   - gk_gemm_desc_init's FP8 defaults, the type names, variant 18's row;
 *   - every argument check of gk_gemm_ex for FP8 descriptions and of
 *     gk_gemm_fp8_quantize, with the statuses gemm/gemm.c gives (a rejected
 *     call launches nothing and writes nothing, and a workspace query
 *     launches nothing), and the workspace query of variant 18.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gemm_ref.h"
#include "gk/gemm.h"
#include "gk/random.h"
#include "gk/verify.h"
#include "test_util.h"

static const gk_gemm_type k_fp8[2] = {GK_GEMM_TYPE_E4M3, GK_GEMM_TYPE_E5M2};

/* ---- Decoding ---------------------------------------------------------------- */

/* The value of an FP8 byte built without gk_fp8_value's arithmetic: a
 * normal number's fields moved into a float's bit pattern (exponent
 * rebiased to 127, mantissa shifted to the top of the 23 bits), a
 * subnormal one as m times the smallest subnormal (2^-9 or 2^-16, by
 * halving 1). NaN and infinity by the rules of each type. */
static double indep_value(gk_gemm_type t, unsigned b)
{
    const int e4 = t == GK_GEMM_TYPE_E4M3;
    const unsigned mbits = e4 ? 3 : 2, bias = e4 ? 7 : 15, emax = e4 ? 15 : 31;
    const unsigned e = (b >> mbits) & emax, m = b & ((1u << mbits) - 1), s = b >> 7;
    if (e4 && e == 15 && m == 7) return NAN;
    if (!e4 && e == 31) return m ? NAN : (s ? -INFINITY : INFINITY);
    if (e == 0) {
        double tiny = 1.0;
        for (unsigned i = 0; i < bias - 1 + mbits; ++i) tiny /= 2.0; /* 2^-(bias - 1 + mbits) */
        return (s ? -1.0 : 1.0) * m * tiny;
    }
    const uint32_t u = s << 31 | (e - bias + 127) << 23 | m << (23 - mbits);
    float f;
    memcpy(&f, &u, 4);
    return (double)f;
}

static void test_decode(void)
{
    for (int ti = 0; ti < 2; ++ti) {
        const gk_gemm_type t = k_fp8[ti];
        int same = 1, nans = 0, infs = 0;
        for (unsigned b = 0; b < 256; ++b) {
            const double v = gk_fp8_value(t, (unsigned char)b), w = indep_value(t, b);
            nans += isnan(v) != 0;
            infs += isinf(v) != 0;
            const int ok = isnan(w) ? isnan(v) != 0 : (v == w && signbit(v) == signbit(w));
            if (!ok && same) printf("  %s 0x%02x: %.17g, expected %.17g\n", gk_gemm_type_name(t), b, v, w);
            same &= ok;
        }
        CHECK(same, "%s: all 256 bytes decode as their fields say", gk_gemm_type_name(t));
        /* e4m3: NaN only at 0x7f and 0xff, no infinity; e5m2: exponent 31 is
         * +-inf (mantissa 0) and NaN (3 mantissas x 2 signs). */
        CHECK(nans == (ti == 0 ? 2 : 6) && infs == (ti == 0 ? 0 : 2), "%s: %d NaN and %d infinite bytes",
              gk_gemm_type_name(t), nans, infs);
        /* The positive finite bytes in increasing order, and their negatives. */
        const unsigned top = ti == 0 ? 0x7e : 0x7b;
        int up = 1, neg = 1;
        for (unsigned b = 1; b <= top; ++b) {
            up &= gk_fp8_value(t, (unsigned char)b) > gk_fp8_value(t, (unsigned char)(b - 1));
            neg &= gk_fp8_value(t, (unsigned char)(b | 0x80)) == -gk_fp8_value(t, (unsigned char)b);
        }
        CHECK(up && neg, "%s: bytes 0..0x%02x increase, 0x80 | b is -b", gk_gemm_type_name(t), top);
    }
    /* Known values. */
    const gk_gemm_type E4 = GK_GEMM_TYPE_E4M3, E5 = GK_GEMM_TYPE_E5M2;
    CHECK(gk_fp8_value(E4, 0x38) == 1.0 && gk_fp8_value(E4, 0x40) == 2.0 && gk_fp8_value(E4, 0xb0) == -0.5 &&
              gk_fp8_value(E4, 0x3c) == 1.5 && gk_fp8_value(E4, 0x77) == 240.0 && gk_fp8_value(E4, 0x78) == 256.0,
          "e4m3: 1, 2, -0.5, 1.5, 240, 256");
    CHECK(gk_fp8_value(E4, 0x7e) == GK_E4M3_MAX && gk_fp8_value(E4, 0x7e) == 448.0 && gk_fp8_value(E4, 0xfe) == -448.0,
          "e4m3: largest finite 448");
    CHECK(gk_fp8_value(E4, 0x01) == 0x1p-9 && gk_fp8_value(E4, 0x07) == 7 * 0x1p-9 && gk_fp8_value(E4, 0x08) == 0x1p-6,
          "e4m3: subnormals m 2^-9, smallest normal 2^-6");
    CHECK(gk_fp8_value(E4, 0x00) == 0.0 && !signbit(gk_fp8_value(E4, 0x00)) && signbit(gk_fp8_value(E4, 0x80)),
          "e4m3: +0 and -0");
    CHECK(isnan(gk_fp8_value(E4, 0x7f)) && isnan(gk_fp8_value(E4, 0xff)), "e4m3: 0x7f, 0xff NaN");
    CHECK(gk_fp8_value(E5, 0x3c) == 1.0 && gk_fp8_value(E5, 0x40) == 2.0 && gk_fp8_value(E5, 0x42) == 3.0 &&
              gk_fp8_value(E5, 0x34) == 0.25 && gk_fp8_value(E5, 0xc0) == -2.0,
          "e5m2: 1, 2, 3, 0.25, -2");
    CHECK(gk_fp8_value(E5, 0x7b) == GK_E5M2_MAX && gk_fp8_value(E5, 0x7b) == 57344.0, "e5m2: largest finite 57344");
    CHECK(gk_fp8_value(E5, 0x01) == 0x1p-16 && gk_fp8_value(E5, 0x03) == 3 * 0x1p-16 && gk_fp8_value(E5, 0x04) == 0x1p-14,
          "e5m2: subnormals m 2^-16, smallest normal 2^-14");
    CHECK(gk_fp8_value(E5, 0x7c) == INFINITY && gk_fp8_value(E5, 0xfc) == -INFINITY && isnan(gk_fp8_value(E5, 0x7d)) &&
              isnan(gk_fp8_value(E5, 0x7e)) && isnan(gk_fp8_value(E5, 0x7f)) && isnan(gk_fp8_value(E5, 0xff)),
          "e5m2: 0x7c inf, 0x7d-0x7f NaN");
    CHECK(isnan(gk_fp8_value(GK_GEMM_TYPE_BF16, 0x38)) && gk_fp8_bits(GK_GEMM_TYPE_F32, 1.0f) == 0,
          "a type that is not FP8: NaN, 0");
}

/* ---- Encoding ---------------------------------------------------------------- */

/* The byte nearest to x by search: every non-negative finite byte tried,
 * the nearest kept, a tie going to the even byte (its last bit is the
 * mantissa's last bit, across a change of exponent too); past the largest
 * finite the largest finite; the sign put back. */
static unsigned brute_bits(gk_gemm_type t, double x)
{
    const unsigned top = t == GK_GEMM_TYPE_E4M3 ? 0x7e : 0x7b;
    const unsigned sign = signbit(x) ? 0x80 : 0;
    const double a = fabs(x);
    if (a > gk_fp8_value(t, (unsigned char)top)) return sign | top;
    unsigned best = 0;
    double bd = a;
    for (unsigned b = 1; b <= top; ++b) {
        const double dd = fabs(gk_fp8_value(t, (unsigned char)b) - a);
        if (dd < bd || (dd == bd && (b & 1u) == 0)) best = b, bd = dd;
    }
    return sign | best;
}

static void test_encode(void)
{
    for (int ti = 0; ti < 2; ++ti) {
        const gk_gemm_type t = k_fp8[ti];
        const char *nm = gk_gemm_type_name(t);
        const unsigned top = ti == 0 ? 0x7e : 0x7b;
        /* Every finite byte's value encodes to that byte (-0 to 0x80). */
        int round_trip = 1;
        for (unsigned b = 0; b < 256; ++b) {
            const double v = gk_fp8_value(t, (unsigned char)b);
            if (isnan(v) || isinf(v)) continue;
            round_trip &= gk_fp8_bits(t, (float)v) == b;
        }
        CHECK(round_trip, "%s: every finite value encodes to its own byte", nm);
        /* Between neighbours b and b + 1: the midpoint (exact in float: one
         * bit more than the format) goes to the even byte, a float either
         * side of it to the nearer one; the same negated. */
        int ties = 1, sides = 1;
        for (unsigned b = 0; b < top; ++b) {
            const float lo = (float)gk_fp8_value(t, (unsigned char)b), hi = (float)gk_fp8_value(t, (unsigned char)(b + 1));
            const float mid = (float)(0.5 * ((double)lo + (double)hi));
            const unsigned even = (b & 1u) ? b + 1 : b;
            ties &= gk_fp8_bits(t, mid) == even && gk_fp8_bits(t, -mid) == (0x80 | even);
            sides &= gk_fp8_bits(t, nextafterf(mid, 0.0f)) == b && gk_fp8_bits(t, nextafterf(mid, INFINITY)) == b + 1;
            sides &= gk_fp8_bits(t, -nextafterf(mid, 0.0f)) == (0x80 | b) &&
                     gk_fp8_bits(t, -nextafterf(mid, INFINITY)) == (0x80 | (b + 1));
        }
        CHECK(ties, "%s: ties between neighbours go to the even byte", nm);
        CHECK(sides, "%s: off a tie, the nearer byte", nm);
        /* Saturation: everything past the largest finite, infinity
         * included, is the largest finite with its sign (__NV_SATFINITE). */
        const float mx = (float)gk_fp8_value(t, (unsigned char)top);
        const float past[] = {nextafterf(mx, INFINITY),
                              ti == 0 ? 464.0f : 61440.0f, /* the tie with the next step, which does not exist */
                              ti == 0 ? 465.0f : 61441.0f, 1e6f, 1e30f, FLT_MAX, INFINITY};
        int sat = 1;
        for (size_t i = 0; i < sizeof past / sizeof past[0]; ++i)
            sat &= gk_fp8_bits(t, past[i]) == top && gk_fp8_bits(t, -past[i]) == (0x80 | top);
        CHECK(sat, "%s: past %g saturates to 0x%02x / 0x%02x", nm, (double)mx, top, 0x80 | top);
        CHECK(gk_fp8_bits(t, mx) == top && gk_fp8_bits(t, -mx) == (0x80 | top), "%s: the largest finite itself", nm);
        /* NaN stays NaN (the byte 0x7f, a NaN of both types). */
        CHECK(isnan(gk_fp8_value(t, gk_fp8_bits(t, NAN))) && isnan(gk_fp8_value(t, gk_fp8_bits(t, -NAN))), "%s: NaN",
              nm);
        /* Underflow: half the smallest subnormal is a tie with 0 (even): 0;
         * just above it, the smallest subnormal; far below, a zero of the
         * value's sign. */
        const float half_min = (float)(0.5 * gk_fp8_value(t, 0x01));
        CHECK(gk_fp8_bits(t, half_min) == 0x00 && gk_fp8_bits(t, -half_min) == 0x80 &&
                  gk_fp8_bits(t, nextafterf(half_min, 1.0f)) == 0x01 &&
                  gk_fp8_bits(t, -nextafterf(half_min, 1.0f)) == 0x81 && gk_fp8_bits(t, 1e-30f) == 0x00 &&
                  gk_fp8_bits(t, -1e-30f) == 0x80 && gk_fp8_bits(t, 0.0f) == 0x00 && gk_fp8_bits(t, -0.0f) == 0x80,
              "%s: underflow to a signed zero, ties to zero", nm);
        /* 1.5 smallest subnormals: a tie between bytes 1 and 2: 2. */
        CHECK(gk_fp8_bits(t, (float)(1.5 * gk_fp8_value(t, 0x01))) == 0x02, "%s: subnormal tie to even", nm);
        /* Random floats over the whole range (2^-24 to 2^20, both signs:
         * underflow, subnormals, normals, saturation) against the search. */
        gk_rng r;
        gk_rng_seed(&r, 0xf8f8 + (uint64_t)ti);
        int agree = 1;
        for (int i = 0; i < 200000 && agree; ++i) {
            const uint64_t u = gk_rng_next(&r);
            const double mant = 1.0 + (double)(u >> 40) / (double)(1ull << 24); /* [1, 2) */
            const int e = (int)((u >> 8) % 45) - 24;
            const float x = (float)((u & 1 ? -1.0 : 1.0) * ldexp(mant, e));
            const unsigned want = brute_bits(t, (double)x), got = gk_fp8_bits(t, x);
            if (got != want) printf("  %s: %.9g encodes to 0x%02x, the search says 0x%02x\n", nm, (double)x, got, want);
            agree &= got == want;
        }
        CHECK(agree, "%s: 200000 random floats: the nearest byte", nm);
    }
}

/* ---- The reference ------------------------------------------------------------ */

/* A small product worked by hand: A (e4m3, 2 x 3) and B (e5m2, 3 x 2),
 *   A = [  1     2    -0.5 ]     B = [ 1     -2    ]
 *       [ 448  2^-9   1.5  ]         [ 0.25   4    ]
 *                                    [ 3    57344  ]
 *   A B = [ 0              -28666        ]   S = sum |a b| = [ 3              28682        ]
 *         [ 452.5 + 2^-11  85120 + 2^-7  ]                   [ 452.5 + 2^-11  86912 + 2^-7 ]
 * with alpha 2, sa 0.5, sb 4 (alpha sa sb = 4), ra = [1, -0.5], cb =
 * [0.25, 2], so the scale of (i, j) is [1 8; -0.5 -4], beta -1, C = [1 2;
 * 3 4], bias [10, -20]:
 *   x = [ 9                -229350        ]   sab = [ 3               229456        ]
 *       [ -219.25 - 2^-12  -340504 - 2^-5 ]         [ 226.25 + 2^-12  347648 + 2^-5 ]
 * and mag = sab + |beta C| + |bias| = [14 229478; 239.25 + 2^-12 347672 + 2^-5].
 * All of them exact in float64. */
static const unsigned char hand_a[2][3] = {{0x38, 0x40, 0xb0}, {0x7e, 0x01, 0x3c}};
static const unsigned char hand_b[3][2] = {{0x3c, 0xc0}, {0x34, 0x44}, {0x42, 0x7b}};
static const float hand_c[4] = {1, 2, 3, 4}, hand_bias[2] = {10, -20}, hand_ra[2] = {1, -0.5f}, hand_cb[2] = {0.25f, 2};
static const double hand_x[4] = {9, -229350, -219.25 - 0x1p-12, -340504 - 0x1p-5};
static const double hand_sab[4] = {3, 229456, 226.25 + 0x1p-12, 347648 + 0x1p-5};
static const double hand_mag[4] = {14, 229478, 239.25 + 0x1p-12, 347672 + 0x1p-5};

enum { PAD = 0x7f }; /* a NaN byte of both types: padding that must not be read */

/* hand_a and hand_b stored in `layout` (bit 1: A transposed, bit 0: B
 * transposed) with leading dimensions 2 past the stored rows, the padding
 * NaN bytes. */
static void store_hand(int layout, unsigned char *a, size_t *lda, unsigned char *b, size_t *ldb)
{
    const int ta = layout >> 1, tb = layout & 1;
    *lda = (ta ? 2 : 3) + 2, *ldb = (tb ? 3 : 2) + 2;
    memset(a, PAD, 16), memset(b, PAD, 16);
    for (int i = 0; i < 2; ++i)
        for (int p = 0; p < 3; ++p) a[ta ? p * *lda + i : i * *lda + p] = hand_a[i][p];
    for (int p = 0; p < 3; ++p)
        for (int j = 0; j < 2; ++j) b[tb ? j * *ldb + p : p * *ldb + j] = hand_b[p][j];
}

static void test_reference(void)
{
    double ref[8], sab[8], mag[8];
    for (int layout = 0; layout < 4; ++layout) {
        unsigned char a[16], b[16];
        size_t lda, ldb;
        store_hand(layout, a, &lda, b, &ldb);
        gk_gemm_desc d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 2, 2, 3);
        d.type_a = GK_GEMM_TYPE_E4M3, d.type_b = GK_GEMM_TYPE_E5M2;
        d.op_a = (layout >> 1) ? GK_GEMM_OP_T : GK_GEMM_OP_N, d.op_b = (layout & 1) ? GK_GEMM_OP_T : GK_GEMM_OP_N;
        d.lda = lda, d.ldb = ldb, d.alpha = 2.0f, d.beta = -1.0f, d.epilogue = GK_GEMM_EPILOGUE_BIAS;
        int rc = gk_gemm_fp8_ref(&d, a, b, hand_c, hand_bias, 0.5, 4.0, hand_ra, hand_cb, ref, sab, mag);
        int ok = rc == 0;
        for (int i = 0; i < 4; ++i) ok &= ref[i] == hand_x[i] && sab[i] == hand_sab[i] && mag[i] == hand_mag[i];
        CHECK(ok, "layout %c%c: the product worked by hand (%.17g %.17g %.17g %.17g)", (layout >> 1) ? 't' : 'n',
              (layout & 1) ? 't' : 'n', ref[0], ref[1], ref[2], ref[3]);
        /* ReLU and GELU on the same values (mag unchanged). */
        for (int e = GK_GEMM_EPILOGUE_BIAS_RELU; e <= GK_GEMM_EPILOGUE_BIAS_GELU; ++e) {
            d.epilogue = (gk_gemm_epilogue)e;
            gk_gemm_fp8_ref(&d, a, b, hand_c, hand_bias, 0.5, 4.0, hand_ra, hand_cb, ref, sab, mag);
            int eok = 1;
            for (int i = 0; i < 4; ++i) eok &= ref[i] == gk_gemm_epilogue_ref(e, hand_x[i]) && mag[i] == hand_mag[i];
            CHECK(eok, "layout %d, %s", layout, gk_gemm_epilogue_name((gk_gemm_epilogue)e));
        }
    }
    /* Without the options: the plain product (alpha 1, no scales, beta 0
     * over a NaN C, no epilogue), the dense leading dimensions (0). */
    unsigned char a[6], b[6];
    memcpy(a, hand_a, 6), memcpy(b, hand_b, 6);
    const float nan_c[4] = {NAN, NAN, NAN, NAN};
    gk_gemm_desc d = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 2, 2, 3);
    d.type_a = GK_GEMM_TYPE_E4M3, d.type_b = GK_GEMM_TYPE_E5M2;
    gk_gemm_fp8_ref(&d, a, b, nan_c, NULL, 1.0, 1.0, NULL, NULL, ref, sab, mag);
    CHECK(ref[0] == 0 && ref[1] == -28666 && ref[2] == 452.5 + 0x1p-11 && ref[3] == 85120 + 0x1p-7 && sab[0] == 3 &&
              sab[3] == 86912 + 0x1p-7 && mag[1] == 28682,
          "plain: A B and sum |a b| (%g %g %g %g)", ref[0], ref[1], ref[2], ref[3]);
    /* A batch of 2: A broadcast (stride 0), B_1 = -B_0 (sign bits flipped),
     * C_1 after a gap: product 1 is (-A B) scaled, plus its own beta C. */
    unsigned char b2[16];
    memset(b2, PAD, sizeof b2);
    for (int i = 0; i < 6; ++i) b2[i] = b[i], b2[8 + i] = (unsigned char)(b[i] ^ 0x80);
    const float c2[9] = {1, 2, 3, 4, NAN, 5, 6, 7, 8};
    d.batch = 2, d.stride_a = 0, d.stride_b = 8, d.stride_c = 5, d.beta = 0.5f;
    gk_gemm_fp8_ref(&d, a, b2, c2, NULL, 1.0, 1.0, NULL, NULL, ref, sab, mag);
    CHECK(ref[0] == 0.5 && ref[1] == -28666 + 1 && ref[4] == -0.0 + 2.5 && ref[5] == 28666 + 3 &&
              ref[7] == -(85120 + 0x1p-7) + 4 && sab[7] == 86912 + 0x1p-7 && mag[7] == 86912 + 0x1p-7 + 4,
          "batch: A broadcast, B and C strided (%g %g %g %g)", ref[4], ref[5], ref[6], ref[7]);
    /* k = 0: epi(beta C + bias), A and B not read. */
    gk_gemm_desc d0 = gk_gemm_desc_init(GK_GEMM_TYPE_F16, 2, 2, 0);
    d0.type_a = d0.type_b = GK_GEMM_TYPE_E4M3, d0.beta = -3.0f, d0.epilogue = GK_GEMM_EPILOGUE_BIAS_RELU;
    gk_gemm_fp8_ref(&d0, NULL, NULL, hand_c, hand_bias, 1024.0, 1024.0, hand_ra, hand_cb, ref, sab, mag);
    CHECK(ref[0] == 7 && ref[1] == 0 && ref[2] == 1 && ref[3] == 0 && sab[0] == 0 && mag[1] == 26,
          "k = 0: relu(beta C + bias) (%g %g %g %g)", ref[0], ref[1], ref[2], ref[3]);
    /* An e4m3 NaN byte in A's row 0 makes row 0 NaN (also times a finite
     * zero-free B), row 1 untouched; an e5m2 infinity in B's column 1
     * makes column 1 infinite where the other products are finite. */
    d = gk_gemm_desc_init(GK_GEMM_TYPE_F32, 2, 2, 3);
    d.type_a = GK_GEMM_TYPE_E4M3, d.type_b = GK_GEMM_TYPE_E5M2;
    a[1] = 0x7f;
    gk_gemm_fp8_ref(&d, a, b, NULL, NULL, 1.0, 1.0, NULL, NULL, ref, sab, mag);
    CHECK(isnan(ref[0]) && isnan(ref[1]) && ref[2] == 452.5 + 0x1p-11 && ref[3] == 85120 + 0x1p-7,
          "a NaN byte propagates along its row");
    a[1] = 0x40, b[5] = 0x7c; /* B(2, 1) = +inf: column 1 = -0.5 inf, 1.5 inf */
    gk_gemm_fp8_ref(&d, a, b, NULL, NULL, 1.0, 1.0, NULL, NULL, ref, sab, mag);
    CHECK(ref[0] == 0 && ref[1] == -INFINITY && ref[3] == INFINITY, "an e5m2 infinity propagates");
}

/* ---- The tolerance ----------------------------------------------------------- */

static void test_tolerance(void)
{
    const double u = GK_FP8_ACCUM_UNIT, u32 = GK_F32_UNIT_ROUNDOFF;
    CHECK(u == 0x1p-13 && GK_FP8_PROMOTE_K == 128, "the constants");
    CHECK(gk_gemm_fp8_accum_bound(0, 0) == 0 && gk_gemm_fp8_accum_bound(1, 0) == 0, "k = 0: no sum, no error");
    /* One product: u (and fast_accum = 0 one fp32 addition more); each product one more factor. */
    CHECK(fabs(gk_gemm_fp8_accum_bound(1, 1) - u) < 1e-15, "fast_accum = 1, k = 1: u");
    CHECK(fabs(gk_gemm_fp8_accum_bound(1, 2) - (pow(1 + u, 2) - 1)) < 1e-15, "k = 2: two products");
    CHECK(fabs(gk_gemm_fp8_accum_bound(0, 1) - (u + u32 * (1 + u))) < 1e-15, "fast_accum = 0, k = 1: u + u32");
    /* The figures gemm_ref.h quotes: k u for fast_accum = 1, 256 u for 0. */
    CHECK(fabs(gk_gemm_fp8_accum_bound(1, 4096) - expm1(4096 * log1p(u))) < 1e-12 &&
              gk_gemm_fp8_accum_bound(1, 4096) > 0.5 && gk_gemm_fp8_accum_bound(1, 4096) < 0.65,
          "fast_accum = 1: %g at k = 4096", gk_gemm_fp8_accum_bound(1, 4096));
    CHECK(gk_gemm_fp8_accum_bound(0, 4096) > 128 * u && gk_gemm_fp8_accum_bound(0, 4096) < 0.0159 &&
              gk_gemm_fp8_accum_bound(0, 65537) < 0.0160,
          "fast_accum = 0: %g at k = 4096, %g at 65537", gk_gemm_fp8_accum_bound(0, 4096),
          gk_gemm_fp8_accum_bound(0, 65537));
    /* Never decreasing in k; promotion is never looser once there is more
     * than one chunk (k >= 129). */
    static const size_t ks[] = {1, 2, 31, 32, 33, 64, 100, 127, 128, 129, 160, 161, 256, 257, 300, 1000, 4096, 4097, 16384,
                                65537, 1u << 20, GK_GEMM_MAX_DIM};
    int mono = 1, promoted_tighter = 1;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
        for (int f = 0; f < 2; ++f)
            if (i > 0) mono &= gk_gemm_fp8_accum_bound(f, ks[i]) >= gk_gemm_fp8_accum_bound(f, ks[i - 1]);
        if (ks[i] >= 129) promoted_tighter &= gk_gemm_fp8_accum_bound(0, ks[i]) < gk_gemm_fp8_accum_bound(1, ks[i]);
    }
    CHECK(mono, "the accumulation bound grows with k");
    CHECK(promoted_tighter, "fast_accum = 0 is tighter from k = 129 on");
    CHECK(gk_gemm_fp8_accum_bound(1, 16384) / gk_gemm_fp8_accum_bound(0, 16384) > 30, "at k = 16384 by %g times",
          gk_gemm_fp8_accum_bound(1, 16384) / gk_gemm_fp8_accum_bound(0, 16384));

    /* The tolerance grows with k, sab, mag and |ref|, for every output
     * type, epilogue and mode; the output's rounding makes bf16 > f16 > f32;
     * the pre-rounding tolerance is the smaller. */
    const gk_gemm_type outs[3] = {GK_GEMM_TYPE_F32, GK_GEMM_TYPE_F16, GK_GEMM_TYPE_BF16};
    int grows = 1, order = 1, pre = 1;
    for (int f = 0; f < 2; ++f)
        for (int e = 0; e < 4; ++e) {
            for (int o = 0; o < 3; ++o) {
                const gk_gemm_type t = outs[o];
                const double base = gk_gemm_fp8_tolerance(t, e, f, 1000, 10.0, 12.0, 3.0);
                grows &= gk_gemm_fp8_tolerance(t, e, f, 5000, 10.0, 12.0, 3.0) > base;
                grows &= gk_gemm_fp8_tolerance(t, e, f, 1000, 20.0, 22.0, 3.0) > base;
                grows &= gk_gemm_fp8_tolerance(t, e, f, 1000, 10.0, 20.0, 3.0) > base;
                grows &= gk_gemm_fp8_tolerance(t, e, f, 1000, 10.0, 12.0, -6.0) > base;
                pre &= gk_gemm_fp8_tolerance_pre(e, f, 1000, 10.0, 12.0, 3.0) < base;
            }
            order &= gk_gemm_fp8_tolerance(GK_GEMM_TYPE_BF16, e, f, 100, 1.0, 1.0, 1.0) >
                         gk_gemm_fp8_tolerance(GK_GEMM_TYPE_F16, e, f, 100, 1.0, 1.0, 1.0) &&
                     gk_gemm_fp8_tolerance(GK_GEMM_TYPE_F16, e, f, 100, 1.0, 1.0, 1.0) >
                         gk_gemm_fp8_tolerance(GK_GEMM_TYPE_F32, e, f, 100, 1.0, 1.0, 1.0);
        }
    CHECK(grows, "the tolerance grows with k, sab, mag and |ref|");
    CHECK(order, "bf16's rounding > f16's > f32's");
    CHECK(pre, "the tolerance before the rounding is the smaller");
    /* A worked value: k = 100 (100 products, one chunk), sab = mag = 1, no
     * epilogue: (1 + u)^100 - 1 + u32 (1 + ...) for the sum, about 7 u32
     * for the scales, beta C and the addition, 102 u64 for the reference:
     * 0.0122811 + 4.8e-7. Then f32's rounding of |ref| = 0.5. */
    const double g100 = expm1(100.0 * log1p(u));
    const double te = gk_gemm_fp8_tolerance_pre(GK_GEMM_EPILOGUE_NONE, 0, 100, 1.0, 1.0, 0.5);
    CHECK(te > g100 + 4.5e-7 && te < g100 + 5.0e-7, "k = 100: te = %.8g", te);
    CHECK(fabs(gk_gemm_fp8_tolerance(GK_GEMM_TYPE_F32, GK_GEMM_EPILOGUE_NONE, 0, 100, 1.0, 1.0, 0.5) -
               (te + u32 * (0.5 + te))) < 1e-18,
          "f32: te + u32 (|ref| + te)");
    CHECK(fabs(gk_gemm_fp8_tolerance(GK_GEMM_TYPE_F16, GK_GEMM_EPILOGUE_NONE, 0, 100, 1.0, 1.0, 0.5) -
               (te + GK_FP16_UNIT_ROUNDOFF * (0.5 + te) + 0x1p-25)) < 1e-18,
          "f16: te + 2^-11 (|ref| + te) + 2^-25");
    /* Nothing to add up and nothing to scale (sab = mag = 0): exact, only
     * the output's rounding (and f16's subnormal half-spacing). */
    CHECK(gk_gemm_fp8_tolerance(GK_GEMM_TYPE_BF16, GK_GEMM_EPILOGUE_NONE, 1, 0, 0.0, 0.0, 2.0) ==
              GK_BF16_UNIT_ROUNDOFF * 2.0,
          "exact: bf16's rounding alone");
    /* The epilogue's steps, as gk_gemm_tolerance_ex's: the bias adds about
     * u32 mag, ReLU nothing more, GELU L (1 + 2^-16) times plus 2^-16 |ref|. */
    const double tn = gk_gemm_fp8_tolerance_pre(GK_GEMM_EPILOGUE_NONE, 1, 4096, 100.0, 150.0, 0.0);
    const double tb = gk_gemm_fp8_tolerance_pre(GK_GEMM_EPILOGUE_BIAS, 1, 4096, 100.0, 150.0, 0.0);
    const double tr = gk_gemm_fp8_tolerance_pre(GK_GEMM_EPILOGUE_BIAS_RELU, 1, 4096, 100.0, 150.0, 0.0);
    const double tg = gk_gemm_fp8_tolerance_pre(GK_GEMM_EPILOGUE_BIAS_GELU, 1, 4096, 100.0, 150.0, 0.0);
    CHECK(tb > tn && tb - tn < 1.01 * u32 * (150.0 + tn) && tr == tb, "bias: + u32 (mag + t); relu as bias");
    CHECK(fabs((tg - 0x1p-100) / tb - GK_GELU_LIPSCHITZ * (1 + GK_GELU_REL_ERROR)) < 1e-9, "gelu: L (1 + 2^-16)");
    /* k = 4096 with fast_accum = 0 and inputs of one sign (|ref| = sab):
     * the tolerance is about 1.6% of the value (128 products per chunk at
     * 2^-13 each, the worst case the model allows), so only a larger error
     * (a lost 128-k tile: 3.1% on average; a wrong row or column: far
     * more) is caught at that depth; at small k it is tight (k = 100 above). */
    const double t4096 = gk_gemm_fp8_tolerance(GK_GEMM_TYPE_F32, GK_GEMM_EPILOGUE_NONE, 0, 4096, 1000.0, 1000.0, 1000.0);
    CHECK(t4096 < 16.5 && t4096 > 15.5, "k = 4096, promoted: %g of 1000", t4096);
}

/* ---- The description, the names, the row -------------------------------------- */

static void test_desc(void)
{
    for (int t = GK_GEMM_TYPE_F32; t <= GK_GEMM_TYPE_E5M2; ++t) {
        const gk_gemm_desc d = gk_gemm_desc_init((gk_gemm_type)t, 3, 5, 7);
        CHECK(d.type_a == (gk_gemm_type)t && d.type_b == (gk_gemm_type)t, "type_a, type_b default to type (%d)", t);
        CHECK(d.scale_a == NULL && d.scale_b == NULL && d.scale_a_rows == NULL && d.scale_b_cols == NULL &&
                  d.amax == NULL && d.fast_accum == 0,
              "no scales, no amax, fast_accum 0 (%d)", t);
        CHECK(d.alpha == 1.0f && d.beta == 0.0f && d.batch == 1 && d.epilogue == GK_GEMM_EPILOGUE_NONE &&
                  d.compute == GK_GEMM_COMPUTE_DEFAULT,
              "the other defaults (%d)", t);
    }
    CHECK(strcmp(gk_gemm_type_name(GK_GEMM_TYPE_E4M3), "e4m3") == 0 &&
              strcmp(gk_gemm_type_name(GK_GEMM_TYPE_E5M2), "e5m2") == 0,
          "type names e4m3, e5m2");
    const char *u = gk_gemm_type_name((gk_gemm_type)5);
    CHECK(u != NULL && strcmp(u, "e5m2") != 0 && strcmp(u, "e4m3") != 0, "an unknown type: %s", u ? u : "(null)");
    CHECK(strcmp(gk_gemm_precision_name(GK_GEMM_FP8), "fp8") == 0, "precision name fp8");
    const gk_gemm_variant *v = gk_gemm_find_variant(18);
    CHECK(v != NULL, "variant 18 exists");
    if (v != NULL) {
        const unsigned want = GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) |
                              GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16);
        CHECK(v->id == 18 && v->precision == GK_GEMM_FP8 && v->min_cc == 90 && v->types == want && v->extended == 1,
              "row 18: fp8, cc 9.0, stores f32, bf16, f16, extended (precision %d, cc %d, types %#x)", v->precision,
              v->min_cc, v->types);
    }
    CHECK(gk_gemm_bf16_find_variant(18) == NULL && gk_gemm_best_variant() != 18 && gk_gemm_bf16_best_variant() == 17,
          "the FP8 rung is neither a 16-bit row nor the best fp32 or bf16 pick");
}

/* ---- Argument checks ----------------------------------------------------------- */

/* Host memory standing in for device memory: every call below is
 * rejected, or a workspace query, or has nothing to do (m = 0 or n = 0),
 * so nothing reads or writes it; it is compared with a copy at the end. */
static _Alignas(256) unsigned char fp_mem[4096];
static _Alignas(256) unsigned char fp_ws[1024];

/* An FP8 description of M x N x K with C of type tc. */
enum { M = 4, N = 6, K = 8 };
static gk_gemm_desc fp8_desc(gk_gemm_type ta, gk_gemm_type tb, gk_gemm_type tc)
{
    gk_gemm_desc d = gk_gemm_desc_init(tc, M, N, K);
    d.type_a = ta, d.type_b = tb;
    return d;
}

static void test_fp8_arguments(void)
{
    unsigned char *a = fp_mem, *b = fp_mem + 512, *c = fp_mem + 1024, *bias = fp_mem + 2048;
    float *scales = (float *)(fp_mem + 3072); /* [0] sa, [1] sb, [4..7] rows, [16..21] cols, [32] amax */
    unsigned char *ws = fp_ws;
    for (size_t i = 0; i < sizeof fp_mem; ++i) fp_mem[i] = (unsigned char)(i * 37 + 11);
    for (size_t i = 0; i < sizeof fp_ws; ++i) fp_ws[i] = (unsigned char)(i * 53 + 7);
    unsigned char mem_copy[sizeof fp_mem], ws_copy[sizeof fp_ws];
    memcpy(mem_copy, fp_mem, sizeof fp_mem);
    memcpy(ws_copy, fp_ws, sizeof fp_ws);
    const gk_gemm_type E4 = GK_GEMM_TYPE_E4M3, E5 = GK_GEMM_TYPE_E5M2;
    const gk_gemm_type ctypes[3] = {GK_GEMM_TYPE_F32, GK_GEMM_TYPE_BF16, GK_GEMM_TYPE_F16};
    const gk_gemm_type pairs[3][2] = {{E4, E4}, {E4, E5}, {E5, E4}};
    size_t bytes = 0;

    /* The types (check_desc's first checks, before any other). */
    gk_gemm_desc d = fp8_desc(E4, E4, GK_GEMM_TYPE_BF16), e;
    e = d, e.type = (gk_gemm_type)5;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.type_a = (gk_gemm_type)5; /* type_b e4m3: FP8, so type_a is read */
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.type_b = (gk_gemm_type)-1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.type_b = GK_GEMM_TYPE_BF16; /* one FP8 operand beside a wider one */
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    e = d, e.type_a = GK_GEMM_TYPE_F32, e.type_b = E5;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    for (int t = 0; t < 3; ++t) { /* e5m2 x e5m2: not offered, whatever C */
        e = fp8_desc(E5, E5, ctypes[t]);
        REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
        REJECT(gk_gemm_ex(GK_GEMM_AUTO, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
        e.m = 0; /* even with nothing to compute */
        REJECT(gk_gemm_ex(18, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    }
    e = fp8_desc(E4, E4, E4); /* C in FP8 */
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    e = fp8_desc(E4, E5, E5);
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    /* type E4M3 without FP8 inputs: an input type where C's belongs. */
    e = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, M, N, K);
    e.type = E4;
    REJECT(gk_gemm_ex(17, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    /* Scales and amax without FP8 inputs: each alone, on a variant that
     * would take the rest (17, bf16), and on 18. */
    for (int s = 0; s < 5; ++s) {
        e = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, M, N, K);
        if (s == 0) e.scale_a = scales;
        if (s == 1) e.scale_b = scales + 1;
        if (s == 2) e.scale_a_rows = scales + 4;
        if (s == 3) e.scale_b_cols = scales + 16;
        if (s == 4) e.amax = scales + 32;
        REJECT(gk_gemm_ex(17, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
        REJECT(gk_gemm_ex(17, &e, a, b, c, ws, &bytes, 0), GK_ERROR_UNSUPPORTED);
        REJECT(gk_gemm_ex(GK_GEMM_AUTO, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
        e.type = e.type_a = e.type_b = GK_GEMM_TYPE_F32;
        REJECT(gk_gemm_ex(10, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    }
    /* fast_accum: 0 or 1, for FP8 and for the others. */
    e = d, e.fast_accum = 2;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e.fast_accum = -1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, M, N, K), e.fast_accum = 3;
    REJECT(gk_gemm_ex(17, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    /* compute TF32: for fp32 storage only (INVALID_ARGUMENT with a bf16 C),
     * and not with FP8 inputs (UNSUPPORTED with an f32 C). */
    e = d, e.compute = GK_GEMM_COMPUTE_TF32;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = fp8_desc(E4, E4, GK_GEMM_TYPE_F32), e.compute = GK_GEMM_COMPUTE_TF32;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    REJECT(gk_gemm_ex(GK_GEMM_AUTO, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);

    /* FP8 inputs take variant 18 alone; 18 takes FP8 inputs alone. */
    for (size_t vi = 0; vi < gk_gemm_variant_count(); ++vi) {
        const int id = gk_gemm_variant_at(vi)->id;
        for (int t = 0; t < 3; ++t) {
            e = fp8_desc(E4, E4, ctypes[t]);
            if (id == 18) continue;
            REJECT(gk_gemm_ex(id, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
            REJECT(gk_gemm_ex(id, &e, a, b, c, ws, &bytes, 0), GK_ERROR_UNSUPPORTED);
        }
    }
    for (int t = 0; t < 3; ++t) {
        e = gk_gemm_desc_init(ctypes[t], M, N, K);
        REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
        e.m = 0;
        REJECT(gk_gemm_ex(18, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    }
    e = d;
    REJECT(gk_gemm_ex((int)gk_gemm_variant_count() + 1, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);

    /* The shape checks, FP8 as any other: leading dimensions of the stored
     * layouts, batch 0, dimensions past 2^31 - 1, outputs that overlap. */
    e = d, e.lda = K - 1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.op_a = GK_GEMM_OP_T, e.lda = M - 1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.ldb = N - 1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.op_b = GK_GEMM_OP_T, e.ldb = K - 1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.ldc = N - 1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.batch = 0;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.k = GK_GEMM_MAX_DIM + 1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.batch = 2, e.stride_c = M * N - 1;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    /* FP8 elements are bytes: A's extent is counted in bytes against 2^62.
     * 2 rows 2^61 apart span 2^61 + 8 bytes (taken; a bf16 A would span
     * 2^62 + 16 bytes); 3 rows span 2^62 + 8 (rejected). */
    e = d, e.m = 2, e.lda = (size_t)1 << 61;
    bytes = 0;
    EXPECT(gk_gemm_ex(18, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
    gk_gemm_desc e16 = gk_gemm_desc_init(GK_GEMM_TYPE_BF16, 2, N, K);
    e16.lda = (size_t)1 << 61;
    REJECT(gk_gemm_ex(17, &e16, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e.m = 3;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    /* C's extent in C's elements: 3 rows of an f32 C 2^59 apart span 2^62 + 24 bytes. */
    e = fp8_desc(E4, E4, GK_GEMM_TYPE_F32), e.m = 3, e.ldc = (size_t)1 << 59;
    REJECT(gk_gemm_ex(18, &e, a, b, c, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);

    /* The workspace query of variant 18: for every pair and C type, every
     * layout, a batch, an epilogue, scales and amax, offset pointers: a
     * success, whole granules, never 0, the same twice; NULL pointers count
     * as aligned; a, b off 16-byte boundaries (where the kernel copies)
     * never need less. */
    int query_ok = 1;
    for (int pi = 0; pi < 3; ++pi)
        for (int t = 0; t < 3; ++t)
            for (int layout = 0; layout < 4; ++layout) {
                e = fp8_desc(pairs[pi][0], pairs[pi][1], ctypes[t]);
                e.op_a = (layout >> 1) ? GK_GEMM_OP_T : GK_GEMM_OP_N, e.op_b = (layout & 1) ? GK_GEMM_OP_T : GK_GEMM_OP_N;
                e.batch = 3, e.stride_a = M * K + 5, e.stride_b = layout == 1 ? 0 : N * K, e.stride_c = M * N + 3;
                e.epilogue = (gk_gemm_epilogue)layout, e.bias = layout ? bias : NULL;
                e.scale_a = scales, e.scale_b = scales + 1, e.scale_a_rows = scales + 4, e.scale_b_cols = scales + 16;
                e.amax = scales + 32, e.fast_accum = t == 1;
                size_t q1 = 0, q2 = 7, q_null = 0, q_off = 0;
                const gk_status s1 = gk_gemm_ex(18, &e, a, b, c, NULL, &q1, 0);
                const gk_status s2 = gk_gemm_ex(18, &e, a, b, c, NULL, &q2, 0);
                const gk_status s3 = gk_gemm_ex(18, &e, NULL, NULL, NULL, NULL, &q_null, 0);
                const gk_status s4 = gk_gemm_ex(18, &e, a + 1, b + 3, c, NULL, &q_off, 0);
                const int ok = gk_ok(s1) && gk_ok(s2) && gk_ok(s3) && gk_ok(s4) && q1 >= 256 && q1 % 256 == 0 &&
                               q2 == q1 && q_null == q1 && q_off >= q1 && q_off % 256 == 0;
                if (!ok)
                    printf("  query %s x %s -> %s, layout %d: %s %s %s %s, %zu %zu %zu %zu bytes\n",
                           gk_gemm_type_name(pairs[pi][0]), gk_gemm_type_name(pairs[pi][1]),
                           gk_gemm_type_name(ctypes[t]), layout, gk_status_string(s1.code), gk_status_string(s2.code),
                           gk_status_string(s3.code), gk_status_string(s4.code), q1, q2, q_null, q_off);
                query_ok &= ok;
            }
    CHECK(query_ok, "variant 18's workspace query: every pair, type and layout");
    /* m = 0 or n = 0: the query still answers (a granule or more), and the
     * call does nothing, whatever the pointers (amax not written). */
    e = d, e.m = 0, e.amax = scales + 32, e.scale_a = scales;
    bytes = 0;
    EXPECT(gk_gemm_ex(18, &e, NULL, NULL, NULL, NULL, &bytes, 0), GK_SUCCESS);
    CHECK(bytes >= 256 && bytes % 256 == 0, "m = 0: %zu bytes", bytes);
    EXPECT(gk_gemm_ex(18, &e, NULL, NULL, NULL, ws, &bytes, 0), GK_SUCCESS);
    e.m = M, e.n = 0;
    EXPECT(gk_gemm_ex(18, &e, NULL, NULL, NULL, ws, &bytes, 0), GK_SUCCESS);
    EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &e, NULL, NULL, NULL, ws, &bytes, 0), GK_SUCCESS);

    /* After the query: the workspace (too small by a granule: nothing
     * written, *workspace_bytes kept; not 16-byte aligned), then the
     * pointers, in each C type. `need` is the query's answer, which each
     * call below claims to have: every one is rejected before anything is
     * launched or written. */
    for (int t = 0; t < 3; ++t) {
        const size_t elem = t == 0 ? 4 : 2;
        d = fp8_desc(E4, E5, ctypes[t]);
        size_t need = 0;
        EXPECT(gk_gemm_ex(18, &d, a, b, c, NULL, &need, 0), GK_SUCCESS);
        bytes = need - 256;
        EXPECT(gk_gemm_ex(18, &d, a, b, c, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        CHECK(bytes == need - 256, "too small: *workspace_bytes kept (%zu)", bytes);
        bytes = 0;
        EXPECT(gk_gemm_ex(18, &d, a, b, c, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        bytes = need;
        EXPECT(gk_gemm_ex(18, &d, a, b, c, ws + 8, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
#define REJECT_CALL(desc, pa, pb, pc, code)                                                                    \
    do {                                                                                                      \
        bytes = need;                                                                                         \
        EXPECT(gk_gemm_ex(18, &(desc), pa, pb, pc, ws, &bytes, 0), code);                                     \
        CHECK(bytes == need, "*workspace_bytes kept (%zu)", bytes);                                           \
    } while (0)
        REJECT_CALL(d, a, b, NULL, GK_ERROR_NULL_POINTER);
        REJECT_CALL(d, NULL, b, c, GK_ERROR_NULL_POINTER);
        REJECT_CALL(d, a, NULL, c, GK_ERROR_NULL_POINTER);
        e = d, e.epilogue = GK_GEMM_EPILOGUE_BIAS_GELU; /* bias NULL */
        REJECT_CALL(e, a, b, c, GK_ERROR_NULL_POINTER);
        e.k = 0; /* k = 0 still adds the bias (A and B may be NULL) */
        REJECT_CALL(e, NULL, NULL, c, GK_ERROR_NULL_POINTER);
        e = d, e.k = 0; /* k = 0 needs C */
        REJECT_CALL(e, NULL, NULL, NULL, GK_ERROR_NULL_POINTER);
        /* C and the bias aligned to C's element; the scales and amax to 4 bytes. */
        REJECT_CALL(d, a, b, c + 1, GK_ERROR_INVALID_ARGUMENT);
        if (elem == 4) REJECT_CALL(d, a, b, c + 2, GK_ERROR_INVALID_ARGUMENT);
        e = d, e.epilogue = GK_GEMM_EPILOGUE_BIAS, e.bias = bias + 1;
        REJECT_CALL(e, a, b, c, GK_ERROR_INVALID_ARGUMENT);
        if (elem == 4) {
            e.bias = bias + 2;
            REJECT_CALL(e, a, b, c, GK_ERROR_INVALID_ARGUMENT);
        }
        const unsigned char *sbase = (const unsigned char *)scales;
        for (int s = 0; s < 5; ++s)
            for (int off = 1; off <= 2; ++off) {
                e = d;
                const float *p = (const float *)(sbase + 64 * s + off);
                if (s == 0) e.scale_a = p;
                if (s == 1) e.scale_b = p;
                if (s == 2) e.scale_a_rows = p;
                if (s == 3) e.scale_b_cols = p;
                if (s == 4) e.amax = (float *)(fp_mem + 3072 + 64 * s + off);
                REJECT_CALL(e, a, b, c, GK_ERROR_INVALID_ARGUMENT);
            }
#undef REJECT_CALL
    }

    /* GK_GEMM_AUTO: variant 18 for FP8 inputs, never split (split-K is for
     * fp32 storage on variants 10 and 12), the same workspace as naming 18. */
    for (int pi = 0; pi < 3; ++pi)
        for (int t = 0; t < 3; ++t) {
            e = fp8_desc(pairs[pi][0], pairs[pi][1], ctypes[t]);
            e.m = e.n = 256, e.k = 65536; /* a shape the fp32 rule would split */
            int id = -1;
            size_t splits = 0, q_auto = 0, q18 = 0;
            EXPECT(gk_gemm_auto_variant(&e, &id, &splits), GK_SUCCESS);
            CHECK(id == 18 && splits == 1, "auto %s x %s -> %s: variant %d, %zu slices", gk_gemm_type_name(pairs[pi][0]),
                  gk_gemm_type_name(pairs[pi][1]), gk_gemm_type_name(ctypes[t]), id, splits);
            EXPECT(gk_gemm_ex(GK_GEMM_AUTO, &e, NULL, NULL, NULL, NULL, &q_auto, 0), GK_SUCCESS);
            EXPECT(gk_gemm_ex(18, &e, NULL, NULL, NULL, NULL, &q18, 0), GK_SUCCESS);
            CHECK(q_auto == q18, "auto: the workspace of 18 (%zu, %zu)", q_auto, q18);
        }
    int id = 42;
    e = fp8_desc(E5, E5, GK_GEMM_TYPE_BF16);
    EXPECT(gk_gemm_auto_variant(&e, &id, NULL), GK_ERROR_UNSUPPORTED);
    CHECK(id == 42, "nothing stored on a failure (%d)", id);

    CHECK(memcmp(mem_copy, fp_mem, sizeof fp_mem) == 0 && memcmp(ws_copy, fp_ws, sizeof fp_ws) == 0,
          "nothing written to A, B, C, the bias, the scales, amax or the workspace");
}

static void test_quantize_arguments(void)
{
    static _Alignas(256) float x[64];
    static _Alignas(256) unsigned char out[64];
    static _Alignas(16) float amax[4];
    for (int i = 0; i < 64; ++i) x[i] = (float)i, out[i] = 0xa5;
    amax[0] = amax[1] = -7.0f;
    const gk_gemm_type not_fp8[] = {GK_GEMM_TYPE_F32, GK_GEMM_TYPE_BF16, GK_GEMM_TYPE_F16, (gk_gemm_type)5,
                                    (gk_gemm_type)-1};
    for (size_t i = 0; i < sizeof not_fp8 / sizeof not_fp8[0]; ++i) {
        EXPECT(gk_gemm_fp8_quantize(not_fp8[i], x, 64, 1.0f, out, amax, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_fp8_quantize(not_fp8[i], NULL, 0, 1.0f, NULL, NULL, 0), GK_ERROR_INVALID_ARGUMENT);
    }
    for (int ti = 0; ti < 2; ++ti) {
        const gk_gemm_type t = k_fp8[ti];
        /* count = 0: nothing to do, whatever the pointers; amax not written. */
        EXPECT(gk_gemm_fp8_quantize(t, NULL, 0, 1.0f, NULL, amax, 0), GK_SUCCESS);
        EXPECT(gk_gemm_fp8_quantize(t, x, 0, 1.0f, out, amax, 0), GK_SUCCESS);
        EXPECT(gk_gemm_fp8_quantize(t, (const float *)((char *)x + 1), 0, 1.0f, out, amax + 1, 0), GK_SUCCESS);
        EXPECT(gk_gemm_fp8_quantize(t, NULL, 64, 1.0f, out, amax, 0), GK_ERROR_NULL_POINTER);
        EXPECT(gk_gemm_fp8_quantize(t, x, 64, 1.0f, NULL, amax, 0), GK_ERROR_NULL_POINTER);
        EXPECT(gk_gemm_fp8_quantize(t, (const float *)((char *)x + 1), 63, 1.0f, out, amax, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_fp8_quantize(t, (const float *)((char *)x + 2), 63, 1.0f, out, NULL, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_fp8_quantize(t, x, 64, 1.0f, out, (float *)((char *)amax + 2), 0), GK_ERROR_INVALID_ARGUMENT);
        /* 2^60 floats span 2^62 bytes: offsets would overflow. */
        EXPECT(gk_gemm_fp8_quantize(t, x, (size_t)1 << 60, 1.0f, out, amax, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_gemm_fp8_quantize(t, x, SIZE_MAX, 1.0f, out, NULL, 0), GK_ERROR_INVALID_ARGUMENT);
    }
    int untouched = amax[0] == -7.0f && amax[1] == -7.0f;
    for (int i = 0; i < 64; ++i) untouched &= out[i] == 0xa5 && x[i] == (float)i;
    CHECK(untouched, "rejected and empty calls wrote nothing");
}

int main(void)
{
    test_decode();
    test_encode();
    test_reference();
    test_tolerance();
    test_desc();
    test_fp8_arguments();
    test_quantize_arguments();
    return check_summary("test_gemm_fp8_cpu");
}
