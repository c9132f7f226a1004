// Which table a launch uses (override, FEINTERP_TUNING_TABLE, embedded by device), the fallbacks to
// the heuristic and their one-time warnings, thread safety, and the embedded tables themselves.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <feinterp/tuning/registry.hpp>
#include <feinterp/tuning/table.hpp>

using namespace feinterp;
using namespace feinterp::tuning;

namespace {

// As cuda/launch_config.cpp: one thread per point, up to 128.
int threads_per_element(int points) { return points < 128 ? points : 128; }

const LaunchLimits limits{/*heuristic=*/11, /*max_fitting=*/40, &threads_per_element};
const DeviceIdentity test_gpu{"Test GPU 3000", 9, 0};
const TuningKey tri1{{Shape::triangle, 1}, Operation::reference_gradients, 1, 3};

const std::string test_table_text =
    "# feinterp tuning table v1\n"
    "device: Test GPU 3000\n"
    "compute_capability: 9.0\n"
    "points: mixed\n"
    "triangle 1 1 reference_gradients 3 32 43.9\n"
    "triangle 1 2 reference_gradients 3 48 50\n"      // 48 > max_fitting 40
    "tetrahedron 2 1 values 10 12 100\n";

/// Collects the warnings for one test; resets the library's state before and after.
class Registry : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv(table_environment_variable);
    set_tuning_table(nullptr);
    detail::reset_tuning_state_for_tests();
    set_tuning_warning_handler([this](const std::string& message) {
      std::lock_guard<std::mutex> lock(mutex_);
      warnings_.push_back(message);
    });
  }
  void TearDown() override {
    set_tuning_warning_handler({});
    set_tuning_table(nullptr);
    unsetenv(table_environment_variable);
    detail::reset_tuning_state_for_tests();
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

TEST_F(Registry, TableEntryIsUsed) {
  auto table = test_table();
  EXPECT_EQ(elements_per_block_from(table.get(), tri1, test_gpu, limits), 32);
  EXPECT_TRUE(warnings().empty());
}

TEST_F(Registry, UnknownConfigurationFallsBackWithOneWarning) {
  auto table = test_table();
  const TuningKey hex3{{Shape::hexahedron, 3}, Operation::values, 3, 64};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(elements_per_block_from(table.get(), hex3, test_gpu, limits), 11);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "no entry for hexahedron p3, values, C = 3, Q = 64")) << warnings()[0];
  EXPECT_TRUE(contains(warnings()[0], "heuristic")) << warnings()[0];
  // Another configuration: its own warning.
  const TuningKey quad1{{Shape::quadrilateral, 1}, Operation::values, 1, 4};
  EXPECT_EQ(elements_per_block_from(table.get(), quad1, test_gpu, limits), 11);
  EXPECT_EQ(warnings().size(), 2u);
}

TEST_F(Registry, EntryThatDoesNotFitFallsBackWithOneWarning) {
  auto table = test_table();
  const TuningKey key{{Shape::triangle, 1}, Operation::reference_gradients, 2, 3};
  EXPECT_EQ(elements_per_block_from(table.get(), key, test_gpu, limits), 11);
  EXPECT_EQ(elements_per_block_from(table.get(), key, test_gpu, limits), 11);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "test-table:6: 48 elements per block")) << warnings()[0];
  EXPECT_TRUE(contains(warnings()[0], "at most 40")) << warnings()[0];
  // Where it fits, it is used.
  LaunchLimits roomy = limits;
  roomy.max_fitting = 64;
  EXPECT_EQ(elements_per_block_from(table.get(), key, test_gpu, roomy), 48);
}

TEST_F(Registry, NearestPointCountKeepsThreadsPerBlock) {
  auto table = test_table();
  // tet p2 values C=1 at Q = 10: 12 elements = 120 threads. At Q = 20 (another point set): 6 elements.
  const TuningKey q20{{Shape::tetrahedron, 2}, Operation::values, 1, 20};
  EXPECT_EQ(elements_per_block_from(table.get(), q20, test_gpu, limits), 6);
  const TuningKey q4{{Shape::tetrahedron, 2}, Operation::values, 1, 4};
  EXPECT_EQ(elements_per_block_from(table.get(), q4, test_gpu, limits), 30);  // 120 / 4
  const TuningKey q300{{Shape::tetrahedron, 2}, Operation::values, 1, 300};
  EXPECT_EQ(elements_per_block_from(table.get(), q300, test_gpu, limits), 1);  // 120 / 128 rounds to 1
  ASSERT_EQ(warnings().size(), 3u);
  EXPECT_TRUE(contains(warnings()[0], "no entry for tetrahedron p2, values, C = 1, Q = 20; using its Q = 10 entry (line 7"))
      << warnings()[0];
  // Scaled beyond what fits: the heuristic.
  const TuningKey q2{{Shape::tetrahedron, 2}, Operation::values, 1, 2};
  EXPECT_EQ(elements_per_block_from(table.get(), q2, test_gpu, limits), 11);  // 60 > 40
}

TEST_F(Registry, NoTableMeansHeuristicWithOneWarningPerDevice) {
  EXPECT_EQ(elements_per_block_from(nullptr, tri1, test_gpu, limits), 11);
  EXPECT_EQ(elements_per_block_from(nullptr, tri1, test_gpu, limits), 11);
  EXPECT_EQ(elements_per_block_from(nullptr, tri1, {"Other GPU", 8, 0}, limits), 11);
  ASSERT_EQ(warnings().size(), 2u);
  EXPECT_TRUE(contains(warnings()[0], "no tuning table for Test GPU 3000 (compute capability 9.0)")) << warnings()[0];
}

