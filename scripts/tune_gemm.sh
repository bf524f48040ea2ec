#!/usr/bin/env bash
# How the tile configurations of gemm variants 10 and 11 were chosen: build
# gk_bench once per configuration of the kernel files' GK10_* / GK11_*
# macros, then time the variant against cuBLAS in the same process at
# 4096^3, 8192^3 and 4097x3001x2049. For example:
#   scripts/tune_gemm.sh 10 "default:" "b256x128:-DGK10_BM=256 -DGK10_BN=128"
# Prints one CSV line per configuration and size (time, TFLOP/s, ratio to the
# variant's cuBLAS reference); needs a GPU. Logs go to $OUT (default .out/).
set -u
out=${OUT:-$PWD/.out}
mkdir -p "$out"
variant=${1:?usage: tune_gemm.sh VARIANT "name:flags" ...}
shift
sizes=${GK_TUNE_SIZES:-4096,8192,4097x3001x2049}
for cfg in "$@"; do
  name=${cfg%%:*}; flags=${cfg#*:}
  ( cmake -S . -B "build-tune-$name" -DCMAKE_BUILD_TYPE=Release -DGK_BUILD_TESTS=OFF \
      "-DCMAKE_CUDA_FLAGS=$flags" > "$out/tune-$name.log" 2>&1 &&
    cmake --build "build-tune-$name" --target gk_bench -j 8 >> "$out/tune-$name.log" 2>&1 ||
    echo "build $name failed (see $out/tune-$name.log)" ) &
done
wait
echo "config,size,ms,tflops,vs_reference"
for cfg in "$@"; do
  name=${cfg%%:*}
  [ -x "build-tune-$name/bench/gk_bench" ] || continue
  "build-tune-$name/bench/gk_bench" --module gemm --variant "$variant" --sizes "$sizes" --csv --quiet \
      --min-iters 10 --seconds 0.3 2>>"$out/tune-$name.log" |
    awk -F, -v c="$name" -v v="$variant" '$4==v {printf "%s,%s,%s,%s,%s\n", c, $3, $12, $17, $19}'
done
