// parallel_for: splits work across a small pool of threads when the build has threads
// (ONNXWASM_THREADS: Emscripten pthreads, or native), else runs it inline. The calling thread
// takes part, so a one-thread build and a busy pool both simply run everything on the caller.
#pragma once
#include <cstddef>

namespace onnxwasm {

// Runs fn(ctx, task) for task in [0, tasks), spread over the pool. Returns when all are done.
// One task (most runs: every small one) is a direct call, inline in the caller.
using TaskFn = void (*)(void* ctx, size_t task);
void parallel_for_tasks(size_t tasks, TaskFn fn, void* ctx);
inline void parallel_for(size_t tasks, TaskFn fn, void* ctx) {
  if (tasks == 1)
    fn(ctx, 0);
  else
    parallel_for_tasks(tasks, fn, ctx);
}

// How many threads parallel_for uses, the caller included: 1 without threads, and 1 until
// parallel_enable() (the host calls it once its workers are ready to take threads).
size_t parallel_threads();
// How many threads parallel_for will use once enabled.
size_t parallel_planned_threads();
void parallel_enable();

}  // namespace onnxwasm
