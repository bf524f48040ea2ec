/* bench_gemm.h: what the gemm module's two bench files share (not
 * installed): the size syntax of --sizes, "N" (a cube) or "MxNxK", each
 * from 1 to 2^31 - 1 (gk_parse_size's forms, so "2^12" works), read into a
 * three-dimension shape, and the shape written back the same way. Defined
 * in bench_gemm.c; bench_gemm_fp8.c's module uses them too. */
#ifndef GK_GEMM_BENCH_GEMM_H
#define GK_GEMM_BENCH_GEMM_H

#include <stddef.h>

#include "bench.h"

int gk_gemm_bench_parse_size(const char *s, gk_bench_shape *shape, char *err, size_t err_size);
void gk_gemm_bench_format_size(const gk_bench_shape *shape, char *buf, size_t size);

#endif /* GK_GEMM_BENCH_GEMM_H */
