// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the pre-scan (mesh/detail/msh_scan.hpp) on arbitrary bytes, in process, with
// AddressSanitizer and UndefinedBehaviorSanitizer. Any outcome but a result or a MeshError is a finding:
// a crash, a sanitizer report, another exception, or memory beyond libFuzzer's -rss_limit_mb (the
// pre-scan must not allocate by a count it read).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <feinterp/mesh/detail/msh_scan.hpp>
#include <feinterp/mesh/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  feinterp::detail::MshScanOptions options;
  options.collect_node_data = true;
  try {
    const feinterp::detail::MshScan scan =
        feinterp::detail::scan_msh(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.msh", options);
    (void)scan.all_for_gmsh(size);
  } catch (const feinterp::MeshError&) {
  }
  return 0;
}
