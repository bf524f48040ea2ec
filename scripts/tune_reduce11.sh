#!/usr/bin/env bash
# How variant 11's compile-time choices were checked: scripts/tune.sh for the
# reduce module, one gk_bench build per configuration of the GK11_* macros of
# reduce/kernels/11_vectorized_single_pass.cu (GK11_BLOCK, GK11_UNROLL,
# GK11_TICKET_FOR_SUMS), variant 11 timed against CUB in the same process at
# 2^20, 2^24 and 2^28. For example:
#   scripts/tune_reduce11.sh "default:" "ticket:-DGK11_TICKET_FOR_SUMS=1" \
#       "b256:-DGK11_BLOCK=256" "b1024:-DGK11_BLOCK=1024" "u8:-DGK11_UNROLL=8"
# Prints one CSV line per configuration and size; needs a GPU.
set -u
exec "$(dirname "$0")/tune.sh" reduce 11 2^20,2^24,2^28 "$@"
