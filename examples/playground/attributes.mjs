// Attribute fields of the op panel -> a node's attribute values, by the kind opVersions() gives
// each attribute (INT, INTS, STRING, TENSOR). No DOM here (a script in Node can use it).
// - INT / INTS: integers ("1", "0, -1", "[2, 3]"); beyond 2^53 as bigints, exactly. An INT that
//   is an element type id (Cast's `to`, DequantizeLinear's `output_dtype`) takes a type name too.
// - STRING: the text as typed; Cast-1's `to` (a STRING) takes this page's type names as well.
// - TENSOR: "<type> <value>", a one-element tensor such as ConstantOfShape's `value`
//   ("float32 1.5", "int64 7"); a bare number is float32. Returned as { tensor: { type, elements } }
//   for the caller to make a Tensor of.
import { ELEMENT_TYPES } from '../../js/generated/constants.mjs';
import { parseElements } from './values.mjs';

// Attributes whose value is an element type (an ONNX TensorProto.DataType id, or its name).
export const TYPE_ATTRIBUTES = new Set(['Cast.to', 'DequantizeLinear.output_dtype']);

// 'float16', 'FLOAT16', 'float', 'double', '10' -> the element type record, or null.
function typeNamed(text) {
  const t = text.trim().toLowerCase();
  return ELEMENT_TYPES.find((e) => e.name === t || e.onnxName === t || String(e.id) === t) ?? null;
}

const typeList = () => ELEMENT_TYPES.map((e) => e.name).join(', ');

// What an attribute field takes, for its placeholder and label.
export function attributeHint(op, a) {
  if (TYPE_ATTRIBUTES.has(`${op}.${a.name}`)) return a.kind === 'STRING' ? 'a type: FLOAT16 or float16' : 'a type: float16 or its id 10';
  if (a.kind === 'TENSOR') return 'a type and one value: float32 1.5';
  if (a.kind === 'INTS') return 'integers: 0, -1';
  if (a.kind === 'STRING') return 'text';
  return 'an integer';
}

const toInt = (tok) => {
  const n = Number(tok);
  return Number.isSafeInteger(n) ? n : BigInt(tok);
};

// The node's attributes from the fields' texts (empty: not set), and an error message per field
// ('attr:NAME') that does not parse.
export function attributesFrom(version, texts) {
  const attrs = {}, errors = {};
  for (const a of version.attributes) {
    const text = String(texts?.[a.name] ?? '').trim();
    if (text === '') continue;
    const field = `attr:${a.name}`;
    const typeAttr = TYPE_ATTRIBUTES.has(`${version.op}.${a.name}`);
    if (a.kind === 'STRING') {
      if (typeAttr) {
        const t = typeNamed(text);
        attrs[a.name] = t ? t.onnxName.toUpperCase() : text;   // an unknown name: the library's error names the allowed ones
      } else attrs[a.name] = text;
      continue;
    }
    if (a.kind === 'TENSOR') {
      const m = /^([A-Za-z]\w*)\s+(.+)$/.exec(text);
      const [type, valueText] = m ? [m[1], m[2]] : ['float32', text];
      if (!typeNamed(type) || typeNamed(type).name !== type) { errors[field] = `${a.name}: '${type}' is not a type (${typeList()}); write e.g. float32 1.5`; continue; }
      try {
        const elements = parseElements(type, valueText, field);
        if (elements.length !== 1) { errors[field] = `${a.name}: write one value after the type, e.g. ${type} 1 (got ${elements.length})`; continue; }
        attrs[a.name] = { tensor: { type, elements } };
      } catch (e) {
        errors[field] = `${a.name}: ${e.message}`;
      }
      continue;
    }
    if (a.kind === 'INT' && typeAttr && !/^[+-]?\d+$/.test(text)) {
      const t = typeNamed(text);
      if (t) attrs[a.name] = t.id;
      else errors[field] = `${a.name}: '${text}' is neither a type (${typeList()}) nor a type id`;
      continue;
    }
    if (a.kind !== 'INT' && a.kind !== 'INTS') { errors[field] = `${a.name}: this page cannot set a ${a.kind} attribute`; continue; }
    const toks = text.replace(/^\[|\]$/g, '').split(/[\s,]+/).filter(Boolean);
    if (!toks.every((t) => /^[+-]?\d+$/.test(t))) { errors[field] = `${a.name}: '${text}' is not ${a.kind === 'INTS' ? 'a list of integers' : 'an integer'}`; continue; }
    if (a.kind === 'INT') {
      if (toks.length !== 1) { errors[field] = `${a.name} takes one integer`; continue; }
      attrs[a.name] = toInt(toks[0]);
    } else attrs[a.name] = toks.map(toInt);
  }
  return { attrs, errors };
}
