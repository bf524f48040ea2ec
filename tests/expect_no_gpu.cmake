# gk_bench with every GPU hidden must fail clearly: exit code 2 and a message
# that says a GPU is needed (expect_rejected.cmake's check, on this command
# line).   cmake -DBENCH=... -P expect_no_gpu.cmake
set(ENV{CUDA_VISIBLE_DEVICES} "-1")
set(ARGS --module reduce --sizes 1000)
set(EXPECT "no CUDA-capable GPU is visible, and the benchmark needs one")
include(${CMAKE_CURRENT_LIST_DIR}/expect_rejected.cmake)
