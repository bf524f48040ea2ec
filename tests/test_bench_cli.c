/* CPU tests of gk_bench's command line (bench/cli.c), and of the shape
 * sweeps it draws (--sizes sweep:N[:LO..HI[:SEED]]). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"

static int parse(gk_bench_cli *cli, const char *line)
{
    char buf[512], err[256];
    char *argv[32] = {"gk_bench"};
    int argc = 1;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " ")) argv[argc++] = t;
    int rc = gk_bench_parse(argc, argv, cli, err, sizeof err);
    /* Strings in cli point into buf: copy what the tests look at. */
    static char module[64], json[64], sizes[GK_CLI_MAX_SIZES * GK_CLI_ITEM], vs[32], params[GK_CLI_MAX_PARAMS][80];
    if (cli->module) snprintf(module, sizeof module, "%s", cli->module), cli->module = module;
    if (cli->json_path) snprintf(json, sizeof json, "%s", cli->json_path), cli->json_path = json;
    if (cli->sizes) snprintf(sizes, sizeof sizes, "%s", cli->sizes), cli->sizes = sizes;
    if (cli->baseline) snprintf(vs, sizeof vs, "%s", cli->baseline), cli->baseline = vs;
    for (int i = 0; i < cli->num_params; ++i)
        snprintf(params[i], sizeof params[i], "%s", cli->params[i]), cli->params[i] = params[i];
    return rc;
}

/* A sweep's spelling, parsed: 0 when it is taken (err then empty). */
static int sweep_of(const char *s, gk_sweep *sw, char *err, size_t err_size)
{
    err[0] = '\0';
    return gk_parse_sweep(s, sw, err, err_size);
}

/* The shapes of a sweep that parses, drawn for `axes` axes into a new array
 * (NULL if it does not parse); *margin: gk_sweep_sides's closest call. */
static size_t *draw(const char *s, int axes, gk_sweep *sw, double *margin)
{
    char err[256];
    if (sweep_of(s, sw, err, sizeof err) != 0) return NULL;
    size_t *sides = (size_t *)malloc((size_t)sw->count * (size_t)axes * sizeof *sides);
    if (sides != NULL) *margin = gk_sweep_sides(sw, axes, sides);
    return sides;
}

/* The sweeps: spelling, defaults and refusals, the generator's
 * determinism, range and distribution. */
