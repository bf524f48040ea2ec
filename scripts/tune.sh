#!/usr/bin/env bash
# How a variant's compile-time tuning macros were chosen: build gk_bench once
# per configuration (CMAKE_CUDA_FLAGS), then time the variant against its
# module's reference in the same process at the given sizes. For example:
#   scripts/tune.sh gemm 10 4096,8192 "default:" "bk16:-DGK10_BK=16"
#   scripts/tune.sh histogram 7 2^28:256,2^28:65536 "default:" "u8:-DGK7_UNROLL=8"
# Extra gk_bench options (e.g. --param dist=uniform) go in GK_TUNE_ARGS.
# Prints one CSV line per configuration, parameter set and size (time,
# GB/s, TFLOP/s, ratio to the reference); needs a GPU. Logs go to $OUT
# (default .out/).
set -u
out=${OUT:-$PWD/.out}
mkdir -p "$out"
module=${1:?usage: tune.sh MODULE VARIANT SIZES "name:flags" ...}
variant=${2:?usage: tune.sh MODULE VARIANT SIZES "name:flags" ...}
sizes=${3:?usage: tune.sh MODULE VARIANT SIZES "name:flags" ...}
shift 3
for cfg in "$@"; do
  name=${cfg%%:*}; flags=${cfg#*:}
  ( cmake -S . -B "build-tune-$name" -DCMAKE_BUILD_TYPE=Release -DGK_BUILD_TESTS=OFF \
      "-DCMAKE_CUDA_FLAGS=$flags" > "$out/tune-$name.log" 2>&1 &&
    cmake --build "build-tune-$name" --target gk_bench -j 8 >> "$out/tune-$name.log" 2>&1 ||
    echo "build $name failed (see $out/tune-$name.log)" ) &
done
wait
# CSV columns (bench/results.c): 2 params, 3 size, 4 id, 12 median_ms, 16 gbps, 17 tflops, 19 vs_reference.
echo "config,params,size,ms,gbps,tflops,vs_reference"
for cfg in "$@"; do
  name=${cfg%%:*}
  [ -x "build-tune-$name/bench/gk_bench" ] || continue
  # shellcheck disable=SC2086
  "build-tune-$name/bench/gk_bench" --module "$module" --variant "$variant" --sizes "$sizes" --csv --quiet \
      --min-iters 10 --seconds 0.3 ${GK_TUNE_ARGS:-} 2>>"$out/tune-$name.log" |
    awk -F, -v c="$name" -v v="$variant" '$4==v {printf "%s,%s,%s,%s,%s,%s,%s\n", c, $2, $3, $12, $16, $17, $19}'
done
