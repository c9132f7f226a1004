// BlockView: a non-owning view of a block of same-type elements, the unit every interpolation
// routine (CPU and GPU) works on. The mesh loader's ElementBlock converts to it; a FEM code that
// brings its own mesh builds one from its own arrays.
#pragma once

#include "../elements/config.hpp"
#include "../elements/element_type.hpp"

namespace feinterp {

struct BlockView {
  ElementType type;
  const node_index* connectivity = nullptr;  ///< element e, local node n at [e * nodes_per_element + n], Gmsh order
  offset_t element_count = 0;
};

/// Throws std::invalid_argument naming the first element whose connectivity holds an index outside
/// [0, node_count), or if the view is inconsistent (null data with elements, negative count).
/// Host-side, once per block: kernels then never read out of bounds.
void validate_connectivity(const BlockView& block, offset_t node_count);

}  // namespace feinterp
