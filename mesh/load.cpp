// SPDX-License-Identifier: BSD-3-Clause
// load_msh: an MSH file into a Mesh through the Gmsh SDK, without letting the file crash, exhaust or
// take over the caller's process (issue 10; costs measured in docs/design/SANDBOX.md):
//
//  1. The file is opened once and copied into a sealed in-memory file (detail/sealed_file.hpp): the
//     bytes checked are the bytes Gmsh reads, whatever happens to the path or the file meanwhile.
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
#include <feinterp/mesh/renumber.hpp>

namespace feinterp {

Mesh load_msh(const std::string& path, const LoadOptions& options) {
  const std::string context = "cannot load mesh '" + path + "'";
  // The largest file worth copying: one whose reader could still fit in the memory ceiling.
  const std::size_t max_bytes = reader_allowance(options.limits, std::size_t(1) << 62).memory_bytes;
  detail::SealedFile file = detail::SealedFile::copy_of(path, context, max_bytes);

  struct stat st {};
  if (options.warn && ::stat((path + ".opt").c_str(), &st) == 0)
    options.warn("mesh '" + path + "': option file '" + path + ".opt' ignored (feinterp never lets Gmsh run it)");

  detail::MshScanOptions scan_options;
  scan_options.collect_node_data = options.read_fields;
  detail::MshScan scan = detail::scan_msh(file.bytes(), path, scan_options);

  // Gmsh gets the mesh sections only; the whole file if that is all it holds.
  const ReaderAllowance allowance = reader_allowance(options.limits, file.size());
  if (!scan.all_for_gmsh(file.size())) {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (const detail::MshSection& s : scan.sections)
      if (s.for_gmsh) ranges.emplace_back(s.begin, s.end);
    file = detail::SealedFile::from_ranges(file, ranges, context);
  }
  const detail::MshSection* elements = scan.find("Elements");
  const std::string elements_context = context + ": " + elements->where;
  Mesh mesh = detail::read_with_gmsh(std::move(file), path, options, allowance, scan.node_count, context, elements_context);
  if (options.read_fields) mesh.fields = detail::node_fields(scan.node_data, mesh, options.warn, context);
  renumber(mesh, options.renumber);
  return mesh;
}

}  // namespace feinterp
