// SPDX-License-Identifier: BSD-3-Clause
// Which table a launch uses (override, FEINTERP_TUNING_TABLE, embedded by device), and what the launch
// module (cuda/launch, the one place that decides elements_per_block) does with it: the entry,
// the nearest Q scaled, the heuristic, each fallback with its one-time warning; thread safety; the
// embedded tables themselves; the kernel variant (the request, FEINTERP_KERNEL_VARIANT, the table, the
// default) and where the sum-factorised one applies. All of it is host code: a DeviceInfo made up here
// stands for the GPU, so these tests run without one.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <feinterp/cuda/layout/tensor_core_shared_layout.hpp>
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/tuning/registry.hpp>
#include <feinterp/tuning/table.hpp>
#include <feinterp/tests/support/made_up_device.hpp>

using namespace feinterp;
using namespace feinterp::tuning;
using feinterp::backends::cuda::choose_elements_per_block;
using feinterp::backends::cuda::DeviceInfo;
using feinterp::backends::cuda::heuristic_elements_per_block;
using feinterp::backends::cuda::LaunchShape;
using feinterp::backends::cuda::max_elements_per_block;
using feinterp::backends::cuda::threads_per_element;
using feinterp::backends::cuda::threads_per_block;

namespace {

DeviceInfo device(const std::string& name, int major, int minor, std::size_t shared_per_block_optin = 227 * 1024) {
  return test::made_up_device(name, major, minor, shared_per_block_optin);
}

const DeviceInfo test_gpu = device("Test GPU 3000", 9, 0);
const LaunchShape tri1{{Shape::triangle, 1}, Operation::reference_gradients, 3, 1, 2, Precision::fp64};

const std::string test_table_text =
    "# feinterp tuning table v2\n"
    "device: Test GPU 3000\n"
    "compute_capability: 9.0\n"
    "points: mixed\n"
    "triangle 1 1 reference_gradients fp64 3 24 43.9\n"
    "triangle 1 2 reference_gradients fp64 3 64 50\n"
    "triangle 1 1 reference_gradients fp32 3 40 30\n"
    "tetrahedron 2 1 values fp64 10 12 100\n";

LaunchShape with(LaunchShape s, int points, Operation op = Operation::values) {
  s.points = points;
  s.op = op;
  return s;
}

/// Collects the warnings for one test; resets the library's state before and after.
class Registry : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv(table_environment_variable);
    unsetenv(feinterp::backends::cuda::kernel_variant_environment_variable);  // a caller's A/B setting
    set_tuning_table(nullptr);
    tuning::detail::reset_tuning_state_for_tests();
    set_tuning_warning_handler([this](const std::string& message) {
      std::lock_guard<std::mutex> lock(mutex_);
      warnings_.push_back(message);
    });
  }
  void TearDown() override {
    set_tuning_warning_handler({});
    set_tuning_table(nullptr);
    unsetenv(table_environment_variable);
    tuning::detail::reset_tuning_state_for_tests();
  }
  std::vector<std::string> warnings() {
    std::lock_guard<std::mutex> lock(mutex_);
    return warnings_;
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    files_.push_back(path);
    return path;
  }
  ~Registry() override {
    for (const std::string& f : files_) std::remove(f.c_str());
  }
  std::shared_ptr<const TuningTable> test_table() {
    return std::make_shared<const TuningTable>(parse_tuning_table(test_table_text, "test-table"));
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> warnings_;
  std::vector<std::string> files_;
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(LaunchLimits, HeuristicFillsWholeWarpsWithinTheLimits) {
  // Q = 3, C = 2: 32 elements make 96 threads, three full warps. At C = 1 a thread computes two elements
  // (layout/elements_per_thread.hpp): 64 elements in 32 slots. Q = 64: one element is two warps.
  LaunchShape tri1_c2 = tri1;
  tri1_c2.components = 2;
  EXPECT_EQ(heuristic_elements_per_block(tri1_c2, test_gpu), 32);
  EXPECT_EQ(heuristic_elements_per_block(tri1, test_gpu), 64);
  const LaunchShape hex3{{Shape::hexahedron, 3}, Operation::values, 64, 3, 3, Precision::fp64};
  EXPECT_EQ(heuristic_elements_per_block(hex3, test_gpu), 1);
  // The limits: 512 threads per block and 64 elements on a roomy device...
  EXPECT_EQ(max_elements_per_block(tri1, test_gpu), 64);
  EXPECT_EQ(max_elements_per_block(tri1_c2, test_gpu), 64);
  EXPECT_EQ(max_elements_per_block(hex3, test_gpu), 512 / 64);
  // ...and the shared memory of a small one, which also bounds the heuristic.
  const DeviceInfo small = device("Small GPU", 9, 0, 2048);
  const int limit = max_elements_per_block(tri1, small);
  EXPECT_GE(limit, 1);
  EXPECT_LT(limit, 32);
  EXPECT_LE(heuristic_elements_per_block(tri1, small), limit);
  EXPECT_EQ(max_elements_per_block(hex3, device("Tiny GPU", 9, 0, 64)), 0);
}

TEST_F(Registry, TableEntryIsUsed) {
  auto table = test_table();
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu, table.get()), 24);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(Registry, PrecisionIsPartOfTheKey) {
  auto table = test_table();
  LaunchShape fp32 = tri1;
  fp32.precision = Precision::fp32;
  EXPECT_EQ(choose_elements_per_block(fp32, test_gpu, table.get()), 40);
  // tet p2 values has an fp64 entry only: fp32 falls back to the heuristic, with a warning.
  LaunchShape tet = {{Shape::tetrahedron, 2}, Operation::values, 10, 1, 3, Precision::fp32};
  EXPECT_EQ(choose_elements_per_block(tet, test_gpu, table.get()), heuristic_elements_per_block(tet, test_gpu));
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "no entry for tetrahedron p2, values, C = 1, Q = 10, fp32")) << warnings()[0];
}

TEST_F(Registry, UnknownConfigurationFallsBackWithOneWarning) {
  auto table = test_table();
  const LaunchShape hex3{{Shape::hexahedron, 3}, Operation::values, 64, 3, 3, Precision::fp64};
  const int heuristic = heuristic_elements_per_block(hex3, test_gpu);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(choose_elements_per_block(hex3, test_gpu, table.get()), heuristic);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "no entry for hexahedron p3, values, C = 3, Q = 64, fp64")) << warnings()[0];
  EXPECT_TRUE(contains(warnings()[0], "heuristic")) << warnings()[0];
  // Another configuration: its own warning.
  const LaunchShape quad1{{Shape::quadrilateral, 1}, Operation::values, 4, 1, 2, Precision::fp64};
  EXPECT_EQ(choose_elements_per_block(quad1, test_gpu, table.get()), heuristic_elements_per_block(quad1, test_gpu));
  EXPECT_EQ(warnings().size(), 2u);
}

TEST_F(Registry, EntryThatDoesNotFitFallsBackWithOneWarning) {
  auto table = test_table();
  LaunchShape two = tri1;
  two.components = 2;
  const DeviceInfo small = device("Test GPU 3000", 9, 0, 2048);
  const int limit = max_elements_per_block(two, small);
  ASSERT_LT(limit, 64);
  EXPECT_EQ(choose_elements_per_block(two, small, table.get()), heuristic_elements_per_block(two, small));
  EXPECT_EQ(choose_elements_per_block(two, small, table.get()), heuristic_elements_per_block(two, small));
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "test-table:6: 64 elements per block")) << warnings()[0];
  EXPECT_TRUE(contains(warnings()[0], "at most " + std::to_string(limit))) << warnings()[0];
  // Where it fits, it is used.
  EXPECT_EQ(choose_elements_per_block(two, test_gpu, table.get()), 64);
}

