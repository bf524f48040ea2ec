#!/usr/bin/env bash
# The whole check on a GPU machine, in one go: the README's two commands from
# a clean build directory, then the >2^31 test and the sanitizer with their
# logs. Logs and the bench JSON go to $OUT (or .out/). Used for the lent GPU.
#   scripts/device_check.sh [quick]
set -u -o pipefail
out=${OUT:-$PWD/.out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee "$out/gpu.txt"
nvcc --version | tail -1 | tee -a "$out/gpu.txt"
rm -rf build
t0=$(date +%s)
# 1. The README's test command (all tests, GPU ones included).
timeout 540 cmake --workflow --preset test 2>&1 | tee "$out/test.log" | grep -E "Test +#|tests passed|FAILED|Error|error:" 
echo "test workflow: exit ${PIPESTATUS[0]}, $(( $(date +%s) - t0 )) s"
# 2. The README's bench command.
t1=$(date +%s)
timeout 300 cmake --workflow --preset bench > "$out/bench.log" 2>&1
echo "bench workflow: exit $?, $(( $(date +%s) - t1 )) s"
cp build/bench/results.json "$out/bench.json" 2>/dev/null
sed -n '/^gpukernels bench/,$p' "$out/bench.log"
