// SPDX-License-Identifier: BSD-3-Clause
// The orientation policy: which elements physical gradients accept, the same rule on the CPU and the
// GPU (both run the __host__ __device__ parts of this file).
//
// An element of reference dimension d in a space of dimension s (fem/block.hpp), at the points where
// it is evaluated:
//
//   d = s   det J keeps its sign in the output.
//           det J > 0 at every point:  the usual orientation.
//           det J < 0 at every point:  a mirrored element (Gmsh meshes a planar surface whose curve loop
//                                      runs clockwise this way); valid, its gradients are computed as
//                                      usual (J^-T does not care), and the CLI counts such elements.
//           det J = 0 (within rounding, below) or not finite at a point, or both signs among the
//                                      points: degenerate or tangled (folded) -> DegenerateElementError,
//                                      naming the element
//                                      (its tag in the file when the block has tags), the block's type,
//                                      the point and det J.
//   d < s   det J is the measure sqrt(det(J^T J)) >= 0, which has no sign (a surface has two sides and
//           neither is wrong); 0 or not finite at a point -> DegenerateElementError.
//   s = 2   every node of the element must lie in the plane z = 0: a z that would be dropped is an
//           error (std::invalid_argument), never a silently wrong number.
//
// "Zero within rounding": |det J| <= 64 eps B, with B the product of the lengths of J's columns
// (Hadamard's bound; |det J| / B is shape_quality in geometry.hpp). Computing det J rounds by a few eps B,
// so below that its sign is noise, and the CPU (no FMA) and the GPU (FMA) could disagree on an exactly
// degenerate element, such as a triangle whose vertices lie on one line (the CPU gives 0, the H100
// 1e-16). 64 eps = 1.4e-14 refuses only elements whose quality is lost in rounding.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>

#include <feinterp/core/config.hpp>
#include <feinterp/fem/block.hpp>

namespace feinterp {

/// What one point's det J says, as a bit: the bits of an element's points are or-ed together.
enum OrientationBit : unsigned {
  orientation_positive = 1u,
  orientation_negative = 2u,
  orientation_singular = 4u,  ///< zero, or not finite (NaN, or an overflow to infinity)
  orientation_off_plane = 8u,  ///< s = 2 and a node has z != 0 (set by the gather, not by det J)
};

/// The bounds orientation_of applies, for the kernels that test many points at once.
namespace orientation_limits {
inline constexpr double largest = 1.7976931348623157e308;    ///< DBL_MAX: NaN and infinities fail the tests
inline constexpr double smallest = 2.2250738585072014e-308;  ///< DBL_MIN, the smallest normal double
inline constexpr double rounding = 64 * 2.220446049250313e-16;  ///< 64 eps: the smallest shape quality
}  // namespace orientation_limits

/// The bit of a point whose Jacobian has determinant (or measure) `detj` and shape quality `quality`
/// (geometry.hpp's shape_quality). A det J below the smallest normal double is singular too, whatever
/// the shape: its inverse overflows (a triangle scaled by 1e-160 has det J ~ 1e-320, and K = J^-T
/// infinite gradients).
FEINTERP_HD unsigned orientation_of(double detj, double quality) {
  using namespace orientation_limits;
  if (!(detj <= largest && detj >= -largest) || !(detj >= smallest || detj <= -smallest) || !(quality > rounding))
    return orientation_singular;
  return detj > 0.0 ? orientation_positive : orientation_negative;
}

/// The or-ed bits of an element's points describe a valid element: one strict sign everywhere.
FEINTERP_HD bool valid_orientation(unsigned bits) { return bits == orientation_positive || bits == orientation_negative; }

/// An element's det J over its points, with the first point of each kind, for the error message.
struct OrientationRecord {
  unsigned bits = 0;
  int point[3] = {-1, -1, -1};  ///< first point that was positive, negative, singular
  double detj[3] = {0, 0, 0};
  /// Records point q's det J and its bit (orientation_of).
  FEINTERP_HD void add(int q, double det, unsigned bit) {
    const int kind = bit == orientation_positive ? 0 : bit == orientation_negative ? 1 : 2;
    if (!(bits & bit)) {
      point[kind] = q;
      detj[kind] = det;
    }
    bits |= bit;
  }
  FEINTERP_HD bool valid() const { return valid_orientation(bits); }
};

/// det J vanishes, is not finite, or changes sign between the points of an element.
class DegenerateElementError : public std::runtime_error {
 public:
  enum class Kind {
    singular,  ///< det J (or the measure) is 0 or not finite at `point`
    tangled,   ///< det J > 0 at one point and < 0 at another (`point` is the first negative one)
  };
  DegenerateElementError(const BlockView& block, offset_t element, Kind kind, int point, double detj,
                         int other_point = -1, double other_detj = 0.0);
  offset_t element() const { return element_; }  ///< the index in the block
  /// The element's tag in the file, when the block had tags (BlockView::element_tags).
  const std::optional<std::size_t>& tag() const { return tag_; }
  Kind kind() const { return kind_; }
  int point() const { return point_; }
  double detj() const { return detj_; }

 private:
  offset_t element_;
  std::optional<std::size_t> tag_;
  Kind kind_;
  int point_;
  double detj_;
};

/// Throws DegenerateElementError for an element whose record is not valid (`measure`: d < s, so det J
/// is the measure). Does nothing for a valid record.
void check_orientation(const BlockView& block, offset_t element, const OrientationRecord& record, bool measure);

/// Throws std::invalid_argument: node `node` (local node `local_node` of `element`) has z = `z` in a
/// block whose space dimension is 2.
[[noreturn]] void throw_off_plane(const BlockView& block, offset_t element, int local_node, node_index node, double z);

}  // namespace feinterp