TEST_F(Registry, NearestPointCountKeepsThreadsPerBlock) {
  auto table = test_table();
  // tet p2 values C = 1 at Q = 10: 12 elements = 6 slots of two, 60 threads. At Q = 20 (another point
  // set): 6 elements.
  const LaunchShape tet{{Shape::tetrahedron, 2}, Operation::values, 10, 1, 3, Precision::fp64};
  EXPECT_EQ(choose_elements_per_block(with(tet, 20), test_gpu, table.get()), 6);
  EXPECT_EQ(choose_elements_per_block(with(tet, 4), test_gpu, table.get()), 30);    // 120 / 4
  EXPECT_EQ(choose_elements_per_block(with(tet, 300), test_gpu, table.get()), 1);   // 120 / 128 rounds to 1
  ASSERT_EQ(warnings().size(), 3u);
  EXPECT_TRUE(contains(warnings()[0], "no entry for tetrahedron p2, values, C = 1, Q = 20, fp64; using its Q = 10 "
                                      "entry (line 8"))
      << warnings()[0];
  // Scaled beyond what fits (Q = 1: 120 elements, more than 64): the heuristic.
  EXPECT_EQ(choose_elements_per_block(with(tet, 1), test_gpu, table.get()),
            heuristic_elements_per_block(with(tet, 1), test_gpu));
}

TEST_F(Registry, NoTableMeansHeuristicWithOneWarningPerDevice) {
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu, nullptr), 64);
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu, nullptr), 64);
  EXPECT_EQ(choose_elements_per_block(tri1, device("Other GPU", 8, 0), nullptr), 64);
  ASSERT_EQ(warnings().size(), 2u);
  EXPECT_TRUE(contains(warnings()[0], "no tuning table for Test GPU 3000 (compute capability 9.0)")) << warnings()[0];
}

TEST_F(Registry, UnknownDeviceGetsNoTable) {
  EXPECT_EQ(tuning_table_for({"No Such GPU", 1, 0}), nullptr);
  EXPECT_EQ(choose_elements_per_block(tri1, device("No Such GPU", 1, 0)), 64);
}

TEST_F(Registry, ForeignTableIsUsedWithAWarning) {
  auto table = test_table();
  const DeviceInfo h200 = device("NVIDIA H200", 9, 0);
  EXPECT_EQ(choose_elements_per_block(tri1, h200, table.get()), 24);
  EXPECT_EQ(choose_elements_per_block(tri1, h200, table.get()), 24);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "measured on Test GPU 3000")) << warnings()[0];
}

TEST_F(Registry, OverrideTakesPrecedence) {
  const std::string path = write("feinterp_registry_env_other.txt", test_table_text);
  setenv(table_environment_variable, path.c_str(), 1);
  TuningTable own = parse_tuning_table(test_table_text, "api");
  for (TuningEntry& e : own.entries)
    if (e.type == tri1.type && e.components == 1 && e.precision == Precision::fp64) e.elements_per_block = 7;
  auto previous = set_tuning_table(std::make_shared<const TuningTable>(own));
  EXPECT_EQ(previous, nullptr);
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu), 7);
  EXPECT_EQ(tuning_table_for({"Any GPU", 7, 0})->source, "api");
  set_tuning_table(nullptr);
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu), 24);  // now the environment's
}

TEST_F(Registry, EnvironmentVariableOverride) {
  const std::string path = write("feinterp_registry_env.txt", test_table_text);
  setenv(table_environment_variable, path.c_str(), 1);
  auto table = tuning_table_for({"Any GPU", 7, 0});
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->source, path);
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu), 24);
  // Read once: a change of the variable is not seen until the state is reset.
  setenv(table_environment_variable, "/nonexistent/table.txt", 1);
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu), 24);
  tuning::detail::reset_tuning_state_for_tests();
  EXPECT_THROW(choose_elements_per_block(tri1, test_gpu), TuningTableError);
}

TEST_F(Registry, BadEnvironmentTableIsAClearErrorAtEveryUse) {
  const std::string path = write("feinterp_registry_bad.txt",
                                 "# feinterp tuning table v1\ndevice: A\ncompute_capability: 9.0\npoints: nodes\n"
                                 "triangle 1 1 values 3 32\n");
  setenv(table_environment_variable, path.c_str(), 1);
  for (int i = 0; i < 2; ++i) {
    try {
      choose_elements_per_block(tri1, test_gpu);
      FAIL() << "a malformed FEINTERP_TUNING_TABLE was accepted";
    } catch (const TuningTableError& e) {
      EXPECT_EQ(e.line(), 5);
      EXPECT_TRUE(contains(e.what(), path + ":5: 6 fields; expected 7")) << e.what();
    }
  }
}

TEST_F(Registry, EnvironmentNoneMeansHeuristic) {
  setenv(table_environment_variable, "none", 1);
  set_tuning_table(nullptr);
  EXPECT_EQ(tuning_table_for({test_gpu.name, test_gpu.major, test_gpu.minor}), nullptr);
  EXPECT_EQ(choose_elements_per_block(tri1, test_gpu), 64);
}

TEST_F(Registry, ConcurrentLookupsAndOverridesAreSafe) {
  auto table = test_table();
  const LaunchShape unknown{{Shape::hexahedron, 1}, Operation::values, 8, 1, 3, Precision::fp64};
  const int unknown_heuristic = heuristic_elements_per_block(unknown, test_gpu);
  const int tri1_heuristic = heuristic_elements_per_block(tri1, test_gpu);
  std::atomic<bool> bad{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        if (t == 0 && i % 10 == 0) set_tuning_table(i % 20 ? table : nullptr);
        const int a = choose_elements_per_block(tri1, test_gpu);
        const int b = choose_elements_per_block(unknown, test_gpu);
        if ((a != 24 && a != tri1_heuristic) || b != unknown_heuristic) bad = true;
      }
    });
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(bad);
  // Each distinct warning at most once: "no table for Test GPU" and "no entry for hexahedron p1".
  const std::vector<std::string> w = warnings();
  EXPECT_LE(w.size(), 2u);
  for (std::size_t i = 0; i < w.size(); ++i)
    for (std::size_t j = i + 1; j < w.size(); ++j) EXPECT_NE(w[i], w[j]);
}

// ---- the embedded tables ------------------------------------------------------------------------------

