// SPDX-License-Identifier: BSD-3-Clause
// The kernel-variant registry (cuda/kernel_variants.hpp): a variant registered through it alone is known
// by name to the vocabulary the benchmarks' --variants and FEINTERP_KERNEL_VARIANT read, to the tables'
// parser, to the list of variants the sweep times, to the launch decisions (its applicability, its launch
// shape and shared memory) and to the plan's kernel lookup, and refused with its own reason where it does
// not apply. Host code: a DeviceInfo made up here stands for the GPU, so this runs without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/cuda/kernel_variants.hpp>
#include <feinterp/cuda/launch/kernel_variant_choice.hpp>
#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/tuning/kernel_variant.hpp>
#include <feinterp/tuning/table.hpp>
#include <feinterp/tests/support/made_up_device.hpp>

using namespace feinterp;
using namespace feinterp::backends::cuda;

namespace {

DeviceInfo test_device() { return test::made_up_device("Test GPU 3000", 9, 0); }

// The dummy: p1 triangles' forward operations only, 7 threads per element, 3 elements per thread, and
// 1000 bytes of shared memory per element (numbers no built-in variant has, so that a test that read
// another variant's traits fails).
constexpr int dummy_threads = 7, dummy_elements_per_thread = 3;
constexpr std::size_t dummy_bytes_per_element = 1000;
const char* const dummy_refusal = "the dummy variant computes p1 triangles only";

bool dummy_applies(const LaunchShape& s, const DeviceInfo&, std::string* why_not) {
  if (s.type == ElementType{Shape::triangle, 1} && !is_transpose(s.op)) return true;
  if (why_not) *why_not = dummy_refusal;
  return false;
}
int dummy_threads_per_element(const LaunchShape&) { return dummy_threads; }
int dummy_elements_per_thread_of(const LaunchShape&) { return dummy_elements_per_thread; }
std::size_t dummy_shared_bytes(const LaunchShape&, int elements_per_block) {
  return dummy_bytes_per_element * std::size_t(elements_per_block);
}

// Its kernels: no GPU code, a set whose `packed` entry is this marker, so that the test sees which lookup ran.
int marker;
int lookups = 0;
template <class Real>
KernelSet<Real> dummy_kernels(const LaunchShape& s) {
  ++lookups;
  if (s.components > 3) throw std::invalid_argument("the dummy variant is compiled for C = 1 to 3");
  KernelSet<Real> set{};
  set.packed = &marker;
  return set;
}

KernelVariant dummy() {
  static const KernelVariant v = register_kernel_variant(
      "test_dummy_variant",
      VariantTraits{dummy_applies, dummy_threads_per_element, dummy_elements_per_thread_of, dummy_shared_bytes},
      VariantKernels{&dummy_kernels<double>, &dummy_kernels<float>});
  return v;
}

LaunchShape shape(ElementType type, Operation op, int C = 1, Precision precision = Precision::fp64) {
  LaunchShape s{type, op, nodes_per_element(type), C, dimension(type.shape) == 3 ? 3 : 2, precision};
  return s;
}

}  // namespace

TEST(VariantRegistry, ARegisteredVariantIsKnownByNameEverywhereTheVocabularyIsRead) {
  const KernelVariant v = dummy();
  const std::vector<KernelVariant> all = tuning::all_kernel_variants();
  EXPECT_EQ(all.size(), 6u);  // the built-in five, then it
  EXPECT_EQ(all.back(), v);
  EXPECT_STREQ(tuning::kernel_variant_name(v), "test_dummy_variant");
  // The benchmarks' --variants choices and FEINTERP_KERNEL_VARIANT are these names.
  const std::vector<std::string> names = tuning::kernel_variant_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "test_dummy_variant"), names.end());
  EXPECT_EQ(tuning::parse_kernel_variant("test_dummy_variant"), v);
  EXPECT_NE(tuning::expected_kernel_variants().find("test_dummy_variant"), std::string::npos);
  // Registering the name again gives the same variant; a malformed name or an alias is refused.
  EXPECT_EQ(tuning::register_kernel_variant_name("test_dummy_variant"), v);
  EXPECT_THROW(tuning::register_kernel_variant_name("Bad Name"), std::invalid_argument);
  EXPECT_THROW(tuning::register_kernel_variant_name("sumfac"), std::invalid_argument);
}

TEST(VariantRegistry, TablesAcceptItsEntries) {
  const KernelVariant v = dummy();
  std::mt19937 rng(std::random_device{}());
  const int count = 1 + int(rng() % 64);
  const tuning::TuningTable table = tuning::parse_tuning_table(
      "# feinterp tuning table v3\ndevice: Test GPU 3000\ncompute_capability: 9.0\npoints: nodes\n"
      "triangle 1 1 values fp64 test_dummy_variant 3 " + std::to_string(count) + " 12.5\n",
      "dummy.txt");
  ASSERT_EQ(table.entries.size(), 1u);
  EXPECT_EQ(table.entries[0].variant, v);
  EXPECT_EQ(table.entries[0].elements_per_block, count);
}

