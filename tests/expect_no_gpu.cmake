# gk_bench with every GPU hidden must fail clearly: exit code 2 and a message
# that says a GPU is needed.   cmake -DBENCH=... -P expect_no_gpu.cmake
set(ENV{CUDA_VISIBLE_DEVICES} "-1")
execute_process(COMMAND "${BENCH}" --module reduce --sizes 1000 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit code 2, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "no CUDA-capable GPU is visible, and the benchmark needs one")
  message(FATAL_ERROR "expected the no-GPU message, got:\n${err}")
endif()
message(STATUS "gk_bench without a GPU: exit 2, ${err}")