namespace {
std::string read_source_table(const std::string& file) {
  // FEINTERP_TEST_DATA_DIR is <source>/tests/data, which need not exist: cut it rather than use "..".
  const std::string data = FEINTERP_TEST_DATA_DIR;
  const std::string root = data.substr(0, data.rfind("/tests/data"));
  std::ifstream in(root + "/tuning/tables/" + file, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << root << "/tuning/tables/" << file;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

TEST(EmbeddedTables, ParseMatchTheirFileAndTheCheckedInText) {
  // Device matching below is that of the embedded tables: no override from the caller's environment.
  unsetenv(table_environment_variable);
  set_tuning_table(nullptr);
  tuning::detail::reset_tuning_state_for_tests();
  const auto& tables = embedded_tuning_tables();  // throws on a malformed checked-in table
  const std::vector<std::string> files = embedded_tuning_table_files();
  ASSERT_EQ(tables.size(), files.size());
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const TuningTable& t = *tables[i];
    EXPECT_EQ(files[i], table_file_stem(t.device) + ".txt") << "a table's file is named after its device";
    EXPECT_EQ(t.source, "embedded:" + files[i]);
    // One source of truth: the embedded text is the checked-in file's.
    const TuningTable from_file = parse_tuning_table(read_source_table(files[i]), files[i]);
    EXPECT_EQ(format_tuning_table(from_file), format_tuning_table(t)) << files[i];
    // Device matching: the table is the one its own device gets, and no other device gets it.
    EXPECT_EQ(tuning_table_for({t.device, t.major, t.minor}), tables[i]);
    EXPECT_NE(tuning_table_for({t.device, t.major, t.minor + 1}), tables[i]);
    EXPECT_NE(tuning_table_for({t.device + " X", t.major, t.minor}), tables[i]);
  }
  if (tables.empty()) GTEST_SKIP() << "no tuning table is checked in (tuning/tables/): every device uses the heuristic";
}

namespace {
std::shared_ptr<const TuningTable> embedded_table_of(const std::string& device) {
  for (const auto& t : embedded_tuning_tables())
    if (t->device == device) return t;
  return nullptr;
}

/// What a sweep measured, beyond one dense entry per configuration and the asynchronous gather's at C = 1:
/// which transposes of the tensor-product shapes were timed in both variants, and which configurations
/// were timed on the tensor cores.
struct SweptVariants {
  bool fp32_tensor_transposes;       // the quadrilateral and hexahedron transposes in fp32 too (else fp64 only)
  bool tensor_cores_on_every_shape;  // fp64 values and reference gradients of every type (else p2, p3 simplices)
  bool both_register_allocations;    // fp64 physical gradients of tetrahedra and hexahedra both ptxas-free and
                                     // at 64 registers (else in one of them: the sweeps before the cap became
                                     // a variant timed the one the untuned default then took)
};

/// The table's entry of this launch's configuration for `variant` exists, and its elements_per_block keeps
/// the launch within 512 threads.
void expect_entry_within_launch_bound(const TuningTable& table, LaunchShape launch, KernelVariant variant) {
  launch.variant = variant;
  const TuningEntry* e = table.find({launch.type, launch.op, launch.components, launch.points, launch.precision, variant});
  ASSERT_NE(e, nullptr) << table.device << ": no " << kernel_variant_name(variant) << " entry for "
                        << to_string(launch.type) << " C = " << launch.components << " " << operation_name(launch.op)
                        << " " << precision_name(launch.precision);
  EXPECT_LE(threads_per_block(launch, e->elements_per_block), 512)
      << kernel_variant_name(variant) << " " << to_string(launch.type);
}

/// Every (type, C = 1 and d, operation, precision) has an entry within the launch's 512 threads, and the
/// variants the sweep timed have theirs, so that the table, not the default rule, picks among them.
void expect_covers_every_configuration(const TuningTable& table, SweptVariants swept) {
  EXPECT_EQ(table.major, 9);
  EXPECT_EQ(table.minor, 0);
  EXPECT_EQ(table.point_set, "nodes");
  for (Shape shape : {Shape::line, Shape::triangle, Shape::quadrilateral, Shape::tetrahedron, Shape::hexahedron})
    for (int p = 1; p <= 3; ++p)
      for (int C : {1, dimension(shape)})
        for (Operation op : all_operations)
          for (Precision precision : {Precision::fp64, Precision::fp32}) {
            const ElementType type{shape, p};
            const int Q = nodes_per_element(type);
            const LaunchShape launch{type, op, Q, C, default_space_dimension(type), precision};
            const bool solid_physical = dimension(shape) == 3 && op == Operation::physical_gradients &&
                                        precision == Precision::fp64;
            const TuningKey capped{type, op, C, Q, precision, KernelVariant::dense_64_registers};
            if (!solid_physical || swept.both_register_allocations || !table.find(capped))
              expect_entry_within_launch_bound(table, launch, KernelVariant::dense);
            if (solid_physical && swept.both_register_allocations)
              expect_entry_within_launch_bound(table, launch, KernelVariant::dense_64_registers);
            if (::testing::Test::HasFatalFailure()) return;
            if ((shape == Shape::quadrilateral || shape == Shape::hexahedron) &&
                (!is_transpose(op) || precision == Precision::fp64 || swept.fp32_tensor_transposes)) {
              LaunchShape tensor = launch;
              tensor.points_per_direction = p + 1;
              expect_entry_within_launch_bound(table, tensor, KernelVariant::sum_factorised);
            }
            const bool simplex = shape == Shape::triangle || shape == Shape::tetrahedron;
            if ((swept.tensor_cores_on_every_shape || (simplex && p >= 2)) && precision == Precision::fp64 &&
                (op == Operation::values || op == Operation::reference_gradients))
              expect_entry_within_launch_bound(table, launch, KernelVariant::dense_tensor_cores);
            // The asynchronous gather, at C = 1 in values and reference gradients, is timed on every type
            // but the p2 and p3 hexahedra: there the tables' own dense entries take 2.0-5.5x (H100) and
            // 1.4-4.4x (H200) the sum-factorised time, and copying the gather changes the dense time by
            // 0.91-1.10.
            const bool dense_far_slower = shape == Shape::hexahedron && p >= 2;
            if (C == 1 && (op == Operation::values || op == Operation::reference_gradients) && !dense_far_slower)
              expect_entry_within_launch_bound(table, launch, KernelVariant::dense_async_gather);
            if (::testing::Test::HasFatalFailure()) return;
          }
}
}  // namespace

TEST(EmbeddedTables, H100TableCoversEveryTypeComponentCountOperationTransposePrecisionAndTensorVariant) {
  const auto h100 = embedded_table_of("NVIDIA H100 80GB HBM3");
  if (!h100) GTEST_SKIP() << "no H100 table checked in yet (tuning/tables/nvidia-h100-80gb-hbm3.txt)";
  // Merged from several sweeps: the fp32 transposes of the tensor shapes are timed dense only, the tensor
  // cores on every type; the solid physical gradients in one register allocation each (swept before the
  // 64-register cap became a variant).
  expect_covers_every_configuration(*h100, {false, true, false});
}

TEST(EmbeddedTables, H200TableCoversEveryVariantOfEveryConfiguration) {
  const auto h200 = embedded_table_of("NVIDIA H200");
  if (!h200) GTEST_SKIP() << "no H200 table checked in yet (tuning/tables/nvidia-h200.txt)";
  // Every variant that applies, on every configuration.
  expect_covers_every_configuration(*h200, {true, true, true});
}

// ---- the kernel variant (launch/kernel_variant_choice.hpp) --------------------------------------------

namespace {

using feinterp::backends::cuda::choose_kernel_variant;
using feinterp::backends::cuda::kernel_variant_environment_variable;
using feinterp::backends::cuda::packed_shared_bytes;
using feinterp::backends::cuda::variant_applies;

/// A hexahedron p3 at a 4 x 4 x 4 tensor set (Q = 64, the node lattice or the degree-6 Gauss rule).
LaunchShape tensor_hex3(Operation op = Operation::reference_gradients, int C = 1) {
  LaunchShape s{{Shape::hexahedron, 3}, op, 64, C, 3, Precision::fp64};
  s.points_per_direction = 4;
  return s;
}

LaunchShape as(LaunchShape s, KernelVariant variant) {
  s.variant = variant;
  return s;
}

const std::string variant_table_text =
    "# feinterp tuning table v3\n"
    "device: Test GPU 3000\n"
    "compute_capability: 9.0\n"
    "points: mixed\n"
    "hexahedron 3 1 reference_gradients fp64 dense 64 2 3000\n"
    "hexahedron 3 1 reference_gradients fp64 sum_factorised 64 6 900\n"
    "hexahedron 3 1 values fp64 dense 64 2 500\n"
    "hexahedron 3 1 values fp64 sum_factorised 64 6 700\n"
    "hexahedron 3 3 values fp64 dense 64 2 1500\n";

/// Sets FEINTERP_KERNEL_VARIANT for one scope.
struct VariantEnvironment {
  explicit VariantEnvironment(const char* value) { setenv(kernel_variant_environment_variable, value, 1); }
  ~VariantEnvironment() { unsetenv(kernel_variant_environment_variable); }
};

}  // namespace

TEST(LaunchLimits, SumFactorisedShapeHasItsOwnThreadsAndSharedMemory) {
  // The forward kernel: one thread per line of its largest stage, max_s P1^(d-1-s) Q1^s.
  EXPECT_EQ(threads_per_element(as(tensor_hex3(), KernelVariant::sum_factorised)), 16);  // 4 x 4 at every stage
  LaunchShape six = as(tensor_hex3(), KernelVariant::sum_factorised);
  six.points = 216;
  six.points_per_direction = 6;
  EXPECT_EQ(threads_per_element(six), 36);  // the last stage: 6 x 6 lines
  LaunchShape two = as(tensor_hex3(), KernelVariant::sum_factorised);
  two.points = 8;
  two.points_per_direction = 2;
  EXPECT_EQ(threads_per_element(two), 16);  // the first stage: 4 x 4 lines of the node lattice
  LaunchShape quad1{{Shape::quadrilateral, 1}, Operation::values, 4, 1, 2, Precision::fp64};
  quad1.points_per_direction = 2;
  EXPECT_EQ(threads_per_element(as(quad1, KernelVariant::sum_factorised)), 2);
  // Every field contracted has its lines: C components, and S coordinates for physical gradients.
  EXPECT_EQ(threads_per_element(as(tensor_hex3(Operation::reference_gradients, 3), KernelVariant::sum_factorised)), 48);
  EXPECT_EQ(threads_per_element(as(tensor_hex3(Operation::physical_gradients, 1), KernelVariant::sum_factorised)), 64);
  EXPECT_EQ(threads_per_element(as(tensor_hex3(Operation::physical_gradients, 3), KernelVariant::sum_factorised)), 96);
  EXPECT_EQ(threads_per_element(as(tensor_hex3(Operation::values, 9), KernelVariant::sum_factorised)), 128);  // capped
  LaunchShape quad3_physical{{Shape::quadrilateral, 3}, Operation::physical_gradients, 16, 2, 3, Precision::fp64};
  quad3_physical.points_per_direction = 4;
  EXPECT_EQ(threads_per_element(as(quad3_physical, KernelVariant::sum_factorised)), 4 * (2 + 3));
  // Shared memory: the sum-factorised layout's, growing with the elements per block, and less than the
  // dense kernel's for the hexahedron p3 (no 64 x 64 x 3 table).
  const LaunchShape sumfac = as(tensor_hex3(), KernelVariant::sum_factorised);
  EXPECT_GT(packed_shared_bytes(sumfac, 2), packed_shared_bytes(sumfac, 1));
  EXPECT_LT(packed_shared_bytes(sumfac, 1), packed_shared_bytes(tensor_hex3(), 1));
  EXPECT_EQ(max_elements_per_block(sumfac, test_gpu), 512 / 16);
  // The transposes' layout: the point data besides the buffers, the coordinates' when geometric.
  LaunchShape transpose = as(tensor_hex3(Operation::reference_gradients_transpose), KernelVariant::sum_factorised);
  LaunchShape weighted = transpose;
  weighted.weighted = true;
  EXPECT_GT(packed_shared_bytes(transpose, 1), 0u);
  EXPECT_GT(packed_shared_bytes(weighted, 1), packed_shared_bytes(transpose, 1));
  EXPECT_LT(packed_shared_bytes(transpose, 1), packed_shared_bytes(tensor_hex3(Operation::reference_gradients_transpose), 1));
  EXPECT_EQ(threads_per_element(transpose), 64);
}

TEST_F(Registry, SumFactorisedAppliesToTensorQuadsAndHexesOnly) {
  std::string why;
  EXPECT_TRUE(variant_applies(tensor_hex3(), test_gpu, &why));  // dense: always
  EXPECT_TRUE(variant_applies(as(tensor_hex3(), KernelVariant::sum_factorised), test_gpu, &why)) << why;
  LaunchShape random_points = as(tensor_hex3(), KernelVariant::sum_factorised);
  random_points.points_per_direction = 0;
  EXPECT_FALSE(variant_applies(random_points, test_gpu, &why));
  EXPECT_TRUE(contains(why, "not a tensor product")) << why;
  LaunchShape seven = as(tensor_hex3(), KernelVariant::sum_factorised);
  seven.points = 343;
  seven.points_per_direction = 7;
  EXPECT_FALSE(variant_applies(seven, test_gpu, &why));
  EXPECT_TRUE(contains(why, "compiled for 1 to 6 at order 3")) << why;
  seven.points_per_direction = 6;
  seven.points = 216;
  EXPECT_TRUE(variant_applies(seven, test_gpu, &why)) << why;
  LaunchShape triangle = as(tensor_hex3(), KernelVariant::sum_factorised);
  triangle.type = {Shape::triangle, 2};
  EXPECT_FALSE(variant_applies(triangle, test_gpu, &why));
  EXPECT_TRUE(contains(why, "quadrilateral or hexahedron")) << why;
  EXPECT_TRUE(variant_applies(as(tensor_hex3(Operation::values_transpose), KernelVariant::sum_factorised), test_gpu, &why));
  // The fused operators: diffusion at Q1 = p + 1 and p + 2 (4 and 5 at p = 3), mass with precomputed
  // geometry only.
  LaunchShape diffusion = as(tensor_hex3(Operation::physical_gradients_transpose), KernelVariant::sum_factorised);
  diffusion.weighted = diffusion.fused = true;
  EXPECT_TRUE(variant_applies(diffusion, test_gpu, &why)) << why;
  diffusion.points_per_direction = 6;
  diffusion.points = 216;
  EXPECT_FALSE(variant_applies(diffusion, test_gpu, &why));
  EXPECT_TRUE(contains(why, "compiled for 4 and 5")) << why;
  LaunchShape mass = as(tensor_hex3(Operation::values_transpose), KernelVariant::sum_factorised);
  mass.weighted = mass.fused = true;
  EXPECT_FALSE(variant_applies(mass, test_gpu, &why));
  EXPECT_TRUE(contains(why, "reads precomputed geometry")) << why;
  mass.precomputed_geometry = true;
  EXPECT_TRUE(variant_applies(mass, test_gpu, &why)) << why;
  EXPECT_FALSE(variant_applies(as(tensor_hex3(), KernelVariant::sum_factorised), device("Tiny GPU", 9, 0, 1024), &why));
  EXPECT_TRUE(contains(why, "bytes of shared memory")) << why;
}

TEST_F(Registry, VariantDefaultsToSumFactorisedWhereItApplies) {
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(), test_gpu, nullptr, std::nullopt), KernelVariant::sum_factorised);
  LaunchShape random_points = tensor_hex3();
  random_points.points_per_direction = 0;
  EXPECT_EQ(choose_kernel_variant(random_points, test_gpu, nullptr, std::nullopt), KernelVariant::dense);
  EXPECT_EQ(choose_kernel_variant(tri1, test_gpu, nullptr, std::nullopt), KernelVariant::dense);
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(Operation::values_transpose), test_gpu, nullptr, std::nullopt),
            KernelVariant::sum_factorised);
  // Where it does not fit, the dense kernel (which may not fit either: the launch then says so).
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(), device("Tiny GPU", 9, 0, 1024), nullptr, std::nullopt),
            KernelVariant::dense);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(Registry, RequestedVariantIsUsedOrRefusedWithTheReason) {
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(), test_gpu, nullptr, KernelVariant::dense), KernelVariant::dense);
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(), test_gpu, nullptr, KernelVariant::sum_factorised),
            KernelVariant::sum_factorised);
  LaunchShape random_points = tensor_hex3();
  random_points.points_per_direction = 0;
  try {
    choose_kernel_variant(random_points, test_gpu, nullptr, KernelVariant::sum_factorised);
    FAIL() << "sum_factorised was accepted for a point set that is no tensor product";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "kernel variant sum_factorised requested for hexahedron p3")) << e.what();
    EXPECT_TRUE(contains(e.what(), "not a tensor product")) << e.what();
  }
  // A request beats the table and the environment.
  auto table = std::make_shared<const TuningTable>(parse_tuning_table(variant_table_text, "variants"));
  const VariantEnvironment environment("dense");
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(Operation::values), test_gpu, table.get(), KernelVariant::sum_factorised),
            KernelVariant::sum_factorised);
  // The fused operators, of which this table has no entries: a request where it applies, else the
  // environment's variant where it applies (here dense), else sum-factorised where it applies (mass: with
  // precomputed geometry; diffusion on the fly: from p = 2), else dense.
  LaunchShape diffusion = tensor_hex3(Operation::physical_gradients_transpose);
  diffusion.weighted = diffusion.fused = true;
  EXPECT_EQ(choose_kernel_variant(diffusion, test_gpu, table.get(), std::nullopt), KernelVariant::dense);
  EXPECT_EQ(choose_kernel_variant(diffusion, test_gpu, nullptr, KernelVariant::sum_factorised),
            KernelVariant::sum_factorised);
  {
    const VariantEnvironment unset("");
    EXPECT_EQ(choose_kernel_variant(diffusion, test_gpu, table.get(), std::nullopt), KernelVariant::sum_factorised);
  }
  LaunchShape mass = tensor_hex3(Operation::values_transpose);
  mass.weighted = mass.fused = true;
  EXPECT_EQ(choose_kernel_variant(mass, test_gpu, nullptr, std::nullopt), KernelVariant::dense);
  EXPECT_THROW(choose_kernel_variant(mass, test_gpu, nullptr, KernelVariant::sum_factorised), std::invalid_argument);
  {
    const VariantEnvironment unset("");
    mass.precomputed_geometry = true;
    EXPECT_EQ(choose_kernel_variant(mass, test_gpu, nullptr, std::nullopt), KernelVariant::sum_factorised);
    LaunchShape hex1 = diffusion;  // p = 1 on the fly: dense; with precomputed geometry: sum-factorised
    hex1.type = {Shape::hexahedron, 1};
    hex1.points_per_direction = 2;
    hex1.points = 8;
    EXPECT_EQ(choose_kernel_variant(hex1, test_gpu, nullptr, std::nullopt), KernelVariant::dense);
    hex1.precomputed_geometry = true;
    EXPECT_EQ(choose_kernel_variant(hex1, test_gpu, nullptr, std::nullopt), KernelVariant::sum_factorised);
  }
}

