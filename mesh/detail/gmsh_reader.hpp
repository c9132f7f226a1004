// SPDX-License-Identifier: BSD-3-Clause
// Gmsh's MSH reader, run in a sandbox (detail/sandbox.hpp): the child process forked for it merges
// the file through a ScratchLink to the sealed snapshot, copies Gmsh's model into a Mesh
// (detail/extract.hpp: elements by type, nodes, physical groups; no fields), and sends it back
// (detail/mesh_wire.hpp), where it is checked as untrusted (detail/loaded_mesh_checks.hpp). A crash, a
// limit or a timeout of the child is a MeshError that names the user's file and says what happened;
// Gmsh's own messages have the private link replaced by the user's path.
#pragma once

#include <string>

#include <feinterp/mesh/load_limits.hpp>
#include <feinterp/mesh/mesh.hpp>
#include <feinterp/mesh/detail/sealed_file.hpp>

namespace feinterp::detail {

/// `input` is consumed: its memory is released as soon as Gmsh has read it (the child closes the last
/// descriptor after the merge), not kept while the model is copied out and sent back (240 MB for a
/// 5M-element binary mesh). `nodes_in_file` is the pre-scan's count (the mesh may not have more). `context` starts every message
/// ("cannot load mesh 'a.msh'"); `elements_context` the ones about the elements, with the section's
/// position ("cannot load mesh 'a.msh': section $Elements (lines 9 to 40)"). Warnings go to options.warn.
Mesh read_with_gmsh(SealedFile&& input, const std::string& path, const LoadOptions& options,
                    const ReaderAllowance& allowance, std::size_t nodes_in_file, const std::string& context,
                    const std::string& elements_context);

}  // namespace feinterp::detail
