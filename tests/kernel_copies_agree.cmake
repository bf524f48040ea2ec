# Each kernel file compiles on its own, so the small helpers it needs are
# repeated in every file that uses them (reduce: the Sum/Max/Min operations,
# the warp and block reductions; gemm: the tile-grid size and the epilogue;
# histogram: the launch helpers and the global-atomic fallback; conv: the
# launch helpers and the by-value mask of variants 2-5 with its host copy;
# gemm_bf16: the copy path of variant 2 that variants 3 and 4 carry, and its
# epilogue, which variant 5 carries too; gemm_sm90a: the PTX wrappers for
# wgmma, the mbarriers, the TMA and setmaxnreg that BF16 variants 2-5 and
# variant 12 each carry, compared with each file's own guard macro,
# GKBn_SM90A or GK12_SM90A, read as one name; variant 11, built for plain
# sm_90, carries the mbarrier and TMA ones under GK11_TMA, read as the same
# name, and a cp.async wait of its own; all of them, the host's lookup of
# cuTensorMapEncodeTiled).
# This test keeps the copies identical: a fix made in one file must be made
# in all.
#   cmake -DKERNEL_DIR=... -DMODULE=reduce|gemm|histogram|conv|gemm_bf16|gemm_sm90a -P kernel_copies_agree.cmake
if(MODULE STREQUAL "gemm_sm90a")
  file(GLOB files "${KERNEL_DIR}/bf16_[0-9][0-9]_*.cu" "${KERNEL_DIR}/[0-9][0-9]_*.cu")
  set(kept "")
  foreach(f IN LISTS files)
    file(READ "${f}" text)
    if(text MATCHES "__CUDA_ARCH_FEAT_SM90_ALL")
      list(APPEND kept "${f}")
    endif()
  endforeach()
  # Variant 11's TMA path (sm_90, not sm_90a) carries the mbarrier and TMA wrappers too.
  file(GLOB v11 "${KERNEL_DIR}/11_*.cu")
  set(files ${kept} ${v11})
elseif(MODULE STREQUAL "gemm_bf16")
  # Variant 1 (mma.sync) has its own copy code; 2-5 share variant 2's.
  file(GLOB files "${KERNEL_DIR}/bf16_[0-9][0-9]_*.cu")
  list(FILTER files EXCLUDE REGEX "/bf16_01_[^/]*$")
else()
  file(GLOB files "${KERNEL_DIR}/[0-9][0-9]_*.cu")
endif()
set(failed FALSE)
# Each block: a regex that matches it whole (a header line, then the lines of
# its body, which start with a space or '#', then the closing brace).
set(body "\n([ #][^\n]*\n)*}")
if(MODULE STREQUAL "histogram")
  set(blocks
    "constexpr size_t ceil_div\\(size_t x, size_t y\\) { return \\(x \\+ y - 1\\) / y[^\n]*"
    "cudaError_t run_global\\(const T \\*in, size_t n, unsigned bins, unsigned long long \\*counts, cudaStream_t stream\\)\n{${body}"
    "cudaError_t smem_per_block_optin\\(int \\*bytes\\)\n{${body}"
    "cudaError_t resident_blocks\\(K kernel, size_t smem, size_t \\*blocks\\)\n{${body}")
elseif(MODULE STREQUAL "conv")
  set(blocks
    "constexpr size_t ceil_div\\(size_t x, size_t y\\) { return \\(x \\+ y - 1\\) / y[^\n]*"
    "constexpr size_t kChunk = \\(size_t\\)1 << 31[^\n]*"
    "constexpr unsigned kMaskMax = 4096[^\n]*\ntemplate <unsigned C> struct Mask {${body}"
    "cudaError_t fetch_mask\\(const float \\*mask, size_t width, float \\*host, unsigned capacity, cudaStream_t stream\\)\n{${body}"
    "cudaError_t smem_per_block_optin\\(int \\*bytes\\)\n{${body}")
elseif(MODULE STREQUAL "gemm_sm90a")
  set(blocks)
  foreach(fn fence_proxy_async wgmma_fence wgmma_commit mbar_init fence_mbarrier_init mbar_arrive
             mbar_arrive_expect_tx mbar_try_wait mbar_wait prefetch_tensormap tma_load_2d)
    list(APPEND blocks "__device__ __forceinline__ (void|bool) ${fn}\\([^)]*\\)\n{${body}")
  endforeach()
  # The host's entry-point query for cuTensorMapEncodeTiled (variants 11 and 12, BF16 3-5).
  list(APPEND blocks "cudaError_t get_encode_tiled\\(PFN_cuTensorMapEncodeTiled_v12000 \\*fn\\)\n{${body}")
  foreach(fn wgmma_wait cp_async_wait setmaxnreg_dec setmaxnreg_inc)
    list(APPEND blocks "template <int N> __device__ __forceinline__ void ${fn}\\(\\)\n{${body}")
  endforeach()
elseif(MODULE STREQUAL "gemm_bf16")
  # The BF16 table: the copy path that variants 3 and 4 carry from variant 2
  # (their fallback for rows the TMA cannot address; variant 5 has a gather
  # mode of its own) and the epilogue that variants 3-5 carry.
  set(blocks
    "__device__ __forceinline__ void gather_chunk\\([^)]*\\)\n{${body}"
    "__device__ __forceinline__ void load_a_tile\\([^)]*\\)\n{${body}"
    "__device__ __forceinline__ void load_b_tile\\([^)]*\\)\n{${body}"
    "__device__ __forceinline__ void store_one\\([^)]*\\)\n{${body}"
    "__device__ __forceinline__ void store_pair\\([^)]*\\)\n{${body}")
elseif(MODULE STREQUAL "gemm")
  set(blocks
    "constexpr size_t ceil_div\\(size_t x, size_t y\\) { return \\(x \\+ y - 1\\) / y[^\n]*"
    "size_t grid_blocks\\(size_t m, size_t n, size_t bm, size_t bn\\)\n{${body}"
    "__device__ __forceinline__ void store_c\\(float \\*c, float acc, float alpha, float beta\\)\n{${body}")
else()
  set(blocks
    "struct Sum {${body}"
    "struct Max {${body}"
    "struct Min {${body}"
    "__device__ T warp_reduce\\(T v\\)\n{${body}"
    "__device__ T block_reduce\\(T v\\)\n{${body}"
    "__device__ T warp_tail\\(T \\*s, unsigned t\\)\n{${body}")
endif()
foreach(re IN LISTS blocks)
  set(first "")
  set(count 0)
  foreach(f IN LISTS files)
    file(READ "${f}" text)
    if(MODULE STREQUAL "gemm_sm90a")
      string(REGEX REPLACE "GK(B[0-9]|12)_SM90A|GK11_TMA" "GK_SM90A" text "${text}")
      if(f MATCHES "/11_[^/]*$" AND re MATCHES "cp_async_wait")
        continue() # variant 11's runs from sm_80 on, under its own guard
      endif()
    endif()
    string(REGEX MATCH "${re}" block "${text}")
    if(block STREQUAL "")
      continue()
    endif()
    math(EXPR count "${count} + 1")
    if(first STREQUAL "")
      set(first "${block}")
      set(first_file "${f}")
    elseif(NOT block STREQUAL first)
      message(SEND_ERROR "${f} and ${first_file} carry different copies of:\n${first}")
      set(failed TRUE)
    endif()
  endforeach()
  if(count LESS 2)
    message(SEND_ERROR "expected at least two copies of the block matching '${re}', found ${count}")
  endif()
  message(STATUS "${count} identical copies of: ${re}")
endforeach()
