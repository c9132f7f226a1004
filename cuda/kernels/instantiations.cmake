# SPDX-License-Identifier: BSD-3-Clause
# Every translation unit that instantiates kernels, generated from the one list below (instantiation.cu.in):
# a new kernel family is one line here, a new element type one word in FEINTERP_ELEMENT_SHAPES (and its
# header and visit case), with no hand-written instantiation file.
#
# A line: NAME | HEADER (under cuda/kernels/) | TEMPLATE | PARAMETERS | PRECISIONS | SHAPES | SPLIT
#   TEMPLATE    the kernel-set function template, with @ELEMENT@ (the element class, e.g. Triangle<2>) and
#               @REAL@ (double or float) substituted; a set with no @ELEMENT@ dispatches over the types
#               itself (visit) and is instantiated once per precision
#   SHAPES      all (FEINTERP_ELEMENT_SHAPES), tensor (the shapes with a tensor-product basis), solid (the 3D
#               shapes) or none
#   SPLIT       shape: one unit per (shape, precision), its three orders together; order: one per (shape,
#               order, precision). The sum-factorised sets hold the most kernels per order (Q1 = 1..p+3 x the
#               compiled C x the operations), so a unit per order lets a many-core build compile them side by side.
set(FEINTERP_ELEMENT_SHAPES line triangle quadrilateral tetrahedron hexahedron)
set(FEINTERP_TENSOR_SHAPES quadrilateral hexahedron)
set(FEINTERP_SOLID_SHAPES tetrahedron hexahedron)
set(FEINTERP_ELEMENT_ORDERS 1 2 3)
set(FEINTERP_KERNEL_SETS
  "dense|dense/kernel_set.cuh|kernel_set<@ELEMENT@, @REAL@>|Operation, int, int, bool|double float|all|shape"
  "dense_async_gather|dense/async_gather_kernel_set.cuh|async_gather_kernel_set<@REAL@>|ElementType, Operation, int|double float|none|shape"
  "dense_64_registers|dense/dense_64_registers_kernel_set.cuh|dense_64_registers_kernel_set<@ELEMENT@>|Operation, int|double|solid|shape"
  "transpose|transpose/transpose_kernel_set.cuh|transpose_kernel_set<@ELEMENT@, @REAL@>|Operation, int, int, bool, bool, bool|double float|all|shape"
  "tensor_cores|tensor_cores/tensor_core_kernel_set.cuh|tensor_core_kernel_set<@ELEMENT@>|Operation, int, bool|double|all|shape"
  "sum_factorised|sum_factorised/sum_factorised_kernel_set.cuh|sum_factorised_kernel_set<@ELEMENT@, @REAL@>|Operation, int, int, int, bool|double float|tensor|order"
  "diagonal|diagonal/diagonal_kernel_set.cuh|diagonal_kernel_set<@ELEMENT@, @REAL@>|FusedOperator, int|double float|all|shape"
  "sum_factorised_operator|sum_factorised/sum_factorised_operator_kernel_set.cuh|sum_factorised_operator_kernel_set<@ELEMENT@, @REAL@>|TensorOperatorKind, int, int, int, bool|double float|tensor|order"
  "sum_factorised_transpose|sum_factorised/sum_factorised_transpose_kernel_set.cuh|sum_factorised_transpose_kernel_set<@ELEMENT@, @REAL@>|Operation, int, int, bool, int, bool|double float|tensor|order")

# feinterp_kernel_instantiations(OUTPUT_DIRECTORY SOURCES_VARIABLE): writes the units, returns their paths.
function(feinterp_kernel_instantiations directory sources_variable)
  set(_sources)
  set(_template ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/instantiation.cu.in)
  foreach(_line IN LISTS FEINTERP_KERNEL_SETS)
    string(REPLACE "|" ";" _fields "${_line}")
    list(GET _fields 0 _name)
    list(GET _fields 1 FEINTERP_HEADER)
    list(GET _fields 2 _function)
    list(GET _fields 3 _parameters)
    list(GET _fields 4 _precisions)
    list(GET _fields 5 _shapes)
    list(GET _fields 6 _split)
    string(REPLACE " " ";" _precisions "${_precisions}")
    if(_shapes STREQUAL "all")
      set(_shapes ${FEINTERP_ELEMENT_SHAPES})
    elseif(_shapes STREQUAL "tensor")
      set(_shapes ${FEINTERP_TENSOR_SHAPES})
    elseif(_shapes STREQUAL "solid")
      set(_shapes ${FEINTERP_SOLID_SHAPES})
    else()
      set(_shapes "")
    endif()
    foreach(_real IN LISTS _precisions)
      string(REPLACE "@REAL@" "${_real}" _typed "${_function}")
      set(_units)  # "file-stem|ELEMENT,ELEMENT..." per unit
      if(NOT _shapes)
        list(APPEND _units "${_name}_${_real}|")
      endif()
      foreach(_shape IN LISTS _shapes)
        string(SUBSTRING ${_shape} 0 1 _initial)
        string(TOUPPER ${_initial} _initial)
        string(SUBSTRING ${_shape} 1 -1 _rest)
        if(_split STREQUAL "order")
          foreach(_order IN LISTS FEINTERP_ELEMENT_ORDERS)
            list(APPEND _units "${_name}_${_shape}_p${_order}_${_real}|${_initial}${_rest}<${_order}>")
          endforeach()
        else()
          set(_elements)
          foreach(_order IN LISTS FEINTERP_ELEMENT_ORDERS)
            list(APPEND _elements "${_initial}${_rest}<${_order}>")
          endforeach()
          string(REPLACE ";" "," _elements "${_elements}")
          list(APPEND _units "${_name}_${_shape}_${_real}|${_elements}")
        endif()
      endforeach()
      foreach(_unit IN LISTS _units)
        string(REPLACE "|" ";" _unit "${_unit}")
        list(GET _unit 0 _stem)
        set(_elements "")
        list(LENGTH _unit _count)
        if(_count GREATER 1)
          list(GET _unit 1 _elements)
        endif()
        set(FEINTERP_INSTANTIATIONS "")
        if(_elements)
          string(REPLACE "," ";" _elements "${_elements}")
          foreach(_element IN LISTS _elements)
            string(REPLACE "@ELEMENT@" "${_element}" _instance "${_typed}")
            string(APPEND FEINTERP_INSTANTIATIONS "template KernelSet<${_real}> ${_instance}(${_parameters});\n")
          endforeach()
        else()
          string(APPEND FEINTERP_INSTANTIATIONS "template KernelSet<${_real}> ${_typed}(${_parameters});\n")
        endif()
        set(FEINTERP_UNIT "${_stem}")
        set(_source ${directory}/${_stem}.cu)
        configure_file(${_template} ${_source} @ONLY)
        list(APPEND _sources ${_source})
      endforeach()
    endforeach()
  endforeach()
  set(${sources_variable} ${_sources} PARENT_SCOPE)
endfunction()
