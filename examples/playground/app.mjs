// The playground page (main thread): the form, rendering and the requests to the worker, which
// does every onnx-wasm call (worker.mjs). Exposes window.playground.idle() for tests.
import { valueHint } from './values.mjs';
import { attributeHint } from './attributes.mjs';
import { BENCH_OPS, PRESETS } from './presets.mjs';

const $ = (sel) => document.querySelector(sel);

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

const shapeText = (dims) => (dims ? `[${dims.map((d) => (d === null ? '?' : d)).join(', ')}]` : '[unknown rank]');

// ---- Worker calls -----------------------------------------------------------------------------
const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module', name: 'onnx-wasm' });
let nextId = 1;
const pending = new Map();
let busy = 0;         // requests the page waits for (not the benchmark)

function call(kind, args = {}, { onProgress, transfer = [], track = true } = {}) {
  const id = nextId++;
  if (track) busy++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress, track });
    worker.postMessage({ id, kind, ...args }, transfer);
  });
}

worker.onmessage = ({ data }) => {
  if (data.kind === 'runtime') { showRuntime(data.runtime); return; }
  const p = pending.get(data.id);
  if (!p) return;
  if ('progress' in data) { p.onProgress?.(data.progress); return; }
  pending.delete(data.id);
  if (p.track) busy--;
  if (data.error) p.reject(Object.assign(new Error(data.error.message), data.error));
  else p.resolve(data.result);
};
worker.onerror = (e) => {
  showError('global', `the worker failed: ${e.message ?? 'see the console'}`);
  e.preventDefault?.();
};

// ---- Field errors -------------------------------------------------------------------------------
// Every error is shown in the .field-error slot of its field: data-error-for="input:1", "attr:axis",
// "opset", "symbols", "model", "model-url", "model-cache", "model-run", "bench", "general" or "global".
function showError(field, message) {
  let slot = document.querySelector(`.field-error[data-error-for="${CSS.escape(field)}"]`);
  if (!slot) slot = document.querySelector('.field-error[data-error-for="general"]');
  slot.textContent = message;
  slot.hidden = false;
  slot.closest('.input-block, .field')?.classList.add('invalid');
}

function clearErrors(scope) {
  for (const slot of scope.querySelectorAll('.field-error')) {
    slot.textContent = '';
    if (slot.classList.contains('banner')) slot.hidden = true;
  }
  for (const el of scope.querySelectorAll('.invalid')) el.classList.remove('invalid');
}

// ---- Runtime ------------------------------------------------------------------------------------
let env = null;

function showRuntime(rt) {
  const box = $('#runtime');
  box.dataset.state = 'ready';
  box.dataset.module = rt.module;
  $('#rt-module').textContent = rt.module;
  const threads = rt.threads > 1 ? `${rt.threads} threads${rt.threadsActive ? ' (pool ready)' : ' (pool loading)'}` : 'one thread';
  $('#rt-flags').textContent = `· ${rt.simd ? 'SIMD' : 'no SIMD'} · ${threads} · ${rt.kernels} kernels · opsets ${rt.minOpset}–${rt.maxOpset}`;
  $('#rt-reason').textContent = rt.reason;
  $('#rt-from').textContent = rt.loadedFrom;
}

// ---- Panel 1: Op ---------------------------------------------------------------------------------
// The op list, the versions and each version's inputs and attributes come from the registry
// (opVersions(), env.versions); the examples are in presets.mjs.
const ATTR_DEFAULTS = {
  'Gather.axis': '0', 'Flatten.axis': '1', 'Reshape.allowzero': '0', 'Shape.start': '0', 'Concat.axis': '1',
  'GatherElements.axis': '0', 'GatherND.batch_dims': '0', 'Cast.saturate': '1', 'CastLike.saturate': '1',
  'ConstantOfShape.value': 'float32 0', 'DequantizeLinear.axis': '1', 'DequantizeLinear.block_size': '0 (per axis)',
  'GatherBlockQuantized.gather_axis': '0', 'GatherBlockQuantized.quantize_axis': '1',
  'GatherBlockQuantized.block_size': '128', 'GatherBlockQuantized.bits': '4',
};