TEST(VariantRegistry, TheSweepTimesItWhereItAppliesAndTheLaunchTakesItsShape) {
  const KernelVariant v = dummy();
  const DeviceInfo device = test_device();
  const auto swept = [&](const LaunchShape& s) {
    const std::vector<KernelVariant> variants = applicable_variants(s, device);  // what feinterp-sweep times
    return std::find(variants.begin(), variants.end(), v) != variants.end();
  };
  EXPECT_TRUE(swept(shape({Shape::triangle, 1}, Operation::values)));
  EXPECT_TRUE(swept(shape({Shape::triangle, 1}, Operation::physical_gradients, 3)));
  EXPECT_FALSE(swept(shape({Shape::triangle, 2}, Operation::values)));
  EXPECT_FALSE(swept(shape({Shape::triangle, 1}, Operation::values_transpose)));
  EXPECT_FALSE(swept(shape({Shape::hexahedron, 3}, Operation::reference_gradients)));

  LaunchShape s = shape({Shape::triangle, 1}, Operation::reference_gradients);
  s.variant = v;
  EXPECT_EQ(threads_per_element(s), dummy_threads);
  EXPECT_EQ(elements_per_thread(s), dummy_elements_per_thread);
  EXPECT_EQ(packed_shared_bytes(s, 5), 5 * dummy_bytes_per_element);
  EXPECT_EQ(max_elements_per_block(s, device), 64);  // 64 elements: 22 slots of 7 threads, 64 kB
  const LaunchConfig config = packed_launch_config(s, 9, device);
  EXPECT_EQ(config.variant, v);
  EXPECT_EQ(config.threads_per_element, dummy_threads);
  EXPECT_EQ(config.element_slots, 3);
  EXPECT_EQ(config.shared_bytes, 9 * dummy_bytes_per_element);
}

TEST(VariantRegistry, ItIsChosenWhereItAppliesAndRefusedWithItsReasonElsewhere) {
  const KernelVariant v = dummy();
  const DeviceInfo device = test_device();
  EXPECT_EQ(choose_kernel_variant(shape({Shape::triangle, 1}, Operation::values), device, nullptr, v), v);
  for (const LaunchShape& s : {shape({Shape::quadrilateral, 2}, Operation::values),
                               shape({Shape::triangle, 1}, Operation::reference_gradients_transpose)}) {
    try {
      choose_kernel_variant(s, device, nullptr, v);
      ADD_FAILURE() << "the dummy variant was accepted for " << describe_launch(s);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(dummy_refusal), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("test_dummy_variant"), std::string::npos) << e.what();
    }
  }
  // A table that measured it faster than the default's variant chooses it.
  const tuning::TuningTable table = tuning::parse_tuning_table(
      "# feinterp tuning table v3\ndevice: Test GPU 3000\ncompute_capability: 9.0\npoints: nodes\n"
      "triangle 1 1 values fp64 dense 3 32 20.0\n"
      "triangle 1 1 values fp64 test_dummy_variant 3 8 10.0\n",
      "dummy.txt");
  EXPECT_EQ(choose_kernel_variant(shape({Shape::triangle, 1}, Operation::values), device, &table, std::nullopt), v);
  EXPECT_EQ(choose_kernel_variant(shape({Shape::triangle, 2}, Operation::values), device, &table, std::nullopt),
            KernelVariant::dense);
}

TEST(VariantRegistry, ThePlanLooksUpItsKernelsInItsEntry) {
  const KernelVariant v = dummy();
  for (Precision precision : {Precision::fp64, Precision::fp32}) {
    LaunchShape s = shape({Shape::triangle, 1}, Operation::values, 2, precision);
    s.variant = v;
    const int before = lookups;
    const void* packed = precision == Precision::fp64 ? variant_kernel_set<double>(s).packed : variant_kernel_set<float>(s).packed;
    EXPECT_EQ(packed, &marker);
    EXPECT_EQ(lookups, before + 1);
    s.components = 4;  // what the lookup itself refuses reaches the caller
    EXPECT_THROW(variant_kernel_set<double>(s), std::invalid_argument);
  }
  LaunchShape unregistered = shape({Shape::triangle, 1}, Operation::values);
  unregistered.variant = KernelVariant::at(1000);
  EXPECT_THROW(variant_kernel_set<double>(unregistered), std::invalid_argument);
  EXPECT_THROW(threads_per_element(unregistered), std::invalid_argument);
}
