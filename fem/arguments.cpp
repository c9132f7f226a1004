// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/arguments.hpp>

#include <stdexcept>
#include <string>

#include <feinterp/core/limits.hpp>

namespace feinterp {

namespace {

template <class Arguments>
[[noreturn]] void fail(const char* function, const Arguments& a, const std::string& what) {
  throw std::invalid_argument(std::string(function) + " on a block of " + std::to_string(a.element_count) + " " +
                              to_string(a.block_type) + " elements: " + what);
}

// What every call shares: the table's element type, the point and element counts, the components.
template <class Arguments>
void check_common(const char* function, const Arguments& a) {
  check_order(a.block_type);
  if (a.table_type != a.block_type)
    fail(function, a, "the tabulation is for " + to_string(a.table_type) + ", expected one for " + to_string(a.block_type));
  if (a.points < 1) fail(function, a, "the point set is empty, expected at least one point");
  if (a.element_count < 0) fail(function, a, "negative element count " + std::to_string(a.element_count));
  if (a.node_count < 0) fail(function, a, "negative node count " + std::to_string(a.node_count));
  if (a.components < 1 || a.components > max_components)
    fail(function, a, "the field has " + std::to_string(a.components) + " components, expected 1 to " +
                          std::to_string(max_components));
}

}  // namespace

void check_interpolation_arguments(const char* function, const InterpolationArguments& a) {
  check_common(function, a);
  if (is_transpose(a.op)) fail(function, a, std::string(operation_name(a.op)) + " is a transpose, expected a forward operation");
  const int D = dimension(a.block_type.shape);
  const std::size_t field_size = std::size_t(a.node_count) * std::size_t(a.components);
  if (a.field_size != field_size)
    fail(function, a, "the field has " + std::to_string(a.field_size) + " values, expected node_count * components = " +
                          std::to_string(a.node_count) + " * " + std::to_string(a.components) + " = " +
                          std::to_string(field_size));
  if (field_size > 0 && !a.field) fail(function, a, "the field data is null, expected " + std::to_string(field_size) + " values");
  const int R = result_directions(a.op, D, a.space_dimension);
  const std::size_t needed = output_size(a.op, a.element_count, a.points, a.components, D, a.space_dimension);
  if (a.out_size < needed)
    fail(function, a, "the output holds " + std::to_string(a.out_size) + " values, expected at least " +
                          std::to_string(needed) + " (" + std::to_string(a.element_count) + " elements * " +
                          std::to_string(a.points) + " points * " + std::to_string(a.components) + " components" +
                          (a.op == Operation::values ? std::string() : " * " + std::to_string(R) + " directions") + ")");
  if (needed > 0 && !a.out) fail(function, a, "the output data is null, expected " + std::to_string(needed) + " values");
  if (a.op == Operation::physical_gradients) {
    const std::size_t points = std::size_t(a.element_count) * std::size_t(a.points);
    if (a.detj && a.detj_size < points)
      fail(function, a, "the det J output holds " + std::to_string(a.detj_size) +
                            " values, expected at least elements * points = " + std::to_string(points) +
                            " (or a null view to skip it)");
    if (a.node_count > 0 && !a.coordinates)
      fail(function, a, "the coordinates are null, expected 3 * node_count = " + std::to_string(3 * a.node_count) +
                            " values (the plan was built without coordinates)");
  }
}

std::size_t transpose_output_size(const TransposeArguments& a) {
  const std::size_t per_node = std::size_t(a.components);
  return a.options.target == TransposeTarget::nodes
             ? std::size_t(a.node_count) * per_node
             : std::size_t(a.element_count) * std::size_t(nodes_per_element(a.block_type)) * per_node;
}

void check_transpose_arguments(const char* function, const TransposeArguments& a) {
  check_common(function, a);
  if (!is_transpose(a.op)) fail(function, a, std::string(operation_name(a.op)) + " is not a transpose");
  const int D = dimension(a.block_type.shape);
  const int R = result_directions(a.op, D, a.space_dimension);
  const std::size_t in = point_data_size(a.op, a.element_count, a.points, a.components, D, a.space_dimension);
  if (a.point_data_size != in)
    fail(function, a, "the point data has " + std::to_string(a.point_data_size) + " values, expected " +
                          std::to_string(in) + " (" + std::to_string(a.element_count) + " elements * " +
                          std::to_string(a.points) + " points * " + std::to_string(a.components) + " components" +
                          (R == 1 ? std::string() : " * " + std::to_string(R) + " directions") + ")");
  if (in > 0 && !a.point_data) fail(function, a, "the point data is null, expected " + std::to_string(in) + " values");
  const std::size_t needed = transpose_output_size(a);
  const bool nodes = a.options.target == TransposeTarget::nodes;
  if (a.out_size < needed)
    fail(function, a, "the output holds " + std::to_string(a.out_size) + " values, expected at least " +
                          std::to_string(needed) +
                          (nodes ? " (node_count * components = " + std::to_string(a.node_count) + " * "
                                 : " (elements * nodes_per_element * components = " + std::to_string(a.element_count) +
                                       " * " + std::to_string(nodes_per_element(a.block_type)) + " * ") +
                          std::to_string(a.components) + ")");
  if (needed > 0 && !a.out) fail(function, a, "the output data is null, expected " + std::to_string(needed) + " values");
  if (a.options.weighted && !a.has_weights)
    fail(function, a, "weighted: the plan's point set has no weights, expected a quadrature rule");
  if (transpose_needs_geometry(a.op, a.options) && a.node_count > 0 && !a.coordinates)
    fail(function, a, std::string(a.options.weighted ? "weighted: " : "") +
                          "the coordinates are null, expected 3 * node_count = " + std::to_string(3 * a.node_count) +
                          " values (the plan was built without coordinates)");
}

namespace {

// A fused operator's output and coefficient, as for the weighted transpose of its forward operation with
// the point data (which it does not read) taken as present.
void check_fused_output(const char* function, FusedOperator op, TransposeArguments a, const CoefficientArguments& c) {
  a.op = transpose_of(forward_of(op));
  a.options.weighted = true;
  a.point_data_size = point_data_size(a.op, a.element_count, a.points, a.components, dimension(a.block_type.shape),
                                      a.space_dimension);
  a.point_data = a.out;
  check_transpose_arguments(function, a);
  if (c.shape == CoefficientShape::none) return;
  if (c.shape == CoefficientShape::symmetric_tensor && op != FusedOperator::diffusion)
    fail(function, a, std::string("a symmetric tensor coefficient for the ") + fused_operator_name(op) +
                          " operator, expected a scalar one (tensors are for diffusion)");
  const int T = coefficient_entries(c.shape, a.space_dimension);
  const std::size_t needed = std::size_t(a.element_count) * std::size_t(a.points) * std::size_t(T);
  if (c.size != needed)
    fail(function, a, "the coefficient has " + std::to_string(c.size) + " values, expected " + std::to_string(needed) +
                          " (" + std::to_string(a.element_count) + " elements * " + std::to_string(a.points) +
                          " points" + (T == 1 ? std::string() : " * " + std::to_string(T) + " tensor entries") + ")");
  if (needed > 0 && !c.data) fail(function, a, "the coefficient data is null, expected " + std::to_string(needed) + " values");
}

}  // namespace

void check_fused_arguments(const char* function, FusedOperator op, const TransposeArguments& a,
                           const CoefficientArguments& coefficient) {
  check_common(function, a);
  const std::size_t field_size = std::size_t(a.node_count) * std::size_t(a.components);
  if (a.point_data_size != field_size)
    fail(function, a, "the field has " + std::to_string(a.point_data_size) + " values, expected node_count * components = " +
                          std::to_string(a.node_count) + " * " + std::to_string(a.components) + " = " +
                          std::to_string(field_size));
  if (field_size > 0 && !a.point_data) fail(function, a, "the field data is null, expected " + std::to_string(field_size) + " values");
  check_fused_output(function, op, a, coefficient);
}

void check_diagonal_arguments(const char* function, FusedOperator op, const TransposeArguments& a,
                              const CoefficientArguments& coefficient) {
  check_common(function, a);
  check_fused_output(function, op, a, coefficient);
}

}  // namespace feinterp