TEST_F(Registry, UnknownDeviceGetsNoTable) {
  EXPECT_EQ(tuning_table_for({"No Such GPU", 1, 0}), nullptr);
  EXPECT_EQ(select_elements_per_block(tri1, {"No Such GPU", 1, 0}, limits), 11);
}

TEST_F(Registry, ForeignTableIsUsedWithAWarning) {
  auto table = test_table();
  EXPECT_EQ(elements_per_block_from(table.get(), tri1, {"NVIDIA H200", 9, 0}, limits), 32);
  EXPECT_EQ(elements_per_block_from(table.get(), tri1, {"NVIDIA H200", 9, 0}, limits), 32);
  ASSERT_EQ(warnings().size(), 1u);
  EXPECT_TRUE(contains(warnings()[0], "measured on Test GPU 3000")) << warnings()[0];
}

TEST_F(Registry, OverrideTakesPrecedence) {
  const std::string path = write("feinterp_registry_env_other.txt", test_table_text);
  setenv(table_environment_variable, path.c_str(), 1);
  TuningTable own = parse_tuning_table(test_table_text, "api");
  own.entries[0].elements_per_block = 7;  // tri p1 C=1
  auto previous = set_tuning_table(std::make_shared<const TuningTable>(own));
  EXPECT_EQ(previous, nullptr);
  EXPECT_EQ(select_elements_per_block(tri1, test_gpu, limits), 7);
  EXPECT_EQ(tuning_table_for({"Any GPU", 7, 0})->source, "api");
  set_tuning_table(nullptr);
  EXPECT_EQ(select_elements_per_block(tri1, test_gpu, limits), 32);  // now the environment's
}

TEST_F(Registry, EnvironmentVariableOverride) {
  const std::string path = write("feinterp_registry_env.txt", test_table_text);
  setenv(table_environment_variable, path.c_str(), 1);
  auto table = tuning_table_for({"Any GPU", 7, 0});
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->source, path);
  EXPECT_EQ(select_elements_per_block(tri1, test_gpu, limits), 32);
  // Read once: a change of the variable is not seen until the state is reset.
  setenv(table_environment_variable, "/nonexistent/table.txt", 1);
  EXPECT_EQ(select_elements_per_block(tri1, test_gpu, limits), 32);
  detail::reset_tuning_state_for_tests();
  EXPECT_THROW(select_elements_per_block(tri1, test_gpu, limits), TuningTableError);
}

TEST_F(Registry, BadEnvironmentTableIsAClearErrorAtEveryUse) {
  const std::string path = write("feinterp_registry_bad.txt",
                                 "# feinterp tuning table v1\ndevice: A\ncompute_capability: 9.0\npoints: nodes\n"
                                 "triangle 1 1 values 3 32\n");
  setenv(table_environment_variable, path.c_str(), 1);
  for (int i = 0; i < 2; ++i) {
    try {
      select_elements_per_block(tri1, test_gpu, limits);
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
  EXPECT_EQ(tuning_table_for(test_gpu), nullptr);
  EXPECT_EQ(select_elements_per_block(tri1, test_gpu, limits), 11);
}

TEST_F(Registry, ConcurrentLookupsAndOverridesAreSafe) {
  auto table = test_table();
  const TuningKey unknown{{Shape::hexahedron, 1}, Operation::values, 1, 8};
  std::atomic<bool> bad{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        if (t == 0 && i % 10 == 0) set_tuning_table(i % 20 ? table : nullptr);
        const int a = select_elements_per_block(tri1, test_gpu, limits);
        const int b = select_elements_per_block(unknown, test_gpu, limits);
        if ((a != 32 && a != 11) || b != 11) bad = true;
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
  detail::reset_tuning_state_for_tests();
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

TEST(EmbeddedTables, H100TableCoversEveryTypeComponentCountAndOperation) {
  std::shared_ptr<const TuningTable> h100;
  for (const auto& t : embedded_tuning_tables())
    if (t->device == "NVIDIA H100 80GB HBM3") h100 = t;
  if (!h100) GTEST_SKIP() << "no H100 table checked in yet (tuning/tables/nvidia-h100-80gb-hbm3.txt)";
  EXPECT_EQ(h100->major, 9);
  EXPECT_EQ(h100->minor, 0);
  EXPECT_EQ(h100->point_set, "nodes");
  for (Shape shape : {Shape::triangle, Shape::quadrilateral, Shape::tetrahedron, Shape::hexahedron})
    for (int p = 1; p <= 3; ++p)
      for (int C : {1, dimension(shape)})
        for (Operation op : {Operation::values, Operation::reference_gradients, Operation::physical_gradients}) {
          const ElementType type{shape, p};
          const int Q = nodes_per_element(type);
          const TuningEntry* e = h100->find({type, op, C, Q});
          ASSERT_NE(e, nullptr) << "no entry for " << to_string(type) << " C = " << C << " " << operation_name(op);
          // Within what the launch allows: 512 threads per block.
          EXPECT_LE(e->elements_per_block * threads_per_element(Q), 512) << to_string(type);
        }
}