// domain: '' for ONNX's own ops (ai.onnx); opset is that domain's version.
const form = { domain: '', op: 'Gather', opset: 13, inputs: [], attrs: {}, symbols: '' };
const lastOpset = { '': 13 };   // per domain: the opset to come back to from another domain
let shownVersion = null;      // the key of the rendered fields (version and number of input slots)
let opTimer = null;
let opSeq = 0;

const domainName = (domain) => domain || 'ai.onnx';
const opKey = (domain, op) => (domain ? `${domain}.${op}` : op);
const versionOf = (domain, op, opset) => env?.versions.find((v) => v.domain === domain && v.op === op && v.since <= opset && opset <= v.until) ?? null;
const versionsOf = (domain, op) => env.versions.filter((v) => v.domain === domain && v.op === op);
const domainRange = (domain) => {
  const vs = env.versions.filter((v) => v.domain === domain);
  return [Math.min(...vs.map((v) => v.since)), Math.max(...vs.map((v) => v.until))];
};

// The input slots of a version: one per input, a variadic (last) input one or more.
function slotSpecs(version) {
  const n = version.inputs.length;
  const last = version.inputs[n - 1];
  const count = last?.variadic ? Math.max(n, form.inputs.length) : n;
  return Array.from({ length: count }, (_, k) => ({ spec: version.inputs[Math.min(k, n - 1)], variadic: k >= n - 1 && !!last?.variadic, nth: k - (n - 1) }));
}

// The op <select>: every op of every domain of the registry, grouped by domain.
function fillOpSelect() {
  const domains = [...new Set(env.versions.map((v) => v.domain))];
  $('#op-type').replaceChildren(...domains.map((d) => h('optgroup', { label: domainName(d) },
    [...new Set(env.versions.filter((v) => v.domain === d).map((v) => v.op))].map((op) => h('option', { value: opKey(d, op), text: op, dataset: { domain: d, op } })))));
}

// The opset field follows the domain: its bounds, and its label names a domain other than ai.onnx.
function showDomain() {
  const [lo, hi] = domainRange(form.domain);
  const field = $('#op-opset');
  field.min = String(lo);
  field.max = String(hi);
  $('#op-opset-label').textContent = form.domain ? `${form.domain} opset` : 'opset';
}

function setOpset(opset) {
  form.opset = opset;
  if (Number.isInteger(opset)) lastOpset[form.domain] = opset;
  $('#op-opset').value = String(opset);
}

function applyPreset(p) {
  form.domain = p.domain ?? '';
  form.op = p.op;
  // A preset's input left out (null) keeps a slot, to fill in when the user puts it back.
  form.inputs = p.inputs.map((i) => (i ? { ...i } : { omitted: true }));
  form.attrs = { ...p.attrs };
  form.symbols = p.symbols ?? '';
  $('#op-type').value = opKey(form.domain, p.op);
  showDomain();
  setOpset(p.opset);
  $('#op-symbols').value = form.symbols;
  shownVersion = null;
  renderOpForm();
  requestOp(0);
}

// The op <select> changed: its first example, at the current opset where the op has a version
// there (in the same domain), else at the example's; an op with no example gets empty fields.
function chooseOp(domain, op) {
  const i = PRESETS.findIndex((p) => (p.domain ?? '') === domain && p.op === op);
  const keep = domain === form.domain ? form.opset : lastOpset[domain];
  const opset = versionOf(domain, op, keep) ? keep : i >= 0 ? PRESETS[i].opset : versionsOf(domain, op).at(-1).since;
  $('#op-preset').value = i >= 0 ? String(i) : '';
  applyPreset(i >= 0 ? { ...PRESETS[i], opset } : { domain, op, opset, attrs: {}, inputs: [] });
}