TEST_F(Registry, EnvironmentForcesAVariantWhereItApplies) {
  {
    const VariantEnvironment environment("dense");
    EXPECT_EQ(choose_kernel_variant(tensor_hex3(), test_gpu, nullptr, std::nullopt), KernelVariant::dense);
  }
  {
    const VariantEnvironment environment("sum_factorised");
    auto table = std::make_shared<const TuningTable>(parse_tuning_table(variant_table_text, "variants"));
    // Beats the table, whose values entry says dense is faster.
    EXPECT_EQ(choose_kernel_variant(tensor_hex3(Operation::values), test_gpu, table.get(), std::nullopt),
              KernelVariant::sum_factorised);
    // Where it does not apply: dense, with one warning per configuration.
    for (int i = 0; i < 2; ++i) EXPECT_EQ(choose_kernel_variant(tri1, test_gpu, nullptr, std::nullopt), KernelVariant::dense);
    ASSERT_EQ(warnings().size(), 1u);
    EXPECT_TRUE(contains(warnings()[0], "FEINTERP_KERNEL_VARIANT=sum_factorised does not apply to triangle p1"))
        << warnings()[0];
  }
  {
    const VariantEnvironment environment("auto");
    EXPECT_EQ(choose_kernel_variant(tensor_hex3(), test_gpu, nullptr, std::nullopt), KernelVariant::sum_factorised);
  }
  {
    const VariantEnvironment environment("fastest");
    try {
      choose_kernel_variant(tensor_hex3(), test_gpu, nullptr, std::nullopt);
      FAIL() << "a bad FEINTERP_KERNEL_VARIANT was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_TRUE(contains(e.what(), "FEINTERP_KERNEL_VARIANT='fastest': expected dense, sum_factorised, dense_tensor_cores, dense_async_gather or dense_64_registers, or auto"))
          << e.what();
    }
  }
}

