// SPDX-License-Identifier: BSD-3-Clause
// The numbering of the meshes the benchmarks measure (--numbering of feinterp-bench, feinterp-sweep and
// feinterp-bench-transpose; feinterp-locality reports all four), so the cost of a scattered gather and
// what renumbering buys back are measured on the same generated mesh:
//
//   natural   Gmsh's own order (its fronts and refinement: fairly local)
//   shuffled  the nodes in a random order drawn from the seed: the worst case
//   rcm       the shuffled mesh renumbered by reverse Cuthill–McKee (fem/ordering/renumbering.hpp)
//   hilbert   the shuffled mesh renumbered along the Hilbert curve
//
// rcm and hilbert start from the shuffled mesh, not from Gmsh's, so they show what renumbering recovers
// from the worst case. CPU code: compiled and tested in every build, used by the CUDA programs.
#pragma once

#include <string>

#include <feinterp/mesh/generate.hpp>

namespace feinterp::app {

enum class Numbering { natural, shuffled, rcm, hilbert };
inline constexpr Numbering all_numberings[] = {Numbering::natural, Numbering::shuffled, Numbering::rcm, Numbering::hilbert};

const char* numbering_name(Numbering numbering);
/// Throws std::invalid_argument naming the bad name and the four there are.
Numbering parse_numbering(const std::string& name);

/// generate_mesh(options) numbered as `numbering` says (options.shuffle_nodes is ignored: the numbering
/// decides). For rcm and hilbert, the mesh's renumbering maps the shuffled order to the final one.
Mesh generate_numbered_mesh(const GenerateOptions& options, Numbering numbering);

/// The two steps of generate_numbered_mesh, for a program that measures several numberings of one mesh
/// without generating it four times: the options to generate with (shuffled nodes for all but natural),
/// then the renumbering of the generated mesh (rcm, hilbert; nothing for natural and shuffled).
GenerateOptions generate_options(GenerateOptions options, Numbering numbering);
void apply_numbering(Mesh& generated, Numbering numbering);

}  // namespace feinterp::app
