// SPDX-License-Identifier: BSD-3-Clause
// FILE.msh: what the Gmsh GUI shows as it is, the same file as mesh/write.hpp's write_msh with a
// PointCloud (binary MSH 4.1): the mesh with its physical groups, the nodal field as a NodeData view,
// and the results at the points as list-based point views (one extra node and point element per point):
// one view per quantity over every block (values, reference gradients, physical gradients, det J), each
// point drawn where it is in space. The field's NodeData covers the points' nodes too (its values there:
// the chunks' values, or PointChunk::field_values where values were not computed), and the points carry
// a physical group where the mesh's elements all do, so that meshio reads the file (the mesh, its groups
// and the field; it skips the point views, which are ElementNodeData).
//
// Views hold 1, 3 or 9 values per point (Gmsh's scalar, vector and tensor): the gradient of a scalar
// field is a vector (rows of d < 3 directions padded with 0: a 2D gradient is (gx, gy, 0), drawn as an
// arrow), that of a field of 2 or 3 components a tensor (each row padded to 3), and the gradients of a
// field of more than 3 components one view per direction, "NAME physical gradients d/dx" (C values).
//
// MshPointsWriter takes the results chunk by chunk (point_results.hpp). The points' coordinates, the
// field at the points and each view are contiguous in the file, and come after the mesh: each goes into
// a scratch file of its own beside the output as chunks come (scratch_file.hpp), and finish() writes the
// file and copies them in, so that memory does not grow with the points.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <feinterp/io/point_results.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp::io {

class MshPointsWriter final : public PointResultsWriter {
 public:
  /// `mesh` and `field` are read at finish(), which writes the mesh: they must live until then, in the
  /// numbering they are to be written in.
  MshPointsWriter(std::string path, const Mesh& mesh, const NodalField& field);
  ~MshPointsWriter() override;

  void begin(const PointLayout& layout) override;
  void write(const PointChunk& chunk) override;
  void finish() override;

  struct View;  // one point view: its name, layout and scratch file

 private:
  std::string path_;
  const Mesh& mesh_;
  const NodalField& field_;
  PointLayout layout_;
  ChunkOrder order_;
  std::unique_ptr<AtomicFile> file_;
  std::unique_ptr<View> coordinates_, field_values_;
  std::vector<std::unique_ptr<View>> views_;
  std::vector<double> padded_;
};

}  // namespace feinterp::io
