# gk_module.cmake: the targets that every module (reduce, gemm, histogram,
# conv) builds the same way, written once. The top-level CMakeLists.txt
# includes it; each NAME/CMakeLists.txt globs its kernel files and calls the
# two functions below.

# gk_add_module(NAME SOURCES file...): the module's library gk_NAME, exported
# and installed as gpukernels::NAME (libgpukernels_NAME.a), from NAME.c,
# variants.c and the kernel files. Its public headers are NAME/include/gk/.
# The kernel files get no include directories of their own: each compiles
# with nothing but its kernels/ folder (the standalone tests check that).
function(gk_add_module name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  set(t gk_${name})
  add_library(${t} STATIC ${arg_SOURCES})
  add_library(gpukernels::${name} ALIAS ${t})
  set_target_properties(${t} PROPERTIES OUTPUT_NAME gpukernels_${name} EXPORT_NAME ${name})
  target_include_directories(${t} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                                         $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${t} PUBLIC gk_common)
  # nvcc's host code (kernel launch stubs) calls into the C++ runtime; a
  # program linked by a C linker must name it.
  target_link_libraries(${t} INTERFACE $<$<LINK_LANGUAGE:C>:stdc++>)
  target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
  endif()
endfunction()

# gk_add_module_support(NAME REF file... [REF_LIBS lib...]): what the tests
# and the bench build on. gk_NAME_ref, from the REF files (the CPU reference,
# its tolerance and generators, and the vendor library behind a C call),
# linked with gk_NAME, gk_harness and REF_LIBS; its headers are NAME/*.h.
# And, when the bench or the tests are built, gk_NAME_bench (the module's
# entry in gk_bench, NAME/bench_NAME.c), appended to the global property
# GK_BENCH_MODULE_LIBS that bench/CMakeLists.txt links into gk_bench.
function(gk_add_module_support name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "REF;REF_LIBS")
  set(t gk_${name}_ref)
  add_library(${t} STATIC ${arg_REF})
  target_include_directories(${t} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${t} PUBLIC gk_${name} gk_harness ${arg_REF_LIBS})
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
  endif()
  if(GK_BUILD_BENCH OR GK_BUILD_TESTS)
    add_library(gk_${name}_bench STATIC bench_${name}.c)
    target_link_libraries(gk_${name}_bench PUBLIC gk_${name}_ref gk_bench_support)
    set_property(GLOBAL APPEND PROPERTY GK_BENCH_MODULE_LIBS gk_${name}_bench)
  endif()
endfunction()
