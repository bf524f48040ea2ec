# gk_bench --list --json: every module's description as JSON, without a GPU,
# checked by check_bench_json.py.
#   cmake -DBENCH=... -DPYTHON=... -DCHECKER=... -DWORK_DIR=... -P module_json_test.cmake
set(json "${WORK_DIR}/modules.json")
execute_process(COMMAND "${BENCH}" --list --json "${json}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gk_bench --list --json failed (${rc}): ${err}")
endif()
execute_process(COMMAND "${PYTHON}" "${CHECKER}" "${json}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_bench_json.py: ${out}\n${err}")
endif()
