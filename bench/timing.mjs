// Median timing shared by the benchmark scripts.
export const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };

// Runs fn (async) `warmup` times and for at least `warmupMs`, then until `budgetMs` or `max`
// runs; returns the median in µs.
export async function time(fn, { warmup, warmupMs = 0, budgetMs, max, min = 5 }) {
  const warm = performance.now();
  for (let i = 0; i < warmup || performance.now() - warm < warmupMs; ++i) await fn();
  const samples = [];
  const start = performance.now();
  while (samples.length < min || (samples.length < max && performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    await fn();
    samples.push((performance.now() - t0) * 1000);
  }
  return median(samples);
}
