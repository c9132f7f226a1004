// SPDX-License-Identifier: BSD-3-Clause
// TuningTable: the measured best elements_per_block of each kernel variant, per configuration and
// precision, for one GPU. One text file per GPU, checked in under tuning/tables/ and
// embedded into the library at build time (embed_tables.cmake); written by feinterp-sweep. Plain C++:
// no CUDA needed to read one.
//
// The format (v3), line by line; '#' starts a comment anywhere, blank lines are ignored:
//
//   # feinterp tuning table v3                   <- first line, exactly: the format and its version
//   device: NVIDIA H100 80GB HBM3                <- cudaDeviceProp::name, matched exactly (case-sensitive)
//   compute_capability: 9.0                      <- major.minor, matched exactly
//   points: nodes                                <- the sweep's point set: nodes | quadrature | mixed
//   # element order components operation precision variant points elements_per_block time_us
//   hexahedron 3 1 reference_gradients fp64 dense 64 1 3831
//   hexahedron 3 1 reference_gradients fp64 sum_factorised 64 8 1200
//
// The three header keys come before the first entry, each exactly once. An entry has 9 fields:
//   element             line | triangle | quadrilateral | tetrahedron | hexahedron (tri, quad, tet, hex accepted)
//   order               1 to 3
//   components          1 to 9 (C)
//   operation           values | reference_gradients | physical_gradients, or one of them followed by
//                       _transpose; or a fused operator (core/operation.hpp's FusedOperator, Fusion below):
//                       mass | diffusion (J from the coordinates at every call), mass_precomputed |
//                       diffusion_precomputed (the plan's precomputed factors: sum_factorised only)
//   precision           fp64 | fp32
//   variant             dense | sum_factorised | dense_tensor_cores | dense_async_gather | dense_64_registers
//                       (tuning/kernel_variant.hpp)
//   points              reference points per element (Q) >= 1; with "points: nodes", the element's node count
//                       (a fused operator's: the degree-2p rule's, which the sweep times it at)
//   elements_per_block  1 to 64 (64: CUDA's limit on blockDim.z); the variant's best count the sweep found
//   time_us             the median launch time at that count, in microseconds (> 0); between the variants
//                       of one configuration, the fastest is the winner the launch uses
//                       (launch/kernel_variant_choice.hpp)
// No two entries share (element, order, components, operation, precision, variant, points). Version 2
// tables (no variant column, 8 fields) are read as dense; version 1 tables (no precision either, 7
// fields) as fp64 and dense.
//
// Errors: parse_tuning_table throws TuningTableError naming the file (or "embedded:<file>"), the line
// number and what was expected.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <feinterp/core/operation.hpp>
#include <feinterp/core/precision.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/tuning/kernel_variant.hpp>

namespace feinterp::tuning {

/// The first line of every table this version writes: the format's name and version.
inline constexpr const char* table_signature = "# feinterp tuning table v3";
/// The first lines of the previous versions, still read (v2: dense entries; v1: fp64 and dense).
inline constexpr const char* table_signature_v2 = "# feinterp tuning table v2";
inline constexpr const char* table_signature_v1 = "# feinterp tuning table v1";

/// A malformed table: what() reads "<source>:<line>: <problem>; expected <what>".
class TuningTableError : public std::invalid_argument {
 public:
  TuningTableError(const std::string& source, int line, const std::string& message);
  const std::string& source() const { return source_; }
  int line() const { return line_; }  ///< 1-based; 0 when the problem is the file as a whole

 private:
  std::string source_;
  int line_;
};

/// The fused operators (Interpolator::apply_operator) run the kernels of the weighted transposes with more
/// work in them (the forward operation, the coefficient, and for precomputed geometry other reads), so
/// their entries stand apart from the plain transposes': `op` is values_transpose (mass) or
/// physical_gradients_transpose (diffusion), and `fusion` says which geometry the launch reads.
enum class Fusion {
  none,         ///< a forward operation or a transpose
  on_the_fly,   ///< a fused operator computing J from the coordinates at every call (the dense kernel always)
  precomputed,  ///< a fused operator reading the plan's precomputed factors (the sum-factorised kernel)
};

/// The operation column's word: operation_name(op) for Fusion::none; for a fused operator "mass" or
/// "diffusion", followed by "_precomputed" for Fusion::precomputed. Throws std::invalid_argument for a
/// fusion of an operation that is not values_transpose or physical_gradients_transpose.
std::string table_operation_name(Operation op, Fusion fusion);

/// The inverse of table_operation_name. Throws std::invalid_argument listing the words.
std::pair<Operation, Fusion> parse_table_operation(const std::string& word);

/// What an entry is for: the lookup key.
struct TuningKey {
  ElementType type;
  Operation op;
  int components;
  int points;
  Precision precision = Precision::fp64;
  KernelVariant variant = KernelVariant::dense;
  Fusion fusion = Fusion::none;
};

struct TuningEntry {
  ElementType type{Shape::triangle, 1};
  int components = 1;
  Operation op = Operation::values;
  Precision precision = Precision::fp64;
  KernelVariant variant = KernelVariant::dense;
  Fusion fusion = Fusion::none;
  int points = 1;
  int elements_per_block = 1;
  double time_us = 0;
  int line = 0;  ///< where it was read (0 if built in code): for messages
};

struct TuningTable {
  std::string source;  ///< file path or "embedded:<file name>", for messages
  std::string device;  ///< e.g. "NVIDIA H100 80GB HBM3"
  int major = 0, minor = 0;
  std::string point_set = "nodes";  ///< nodes | quadrature | mixed
  std::vector<TuningEntry> entries;  ///< sorted by key (sort_entries)

  std::string compute_capability() const { return std::to_string(major) + "." + std::to_string(minor); }
  /// True if the table was measured on this device: same name and compute capability.
  bool matches(std::string_view device_name, int device_major, int device_minor) const;
  /// The entry for exactly this key, or nullptr.
  const TuningEntry* find(const TuningKey& key) const;
  /// The entry of the same element type, operation, fusion, components, precision and variant whose point count
  /// is nearest to key.points (ties: the smaller count), or nullptr when there is none.
  const TuningEntry* nearest(const TuningKey& key) const;
  /// Sorts by (shape, order, operation, fusion, components, precision, variant, points) and throws
  /// TuningTableError on a duplicate.
  void sort_entries();
};

/// Parses a table; `source` names it in errors. Throws TuningTableError.
TuningTable parse_tuning_table(const std::string& text, const std::string& source);

/// The largest table file load_tuning_table reads: the sweep's tables are about 70 KiB.
inline constexpr std::size_t max_tuning_table_bytes = std::size_t(16) << 20;

/// Reads and parses a file. Throws TuningTableError (line 0) for a file that cannot be read, is not a
/// regular file (a FIFO, a device, a directory) or is larger than max_tuning_table_bytes.
TuningTable load_tuning_table(const std::string& path);

/// The text of a table, in the format above (entries sorted, a column header, comment lines from
/// `comments` after the signature, each prefixed with "# "). parse(format(t)) == t.
std::string format_tuning_table(const TuningTable& table, const std::vector<std::string>& comments = {});

/// "nvidia-h100-80gb-hbm3": the device name lower-cased, runs of other characters as one '-'; the file
/// name (plus ".txt") under which a device's table is checked in.
std::string table_file_stem(const std::string& device_name);

}  // namespace feinterp::tuning
