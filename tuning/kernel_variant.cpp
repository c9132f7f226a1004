// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/tuning/kernel_variant.hpp>

#include <deque>
#include <mutex>
#include <stdexcept>

namespace feinterp::tuning {

namespace {

/// The names of the registered variants, by index: the built-in five, then those registered since. A
/// deque, so that the names kernel_variant_name hands out stay where they are as it grows.
struct Names {
  std::mutex mutex;
  std::deque<std::string> names{"dense", "sum_factorised", "dense_tensor_cores", "dense_async_gather",
                                "dense_64_registers"};
};

Names& names() {
  static Names n;
  return n;
}

struct Alias {
  const char* alias;
  KernelVariant variant;
};
constexpr Alias aliases[] = {{"sumfac", KernelVariant::sum_factorised},
                             {"tensor_cores", KernelVariant::dense_tensor_cores},
                             {"async_gather", KernelVariant::dense_async_gather}};

}  // namespace

KernelVariant register_kernel_variant_name(const std::string& name) {
  if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
    throw std::invalid_argument("kernel variant name '" + name + "': expected lower-case letters, digits and '_'");
  for (const Alias& a : aliases)
    if (name == a.alias)
      throw std::invalid_argument("kernel variant name '" + name + "' is an alias of " +
                                  kernel_variant_name(a.variant));
  Names& n = names();
  std::lock_guard<std::mutex> lock(n.mutex);
  for (std::size_t i = 0; i < n.names.size(); ++i)
    if (n.names[i] == name) return KernelVariant::at(int(i));
  n.names.push_back(name);
  return KernelVariant::at(int(n.names.size()) - 1);
}

std::vector<KernelVariant> all_kernel_variants() {
  Names& n = names();
  std::lock_guard<std::mutex> lock(n.mutex);
  std::vector<KernelVariant> all;
  for (std::size_t i = 0; i < n.names.size(); ++i) all.push_back(KernelVariant::at(int(i)));
  return all;
}

const char* kernel_variant_name(KernelVariant variant) {
  Names& n = names();
  std::lock_guard<std::mutex> lock(n.mutex);
  if (variant.index() < 0 || std::size_t(variant.index()) >= n.names.size()) return "unknown";
  return n.names[std::size_t(variant.index())].c_str();
}

std::vector<std::string> kernel_variant_names() {
  std::vector<std::string> list;
  for (KernelVariant v : all_kernel_variants()) list.push_back(kernel_variant_name(v));
  return list;
}

std::string expected_kernel_variants() {
  const std::vector<std::string> list = kernel_variant_names();
  std::string text;
  for (std::size_t i = 0; i < list.size(); ++i)
    text += (i == 0 ? "" : i + 1 == list.size() ? " or " : ", ") + list[i];
  return text;
}

KernelVariant parse_kernel_variant(const std::string& name) {
  for (KernelVariant v : all_kernel_variants())
    if (name == kernel_variant_name(v)) return v;
  for (const Alias& a : aliases)
    if (name == a.alias) return a.variant;
  throw std::invalid_argument("unknown kernel variant '" + name + "': expected " + expected_kernel_variants());
}

}  // namespace feinterp::tuning
