// SPDX-License-Identifier: BSD-3-Clause
// Stage: times one stage of a command and, only if it runs longer than a second, tells the user on
// stderr: "feinterp: loading big.msh..." after 1 s, then " 3.4 s" when it ends. Short stages (most
// of them, on meshes below ~100k elements) print nothing, so the output stays the table.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace feinterp::app {

class Stage {
 public:
  explicit Stage(std::string what);
  ~Stage();
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;

  /// Ends the stage (idempotent) and returns its duration in seconds.
  double finish();

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false, announced_ = false;
  double seconds_ = 0;
  std::thread watcher_;
};

/// Seconds since `start`.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace feinterp::app
