/* Device facts: see gk/device.h. */
#include "gk/device.h"

#include <string.h>

#include <cuda_runtime_api.h>

#include "gk/cuda_check.h"

int gk_fp32_lanes_per_sm(int cc_major, int cc_minor)
{
    /* FP32 lanes ("CUDA cores") per multiprocessor, from the CUDA C Programming
     * Guide's table of arithmetic throughput. */
    switch (cc_major) {
    case 7: return 64;                       /* Volta, Turing */
    case 8: return cc_minor == 0 ? 64 : 128; /* A100: 64; GA10x, Ada: 128 */
    case 9: return 128;                      /* Hopper */
    case 10:
    case 11:
    case 12: return 128;                     /* Blackwell */
    default: return 0;
    }
}

int gk_tensor_flops_per_clock(int cc_major, int cc_minor, int bits)
{
    /* See gk/device.h for the derivation from the whitepapers' rates. */
    int per_clock = 0;
    if (cc_major == 8 && cc_minor == 0) per_clock = 1024; /* A100, TF32 */
    if (cc_major == 9 && cc_minor == 0) per_clock = 2048; /* H100, H200, TF32 */
    if (bits == 19) return per_clock;
    if (bits == 16) return 2 * per_clock;                  /* BF16: twice TF32 on both */
    if (bits == 8 && cc_major == 9) return 4 * per_clock;  /* FP8: twice BF16 on Hopper; none on A100 */
    return 0;
}

double gk_peak_dram_bandwidth(int mem_clock_khz, int bus_width_bits)
{
    return 2.0 * (double)mem_clock_khz * 1e3 * (double)bus_width_bits / 8.0;
}

gk_status gk_device_count(int *count)
{
    if (count == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "count is NULL");
    *count = 0;
    int n = 0;
    GK_CUDA_TRY(cudaGetDeviceCount(&n));
    if (n <= 0) return GK_FAIL(GK_ERROR_NO_DEVICE, "cudaGetDeviceCount found no GPU");
    *count = n;
    return gk_success();
}

gk_status gk_device_query(int ordinal, gk_device_info *info)
{
    if (info == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "info is NULL");
    memset(info, 0, sizeof *info);
    info->ordinal = ordinal;

    struct cudaDeviceProp prop;
    GK_CUDA_TRY(cudaGetDeviceProperties(&prop, ordinal));
    memcpy(info->name, prop.name, sizeof info->name - 1);
    info->total_mem_bytes = prop.totalGlobalMem;

    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->cc_major, cudaDevAttrComputeCapabilityMajor, ordinal));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->cc_minor, cudaDevAttrComputeCapabilityMinor, ordinal));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->sm_count, cudaDevAttrMultiProcessorCount, ordinal));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->max_threads_per_sm,
                                       cudaDevAttrMaxThreadsPerMultiProcessor, ordinal));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->l2_bytes, cudaDevAttrL2CacheSize, ordinal));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->mem_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->mem_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth,
                                       ordinal));
    GK_CUDA_TRY(cudaDeviceGetAttribute(&info->sm_clock_khz, cudaDevAttrClockRate, ordinal));
    GK_CUDA_TRY(cudaRuntimeGetVersion(&info->runtime_version));
    GK_CUDA_TRY(cudaDriverGetVersion(&info->driver_version));

    info->fp32_lanes_per_sm = gk_fp32_lanes_per_sm(info->cc_major, info->cc_minor);
    info->peak_dram_bytes_per_s = gk_peak_dram_bandwidth(info->mem_clock_khz, info->mem_bus_width_bits);
    double sm_clocks = info->sm_count * (double)info->sm_clock_khz * 1e3; /* SM cycles per second, all SMs */
    info->peak_fp32_flops = 2.0 * info->fp32_lanes_per_sm * sm_clocks;
    info->peak_tf32_flops = gk_tensor_flops_per_clock(info->cc_major, info->cc_minor, 19) * sm_clocks;
    info->peak_bf16_flops = gk_tensor_flops_per_clock(info->cc_major, info->cc_minor, 16) * sm_clocks;
    info->peak_fp8_flops = gk_tensor_flops_per_clock(info->cc_major, info->cc_minor, 8) * sm_clocks;
    return gk_success();
}
