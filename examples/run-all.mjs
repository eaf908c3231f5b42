// `npm start`: runs every example in this folder, one after another.
import { readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
for (const f of readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run-all.mjs').sort()) {
  console.log(`\n=== examples/${f}`);
  execFileSync(process.execPath, [join(here, f)], { stdio: 'inherit' });
}
