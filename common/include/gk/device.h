/* gk/device.h: the facts about a GPU that the bench turns times into
 * percentages with.
 *
 * Everything numeric comes from cudaDeviceGetAttribute (CUDA 13 removed
 * cudaDeviceProp::memoryClockRate and clockRate). The peaks are theoretical:
 *   DRAM bandwidth = 2 (double data rate) x memory clock x bus width / 8
 *   fp32 FLOP/s    = 2 (a fused multiply-add) x fp32 lanes per SM x SMs x SM clock
 */
#ifndef GK_DEVICE_H
#define GK_DEVICE_H

#include <stddef.h>

#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gk_device_info {
    int ordinal;
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    int max_threads_per_sm;
    int l2_bytes;
    size_t total_mem_bytes;
    int mem_clock_khz;        /* peak memory clock */
    int mem_bus_width_bits;
    int sm_clock_khz;         /* peak SM clock */
    int fp32_lanes_per_sm;    /* 0 when the architecture is not in our list */
    double peak_dram_bytes_per_s;
    double peak_fp32_flops;   /* 0 when fp32_lanes_per_sm is 0 */
    int runtime_version;      /* cudaRuntimeGetVersion, e.g. 13000 */
    int driver_version;       /* cudaDriverGetVersion */
} gk_device_info;

/* Number of CUDA-visible GPUs; a machine with none (or no driver) gives
 * GK_ERROR_NO_DEVICE. */
gk_status gk_device_count(int *count);

/* Fill *info for device `ordinal`. */
gk_status gk_device_query(int ordinal, gk_device_info *info);

/* Pure helpers, exposed so that they can be tested without a GPU. */
int gk_fp32_lanes_per_sm(int cc_major, int cc_minor);
double gk_peak_dram_bandwidth(int mem_clock_khz, int bus_width_bits);

#ifdef __cplusplus
}
#endif

#endif /* GK_DEVICE_H */
