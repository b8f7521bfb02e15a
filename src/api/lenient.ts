/**
 * Lenient zod blocks for the API boundary (STYLE.md principle 5; drift listed in api-samples/README.md): field schemas accept
 * anything, a missing key included, and yield clean types; only `required*` can fail.
 */
import * as z from 'zod';

const anything = () => z.unknown().optional();

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A number from a number or numeric text ("42", " 16.67 ", "1,234", "63.4%"); null when absent or not finite. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return null;
  const text = value.trim().replace(/,/g, '').replace(/\s*%$/, '');
  if (text === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** The number leading a text with a unit ("6m/s", "8s", "200 HP", "1,200 HP"); null if none. */
export function toLeadingNumber(value: unknown): number | null {
  const direct = toNumber(value);
  if (direct !== null || typeof value !== 'string') return direct;
  // Thousands groups first: "1,200 HP" is 1200, not 1.
  const match = value.trim().match(/^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/);
  return match ? Number(match[0].replace(/,/g, '')) : null;
}

/** Ids drift between string and number; null for anything else or blank text. */
export function toText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  return null;
}

/** From true/false, 1/0, "true"/"false", "1"/"0", or `{is_win: bool}` (history entries); null otherwise. */
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

/** How a match ended for a player or a team. */
export type MatchResult = 'win' | 'loss' | 'draw';

/**
 * A match result from a history row's `is_win` `{score, is_win}`, where `score` says it (1 a win, 0 a loss, 2 a draw: the
 * one draw of the real captures has `{score: 2, is_win: false}`, docs/data.md), else from `is_win` itself; or from a bare
 * true/false, 1/0 or 2 (a match detail's players). Null for anything else.
 */
export function toResult(value: unknown): MatchResult | null {
  if (isRecord(value)) {
    const score = toNumber(value.score);
    return score === 1 ? 'win' : score === 0 ? 'loss' : score === 2 ? 'draw' : 'is_win' in value ? toResult(value.is_win) : null;
  }
  if (toNumber(value) === 2) return 'draw';
  const won = toBoolean(value);
  return won === true ? 'win' : won === false ? 'loss' : null;
}

/** Seconds from a number, numeric text, `{raw, formatted}` (v2 history), or "10m 43s", "1d 2h", "12:34", "1:02:03"; null if unusable. */
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

export const num = () => anything().transform(toNumber);
/** 0 when absent: counters the bot adds and divides. */
export const count = () => anything().transform((v) => toNumber(v) ?? 0);
export const measure = () => anything().transform(toLeadingNumber);
export const text = () => anything().transform(toText);
export const id = () => anything().transform(toText);
/** 0 means "none" (e.g. `cur_hero_id: 0` for a player who never picked a hero). */
export const optionalId = () => anything().transform((v) => (toNumber(v) === 0 ? null : toText(v)));
export const bool = () => anything().transform(toBoolean);
export const flag = () => anything().transform((v) => toBoolean(v) ?? false);
export const seconds = () => anything().transform(toSeconds);
/** From an array, a single text, or nothing. */
export const textList = () =>
  anything().transform((v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map(toText).filter((s): s is string => s !== null));
/** `additional_fields`: every value coerced to text, unusable values dropped. */
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

/** A record without it is dropped from a list, or a single response fails. */
export const requiredText = (what: string) =>
  anything().transform((v, ctx) => {
    const t = toText(v);
    if (t === null) {
      ctx.addIssue({ code: 'custom', message: `${what} is missing or not text` });
      return z.NEVER;
    }
    return t;
  });

/** Null, a missing key or a non-object read as `{}`, so every field falls back. */
export function record<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess((v) => (isRecord(v) ? v : {}), z.object(shape));
}

/** Null for null, a missing key, a non-object or a failed parse. */
export function maybeRecord<T extends z.ZodRawShape>(shape: T) {
  const inner = z.object(shape);
  return anything().transform((v): z.output<typeof inner> | null => {
    if (!isRecord(v)) return null;
    const r = inner.safeParse(v);
    return r.success ? r.data : null;
  });
}

/** A non-array becomes []; elements that fail their schema are dropped rather than failing the response. */
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
