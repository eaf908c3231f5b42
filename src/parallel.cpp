#include "parallel.h"

#if defined(ONNXWASM_THREADS)
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace onnxwasm {
namespace {

// Workers wait for a new job, then claim its tasks one at a time; the caller claims tasks too
// and waits only for tasks that a worker has claimed and not finished, never for a worker to
// wake up: on a busy machine a job whose workers are descheduled runs on the caller alone.
// A claim is a compare-and-swap on (job << 32 | next task), so a worker that wakes late cannot
// claim a task of a later job with the function of an earlier one.
class Pool {
 public:
  explicit Pool(size_t workers) {
    for (size_t i = 0; i < workers; ++i) {
      std::thread t([this] { loop(); });
      t.detach();
      ++workers_;
    }
  }

  void run(size_t tasks, TaskFn fn, void* ctx) {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (!busy.owns_lock() || workers_ == 0 || tasks < 2) {  // nested or concurrent use: run inline
      for (size_t t = 0; t < tasks; ++t) fn(ctx, t);
      return;
    }
    const uint64_t job = (claim_.load() >> 32) + 1;
    fn_ = fn;
    ctx_ = ctx;
    done_.store(0);
    job_tasks_.store(job << 32 | tasks);
    {
      std::lock_guard<std::mutex> l(mutex_);
      claim_.store(job << 32);  // publishes fn_, ctx_ and job_tasks_ (seq_cst)
    }
    wake_.notify_all();
    work(job);
    while (done_.load() != tasks) std::this_thread::yield();
  }

 private:
  // Runs tasks of `job` until none is left (or a later job has started).
  // The task count is read with its job number: a worker still in job J while the caller sets
  // up job J+1 sees either J's count (and finds J's tasks all claimed) or J+1's number (and stops).
  void work(uint64_t job) {
    const uint64_t jt = job_tasks_.load();
    if ((jt >> 32) != job) return;
    const uint64_t tasks = jt & 0xffffffffu;
    for (;;) {
      uint64_t c = claim_.load();
      if ((c >> 32) != job || (c & 0xffffffffu) >= tasks) return;
      if (!claim_.compare_exchange_weak(c, c + 1)) continue;
      fn_(ctx_, static_cast<size_t>(c & 0xffffffffu));  // the job cannot end before done_ counts it
      done_.fetch_add(1);
    }
  }

  void loop() {
    uint64_t seen = 0;
    for (;;) {
      for (int spin = 0; spin < 20000 && (claim_.load() >> 32) == seen; ++spin) std::this_thread::yield();
      if ((claim_.load() >> 32) == seen) {
        std::unique_lock<std::mutex> l(mutex_);
        wake_.wait(l, [&] { return (claim_.load() >> 32) != seen; });
      }
      seen = claim_.load() >> 32;
      work(seen);
    }
  }

  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> claim_{0};
  std::atomic<uint64_t> job_tasks_{0};  // job << 32 | task count
  std::atomic<size_t> done_{0};
  TaskFn fn_ = nullptr;
  void* ctx_ = nullptr;
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

void parallel_for_tasks(size_t tasks, TaskFn fn, void* ctx) {
  if (tasks < 2 || !enabled.load()) {   // (no task is no split job: the pool is not made for it)
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

void parallel_for_tasks(size_t tasks, TaskFn fn, void* ctx) {
  for (size_t t = 0; t < tasks; ++t) fn(ctx, t);
}
size_t parallel_threads() { return 1; }
size_t parallel_planned_threads() { return 1; }
void parallel_enable() {}

}  // namespace onnxwasm

#endif
