#!/usr/bin/env bash
# Compile every kernel file alone, as the build does (Release: -O3, sm_90;
# sm_90a for files with wgmma/TMA/setmaxnreg code), and write one SASS
# listing per kernel file, with instruction addresses and encodings removed,
# so that two trees can be compared with diff:
#   scripts/sass_dump.sh OUT_DIR [module ...]
# Needs cuobjdump (Python package nvidia-cuda-cuobjdump) on PATH or in
# $CUOBJDUMP.
set -euo pipefail
out=$1; shift
mods=("$@"); [ ${#mods[@]} -eq 0 ] && mods=(reduce gemm histogram conv)
root=$(cd "$(dirname "$0")/.." && pwd)
cuobjdump=${CUOBJDUMP:-cuobjdump}
mkdir -p "$out"
for m in "${mods[@]}"; do
  for f in "$root/$m"/kernels/*.cu; do
    stem=$(basename "$f" .cu)
    arch="-arch=sm_90"
    grep -q __CUDA_ARCH_FEAT_SM90_ALL "$f" && arch="-gencode=arch=compute_90a,code=sm_90a"
    nvcc -O3 -DNDEBUG -std=c++17 $arch -cubin -I"$root/$m/kernels" -o "$out/$m-$stem.cubin" "$f"
    "$cuobjdump" -sass "$out/$m-$stem.cubin" |
      sed -E -e 's@/\*[0-9a-f]{4,}\*/@@g' -e 's@/\* 0x[0-9a-f]+ \*/@@g' -e 's/[[:space:]]+$//' |
      grep -v '^[[:space:]]*$' > "$out/$m-$stem.sass"
    rm -f "$out/$m-$stem.cubin"
  done
done
