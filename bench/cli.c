/* gk_bench's command line: see cli.h. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gk/random.h"

#define GK_STR_(x) #x
#define GK_STR(x) GK_STR_(x) /* a number's macro as a string literal: "256" */

const char gk_bench_usage[] =
    "usage: gk_bench [options]\n"
    "  Verifies, then times, every variant of every module, side by side with\n"
    "  the reference library (CUB, cuBLAS), on the first visible GPU.\n"
    "options:\n"
    "  --module NAME       only this module (default: all; see --list)\n"
    "  --variant LIST      only these variant ids, e.g. 1,8,11 (default: all)\n"
    "  --sizes LIST        problem sizes, each written as its module writes them (--list\n"
    "                      shows how), e.g. 2^20,2^24+7 or 4096,4097x3001x2049\n"
    "                      (default: the module's own sizes); @FILE: the sizes in FILE,\n"
    "                      one per line or separated by spaces or commas, # comments;\n"
    "                      at most " GK_STR(GK_CLI_MAX_SIZES) " shapes in all.\n"
    "                      sweep:N[:LO..HI[:SEED]]: N shapes drawn at random, each side\n"
    "                      log-uniformly from LO to HI (default " GK_STR(GK_SWEEP_DEFAULT_LO) ".."
    GK_STR(GK_SWEEP_DEFAULT_HI) ", seed " GK_STR(GK_SWEEP_DEFAULT_SEED) ":\n"
    "                      the same shapes on every run), for a module whose sizes are its\n"
    "                      axes joined by 'x' (gemm: m x n x k), e.g. sweep:100,\n"
    "                      sweep:100:1..8192:2026, sweep:20:256..2^12:7\n"
    "  --param KEY=V1,V2   a module parameter, each value swept (see --list), e.g. dtype=f32,i32\n"
    "  --dtype T           the same as --param dtype=T\n"
    "  --op OP             the same as --param op=OP\n"
    "  --vs ID             the baseline of the 'vs base' column: a variant id, or a comparison\n"
    "                      case's key such as cub or cublas_fp32 (default 1)\n"
    "  --no-skip           also run the slow variants at the sizes where they are skipped\n"
    "  --warmup N          untimed calls before timing (default 3)\n"
    "  --min-iters N       at least N timed calls (default 10)\n"
    "  --max-iters N       at most N timed calls, <= 1000 (default 200)\n"
    "  --seconds S         stop after min-iters once the samples add up to S (default 0.5)\n"
    "  --hot               do not flush the L2 cache between samples (default: cold)\n"
    "  --no-reference      do not time the reference library\n"
    "  --csv               CSV on stdout instead of the table\n"
    "  --json FILE         also write the results as JSON to FILE ('-': stdout)\n"
    "  --seed S            seed of the random inputs (default 2026; a sweep's shapes\n"
    "                      have their own, in its spelling)\n"
    "  --quiet             no progress lines on stderr\n"
    "  --list              list the modules and their variants, then exit\n"
    "  --help              this text\n"
    "exit status: 0 all verified; 1 a result did not verify or a call failed;\n"
    "             2 bad command line or no GPU.\n";

static int parse_long(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0') return 1;
    *out = v;
    return 0;
}

int gk_parse_size(const char *s, size_t *out)
{
    if (s == NULL || *s == '\0') return 1;
    char *end;
    errno = 0;
    unsigned long long base = strtoull(s, &end, 10);
    if (errno != 0 || end == s || s[0] == '-') return 1;
    unsigned long long v = base;
    if (end[0] == '^') {
        if (base != 2) return 1;
        const char *e = end + 1;
        unsigned long long k = strtoull(e, &end, 10);
        if (end == e || k > 62) return 1;
        v = 1ULL << k;
        if (end[0] == '+' || end[0] == '-') {
            char sign = end[0];
            const char *c = end + 1;
            unsigned long long d = strtoull(c, &end, 10);
            if (end == c) return 1;
            if (sign == '-' && d > v) return 1;
            v = sign == '+' ? v + d : v - d;
        }
    } else if (strcmp(end, "Ki") == 0) {
        v <<= 10, end += 2;
    } else if (strcmp(end, "Mi") == 0) {
        v <<= 20, end += 2;
    } else if (strcmp(end, "Gi") == 0) {
        v <<= 30, end += 2;
    }
    if (*end != '\0') return 1;
    *out = (size_t)v;
    return 0;
}

