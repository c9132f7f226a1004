// SPDX-License-Identifier: BSD-3-Clause
// Results at points, streamed: what every writer of this folder takes. A run of interpolations is
// described once (PointLayout: the field's components, which quantities were computed, and for each
// block its element count, points per element and dimension), then handed over chunk by chunk
// (PointChunk: a range of consecutive elements of one block with its points' physical coordinates and
// the computed quantities), so that a writer's memory does not grow with the mesh: the caller computes
// a chunk, writes it, and frees it.
//
// A PointResultsWriter is used as begin(layout), write(chunk)... in order (the blocks in the layout's
// order, each block's elements from 0 to the end, every element once), then finish(), which makes the
// files whole (AtomicFile). A writer destroyed before finish() (an exception) leaves no file behind,
// and an older file at its path untouched. The output is the same, byte for byte, however the results
// are cut into chunks.
//
// Layouts, p = e*Q + q the point (e the element in the chunk, Q points per element):
//   coordinates          x[p*3 + k]
//   values               u[p*C + c]
//   reference gradients  g[(p*C + c)*d + j]   d: the block's reference dimension
//   physical gradients   g[(p*C + c)*S + j]   S: the mesh's space dimension
//   detj                 J[p]
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace feinterp::io {

struct PointLayout {
  struct Block {
    std::size_t block = 0;     ///< index into Mesh::blocks (written as the "block" column)
    std::size_t elements = 0;  ///< E
    int points = 1;            ///< Q, points per element
    int dimension = 1;         ///< d, the elements' reference dimension
  };
  int components = 1;       ///< C
  int space_dimension = 3;  ///< S
  bool values = false, reference_gradients = false, physical_gradients = false;  ///< det J with physical
  std::vector<Block> blocks;

  /// The largest reference dimension among the blocks: the reference-gradient columns per component.
  int reference_directions() const;
  /// Every block's E x Q.
  std::size_t rows() const;
  /// Throws std::invalid_argument naming what is out of range (components 1..9, S 2 or 3, d 0..3 at
  /// most S, Q at least 1).
  void check() const;
};

struct PointChunk {
  std::size_t block = 0;          ///< index into PointLayout::blocks
  std::size_t first_element = 0;  ///< the chunk's first element in its block
  std::size_t elements = 0;       ///< how many
  const std::size_t* element_tags = nullptr;  ///< the elements' tags in the file, `elements` of them
  const double* coordinates = nullptr;        ///< the points where they are, always given
  const double* values = nullptr;             ///< given where PointLayout::values, else ignored
  const double* reference_gradients = nullptr;
  const double* physical_gradients = nullptr;
  const double* detj = nullptr;               ///< given with the physical gradients
  /// The field's values at the points for writers that show the field there (the .msh output's NodeData
  /// view covers the points) when PointLayout::values is false; ignored otherwise (values are used).
  const double* field_values = nullptr;
};

class PointResultsWriter {
 public:
  virtual ~PointResultsWriter() = default;
  /// Checks the layout and opens the outputs. Throws std::invalid_argument or OutputError.
  virtual void begin(const PointLayout& layout) = 0;
  /// The next chunk; throws std::invalid_argument for one out of order or missing a computed quantity.
  virtual void write(const PointChunk& chunk) = 0;
  /// Throws std::logic_error if rows are missing, OutputError if a file cannot be made whole.
  virtual void finish() = 0;
};

/// The order every writer takes chunks in: each chunk checked against the layout and the ones before it.
class ChunkOrder {
 public:
  /// Throws std::invalid_argument for a chunk that is not the next one, or lacks a computed quantity (or
  /// the field's values, where `needs_field_values` and the layout has no values).
  void next(const PointLayout& layout, const PointChunk& chunk, bool needs_field_values = false);
  /// Throws std::logic_error unless every element of the layout was written.
  void finish(const PointLayout& layout) const;

 private:
  std::size_t block_ = 0, element_ = 0;  // where the next chunk begins
};

}  // namespace feinterp::io
