#!/usr/bin/env bash
# How GK7_MAX_PASSES (histogram/kernels/07_tuned.cu) is chosen: above 512
# bins, variant 7 counts u32 samples either in passes (one copy of a slice of
# at most 58112 bins per block on sm_90, one read of the input per slice) or,
# beyond GK7_MAX_PASSES passes, with one 64-bit global atomic per value. This
# times both paths at the same sizes and samples, by scripts/tune.sh:
#   "global": -DGK7_MAX_PASSES=0, every bins > 512 on global atomics;
#   "passes": -DGK7_MAX_PASSES=64, every bins up to 64 x 58112 in passes;
# then variant 1, CUB and the read-only stream (the ceiling) at the same sizes
# from the "global" build (none of them depends on the macro), and prints a
# summary per distribution and size. Needs a GPU; run from the repository
# root:
#   scripts/tune_histogram7.sh                 # the sizes below
#   scripts/tune_histogram7.sh 2^28:116224,... # other n:bins
# DISTS=uniform picks fewer distributions (default uniform,skewed,onebin).
# Raw CSV and build logs go to $OUT (default .out/). The two builds are kept
# (build-tune-global, build-tune-passes): a second run rebuilds nothing.
set -u
out=${OUT:-$PWD/.out}
mkdir -p "$out"
# bins from 2^16 (2 passes of at most 58112 bins on sm_90: 232448 bytes per
# block / 4) to 2^20 (19 passes), at n = 2^28 as in the module's table.
sizes=${1:-2^28:65536,2^28:131072,2^28:196608,2^28:262144,2^28:327680,2^28:393216,2^28:458752,2^28:524288,2^28:786432,2^28:2^20}
dists=${DISTS:-uniform,skewed,onebin}

# 1. Variant 7, both builds (no reference: it is timed once, in step 2).
GK_TUNE_ARGS="--param dtype=u32 --param dist=$dists --no-reference" \
  "$(dirname "$0")/tune.sh" histogram 7 "$sizes" "global:-DGK7_MAX_PASSES=0" "passes:-DGK7_MAX_PASSES=64" \
  > "$out/tune_histogram7-v7.csv"

# 2. Variant 1, CUB and the ceiling, same sizes and samples (same seed).
bench=build-tune-global/bench/gk_bench
: > "$out/tune_histogram7-ref.csv"
if [ -x "$bench" ]; then
  "$bench" --module histogram --variant 1 --sizes "$sizes" --param dtype=u32 --param "dist=$dists" --csv --quiet \
      --min-iters 10 --seconds 0.3 2>>"$out/tune-global.log" > "$out/tune_histogram7-ref.csv"
fi

# 3. The summary: per distribution and bins, variant 7's time in passes and
# with global atomics, then variant 1, CUB and the ceiling; and per
# distribution the most passes that are not slower than the global atomics.
awk -F, -v cap=58112 '
function bins_of(size,   b, k, rest, d) {
  b = size; sub(/^[^:]*:/, "", b)
  if (b !~ /\^/) return b + 0
  k = b; sub(/^2\^/, "", k); rest = k; sub(/^[0-9]+/, "", rest); sub(/[+-].*$/, "", k)
  d = rest; sub(/^[+-]/, "", d)
  return 2 ^ k + (rest ~ /^\+/ ? d : rest ~ /^-/ ? -d : 0)
}
FNR == 1 { file++ }
file == 1 && $1 != "config" { ms[$1, $2, $3] = $4; key[$2 SUBSEP $3] = 1; next }
file == 2 && $1 == "histogram" && $11 == "ok" {
  who = $7 == "variant" ? "v" $4 : $5
  ms[who, $2, $3] = $12
}
END {
  printf "%-12s %-14s %6s %9s %8s %9s %8s %9s %9s %9s %9s\n", "params", "size", "passes", "passes_ms", "per_pass",
         "global_ms", "glob/pas", "v1_ms", "cub_ms", "ceil_ms", "v1/ceil"
  n = 0
  for (k in key) { split(k, p, SUBSEP); rows[++n] = p[1] "|" sprintf("%012d", bins_of(p[2])) "|" p[2] }
  # sort rows by params, then bins (insertion sort: a few dozen rows)
  for (i = 2; i <= n; i++) { r = rows[i]; for (j = i - 1; j >= 1 && rows[j] > r; j--) rows[j + 1] = rows[j]; rows[j + 1] = r }
  for (i = 1; i <= n; i++) {
    split(rows[i], p, "|"); par = p[1]; size = p[3]; b = bins_of(size); np = int((b + cap - 1) / cap)
    pm = ms["passes", par, size]; gm = ms["global", par, size]
    v1 = ms["v1", par, size]; cb = ms["cub", par, size]; ce = ms["read_stream", par, size]
    printf "%-12s %-14s %6d %9s %8s %9s %8s %9s %9s %9s %9s\n", par, size, np, pm,
           pm != "" ? sprintf("%.4f", pm / np) : "-", gm, (pm != "" && gm != "") ? sprintf("%.2f", gm / pm) : "-",
           v1 == "" ? "-" : v1, cb == "" ? "-" : cb, ce == "" ? "-" : ce,
           (v1 != "" && ce != "") ? sprintf("%.1f", v1 / ce) : "-"
    if (pm != "" && gm != "" && pm + 0 <= gm + 0 && np > best[par]) best[par] = np
    if (pm != "" && gm != "" && pm + 0 > gm + 0 && (first_loss[par] == "" || np < first_loss[par])) first_loss[par] = np
    seen[par] = 1
  }
  print ""
  for (par in seen)
    printf "%s: passes not slower than global atomics up to %d passes; first slower: %s\n", par,
           best[par], first_loss[par] == "" ? "none measured" : first_loss[par] " passes"
}' "$out/tune_histogram7-v7.csv" "$out/tune_histogram7-ref.csv" | tee "$out/tune_histogram7-summary.txt"
