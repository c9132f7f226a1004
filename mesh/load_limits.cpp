// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/load_limits.hpp>

#include <unistd.h>

#include <algorithm>

namespace feinterp {

std::size_t memory_ceiling(const LoadLimits& limits) {
  if (limits.memory_ceiling != 0) return limits.memory_ceiling;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) / 4 * 3 * std::size_t(page) : std::size_t(4) << 30;
}

std::size_t max_file_bytes(const LoadLimits& limits) {
  return limits.max_file_bytes != 0 ? limits.max_file_bytes : memory_ceiling(limits) / 3;
}

ReaderAllowance reader_allowance(const LoadLimits& limits, std::size_t file_size) {
  const std::size_t ceiling = memory_ceiling(limits);
  const double size = double(file_size);
  // In double, then capped below 2^63 before the conversion (a larger double does not fit a size_t).
  auto bytes = [](double b) { return std::size_t(std::min(b, 9.2e18)); };
  ReaderAllowance a;
  a.memory_bytes = bytes(std::min(double(ceiling), double(limits.memory_base) + limits.memory_per_byte * size));
  a.cpu_seconds = std::min(limits.cpu_ceiling_seconds, limits.cpu_base_seconds + size / limits.cpu_bytes_per_second);
  a.wall_seconds = 2 * a.cpu_seconds + 10;
  a.output_bytes = bytes(double(limits.output_base) + limits.output_per_byte * size);
  return a;
}

}  // namespace feinterp
