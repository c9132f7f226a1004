// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/common/benchmark_mesh.hpp>

#include <stdexcept>

#include <feinterp/mesh/renumber.hpp>

namespace feinterp::app {

const char* numbering_name(Numbering numbering) {
  switch (numbering) {
    case Numbering::natural: return "natural";
    case Numbering::shuffled: return "shuffled";
    case Numbering::rcm: return "rcm";
    case Numbering::hilbert: return "hilbert";
  }
  return "unknown";
}

Numbering parse_numbering(const std::string& name) {
  for (Numbering n : all_numberings)
    if (name == numbering_name(n)) return n;
  throw std::invalid_argument("unknown numbering '" + name + "': expected natural, shuffled, rcm or hilbert");
}

GenerateOptions generate_options(GenerateOptions options, Numbering numbering) {
  options.shuffle_nodes = numbering != Numbering::natural;
  return options;
}

void apply_numbering(Mesh& generated, Numbering numbering) {
  if (numbering == Numbering::rcm) renumber(generated, RenumberMethod::rcm);
  if (numbering == Numbering::hilbert) renumber(generated, RenumberMethod::hilbert);
}

Mesh generate_numbered_mesh(const GenerateOptions& options, Numbering numbering) {
  Mesh mesh = generate_mesh(generate_options(options, numbering));
  apply_numbering(mesh, numbering);
  return mesh;
}

}  // namespace feinterp::app
