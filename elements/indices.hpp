// SPDX-License-Identifier: BSD-3-Clause
// indices: from one element's connectivity to the global degrees of freedom of a C-component nodal
// field stored node-major, u[node * C + c] (the layout of Gmsh's vector $NodeData, and of most FEM
// codes' interleaved vectors).
#pragma once

#include <feinterp/core/config.hpp>

namespace feinterp {

/// The global dof of component c at a node: node * components + c. 64-bit: node * C passes 2^31 for
/// C = 9 from 239M nodes up. The GPU kernels gather one (node, c) pair per thread through this.
FEINTERP_HD offset_t dof(node_index node, int components, int c) {
  return offset_t(node) * components + c;
}

/// dofs[n * components + c] = dof(connectivity[n], components, c), for n < Element::nodes_per_element.
template <class Element>
FEINTERP_HD void indices(const node_index* connectivity, int components, offset_t* dofs) {
  for (int n = 0; n < Element::nodes_per_element; ++n)
    for (int c = 0; c < components; ++c) dofs[n * components + c] = dof(connectivity[n], components, c);
}

}  // namespace feinterp
