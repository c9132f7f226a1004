// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/tuning/table.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <tuple>

#include <feinterp/core/limits.hpp>
#include <feinterp/core/printable_text.hpp>

namespace feinterp::tuning {

TuningTableError::TuningTableError(const std::string& source, int line, const std::string& message)
    : std::invalid_argument("tuning table " + printable_text(source) +
                            (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + printable_text(message)),
      source_(source),
      line_(line) {}

namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

bool parse_int(const std::string& text, int& value) {
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  return result.ec == std::errc() && result.ptr == end;
}

bool parse_double(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  return result.ec == std::errc() && result.ptr == end && std::isfinite(value);
}

template <class KeyOrEntry>
auto sort_key(const KeyOrEntry& k) {
  return std::make_tuple(int(k.type.shape), k.type.order, int(k.op), int(k.fusion), k.components, int(k.precision),
                         k.variant.index(), k.points);
}

const char* const operation_words =
    "values, reference_gradients, physical_gradients or one of them followed by _transpose; or mass, diffusion, "
    "mass_precomputed or diffusion_precomputed";

class Parser {
 public:
  Parser(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(int line, const std::string& message) const { throw TuningTableError(source_, line, message); }

  TuningTable parse(const std::string& text) {
    TuningTable table;
    table.source = source_;
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    int first_entry = 0;
    int device_line = 0, capability_line = 0, points_line = 0;
    while (std::getline(in, raw)) {
      ++line;
      if (line == 1) {
        version_ = check_signature(trim(raw));
        continue;
      }
      const std::string content = trim(raw.substr(0, raw.find('#')));
      if (content.empty()) continue;
      const auto colon = content.find(':');
      if (colon != std::string::npos) {
        const std::string key = trim(content.substr(0, colon)), value = trim(content.substr(colon + 1));
        if (first_entry)
          fail(line, "header '" + key + ":' after the first entry (line " + std::to_string(first_entry) +
                         "); expected device, compute_capability and points before the entries");
        if (key == "device") {
          once(device_line, line, key);
          if (value.empty()) fail(line, "empty device name; expected the CUDA device name, e.g. 'device: NVIDIA H100 80GB HBM3'");
          table.device = value;
        } else if (key == "compute_capability") {
          once(capability_line, line, key);
          const auto dot = value.find('.');
          if (dot == std::string::npos || !parse_int(value.substr(0, dot), table.major) ||
              !parse_int(value.substr(dot + 1), table.minor) || table.major < 1 || table.minor < 0)
            fail(line, "compute capability '" + value + "'; expected major.minor, e.g. 9.0");
        } else if (key == "points") {
          once(points_line, line, key);
          if (value != "nodes" && value != "quadrature" && value != "mixed")
            fail(line, "point set '" + value + "'; expected nodes, quadrature or mixed");
          table.point_set = value;
        } else {
          fail(line, "unknown header '" + key + ":'; expected device, compute_capability or points");
        }
        continue;
      }
      if (!first_entry) {
        first_entry = line;
        if (!device_line) fail(line, "no 'device:' header before the first entry; expected e.g. 'device: NVIDIA H100 80GB HBM3'");
        if (!capability_line) fail(line, "no 'compute_capability:' header before the first entry; expected e.g. 'compute_capability: 9.0'");
        if (!points_line) fail(line, "no 'points:' header before the first entry; expected 'points: nodes', 'points: quadrature' or 'points: mixed'");
      }
      table.entries.push_back(entry(content, line, table.point_set));
    }
    if (line == 0) fail(0, "the file is empty; expected '" + std::string(table_signature) + "' as its first line");
    if (!first_entry) fail(line, "no entries; expected lines '" + fields_expected() + "'");
    sort(table);
    return table;
  }

  void sort(TuningTable& table) const {
    std::stable_sort(table.entries.begin(), table.entries.end(),
                     [](const TuningEntry& a, const TuningEntry& b) { return sort_key(a) < sort_key(b); });
    for (std::size_t i = 1; i < table.entries.size(); ++i) {
      const TuningEntry &a = table.entries[i - 1], &b = table.entries[i];
      if (sort_key(a) == sort_key(b))
        fail(std::max(a.line, b.line),
             "duplicate entry for " + to_string(b.type) + ", C = " + std::to_string(b.components) + ", " +
                 table_operation_name(b.op, b.fusion) + ", " + precision_name(b.precision) + ", " + kernel_variant_name(b.variant) +
                 ", Q = " + std::to_string(b.points) +
                 (a.line ? " (first on line " + std::to_string(std::min(a.line, b.line)) + ")" : std::string()) +
                 "; expected one entry per (element, order, components, operation, precision, variant, points)");
    }
  }

 private:
  // The format version of the first line: 3, 2 (no variant column) or 1 (no precision either).
  int check_signature(const std::string& first) const {
    const std::string prefix = "# feinterp tuning table ";
    if (first == table_signature) return 3;
    if (first == table_signature_v2) return 2;
    if (first == table_signature_v1) return 1;
    if (first.compare(0, prefix.size(), prefix) == 0)
      fail(1, "unsupported format version '" + first.substr(prefix.size()) + "'; expected '" + table_signature + "'");
    fail(1, "'" + first.substr(0, 60) + "' is not a tuning table's first line; expected '" + table_signature + "'");
  }

  std::string fields_expected() const {
    return version_ == 1   ? "element order components operation points elements_per_block time_us"
           : version_ == 2 ? "element order components operation precision points elements_per_block time_us"
                           : "element order components operation precision variant points elements_per_block time_us";
  }

  void once(int& seen, int line, const std::string& key) const {
    if (seen) fail(line, "second '" + key + ":' header (first on line " + std::to_string(seen) + "); expected it once");
    seen = line;
  }

  TuningEntry entry(const std::string& content, int line, const std::string& point_set) const {
    std::vector<std::string> f = split(content);
    const std::size_t fields = std::size_t(6 + version_);  // 7, 8, 9
    if (f.size() != fields)
      fail(line, std::to_string(f.size()) + " fields; expected " + std::to_string(fields) + ": " + fields_expected());
    // Older versions' missing columns, with the values their entries had: fp64, and the dense kernel.
    if (version_ == 1) f.insert(f.begin() + 4, "fp64");
    if (version_ <= 2) f.insert(f.begin() + 5, "dense");
    TuningEntry e;
    e.line = line;
    try {
      e.type.shape = parse_shape(f[0]);
    } catch (const std::invalid_argument&) {
      fail(line, "element '" + f[0] + "'; expected line, triangle, quadrilateral, tetrahedron or hexahedron");
    }
    if (!parse_int(f[1], e.type.order) || e.type.order < min_order || e.type.order > max_order)
      fail(line, "order '" + f[1] + "'; expected 1, 2 or 3");
    if (!parse_int(f[2], e.components) || e.components < 1 || e.components > max_components)
      fail(line, "components '" + f[2] + "'; expected 1 to " + std::to_string(max_components));
    try {
      std::tie(e.op, e.fusion) = parse_table_operation(f[3]);
    } catch (const std::invalid_argument&) {
      fail(line, "operation '" + f[3] + "'; expected " + operation_words);
    }
    try {
      e.precision = parse_precision(f[4]);
    } catch (const std::invalid_argument&) {
      fail(line, "precision '" + f[4] + "'; expected fp64 or fp32");
    }
    bool named = false;  // the names kernel_variant_name writes, nothing else (no aliases)
    for (KernelVariant v : all_kernel_variants())
      if (f[5] == kernel_variant_name(v)) {
        e.variant = v;
        named = true;
      }
    if (!named) fail(line, "variant '" + f[5] + "'; expected " + expected_kernel_variants());
    if (e.fusion != Fusion::none && e.variant != KernelVariant::dense && e.variant != KernelVariant::sum_factorised)
      fail(line, "variant " + f[5] + " for the fused operator " + f[3] + "; expected dense or sum_factorised");
    if (e.fusion == Fusion::precomputed && e.variant != KernelVariant::sum_factorised)
      fail(line, "variant " + f[5] + " for " + f[3] +
                     "; expected sum_factorised (the dense kernel computes J at every call: its entry is " +
                     table_operation_name(e.op, Fusion::on_the_fly) + ")");
    if (e.fusion == Fusion::on_the_fly && e.op == Operation::values_transpose &&
        e.variant == KernelVariant::sum_factorised)
      fail(line, "variant sum_factorised for mass; expected dense (the sum-factorised mass reads precomputed factors: "
                 "its entry is mass_precomputed)");
    if (e.variant == KernelVariant::sum_factorised &&
        (e.type.shape != Shape::quadrilateral && e.type.shape != Shape::hexahedron))
      fail(line, "variant sum_factorised for " + to_string(e.type) +
                     "; expected it for quadrilaterals and hexahedra only (the dense variant for other elements)");
    if (e.variant == KernelVariant::dense_tensor_cores &&
        ((e.op != Operation::values && e.op != Operation::reference_gradients) || e.precision != Precision::fp64))
      fail(line, "variant dense_tensor_cores for " + std::string(operation_name(e.op)) + " in " +
                     precision_name(e.precision) + "; expected it for values and reference_gradients in fp64 only");
    if (e.variant == KernelVariant::dense_async_gather &&
        ((e.op != Operation::values && e.op != Operation::reference_gradients) || e.components != 1))
      fail(line, "variant dense_async_gather for " + std::string(operation_name(e.op)) + " with C = " +
                     std::to_string(e.components) + "; expected it for values and reference_gradients with C = 1 only");
    if (e.variant == KernelVariant::dense_64_registers &&
        (e.op != Operation::physical_gradients || e.precision != Precision::fp64 || dimension(e.type.shape) != 3))
      fail(line, "variant dense_64_registers for " + std::string(operation_name(e.op)) + " of " + to_string(e.type) + " in " +
                     precision_name(e.precision) +
                     "; expected it for physical_gradients of tetrahedra and hexahedra in fp64 only");
    if (!parse_int(f[6], e.points) || e.points < 1) fail(line, "points '" + f[6] + "'; expected a count >= 1");
    // A fused operator integrates: the sweep times it at the degree-2p rule, whatever the table's point set.
    if (point_set == "nodes" && e.fusion == Fusion::none && e.points != nodes_per_element(e.type))
      fail(line, "points " + f[6] + " for " + to_string(e.type) + " in a 'points: nodes' table; expected its " +
                     std::to_string(nodes_per_element(e.type)) + " nodes");
    if (!parse_int(f[7], e.elements_per_block) || e.elements_per_block < 1 ||
        e.elements_per_block > max_elements_per_block)
      fail(line, "elements_per_block '" + f[7] + "'; expected 1 to " + std::to_string(max_elements_per_block));
    if (!parse_double(f[8], e.time_us) || !(e.time_us > 0))
      fail(line, "time_us '" + f[8] + "'; expected a time in microseconds > 0");
    return e;
  }

  std::string source_;
  int version_ = 3;
};

}  // namespace

std::string table_operation_name(Operation op, Fusion fusion) {
  if (fusion == Fusion::none) return operation_name(op);
  const char* suffix = fusion == Fusion::precomputed ? "_precomputed" : "";
  if (op == Operation::values_transpose) return std::string("mass") + suffix;
  if (op == Operation::physical_gradients_transpose) return std::string("diffusion") + suffix;
  throw std::invalid_argument(std::string("no fused operator runs the kernel of ") + operation_name(op) +
                              "; expected values_transpose (mass) or physical_gradients_transpose (diffusion)");
}

std::pair<Operation, Fusion> parse_table_operation(const std::string& word) {
  for (Operation op : {Operation::values_transpose, Operation::physical_gradients_transpose})
    for (Fusion fusion : {Fusion::on_the_fly, Fusion::precomputed})
      if (word == table_operation_name(op, fusion)) return {op, fusion};
  try {
    return {parse_operation(word), Fusion::none};
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("unknown operation '" + word + "'; expected " + operation_words);
  }
}

bool TuningTable::matches(std::string_view device_name, int device_major, int device_minor) const {
  return device == device_name && major == device_major && minor == device_minor;
}

const TuningEntry* TuningTable::find(const TuningKey& key) const {
  const auto it = std::lower_bound(entries.begin(), entries.end(), key,
                                   [](const TuningEntry& e, const TuningKey& k) { return sort_key(e) < sort_key(k); });
  return it != entries.end() && sort_key(*it) == sort_key(key) ? &*it : nullptr;
}

const TuningEntry* TuningTable::nearest(const TuningKey& key) const {
  // The entries are sorted with points last: those that differ from key only in points are one run, and
  // the nearest is one of the two around where key would sit in it.
  const auto same_run = [&key](const TuningEntry& e) {
    return e.type == key.type && e.op == key.op && e.fusion == key.fusion && e.components == key.components &&
           e.precision == key.precision && e.variant == key.variant;
  };
  const auto at_or_above = std::lower_bound(entries.begin(), entries.end(), key, [](const TuningEntry& e, const TuningKey& k) {
    return sort_key(e) < sort_key(k);
  });
  const TuningEntry* above = at_or_above != entries.end() && same_run(*at_or_above) ? &*at_or_above : nullptr;
  const TuningEntry* below =
      at_or_above != entries.begin() && same_run(*std::prev(at_or_above)) ? &*std::prev(at_or_above) : nullptr;
  if (!above || !below) return above ? above : below;
  // A tie goes to the smaller count.
  return above->points - key.points < key.points - below->points ? above : below;
}

void TuningTable::sort_entries() { Parser(source.empty() ? "<table>" : source).sort(*this); }

TuningTable parse_tuning_table(const std::string& text, const std::string& source) { return Parser(source).parse(text); }

TuningTable load_tuning_table(const std::string& path) {
  // A regular file only: opening a FIFO would wait for a writer forever, and a device has no end.
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    throw TuningTableError(path, 0, "cannot open the file; expected a readable tuning table");
  if (!std::filesystem::is_regular_file(status))
    throw TuningTableError(path, 0, "not a regular file; expected a tuning table written by feinterp-sweep");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TuningTableError(path, 0, "cannot open the file; expected a readable tuning table");
  // Read in chunks, stopping past the bound: the text takes what the file holds, not the bound.
  std::string text;
  char chunk[1 << 16];
  while (file.read(chunk, sizeof chunk) || file.gcount() > 0) {
    text.append(chunk, std::size_t(file.gcount()));
    if (text.size() > max_tuning_table_bytes)
      throw TuningTableError(path, 0, "larger than " + std::to_string(max_tuning_table_bytes >> 20) +
                                          " MiB; expected a tuning table (the sweep writes tens of KiB)");
  }
  if (file.bad()) throw TuningTableError(path, 0, "reading the file failed");
  return parse_tuning_table(text, path);
}

std::string format_tuning_table(const TuningTable& table, const std::vector<std::string>& comments) {
  TuningTable sorted = table;
  sorted.sort_entries();
  std::ostringstream out;
  out << table_signature << '\n';
  for (const std::string& c : comments) out << (c.empty() ? "#" : "# " + c) << '\n';
  out << "device: " << sorted.device << '\n';
  out << "compute_capability: " << sorted.compute_capability() << '\n';
  out << "points: " << sorted.point_set << '\n';
  char line[200];
  std::snprintf(line, sizeof line, "# %-13s %5s %10s %-29s %9s %-14s %6s %18s %10s\n", "element", "order", "components",
                "operation", "precision", "variant", "points", "elements_per_block", "time_us");
  out << line;
  for (const TuningEntry& e : sorted.entries) {
    // %.17g: the exact double, so that parse(format(t)) == t; trimmed to the shortest that reads back.
    char time[40];
    for (int precision = 3; precision <= 17; ++precision) {
      std::snprintf(time, sizeof time, "%.*g", precision, e.time_us);
      double back = 0;
      if (parse_double(time, back) && back == e.time_us) break;
    }
    std::snprintf(line, sizeof line, "%-15s %5d %10d %-29s %9s %-14s %6d %18d %10s\n", shape_name(e.type.shape),
                  e.type.order, e.components, table_operation_name(e.op, e.fusion).c_str(), precision_name(e.precision),
                  kernel_variant_name(e.variant), e.points, e.elements_per_block, time);
    out << line;
  }
  return out.str();
}

std::string table_file_stem(const std::string& device_name) {
  std::string stem;
  bool dash = false;
  for (char c : device_name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      if (dash && !stem.empty()) stem += '-';
      dash = false;
      stem += char(std::tolower(static_cast<unsigned char>(c)));
    } else {
      dash = true;
    }
  }
  return stem.empty() ? "unknown-device" : stem;
}

}  // namespace feinterp::tuning
