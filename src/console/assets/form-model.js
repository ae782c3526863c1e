// @ts-check
/**
 * @module The console's form model, pure (no DOM): an elicitation's requestedSchema becomes field descriptors, and
 * submitted form values become the `content` of an answer (numbers parsed, booleans, multi-select arrays, empty
 * optional fields left out).
 */

/**
 * @typedef {{ value: string, label: string }} Option
 * @typedef {'text' | 'number' | 'checkbox' | 'select' | 'multiselect' | 'json'} FieldKind
 * @typedef {'text' | 'email' | 'url' | 'date' | 'datetime-local'} TextInputType
 * @typedef {string | boolean | string[]} FormValue
 *
 * @typedef {object} FieldDescriptor
 * @property {string} name The property name (the key in `content`).
 * @property {string} label Its `title`, else its name.
 * @property {string} [description] Help text.
 * @property {boolean} required Listed in the schema's `required`.
 * @property {FieldKind} kind How it is rendered and read back.
 * @property {TextInputType} [inputType] The input type of a text field (from `format`).
 * @property {number} [minLength]
 * @property {number} [maxLength]
 * @property {boolean} [integer] A number field that takes whole numbers only.
 * @property {number} [min]
 * @property {number} [max]
 * @property {string} [step] The input's step: "1" for integers, "any" otherwise.
 * @property {Option[]} [options] The choices of a select or multi-select.
 * @property {number} [minItems]
 * @property {number} [maxItems]
 * @property {FormValue} initial What the input holds at first: the default, else empty.
 *
 * @typedef {{ field: string, message: string }} FieldError
 * @typedef {{ ok: true, content: Record<string, unknown> } | { ok: false, errors: FieldError[] }} ContentResult
 */

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {unknown} value @returns {number | undefined} */
function finite(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** @param {unknown} value @returns {number | undefined} */
function count(value) {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** @param {number} n */
const pad = (n) => String(n).padStart(2, '0');

/**
 * An RFC 3339 time as a datetime-local input value (the operator's local time, to the second).
 * @param {string} iso
 * @returns {string}
 */
export function toLocalDateTimeInput(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * A datetime-local input value (local time, no offset) as RFC 3339 with the operator's offset, e.g. 2025-06-01T14:00:00+02:00.
 * @param {string} value
 * @returns {string | undefined} undefined when the value is not a time
 */
export function fromLocalDateTimeInput(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '00'] = match;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(date.getTime())) return undefined;
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** @type {Record<string, TextInputType>} */
const INPUT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

/**
 * The choices of a single-select string (enum, enum + enumNames, oneOf const/title), or undefined.
 * @param {Record<string, unknown>} property
 * @returns {Option[] | undefined}
 */
function singleOptions(property) {
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? property.enumNames : [];
    return property.enum.map((value, i) => ({ value: String(value), label: typeof names[i] === 'string' ? names[i] : String(value) }));
  }
  if (Array.isArray(property.oneOf)) return titledOptions(property.oneOf);
  return undefined;
}

/** @param {unknown[]} list @returns {Option[]} */
function titledOptions(list) {
  return list.filter(isObject).map((option) => ({ value: String(option.const), label: typeof option.title === 'string' ? option.title : String(option.const) }));
}

/**
 * The choices of a multi-select array (items.enum or items.anyOf), or undefined.
 * @param {Record<string, unknown>} property
 * @returns {Option[] | undefined}
 */
function multiOptions(property) {
  const items = property.items;
  if (!isObject(items)) return undefined;
  if (Array.isArray(items.enum)) return items.enum.map((value) => ({ value: String(value), label: String(value) }));
  if (Array.isArray(items.anyOf)) return titledOptions(items.anyOf);
  return undefined;
}

/**
 * One property schema as a field descriptor.
 * @param {string} name
 * @param {unknown} schema
 * @param {boolean} required
 * @returns {FieldDescriptor}
 */
export function fieldFromProperty(name, schema, required) {
  const property = isObject(schema) ? schema : {};
  /** @type {FieldDescriptor} */
  const field = { name, label: typeof property.title === 'string' && property.title !== '' ? property.title : name, required, kind: 'json', initial: '' };
  if (typeof property.description === 'string' && property.description !== '') field.description = property.description;
  const def = property.default;
  switch (property.type) {
    case 'string': {
      const options = singleOptions(property);
      if (options) {
        field.kind = 'select';
        field.options = options;
        field.initial = typeof def === 'string' && options.some((o) => o.value === def) ? def : '';
        return field;
      }
      field.kind = 'text';
      field.inputType = (typeof property.format === 'string' && INPUT_TYPES[property.format]) || 'text';
      const minLength = count(property.minLength);
      const maxLength = count(property.maxLength);
      if (minLength !== undefined) field.minLength = minLength;
      if (maxLength !== undefined) field.maxLength = maxLength;
      if (typeof def === 'string') field.initial = field.inputType === 'datetime-local' ? toLocalDateTimeInput(def) : def;
      return field;
    }
    case 'number':
    case 'integer': {
      field.kind = 'number';
      field.integer = property.type === 'integer';
      field.step = field.integer ? '1' : 'any';
      const min = finite(property.minimum);
      const max = finite(property.maximum);
      if (min !== undefined) field.min = min;
      if (max !== undefined) field.max = max;
      if (finite(def) !== undefined) field.initial = String(def);
      return field;
    }
    case 'boolean':
      field.kind = 'checkbox';
      field.initial = def === true;
      return field;
    case 'array': {
      const options = multiOptions(property);
      if (!options) break;
      field.kind = 'multiselect';
      field.options = options;
      const minItems = count(property.minItems);
      const maxItems = count(property.maxItems);
      if (minItems !== undefined) field.minItems = minItems;
      if (maxItems !== undefined) field.maxItems = maxItems;
      field.initial = Array.isArray(def) ? def.filter((v) => typeof v === 'string' && options.some((o) => o.value === v)) : [];
      return field;
    }
    default:
      break;
  }
  // Not a shape the spec defines (the broker refuses those before they get here): edit it as JSON rather than hide it.
  if (def !== undefined) field.initial = JSON.stringify(def);
  return field;
}

/**
 * The fields of a form elicitation's requestedSchema, in the order of its properties.
 * @param {unknown} requestedSchema
 * @returns {FieldDescriptor[]}
 */
export function fieldsFromSchema(requestedSchema) {
  if (!isObject(requestedSchema) || !isObject(requestedSchema.properties)) return [];
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required : []);
  return Object.entries(requestedSchema.properties).map(([name, schema]) => fieldFromProperty(name, schema, required.has(name)));
}

