#!/usr/bin/env bash
# Runs a GPU test under compute-sanitizer: memcheck (out-of-bounds and
# misaligned accesses, leaks), racecheck (shared-memory races) and synccheck
# (barrier misuse). The test's own arguments choose the small, odd sizes
# that keep this fast:
#   scripts/sanitize.sh build/tests/test_reduce_gpu --sizes 1,257,65537,2^20+13
#   scripts/sanitize.sh build/tests/test_gemm_gpu --small
#   scripts/sanitize.sh build/tests/test_histogram_gpu --small
#   scripts/sanitize.sh build/tests/test_conv_gpu --small
#   scripts/sanitize.sh build/tests/test_threads_gpu --small
# Exit 0 when every tool reports 0 errors and the test passes under each; 77
# (skip) without a GPU or without compute-sanitizer.
set -u
test_bin=${1:?usage: sanitize.sh path/to/test [test arguments]}
shift
"$test_bin" "$@" >/dev/null
case $? in
  77) echo "SKIPPED: no CUDA GPU is visible"; exit 77 ;;
  0) ;;
  *) echo "the test fails even without the sanitizer"; exit 1 ;;
esac
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
if [ -z "$sanitizer" ]; then
  echo "SKIPPED: compute-sanitizer not found"
  exit 77
fi
name=$(basename "$test_bin")
status=0
for tool in memcheck racecheck synccheck; do
  extra=""
  [ "$tool" = memcheck ] && extra="--leak-check full"
  start=$(date +%s)
  out=$("$sanitizer" --tool "$tool" $extra --error-exitcode 3 "$test_bin" "$@" 2>&1)
  rc=$?
  summary=$(printf '%s\n' "$out" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed, " | tr '\n' ' ')
  echo "$name $tool: exit $rc, $(( $(date +%s) - start )) s: $summary"
  if [ $rc -ne 0 ]; then
    printf '%s\n' "$out" | tail -n 60
    status=1
  fi
done
[ $status -eq 0 ] && echo "sanitizer ($name): clean" || echo "sanitizer ($name): FAILED"
exit $status
