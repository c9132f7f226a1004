// SPDX-License-Identifier: BSD-3-Clause
// FILE.pvtu: VTK's parallel UnstructuredGrid index, which ties .vtu pieces written apart (each MPI rank's
// VtuWriter output, or a mesh's blocks written one by one) into one dataset for ParaView and VTK's
// vtkXMLPUnstructuredGridReader: the arrays every piece holds (PPointData, PCellData: name, type,
// components; PPoints) and each piece's file by its path relative to the .pvtu's folder. It holds no data:
// the reader reads the pieces and appends them, points and cells, in the order given.
//
//   io::VtuWriter rank("out_3.vtu", mesh, field);   // ... begin, write, finish on each rank
//   pieces = gather of {"out_3_points.vtu", rank.points_declaration()} from every rank
//   io::write_pvtu("out_points.pvtu", pieces);       // on one rank
//
// The declarations come from the writers (VtuWriter::mesh_declaration(), points_declaration()), not from
// reading the pieces back. The file's version is the highest of the pieces' (a piece of p = 2 hexahedra is
// 2.2, the others 1.0): each piece is read by its own version. Written whole or not at all (AtomicFile).
#pragma once

#include <string>
#include <vector>

#include <feinterp/io/vtu_output.hpp>

namespace feinterp::io {

struct PvtuPiece {
  std::string path;                 ///< the piece's .vtu, as this process names it (absolute, or from the working folder)
  VtuFileDeclaration declaration;   ///< what it declares (VtuWriter::mesh_declaration() or points_declaration())
};

/// Writes `path` (.pvtu) over `pieces`. Throws std::invalid_argument for no pieces, or a piece whose arrays
/// (point data, cell data, points: name, type, components, in order) differ from the first piece's, naming
/// both pieces and the array; OutputError if the file cannot be written.
void write_pvtu(const std::string& path, const std::vector<PvtuPiece>& pieces);

}  // namespace feinterp::io