function typeSelect(k, spec) {
  const allowed = spec.types;
  const others = env.types.filter((t) => !allowed.includes(t));
  const sel = h('select', { class: 'input-type', 'aria-label': `${spec.name} type`, dataset: { input: k } },
    h('optgroup', { label: 'allowed' }, allowed.map((t) => h('option', { value: t, text: t }))),
    others.length ? h('optgroup', { label: 'not allowed here (shows the type error)' }, others.map((t) => h('option', { value: t, text: t }))) : null);
  sel.value = form.inputs[k].type;
  return sel;
}

function renderOpForm() {
  const version = versionOf(form.domain, form.op, form.opset);
  const label = version ? `${version.domain ? `${version.domain} ` : ''}${version.op}-${version.since}` : '';
  $('#op-version').textContent = version ? `${label} is in force (${domainName(version.domain)} opsets ${version.since}–${version.until})` : '';
  const slots = version ? slotSpecs(version) : [];
  const key = version ? `${opKey(version.domain, version.op)}-${version.since}#${slots.length}` : null;
  renderBenchDesc();
  if (key === shownVersion) return;
  shownVersion = key;
  const inputsBox = $('#op-inputs'), attrsBox = $('#op-attrs'), rules = $('#op-rules');
  inputsBox.replaceChildren();
  attrsBox.replaceChildren();
  rules.replaceChildren();
  if (!version) return;

  slots.forEach(({ spec, variadic, nth }, k) => {
    // A slot new to this version: a one-element input, left out if the input is optional.
    form.inputs[k] ??= { omitted: spec.optional };
    const input = form.inputs[k];
    if (!input.type) input.type = spec.types.includes('int64') ? 'int64' : spec.types[0];
    input.dims ??= '1';
    input.values ??= '0';
    const omitted = spec.optional && input.omitted === true;
    const hint = h('div', { class: 'hint', text: valueHint(input.type) });
    const type = typeSelect(k, spec);
    const dims = h('input', { type: 'text', class: 'input-dims', value: input.dims, spellcheck: 'false', 'aria-label': `${spec.name} dims`, placeholder: 'e.g. 3, 2 or batch, 16 (empty: scalar)', dataset: { input: k } });
    const values = h('textarea', { class: 'input-values', rows: '2', spellcheck: 'false', 'aria-label': `${spec.name} values`, dataset: { input: k } });
    values.value = input.values;
    for (const el of [type, dims, values]) el.disabled = omitted;
    type.addEventListener('change', () => { input.type = type.value; hint.textContent = valueHint(type.value); requestOp(); });
    dims.addEventListener('input', () => { input.dims = dims.value; requestOp(); });
    values.addEventListener('input', () => { input.values = values.value; requestOp(); });
    const name = variadic ? `${spec.name}[${nth}]` : spec.name;
    const extras = [];
    if (spec.optional) {
      // An optional input left out is passed as null (an omitted input of the node).
      const omit = h('input', { type: 'checkbox', class: 'input-omit', 'aria-label': `leave ${spec.name} out` });
      omit.checked = omitted;
      omit.addEventListener('change', () => {
        input.omitted = omit.checked;
        for (const el of [type, dims, values]) el.disabled = omit.checked;
        block.classList.toggle('omitted', omit.checked);
        requestOp();
      });
      extras.push(h('label', { class: 'omit' }, omit, ' leave out (optional)'));
    }
    if (variadic && slots.length > version.inputs.length) {
      extras.push(h('button', { type: 'button', class: 'input-remove', text: 'remove', title: `remove ${name}`, onclick: () => {
        form.inputs.splice(k, 1);
        shownVersion = null;
        renderOpForm();
        requestOp(0);
      } }));
    }
    const block = h('fieldset', { class: `input-block${omitted ? ' omitted' : ''}`, dataset: { input: k, name: spec.name }, id: variadic ? `op-input-${spec.name}-${nth}` : `op-input-${spec.name}` },
      h('legend', {}, h('b', { text: name }), ` input ${k}${variadic ? ', variadic' : ''} `, ...extras),
      h('div', { class: 'input-row' },
        h('label', { class: 'field small' }, 'type', type),
        h('label', { class: 'field grow' }, 'dims', dims)),
      h('label', { class: 'field' }, 'values', values, hint),
      h('div', { class: 'field-error', dataset: { errorFor: `input:${k}` } }));
    inputsBox.append(block);
  });
  const last = version.inputs.at(-1);
  if (last?.variadic) {
    inputsBox.append(h('button', { type: 'button', id: 'op-input-add', text: `add an input to ${last.name}`, onclick: () => {
      const prev = form.inputs[slots.length - 1];
      form.inputs[slots.length] = prev ? { type: prev.type, dims: prev.dims, values: prev.values } : {};
      shownVersion = null;
      renderOpForm();
      requestOp(0);
    } }));
  }

  if (version.attributes.length === 0) attrsBox.append(h('p', { class: 'hint', text: `${label} has no attributes.` }));
  for (const a of version.attributes) {
    const def = ATTR_DEFAULTS[`${version.op}.${a.name}`];
    const what = attributeHint(version.op, a);
    const el = h('input', { type: 'text', class: 'attr', id: `op-attr-${a.name}`, value: form.attrs[a.name] ?? '', spellcheck: 'false',
      placeholder: a.required ? `required: ${what}` : def !== undefined ? `default ${def}` : `not set (${what})`, 'aria-label': a.name, dataset: { attr: a.name } });
    el.addEventListener('input', () => { form.attrs[a.name] = el.value; requestOp(); });
    attrsBox.append(h('div', { class: 'field' },
      h('label', { for: `op-attr-${a.name}` }, h('b', { text: a.name }), ` ${a.kind}${a.required ? ', required' : ''} · ${what}`),
      el, h('div', { class: 'field-error', dataset: { errorFor: `attr:${a.name}` } })));
  }

  // The rules: the op's versions (click one to move the opset there), types, attributes, spec link.
  const all = versionsOf(version.domain, version.op);
  rules.append(
    h('div', { class: 'chips', 'aria-label': 'versions' }, all.map((v) => h('button', {
      type: 'button', class: `chip${v === version ? ' active' : ''}`, title: `${domainName(v.domain)} opsets ${v.since}–${v.until}`, text: `${v.op}-${v.since}`,
      onclick: () => { setOpset(v.since); renderOpForm(); requestOp(0); },
    }))),
    h('table', { class: 'grid rules' },
      h('tr', {}, h('th', { text: 'input' }), h('th', { text: 'constraint' }), h('th', { text: 'types allowed' })),
      version.inputs.map((i) => {
        const prev = all[all.indexOf(version) - 1];
        const added = prev ? i.types.filter((t) => !prev.inputs.find((p) => p.name === i.name)?.types.includes(t)) : [];
        const how = [i.optional ? 'optional' : '', i.variadic ? 'variadic' : ''].filter(Boolean).join(', ');
        return h('tr', {}, h('td', { text: how ? `${i.name} (${how})` : i.name }), h('td', { text: i.constraint }),
          h('td', {}, i.types.map((t) => h('span', { class: `type${added.includes(t) ? ' new' : ''}`, title: added.includes(t) ? `new in ${version.op}-${version.since}` : null, text: t }))));
      })),
    h('p', { class: 'hint' },
      version.attributes.length ? `attributes: ${version.attributes.map((a) => `${a.name} (${a.kind}${a.required ? ', required' : ''})`).join(', ')} · ` : 'no attributes · ',
      h('a', { href: version.spec, target: '_blank', rel: 'noopener', text: version.domain ? `${version.domain} spec` : 'ONNX spec' }),
      ' · types in green are new in this version'));
}

