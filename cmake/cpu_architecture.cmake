# SPDX-License-Identifier: BSD-3-Clause
# FEINTERP_CPU_ARCH: the instruction set feinterp's own C++ (and the CUDA sources' host code) is compiled
# for. The CPU kernels run one element per SIMD lane (cpu/batched_kernels.hpp), so the register width is
# their speed: on an AVX-512 Xeon, physical gradients of P2 tetrahedra ran 3.5x faster with
# -march=native than with x86-64's SSE2 baseline (docs/performance/cpu.md).
#
#   native    (default) the machine that builds: -march=native, where the compiler takes it
#   portable  no -march at all: the compiler's default target (SSE2 on x86-64), for binaries that travel
#             (a wheel or a package built on one machine and installed on others)
#   <other>   passed as -march=<other>, e.g. x86-64-v3 (AVX2 and FMA) for a fleet whose oldest CPU has it
#
# The flags are directory options of feinterp's source tree: a FEM code that pulls feinterp in with
# add_subdirectory or FetchContent keeps its own.
include(CheckCXXCompilerFlag)

set(FEINTERP_CPU_ARCH native CACHE STRING "Instruction set of the CPU code: native, portable, or an -march value (x86-64-v3, ...)")
function(feinterp_choose_cpu_architecture)
  set(_flags "")
  if(FEINTERP_CPU_ARCH STREQUAL "portable")
    set(_reason "portable: the compiler's default target")
  else()
    set(_flag "-march=${FEINTERP_CPU_ARCH}")
    string(MAKE_C_IDENTIFIER "FEINTERP_HAS_MARCH_${FEINTERP_CPU_ARCH}" _result)
    check_cxx_compiler_flag("${_flag}" ${_result})
    if(${_result})
      set(_flags "${_flag}")
      set(_reason "${_flag}")
    elseif(FEINTERP_CPU_ARCH STREQUAL "native")
      set(_reason "portable: ${CMAKE_CXX_COMPILER_ID} refuses -march=native")
    else()
      message(FATAL_ERROR "FEINTERP_CPU_ARCH=${FEINTERP_CPU_ARCH}: ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} "
                          "refuses ${_flag}; expected native, portable or an -march value it takes (x86-64-v3, ...)")
    endif()
  endif()
  set(FEINTERP_CPU_ARCH_FLAGS "${_flags}" PARENT_SCOPE)
  set(FEINTERP_CPU_ARCH_REASON "${_reason}" PARENT_SCOPE)
endfunction()
