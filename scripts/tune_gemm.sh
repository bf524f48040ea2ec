#!/usr/bin/env bash
# How the tile configurations of gemm variants 10 and 11 were chosen
# (gemm/tuning/): scripts/tune.sh for the gemm module at 4096^3, 8192^3 and
# 4097x3001x2049 (GK_TUNE_SIZES to change them). For example:
#   scripts/tune_gemm.sh 10 "default:" "b256x128:-DGK10_BM=256 -DGK10_BN=128"
set -u
variant=${1:?usage: tune_gemm.sh VARIANT "name:flags" ...}
shift
exec "$(dirname "$0")/tune.sh" gemm "$variant" "${GK_TUNE_SIZES:-4096,8192,4097x3001x2049}" "$@"