TEST_F(Registry, TableChoosesTheFastestVariantWhenItMeasuredThemAll) {
  auto table = std::make_shared<const TuningTable>(parse_tuning_table(variant_table_text, "variants"));
  // Reference gradients: sum-factorised 900 us against dense 3000 us.
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(), test_gpu, table.get(), std::nullopt), KernelVariant::sum_factorised);
  // Values: dense 500 us against 700 us.
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(Operation::values), test_gpu, table.get(), std::nullopt),
            KernelVariant::dense);
  // C = 3 values: a dense entry only (a table measured before the variant existed): the default.
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(Operation::values, 3), test_gpu, table.get(), std::nullopt),
            KernelVariant::sum_factorised);
  // And each variant's count is its own entry's.
  EXPECT_EQ(choose_elements_per_block(as(tensor_hex3(), KernelVariant::sum_factorised), test_gpu, table.get()), 6);
  EXPECT_EQ(choose_elements_per_block(tensor_hex3(), test_gpu, table.get()), 2);
  EXPECT_TRUE(warnings().empty());
  // A sum-factorised configuration without an entry: the heuristic, with its warning naming the variant.
  EXPECT_EQ(choose_elements_per_block(as(tensor_hex3(Operation::values, 3), KernelVariant::sum_factorised), test_gpu,
                                      table.get()),
            heuristic_elements_per_block(as(tensor_hex3(Operation::values, 3), KernelVariant::sum_factorised), test_gpu));
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "C = 3, Q = 64, fp64, sum_factorised")) << warnings()[0];
}

// The fused operators' own entries (tuning/table.hpp's Fusion) choose their variant and count, by the
// geometry the plan asked for; the plain transpose's entry, whose kernel they share, is never theirs.
TEST_F(Registry, FusedOperatorsTakeTheirOwnEntries) {
  const std::string text =
      "# feinterp tuning table v3\n"
      "device: Test GPU 3000\n"
      "compute_capability: 9.0\n"
      "points: nodes\n"
      "hexahedron 3 1 physical_gradients_transpose fp64 sum_factorised 64 7 900\n"
      "hexahedron 3 1 diffusion fp64 dense 64 1 9000\n"
      "hexahedron 3 1 diffusion fp64 sum_factorised 64 2 4000\n"
      "hexahedron 3 1 diffusion_precomputed fp64 sum_factorised 64 3 1500\n"
      "hexahedron 3 1 mass fp64 dense 64 1 1000\n"
      "hexahedron 3 1 mass_precomputed fp64 sum_factorised 64 4 1200\n"
      "hexahedron 1 1 diffusion fp64 dense 8 6 800\n"
      "hexahedron 1 1 diffusion fp64 sum_factorised 8 5 700\n"
      "hexahedron 3 1 values_transpose fp32 sum_factorised 64 2 800\n";
  const auto table = std::make_shared<const TuningTable>(parse_tuning_table(text, "fused"));
  LaunchShape diffusion = tensor_hex3(Operation::physical_gradients_transpose);
  diffusion.weighted = diffusion.fused = true;
  // On the fly: sum-factorised (4000 us) beats dense (9000 us); each variant's count is its entry's.
  EXPECT_EQ(choose_kernel_variant(diffusion, test_gpu, table.get(), std::nullopt), KernelVariant::sum_factorised);
  EXPECT_EQ(choose_elements_per_block(as(diffusion, KernelVariant::sum_factorised), test_gpu, table.get()), 2);
  EXPECT_EQ(choose_elements_per_block(diffusion, test_gpu, table.get()), 1);
  // Precomputed: the sum-factorised kernel reading the factors (1500 us) against dense on the fly.
  diffusion.precomputed_geometry = true;
  EXPECT_EQ(choose_kernel_variant(diffusion, test_gpu, table.get(), std::nullopt), KernelVariant::sum_factorised);
  EXPECT_EQ(choose_elements_per_block(as(diffusion, KernelVariant::sum_factorised), test_gpu, table.get()), 3);
  // The mass operator: dense on the fly (1000 us) measured faster than the precomputed sum-factorised
  // kernel (1200 us): the table overrides the default.
  LaunchShape mass = tensor_hex3(Operation::values_transpose);
  mass.weighted = mass.fused = mass.precomputed_geometry = true;
  EXPECT_EQ(choose_kernel_variant(mass, test_gpu, nullptr, std::nullopt), KernelVariant::sum_factorised);
  EXPECT_EQ(choose_kernel_variant(mass, test_gpu, table.get(), std::nullopt), KernelVariant::dense);
  EXPECT_EQ(choose_elements_per_block(as(mass, KernelVariant::sum_factorised), test_gpu, table.get()), 4);
  // At p = 1 on the fly the default is dense; the table measured sum-factorised faster.
  LaunchShape hex1 = diffusion;
  hex1.precomputed_geometry = false;
  hex1.type = {Shape::hexahedron, 1};
  hex1.points_per_direction = 2;
  hex1.points = 8;
  EXPECT_EQ(choose_kernel_variant(hex1, test_gpu, nullptr, std::nullopt), KernelVariant::dense);
  EXPECT_EQ(choose_kernel_variant(hex1, test_gpu, table.get(), std::nullopt), KernelVariant::sum_factorised);
  // The plain weighted transpose keeps its own entry.
  LaunchShape transpose = as(tensor_hex3(Operation::physical_gradients_transpose), KernelVariant::sum_factorised);
  transpose.weighted = true;
  EXPECT_EQ(choose_elements_per_block(transpose, test_gpu, table.get()), 7);
  EXPECT_TRUE(warnings().empty());
  // A fused configuration without entries of its own: the transpose's, whose kernel it runs (a table
  // swept before the fused operators had entries), with a warning; without those either, the heuristic.
  LaunchShape mass32 = as(mass, KernelVariant::sum_factorised);
  mass32.precision = Precision::fp32;
  EXPECT_EQ(choose_elements_per_block(mass32, test_gpu, table.get()), 2);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "no fused-operator entry for hexahedron p3, values_transpose (fused mass, "
                                      "precomputed geometry)"))
      << warnings()[0];
  LaunchShape fp32 = as(diffusion, KernelVariant::sum_factorised);
  fp32.precision = Precision::fp32;
  EXPECT_EQ(choose_elements_per_block(fp32, test_gpu, table.get()), heuristic_elements_per_block(fp32, test_gpu));
  ASSERT_EQ(warnings().size(), 3u);
  EXPECT_TRUE(contains(warnings()[2], "fused diffusion, precomputed geometry")) << warnings()[2];
}

