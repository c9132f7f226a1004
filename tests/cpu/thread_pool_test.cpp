// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's pool (cpu/thread_pool.hpp) through parallel_for: workers started once and
// reused, ranges fixed by the count (not by timing), exceptions from workers reaching the caller (the
// smallest range's), nested calls run inline without deadlock, concurrent callers served one by one.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <feinterp/cpu/thread_pool.hpp>
#include <feinterp/cpu/threads.hpp>

namespace feinterp::backends::cpu {
namespace {

// The ranges of one call and the thread that ran each.
std::vector<std::pair<std::pair<offset_t, offset_t>, std::thread::id>> ranges_of(offset_t elements, int threads) {
  std::mutex mutex;
  std::vector<std::pair<std::pair<offset_t, offset_t>, std::thread::id>> ranges;
  parallel_for(elements, threads, 1, [&](offset_t begin, offset_t end) {
    std::lock_guard lock(mutex);
    ranges.push_back({{begin, end}, std::this_thread::get_id()});
  });
  std::sort(ranges.begin(), ranges.end());
  return ranges;
}

TEST(ThreadPool, WorkersAreStartedOnceAndReused) {
  ranges_of(1000, 4);  // the pool has at least 3 workers now
  const auto started = ThreadPool::threads_started();
  const auto first = ranges_of(1000, 4);
  for (int call = 0; call < 200; ++call) {
    const auto again = ranges_of(1000, 4);
    ASSERT_EQ(again, first) << "call " << call << ": other ranges or other threads";  // range t on worker t
  }
  ranges_of(1000, 2);
  ranges_of(1000, 3);
  EXPECT_EQ(ThreadPool::threads_started(), started) << "a call with no more threads than before started threads";
  std::set<std::thread::id> ids;
  for (const auto& range : first) ids.insert(range.second);
  EXPECT_EQ(ids.size(), 4u) << "4 ranges on 4 distinct threads";
  EXPECT_EQ(first.front().second, std::this_thread::get_id()) << "range 0 runs on the caller";
  ranges_of(1000, 6);
  EXPECT_LE(ThreadPool::threads_started(), std::max<std::int64_t>(started, 5));
}

TEST(ThreadPool, RangesCoverEverythingOnceWithAlignedBounds) {
  for (int threads : {1, 2, 3, 8}) {
    for (offset_t align : {1, 4, 7}) {
      const offset_t elements = 1001;
      std::vector<std::atomic<int>> hits(elements);
      std::mutex mutex;
      std::vector<offset_t> begins;
      parallel_for(elements, threads, align, [&](offset_t begin, offset_t end) {
        for (offset_t e = begin; e < end; ++e) ++hits[std::size_t(e)];
        std::lock_guard lock(mutex);
        begins.push_back(begin);
      });
      for (offset_t e = 0; e < elements; ++e) ASSERT_EQ(hits[std::size_t(e)], 1) << threads << " threads, element " << e;
      for (offset_t begin : begins) EXPECT_EQ(begin % align, 0) << threads << " threads, align " << align;
    }
  }
}

TEST(ThreadPool, TheSmallestRangesExceptionReachesTheCaller) {
  for (int call = 0; call < 50; ++call) {
    try {
      parallel_for(800, 8, 1, [&](offset_t begin, offset_t) {
        if (begin >= 300) throw std::runtime_error("range at " + std::to_string(begin));
      });
      FAIL() << "no exception";
    } catch (const std::runtime_error& error) {
      ASSERT_EQ(std::string(error.what()), "range at 300") << "call " << call;  // ranges start at 0, 100, ...
    }
  }
  // Thrown on the caller's own range (0) too, and the pool still works afterwards.
  EXPECT_THROW(parallel_for(800, 4, 1, [](offset_t begin, offset_t) {
                 if (begin == 0) throw std::logic_error("first");
               }),
               std::logic_error);
  std::atomic<offset_t> sum{0};
  parallel_for(800, 4, 1, [&](offset_t begin, offset_t end) { sum += end - begin; });
  EXPECT_EQ(sum, 800);
}

TEST(ThreadPool, NestedCallsRunInlineWithoutDeadlock) {
  std::atomic<offset_t> sum{0};
  std::atomic<int> inner_in_task{0};
  parallel_for(400, 4, 1, [&](offset_t, offset_t) {
    parallel_for(100, 4, 1, [&](offset_t begin, offset_t end) {
      sum += end - begin;
      if (ThreadPool::in_task()) ++inner_in_task;
    });
  });
  EXPECT_EQ(sum, 400);
  EXPECT_EQ(inner_in_task, 16);
  EXPECT_FALSE(ThreadPool::in_task());
}

TEST(ThreadPool, ConcurrentCallersAreServedOneByOne) {
  std::vector<std::thread> callers;
  std::atomic<offset_t> total{0};
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int call = 0; call < 100; ++call)
        parallel_for(1000, 3, 1, [&](offset_t begin, offset_t end) { total += end - begin; });
    });
  for (auto& caller : callers) caller.join();
  EXPECT_EQ(total, 4 * 100 * 1000);
}

}  // namespace
}  // namespace feinterp::backends::cpu
