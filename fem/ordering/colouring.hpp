// SPDX-License-Identifier: BSD-3-Clause
// Element colouring: the elements of a block split into colours such that no two elements of a colour
// share a node. A transpose then sums element contributions into the nodes colour by colour, each colour
// in parallel without conflicts, and every node receives its contributions in the same order (colour
// order, then element order) whatever the number of threads or GPU blocks: the result is bitwise
// reproducible. Used by the CPU backend for every nodal transpose and by the CUDA backend's
// deterministic summation.
#pragma once

#include <vector>

#include <feinterp/fem/block.hpp>

namespace feinterp {

struct ElementColouring {
  std::vector<offset_t> elements;        ///< the block's element indices, colour by colour, increasing in each
  std::vector<offset_t> colour_offsets;  ///< colour k is elements[colour_offsets[k] .. colour_offsets[k + 1])
  int colours() const { return int(colour_offsets.size()) - 1; }
};

/// A greedy colouring in element order (each element takes the smallest colour none of its nodes has
/// yet), computed 64 colours at a time with one bit mask per node: O(elements * nodes_per_element) per
/// round, and the rounds beyond the first only see the elements the earlier ones could not place.
/// The block's connectivity must be in host memory and valid (validate_connectivity).
ElementColouring colour_elements(const BlockView& block, offset_t node_count);

/// Throws std::invalid_argument naming the first element (in block order) that lists one node twice:
/// its contributions to that node would be added by two GPU threads at once in a colour's launch.
void check_distinct_nodes(const BlockView& block);

}  // namespace feinterp
