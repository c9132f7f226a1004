// The arguments every interpolation kernel takes, device pointers all. One struct, passed by value,
// so the packed and baseline kernels and their launchers share one signature.
#pragma once

#include "../elements/config.hpp"

namespace feinterp::cuda {

struct KernelArgs {
  const node_index* connectivity;   ///< [e * nodes + n]
  offset_t elements;
  const double* field;              ///< [node * C + c]
  const double* coordinates;        ///< [node * 3 + k], k < S (and z = 0 checked for S = 2); physical gradients only
  const double* table;              ///< device tabulation, [n][t][q] (shared_layout.hpp)
  int points;                       ///< Q
  int components;                   ///< C (the packed kernel also has it as a template parameter)
  double* out;                      ///< layout.hpp
  double* detj;                     ///< [e * Q + q]; physical gradients only, may be null
  unsigned long long* first_bad;    ///< physical gradients: atomicMin of the indices of the elements that
                                    ///< fem/orientation.hpp refuses (degenerate, tangled, off the plane)
  unsigned* point_orientation;      ///< baseline kernel: null, or (a one-element launch, to explain an
                                    ///< error) each point's orientation bit [q]
};

}  // namespace feinterp::cuda
