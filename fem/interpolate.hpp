// CPU interpolation of nodal fields at the points of a Tabulation, on every element of a block:
// values, gradients in reference coordinates, and gradients in physical coordinates (with det J).
// Layouts are those of layout.hpp; the GPU path (cuda/) computes the same results with the same
// Tabulation and geometry.hpp.
//
// Each call validates its inputs once on the host (element type against the table, field, output and
// connectivity sizes, component count) and throws std::invalid_argument saying what was expected;
// then it splits the elements over std::threads.
#pragma once

#include <stdexcept>

#include "block.hpp"
#include "operation.hpp"
#include "orientation.hpp"
#include "tabulation.hpp"

namespace feinterp {

struct CpuOptions {
  int threads = 0;  ///< 0: std::thread::hardware_concurrency(); small blocks use fewer threads
};

/// out[(e*Q + q)*C + c] = u_c at reference point q of element e.
void interpolate_values(const BlockView& block, const Tabulation& table, offset_t node_count, FieldView u,
                        OutputView out, const CpuOptions& options = {});

/// out[((e*Q + q)*C + c)*D + d] = du_c/dxi_d at reference point q of element e (D: the reference dimension).
void interpolate_reference_gradients(const BlockView& block, const Tabulation& table, offset_t node_count,
                                     FieldView u, OutputView out, const CpuOptions& options = {});

/// gradients[((e*Q + q)*C + c)*S + k] = du_c/dx_k, detj[e*Q + q] = det J (S = D, signed) or the measure
/// sqrt(det(J^T J)) (S > D), with node coordinates coordinates[node*3 + k] and S the block's space
/// dimension (fem/block.hpp; for S > D the gradient is the tangential one, fem/geometry.hpp). `detj`
/// may be empty (data == nullptr): det J is then not stored but still checked, by the policy of
/// orientation.hpp: throws DegenerateElementError for an element whose det J vanishes or changes sign
/// (the smallest such element index, whatever the number of threads; mirrored elements, det J < 0 at
/// every point, are valid), and std::invalid_argument for a node with z != 0 in a block with S = 2.
void interpolate_physical_gradients(const BlockView& block, const Tabulation& table, const double* coordinates,
                                    offset_t node_count, FieldView u, OutputView gradients, OutputView detj,
                                    const CpuOptions& options = {});

}  // namespace feinterp
