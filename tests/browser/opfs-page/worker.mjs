// A module worker running the OPFS tests' calls (harness.mjs) on messages { id, name, args }.
import { calls } from './harness.mjs';

self.onmessage = async ({ data: { id, name, args } }) => postMessage({ id, result: await calls[name](...args) });
postMessage({ ready: true });