static void test_sweeps(void)
{
    gk_sweep sw;
    char err[256];
    CHECK(gk_is_sweep("sweep:100") && gk_is_sweep("sweep") && gk_is_sweep("sweeps") && !gk_is_sweep("4096") &&
              !gk_is_sweep("4097x3001x2049") && !gk_is_sweep(NULL),
          "what is spelt as a sweep");
    CHECK(sweep_of("sweep:100", &sw, err, sizeof err) == 0 && sw.count == 100 && sw.lo == GK_SWEEP_DEFAULT_LO &&
              sw.hi == GK_SWEEP_DEFAULT_HI && sw.seed == GK_SWEEP_DEFAULT_SEED,
          "sweep:100 takes the defaults: %s", err);
    CHECK(GK_SWEEP_DEFAULT_LO == 1 && GK_SWEEP_DEFAULT_HI == 8192 && GK_SWEEP_DEFAULT_SEED == 2026,
          "the documented defaults: 1..8192, seed 2026");
    CHECK(sweep_of("sweep:20:256..2^12:7", &sw, err, sizeof err) == 0 && sw.count == 20 && sw.lo == 256 &&
              sw.hi == 4096 && sw.seed == 7,
          "sweep:20:256..2^12:7: %s", err);
    CHECK(sweep_of("sweep:3:5..5", &sw, err, sizeof err) == 0 && sw.lo == 5 && sw.hi == 5 &&
              sw.seed == GK_SWEEP_DEFAULT_SEED,
          "LO = HI, the seed by default: %s", err);
    char max_ok[32], max_bad[32];
    snprintf(max_ok, sizeof max_ok, "sweep:%d", GK_CLI_MAX_SIZES);
    snprintf(max_bad, sizeof max_bad, "sweep:%d", GK_CLI_MAX_SIZES + 1);
    CHECK(sweep_of(max_ok, &sw, err, sizeof err) == 0 && sw.count == GK_CLI_MAX_SIZES, "%s: %s", max_ok, err);
    /* Each bad spelling is refused with a message that names what is wrong. */
    static const struct {
        const char *s, *says;
    } bad[] = {
        {"sweep", "not a sweep"},
        {"sweeps:10", "not a sweep"},
        {"sweep:", "number of shapes"},
        {"sweep:0", "number of shapes from 1"},
        {"sweep:-3", "number of shapes"},
        {"sweep:ten", "number of shapes"},
        {"sweep:10:0..8192", "LO = 0"},
        {"sweep:10:9..5", "above HI"},
        {"sweep:10:1-8192", "LO..HI"},
        {"sweep:10:1..", "not two counts"},
        {"sweep:10:..8", "not two counts"},
        {"sweep:10:1..2^53", "above 2^52"},
        {"sweep:10:1..8192:-1", "SEED"},
        {"sweep:10:1..8192:x", "SEED"},
        {"sweep:10:1..8192:7:9", "more than three fields"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(sweep_of(bad[i].s, &sw, err, sizeof err) != 0 && strstr(err, bad[i].says) != NULL,
              "'%s' refused saying '%s': '%s'", bad[i].s, bad[i].says, err);
    CHECK(sweep_of(max_bad, &sw, err, sizeof err) != 0 && strstr(err, "number of shapes") != NULL, "%s: '%s'",
          max_bad, err);

    CHECK(gk_sweep_axes("m x n x k", 4) == 3 && gk_sweep_axes("n", 4) == 1 && gk_sweep_axes("rows x cols", 4) == 2 &&
              gk_sweep_axes("batch x channels x length", 4) == 3,
          "axes joined by ' x '");
    CHECK(gk_sweep_axes("n:bins", 4) == 0 && gk_sweep_axes("", 4) == 0 && gk_sweep_axes("m x ", 4) == 0 &&
              gk_sweep_axes("m  x n", 4) == 0 && gk_sweep_axes("a x b x c x d x e", 4) == 0 &&
              gk_sweep_axes(NULL, 4) == 0,
          "sizes written another way, or too many axes");
    char b[64];
    size_t odd[3] = {4097, 3001, 2049};
    CHECK(gk_sweep_format(odd, 3, b, sizeof b) == 0 && strcmp(b, "4097x3001x2049") == 0, "%s", b);
    CHECK(gk_sweep_format(odd, 1, b, sizeof b) == 0 && strcmp(b, "4097") == 0, "%s", b);
    CHECK(gk_sweep_format(odd, 3, b, 15) == 0 && gk_sweep_format(odd, 3, b, 14) != 0 &&
              gk_sweep_format(odd, 1, b, 4) != 0,
          "a shape that does not fit is reported, not cut short silently");

    /* The default sweep of gemm's three axes. */
    gk_sweep a, a2, c, pre;
    double margin = 0, margin2 = 0, margin_c = 0, margin_pre = 0;
    size_t *x = draw("sweep:100", 3, &a, &margin), *y = draw("sweep:100", 3, &a2, &margin2);
    size_t *z = draw("sweep:100:1..8192:2027", 3, &c, &margin_c), *w = draw("sweep:40", 3, &pre, &margin_pre);
    CHECK(x && y && z && w, "the sweeps parse and draw");
    if (x && y && z && w) {
        const size_t n = 300;
        CHECK(memcmp(x, y, n * sizeof *x) == 0 && margin == margin2, "the same spelling draws the same sides");
        CHECK(memcmp(x, w, 120 * sizeof *x) == 0, "sweep:40 is the first 40 shapes of sweep:100");
        /* Another seed: independent sides agree at a position with
         * probability sum_s P(s)^2 = 0.0120 (P(s) = ln((s+1)/s) / ln 8193),
         * 3.6 of 300 expected (sd 1.9): at most 30 cannot fail by chance. */
        size_t same = 0;
        for (size_t i = 0; i < n; ++i) same += x[i] == z[i];
        CHECK(same <= 30, "seed 2027 draws other sides: %zu of %zu equal", same, n);
        size_t lo = (size_t)-1, hi = 0, below = 0, octave[13] = {0};
        for (size_t i = 0; i < n; ++i) {
            lo = x[i] < lo ? x[i] : lo;
            hi = x[i] > hi ? x[i] : hi;
            /* sqrt(LO * HI) = sqrt(8192) = 90.5 */
            below += x[i] <= 90;
            int j = 0;
            while (j < 12 && x[i] >= ((size_t)2 << j)) ++j; /* [2^j, 2^(j+1)); the last, [4096, 8192] */
            ++octave[j];
        }
        CHECK(lo >= 1 && hi <= 8192, "every side within [1, 8192]: %zu to %zu", lo, hi);
        /* P(side <= 90) = ln 91 / ln 8193 = 0.5006: of 300 sides 150.2 are
         * expected, sd sqrt(300 p (1 - p)) = 8.66; six sd either way is
         * [98, 202] (a correct generator falls outside with probability
         * 2e-9), while a uniform draw over [1, 8192] gives 3.3 and one
         * log-uniform over [1, 2^26] 75. */
        CHECK(below >= 98 && below <= 202, "log-uniform: %zu of 300 sides below sqrt(LO HI)", below);
        /* Each octave [2^j, 2^(j+1)) holds ln 2 / ln 8193 = 7.7% of the
         * draws, 23 of 300: it is empty with probability (1 - 0.077)^300 =
         * 4e-11, so every one is reached, 1 and the top octave included. */
        int empty = 0;
        for (int j = 0; j < 13; ++j) empty += octave[j] == 0;
        CHECK(empty == 0, "every octave of [1, 8192] is drawn (%d empty; 1s: %zu, 4096 and up: %zu)", empty,
              octave[0], octave[12]);
        /* A libm whose exp and log are within a few ulps moves a draw by
         * about 1e-15 of itself: no draw came within 1e-12 of a floor that
         * could go either way, so these shapes are the same on any machine. */
        CHECK(margin > 1e-12 && margin_pre > 1e-12, "no draw within 1e-12 of an integer: %g", margin);
    }
    free(x), free(y), free(z), free(w);

    /* Another range, two axes; LO = HI; the widest range. */
    size_t *r = draw("sweep:50:100..200:7", 2, &a, &margin);
    int in = r != NULL, seen[201] = {0}, distinct = 0;
    for (size_t i = 0; r && i < 100; ++i) {
        in &= r[i] >= 100 && r[i] <= 200;
        if (in && !seen[r[i]]) seen[r[i]] = 1, ++distinct;
    }
    /* 100 draws over 101 values, none above 1.43% likely: about 63 distinct
     * expected, fewer than 20 far beyond chance (a stuck draw gives 1). */
    CHECK(in && distinct >= 20, "sweep:50:100..200:7 stays within [100, 200]: %d distinct sides", distinct);
    free(r);
    r = draw("sweep:4:5..5", 3, &a, &margin);
    in = r != NULL;
    for (size_t i = 0; r && i < 12; ++i) in &= r[i] == 5;
    CHECK(in && margin == 1.0, "LO = HI draws that side only, with no floor to move");
    free(r);
    r = draw("sweep:200:1..2^52", 1, &a, &margin);
    in = r != NULL;
    for (size_t i = 0; r && i < 200; ++i) in &= r[i] >= 1 && r[i] <= ((size_t)1 << 52);
    CHECK(in, "sweep:200:1..2^52 stays within [1, 2^52]");
    free(r);

    /* Through the command line: the runner checks a sweep and counts its
     * shapes against GK_CLI_MAX_SIZES. */
    gk_bench_cli cli;
    char line[256];
    CHECK(parse(&cli, "--module gemm --sizes sweep:100,256,4097x3001x2049") == 0 &&
              strcmp(cli.sizes, "sweep:100,256,4097x3001x2049") == 0,
          "a sweep among sizes stays a string for the runner to draw");
    CHECK(parse(&cli, "--sizes sweep:0") != 0 && parse(&cli, "--sizes 256,sweep:10:9..5") != 0,
          "a bad sweep is refused by the command line");
    snprintf(line, sizeof line, "--sizes sweep:%d,sweep:1", GK_CLI_MAX_SIZES);
    CHECK(parse(&cli, line) != 0, "more than %d shapes in all are refused", GK_CLI_MAX_SIZES);
    snprintf(line, sizeof line, "--sizes sweep:%d,1", GK_CLI_MAX_SIZES - 1);
    CHECK(parse(&cli, line) == 0, "%d shapes in all are taken", GK_CLI_MAX_SIZES);
}

int main(void)
{
    gk_bench_cli c;
    size_t n;
    CHECK(gk_parse_size("1000", &n) == 0 && n == 1000, "plain");
    CHECK(gk_parse_size("2^20", &n) == 0 && n == 1048576, "power");
    CHECK(gk_parse_size("2^20+13", &n) == 0 && n == 1048589, "power plus");
    CHECK(gk_parse_size("2^24-1", &n) == 0 && n == 16777215, "power minus");
    CHECK(gk_parse_size("2^31+17", &n) == 0 && n == 2147483665u, "beyond 2^31");
    CHECK(gk_parse_size("16Mi", &n) == 0 && n == 16u << 20, "Mi");
    CHECK(gk_parse_size("0", &n) == 0 && n == 0, "zero");
    CHECK(gk_parse_size("3^4", &n) != 0 && gk_parse_size("", &n) != 0 && gk_parse_size("12x", &n) != 0 &&
              gk_parse_size("-5", &n) != 0 && gk_parse_size("2^", &n) != 0,
          "garbage rejected");
    CHECK(gk_accepts_positive_count("7") && gk_accepts_positive_count("2^10+3") && !gk_accepts_positive_count("0") &&
              !gk_accepts_positive_count("seven") && !gk_accepts_positive_count("-1"),
          "an open parameter of positive counts (conv's width)");
    char b[32];
    gk_format_size(1048589, b, sizeof b);
    CHECK(strcmp(b, "2^20+13") == 0, "%s", b);
    gk_format_size(1 << 28, b, sizeof b);
    CHECK(strcmp(b, "2^28") == 0, "%s", b);
    gk_format_size(1000, b, sizeof b);
    CHECK(strcmp(b, "1000") == 0, "%s", b);

    CHECK(parse(&c, "") == 0 && c.warmup == 3 && c.min_iters == 10 && c.max_iters == 200 && !c.hot && !c.csv &&
              c.sizes == NULL && c.num_variants == 0 && c.module == NULL && c.seed == 2026 && c.num_params == 0 &&
              strcmp(c.baseline, "1") == 0 && !c.no_skip,
          "defaults");
    CHECK(parse(&c, "--module reduce --variant 1,8,11 --sizes 2^20,1000 --csv --hot --json out.json") == 0, "full");
    CHECK(strcmp(c.module, "reduce") == 0 && c.num_variants == 3 && c.variants[2] == 11 &&
              strcmp(c.sizes, "2^20,1000") == 0 && c.csv && c.hot && strcmp(c.json_path, "out.json") == 0,
          "values: the sizes stay strings, for the module to parse");
    CHECK(parse(&c, "--sizes 4097x3001x2049,2^28:4096") == 0 && strcmp(c.sizes, "4097x3001x2049,2^28:4096") == 0,
          "the runner takes any module's size strings");
    CHECK(parse(&c, "--variant all") == 0 && c.num_variants == 0, "all variants");
    CHECK(parse(&c, "--dtype i32 --op max --seed 7 --warmup 0 --min-iters 1 --max-iters 5 --seconds 0") == 0 &&
              c.num_params == 2 && strcmp(c.params[0], "dtype=i32") == 0 && strcmp(c.params[1], "op=max") == 0 &&
              c.seed == 7 && c.warmup == 0 && c.max_iters == 5,
          "--dtype and --op are module parameters; timing");
    CHECK(parse(&c, "--param dist=uniform,skewed --param bins=256 --vs cub --no-skip") == 0 && c.num_params == 2 &&
              strcmp(c.params[0], "dist=uniform,skewed") == 0 && strcmp(c.baseline, "cub") == 0 && c.no_skip,
          "--param, --vs, --no-skip");
    CHECK(parse(&c, "--param dist") != 0 && parse(&c, "--param =x") != 0 && parse(&c, "--param k=") != 0 &&
              parse(&c, "--param k=a,,b") != 0,
          "malformed --param rejected");
    CHECK(parse(&c, "--sizes 1,,2") != 0 && parse(&c, "--sizes ,") != 0, "empty size item rejected");
    char items[4][GK_CLI_ITEM];
    CHECK(gk_split_list("a,bb,c", items, 4) == 3 && strcmp(items[1], "bb") == 0, "split");
    CHECK(gk_split_list("a,b,c,d,e", items, 4) == -1 && gk_split_list("", items, 4) == -1 &&
              gk_split_list("a,", items, 4) == -1,
          "split rejects too many and empty items");
    CHECK(parse(&c, "--list") == 0 && c.list, "list");
    CHECK(parse(&c, "--help") == 0 && c.help, "help");
    CHECK(parse(&c, "--bogus") != 0, "unknown option");
    CHECK(parse(&c, "--sizes") != 0, "missing value");
    /* --sizes @FILE: a file of sizes (a shape sweep), comments and any separator. */
    FILE *f = fopen("bench_cli_sizes.txt", "w");
    CHECK(f != NULL, "a scratch file in the working folder");
    if (f) {
        fputs("# m x n x k\n256\n1x8192x8192, 16x8192x8192\t256x256x65536  # long k\n\n4097x3001x2049\n", f);
        fclose(f);
        CHECK(parse(&c, "--sizes @bench_cli_sizes.txt") == 0 &&
                  strcmp(c.sizes, "256,1x8192x8192,16x8192x8192,256x256x65536,4097x3001x2049") == 0,
              "a file of sizes: %s", c.sizes ? c.sizes : "(null)");
        f = fopen("bench_cli_sizes.txt", "w");
        if (f) fputs("# nothing but a comment\n\n", f), fclose(f);
        CHECK(parse(&c, "--sizes @bench_cli_sizes.txt") != 0, "a file without a size is refused");
        f = fopen("bench_cli_sizes.txt", "w");
        if (f) {
            for (int i = 0; i < GK_CLI_MAX_SIZES; ++i) fprintf(f, "%dx%dx%d\n", 1000 + i, 2000 + i, 3000 + i);
            fclose(f);
        }
        CHECK(parse(&c, "--sizes @bench_cli_sizes.txt") == 0 && strncmp(c.sizes, "1000x2000x3000,1001x", 20) == 0,
              "a file of GK_CLI_MAX_SIZES shapes is taken");
        f = fopen("bench_cli_sizes.txt", "w");
        if (f) {
            for (int i = 0; i < GK_CLI_MAX_SIZES + 1; ++i) fprintf(f, "%d\n", 100 + i);
            fclose(f);
        }
        CHECK(parse(&c, "--sizes @bench_cli_sizes.txt") != 0, "more sizes than a list holds are refused");
        remove("bench_cli_sizes.txt");
    }
    CHECK(parse(&c, "--sizes @no_such_file_here.txt") != 0, "a missing file is refused");
    test_sweeps();
    CHECK(parse(&c, "--sizes 2^x") == 0, "the runner does not judge a size string: its module does");
    CHECK(parse(&c, "--variant 1,x") != 0, "bad variant");
    CHECK(parse(&c, "--max-iters 5000") != 0, "max-iters bound");
    CHECK(parse(&c, "--min-iters 50 --max-iters 10") != 0, "min above max");
    CHECK(parse(&c, "--seconds -1") != 0, "negative seconds");
    return check_summary("test_bench_cli");
}
