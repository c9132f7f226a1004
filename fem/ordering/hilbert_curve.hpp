// SPDX-License-Identifier: BSD-3-Clause
// The Hilbert curve: a key per point such that points close along the curve are close in space, so that
// sorting nodes (or element centroids) by it puts neighbours at nearby indices. The node renumbering of
// fem/ordering/renumbering.hpp sorts by it.
//
// hilbert_index follows J. Skilling, "Programming the Hilbert curve", AIP Conf. Proc. 707 (2004): the cell
// coordinates are transformed in place into the "transposed" index and its bits interleaved, in
// O(dimensions x bits) bit operations. Consecutive indices are face-adjacent cells (tested exhaustively
// on small grids in 1, 2 and 3 dimensions).
#pragma once

#include <cstdint>

#include <feinterp/core/config.hpp>

namespace feinterp {

/// The largest bits per axis a 64-bit index holds: 32 in 1D, 31 in 2D, 21 in 3D.
int max_hilbert_bits(int dimensions);

/// The position along the Hilbert curve of the cell `cell[0..dimensions)` of a grid of 2^bits cells per
/// axis: 0 .. 2^(dimensions*bits) - 1. Throws std::invalid_argument for dimensions outside 1..3, bits
/// outside 1..max_hilbert_bits(dimensions), or a coordinate >= 2^bits.
std::uint64_t hilbert_index(const std::uint32_t* cell, int dimensions, int bits);

/// Hilbert keys of points of a bounding box. The box is a cube (its side the largest extent), so the
/// curve follows the geometry rather than stretching a thin axis over as many cells as a long one; an
/// axis whose extent is below 1e-9 of the largest (z of a planar mesh) is dropped, so a planar mesh gets
/// the 2D curve: the 3D curve restricted to a plane jumps between layers of the cube's sub-cubes.
class HilbertBox {
 public:
  /// The box of `count` points x[i*3 + k]. Throws std::invalid_argument naming the first point with a
  /// non-finite coordinate.
  HilbertBox(const double* coordinates, offset_t count);
  /// The key of a point x[0..3) inside the box (points outside are clamped to it).
  std::uint64_t key(const double* x) const;
  /// The axes the curve runs over (0 when every point is the same).
  int dimensions() const { return dimensions_; }

 private:
  int axes_[3] = {0, 1, 2};
  int dimensions_ = 0, bits_ = 1;
  double lower_[3] = {0, 0, 0};
  double cells_per_unit_ = 0;
};

}  // namespace feinterp