namespace {

/// A tetrahedron p3 at its 20 nodes, reference gradients, FP64.
LaunchShape tet3(Operation op = Operation::reference_gradients, int C = 1, Precision precision = Precision::fp64) {
  return LaunchShape{{Shape::tetrahedron, 3}, op, 20, C, 3, precision};
}

}  // namespace

TEST(LaunchLimits, TensorCoreShapeIsOneWarpPerElementWithPaddedTiles) {
  const LaunchShape tc = as(tet3(), KernelVariant::dense_tensor_cores);
  EXPECT_EQ(threads_per_element(tc), 32);
  EXPECT_EQ(max_elements_per_block(tc, test_gpu), 512 / 32);
  // The strides that spread a fragment load over all banks (layout/tensor_core_shared_layout.hpp), for
  // every node count and table width: lda = 4 or 12 mod 16, ldb = 8 mod 16, each at least what it holds.
  for (int nodes = 1; nodes <= 64; ++nodes)
    for (int columns = 1; columns <= 3 * 216; ++columns) {
      const feinterp::backends::cuda::TensorCoreLayout layout =
          feinterp::backends::cuda::tensor_core_shared_layout(nodes, 1, columns, 1, 1);
      ASSERT_GE(layout.depth, nodes);
      ASSERT_EQ(layout.depth % 4, 0);
      ASSERT_GE(layout.field_stride, layout.depth);
      ASSERT_TRUE(layout.field_stride % 16 == 4 || layout.field_stride % 16 == 12) << nodes;
      ASSERT_GE(layout.table_stride, columns);
      ASSERT_EQ(layout.table_stride % 16, 8) << columns;
    }
  // Rows: E * C rounded up to whole tiles of 8; the bytes grow with the elements per block.
  EXPECT_EQ(feinterp::backends::cuda::tensor_core_shared_layout(20, 3, 20, 3, 3).field_rows, 16);
  EXPECT_EQ(feinterp::backends::cuda::tensor_core_shared_layout(20, 3, 20, 1, 8).field_rows, 8);
  EXPECT_GT(packed_shared_bytes(tc, 2), packed_shared_bytes(tc, 1));
}

TEST(LaunchLimits, DenseForwardThreadsComputeTwoElementsAtOneComponentExceptPhysicalGradients) {
  // layout/elements_per_thread.hpp: K = 2 for values and reference gradients at C = 1, so a block of
  // elements_per_block elements has ceil(elements_per_block / 2) slots along threadIdx.z; every other
  // kernel (C > 1, physical gradients, transposes, the other variants) one element per slot.
  namespace cuda = feinterp::backends::cuda;
  for (Operation op : {Operation::values, Operation::reference_gradients, Operation::physical_gradients})
    for (int C = 1; C <= 3; ++C) {
      LaunchShape s = tri1;
      s.op = op;
      s.components = C;
      const int K = op != Operation::physical_gradients && C == 1 ? 2 : 1;
      EXPECT_EQ(cuda::elements_per_thread(s), K) << operation_name(op) << " C = " << C;
      for (int count : {1, 2, 7, 8, 63, 64}) {
        const cuda::LaunchConfig config = cuda::packed_launch_config(s, count, test_gpu);
        EXPECT_EQ(config.elements_per_block, count);
        EXPECT_EQ(config.element_slots, (count + K - 1) / K) << operation_name(op) << " C = " << C << ", " << count;
        EXPECT_EQ(threads_per_block(s, count), 3 * config.element_slots);
      }
    }
  LaunchShape transpose = tri1;
  transpose.op = Operation::reference_gradients_transpose;
  EXPECT_EQ(cuda::elements_per_thread(transpose), 1);
  LaunchShape tensor_cores = tri1;
  tensor_cores.variant = KernelVariant::dense_tensor_cores;
  EXPECT_EQ(cuda::elements_per_thread(tensor_cores), 1);
  // 512 threads per block bound the slots, not the elements: Q = 100, C = 1 takes 5 slots of two elements
  // (500 threads), C = 2 five elements.
  LaunchShape wide = with(tri1, 100, Operation::reference_gradients);
  EXPECT_EQ(max_elements_per_block(wide, test_gpu), 10);
  wide.components = 2;
  EXPECT_EQ(max_elements_per_block(wide, test_gpu), 5);
}

TEST(LaunchLimits, PackedTableRowsAreOddVectorCountsThatSpreadEightPointsOverTheBanks) {
  // In float the dense kernel's table is point-major, each row an odd number of 16-byte vectors
  // (layout/shared_layout.hpp): the fewest that hold it, then one more if even. Then the vectors that 8
  // consecutive points read at the same offset fall in 8 distinct groups of 4 banks (one wavefront).
  namespace cuda = feinterp::backends::cuda;
  for (std::size_t real_bytes : {std::size_t(4), std::size_t(8)})
    for (int nodes = 1; nodes <= 64; ++nodes)
      for (int width = 1; width <= 3; ++width) {
        const int per_vector = int(16 / real_bytes), row = nodes * width;
        const int stride = cuda::packed_table_row_stride(nodes, width, real_bytes);
        ASSERT_EQ(stride % per_vector, 0);
        const int vectors = stride / per_vector;
        ASSERT_EQ(vectors % 2, 1) << nodes << " " << width;
        ASSERT_GE(stride, row);
        ASSERT_LT(stride - row, 2 * per_vector) << nodes << " " << width;
        for (int first = 0; first < 8; ++first) {
          unsigned groups = 0;
          for (int q = first; q < first + 8; ++q) groups |= 1u << ((q * vectors) % 8);
          ASSERT_EQ(groups, 0xffu) << nodes << " " << width;
        }
      }
  // In float the field follows the Q rows, 16-byte aligned; in double the table is [n][w][q], unpadded.
  const cuda::SharedLayout rows = cuda::shared_layout(10, 2, 2, Operation::reference_gradients, 10, 1, 8, 4);
  EXPECT_EQ(rows.table_row_stride, 20);  // 20 floats: 5 vectors, odd already
  EXPECT_EQ(rows.field, 10u * 20 * 4);
  // 6 floats: 2 vectors, rounded up to 3.
  EXPECT_EQ(cuda::shared_layout(3, 2, 2, Operation::reference_gradients, 3, 1, 8, 4).table_row_stride, 12);
  const cuda::SharedLayout scalar = cuda::shared_layout(10, 2, 2, Operation::reference_gradients, 10, 1, 8, 8);
  EXPECT_EQ(scalar.table_row_stride, 0);
  EXPECT_EQ(scalar.field, 10u * 2 * 10 * 8);
}