int gk_accepts_positive_count(const char *value)
{
    size_t n;
    return gk_parse_size(value, &n) == 0 && n >= 1;
}

void gk_format_size(size_t n, char *buf, size_t size)
{
    for (int k = 62; k >= 10; --k) {
        size_t p = (size_t)1 << k;
        if (n >= p && n - p < 1000) {
            if (n == p) snprintf(buf, size, "2^%d", k);
            else snprintf(buf, size, "2^%d+%zu", k, n - p);
            return;
        }
        if (n < p && p - n < 10) {
            snprintf(buf, size, "2^%d-%zu", k, p - n);
            return;
        }
    }
    snprintf(buf, size, "%zu", n);
}

static int parse_list_int(const char *s, int *v, int *count, char *err, size_t err_size)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", s);
    *count = 0;
    for (char *tok = strtok(tmp, ","); tok != NULL; tok = strtok(NULL, ",")) {
        long long x;
        if (parse_long(tok, &x) || x < 0 || x > 1000000) {
            snprintf(err, err_size, "--variant: '%s' is not a variant id", tok);
            return 1;
        }
        if (*count >= GK_CLI_MAX_LIST) {
            snprintf(err, err_size, "--variant: more than %d ids", GK_CLI_MAX_LIST);
            return 1;
        }
        v[(*count)++] = (int)x;
    }
    if (*count == 0) {
        snprintf(err, err_size, "--variant: empty list");
        return 1;
    }
    return 0;
}

int gk_split_list(const char *s, char (*items)[GK_CLI_ITEM], int max)
{
    int count = 0;
    const char *p = s;
    if (s == NULL || *s == '\0') return -1;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= GK_CLI_ITEM || count >= max) return -1;
        memcpy(items[count], p, len);
        items[count][len] = '\0';
        ++count;
        if (comma == NULL) return count;
        p = comma + 1;
    }
}

int gk_is_sweep(const char *s) { return s != NULL && strncmp(s, "sweep", 5) == 0; }

#define SWEEP_SPELLING "sweep:N[:LO..HI[:SEED]]"

