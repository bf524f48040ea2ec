/* cli.h: gk_bench's command line, parsed without touching the GPU (tested on
 * machines without one). */
#ifndef GK_BENCH_CLI_H
#define GK_BENCH_CLI_H

#include <stddef.h>
#include <stdint.h>

#define GK_CLI_MAX_LIST 64   /* variant ids, and the values of one parameter */
#define GK_CLI_MAX_SIZES 256 /* the shapes one module runs (--sizes, sweeps expanded; --sizes @FILE) */
#define GK_CLI_MAX_PARAMS 16
#define GK_CLI_ITEM 64 /* the longest item of a list, with its terminating zero */

typedef struct gk_bench_cli {
    const char *module;          /* NULL: every module */
    int variants[GK_CLI_MAX_LIST];
    int num_variants;            /* 0: every variant */
    const char *sizes;           /* NULL: the module's defaults; else a comma-separated
                                    list of size strings that each module parses itself,
                                    and sweeps (gk_sweep below) that the runner draws */
    char sizes_file[GK_CLI_MAX_SIZES * GK_CLI_ITEM]; /* --sizes @FILE: the file's sizes, joined by commas */
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

/* ---- Shape sweeps: --sizes sweep:N[:LO..HI[:SEED]] --------------------------
 *
 * N shapes for a module whose sizes are its axes joined by 'x' (gemm's
 * "m x n x k", written 4097x3001x2049; conv2d's "rows x cols"; reduce's one
 * "n"), each side drawn log-uniformly from the integers LO to HI: side =
 * floor(exp(log LO + u (log(HI + 1) - log LO))), u uniform in [0, 1) (53
 * bits of gk/random.h's splitmix64 stream from SEED), clamped to [LO, HI];
 * so P(side = s) = log((s + 1) / s) / log((HI + 1) / LO), and each octave
 * of [LO, HI] gets about as many sides as any other. Defaults: LO = 1,
 * HI = 8192, SEED = 2026 ("sweep:100" is sweep:100:1..8192:2026). The sides
 * come in shape order, axis by axis, from one stream: the same spelling
 * gives the same shapes on every run and machine (for a libm whose exp and
 * log are within a few ulps, which moves a side only when a draw lies that
 * close to an integer; gk_sweep_sides reports how close the nearest came),
 * and sweep:M is the first M shapes of sweep:N for M < N. The runner draws
 * them (bench/main.c), writes each shape as the module's size string and
 * has the module parse it, after asking it to parse the smallest and
 * largest shape (sides LO and HI), so that a range the module does not
 * take is refused before any is drawn. */
#define GK_SWEEP_DEFAULT_LO 1
#define GK_SWEEP_DEFAULT_HI 8192
#define GK_SWEEP_DEFAULT_SEED 2026
#define GK_SWEEP_MAX_SIDE ((size_t)1 << 52) /* every side an exact double */

typedef struct gk_sweep {
    int count;     /* N, 1 to GK_CLI_MAX_SIZES */
    size_t lo, hi; /* 1 <= LO <= HI <= GK_SWEEP_MAX_SIDE */
    uint64_t seed;
} gk_sweep;

/* Non-zero when the size string s is spelt as a sweep ("sweep" first),
 * whether or not the rest is right: gk_parse_sweep says. */
int gk_is_sweep(const char *s);

/* "sweep:N", "sweep:N:LO..HI" or "sweep:N:LO..HI:SEED" into *sw (N, LO and
 * HI in gk_parse_size's forms, so 1..2^13 works; SEED a non-negative
 * integer): 0 on success; otherwise non-zero with a message in err. */
int gk_parse_sweep(const char *s, gk_sweep *sw, char *err, size_t err_size);

/* The number of axes of a module whose sizes are its axes joined by 'x',
 * read from its `axes` ("m x n x k": 3, "n": 1), or 0 when they are written
 * another way ("n:bins") or there are more than max. */
int gk_sweep_axes(const char *axes, int max);

/* Draws the sweep's sides: sides[i * axes + a] is axis a of shape i, for
 * i < sw->count. Returns how close the nearest draw came to moving a side:
 * the smallest |x - j| / x over the draws x and the integers j with LO < j
 * <= HI, whose floor a draw that close could fall on either side of (1
 * when every draw lies nearest LO or HI + 1, where either floor gives the
 * same side after the clamp). */
double gk_sweep_sides(const gk_sweep *sw, int axes, size_t *sides);

/* Writes sides[0..axes) joined by 'x': "4097x3001x2049", or "4096" for one
 * axis. 0, or non-zero when that does not fit in size bytes. */
int gk_sweep_format(const size_t *sides, int axes, char *buf, size_t size);

extern const char gk_bench_usage[];

#endif /* GK_BENCH_CLI_H */