function requestOp(delay = 200) {
  clearTimeout(opTimer);
  opTimer = setTimeout(() => { opTimer = null; runOp(); }, delay);
}

async function runOp() {
  if (!env) return;
  const seq = ++opSeq;
  const version = versionOf(form.domain, form.op, form.opset);
  const req = {
    domain: form.domain, op: form.op, opset: form.opset, symbols: form.symbols, attributes: { ...form.attrs },
    inputs: (version ? slotSpecs(version) : []).map(({ spec }, k) => {
      const { omitted, ...input } = form.inputs[k];
      return spec.optional && omitted ? null : input;
    }),
  };
  let r;
  try {
    r = await call('op', req);
  } catch (e) {
    if (seq === opSeq) { clearErrors($('#op-panel')); showError('general', e.message); }
    return;
  }
  if (seq !== opSeq) return;    // a newer request is on its way
  const panel = $('#op-panel');
  clearErrors(panel);
  for (const [field, message] of Object.entries(r.errors)) showError(field, message);
  $('#op-inferred').textContent = r.inferred ? r.inferred.map((o) => `${o.type} ${shapeText(o.dims)}`).join(', ') : '—';
  const out = r.output;
  $('#op-output-meta').textContent = out ? `${out.type} ${shapeText(out.dims)} · ${out.size} value${out.size === 1 ? '' : 's'}${out.view ? ' · a view of the input\'s memory (no copy)' : ''}` : '—';
  $('#op-output-values').textContent = out ? out.text : '';
  $('#op-time').textContent = r.time
    ? `${fmtUs(r.time.median)} per runNode (median of ${r.time.runs} runs; the first took ${fmtUs(r.time.first)})` : '—';
  $('#op-result').dataset.state = out ? 'ok' : Object.keys(r.errors).length ? 'error' : 'inferred';
  renderBenchDesc();
}

