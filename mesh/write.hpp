// SPDX-License-Identifier: BSD-3-Clause
// write_msh: a mesh and results as one MSH file that the Gmsh GUI opens, written by feinterp itself
// (detail/msh_writer.hpp: Gmsh 4.8's writer ignored write errors, crashed on legal tags and needed
// memory in proportion to the largest tag; this one streams, whatever the tags).
//
// View types (Gmsh 4.8.4 reads "NodeData", "ElementData" and "ElementNodeData"; "GaussPointData"
// exists inside Gmsh but has no MSH section, so it is not used):
//   * nodal fields                                   -> NodeData
//   * values/gradients at the element's own nodes     -> ElementNodeData: exact, and Gmsh draws it
//     (points == element_nodes(type), in Gmsh order)     with the element's own shape functions
//   * values/gradients at any other points (a         -> ElementData: the weighted mean over the points
//     quadrature rule)                                   (weights of the PointSet, or equal weights),
//                                                        i.e. the element average of the quantity
// Gmsh draws 1, 3 or 9 components (scalar, vector, tensor): other counts are padded with zeros
// (2 -> 3, 4..8 -> 9); a gradient's rows of D = 2 are padded to 3 first, so a 2D scalar gradient is a
// vector (gx, gy, 0) and a 3-component 3D gradient is a tensor. More than 9 padded components throw.
//
// Atomicity: through AtomicFile (atomic_file.hpp): a failure (full disk included) never leaves a
// half-written file where an older one was, and a killed run leaves nothing behind. A destination in a
// nonexistent directory throws MeshError and writes nothing.
#pragma once

#include <string>
#include <vector>

#include <feinterp/fem/point_set.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp {

/// Results at reference points of one block, in layout.hpp's layout:
///   values     data[(e*Q + q)*C + c]             (dimension == 0)
///   gradients  data[((e*Q + q)*C + c)*D + d]     (dimension == D)
struct PointData {
  std::string name;
  std::size_t block = 0;      ///< index into Mesh::blocks
  PointSet points;            ///< the Q reference points the data are at (weights optional)
  int components = 1;         ///< C
  int dimension = 0;          ///< 0 for values, D for gradients
  const double* data = nullptr;
  std::size_t size = 0;       ///< number of doubles at data, checked: E * Q * C * max(D, 1)
};

/// One quantity at the physical points of one block (layout.hpp's layout): values
/// data[p*C + c] (dimension 0), gradient rows data[(p*C + c)*D + d] (dimension D); p = e*Q + q.
struct PointValues {
  const double* data = nullptr;
  std::size_t size = 0;  ///< checked: points x C x max(D, 1)
  int components = 1;    ///< C
  int dimension = 0;     ///< 0 for values, D for gradients
  /// Gradients only: -1 for all of them (C x 3 values per point once rows are padded to 3, at most 9),
  /// or k to keep only the derivatives along direction k (C values per point, 0 where k >= D): how the
  /// gradients of a field of more than 3 components are written, one view per direction.
  int direction = -1;
};

/// Results at points anywhere in space (quadrature points), as Gmsh's list-based point views SP, VP and
/// TP are stored in MSH (what Gmsh's own view.write does with them): one extra node and one point element
/// (type 15) per point, on a point entity of its own, and one $ElementNodeData view per quantity over
/// the points of every block, 1, 3 or 9 values per point (scalar, vector, tensor; padded like
/// PointData). Gmsh draws each point with its value, at its true position. Where every element block of
/// the mesh belongs to a physical group, the point entity gets one too, named cloud_points_group_name
/// (its tag after the mesh's largest of dimension 0), so that readers keeping one physical tag per
/// element block (meshio) read the file.
inline constexpr const char* cloud_points_group_name = "feinterp points";

struct PointCloud {
  struct Block {
    const double* coordinates = nullptr;  ///< x[p*3 + k]
    std::size_t points = 0;
  };
  struct View {
    std::string name;
    std::vector<PointValues> blocks;  ///< one per PointCloud::blocks entry
  };
  std::vector<Block> blocks;
  std::vector<View> views;
  /// Optional: the first nodal field's values at the points (one entry per block, values layout), so that
  /// its NodeData view has a value at every node of the file, the points' included: the file then loads
  /// back with its field (load_msh needs a value at every node).
  std::vector<PointValues> field_values;
};

/// Node and element tags are the mesh's, in both versions: they must be 1 to 2^31 - 1 (what Gmsh 4.8 reads)
/// and unique; coordinates and values must be finite (coordinates at most max_abs_coordinate), so that
/// whatever is written loads back.
struct WriteOptions {
  double version = 4.1;  ///< 4.1 or 2.2
  bool binary = true;
};

/// Writes `mesh` (nodes, all blocks, each element on an entity of its physical group, and the named
/// groups), then one view per nodal field and per point data set, then the point cloud if not null (its
/// nodes and point elements numbered after the mesh's largest tags). Throws MeshError naming the file
/// and the problem; the file at `path` is then untouched.
void write_msh(const std::string& path, const Mesh& mesh, const std::vector<NodalField>& nodal_fields = {},
               const std::vector<PointData>& point_data = {}, const WriteOptions& options = {},
               const PointCloud* cloud = nullptr);

}  // namespace feinterp
