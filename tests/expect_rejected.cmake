# gk_bench must reject a command line: exit code 2 and a message matching
# EXPECT on stderr.   cmake -DBENCH=... -DARGS="a;b" -DEXPECT=regex -P expect_rejected.cmake
execute_process(COMMAND "${BENCH}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "gk_bench ${ARGS}: expected exit code 2, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "gk_bench ${ARGS}: expected a message matching '${EXPECT}', got:\n${err}")
endif()
message(STATUS "gk_bench ${ARGS}: exit 2, ${err}")
