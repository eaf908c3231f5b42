#include "parallel.h"

#if defined(ONNXWASM_THREADS)
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace onnxwasm {
namespace {

// Workers wait for a new generation, claim tasks with an atomic counter, and report completion.
// Each worker spins briefly before sleeping, since jobs come in quick succession from one caller.
class Pool {
 public:
  explicit Pool(size_t workers) {
    for (size_t i = 0; i < workers; ++i) {
      std::thread t([this] { loop(); });
      t.detach();
      ++workers_;
    }
  }

  size_t threads() const { return workers_ + 1; }

  void run(size_t tasks, TaskFn fn, void* ctx) {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (!busy.owns_lock() || workers_ == 0 || tasks < 2) {  // nested or concurrent use: run inline
      for (size_t t = 0; t < tasks; ++t) fn(ctx, t);
      return;
    }
    {
      std::lock_guard<std::mutex> l(mutex_);
      fn_ = fn;
      ctx_ = ctx;
      tasks_ = tasks;
      next_.store(0);
      active_.store(workers_);
      generation_.fetch_add(1);
    }
    wake_.notify_all();
    work();
    while (active_.load() != 0) std::this_thread::yield();
  }

 private:
  void work() {
    for (size_t t = next_.fetch_add(1); t < tasks_; t = next_.fetch_add(1)) fn_(ctx_, t);
  }

  void loop() {
    unsigned seen = 0;
    for (;;) {
      for (int spin = 0; spin < 20000 && generation_.load() == seen; ++spin) std::this_thread::yield();
      if (generation_.load() == seen) {
        std::unique_lock<std::mutex> l(mutex_);
        wake_.wait(l, [&] { return generation_.load() != seen; });
      }
      seen = generation_.load();
      work();
      active_.fetch_sub(1);
    }
  }

  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<unsigned> generation_{0};
  std::atomic<size_t> next_{0};
  std::atomic<size_t> active_{0};
  TaskFn fn_ = nullptr;
  void* ctx_ = nullptr;
  size_t tasks_ = 0;
  size_t workers_ = 0;
};

// One thread per core beyond the caller's, up to 3 (the wasm build preloads as many workers).
size_t planned_workers() {
  return std::min<size_t>(3, std::max(1u, std::thread::hardware_concurrency()) - 1);
}

std::atomic<bool> enabled{false};

// Made on the first split job, so that small work and module start-up never wait for threads.
Pool& pool() {
  static Pool* p = new Pool(planned_workers());
  return *p;
}

}  // namespace

void parallel_for(size_t tasks, TaskFn fn, void* ctx) {
  if (tasks < 2 || !enabled.load()) {
    for (size_t t = 0; t < tasks; ++t) fn(ctx, t);
    return;
  }
  pool().run(tasks, fn, ctx);
}
size_t parallel_threads() { return enabled.load() ? planned_workers() + 1 : 1; }
size_t parallel_planned_threads() { return planned_workers() + 1; }
void parallel_enable() { enabled.store(true); }

}  // namespace onnxwasm

#else

namespace onnxwasm {

void parallel_for(size_t tasks, TaskFn fn, void* ctx) {
  for (size_t t = 0; t < tasks; ++t) fn(ctx, t);
}
size_t parallel_threads() { return 1; }
size_t parallel_planned_threads() { return 1; }
void parallel_enable() {}

}  // namespace onnxwasm

#endif
