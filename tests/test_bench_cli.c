/* CPU tests of gk_bench's command line (bench/cli.c). */
#include <stdio.h>
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
    static char module[64], json[64], sizes[128], vs[32], params[GK_CLI_MAX_PARAMS][80];
    if (cli->module) snprintf(module, sizeof module, "%s", cli->module), cli->module = module;
    if (cli->json_path) snprintf(json, sizeof json, "%s", cli->json_path), cli->json_path = json;
    if (cli->sizes) snprintf(sizes, sizeof sizes, "%s", cli->sizes), cli->sizes = sizes;
    if (cli->baseline) snprintf(vs, sizeof vs, "%s", cli->baseline), cli->baseline = vs;
    for (int i = 0; i < cli->num_params; ++i)
        snprintf(params[i], sizeof params[i], "%s", cli->params[i]), cli->params[i] = params[i];
    return rc;
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
            for (int i = 0; i < GK_CLI_MAX_LIST + 1; ++i) fprintf(f, "%d\n", 100 + i);
            fclose(f);
        }
        CHECK(parse(&c, "--sizes @bench_cli_sizes.txt") != 0, "more sizes than a list holds are refused");
        remove("bench_cli_sizes.txt");
    }
    CHECK(parse(&c, "--sizes @no_such_file_here.txt") != 0, "a missing file is refused");
    CHECK(parse(&c, "--sizes 2^x") == 0, "the runner does not judge a size string: its module does");
    CHECK(parse(&c, "--variant 1,x") != 0, "bad variant");
    CHECK(parse(&c, "--max-iters 5000") != 0, "max-iters bound");
    CHECK(parse(&c, "--min-iters 50 --max-iters 10") != 0, "min above max");
    CHECK(parse(&c, "--seconds -1") != 0, "negative seconds");
    return check_summary("test_bench_cli");
}