TEST_F(Registry, TensorCoresApplyToFp64ValuesAndReferenceGradientsOnSm80AndNewer) {
  std::string why;
  for (Operation op : {Operation::values, Operation::reference_gradients}) {
    EXPECT_TRUE(variant_applies(as(tet3(op), KernelVariant::dense_tensor_cores), test_gpu, &why)) << why;
    EXPECT_TRUE(variant_applies(as(tensor_hex3(op, 3), KernelVariant::dense_tensor_cores), test_gpu, &why)) << why;
    EXPECT_TRUE(variant_applies(as(tri1, KernelVariant::dense_tensor_cores), device("A100", 8, 0), &why)) << why;
  }
  EXPECT_FALSE(variant_applies(as(tet3(Operation::physical_gradients), KernelVariant::dense_tensor_cores), test_gpu, &why));
  EXPECT_TRUE(contains(why, "not physical_gradients")) << why;
  EXPECT_FALSE(variant_applies(as(tet3(Operation::values_transpose), KernelVariant::dense_tensor_cores), test_gpu, &why));
  EXPECT_TRUE(contains(why, "not values_transpose")) << why;
  EXPECT_FALSE(variant_applies(as(tet3(Operation::values, 1, Precision::fp32), KernelVariant::dense_tensor_cores),
                               test_gpu, &why));
  EXPECT_TRUE(contains(why, "FP32 runs on the CUDA cores")) << why;
  EXPECT_FALSE(variant_applies(as(tet3(), KernelVariant::dense_tensor_cores), device("Tesla V100", 7, 0), &why));
  EXPECT_TRUE(contains(why, "Tesla V100 (compute capability 7.0) has no FP64 tensor cores")) << why;
  EXPECT_FALSE(variant_applies(as(tet3(), KernelVariant::dense_tensor_cores), device("Tiny GPU", 9, 0, 1024), &why));
  EXPECT_TRUE(contains(why, "bytes of shared memory in the tensor-core kernel")) << why;
  // Never the default; a request where it does not apply is an error naming why.
  EXPECT_EQ(choose_kernel_variant(tet3(), test_gpu, nullptr, std::nullopt), KernelVariant::dense);
  EXPECT_THROW(choose_kernel_variant(tet3(Operation::values, 1, Precision::fp32), test_gpu, nullptr,
                                     KernelVariant::dense_tensor_cores),
               std::invalid_argument);
  EXPECT_EQ(choose_kernel_variant(tet3(), test_gpu, nullptr, KernelVariant::dense_tensor_cores),
            KernelVariant::dense_tensor_cores);
  const VariantEnvironment environment("dense_tensor_cores");
  EXPECT_EQ(choose_kernel_variant(tet3(), test_gpu, nullptr, std::nullopt), KernelVariant::dense_tensor_cores);
}

TEST_F(Registry, TableChoosesTensorCoresOnlyWhereItMeasuredTheDefaultsVariantToo) {
  const std::string text = variant_table_text +
                           "tetrahedron 3 1 reference_gradients fp64 dense 20 3 700\n"
                           "tetrahedron 3 1 reference_gradients fp64 dense_tensor_cores 20 8 300\n"
                           "tetrahedron 3 3 reference_gradients fp64 dense 20 6 1000\n"
                           "tetrahedron 3 3 reference_gradients fp64 dense_tensor_cores 20 8 1100\n"
                           "tetrahedron 3 1 values fp64 dense_tensor_cores 20 8 100\n"
                           "hexahedron 3 3 reference_gradients fp64 dense 64 2 9000\n"
                           "hexahedron 3 3 reference_gradients fp64 dense_tensor_cores 64 4 5000\n";
  auto table = std::make_shared<const TuningTable>(parse_tuning_table(text, "tensor cores"));
  EXPECT_EQ(choose_kernel_variant(tet3(), test_gpu, table.get(), std::nullopt), KernelVariant::dense_tensor_cores);
  EXPECT_EQ(choose_elements_per_block(as(tet3(), KernelVariant::dense_tensor_cores), test_gpu, table.get()), 8);
  EXPECT_EQ(choose_kernel_variant(tet3(Operation::reference_gradients, 3), test_gpu, table.get(), std::nullopt),
            KernelVariant::dense);
  // A tensor-core entry without the default's (dense) entry: not a measurement against it, the default.
  EXPECT_EQ(choose_kernel_variant(tet3(Operation::values), test_gpu, table.get(), std::nullopt), KernelVariant::dense);
  // Hexahedra p3: the table measured dense and sum-factorised, not tensor cores: its choice among those two.
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(), test_gpu, table.get(), std::nullopt), KernelVariant::sum_factorised);
  // C = 3: no sum-factorised entry (the default's variant): the default, whatever tensor cores measured.
  EXPECT_EQ(choose_kernel_variant(tensor_hex3(Operation::reference_gradients, 3), test_gpu, table.get(), std::nullopt),
            KernelVariant::sum_factorised);
  // A device without FP64 tensor cores never takes them from a table.
  DeviceInfo v100 = device("Test GPU 3000", 7, 0);
  EXPECT_EQ(choose_kernel_variant(tet3(), v100, table.get(), std::nullopt), KernelVariant::dense);
}

