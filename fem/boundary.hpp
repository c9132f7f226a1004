// SPDX-License-Identifier: BSD-3-Clause
// The boundary of a mesh's domain, found from its elements alone: the facets (the (d-1)-faces of the
// reference element: a line's ends, a 2D element's edges, a 3D element's faces) that one element only
// has. Their nodes are where a FEM code puts essential (Dirichlet) conditions when the file names no
// boundary group. Facets are matched by their vertices across blocks, so triangles beside
// quadrilaterals, or several physical volumes, are one domain.
#pragma once

#include <vector>

#include <feinterp/core/config.hpp>
#include <feinterp/fem/block.hpp>

namespace feinterp {

/// The nodes, ascending and each once, of every facet that belongs to one element of `blocks` (all of one
/// reference dimension d >= 1, over one numbering of node_count nodes, host memory): vertices, and the
/// edge, face and interior nodes of order 2 and 3 that lie on the facet. A facet of three or more
/// elements (a non-manifold mesh) throws std::invalid_argument naming two of its elements, as do blocks of
/// different dimensions and connectivity outside [0, node_count).
std::vector<node_index> boundary_nodes(const std::vector<BlockView>& blocks, offset_t node_count);

}  // namespace feinterp
