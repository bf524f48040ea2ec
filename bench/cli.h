/* cli.h: gk_bench's command line, parsed without touching the GPU (tested on
 * machines without one). */
#ifndef GK_BENCH_CLI_H
#define GK_BENCH_CLI_H

#include <stddef.h>
#include <stdint.h>

#define GK_CLI_MAX_LIST 64

typedef struct gk_bench_cli {
    const char *module;          /* NULL: every module */
    int variants[GK_CLI_MAX_LIST];
    int num_variants;            /* 0: every variant */
    size_t sizes[GK_CLI_MAX_LIST];
    int num_sizes;               /* 0: the module's defaults */
    const char *dtype, *op;      /* NULL: the module's default */
    int warmup, min_iters, max_iters;
    double seconds;              /* per case, after min_iters */
    int hot;                     /* 1: do not flush L2 between samples */
    int no_reference;            /* 1: skip the reference library */
    int csv;                     /* 1: CSV on stdout instead of the table */
    const char *json_path;       /* NULL: no JSON; "-": stdout */
    int list, help, quiet;
    uint64_t seed;
} gk_bench_cli;

/* 0 on success; otherwise non-zero with a message in err. */
int gk_bench_parse(int argc, char **argv, gk_bench_cli *cli, char *err, size_t err_size);

/* "1048576", "2^20", "2^20+13", "2^24-1", "4Ki", "16Mi", "1Gi": 0 on success. */
int gk_parse_size(const char *s, size_t *out);

/* Writes "2^20", "2^20+13" or "1000" (whichever is shortest to read). */
void gk_format_size(size_t n, char *buf, size_t size);

extern const char gk_bench_usage[];

#endif /* GK_BENCH_CLI_H */
