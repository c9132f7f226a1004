// SPDX-License-Identifier: BSD-3-Clause
// Validation of one interpolation call's arguments, shared by the CPU and GPU backends so that both
// refuse the same inputs with the same messages. Connectivity is validated separately, once per block
// (validate_connectivity in block.hpp). A call that passes allocates nothing here: the message is built
// only to throw.
#pragma once

#include <cstddef>

#include <feinterp/core/operation.hpp>
#include <feinterp/elements/element_type.hpp>

namespace feinterp {

/// A call's arrays, by address and size, whatever their precision.
struct InterpolationArguments {
  Operation op;
  ElementType block_type;
  offset_t element_count;
  int space_dimension;           ///< the block's s, default applied (space_dimension(BlockView))
  ElementType table_type;
  int points;
  offset_t node_count;
  const void* field;
  std::size_t field_size;        ///< values
  int components;
  const void* out;
  std::size_t out_size;
  const void* detj;              ///< physical gradients only; may be null
  std::size_t detj_size;
  const void* coordinates;       ///< physical gradients only
};

/// The arguments of a call with arrays of T.
template <class T>
InterpolationArguments interpolation_arguments(Operation op, ElementType block_type, offset_t element_count,
                                               int space_dimension, ElementType table_type, int points,
                                               offset_t node_count, BasicFieldView<T> u, BasicOutputView<T> out,
                                               BasicOutputView<T> detj, const T* coordinates) {
  return {op,     block_type,   element_count, space_dimension, table_type, points, node_count,
          u.data, u.size,       u.components,  out.data,        out.size,   detj.data, detj.size,
          coordinates};
}

/// Throws std::invalid_argument "<function> on a block of <E> <type> elements: <what was wrong>, expected
/// <what>" for a table of another element type, a component count outside 1..max_components, a field
/// whose size is not node_count * components, an output or det J array too small, or null data where
/// data is needed.
void check_interpolation_arguments(const char* function, const InterpolationArguments& args);

/// A transpose's arrays, by address and size, whatever their precision.
struct TransposeArguments {
  Operation op;                  ///< a transpose
  ElementType block_type;
  offset_t element_count;
  int space_dimension;
  ElementType table_type;
  int points;
  offset_t node_count;
  const void* point_data;        ///< in the layout of the forward operation's output
  std::size_t point_data_size;
  int components;
  const void* out;
  std::size_t out_size;
  TransposeOptions options;
  bool has_weights;              ///< the point set is a quadrature rule
  const void* coordinates;
};

template <class T>
TransposeArguments transpose_arguments(Operation op, ElementType block_type, offset_t element_count, int space_dimension,
                                       ElementType table_type, int points, offset_t node_count, BasicFieldView<T> f,
                                       BasicOutputView<T> out, const TransposeOptions& options, bool has_weights,
                                       const T* coordinates) {
  return {op,     block_type, element_count, space_dimension, table_type, points,      node_count, f.data,
          f.size, f.components, out.data,    out.size,        options,    has_weights, coordinates};
}

/// Values in a transpose's result: node_count * C (nodes) or elements * nodes_per_element * C.
std::size_t transpose_output_size(const TransposeArguments& args);

/// True when a transpose needs the geometry (physical gradients, or w_q |det J| folded in).
inline bool transpose_needs_geometry(Operation op, const TransposeOptions& options) {
  return forward_of(op) == Operation::physical_gradients || options.weighted;
}

/// Throws std::invalid_argument, as check_interpolation_arguments, for a transpose: the point data's size
/// (elements * points * components * directions), the output's, a weighted call without weights or
/// without coordinates, a physical-gradient transpose without coordinates.
void check_transpose_arguments(const char* function, const TransposeArguments& args);

/// A fused operator's coefficient, by address and size.
struct CoefficientArguments {
  const void* data = nullptr;
  std::size_t size = 0;
  CoefficientShape shape = CoefficientShape::none;
};

template <class T>
CoefficientArguments coefficient_arguments(BasicCoefficientView<T> c) {
  return {c.data, c.size, c.shape};
}

/// A fused operator's arrays (Interpolator::apply_operator): `point_data` is then the nodal field
/// (node_count * components values), the output as for the weighted transpose of forward_of(op) into
/// options.target; the coefficient elements * points * coefficient_entries values, a tensor for diffusion
/// only. Throws std::invalid_argument as above; the point set must have weights and the plan coordinates.
void check_fused_arguments(const char* function, FusedOperator op, const TransposeArguments& args,
                           const CoefficientArguments& coefficient);

/// A fused operator's diagonal (Interpolator::operator_diagonal): as check_fused_arguments, with no field
/// (`point_data` is not read); `components` sizes the output.
void check_diagonal_arguments(const char* function, FusedOperator op, const TransposeArguments& args,
                              const CoefficientArguments& coefficient);

}  // namespace feinterp