const fmtUs = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`);

// ---- Panel 2: Model --------------------------------------------------------------------------------
let model = null;

// Loads a model in the worker (request `kind`: 'model-load' for picked Files, 'model-url' for a
// URL), a progress bar following the bytes loaded; an error shows in the slot of `field`.
async function loadModel(kind, args, field) {
  const panel = $('#model-panel');
  clearErrors(panel);
  $('#model-result').replaceChildren();
  const box = $('#model-progress-box'), bar = $('#model-progress'), label = $('#model-progress-text');
  box.hidden = false;
  bar.removeAttribute('value');
  label.textContent = kind === 'model-url' ? 'opening…' : 'loading…';
  const onProgress = ({ loaded, total }) => {
    bar.max = total;
    bar.value = loaded;
    label.textContent = bar.title = `${loaded.toLocaleString('en')} of ${total.toLocaleString('en')} bytes`;
  };
  try {
    model = await call(kind, args, { onProgress });
  } catch (e) {
    model = null;
    $('#model-info').hidden = true;
    showError(e.field ?? field, e.message);
    return;
  } finally {
    box.hidden = true;
    if (kind === 'model-url' && args.keep) refreshCache();
  }
  renderModel();
  await runModel();
}

// The Files go to the worker as they are (a File is passed by reference, not copied): the model,
// its test data and its external data.
const openFiles = (fileList) => loadModel('model-load', { files: Array.from(fileList) }, 'model');

// A URL typed in the field: resolved against the page, http(s) only; its errors show next to it.
function openUrl(keep, cacheKey = null) {
  const text = $('#model-url').value.trim();
  let url;
  try {
    if (text === '') throw new Error('type the URL of an .onnx file');
    url = new URL(text, document.baseURI);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`only http: and https: URLs can be loaded, got ${url.protocol}`);
  } catch (e) {
    clearErrors($('#model-panel'));
    showError('model-url', e instanceof TypeError ? `'${text}' is not a URL (${e.message})` : e.message);
    $('#model-url').closest('label').classList.add('invalid');
    return Promise.resolve();
  }
  return loadModel('model-url', { url: url.href, keep, cacheKey }, 'model-url');
}

// ---- Kept in this browser (the OPFS cache, listed and deleted by the worker) ------------------------
const sizeText = (n) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`);

async function refreshCache() {
  let r;
  try {
    r = await call('cache-list');
  } catch (e) {
    showError(e.field ?? 'model-cache', e.message);
    $('#model-keep').checked = false;
    $('#model-keep').disabled = true;
    return;
  }
  renderCache(r);
}

