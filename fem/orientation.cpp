// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/orientation.hpp>

#include <sstream>
#include <string>

namespace feinterp {

namespace {

std::string message(const BlockView& block, offset_t element, DegenerateElementError::Kind kind, int point, double detj,
                    int other_point, double other_detj) {
  const bool measure = dimension(block.type.shape) < space_dimension(block);
  std::ostringstream m;
  m.precision(17);
  const char* quantity = measure ? "the measure sqrt(det(J^T J))" : "det J";
  if (kind == DegenerateElementError::Kind::singular) {
    m << "degenerate " << describe_element(block, element) << ": " << quantity << " = " << detj << " at point "
      << point << " (expected " << (measure ? "a positive, finite measure" : "a nonzero, finite det J")
      << " at every point)";
  } else {
    m << "tangled " << describe_element(block, element) << ": det J = " << other_detj << " at point " << other_point
      << " but " << detj << " at point " << point
      << " (expected one sign at every point: positive, or negative everywhere for a mirrored element)";
  }
  return m.str();
}

}  // namespace

DegenerateElementError::DegenerateElementError(const BlockView& block, offset_t element, Kind kind, int point,
                                               double detj, int other_point, double other_detj)
    : std::runtime_error(message(block, element, kind, point, detj, other_point, other_detj)),
      element_(element),
      kind_(kind),
      point_(point),
      detj_(detj) {
  if (block.element_tags && element >= 0 && element < block.element_count) tag_ = block.element_tags[element];
}

void check_orientation(const BlockView& block, offset_t element, const OrientationRecord& record, bool measure) {
  if (record.valid()) return;
  if (record.bits & orientation_singular)
    throw DegenerateElementError(block, element, DegenerateElementError::Kind::singular, record.point[2],
                                 record.detj[2]);
  if (!measure && (record.bits & orientation_positive) && (record.bits & orientation_negative))
    throw DegenerateElementError(block, element, DegenerateElementError::Kind::tangled, record.point[1],
                                 record.detj[1], record.point[0], record.detj[0]);
  // No point at all was recorded (an empty point set is refused before this), or a measure < 0, which
  // jacobian_determinant cannot return.
  throw DegenerateElementError(block, element, DegenerateElementError::Kind::singular, 0, record.detj[0]);
}

void throw_off_plane(const BlockView& block, offset_t element, int local_node, node_index node, double z) {
  std::ostringstream m;
  m.precision(17);
  m << "node " << node << " (local node " << local_node << " of " << describe_element(block, element)
    << ") has z = " << z
    << ", but the block's space dimension is 2 (expected z = 0 for a block in the plane, or "
       "BlockView::space_dimension = 3 for elements in 3D space)";
  throw std::invalid_argument(m.str());
}

}  // namespace feinterp
