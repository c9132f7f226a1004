// SPDX-License-Identifier: BSD-3-Clause
// Reverse Cuthill–McKee: an order of the nodes in which nodes that share an element get nearby indices,
// so that the gather of an element's nodal values touches a narrow range of the field (the bandwidth of
// the node adjacency matrix is small). The node renumbering of fem/ordering/renumbering.hpp uses it.
//
// The graph: two nodes are adjacent when they share an element of any of the blocks (blocks share
// nodes). It is never built: a p = 3 hexahedron's node has up to 342 neighbours, so the graph of 100k
// such elements would hold ~3e8 entries (1.3 GB of 32-bit indices: ~124 neighbours for each of 2.7M nodes). The search walks the node -> elements incidence instead
// (nodes_per_element entries per element, 6.4M for that mesh) and expands each element once: when the
// first of its nodes is taken from the queue, every node of the element is discovered, and the element
// is never looked at again in that search. So a search costs O(elements x nodes_per_element).
//
// The degree that orders each node's new neighbours is counted with multiplicity: the number of
// (element, other local node) pairs at the node, sum over its elements of (nodes_per_element - 1), known
// from the incidence without the graph. Within a block of one type it orders nodes as the true degree
// does up to ties between nodes shared by the same number of elements.
//
// Per connected component: the start is a pseudo-peripheral node (A. George and J. W. H. Liu, "An
// implementation of a pseudoperipheral node finder", ACM TOMS 5, 1979): from a node of minimum degree,
// a breadth-first search; its last level's node of minimum degree becomes the start while that
// lengthens the search (at most 16 searches per component). Components are taken in the order of their
// lowest node index, ties everywhere broken by the lower index: the order is deterministic. The
// Cuthill–McKee order of all components is then reversed.
#pragma once

#include <vector>

#include <feinterp/fem/block.hpp>

namespace feinterp {

/// The new order of the nodes [0, node_count): result[new index] = old index. Nodes of no element are
/// components of their own. The blocks' connectivity must be in host memory; it is validated
/// (validate_connectivity: std::invalid_argument naming the element and local node).
std::vector<node_index> reverse_cuthill_mckee(const std::vector<BlockView>& blocks, offset_t node_count);

}  // namespace feinterp
