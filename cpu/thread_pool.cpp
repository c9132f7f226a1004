// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cpu/thread_pool.hpp>

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace feinterp::backends::cpu {

namespace {

thread_local bool running_task = false;
std::atomic<std::int64_t> started{0};
std::atomic<bool> forked_child{false};

void run_one(ThreadPool::Task task, int index, std::exception_ptr& error) {
  running_task = true;
  try {
    task.fn(task.context, index);
  } catch (...) {
    error = std::current_exception();
  }
  running_task = false;
}

// Inline, in index order; the smallest index's exception wins, as in the pool.
void run_inline(int tasks, ThreadPool::Task task) {
  std::exception_ptr first;
  for (int i = 0; i < tasks; ++i) {
    std::exception_ptr error;
    try {
      task.fn(task.context, i);
    } catch (...) {
      error = std::current_exception();
    }
    if (error && !first) first = error;
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace

// One generation per run: a worker whose index is below the run's task count runs its task and counts
// down `pending`; the caller sleeps until it reaches 0. Workers wait on one condition variable.
struct ThreadPool::State {
  std::mutex run_mutex;  // one run at a time
  std::mutex mutex;      // guards everything below
  std::condition_variable wake, done;
  std::vector<std::thread> workers;  // worker i runs task i + 1
  std::uint64_t generation = 0;
  Task task{};
  int tasks = 0, pending = 0;
  std::vector<std::exception_ptr> errors;  // per task index

  void work(int index) {
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return generation != seen; });
      seen = generation;
      if (index >= tasks) continue;
      const Task current = task;
      lock.unlock();
      run_one(current, index, errors[std::size_t(index)]);  // its own slot: no lock needed
      lock.lock();
      if (--pending == 0) done.notify_one();
    }
  }
};

ThreadPool& ThreadPool::instance() {
  static ThreadPool* pool = [] {
    auto* p = new ThreadPool;
    p->state_ = new State;
    pthread_atfork(nullptr, nullptr, [] { forked_child = true; });
    return p;
  }();
  return *pool;
}

std::int64_t ThreadPool::threads_started() { return started.load(); }

bool ThreadPool::in_task() { return running_task; }

void ThreadPool::run(int tasks, Task task) {
  if (tasks <= 0) return;
  if (tasks == 1 || running_task || forked_child) return run_inline(tasks, task);
  State& s = *state_;
  std::lock_guard run_lock(s.run_mutex);
  {
    std::lock_guard lock(s.mutex);
    while (int(s.workers.size()) < tasks - 1) {
      const int index = int(s.workers.size()) + 1;
      s.workers.emplace_back([&s, index] { s.work(index); });
      s.workers.back().detach();  // the pool is never destroyed (instance())
      ++started;
    }
    s.task = task;
    s.tasks = tasks;
    s.pending = tasks - 1;
    s.errors.assign(std::size_t(tasks), nullptr);
    ++s.generation;
  }
  s.wake.notify_all();
  std::exception_ptr own;
  run_one(task, 0, own);
  std::unique_lock lock(s.mutex);
  s.done.wait(lock, [&] { return s.pending == 0; });
  s.errors[0] = own;
  std::exception_ptr first;  // the smallest task index's
  for (const std::exception_ptr& error : s.errors)
    if (error && !first) first = error;
  s.errors.clear();  // the exceptions are not kept alive until the next run
  lock.unlock();
  if (first) std::rethrow_exception(first);
}

}  // namespace feinterp::backends::cpu
