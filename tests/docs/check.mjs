// The checks a doc example's `// =>` and `// throws` lines become (blocks.mjs), for Node and for
// the browser alike: values are printed the way the docs print them, e.g.
// Float32Array [5, 6, 1, 2], { type: 'float32', dims: ['batch', 4, 256] }, 3n, null.
export function show(v) {
  if (v === null) return 'null';
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name} [${Array.from(v, show).join(', ')}]`;
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  const entries = Object.entries(v).map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`}: ${show(x)}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}

const squash = (s) => s.replace(/\s+/g, ' ').trim();
export const failures = [];
let checked = 0;

export function __expect(value, expected, where) {
  ++checked;
  const got = show(value);
  if (squash(got) !== squash(expected)) failures.push(`${where}: the docs say ${expected}, the code gives ${got}`);
}

export async function __throws(fn, expected, where) {
  ++checked;
  try {
    await fn();
  } catch (e) {
    const got = `${e?.name}: ${e?.message}`;
    if (squash(got) !== squash(expected)) failures.push(`${where}: the docs say it throws ${expected}, it throws ${got}`);
    return;
  }
  failures.push(`${where}: the docs say it throws ${expected}, it does not throw`);
}

// The last line of every block: reports the checks (Node: stdout; browser: a global the test reads).
export function __done() {
  const report = { checked, failures };
  if (typeof window === 'object') window.__docExample = report;
  else console.log(`__doc_example__ ${JSON.stringify(report)}`);
}
