// SPDX-License-Identifier: BSD-3-Clause
// feinterp-tuning-check: reads tuning tables as the library does and prints what each holds, or one
// error line naming the file and line. No GPU needed.
//
//   feinterp-tuning-check tuning/tables/*.txt     check tables before committing them
//   feinterp-tuning-check --embedded              the tables compiled into this build
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <feinterp/tuning/registry.hpp>
#include <feinterp/tuning/table.hpp>

#include <feinterp/apps/common/build_info.hpp>

using namespace feinterp;

namespace {

void summarise(const tuning::TuningTable& t) {
  std::set<std::string> types;
  const std::vector<tuning::KernelVariant> all = tuning::all_kernel_variants();
  std::vector<std::size_t> per_variant(all.size());
  for (const tuning::TuningEntry& e : t.entries) {
    types.insert(to_string(e.type));
    ++per_variant[std::size_t(e.variant.index())];
  }
  std::string variants;
  for (tuning::KernelVariant v : all)
    variants += (variants.empty() ? "" : ", ") + std::string(tuning::kernel_variant_name(v)) + " " +
                std::to_string(per_variant[std::size_t(v.index())]);
  std::printf("%s: %s, compute capability %s, points %s: %zu entries over %zu element types (%s)\n", t.source.c_str(),
              t.device.c_str(), t.compute_capability().c_str(), t.point_set.c_str(), t.entries.size(), types.size(),
              variants.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (feinterp::app::asked_for_version(argc, argv, "feinterp-tuning-check")) return 0;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fprintf(argc < 2 ? stderr : stdout, "usage: feinterp-tuning-check FILE... | --embedded\n");
    return argc < 2 ? 1 : 0;
  }
  try {
    for (int i = 1; i < argc; ++i) {
      if (!std::strcmp(argv[i], "--embedded")) {
        const auto& tables = tuning::embedded_tuning_tables();
        if (tables.empty()) std::printf("no embedded tables: every device uses the heuristic\n");
        for (const auto& t : tables) summarise(*t);
      } else {
        summarise(tuning::load_tuning_table(argv[i]));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-tuning-check: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
