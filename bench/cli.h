/* cli.h: gk_bench's command line, parsed without touching the GPU (tested on
 * machines without one). */
#ifndef GK_BENCH_CLI_H
#define GK_BENCH_CLI_H

#include <stddef.h>
#include <stdint.h>

#define GK_CLI_MAX_LIST 64
#define GK_CLI_MAX_PARAMS 16
#define GK_CLI_ITEM 64 /* the longest item of a list, with its terminating zero */

typedef struct gk_bench_cli {
    const char *module;          /* NULL: every module */
    int variants[GK_CLI_MAX_LIST];
    int num_variants;            /* 0: every variant */
    const char *sizes;           /* NULL: the module's defaults; else a comma-separated
                                    list of size strings that each module parses itself */
    char sizes_file[GK_CLI_MAX_LIST * GK_CLI_ITEM]; /* --sizes @FILE: the file's sizes, joined by commas */
    const char *params[GK_CLI_MAX_PARAMS]; /* "key=v1,v2" from --param (--dtype X is
                                    dtype=X, --op X is op=X) */
    int num_params;
    const char *baseline;        /* --vs: a variant id or a comparison key (default "1") */
    int no_skip;                 /* 1: run slow variants at every size */
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

/* One count, for the modules' size parsers: "1048576", "2^20", "2^20+13",
 * "2^24-1", "4Ki", "16Mi", "1Gi": 0 on success. */
int gk_parse_size(const char *s, size_t *out);

/* For a module parameter that takes any positive count (its `accepts`,
 * bench.h): non-zero when gk_parse_size reads `value` and it is >= 1. */
int gk_accepts_positive_count(const char *value);

/* Writes "2^20", "2^20+13" or "1000" (whichever is shortest to read). */
void gk_format_size(size_t n, char *buf, size_t size);

/* Splits "a,b,c" into at most max items of at most GK_CLI_ITEM - 1
 * characters. Returns the count, or -1 when an item is empty or too long,
 * or there are more than max. */
int gk_split_list(const char *s, char (*items)[GK_CLI_ITEM], int max);

extern const char gk_bench_usage[];

#endif /* GK_BENCH_CLI_H */
