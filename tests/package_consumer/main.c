/* Uses the installed library without a GPU: the table and the workspace
 * query run on the host. */
#include <stdio.h>

#include <gk/conv.h>
#include <gk/gemm.h>
#include <gk/histogram.h>
#include <gk/reduce.h>

int main(void)
{
    size_t bytes = 0;
    gk_status s = gk_reduce(gk_reduce_best_variant(), GK_F32, GK_REDUCE_SUM, NULL, 1000, NULL, NULL, &bytes, 0);
    printf("consumer: %zu reduce variants, best %d, workspace %zu bytes, %s\n", gk_reduce_variant_count(),
           gk_reduce_best_variant(), bytes, gk_status_string(s.code));
    /* An empty product is a success that touches nothing; an unknown variant is not. */
    gk_status g = gk_gemm(gk_gemm_best_variant(), 0, 0, 0, 1.0f, NULL, 0, NULL, 0, 0.0f, NULL, 0, 0);
    gk_status bad = gk_gemm(99, 1, 1, 1, 1.0f, NULL, 1, NULL, 1, 0.0f, NULL, 1, 0);
    printf("consumer: %zu gemm variants, best %d (%s), empty product %s, variant 99 %s\n", gk_gemm_variant_count(),
           gk_gemm_best_variant(), gk_gemm_precision_name(gk_gemm_find_variant(gk_gemm_best_variant())->precision),
           gk_status_string(g.code), gk_status_string(bad.code));
    size_t hbytes = 0;
    gk_status h = gk_histogram(gk_histogram_best_variant(), GK_U8, NULL, 1000, 256, NULL, NULL, &hbytes, 0);
    printf("consumer: %zu histogram variants, workspace %zu bytes, %s\n", gk_histogram_variant_count(), hbytes,
           gk_status_string(h.code));
    size_t cbytes = 0, untouched = 0;
    gk_status c = gk_conv1d(gk_conv_best_variant(7), NULL, 1000, NULL, 7, NULL, NULL, &cbytes, 0);
    gk_status c0 = gk_conv1d(gk_conv_best_variant(7), NULL, 1000, NULL, 0, NULL, NULL, &untouched, 0);
    printf("consumer: %zu conv variants, best %d at width 7 and %d at width 1023, workspace %zu bytes, %s, width 0 %s\n",
           gk_conv_variant_count(), gk_conv_best_variant(7), gk_conv_best_variant(1023), cbytes,
           gk_status_string(c.code), gk_status_string(c0.code));
    return gk_ok(s) && bytes > 0 && gk_ok(g) && bad.code == GK_ERROR_UNKNOWN_VARIANT && gk_ok(h) && hbytes > 0 &&
                   gk_ok(c) && cbytes > 0 && c0.code == GK_ERROR_INVALID_ARGUMENT && untouched == 0
               ? 0
               : 1;
}
