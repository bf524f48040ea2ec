# The packaging test: install the build tree to a temporary prefix, then
# configure, build and run tests/package_consumer against it.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCUDA_COMPILER=... -P package_test.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(step_out "${out}" PARENT_SCOPE)
endfunction()
step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
# The public headers are there; the internal ones (timing, verify, random and
# each module's variants.h, whose functions skip the argument checks) are not.
foreach(h status.h cuda_check.h device.h dtype.h reduce.h gemm.h histogram.h conv.h)
  if(NOT EXISTS "${WORK_DIR}/prefix/include/gk/${h}")
    message(FATAL_ERROR "the installed tree lacks include/gk/${h}")
  endif()
endforeach()
file(GLOB_RECURSE installed RELATIVE "${WORK_DIR}/prefix" "${WORK_DIR}/prefix/*")
foreach(f IN LISTS installed)
  if(f MATCHES "(^|/)(variants|timing|verify|random)\\.h$")
    message(FATAL_ERROR "an internal header was installed: ${f}")
  endif()
endforeach()
step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package_consumer" -B "${WORK_DIR}/build"
     "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
step("${WORK_DIR}/build/consumer")
message(STATUS "${step_out}")
if(NOT step_out MATCHES "consumer: 15 reduce variants, best 14, workspace [0-9]+ bytes, GK_SUCCESS.*consumer: 23 gemm variants, best 12 \\(tf32\\), empty product GK_SUCCESS.*, variant 99 GK_ERROR_UNKNOWN_VARIANT.*consumer: [0-9]+ histogram variants, workspace [0-9]+ bytes, GK_SUCCESS.*consumer: 7 conv variants, best 6 at width 7 and 7 at width 1023, workspace [0-9]+ bytes, GK_SUCCESS.*, width 0 GK_ERROR_INVALID_ARGUMENT")
  message(FATAL_ERROR "unexpected output: ${step_out}")
endif()
