// This process's peak resident set, in MB (2^20 bytes), for the benchmarks' child processes.
// process.resourceUsage().maxRSS is not that in a child: Linux keeps the largest of the parent's
// RSS at fork and the child's own across exec (measured: a bench child that peaks at 64 MB read
// 604 MB when its parent held 600 MB). /proc/self/status's VmHWM is the high-water mark of this
// process's own memory, which exec starts afresh; maxRSS where there is no /proc.
import { readFileSync } from 'node:fs';

export function peakRssMB() {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch { /* no /proc: below */ }
  return process.resourceUsage().maxRSS / 1024;
}
