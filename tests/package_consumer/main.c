/* Uses the installed library without a GPU: the table and the workspace
 * query run on the host. */
#include <stdio.h>

#include <gk/reduce.h>

int main(void)
{
    size_t bytes = 0;
    gk_status s = gk_reduce(gk_reduce_best_variant(), GK_F32, GK_REDUCE_SUM, NULL, 1000, NULL, NULL, &bytes, 0);
    printf("consumer: %zu reduce variants, best %d, workspace %zu bytes, %s\n", gk_reduce_variant_count(),
           gk_reduce_best_variant(), bytes, gk_status_string(s.code));
    return gk_ok(s) && bytes > 0 ? 0 : 1;
}
