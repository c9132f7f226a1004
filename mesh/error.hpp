// SPDX-License-Identifier: BSD-3-Clause
// MeshError: everything that goes wrong while loading, generating or writing a mesh through Gmsh.
// Messages name the file (or the operation), the problem, and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace feinterp {

class MeshError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace feinterp
