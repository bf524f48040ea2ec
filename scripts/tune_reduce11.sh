#!/usr/bin/env bash
# How variant 11's compile-time choices were checked: build gk_bench once per
# configuration of the GK11_* macros of reduce/kernels/11_vectorized_single_pass.cu
# (GK11_BLOCK, GK11_UNROLL, GK11_TICKET_FOR_SUMS) and time variant 11 against
# CUB in the same process, at 2^20, 2^24 and 2^28. For example:
#   scripts/tune_reduce11.sh "default:" "ticket:-DGK11_TICKET_FOR_SUMS=1" \
#       "b256:-DGK11_BLOCK=256" "b1024:-DGK11_BLOCK=1024" "u8:-DGK11_UNROLL=8"
# Prints one CSV line per configuration and size; needs a GPU.
set -u
out=${OUT:-$PWD/.out}
mkdir -p "$out"
for cfg in "$@"; do
  name=${cfg%%:*}; flags=${cfg#*:}
  ( cmake -S . -B "build-tune-$name" -DCMAKE_BUILD_TYPE=Release -DGK_BUILD_TESTS=OFF \
      "-DCMAKE_CUDA_FLAGS=${flags//;/ }" > "$out/tune-$name.log" 2>&1 &&
    cmake --build "build-tune-$name" --target gk_bench -j 4 >> "$out/tune-$name.log" 2>&1 ||
    echo "build $name failed" ) &
done
wait
echo "config,size,v11_ms,cub_ms,v11_gbps,v11_vs_cub"
for cfg in "$@"; do
  name=${cfg%%:*}
  # CSV columns (bench/results.c): 3 size, 4 id, 5 key, 12 median_ms, 16 gbps, 19 vs_reference.
  "build-tune-$name/bench/gk_bench" --module reduce --variant 11 --sizes 2^20,2^24,2^28 --csv --quiet --min-iters 20 \
      2>>"$out/tune-$name.log" |
    awk -F, -v c="$name" '$4==11{v[$3]=$12; g[$3]=$16; r[$3]=$19} $5=="cub"{u[$3]=$12} END{for (s in v) printf "%s,%s,%s,%s,%s,%s\n", c, s, v[s], u[s], g[s], r[s]}' | sort -t, -k2n
done
