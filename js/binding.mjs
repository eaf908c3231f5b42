// The JS half of the wasm boundary's one failure rule (bindings/embind.cpp): a call that can fail
// returns its result or the failure { code, message } (the code as in src/status_codes.def), and
// check() throws the latter as the typed Error of its code. The per-run plain exports
// (bindings/run_path.cpp) return 0 instead, and their callers then make the Embind call that does
// the same work, through check().
import { errorFromStatus } from './errors.mjs';

export function check(r) {
  if (typeof r === 'object' && r !== null && typeof r.code === 'string' && typeof r.message === 'string') throw errorFromStatus(r);
  return r;
}
