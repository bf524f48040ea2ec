# What a kernel file promises its reader: copy it and its module's kernels/
# headers (kernels/*.cuh) into a project, and it compiles with nothing but the
# CUDA toolkit. This script checks exactly that: it copies KERNEL and the
# *.cuh files of KERNEL's own folder (no other file) into a fresh, empty
# WORK_DIR and compiles the copy there with nvcc, with no -I and no -D of
# ours. A file that includes a header of the library (gk/..., another
# module's, one outside kernels/) fails to compile there; one that reaches
# out of the folder by a relative path ("../x.h") is caught by its
# dependency list: nothing it includes may lie in SOURCE_DIR or BUILD_DIR
# (the project's trees) outside WORK_DIR.
#   cmake -DNVCC=path/to/nvcc -DKERNEL=path/to/NN_name.cu -DARCH=90|90a -DWORK_DIR=dir
#         [-DSOURCE_DIR=dir -DBUILD_DIR=dir] -P standalone_kernel.cmake
foreach(v NVCC KERNEL ARCH WORK_DIR)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "standalone_kernel.cmake needs -D${v}=...")
  endif()
endforeach()

get_filename_component(kernel_dir "${KERNEL}" DIRECTORY)
get_filename_component(kernel_name "${KERNEL}" NAME)
get_filename_component(stem "${KERNEL}" NAME_WE)
file(GLOB headers "${kernel_dir}/*.cuh")

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(COPY "${KERNEL}" ${headers} DESTINATION "${WORK_DIR}")

# The copy is compiled as far as it can fail for want of something outside
# the folder: the preprocessor, nvcc's front ends (host and device), the
# device compiler down to PTX and the host compiler, into an object. Not
# ptxas: turning that PTX into machine code depends on nothing the file
# includes, and the library's build already runs it on every kernel file.
# Device code is compiled unoptimised (-G) for the same reason: optimising
# it finds no missing declaration. Compiled so, a file takes a quarter of
# the time of a full build of it or less (nvcc 13.0: histogram's
# 10_vector_rows.cu 12 s against 45 s), and there is one such test per
# kernel file.
# sm_90a (wgmma, setmaxnreg: __CUDA_ARCH_FEAT_SM90_ALL) is spelt the same way,
# with its own virtual architecture.
set(arch_flags -G -gencode "arch=compute_${ARCH},code=compute_${ARCH}")

list(JOIN arch_flags " " arch_text)
set(copied "${kernel_name}")
foreach(h IN LISTS headers)
  get_filename_component(hn "${h}" NAME)
  string(APPEND copied " ${hn}")
endforeach()
message(STATUS "in ${WORK_DIR}: ${copied}")
execute_process(COMMAND "${NVCC}" ${arch_flags} -c "${kernel_name}" -o "${stem}.o"
                WORKING_DIRECTORY "${WORK_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${kernel_name} does not compile alone with its folder's headers (${copied}), "
                      "nvcc ${arch_text} -c ${kernel_name} (exit ${rc}):\n${out}")
endif()
if(NOT EXISTS "${WORK_DIR}/${stem}.o")
  message(FATAL_ERROR "nvcc succeeded but wrote no ${stem}.o")
endif()

# What it included: every file must be one of the copies or lie outside the
# project's trees (the CUDA toolkit, the C library).
execute_process(COMMAND "${NVCC}" ${arch_flags} -M "${kernel_name}"
                WORKING_DIRECTORY "${WORK_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE deps ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc ${arch_text} -M ${kernel_name} failed (exit ${rc}):\n${err}")
endif()
string(REPLACE "\\\n" " " deps "${deps}")
string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
separate_arguments(deps UNIX_COMMAND "${deps}")
get_filename_component(work_real "${WORK_DIR}" REALPATH)
set(roots "")
foreach(d IN ITEMS "${SOURCE_DIR}" "${BUILD_DIR}")
  if(NOT d STREQUAL "")
    get_filename_component(d "${d}" REALPATH)
    list(APPEND roots "${d}")
  endif()
endforeach()
foreach(dep IN LISTS deps)
  get_filename_component(real "${dep}" REALPATH BASE_DIR "${WORK_DIR}")
  string(FIND "${real}/" "${work_real}/" in_work)
  if(in_work EQUAL 0)
    continue()
  endif()
  foreach(root IN LISTS roots)
    string(FIND "${real}/" "${root}/" in_root)
    if(in_root EQUAL 0)
      message(FATAL_ERROR "${kernel_name} includes ${dep} (${real}), which lies in the project outside "
                          "the copied folder: a project that copies ${copied} would not have it")
    endif()
  endforeach()
endforeach()
message(STATUS "nvcc ${arch_text} -c ${kernel_name}: ok, and it includes nothing of the project but the copies")