int gk_parse_sweep(const char *s, gk_sweep *sw, char *err, size_t err_size)
{
    char buf[GK_CLI_ITEM];
    if (!gk_is_sweep(s) || s[5] != ':' || strlen(s) >= sizeof buf) {
        snprintf(err, err_size, "'%s' is not a sweep: write " SWEEP_SPELLING ", e.g. sweep:100", s ? s : "");
        return 1;
    }
    snprintf(buf, sizeof buf, "%s", s + 6);
    /* The fields: N, then LO..HI, then SEED. */
    char *field[3] = {buf, NULL, NULL};
    int nfields = 1;
    for (char *p = buf; *p; ++p) {
        if (*p != ':') continue;
        if (nfields == 3) {
            snprintf(err, err_size, "'%s': more than three fields after 'sweep:' (" SWEEP_SPELLING ")", s);
            return 1;
        }
        *p = '\0';
        field[nfields++] = p + 1;
    }
    size_t count;
    if (gk_parse_size(field[0], &count) != 0 || count < 1 || count > GK_CLI_MAX_SIZES) {
        snprintf(err, err_size, "'%s': N = '%s' is not a number of shapes from 1 to %d", s, field[0],
                 GK_CLI_MAX_SIZES);
        return 1;
    }
    sw->count = (int)count;
    sw->lo = GK_SWEEP_DEFAULT_LO;
    sw->hi = GK_SWEEP_DEFAULT_HI;
    sw->seed = GK_SWEEP_DEFAULT_SEED;
    if (nfields >= 2) {
        char *dots = strstr(field[1], "..");
        if (dots == NULL) {
            snprintf(err, err_size, "'%s': write the range of the sides as LO..HI (e.g. 1..8192), not '%s'", s,
                     field[1]);
            return 1;
        }
        *dots = '\0';
        if (gk_parse_size(field[1], &sw->lo) != 0 || gk_parse_size(dots + 2, &sw->hi) != 0) {
            snprintf(err, err_size, "'%s': LO..HI = '%s..%s' is not two counts", s, field[1], dots + 2);
            return 1;
        }
        if (sw->lo < 1) {
            snprintf(err, err_size, "'%s': LO = 0, but every side is at least 1", s);
            return 1;
        }
        if (sw->lo > sw->hi) {
            snprintf(err, err_size, "'%s': LO = %zu is above HI = %zu", s, sw->lo, sw->hi);
            return 1;
        }
        if (sw->hi > GK_SWEEP_MAX_SIDE) {
            snprintf(err, err_size, "'%s': HI = %zu is above 2^52 (the sides are drawn in double precision)", s,
                     sw->hi);
            return 1;
        }
    }
    if (nfields == 3) {
        long long x;
        if (parse_long(field[2], &x) || x < 0) {
            snprintf(err, err_size, "'%s': SEED = '%s' is not a non-negative integer", s, field[2]);
            return 1;
        }
        sw->seed = (uint64_t)x;
    }
    return 0;
}

int gk_sweep_axes(const char *axes, int max)
{
    /* Names of letters and '_' joined by " x ": "m x n x k", "rows x cols", "n". */
    int count = 0;
    const char *p = axes;
    if (p == NULL) return 0;
    for (;;) {
        const char *name = p;
        while ((*p >= 'a' && *p <= 'z') || *p == '_') ++p;
        if (p == name || ++count > max) return 0;
        if (*p == '\0') return count;
        if (strncmp(p, " x ", 3) != 0) return 0;
        p += 3;
    }
}

double gk_sweep_sides(const gk_sweep *sw, int axes, size_t *sides)
{
    gk_rng rng;
    gk_rng_seed(&rng, sw->seed);
    /* LO, HI (<= 2^52) and every integer between are exact doubles. */
    const double lo = (double)sw->lo, hi = (double)sw->hi;
    const double log_lo = log(lo), span = log(hi + 1.0) - log_lo;
    double margin = 1.0;
    for (size_t i = 0; i < (size_t)sw->count * (size_t)axes; ++i) {
        /* 53 random bits: u is uniform over the doubles k 2^-53 of [0, 1). */
        const double u = (double)(gk_rng_next(&rng) >> 11) * 0x1p-53;
        /* x is log-uniform in [LO, HI + 1), but for rounding at both ends,
         * which the clamp absorbs: floor(x) is then s with probability
         * log((s + 1) / s) / log((HI + 1) / LO). */
        const double x = exp(log_lo + u * span);
        const double f = floor(x);
        sides[i] = f <= lo ? sw->lo : f >= hi ? sw->hi : (size_t)f;
        /* How near x came to an integer j whose floor could go either way
         * (LO < j <= HI; at LO and HI + 1 the clamp gives one side). */
        const double j = floor(x + 0.5);
        if (j > lo && j <= hi && fabs(x - j) / x < margin) margin = fabs(x - j) / x;
    }
    return margin;
}

int gk_sweep_format(const size_t *sides, int axes, char *buf, size_t size)
{
    size_t len = 0;
    if (size == 0) return 1;
    buf[0] = '\0';
    for (int a = 0; a < axes; ++a) {
        int w = snprintf(buf + len, size - len, a ? "x%zu" : "%zu", sides[a]);
        if (w < 0 || (size_t)w >= size - len) return 1; /* cut short */
        len += (size_t)w;
    }
    return 0;
}

