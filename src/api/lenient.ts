/**
 * Lenient zod building blocks for the API boundary (STYLE.md principle 5; api-samples/README.md lists
 * the drift they absorb). Every field schema here accepts any input, including a missing key, and
 * yields a clean type: numbers for numeric strings, null for absent or unusable values. Only the
 * `required*` schemas can fail, for the few fields without which a record is useless.
 */
import * as z from 'zod';

const anything = () => z.unknown().optional();

/** Plain object test (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A number from a number or numeric text ("42", " 16.67 ", "1,234", "63.4%", "6m/s" is not numeric:
 * use {@link toLeadingNumber}); null when absent or not a finite number.
 */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return null;
  const text = value.trim().replace(/,/g, '').replace(/\s*%$/, '');
  if (text === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** The number at the start of a text with a unit ("6m/s", "0 m/s", "8s", "200 HP"); null if none. */
export function toLeadingNumber(value: unknown): number | null {
  const direct = toNumber(value);
  if (direct !== null || typeof value !== 'string') return direct;
  const match = value.trim().match(/^[-+]?\d+(?:\.\d+)?/);
  return match ? Number(match[0]) : null;
}

/** Text from a string or a number (ids drift between the two); null for anything else or blank text. */
export function toText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  return null;
}

/** A boolean from true/false, 1/0, "true"/"false", "1"/"0", or `{is_win: bool}` (history entries); null otherwise. */
export function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value === 'string') {
    const t = value.trim().toLowerCase();
    if (t === 'true' || t === '1' || t === 'yes') return true;
    if (t === 'false' || t === '0' || t === 'no') return false;
    return null;
  }
  if (isRecord(value) && 'is_win' in value) return toBoolean(value.is_win);
  return null;
}

/**
 * A duration in seconds from any of the API's forms: a number of seconds, numeric text, `{raw, formatted}`
 * (v2 history), or text such as "10m 43s", "5h 10m 11s", "1d 2h", "12:34" or "1:02:03". Null if unusable.
 */
export function toSeconds(value: unknown): number | null {
  if (isRecord(value)) return toSeconds(value.raw ?? value.seconds ?? value.formatted);
  const n = toNumber(value);
  if (n !== null) return n;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (/^\d+(:\d{1,2}){1,2}$/.test(text)) return text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
  const units: Record<string, number> = { d: 86_400, h: 3_600, m: 60, s: 1 };
  let total = 0;
  let found = false;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*(d|h|m|s)[a-z]*/g)) {
    total += Number(m[1]) * units[m[2]!]!;
    found = true;
  }
  return found ? total : null;
}

/** Field: number or null. */
export const num = () => anything().transform(toNumber);
/** Field: number, 0 when absent (counters that the bot adds and divides). */
export const count = () => anything().transform((v) => toNumber(v) ?? 0);
/** Field: number with a unit suffix allowed ("6m/s"), or null. */
export const measure = () => anything().transform(toLeadingNumber);
/** Field: text or null. */
export const text = () => anything().transform(toText);
/** Field: an id as text (ids arrive as numbers or strings), or null. */
export const id = () => anything().transform(toText);
/** Field: an id where 0 means "none" (e.g. `cur_hero_id: 0` for a player who never picked a hero). */
export const optionalId = () => anything().transform((v) => (toNumber(v) === 0 ? null : toText(v)));
/** Field: boolean or null. */
export const bool = () => anything().transform(toBoolean);
/** Field: boolean, false when absent. */
export const flag = () => anything().transform((v) => toBoolean(v) ?? false);
/** Field: seconds or null (see {@link toSeconds}). */
export const seconds = () => anything().transform(toSeconds);
/** Field: a list of texts from an array, a single text, or nothing. */
export const textList = () =>
  anything().transform((v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map(toText).filter((s): s is string => s !== null));
/** Field: a flat record of texts (`additional_fields`), every value coerced to text, unusable values dropped. */
export const textRecord = () =>
  anything().transform((v) => {
    const out: Record<string, string> = {};
    if (isRecord(v))
      for (const [k, x] of Object.entries(v)) {
        const t = toText(x) ?? (typeof x === 'boolean' ? String(x) : null);
        if (t !== null && k.trim() !== '') out[k.trim()] = t;
      }
    return out;
  });

/** Field that must be usable text (a record without it is dropped from a list, or a single response fails). */
export const requiredText = (what: string) =>
  anything().transform((v, ctx) => {
    const t = toText(v);
    if (t === null) {
      ctx.addIssue({ code: 'custom', message: `${what} is missing or not text` });
      return z.NEVER;
    }
    return t;
  });

/** An object schema that treats null, a missing key or a non-object as `{}` (so every field falls back). */
export function record<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess((v) => (isRecord(v) ? v : {}), z.object(shape));
}

/** An object schema that yields null for null, a missing key or a non-object. */
export function maybeRecord<T extends z.ZodRawShape>(shape: T) {
  const inner = z.object(shape);
  return anything().transform((v): z.output<typeof inner> | null => {
    if (!isRecord(v)) return null;
    const r = inner.safeParse(v);
    return r.success ? r.data : null;
  });
}

/**
 * A list field: a non-array becomes [], and elements that fail their schema (not an object, a
 * required field missing) are dropped rather than failing the whole response.
 */
export function list<T extends z.ZodType>(item: T) {
  return anything().transform((v): z.output<T>[] => {
    if (!Array.isArray(v)) return [];
    const out: z.output<T>[] = [];
    for (const element of v) {
      const r = item.safeParse(element);
      if (r.success) out.push(r.data);
    }
    return out;
  });
}