/** @param {string} text */
const length = (text) => [...text].length;

/**
 * One text-like value, checked; `undefined` value means "leave it out".
 * @param {FieldDescriptor} field
 * @param {string} raw
 * @returns {{ value?: unknown, error?: string }}
 */
function textValue(field, raw) {
  if (field.minLength !== undefined && length(raw) < field.minLength) return { error: `must be at least ${field.minLength} characters` };
  if (field.maxLength !== undefined && length(raw) > field.maxLength) return { error: `must be at most ${field.maxLength} characters` };
  switch (field.inputType) {
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(raw) ? { value: raw } : { error: 'must be an email address' };
    case 'url':
      try {
        new URL(raw);
        return { value: raw };
      } catch {
        return { error: 'must be a full URL, such as https://example.com/' };
      }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(raw) ? { value: raw } : { error: 'must be a date (YYYY-MM-DD)' };
    case 'datetime-local': {
      const value = fromLocalDateTimeInput(raw);
      return value === undefined ? { error: 'must be a date and time' } : { value };
    }
    default:
      return { value: raw };
  }
}

/**
 * @param {FieldDescriptor} field
 * @param {string} raw
 * @returns {{ value?: unknown, error?: string }}
 */
function numberValue(field, raw) {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) return { error: 'must be a number' };
  if (field.integer && !Number.isInteger(value)) return { error: 'must be a whole number' };
  if (field.min !== undefined && value < field.min) return { error: `must be at least ${field.min}` };
  if (field.max !== undefined && value > field.max) return { error: `must be at most ${field.max}` };
  return { value };
}

/**
 * @param {FieldDescriptor} field
 * @param {string[]} chosen
 * @returns {{ value?: unknown, error?: string }}
 */
function multiValue(field, chosen) {
  const known = new Set((field.options ?? []).map((o) => o.value));
  const values = chosen.filter((v) => known.has(v));
  if (values.length === 0 && !field.required && !field.minItems) return {};
  if (field.minItems !== undefined && values.length < field.minItems) return { error: `choose at least ${field.minItems}` };
  if (field.maxItems !== undefined && values.length > field.maxItems) return { error: `choose at most ${field.maxItems}` };
  return { value: values };
}

/**
 * @param {FieldDescriptor} field
 * @param {FormValue | undefined} raw
 * @returns {{ value?: unknown, error?: string }}
 */
function fieldValue(field, raw) {
  if (field.kind === 'checkbox') return { value: raw === true };
  if (field.kind === 'multiselect') return multiValue(field, Array.isArray(raw) ? raw : []);
  const text = typeof raw === 'string' ? raw : '';
  if (text === '') return field.required ? { error: 'is required' } : {};
  switch (field.kind) {
    case 'number':
      return numberValue(field, text);
    case 'select':
      return (field.options ?? []).some((o) => o.value === text) ? { value: text } : { error: 'must be one of the choices' };
    case 'json':
      try {
        return { value: JSON.parse(text) };
      } catch {
        return { error: 'must be JSON' };
      }
    default:
      return textValue(field, text);
  }
}

/**
 * The `content` of an accept from what the form holds, or every field's problem.
 * @param {FieldDescriptor[]} fields
 * @param {Record<string, FormValue | undefined>} values
 * @returns {ContentResult}
 */
export function contentFromForm(fields, values) {
  /** @type {Record<string, unknown>} */
  const content = {};
  /** @type {FieldError[]} */
  const errors = [];
  for (const field of fields) {
    const { value, error } = fieldValue(field, values[field.name]);
    if (error !== undefined) errors.push({ field: field.name, message: `${field.label} ${error}` });
    else if (value !== undefined) content[field.name] = value;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, content };
}

/**
 * The form field an API error names (`content.ticket`, `ticket`, `content["first name"]`,
 * `requestedSchema.properties.ticket`…), if it is one of the form's.
 * @param {FieldDescriptor[]} fields
 * @param {string | undefined} path
 * @returns {string | undefined}
 */
export function fieldOfErrorPath(fields, path) {
  if (!path) return undefined;
  const rest = path.replace(/^(?:content|requestedSchema\.properties)(?=[.[])/, '').replace(/^\./, '');
  const quoted = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest);
  const name = quoted ? String(JSON.parse(`"${quoted[1]}"`)) : rest.split(/[.[]/)[0];
  return fields.some((f) => f.name === name) ? name : undefined;
}
