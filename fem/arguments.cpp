#include "arguments.hpp"

#include <stdexcept>

#include "layout.hpp"

namespace feinterp {

void check_interpolation_arguments(const std::string& where, const InterpolationArguments& a) {
  auto fail = [&](const std::string& what) { throw std::invalid_argument(where + ": " + what); };
  check_order(a.block_type);
  if (a.table_type != a.block_type)
    fail("the tabulation is for " + to_string(a.table_type) + ", expected one for " + to_string(a.block_type));
  const int D = dimension(a.block_type.shape);
  if (a.points < 1) fail("the point set is empty, expected at least one point");
  if (a.element_count < 0) fail("negative element count " + std::to_string(a.element_count));
  if (a.node_count < 0) fail("negative node count " + std::to_string(a.node_count));
  if (a.u.components < 1 || a.u.components > max_components)
    fail("the field has " + std::to_string(a.u.components) + " components, expected 1 to " +
         std::to_string(max_components));
  const std::size_t field_size = std::size_t(a.node_count) * std::size_t(a.u.components);
  if (a.u.size != field_size)
    fail("the field has " + std::to_string(a.u.size) + " doubles, expected node_count * components = " +
         std::to_string(a.node_count) + " * " + std::to_string(a.u.components) + " = " + std::to_string(field_size));
  if (field_size > 0 && !a.u.data) fail("the field data is null, expected " + std::to_string(field_size) + " doubles");
  const int R = result_directions(a.op, D, a.space_dimension);
  const std::size_t needed = output_size(a.op, a.element_count, a.points, a.u.components, D, a.space_dimension);
  if (a.out.size < needed)
    fail("the output holds " + std::to_string(a.out.size) + " doubles, expected at least " + std::to_string(needed) +
         " (" + std::to_string(a.element_count) + " elements * " + std::to_string(a.points) + " points * " +
         std::to_string(a.u.components) + " components" +
         (a.op == Operation::values ? std::string() : " * " + std::to_string(R) + " directions") + ")");
  if (needed > 0 && !a.out.data) fail("the output data is null, expected " + std::to_string(needed) + " doubles");
  if (a.op == Operation::physical_gradients) {
    const std::size_t points = std::size_t(a.element_count) * std::size_t(a.points);
    if (a.detj.data && a.detj.size < points)
      fail("the det J output holds " + std::to_string(a.detj.size) +
           " doubles, expected at least elements * points = " + std::to_string(points) + " (or a null view to skip it)");
    if (a.node_count > 0 && !a.coordinates)
      fail("the coordinates are null, expected 3 * node_count = " + std::to_string(3 * a.node_count) + " doubles");
  }
}

}  // namespace feinterp
