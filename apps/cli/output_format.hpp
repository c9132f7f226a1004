// SPDX-License-Identifier: BSD-3-Clause
// --output FILE: the format is the file's extension, and an extension feinterp does not write is an
// error before any work is done, so that a file never holds another format than its name says.
#pragma once

#include <string>

namespace feinterp::app {

enum class OutputFormat {
  msh,  ///< Gmsh: the mesh, the nodal field, the results at the true quadrature points (msh_output.hpp)
  vtu,  ///< ParaView/VTK: the mesh as Lagrange cells with the field, and FILE_points.vtu (vtu_output.hpp)
  npy,  ///< NumPy: the results table, float64 (results_npy.hpp)
  npz,  ///< NumPy: the results table, one float64 array per column (results_npz.hpp; needs libzip)
  csv,  ///< the results table as CSV, as --csv writes it (results_csv.hpp)
};

/// The format of `path` from its extension (case-insensitive). Throws std::invalid_argument naming the
/// extension and the ones expected.
OutputFormat output_format(const std::string& path);

}  // namespace feinterp::app
