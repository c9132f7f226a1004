// The only parsing feinterp does of an MSH file itself: its $MeshFormat header, checked before Gmsh
// sees the file. Gmsh 4.8.4 parses anything that is not recognisably a mesh as a .geo script, where
// `System "cmd";` runs a shell command and `Exit;` ends the process, so a file reaches Gmsh only if
// its first bytes are an MSH 2.x or 4.x header:
//
//   $MeshFormat
//   <version> <file-type> <data-size>        version 2.0-2.2 or 4.0-4.1; file-type 0 (ASCII) or
//   [int 1, 4 bytes, binary files only]      1 (binary); data-size 8 (Gmsh reads doubles only)
//   $EndMeshFormat
#pragma once

#include <string>

namespace feinterp::detail {

struct MshHeader {
  double version = 0;
  bool binary = false;
};

/// Reads the header of `path`; throws MeshError naming the file and what was expected otherwise
/// (missing file, not a regular file, empty, no $MeshFormat, unsupported version, ...).
MshHeader read_msh_header(const std::string& path);

}  // namespace feinterp::detail
