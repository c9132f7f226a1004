// SPDX-License-Identifier: BSD-3-Clause
// load_msh: an MSH file into a Mesh through the Gmsh SDK, without letting the file crash, exhaust or
// take over the caller's process (issue 10; costs measured in docs/design/SANDBOX.md):
//
//  1. The file is opened once and copied into a sealed in-memory file (detail/sealed_file.hpp): the
//     bytes checked are the bytes Gmsh reads, whatever happens to the path or the file meanwhile. Only
//     a file whose $MeshFormat lines pass (read from the descriptor first) and whose size is within
//     LoadLimits::max_file_bytes is copied.
//  2. feinterp's pre-scan reads every section (detail/msh_scan.hpp): structure, counts against data,
//     tag ranges, element types, view headers; it gives the error messages (file, section, line or
//     byte offset, what was expected) and reads $NodeData itself.
//  3. Gmsh reads only the mesh sections, in a forked child process limited in memory, CPU time,
//     wall-clock time and output, unable to run programs, create processes, open sockets or write
//     files (detail/gmsh_reader.hpp, detail/sandbox.hpp); a crash or a limit is a clean MeshError.
//     Gmsh is given a private link named ".msh" (detail/scratch_link.hpp), so that "<file>.opt" beside
//     the mesh, which Gmsh would run, is never read: a warning through LoadOptions::warn says so.
//  4. What the child returns is checked as untrusted (detail/loaded_mesh_checks.hpp): finite bounded
//     coordinates, 64-bit tags without aliasing, indices in range; fields come from step 2
//     (detail/node_fields.hpp), every value finite.
//  5. With LoadOptions::renumber, the nodes and elements are renumbered (mesh/renumber.hpp) in the
//     caller's process, on the checked arrays.
#include <sys/stat.h>

#include <feinterp/mesh/detail/gmsh_reader.hpp>
#include <feinterp/mesh/detail/msh_scan.hpp>
#include <feinterp/mesh/detail/node_fields.hpp>
#include <feinterp/mesh/detail/sealed_file.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/load_limits.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/core/printable_text.hpp>
#include <feinterp/mesh/renumber.hpp>

namespace feinterp {

Mesh load_msh(const std::string& path, const LoadOptions& options) {
  const std::string context = "cannot load mesh '" + printable_text(path) + "'";
  // Copied only if its first lines are MSH's (read from the open descriptor: a file that is not MSH
  // costs no memory) and if it is no larger than the reader could read within the memory ceiling.
  detail::SealedFile file = detail::SealedFile::copy_of(
      path, context, max_file_bytes(options.limits),
      [&](std::string_view head, bool whole) { detail::check_msh_head(head, whole, path); }, detail::msh_head_bytes);

  struct stat st {};
  if (options.warn && ::stat((path + ".opt").c_str(), &st) == 0)
    options.warn("mesh '" + printable_text(path) + "': option file '" + printable_text(path) +
                 ".opt' ignored (feinterp never lets Gmsh run it)");

  detail::MshScanOptions scan_options;
  scan_options.collect_node_data = options.read_fields;
  detail::MshScan scan = detail::scan_msh(file.bytes(), path, scan_options);

  // Gmsh gets the mesh sections only; the whole file if that is all it holds.
  const ReaderAllowance allowance = reader_allowance(options.limits, file.size());
  if (!scan.all_for_gmsh(file.size())) {
    // Header and $End lines rewritten plain where they are not: Gmsh 4.8's MSH 4.1 reader would look for
    // "$EndNodes  " after a header "$Nodes  " and skip the rest of the file.
    std::vector<detail::SealedFile::Piece> pieces;
    for (const detail::MshSection& s : scan.sections) {
      if (!s.for_gmsh) continue;
      if (s.plain) {
        pieces.push_back({s.begin, s.end, {}});
      } else {
        pieces.push_back({0, 0, "$" + s.name + "\n"});
        if (s.body_end > s.body_begin) pieces.push_back({s.body_begin, s.body_end, {}});
        pieces.push_back({0, 0, "$End" + s.name + "\n"});
      }
    }
    file = detail::SealedFile::from_pieces(file, pieces, context);
  }
  const detail::MshSection* elements = scan.find("Elements");
  const std::string elements_context = context + ": " + elements->where;
  Mesh mesh = detail::read_with_gmsh(std::move(file), path, options, allowance, scan.node_count, context, elements_context);
  if (options.read_fields) mesh.fields = detail::node_fields(scan.node_data, mesh, options.warn, context);
  renumber(mesh, options.renumber);
  return mesh;
}

}  // namespace feinterp
