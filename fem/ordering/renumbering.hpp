// SPDX-License-Identifier: BSD-3-Clause
// Renumbering: new indices for the nodes and the elements of a mesh's blocks, chosen so that the gather
// of an element's nodal values touches few cache lines and consecutive elements (the neighbours in a GPU
// thread block, or in a CPU thread's loop) touch nearby ones. A mesh whose numbering scatters the gather
// (a random node order is the worst case) loses memory bandwidth to it; docs/design/RENUMBERING.md has the
// locality measured for each method.
//
//   rcm      nodes by reverse Cuthill–McKee on the node adjacency graph (fem/ordering/reverse_cuthill_mckee.hpp):
//            the smallest bandwidth of these methods; elements by their smallest new node index (ties:
//            the old order), so the elements walk the nodes in the same sweep.
//   hilbert  elements by the Hilbert key (fem/ordering/hilbert_curve.hpp) of their centroid (the mean of their
//            nodes), on the bounding box of the nodes; nodes in the order those elements first touch
//            them (nodes of no element after, by their own key): locality in space, whatever the
//            connectivity. First touch rather than each node's own key: fewer sectors per element
//            gathered (docs/design/RENUMBERING.md), as an element's new nodes come out consecutive.
//   none     identity permutations.
//
// Both orders are deterministic (every tie broken by the old index). The blocks share the nodes, so one
// node permutation serves all of them; each block gets its own element permutation. A node or element
// keeps its identity (tags, physical groups) through the permutations: the caller moves every array
// indexed by node or element with them (mesh/renumber.hpp does it for a Mesh), and maps results back
// with Permutation::to_old_order.
//
// No Gmsh here: a FEM code that brings its own mesh and links only feinterp::core can renumber it.
#pragma once

#include <string>
#include <vector>

#include <feinterp/fem/block.hpp>
#include <feinterp/fem/ordering/permutation.hpp>

namespace feinterp {

enum class RenumberMethod { none, rcm, hilbert };
inline constexpr RenumberMethod all_renumber_methods[] = {RenumberMethod::none, RenumberMethod::rcm,
                                                          RenumberMethod::hilbert};

/// "none", "rcm", "hilbert".
const char* renumber_method_name(RenumberMethod method);
/// The method of that name; throws std::invalid_argument naming it and the names there are.
RenumberMethod parse_renumber_method(const std::string& name);

struct Renumbering {
  RenumberMethod method = RenumberMethod::none;
  Permutation<node_index> nodes;                ///< over [0, node_count)
  std::vector<Permutation<offset_t>> elements;  ///< elements[b]: over block b's elements
};

/// The renumbering of `method` for these blocks (host connectivity, validated: std::invalid_argument
/// naming the element and local node) over `node_count` nodes with coordinates x[node*3 + k] (needed by
/// hilbert only; may be null for the others: std::invalid_argument if hilbert gets none, or a non-finite
/// coordinate). Computes the permutations; changes nothing.
Renumbering plan_renumbering(const std::vector<BlockView>& blocks, offset_t node_count, const double* coordinates,
                             RenumberMethod method);

/// Block `block_index`'s connectivity in the new numbering: new element e lists the nodes of old element
/// elements[block_index].new_to_old[e], each by its new index, in the same local (Gmsh) order.
std::vector<node_index> renumbered_connectivity(const BlockView& block, const Renumbering& renumbering,
                                                std::size_t block_index);

}  // namespace feinterp
