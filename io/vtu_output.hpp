// SPDX-License-Identifier: BSD-3-Clause
// FILE.vtu: what ParaView (and any VTK reader) shows as it is, in two VTK XML UnstructuredGrid files,
// binary (appended data, 64-bit headers), compressed with zlib (VTK's vtkZLibDataCompressor: 64 KiB
// blocks deflated one by one) unless VtuCompression::none:
//
//   FILE.vtu          the mesh, each element a VTK cell of its order (vtk_node_order.hpp: linear cells
//                     for p = 1, Lagrange cells for p = 2, 3, drawn curved), with the nodal field as point
//                     data, and per cell its element tag, block and physical group;
//   FILE_points.vtu   the points where they are in space, one VTK_VERTEX cell each, with every computed
//                     quantity as point data (values, reference gradients, physical gradients, det J),
//                     the element tag and block of each point.
//
// VtuWriter takes the results chunk by chunk (point_results.hpp). Each array of the appended data is
// contiguous across every chunk, so each is encoded into a scratch file of its own beside the output
// (scratch_file.hpp) as chunks come; finish() writes the header, which holds every array's offset, and
// copies them in. Memory then does not grow with the points; disk holds the arrays twice until finish.
//
// Both files are written whole or not at all (AtomicFile), the points file first: a failure leaves either
// nothing new or a new _points.vtu beside the old FILE.vtu, never a FILE.vtu whose points file is missing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <feinterp/io/point_results.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp::io {

/// FILE_points.vtu for FILE.vtu.
std::string vtu_points_path(const std::string& path);

enum class VtuCompression { zlib, none };

/// What one VTK XML file declares: what a .pvtu that ties pieces together repeats (pvtu_output.hpp).
struct VtuFileDeclaration {
  struct Array {
    std::string name;
    std::string type;  ///< VTK's type name: Float64, Int64, Int32, UInt8
    int components = 1;
    bool operator==(const Array& o) const { return name == o.name && type == o.type && components == o.components; }
  };
  std::string version;  ///< the VTKFile's version: "1.0", or "2.2" (hexahedra of order 2 or 3)
  std::vector<Array> point_data, cell_data;
  Array points{"Points", "Float64", 3};
};

/// Whether this build compresses (it was built with zlib).
bool vtu_zlib_available();

class VtuWriter final : public PointResultsWriter {
 public:
  /// `mesh` and `field` (its values at the mesh's nodes; its name prefixes the quantities') are read at
  /// finish(), which writes FILE.vtu: they must live until then, in the numbering they are to be written
  /// in. Throws std::invalid_argument for zlib where feinterp was built without it.
  VtuWriter(std::string path, const Mesh& mesh, const NodalField& field, VtuCompression compression = VtuCompression::zlib);
  ~VtuWriter() override;

  void begin(const PointLayout& layout) override;
  void write(const PointChunk& chunk) override;
  void finish() override;

  /// What FILE.vtu and FILE_points.vtu declare, once finish() has written them (std::logic_error before).
  const VtuFileDeclaration& mesh_declaration() const;
  const VtuFileDeclaration& points_declaration() const;

  class Array;  // one array of the appended data, encoded into its scratch file

 private:
  std::string path_, beside_;  // beside_: the points file, whose scratch files are beside it
  const Mesh& mesh_;
  const NodalField& field_;
  VtuCompression compression_;
  PointLayout layout_;
  ChunkOrder order_;
  std::size_t points_ = 0;
  std::unique_ptr<AtomicFile> points_file_;
  // values, reference gradients, physical gradients, det J, element tag, block, Points
  std::vector<std::unique_ptr<Array>> arrays_;
  std::vector<double> row_;
  bool finished_ = false;
  VtuFileDeclaration mesh_declaration_, points_declaration_;
};

}  // namespace feinterp::io
