/* check.h: the few lines every test program shares. CHECK counts, prints
 * each failure with its place, and tests end with check_summary(), whose last
 * line is "N passed, N failed". */
#ifndef GK_TEST_CHECK_H
#define GK_TEST_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            ++check_passed;                                                                        \
        } else {                                                                                   \
            ++check_failed;                                                                        \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                 \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* Exit code 77 tells CTest the test was skipped (SKIP_RETURN_CODE). */
#define GK_TEST_SKIP 77

static int check_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
