// SPDX-License-Identifier: BSD-3-Clause
// What load_msh lets a mesh file cost, and the largest coordinate it accepts.
//
// Gmsh reads the file in a child process (mesh/load.cpp) whose resources are limited from the file's
// size, so that no file can make the caller's process run out of memory or time:
//
//   memory   memory_base + memory_per_byte x file size, at most memory_ceiling (by default 3/4 of the
//            machine's physical memory), on top of the address space the child starts with (a copy of
//            the caller's). Measured need (docs/design/SANDBOX.md): 3.7 x the file for a binary MSH 4.1
//            tetrahedral mesh; up to ~12 x for the densest encoding (binary MSH 2.2 elements without
//            tags, where Gmsh keeps three maps per element); 32 x leaves room for both.
//   CPU      cpu_base_seconds + file size / cpu_bytes_per_second, at most cpu_ceiling_seconds. Gmsh reads
//            binary files at ~200 MB/s and ASCII ones at ~20 MB/s on one core; 1 MB/s is a 20x margin.
//   wall     twice the CPU limit + 10 s, then the child is killed (it may wait for a slow disk).
//   output   the child writes no file at all; what it sends back is read up to
//            output_base + output_per_byte x file size bytes (a mesh's arrays take at most ~4 bytes per
//            byte of the file it came from: an 8-byte ASCII node "1 0 0 0\n" becomes 32 bytes).
//   file     the file is copied into memory (a sealed memfd, detail/sealed_file.hpp) only if its first
//            lines are MSH's and it has at most max_file_bytes, by default a third of the memory
//            ceiling: Gmsh needs at least 3.6 x the file (measured, binary MSH 4.1), so a larger file
//            could not be read within the ceiling anyway, and is refused before it costs its size in
//            memory. Raise it together with memory_ceiling.
//
// A file that needs more fails with a MeshError that says which limit it reached; raise the limits
// (LoadOptions::limits) for meshes that legitimately need more.
#pragma once

#include <cstddef>

namespace feinterp {

/// Coordinates are refused beyond this magnitude, so that no Jacobian can overflow: the largest sum
/// over an element's nodes of |dN/dxi_d| is 30.5, for the cubic simplices (the cubic hexahedron's is
/// ~27: 10 for the 1D derivative at an end point times the 1D Lebesgue function across, up to 1.63^2;
/// tests/mesh/untrusted_load_test.cpp checks the bound of 32 on every supported type), so
/// |J_ij| <= 32 x 1e100, |det J| <= 3! x (32e100)^3 ~ 2e305 < 1.8e308, and the cofactors of J^-1 stay
/// below ~1e206.
constexpr double max_abs_coordinate = 1e100;

struct LoadLimits {
  std::size_t memory_base = std::size_t(256) << 20;  ///< bytes
  double memory_per_byte = 32;
  std::size_t memory_ceiling = 0;  ///< bytes; 0: 3/4 of the physical memory
  double cpu_base_seconds = 5;
  double cpu_bytes_per_second = 1e6;
  double cpu_ceiling_seconds = 3600;
  std::size_t output_base = std::size_t(16) << 20;  ///< bytes
  double output_per_byte = 8;
  std::size_t max_file_bytes = 0;  ///< the largest file copied and read, bytes; 0: memory ceiling / 3
};

/// memory_ceiling, or 3/4 of the physical memory when it is 0.
std::size_t memory_ceiling(const LoadLimits& limits);
/// max_file_bytes, or memory_ceiling(limits) / 3 when it is 0.
std::size_t max_file_bytes(const LoadLimits& limits);

/// The limits one file gets, computed from its size.
struct ReaderAllowance {
  std::size_t memory_bytes = 0;
  double cpu_seconds = 0;
  double wall_seconds = 0;
  std::size_t output_bytes = 0;
};
ReaderAllowance reader_allowance(const LoadLimits& limits, std::size_t file_size);

}  // namespace feinterp
