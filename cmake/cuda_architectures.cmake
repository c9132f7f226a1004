# SPDX-License-Identifier: BSD-3-Clause
# The CUDA architectures feinterp is compiled for, chosen before enable_language(CUDA) (which compiles a
# test program for them, so an architecture the installed nvcc lacks fails the configure step):
#
#   1. CMAKE_CUDA_ARCHITECTURES when given (-D or the CUDAARCHS environment variable), unchanged;
#   2. else the compute capability of every GPU that nvidia-smi lists on this machine ("90" on an H100,
#      real code and PTX), so a build for the machine it runs on compiles only what it needs;
#   3. else FEINTERP_DEFAULT_CUDA_ARCHITECTURES, by default "80-real;90": real code for sm_80, which every 8.x GPU
#      runs (A100, A10, A30, L4, L40, RTX 30xx/40xx: same major version, binary compatible), and real
#      code plus PTX for sm_90 (H100, H200), whose PTX the driver JIT-compiles for newer GPUs (Blackwell).
#      Both are supported by CUDA 12.0-12.x and 13.x; sm_70 (V100) is not supported by CUDA 13
#      ("Unsupported gpu architecture 'compute_70'"), and sm_75 has a limited future there too.
#      scripts/setup.sh sets it to "90-virtual" on a machine with no GPU, where no kernel can run: its
#      build is a quick start, and PTX for one architecture is half the device compilation of the list,
#      and a third less again without machine code (the driver compiles the PTX on a GPU's first load).
#
# In cases 2 and 3 the list is checked against `nvcc --list-gpu-arch`: an architecture this nvcc does
# not support is dropped with a message rather than failing the configure. The choice and its reason
# end up in FEINTERP_CUDA_ARCHITECTURES_REASON, which the configure summary prints.
set(FEINTERP_PORTABLE_CUDA_ARCHITECTURES "80-real;90")
set(FEINTERP_DEFAULT_CUDA_ARCHITECTURES "${FEINTERP_PORTABLE_CUDA_ARCHITECTURES}" CACHE STRING
    "CUDA architectures when none are given and no GPU is visible")

function(feinterp_choose_cuda_architectures)
  if(DEFINED CMAKE_CUDA_ARCHITECTURES AND DEFINED CACHE{FEINTERP_CUDA_ARCHITECTURES_CHOSEN}
     AND "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${FEINTERP_CUDA_ARCHITECTURES_CHOSEN}")
    set(FEINTERP_CUDA_ARCHITECTURES_REASON "${FEINTERP_CUDA_ARCHITECTURES_CHOSEN_REASON}" PARENT_SCOPE)  # a re-configure
    return()
  endif()
  if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
    set(FEINTERP_CUDA_ARCHITECTURES_REASON "given by the user (CMAKE_CUDA_ARCHITECTURES or CUDAARCHS)" PARENT_SCOPE)
    return()
  endif()

  set(_architectures "")
  set(_reason "")
  find_program(FEINTERP_NVIDIA_SMI nvidia-smi)
  mark_as_advanced(FEINTERP_NVIDIA_SMI)
  if(FEINTERP_NVIDIA_SMI)
    execute_process(COMMAND ${FEINTERP_NVIDIA_SMI} --query-gpu=name,compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _gpus RESULT_VARIABLE _status ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE
                    TIMEOUT 30)
    if(_status EQUAL 0 AND _gpus)
      string(REPLACE "\n" ";" _gpus "${_gpus}")
      set(_names "")
      foreach(_gpu IN LISTS _gpus)
        if(_gpu MATCHES "^(.*), *([0-9]+)\\.([0-9]+)$")
          list(APPEND _architectures "${CMAKE_MATCH_2}${CMAKE_MATCH_3}")
          list(APPEND _names "${CMAKE_MATCH_1}")
        endif()
      endforeach()
      list(REMOVE_DUPLICATES _architectures)
      list(REMOVE_DUPLICATES _names)
      if(_architectures)
        string(REPLACE ";" ", " _names "${_names}")
        set(_reason "the GPU nvidia-smi sees (${_names})")
      endif()
    endif()
  endif()
  if(NOT _architectures)
    set(_architectures ${FEINTERP_DEFAULT_CUDA_ARCHITECTURES})
    if(FEINTERP_DEFAULT_CUDA_ARCHITECTURES STREQUAL FEINTERP_PORTABLE_CUDA_ARCHITECTURES)
      set(_reason "no GPU visible: the default list, valid for CUDA 12 and 13 (sm_80 code runs on every 8.x GPU, sm_90 code and PTX on Hopper and newer)")
    else()
      set(_reason "no GPU visible: FEINTERP_DEFAULT_CUDA_ARCHITECTURES (the portable list is ${FEINTERP_PORTABLE_CUDA_ARCHITECTURES})")
      if(NOT FEINTERP_DEFAULT_CUDA_ARCHITECTURES MATCHES "[0-9](-real)?(;|$)")
        string(APPEND _reason "; PTX alone: the driver compiles it when a GPU first loads a kernel unit")
      endif()
    endif()
  endif()

  # Keep what this nvcc supports ("compute_80" ... in `nvcc --list-gpu-arch`, CUDA 11.5 and newer).
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE _supported RESULT_VARIABLE _status
                  ERROR_QUIET)
  if(_status EQUAL 0 AND _supported MATCHES "compute_")
    set(_kept "")
    set(_dropped "")
    foreach(_architecture IN LISTS _architectures)
      string(REGEX REPLACE "-(real|virtual)$" "" _number "${_architecture}")
      if(_supported MATCHES "compute_${_number}[^0-9]" OR _supported MATCHES "compute_${_number}$")
        list(APPEND _kept ${_architecture})
      else()
        list(APPEND _dropped ${_architecture})
      endif()
    endforeach()
    if(_dropped)
      message(STATUS "feinterp: nvcc does not support CUDA architectures ${_dropped}: left out")
      string(APPEND _reason "; ${_dropped} left out: not supported by this nvcc")
    endif()
    if(NOT _kept)
      message(FATAL_ERROR "feinterp: this nvcc (${CMAKE_CUDA_COMPILER}) supports none of the CUDA architectures "
                          "${_architectures}; give some with -DCMAKE_CUDA_ARCHITECTURES=... (see nvcc --list-gpu-arch)")
    endif()
    set(_architectures ${_kept})
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${_architectures}" CACHE STRING
      "CUDA architectures (default: the visible GPU's, else ${FEINTERP_DEFAULT_CUDA_ARCHITECTURES}; cmake/cuda_architectures.cmake)")
  set(FEINTERP_CUDA_ARCHITECTURES_CHOSEN "${_architectures}" CACHE INTERNAL "")
  set(FEINTERP_CUDA_ARCHITECTURES_CHOSEN_REASON "${_reason}" CACHE INTERNAL "")
  set(FEINTERP_CUDA_ARCHITECTURES_REASON "${_reason}" PARENT_SCOPE)
endfunction()
