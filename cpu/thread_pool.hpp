// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's one pool of worker threads, behind parallel_for (threads.hpp). Starting threads at
// every call cost tens of microseconds per thread, more than the work of a small block; the pool's
// workers are started once, the first time a call asks for that many, and then sleep between calls.
//
// run(tasks, task) calls task(0) .. task(tasks - 1) once each, task 0 on the calling thread and task i
// on worker i, and returns when all have finished. Which task does what is decided by the caller alone,
// never by timing, so results do not depend on scheduling. Simple on purpose:
//  * one run at a time: a second thread calling run waits for the first (each run uses the whole pool);
//  * a task that calls run again (nested parallelism) runs its tasks inline on its own thread, in
//    order: workers never wait for the pool they belong to, so nesting cannot deadlock;
//  * an exception thrown by a task is kept, the others finish, and run rethrows the one of the smallest
//    task index;
//  * in a child made by fork() the workers do not exist: run there is inline too.
#pragma once

#include <cstdint>

namespace feinterp::backends::cpu {

class ThreadPool {
 public:
  /// A task: fn(context, index), type-erased so that the pool lives in one .cpp file.
  struct Task {
    void (*fn)(const void* context, int index);
    const void* context;
  };

  /// The process's pool (created at the first call, never destroyed: workers still asleep at exit are
  /// harmless, while a pool destroyed before another static's last parallel_for would not be).
  static ThreadPool& instance();

  /// Runs task(0) .. task(tasks - 1) as described above. Starts workers only when `tasks` exceeds every
  /// earlier call's.
  void run(int tasks, Task task);

  template <class F>
  void run(int tasks, const F& f) {
    run(tasks, Task{[](const void* context, int index) { (*static_cast<const F*>(context))(index); }, &f});
  }

  /// Worker threads started so far by this process's pool (each is reused for the process's lifetime).
  static std::int64_t threads_started();

  /// Whether the calling thread is running a task of the pool (where a run is inline).
  static bool in_task();

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  ThreadPool() = default;
  struct State;
  State* state_ = nullptr;
};

}  // namespace feinterp::backends::cpu
