// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/results_npy.hpp>

#include <cstdint>
#include <stdexcept>

#include <feinterp/mesh/atomic_file.hpp>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "results_npy.cpp writes this machine's doubles as '<f8' (little-endian): add a byte swap for this machine"
#endif

namespace feinterp::app {


void write_results_npy(const std::string& path, const ResultsTable& table, Progress* progress) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(table.rows()) + ", " +
                       std::to_string(table.columns().size()) + "), }";
  // magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64 (NPY 1.0 aligns the data).
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 65535)
    throw std::invalid_argument("--output '" + path + "': " + std::to_string(table.columns().size()) +
                                " columns make an NPY 1.0 header longer than 65535 bytes");
  static_assert(sizeof(double) == 8, "NPY '<f8' is an 8-byte IEEE double");
  const std::uint16_t length = std::uint16_t(header.size());
  const unsigned char preamble[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(length & 0xff),
                                      static_cast<unsigned char>(length >> 8)};
  AtomicFile file(path);
  file.write(preamble, sizeof preamble);
  file.write(header);
  const std::size_t row_bytes = table.columns().size() * sizeof(double);
  table.for_each_row([&](const double* values) { file.write(values, row_bytes); },
                     [&](std::size_t done) {
                       if (progress) progress->update(double(done));
                     });
  file.commit();
}

}  // namespace feinterp::app
