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
#include "tabulation.hpp"

namespace feinterp {

struct CpuOptions {
  int threads = 0;  ///< 0: std::thread::hardware_concurrency(); small blocks use fewer threads
};

/// out[(e*Q + q)*C + c] = u_c at reference point q of element e.
void interpolate_values(const BlockView& block, const Tabulation& table, offset_t node_count, FieldView u,
                        OutputView out, const CpuOptions& options = {});

/// out[((e*Q + q)*C + c)*D + d] = du_c/dxi_d at reference point q of element e.
void interpolate_reference_gradients(const BlockView& block, const Tabulation& table, offset_t node_count,
                                     FieldView u, OutputView out, const CpuOptions& options = {});

/// gradients[((e*Q + q)*C + c)*D + d] = du_c/dx_d, detj[e*Q + q] = det J, with node coordinates
/// coordinates[node*3 + k] (2D elements use x and y). `detj` may be empty (data == nullptr): det J is
/// then not stored but still checked. Throws InvertedElementError if det J <= 0 at some point (the
/// smallest such element index, whatever the number of threads).
void interpolate_physical_gradients(const BlockView& block, const Tabulation& table, const double* coordinates,
                                    offset_t node_count, FieldView u, OutputView gradients, OutputView detj,
                                    const CpuOptions& options = {});

/// det J <= 0 (or not a number) at a point of an element: the element is inverted or degenerate, and
/// physical gradients there would be meaningless.
class InvertedElementError : public std::runtime_error {
 public:
  InvertedElementError(offset_t element, int point, double detj);
  offset_t element() const { return element_; }
  int point() const { return point_; }
  double detj() const { return detj_; }

 private:
  offset_t element_;
  int point_;
  double detj_;
};

}  // namespace feinterp