function renderCache({ entries, usage, quota }) {
  const list = $('#model-cache-list');
  list.hidden = entries.length === 0;
  $('#model-cache-empty').hidden = entries.length > 0;
  $('#model-cache-clear').disabled = entries.length === 0;
  $('#model-cache-usage').textContent = usage === null ? '' : `this site stores ${sizeText(usage)}${quota ? ` of a ${sizeText(quota)} quota` : ''}`;
  list.replaceChildren(
    h('tr', {}, h('th', { text: 'model URL' }), h('th', { text: 'size' }), h('th', { text: 'state' }), h('th', {})),
    ...entries.map((e) => h('tr', { class: 'entry', dataset: { url: e.url } },
      h('td', { class: 'url', title: e.files.map((f) => `${f.name}: ${f.bytes.toLocaleString('en')} bytes${f.complete ? '' : ' (partial)'}`).join('\n') },
        e.url, e.cacheKey ? h('span', { class: 'hint', text: ` (cacheKey ${e.cacheKey})` }) : ''),
      h('td', { class: 'bytes', title: `${e.bytes.toLocaleString('en')} bytes`, text: sizeText(e.bytes) }),
      h('td', { class: `state ${e.complete ? 'complete' : 'partial'}`, text: e.complete ? 'complete' : 'partial (the next load resumes it)' }),
      h('td', { class: 'actions' },
        /^https?:/.test(e.url) ? h('button', { type: 'button', class: 'open', text: e.complete ? 'Open' : 'Resume', onclick: () => { $('#model-url').value = e.url; $('#model-keep').checked = true; openUrl(true, e.cacheKey ?? null); } }) : '',
        h('button', { type: 'button', class: 'delete', text: 'Delete', onclick: () => deleteCached({ url: e.url, cacheKey: e.cacheKey ?? null }) })))));
}

// Deletes one entry ({ url, cacheKey }) or all ({ all: true }). The worker releases the open model
// first when its tables are among them.
async function deleteCached(what) {
  clearErrors($('#model-cache'));
  try {
    const { released } = await call('cache-delete', what);
    if (released) {
      model = null;
      $('#model-info').hidden = true;
      $('#model-result').replaceChildren();
    }
  } catch (e) {
    showError(e.field ?? 'model-cache', e.message);
  }
  await refreshCache();
}

function renderModel() {
  const m = model;
  $('#model-info').hidden = false;
  const where = (t) => (t.storage !== 'file' ? 'in wasm memory' : m.from?.kept ? `kept in this browser (${t.location}), read by rows` : `kept in ${t.location}, read by rows`);
  const tables = m.tables.map((t) => ` · ${t.name}: ${(t.bytes / 1e6).toFixed(1)} MB ${where(t)}`).join('');
  const kept = m.from?.kept;
  const from = !m.from ? '' : kept ? ` · ${kept.downloaded ? 'downloaded into this browser' : 'opened from this browser, nothing downloaded'} (${sizeText(kept.bytes ?? 0)} kept)` : ' · downloaded, not kept';
  $('#model-summary').textContent = `${m.name}${m.bytes === null ? '' : ` · ${m.bytes.toLocaleString('en')} bytes`}${from} · IR version ${m.irVersion} · opset imports: ${m.opsetImports.map((o) => `${o.domain} ${o.version}`).join(', ')}${tables}`;
  const table = (rows) => [h('tr', {}, h('th', { text: 'name' }), h('th', { text: 'type' }), h('th', { text: 'shape' })),
    ...rows.map((r) => h('tr', { dataset: { name: r.name } }, h('td', { text: r.name }), h('td', { text: r.type }), h('td', {}, h('code', { text: shapeText(r.shape) }))))];
  $('#model-inputs').replaceChildren(...table(m.inputs));
  $('#model-outputs-meta').replaceChildren(...table(m.outputs));
  $('#model-nodes').replaceChildren(...m.nodes.map((n) => h('li', {},
    h('b', { text: n.opType }), n.name ? ` '${n.name}'` : '', `(${n.inputs.join(', ')})`,
    Object.keys(n.attributes).length ? h('code', { class: 'attrs', text: ` ${JSON.stringify(n.attributes)}` }) : '',
    ' → ', n.outputs.map((o) => `${o.name}: ${o.type} ${shapeText(o.dims)}`).join(', '))));
  $('#model-symbols').replaceChildren(...m.symbols.map((s) => h('label', { class: 'sym' }, `${s} =`,
    h('input', { type: 'number', min: '0', max: '64', value: '2', class: 'model-symbol', dataset: { symbol: s }, onchange: () => runModel() }))));
  const td = m.testData.inputs.length > 0;
  $('#model-testdata-label').hidden = !td;
  $('#model-testdata').checked = td;
  $('#model-testdata-label').lastChild.textContent = ` use the test data (${[...m.testData.inputs, ...m.testData.outputs].join(', ')})`;
}

