/* gpu_test.h: what every GPU test program shares (with check.h): a fatal
 * check of CUDA calls, and the start of main: find the GPU or skip.
 * Programs, not the library, so printing and exiting are fine here. */
#ifndef GK_TEST_GPU_TEST_H
#define GK_TEST_GPU_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "gk/cuda_check.h"
#include "gk/device.h"

/* A failed CUDA call ends the program: a CUDA error is sticky, nothing after
 * it can be trusted. */
#define TRY_CUDA(call)                                                                             \
    do {                                                                                           \
        gk_status s_ = GK_CUDA_STATUS(call);                                                       \
        if (!gk_ok(s_)) {                                                                          \
            char b_[512];                                                                          \
            gk_status_format(s_, b_, sizeof b_);                                                   \
            printf("FATAL %s\n", b_);                                                              \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* 0 when a GPU is visible (its facts in *dev, printed with the seed so a
 * failure can be replayed); GK_TEST_SKIP, with the reason printed, when none
 * is. */
static int gk_test_open_gpu(gk_device_info *dev, uint64_t seed)
{
    int ndev = 0;
    gk_status s = gk_device_count(&ndev);
    if (!gk_ok(s)) {
        char e[512];
        gk_status_format(s, e, sizeof e);
        printf("SKIPPED: no CUDA GPU is visible, so the GPU tests cannot run here (%s)\n", e);
        return GK_TEST_SKIP;
    }
    if (gk_ok(gk_device_query(0, dev)))
        printf("device: %s (sm_%d%d, %d SMs)\n", dev->name, dev->cc_major, dev->cc_minor, dev->sm_count);
    printf("seed: %llu (replay with --seed)\n", (unsigned long long)seed);
    return 0;
}

#endif
