// SPDX-License-Identifier: BSD-3-Clause
// The pre-scan: feinterp's own reading of an MSH 2.2 or 4.1 file (ASCII or binary), before Gmsh sees
// it. It is the source of load_msh's error messages (file, section, line or byte offset, what was
// found and what was expected) and the first of two defences: the file reaches Gmsh only if every
// section Gmsh will read is well formed as Gmsh 4.8.4's readers expect it, and Gmsh reads it in a
// sandboxed child process anyway (detail/sandbox.hpp), which is the guarantee.
//
// What is checked, and why (each rule closes a crash, an exhaustion or a silently wrong result that
// a file of a few hundred bytes produced in Gmsh 4.8.4's readers):
//   * $MeshFormat first: version 2.2 or 4.1, file-type 0 or 1, data-size 8, binary files in this
//     machine's byte order (Gmsh reads anything else as a .geo script, which can run commands).
//   * $MeshFormat again only where gmsh::view::write(tag, file, true) appends a view after the mesh:
//     the same version, file-type and data-size as the first (Gmsh reads each view in the format of
//     the header before it), then optionally a copy of the mesh's sections, byte for byte the same as
//     the first mesh's (the view's tags name the first mesh's nodes and elements in Gmsh's reading;
//     Gmsh's 4.1 reader also added the copy's nodes and elements to the mesh a second time), then at
//     least one view section. Neither the header nor the copy reaches Gmsh.
//   * Header counts equal to the data that follows, in $Nodes, $Elements and their blocks (Gmsh
//     allocates by the count and writes by the data: heap overflows both ways), checked before a loop
//     runs on them; numbers whole (a file cut inside its last number is an error, not a smaller value).
//   * Tags of nodes and elements from 1 to 2^31 - 1 (Gmsh 4.8 stores 64-bit MSH 4.1 tags but looks
//     them up as int: 2^32 + 5 would silently be node 5), unique, and every node an element names
//     defined; entity dimensions 0..3; element types from Gmsh's table with their node counts
//     (detail/msh_element_types.hpp); an element block's entity known and of the type's dimension.
//   * $PhysicalNames dimensions 0..3 (Gmsh indexes an array of 4 with them).
//   * MSH 2.2 element tags: no parent or domain references (Gmsh dereferences a missing parent), and a
//     partition count that is exactly the number of partition tags that follow it.
//   * $NodeData, $ElementData, $ElementNodeData: header tags in range (time step 0 to 10^6,
//     1 to 1000 components, multiplicity 1 to 1000, entity tags of existing nodes or elements), the
//     count of records equal to the data; $NodeData values finite.
//   * $InterpolationScheme matrix sizes from 0 to 10^4 rows and columns and 10^7 values (Gmsh
//     computes rows x cols in int).
//   * Line lengths where Gmsh reads a line into a fixed buffer (10000 bytes for a 4.1 ASCII element,
//     256 for view headers and physical names, max(4096, 128 x entities) for an ASCII entity), and
//     coordinates finite with |x| <= max_abs_coordinate (load_limits.hpp).
//   * Every section closed by its $End line; mesh sections before post-processing ones, but for the
//     copies in appended views (Gmsh stops reading the mesh at the first view).
//
// What Gmsh reads of the file: only the first $MeshFormat and the mesh's $PhysicalNames, $Entities,
// $PartitionedEntities, $Nodes/$ParametricNodes and $Elements (MshSection::for_gmsh), so that a file
// with appended views gives the mesh of the same file without them. feinterp does not use periodicity,
// ghost cells, parametrizations or element views, and reads $NodeData itself (collect_node_data),
// so those sections are checked here and never reach Gmsh, whatever the load options say.
//
// Cost: one pass over the bytes; memory ~5 bytes per node and element tag (detail/tag_set.hpp) plus
// the $NodeData values when collected; nothing proportional to a count or tag taken from the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace feinterp::detail {

struct MshSection {
  std::string name;                 ///< without the '$'
  std::size_t begin = 0, end = 0;   ///< bytes [begin, end): from "$Name" to the end of "$EndName\n"
  std::string where;                ///< "section $Elements (lines 12 to 40)" or "(bytes 100 to 900)"
  bool for_gmsh = false;            ///< a mesh section that Gmsh reads
  /// Sections read by end_section (every one Gmsh reads): [body_begin, body_end) is what lies between
  /// the header line and the $End line; `plain` when those two lines are exactly "$Name\n" and
  /// "$EndName\n". Gmsh is given other ones rewritten so (trailing blanks, '\r', no final newline).
  std::size_t body_begin = 0, body_end = 0;
  bool plain = true;
};

/// One $NodeData section, as read by the pre-scan.
struct ScannedNodeData {
  std::string name;                 ///< the first string tag, unquoted ("" if none)
  long long step = 0;               ///< the first integer tag
  int components = 0;
  std::string where;                ///< "cannot load mesh 'F': section $NodeData, line 40"
  std::vector<std::uint32_t> tags;  ///< node tags, in file order
  std::vector<double> values;       ///< values[i * components + c] belongs to tags[i]
};

struct MshScan {
  double version = 0;  ///< 2.2 or 4.1
  bool binary = false;
  std::vector<MshSection> sections;
  std::vector<ScannedNodeData> node_data;  ///< only with MshScanOptions::collect_node_data
  std::size_t node_count = 0, element_count = 0;

  /// Whether Gmsh may be given the file as it is: every section is one Gmsh reads, plain, with nothing
  /// between them (otherwise it is given a copy of those sections only, headers rewritten plain).
  bool all_for_gmsh(std::size_t file_size) const;
  const MshSection* find(std::string_view name) const;
};

struct MshScanOptions {
  bool collect_node_data = false;
};

/// Scans `bytes`, the content of `file` (the name messages give). Throws MeshError at the first
/// problem, naming `file`, the section, the line or byte offset, and what was expected.
MshScan scan_msh(std::string_view bytes, const std::string& file, const MshScanOptions& options = {});

/// How many of a file's first bytes check_msh_head needs: its first two lines, which Gmsh reads into
/// buffers of 1024 (the section header) and 256 bytes (the format line), with room to spare.
constexpr std::size_t msh_head_bytes = 4096;

/// Checks the first two lines of a file, "$MeshFormat" and the format line ("4.1 0 8"), from `head`,
/// its first min(msh_head_bytes, size) bytes (`whole`: they are the whole file), so that load_msh refuses
/// a file that is not MSH (a sparse or binary file, a script) before it copies it. Throws the MeshError
/// that scan_msh would throw for those lines; scan_msh still checks everything, from the sealed copy.
void check_msh_head(std::string_view head, bool whole, const std::string& file);

}  // namespace feinterp::detail
