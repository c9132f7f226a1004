// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: what the parent does with the bytes a (possibly subverted) reader process sends:
// decode the wire format (mesh/detail/mesh_wire.hpp) within an output allowance, then check the mesh
// (mesh/detail/loaded_mesh_checks.hpp). In process, with AddressSanitizer and UndefinedBehaviorSanitizer.
#include <cstddef>
#include <cstdint>
#include <string>

#include <feinterp/mesh/detail/loaded_mesh_checks.hpp>
#include <feinterp/mesh/detail/mesh_wire.hpp>
#include <feinterp/mesh/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const feinterp::detail::WireResult result = feinterp::detail::read_wire(bytes, {}, "fuzz");
    if (result.ok) feinterp::detail::check_loaded_mesh(result.mesh, 1u << 20, "fuzz");
  } catch (const feinterp::MeshError&) {
  }
  return 0;
}
