// SPDX-License-Identifier: BSD-3-Clause
// --output FILE.vtu: what ParaView (and any VTK reader) shows as it is, in two VTK XML UnstructuredGrid
// files, binary (appended data, 64-bit headers), compressed with zlib (VTK's vtkZLibDataCompressor) unless
// --vtu-compression none:
//
//   FILE.vtu          the mesh, each element a VTK cell of its order (vtk_node_order.hpp: linear cells
//                     for p = 1, Lagrange cells for p = 2, 3, drawn curved), with the nodal field as point
//                     data, and per cell its element tag, block and physical group;
//   FILE_points.vtu   the quadrature points where they are in space, one VTK_VERTEX cell each, with every
//                     computed quantity as point data (values, reference gradients, physical gradients,
//                     det J), the element tag and block of each point.
//
// Both are written whole or not at all (AtomicFile), the points file first: a failure leaves either
// nothing new or a new _points.vtu beside the old FILE.vtu, never a FILE.vtu whose points file is missing.
#pragma once

#include <string>
#include <vector>

#include <feinterp/mesh/mesh.hpp>

#include <feinterp/apps/cli/results_table.hpp>

namespace feinterp::app {

/// FILE_points.vtu for FILE.vtu.
std::string vtu_points_path(const std::string& path);

enum class VtuCompression { zlib, none };

/// Throws std::invalid_argument for zlib where feinterp was built without it.
void write_vtu_output(const std::string& path, const Mesh& mesh, const NodalField& field,
                      const std::vector<BlockResults>& results, VtuCompression compression = VtuCompression::zlib);

}  // namespace feinterp::app