/* --sizes @FILE: the sizes of a text file, separated by spaces, tabs,
 * newlines or commas, '#' starting a comment to the end of its line, joined
 * into buf as one comma-separated list (the list --sizes takes). */
static int read_sizes_file(const char *path, char *buf, size_t size, char *err, size_t err_size)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(err, err_size, "--sizes @%s: cannot open the file", path);
        return 1;
    }
    size_t len = 0, item = 0;
    int c, comment = 0, too_long = 0;
    buf[0] = '\0';
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n') comment = 0;
        if (c == '#') comment = 1;
        const int sep = comment || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',';
        if (sep) {
            item = 0;
            continue;
        }
        if (item == 0 && len > 0) {
            if (len + 1 >= size) too_long = 1;
            else buf[len++] = ',';
        }
        if (len + 1 >= size) too_long = 1;
        else buf[len++] = (char)c, ++item;
        if (too_long) break;
    }
    fclose(f);
    buf[len] = '\0';
    if (too_long) {
        snprintf(err, err_size, "--sizes @%s: more sizes than --sizes takes (%d of at most %d characters)", path,
                 GK_CLI_MAX_SIZES, GK_CLI_ITEM - 1);
        return 1;
    }
    if (len == 0) {
        snprintf(err, err_size, "--sizes @%s: the file holds no size", path);
        return 1;
    }
    return 0;
}

static int add_param(gk_bench_cli *cli, const char *kv, char *err, size_t err_size)
{
    const char *eq = strchr(kv, '=');
    char items[GK_CLI_MAX_LIST][GK_CLI_ITEM];
    if (eq == NULL || eq == kv || gk_split_list(eq + 1, items, GK_CLI_MAX_LIST) < 0) {
        snprintf(err, err_size, "--param: '%s' is not KEY=VALUE[,VALUE...]", kv);
        return 1;
    }
    if (cli->num_params >= GK_CLI_MAX_PARAMS) {
        snprintf(err, err_size, "--param: more than %d parameters", GK_CLI_MAX_PARAMS);
        return 1;
    }
    cli->params[cli->num_params++] = kv;
    return 0;
}