async function runModel() {
  if (!model) return;
  const symbols = {};
  for (const el of document.querySelectorAll('.model-symbol')) symbols[el.dataset.symbol] = Math.max(0, Number(el.value) || 0);
  clearErrors($('#model-panel'));
  let r;
  try {
    r = await call('model-run', { symbols, useTestData: $('#model-testdata').checked });
  } catch (e) {
    $('#model-result').replaceChildren();
    showError(e.field ?? 'model-run', e.message);
    return;
  }
  const tensorView = (t, cls) => h('div', { class: `tensor ${cls}`, dataset: { name: t.name } },
    h('div', { class: 'tensor-head' }, h('b', { text: t.name }), ` ${t.type} `, h('code', { class: 'dims', text: shapeText(t.dims) }),
      t.check ? h('span', { class: `check ${t.ok ? 'ok' : 'bad'}`, text: t.ok ? `✓ ${t.check}` : `✗ ${t.check}` }) : ''),
    h('pre', { class: 'values', text: t.text }));
  $('#model-result').replaceChildren(
    h('p', { class: 'summary', text: `ran in ${fmtUs(r.time)} with ${r.source} inputs` }),
    h('h3', { text: 'Outputs' }), ...r.outputs.map((t) => tensorView(t, 'output')),
    h('details', {}, h('summary', { text: `Inputs (${r.source})` }), ...r.inputs.map((t) => tensorView(t, 'input'))));
}

// ---- Panel 3: Benchmark -----------------------------------------------------------------------------
const bench = { running: false, id: null };

// The benchmark has a JS loop to compare with for Gather, Flatten and Reshape only.
const benchable = () => form.domain === '' && BENCH_OPS.includes(form.op);

function benchParams() {
  return {
    domain: form.domain, op: form.op, opset: form.opset, type: form.inputs[0]?.type ?? 'float32', attributes: { ...form.attrs },
    size: Number($('#bench-size').value), seconds: Number($('#bench-seconds').value),
  };
}

// What the next run will time, or why there is none for the op of panel 1 (Start disabled).
function renderBenchDesc() {
  if (bench.running) return;
  const p = benchParams();
  $('#bench-start').disabled = !benchable();
  $('#bench-panel').dataset.op = benchable() ? 'timed' : 'other';
  if (!benchable()) {
    $('#bench-desc').textContent = `The benchmark compares with a JavaScript loop for ${BENCH_OPS.join(', ')} only; ${opKey(p.domain, p.op)} is chosen in panel 1: choose one of those to time it.`;
    return;
  }
  const v = versionOf(p.domain, p.op, p.opset);
  $('#bench-desc').textContent = v ? `next run: ${v.op}-${v.since}, ${p.type} data, ${Number(p.size).toLocaleString('en')} elements` : '';
}

function showBench(r) {
  $('#bench-desc').textContent = r.description;
  const max = Math.max(r.wasm.us, r.js.us);
  $('#bench-bar-wasm').style.width = `${(100 * r.wasm.us) / max}%`;
  $('#bench-bar-js').style.width = `${(100 * r.js.us) / max}%`;
  const line = (s) => `${fmtUs(s.us / 1000)} per run · ${s.gbps.toFixed(2)} GB/s · ${s.runs} runs`;
  $('#bench-wasm').textContent = line(r.wasm);
  $('#bench-js').textContent = line(r.js);
  $('#bench-summary').textContent = `onnx-wasm is ${r.speedup >= 1 ? `${r.speedup.toFixed(1)}× faster than` : `${(1 / r.speedup).toFixed(1)}× slower than`} the JS loop` +
    ` (medians of 40 ms slices; ${r.threads} thread${r.threads > 1 ? 's' : ''}) · outputs ${r.identical ? 'identical ✓' : 'DIFFER ✗'}` +
    (r.done ? (r.stopped ? ' · stopped' : ' · done') : ' · running…');
  $('#bench-panel').dataset.state = r.done ? 'done' : 'running';
}

