// SPDX-License-Identifier: BSD-3-Clause
#include "progress.hpp"

#include <cstdio>

namespace feinterp::app {

Stage::Stage(std::string what) : what_(std::move(what)), start_(std::chrono::steady_clock::now()) {
  watcher_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (done_.wait_for(lock, std::chrono::seconds(1), [this] { return finished_; })) return;
    std::fprintf(stderr, "feinterp: %s...", what_.c_str());
    std::fflush(stderr);
    announced_ = true;
  });
}

Stage::~Stage() { finish(); }

double Stage::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return seconds_;
    finished_ = true;
    seconds_ = seconds_since(start_);
  }
  done_.notify_all();
  watcher_.join();
  if (announced_) std::fprintf(stderr, " %.1f s\n", seconds_);
  return seconds_;
}

}  // namespace feinterp::app
