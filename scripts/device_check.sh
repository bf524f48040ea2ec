#!/usr/bin/env bash
# The README's two commands on a GPU machine, from a clean build directory,
# with their logs kept: used for the runs quoted in the closing notes.
#   scripts/device_check.sh test    # cmake --workflow --preset test
#   scripts/device_check.sh bench   # cmake --workflow --preset bench
# Logs, CTest's full log and the bench JSON go to $OUT (default .out/).
set -u -o pipefail
out=${OUT:-$PWD/.out}
mkdir -p "$out"
stage=${1:?usage: device_check.sh test|bench}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
rm -rf build
start=$(date +%s)
cmake --workflow --preset "$stage" > "$out/$stage.log" 2>&1
rc=$?
echo "cmake --workflow --preset $stage: exit $rc after $(( $(date +%s) - start )) s"
if [ "$stage" = test ]; then
  cp build/Testing/Temporary/LastTest.log "$out/ctest_full.log" 2>/dev/null
  grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|tests failed" "$out/test.log"
  grep -hE "(memcheck|racecheck|synccheck): exit|^sanitizer|test_(reduce|gemm|histogram|conv)_gpu: .* passed|FAILED" "$out/ctest_full.log"
else
  cp build/bench/results.json "$out/bench.json" 2>/dev/null
  sed -n '/^gpukernels bench/,$p' "$out/bench.log"
  tail -3 "$out/bench.log"
fi
exit $rc
