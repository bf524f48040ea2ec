/* gk/device.h: the facts about a GPU that the bench turns times into
 * percentages with.
 *
 * Everything numeric comes from cudaDeviceGetAttribute (CUDA 13 removed
 * cudaDeviceProp::memoryClockRate and clockRate). The peaks are theoretical:
 *   DRAM bandwidth = 2 (double data rate) x memory clock x bus width / 8
 *   fp32 FLOP/s    = 2 (a fused multiply-add) x fp32 lanes per SM x SMs x SM clock
 *   TF32, BF16     = dense tensor-core FLOP per clock per SM x SMs x SM clock
 *   FP8            = the same for e4m3 / e5m2 inputs: twice BF16 on sm_90 (H100 SXM: 1979
 *                    dense TFLOP/s), 0 on GPUs without FP8 tensor cores in our table
 * No attribute gives the tensor cores' rate, so it comes from a table of the
 * architectures we know (gk_tensor_flops_per_clock): the dense (not
 * sparse) rates of NVIDIA's A100 and H100 whitepapers divided by their SM
 * counts and boost clocks (A100: 156 TF32 TFLOP/s / (108 SMs x 1.41 GHz) =
 * 1024 FLOP/clock/SM, BF16 2048; H100 SXM: 494.7 / (132 x 1.83 GHz) = 2048,
 * BF16 989.4 / (132 x 1.83) = 4096). Any other GPU gets 0, which the bench
 * prints as "n/a" rather than a guess. The SM clock is the attribute's peak
 * clock, so these peaks are what the chip could do at that clock.
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
    double peak_tf32_flops;   /* dense tensor cores; 0 when the architecture is not in our table */
    double peak_bf16_flops;   /* dense tensor cores; 0 likewise */
    double peak_fp8_flops;    /* dense tensor cores, e4m3/e5m2 inputs; 0 likewise (and on A100) */
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
/* Dense tensor-core FLOP per clock per SM, for bits = 19 (TF32), 16 (BF16) or 8 (FP8);
 * 0 for an architecture or precision not in the table. */
int gk_tensor_flops_per_clock(int cc_major, int cc_minor, int bits);
double gk_peak_dram_bandwidth(int mem_clock_khz, int bus_width_bits);

#ifdef __cplusplus
}
#endif

#endif /* GK_DEVICE_H */
