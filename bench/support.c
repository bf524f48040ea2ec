/* Helpers for the modules' bench files: see bench.h. */
#include "bench.h"

#include "cli.h"
#include "gk/cuda_check.h"

int gk_bench_parse_count(const char *s, size_t min, size_t max, const char *not_a_count, const char *too_large,
                         gk_bench_shape *shape, char *err, size_t err_size)
{
    size_t n;
    if (gk_parse_size(s, &n) != 0 || n < min) {
        snprintf(err, err_size, "%s", not_a_count);
        return 1;
    }
    if (n > max) {
        snprintf(err, err_size, "%s", too_large);
        return 1;
    }
    shape->v[0] = n;
    shape->count = 1;
    return 0;
}

void gk_bench_format_count(const gk_bench_shape *shape, char *buf, size_t size)
{
    gk_format_size(shape->v[0], buf, size);
}

gk_status gk_bench_poisoned_workspace(void **ws, size_t *ws_bytes, size_t need, int poison)
{
    if (need > *ws_bytes) {
        cudaFree(*ws);
        *ws = NULL;
        *ws_bytes = 0;
        GK_CUDA_TRY(cudaMalloc(ws, need));
        *ws_bytes = need;
    }
    if (*ws != NULL) GK_CUDA_TRY(cudaMemset(*ws, poison, *ws_bytes));
    return gk_success();
}