int gk_bench_parse(int argc, char **argv, gk_bench_cli *cli, char *err, size_t err_size)
{
    memset(cli, 0, sizeof *cli);
    cli->warmup = 3;
    cli->min_iters = 10;
    cli->max_iters = 200;
    cli->seconds = 0.5;
    cli->seed = 2026;
    cli->baseline = "1";
    /* --dtype X and --op X become dtype=X and op=X: kept here, since argv
     * holds no such string. */
    static char shorthand[2][GK_CLI_ITEM + 8];
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
        long long x;
#define NEED_VALUE()                                                                               \
    do {                                                                                           \
        if (val == NULL) {                                                                         \
            snprintf(err, err_size, "%s needs a value", a);                                        \
            return 1;                                                                              \
        }                                                                                          \
        ++i;                                                                                       \
    } while (0)
#define INT_OPTION(field, lo, hi)                                                                  \
    do {                                                                                           \
        NEED_VALUE();                                                                              \
        if (parse_long(val, &x) || x < (lo) || x > (hi)) {                                         \
            snprintf(err, err_size, "%s: '%s' is not an integer in [%d, %d]", a, val, (lo), (hi)); \
            return 1;                                                                              \
        }                                                                                          \
        cli->field = (int)x;                                                                       \
    } while (0)
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) cli->help = 1;
        else if (strcmp(a, "--list") == 0) cli->list = 1;
        else if (strcmp(a, "--csv") == 0) cli->csv = 1;
        else if (strcmp(a, "--hot") == 0) cli->hot = 1;
        else if (strcmp(a, "--quiet") == 0) cli->quiet = 1;
        else if (strcmp(a, "--no-reference") == 0) cli->no_reference = 1;
        else if (strcmp(a, "--no-skip") == 0) cli->no_skip = 1;
        else if (strcmp(a, "--module") == 0) { NEED_VALUE(); cli->module = val; }
        else if (strcmp(a, "--vs") == 0) { NEED_VALUE(); cli->baseline = val; }
        else if (strcmp(a, "--param") == 0) {
            NEED_VALUE();
            if (add_param(cli, val, err, err_size)) return 1;
        } else if (strcmp(a, "--dtype") == 0 || strcmp(a, "--op") == 0) {
            NEED_VALUE();
            char *buf = shorthand[a[2] == 'd' ? 0 : 1];
            if (strlen(val) >= GK_CLI_ITEM) {
                snprintf(err, err_size, "%s: '%s' is too long", a, val);
                return 1;
            }
            snprintf(buf, GK_CLI_ITEM + 8, "%s=%s", a + 2, val);
            if (add_param(cli, buf, err, err_size)) return 1;
        }
        else if (strcmp(a, "--json") == 0) { NEED_VALUE(); cli->json_path = val; }
        else if (strcmp(a, "--variant") == 0) {
            NEED_VALUE();
            if (strcmp(val, "all") != 0 && parse_list_int(val, cli->variants, &cli->num_variants, err, err_size))
                return 1;
        } else if (strcmp(a, "--sizes") == 0) {
            NEED_VALUE();
            const char *given = val;
            if (val[0] == '@') { /* a file of sizes */
                if (read_sizes_file(val + 1, cli->sizes_file, sizeof cli->sizes_file, err, err_size)) return 1;
                val = cli->sizes_file;
            }
            char items[GK_CLI_MAX_SIZES][GK_CLI_ITEM];
            int n = gk_split_list(val, items, GK_CLI_MAX_SIZES);
            if (n < 0) {
                snprintf(err, err_size, "--sizes: '%s' is not a comma-separated list of at most %d sizes", given,
                         GK_CLI_MAX_SIZES);
                return 1;
            }
            /* Sweeps are the runner's: checked here, drawn for each module
             * (bench/main.c); the other items are the modules' to parse. */
            int shapes = 0;
            for (int j = 0; j < n; ++j) {
                gk_sweep sw = {1, 0, 0, 0};
                if (gk_is_sweep(items[j])) {
                    char why[256];
                    if (gk_parse_sweep(items[j], &sw, why, sizeof why) != 0) {
                        snprintf(err, err_size, "--sizes: %s", why);
                        return 1;
                    }
                }
                shapes += sw.count;
            }
            if (shapes > GK_CLI_MAX_SIZES) {
                snprintf(err, err_size, "--sizes: %d shapes in all (each sweep counted as its N), more than %d",
                         shapes, GK_CLI_MAX_SIZES);
                return 1;
            }
            cli->sizes = val;
        } else if (strcmp(a, "--warmup") == 0) INT_OPTION(warmup, 0, 1000);
        else if (strcmp(a, "--min-iters") == 0) INT_OPTION(min_iters, 1, 1000);
        else if (strcmp(a, "--max-iters") == 0) INT_OPTION(max_iters, 1, 1000);
        else if (strcmp(a, "--seconds") == 0) {
            NEED_VALUE();
            char *end;
            cli->seconds = strtod(val, &end);
            if (end == val || *end != '\0' || cli->seconds < 0 || cli->seconds > 600) {
                snprintf(err, err_size, "--seconds: '%s' is not a number of seconds in [0, 600]", val);
                return 1;
            }
        } else if (strcmp(a, "--seed") == 0) {
            NEED_VALUE();
            if (parse_long(val, &x) || x < 0) {
                snprintf(err, err_size, "--seed: '%s' is not a non-negative integer", val);
                return 1;
            }
            cli->seed = (uint64_t)x;
        } else {
            snprintf(err, err_size, "unknown option '%s' (see --help)", a);
            return 1;
        }
#undef INT_OPTION
#undef NEED_VALUE
    }
    if (cli->min_iters > cli->max_iters) {
        snprintf(err, err_size, "--min-iters (%d) is above --max-iters (%d)", cli->min_iters, cli->max_iters);
        return 1;
    }
    return 0;
}