TEST_F(Registry, TableComparesTheVariantsAtTheNearestPointCountItMeasured) {
  const std::string text = variant_table_text +
                           "tetrahedron 3 1 reference_gradients fp64 dense 20 3 700\n"
                           "tetrahedron 3 1 reference_gradients fp64 dense_tensor_cores 20 8 300\n"
                           "tetrahedron 3 1 reference_gradients fp64 dense 34 3 1200\n"
                           "tetrahedron 3 1 reference_gradients fp64 dense_tensor_cores 34 8 1300\n"
                           "tetrahedron 3 3 reference_gradients fp64 dense 20 6 1000\n"
                           "tetrahedron 3 3 reference_gradients fp64 dense_tensor_cores 20 8 1100\n"
                           "tetrahedron 3 1 values fp64 dense_tensor_cores 20 8 100\n";
  auto table = std::make_shared<const TuningTable>(parse_tuning_table(text, "nearest"));
  auto at = [](LaunchShape s, int points) {
    s.points = points;
    return s;
  };
  // Q = 24 (the degree-6 rule): nearest to 20, where the tensor cores won; one warning naming both Q.
  for (int repeat = 0; repeat < 2; ++repeat)
    EXPECT_EQ(choose_kernel_variant(at(tet3(), 24), test_gpu, table.get(), std::nullopt),
              KernelVariant::dense_tensor_cores);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "no Q = 24 entries")) << warnings()[0];
  EXPECT_TRUE(contains(warnings()[0], "its Q = 20 entries (line 11) choose dense_tensor_cores")) << warnings()[0];
  // Q = 30: nearest to 34, where dense won: the default's variant, and no warning from the choice.
  EXPECT_EQ(choose_kernel_variant(at(tet3(), 30), test_gpu, table.get(), std::nullopt), KernelVariant::dense);
  EXPECT_EQ(warnings().size(), 1u);
  // Q = 27, 7 from both: the smaller count's comparison (TuningTable::nearest).
  EXPECT_EQ(choose_kernel_variant(at(tet3(), 27), test_gpu, table.get(), std::nullopt),
            KernelVariant::dense_tensor_cores);
  // C = 3: dense won at Q = 20, so it runs at Q = 24 too.
  EXPECT_EQ(choose_kernel_variant(at(tet3(Operation::reference_gradients, 3), 24), test_gpu, table.get(), std::nullopt),
            KernelVariant::dense);
  // Values: a tensor-core entry without the default's, at any Q: the default.
  EXPECT_EQ(choose_kernel_variant(at(tet3(Operation::values), 24), test_gpu, table.get(), std::nullopt),
            KernelVariant::dense);
  // Hexahedra p3 at 5 x 5 x 5 points: the Q = 64 comparisons. Reference gradients: sum-factorised 900
  // against dense 3000 us. Values: dense 500 against 700 us, which overrides the default (sum-factorised).
  auto hex125 = [](Operation op) {
    LaunchShape s = tensor_hex3(op);
    s.points = 125;
    s.points_per_direction = 5;
    return s;
  };
  EXPECT_EQ(choose_kernel_variant(hex125(Operation::reference_gradients), test_gpu, table.get(), std::nullopt),
            KernelVariant::sum_factorised);
  EXPECT_EQ(choose_kernel_variant(hex125(Operation::values), test_gpu, nullptr, std::nullopt),
            KernelVariant::sum_factorised);
  EXPECT_EQ(choose_kernel_variant(hex125(Operation::values), test_gpu, table.get(), std::nullopt),
            KernelVariant::dense);
  // The elements per block follow the chosen variant's own nearest entry, scaled (launch_config.cpp).
  EXPECT_EQ(choose_elements_per_block(as(at(tet3(), 24), KernelVariant::dense_tensor_cores), test_gpu, table.get()),
            8);
}

// ---- dense_async_gather: the dense kernel, its gather copied asynchronously ---------------------------

TEST_F(Registry, AsyncGatherAppliesToValuesAndReferenceGradientsAtOneComponent) {
  std::string why;
  for (Precision precision : {Precision::fp64, Precision::fp32})
    for (Operation op : {Operation::values, Operation::reference_gradients}) {
      LaunchShape s = as(tet3(op, 1, precision), KernelVariant::dense_async_gather);
      EXPECT_TRUE(variant_applies(s, test_gpu, &why)) << why;
      EXPECT_TRUE(variant_applies(as(with(tri1, 3, op), KernelVariant::dense_async_gather), test_gpu, &why)) << why;
      // Any device: the copies are plain loads before compute capability 8.0.
      EXPECT_TRUE(variant_applies(s, device("Tesla V100", 7, 0), &why)) << why;
      s.components = 2;
      EXPECT_FALSE(variant_applies(s, test_gpu, &why));
      EXPECT_TRUE(contains(why, "compiled for C = 1 (two elements per thread), not C = 2")) << why;
    }
  EXPECT_FALSE(variant_applies(as(tet3(Operation::physical_gradients), KernelVariant::dense_async_gather), test_gpu, &why));
  EXPECT_TRUE(contains(why, "not physical_gradients (whose dense kernel always copies its gather)")) << why;
  EXPECT_FALSE(
      variant_applies(as(tet3(Operation::values_transpose), KernelVariant::dense_async_gather), test_gpu, &why));
  EXPECT_TRUE(contains(why, "not values_transpose")) << why;
  // Requested where it does not apply: refused with the reason.
  try {
    choose_kernel_variant(tet3(Operation::values, 3), test_gpu, nullptr, KernelVariant::dense_async_gather);
    FAIL() << "dense_async_gather was accepted at C = 3";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(contains(e.what(), "kernel variant dense_async_gather requested for tetrahedron p3, values, C = 3"))
        << e.what();
  }
  // The environment forces it where it applies, and elsewhere the dense kernel runs, with one warning.
  const VariantEnvironment environment("dense_async_gather");
  EXPECT_EQ(choose_kernel_variant(tet3(), test_gpu, nullptr, std::nullopt), KernelVariant::dense_async_gather);
  EXPECT_EQ(choose_kernel_variant(tet3(Operation::reference_gradients, 3), test_gpu, nullptr, std::nullopt),
            KernelVariant::dense);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "FEINTERP_KERNEL_VARIANT=dense_async_gather does not apply")) << warnings()[0];
}

TEST(LaunchLimits, AsyncGatherHasTheDenseKernelsLaunchShape) {
  // The same kernel but for its gather: the same threads, two elements per thread, shared memory and
  // limits as dense, at every count.
  namespace cuda = feinterp::backends::cuda;
  for (Precision precision : {Precision::fp64, Precision::fp32})
    for (Operation op : {Operation::values, Operation::reference_gradients})
      for (const LaunchShape& dense : {with(tri1, 3, op), tet3(op, 1, precision), with(tri1, 100, op)}) {
        const LaunchShape async = as(dense, KernelVariant::dense_async_gather);
        EXPECT_EQ(cuda::elements_per_thread(async), 2);
        EXPECT_EQ(threads_per_element(async), threads_per_element(dense));
        EXPECT_EQ(max_elements_per_block(async, test_gpu), max_elements_per_block(dense, test_gpu));
        EXPECT_EQ(heuristic_elements_per_block(async, test_gpu), heuristic_elements_per_block(dense, test_gpu));
        for (int count = 1; count <= max_elements_per_block(dense, test_gpu); ++count) {
          EXPECT_EQ(packed_shared_bytes(async, count), packed_shared_bytes(dense, count));
          const cuda::LaunchConfig config = cuda::packed_launch_config(async, count, test_gpu);
          EXPECT_EQ(config.variant, KernelVariant::dense_async_gather);
          EXPECT_EQ(config.element_slots, cuda::packed_launch_config(dense, count, test_gpu).element_slots);
        }
      }
}

TEST_F(Registry, TableChoosesAsyncGatherWhereItMeasuredItFaster) {
  const std::string text =
      "# feinterp tuning table v3\n"
      "device: Test GPU 3000\n"
      "compute_capability: 9.0\n"
      "points: mixed\n"
      "tetrahedron 3 1 reference_gradients fp64 dense 20 16 400\n"
      "tetrahedron 3 1 reference_gradients fp64 dense_async_gather 20 24 380\n"
      "tetrahedron 3 1 values fp64 dense 20 32 200\n"
      "tetrahedron 3 1 values fp64 dense_async_gather 20 32 210\n"
      "tetrahedron 3 1 reference_gradients fp32 dense_async_gather 20 24 100\n";
  auto table = std::make_shared<const TuningTable>(parse_tuning_table(text, "async"));
  EXPECT_EQ(choose_kernel_variant(tet3(), test_gpu, table.get(), std::nullopt), KernelVariant::dense_async_gather);
  EXPECT_EQ(choose_elements_per_block(as(tet3(), KernelVariant::dense_async_gather), test_gpu, table.get()), 24);
  EXPECT_EQ(choose_kernel_variant(tet3(Operation::values), test_gpu, table.get(), std::nullopt), KernelVariant::dense);
  // In FP32 the table never timed the default's variant: it says nothing, and the default (dense) runs.
  EXPECT_EQ(choose_kernel_variant(tet3(Operation::reference_gradients, 1, Precision::fp32), test_gpu, table.get(),
                                  std::nullopt),
            KernelVariant::dense);
  // A request beats the table.
  EXPECT_EQ(choose_kernel_variant(tet3(), test_gpu, table.get(), KernelVariant::dense), KernelVariant::dense);
  EXPECT_TRUE(warnings().empty());
}
