import { ApiError, FieldError, fieldErrors } from './api-error';
import { ErrorCode } from './error-codes';

export interface BodyLimits {
  /** Objects and arrays nested deeper than this (the body itself is level 1). */
  maxDepth: number;
  /** Keys of one object. */
  maxKeys: number;
  /** Items of one array. */
  maxItems: number;
  /** Keys and items of the whole body together. */
  maxEntries: number;
}

/**
 * How complex a JSON request body may be. The largest legitimate bodies (a whole game of
 * 500 actions, each double naming up to 12 cubes: about 8,000 keys and items; a chouette's
 * creation: under 100) fit well inside.
 */
export const BODY_LIMITS: BodyLimits = { maxDepth: 32, maxKeys: 256, maxItems: 1_000, maxEntries: 10_000 };

export const NUL = '\u0000';
export const nulMessage = (name: string) => `${name} must not contain the NUL character (U+0000)`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;

interface Level {
  array: boolean;
  /** Keys or items seen so far. */
  entries: number;
  /** Object: where the text of the current key starts and ends (quotes excluded). */
  keyStart: number;
  keyEnd: number;
  /** Object: the next string is a key. */
  expectKey: boolean;
}

/** The index just past the string whose opening quote is at `i`, or -1 when it never closes. */
function skipString(bytes: Buffer, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = bytes.indexOf(QUOTE, j);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; k > i && bytes[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function pathOf(bytes: Buffer, stack: Level[], upTo: number): string {
  const parts: string[] = [];
  for (let d = 0; d < upTo; d++) {
    const l = stack[d];
    if (l.array) parts.push(String(l.entries - 1));
    else {
      const raw = bytes.toString('utf8', l.keyStart, l.keyEnd);
      let key = raw;
      try {
        key = JSON.parse(`"${raw}"`) as string;
      } catch {
        /* shown as written */
      }
      parts.push(key);
    }
  }
  return parts.join('.');
}

const tooComplex = (detail: string, field: string, message: string) => new ApiError(ErrorCode.BODY_TOO_COMPLEX, detail, { errors: [{ field, message }], errorCount: 1 });

/**
 * Checks the JSON text of a body against the limits before it is parsed, in one pass over
 * the characters that stops at the first object, array or nesting level too many: a body of
 * 60,000 keys costs the first 257 of them, not a parse into a 60,000-key object and a walk of
 * it by class-transformer and class-validator. Answers 400 BODY_TOO_COMPLEX naming the object
 * or array at fault (`rules`, `actions`; '' for the body itself), or null. Text that is not
 * JSON is left for the parser to refuse. It reads the UTF-8 bytes as they came (JSON's
 * structural characters are ASCII, and no byte of a multi-byte character is), so a refused
 * body is never even decoded.
 */
export function scanJson(body: Buffer | string, limits: BodyLimits = BODY_LIMITS): ApiError | null {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const stack: Level[] = [];
  let total = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    const top = stack.length ? stack[stack.length - 1] : undefined;
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
      continue;
    }
    if (c === COMMA) {
      if (!top) continue;
      top.entries++;
      total++;
      if (top.array && top.entries > limits.maxItems) {
        return tooComplex(`The request body has an array of more than ${limits.maxItems} items.`, pathOf(bytes, stack, stack.length - 1), `has more than ${limits.maxItems} items`);
      }
      if (!top.array) {
        if (top.entries > limits.maxKeys) {
          return tooComplex(`The request body has an object of more than ${limits.maxKeys} fields.`, pathOf(bytes, stack, stack.length - 1), `has more than ${limits.maxKeys} fields`);
        }
        top.expectKey = true;
      }
      if (total > limits.maxEntries) {
        return tooComplex(`The request body has more than ${limits.maxEntries} fields and items in all.`, '', `has more than ${limits.maxEntries} fields and items in all`);
      }
      continue;
    }
    if (c === COLON) continue;
    // The start of a value or a key: the first entry of its container counts here.
    if (top && top.entries === 0) {
      top.entries = 1;
      total++;
      if (total > limits.maxEntries) {
        return tooComplex(`The request body has more than ${limits.maxEntries} fields and items in all.`, '', `has more than ${limits.maxEntries} fields and items in all`);
      }
    }
    if (c === QUOTE) {
      const end = skipString(bytes, i);
      if (end < 0) return null;
      if (top && !top.array && top.expectKey) {
        top.keyStart = i + 1;
        top.keyEnd = end - 1;
        top.expectKey = false;
      }
      i = end - 1;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (stack.length >= limits.maxDepth) {
        return tooComplex(
          `The request body nests objects or arrays more than ${limits.maxDepth} levels deep.`,
          pathOf(bytes, stack, stack.length),
          `nests deeper than ${limits.maxDepth} levels`,
        );
      }
      stack.push({ array: c === OPEN_ARRAY, entries: 0, keyStart: 0, keyEnd: 0, expectKey: c === OPEN_OBJECT });
    }
    // Numbers, true, false, null: nothing to count past their first character.
  }
  return null;
}

/**
 * Strings and keys holding U+0000, which PostgreSQL text cannot store: 400 VALIDATION_FAILED
 * naming each path (`actions.3.note`), or null. JSON can only spell U+0000 as an escape, so
 * the parsed body is walked only when its text has one.
 */
export function findNul(text: Buffer | string, body: unknown): ApiError | null {
  if (!text.includes('\\u0000')) return null;
  const found: FieldError[] = [];
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  // Iterative, in document order; the depth is already bounded by scanJson.
  const stack: Array<[unknown, string]> = [[body, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes(NUL)) found.push({ field: path, message: nulMessage(path.slice(path.lastIndexOf('.') + 1) || 'the body') });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, i)]);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (const k of keys) if (k.includes(NUL)) found.push({ field: join(path, k), message: 'field names must not contain the NUL character (U+0000)' });
      for (let i = keys.length - 1; i >= 0; i--) stack.push([(v as Record<string, unknown>)[keys[i]], join(path, keys[i])]);
    }
  }
  return found.length ? fieldErrors(ErrorCode.VALIDATION_FAILED, found) : null;
}
