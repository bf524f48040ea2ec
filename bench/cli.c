/* gk_bench's command line: see cli.h. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char gk_bench_usage[] =
    "usage: gk_bench [options]\n"
    "  Verifies, then times, every variant of every module, side by side with\n"
    "  the reference library (CUB, cuBLAS), on the first visible GPU.\n"
    "options:\n"
    "  --module NAME       only this module (default: all; see --list)\n"
    "  --variant LIST      only these variant ids, e.g. 1,8,11 (default: all)\n"
    "  --sizes LIST        problem sizes, e.g. 2^20,2^24+7,1000000 (default: the module's)\n"
    "  --dtype T           element type, e.g. f32, i32 (default: the module's)\n"
    "  --op OP             operation, e.g. sum, max, min (default: the module's)\n"
    "  --warmup N          untimed calls before timing (default 3)\n"
    "  --min-iters N       at least N timed calls (default 10)\n"
    "  --max-iters N       at most N timed calls, <= 1000 (default 200)\n"
    "  --seconds S         stop after min-iters once the samples add up to S (default 0.5)\n"
    "  --hot               do not flush the L2 cache between samples (default: cold)\n"
    "  --no-reference      do not time the reference library\n"
    "  --csv               CSV on stdout instead of the table\n"
    "  --json FILE         also write the results as JSON to FILE ('-': stdout)\n"
    "  --seed S            seed of the random inputs (default 2026)\n"
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

static int parse_list_size(const char *s, size_t *v, int *count, char *err, size_t err_size)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", s);
    *count = 0;
    for (char *tok = strtok(tmp, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (gk_parse_size(tok, &v[*count])) {
            snprintf(err, err_size, "--sizes: '%s' is not a size (try 1000, 2^20, 2^20+13, 16Mi)", tok);
            return 1;
        }
        if (++*count >= GK_CLI_MAX_LIST) {
            snprintf(err, err_size, "--sizes: more than %d sizes", GK_CLI_MAX_LIST - 1);
            return 1;
        }
    }
    if (*count == 0) {
        snprintf(err, err_size, "--sizes: empty list");
        return 1;
    }
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
        else if (strcmp(a, "--module") == 0) { NEED_VALUE(); cli->module = val; }
        else if (strcmp(a, "--dtype") == 0) { NEED_VALUE(); cli->dtype = val; }
        else if (strcmp(a, "--op") == 0) { NEED_VALUE(); cli->op = val; }
        else if (strcmp(a, "--json") == 0) { NEED_VALUE(); cli->json_path = val; }
        else if (strcmp(a, "--variant") == 0) {
            NEED_VALUE();
            if (strcmp(val, "all") != 0 && parse_list_int(val, cli->variants, &cli->num_variants, err, err_size))
                return 1;
        } else if (strcmp(a, "--sizes") == 0) {
            NEED_VALUE();
            if (parse_list_size(val, cli->sizes, &cli->num_sizes, err, err_size)) return 1;
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