async function startBench() {
  if (bench.running || !benchable()) return;
  bench.running = true;
  clearErrors($('#bench-panel'));
  $('#bench-start').disabled = true;
  $('#bench-stop').disabled = false;
  $('#bench-panel').dataset.state = 'running';
  try {
    const r = await call('bench', { params: benchParams() }, { onProgress: showBench, track: false });
    showBench(r);
  } catch (e) {
    showError(e.field ?? 'bench', e.message);
    $('#bench-panel').dataset.state = 'error';
  } finally {
    bench.running = false;
    $('#bench-start').disabled = !benchable();
    $('#bench-stop').disabled = true;
  }
}

// ---- Start -------------------------------------------------------------------------------------------
function wire() {
  // The examples, grouped by op.
  const groups = new Map();
  PRESETS.forEach((p, i) => {
    const key = opKey(p.domain ?? '', p.op);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(h('option', { value: i, text: p.label }));
  });
  $('#op-preset').replaceChildren(...[...groups].map(([key, options]) => h('optgroup', { label: key }, options)));
  $('#op-preset').addEventListener('change', () => applyPreset(PRESETS[Number($('#op-preset').value)]));
  $('#op-type').addEventListener('change', () => {
    const { domain, op } = $('#op-type').selectedOptions[0].dataset;
    chooseOp(domain, op);
  });
  $('#op-opset').addEventListener('input', () => {
    const n = Number($('#op-opset').value);
    form.opset = Number.isInteger(n) ? n : NaN;
    if (Number.isInteger(n)) lastOpset[form.domain] = n;
    renderOpForm();
    requestOp();
  });
  $('#op-symbols').addEventListener('input', () => { form.symbols = $('#op-symbols').value; requestOp(); });
  $('#op-run').addEventListener('click', () => { clearTimeout(opTimer); opTimer = null; runOp(); });

  $('#model-file').addEventListener('change', () => { if ($('#model-file').files.length) openFiles($('#model-file').files); });
  const drop = $('#model-drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); if (e.dataTransfer.files.length) openFiles(e.dataTransfer.files); });
  $('#model-url-form').addEventListener('submit', (e) => { e.preventDefault(); openUrl($('#model-keep').checked); });
  $('#model-cache-clear').addEventListener('click', () => deleteCached({ all: true }));
  $('#model-run').addEventListener('click', () => runModel());
  $('#model-testdata').addEventListener('change', () => runModel());

  $('#bench-start').addEventListener('click', () => startBench());
  $('#bench-stop').addEventListener('click', () => call('bench-stop', {}, { track: false }));
  $('#bench-size').addEventListener('change', renderBenchDesc);
}

const ready = (async () => {
  wire();
  try {
    env = await call('init', { options: {} });
  } catch (e) {
    $('#runtime').dataset.state = 'error';
    showError('global', `onnx-wasm did not load: ${e.message}`);
    throw e;
  }
  showRuntime(env.runtime);
  $('#rt-page').textContent = `crossOriginIsolated: ${globalThis.crossOriginIsolated === true} · ${navigator.hardwareConcurrency} cores · the worker does every call`;
  fillOpSelect();
  applyPreset(PRESETS[0]);
  await refreshCache();
})();

// For tests and the console: resolves once nothing is pending (no request, no debounce timer).
window.playground = {
  ready,
  async idle() {
    await ready;
    for (;;) {
      if (busy === 0 && opTimer === null) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  },
  runtime: () => call('runtime'),
};
