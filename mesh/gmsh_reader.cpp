// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/gmsh_reader.hpp>

#include <gmsh.h>
#include <unistd.h>

#include <new>

#include <feinterp/mesh/detail/extract.hpp>
#include <feinterp/mesh/detail/loaded_mesh_checks.hpp>
#include <feinterp/mesh/detail/mesh_wire.hpp>
#include <feinterp/mesh/detail/sandbox.hpp>
#include <feinterp/mesh/detail/scratch_link.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/gmsh_session.hpp>
#include <feinterp/core/printable_text.hpp>

namespace feinterp::detail {

namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// What runs in the child, after the sandbox is in place.
void read_in_child(int output, int input, const std::string& link, const std::string& path, const LoadOptions& options,
                   const std::string& elements_context) {
  WireWriter out(output);
  auto user_facing = [&](const std::string& message) { return replace_all(message, link, printable_text(path)); };
  Mesh mesh;
  try {
    gmsh_call(elements_context, [&] {
      GmshSession session;
      gmsh::option::setNumber("General.NumThreads", 1);  // no OpenMP pool in a forked child
      gmsh::model::add("feinterp-load");
      gmsh::merge(link);
      ::close(input);  // the last reference to the file's copy: its memory goes while the model is copied out
      const std::vector<std::string> errors = session.errors();
      if (!errors.empty()) {
        std::string all;
        for (const std::string& e : errors) all += (all.empty() ? "" : "; ") + printable_text(e);  // may quote the file
        throw MeshError(elements_context + ": Gmsh could not read the file: " + all);
      }
      LoadOptions extract = options;
      extract.read_fields = false;  // views never reach Gmsh: $NodeData is feinterp's (node_fields.hpp)
      extract.warn = [&](const std::string& message) { out.warning(user_facing(message)); };
      mesh = extract_current_model(extract, elements_context);
    });
    out.mesh(mesh);
  } catch (const MeshError& e) {
    out.error(user_facing(e.what()));
  }
  out.flush();
}

class SandboxSource : public WireSource {
 public:
  explicit SandboxSource(Sandbox& sandbox) : sandbox_(sandbox) {}
  void read(void* data, std::size_t size) override { sandbox_.read(data, size); }
  std::size_t left() const override { return sandbox_.output_left(); }

 private:
  Sandbox& sandbox_;
};

}  // namespace

Mesh read_with_gmsh(SealedFile&& input, const std::string& path, const LoadOptions& options,
                    const ReaderAllowance& allowance, std::size_t nodes_in_file, const std::string& context,
                    const std::string& elements_context) {
  const ScratchLink link(input.fd(), context);
  SandboxLimits limits;
  limits.memory_bytes = allowance.memory_bytes;
  limits.cpu_seconds = allowance.cpu_seconds;
  limits.wall_seconds = allowance.wall_seconds;
  limits.output_bytes = allowance.output_bytes;
  try {
    const int fd = input.fd();
    Sandbox child(
        limits, [&](int output) { read_in_child(output, fd, link.path(), path, options, elements_context); }, {fd},
        fork_for_gmsh);
    input.release();  // the child has its own descriptor, and closes it once Gmsh has read the file
    SandboxSource source(child);
    WireResult result = read_wire(source, options.warn, context);
    // Checked while the child exits (tearing down Gmsh's memory: 0.1 s for a 5M-element mesh).
    if (result.ok) check_loaded_mesh(result.mesh, nodes_in_file, context);
    child.finish();
    if (!result.ok) throw MeshError(result.error);
    return std::move(result.mesh);
  } catch (const SandboxFailure& failure) {
    throw MeshError(context + ": Gmsh's reader " + failure.what() + " (expected a mesh that Gmsh 4.8 reads within its limits: see LoadOptions::limits)");
  }
}

}  // namespace feinterp::detail
