/** The custom-ID codec: `route:arg:arg`, at most 100 characters (Discord: "Message Components"); `%` and `:` escaped in arguments. */

export const MAX_CUSTOM_ID_LENGTH = 100;

/** Thrown when state does not fit a custom ID: a programming error, caught by tests. */
export class CustomIdTooLongError extends Error {
  override name = 'CustomIdTooLongError';
  constructor(readonly customId: string) {
    super(`custom ID of ${customId.length} characters exceeds ${MAX_CUSTOM_ID_LENGTH}: ${customId.slice(0, 120)}`);
  }
}

/** A decoded custom ID. */
export interface CustomId {
  route: string;
  args: string[];
}

const escapeArg = (s: string) => s.replace(/%/g, '%25').replace(/:/g, '%3A');
const unescapeArg = (s: string) => s.replace(/%3A/gi, ':').replace(/%25/g, '%');

/**
 * Encodes a route (letters, digits, `-`, `_`, `.`) and its arguments.
 * @throws {RangeError} for an invalid route; {@link CustomIdTooLongError} over 100 characters.
 */
export function encodeCustomId(route: string, ...args: (string | number)[]): string {
  if (!/^[\w.-]+$/.test(route)) throw new RangeError(`invalid custom ID route "${route}"`);
  const id = [route, ...args.map((a) => escapeArg(String(a)))].join(':');
  if (id.length > MAX_CUSTOM_ID_LENGTH) throw new CustomIdTooLongError(id);
  return id;
}

/**
 * {@link encodeCustomId}, or null when the ID would be over 100 characters: for an ID made from another custom ID's
 * arguments, which anyone can lengthen to the limit.
 * @throws {RangeError} for an invalid route.
 */
export function encodeCustomIdIfFits(route: string, ...args: (string | number)[]): string | null {
  try {
    return encodeCustomId(route, ...args);
  } catch (err) {
    if (err instanceof CustomIdTooLongError) return null;
    throw err;
  }
}

/** Decodes a custom ID; null for anything this codec did not make (another bot's, a corrupted one). */
export function decodeCustomId(customId: string): CustomId | null {
  if (typeof customId !== 'string' || customId.length === 0 || customId.length > MAX_CUSTOM_ID_LENGTH) return null;
  const [route, ...args] = customId.split(':');
  if (!route || !/^[\w.-]+$/.test(route)) return null;
  return { route, args: args.map(unescapeArg) };
}

/** The bounds of a whole-number argument: the range it is clamped into, and what stands for anything that is not one. */
export interface WholeArg {
  min: number;
  max: number;
  fallback: number;
}

/**
 * The highest page a page button may carry: beyond any list the bot pages (a server ladder of every member of the
 * largest servers), and small enough that the store's offset of a page stays a safe integer in SQLite and PostgreSQL.
 */
export const MAX_PAGE = 1_000_000;

/** A page number's bounds: 1 to {@link MAX_PAGE}, the first page for anything else. */
export const PAGE_ARG: WholeArg = { min: 1, max: MAX_PAGE, fallback: 1 };

/**
 * A whole number read from a custom ID's argument, the one way a handler reads a number from a custom ID: anyone can
 * send any custom ID, so what reaches a handler is always an integer within `min..max`. Only what {@link encodeCustomId}
 * writes for an integer is read (optional `-`, decimal digits); `''`, `NaN`, `1e308`, `2.5`, `0x10`, `+1` or spaces give
 * `fallback`; a number past either bound (a digit string of any length) is clamped to it.
 * @throws {RangeError} when the bounds themselves are not integers with min ≤ fallback ≤ max (a programming error).
 */
export function wholeArg(arg: string | undefined, bounds: WholeArg): number {
  const { min, max, fallback } = bounds;
  if (![min, max, fallback].every(Number.isSafeInteger) || min > fallback || fallback > max) throw new RangeError(`invalid bounds ${JSON.stringify(bounds)}`);
  if (arg === undefined || !/^-?\d+$/.test(arg)) return fallback;
  // A digit string too long for a double reads as ±Infinity or a huge number and clamps to a bound; `|| 0` turns -0 into 0.
  return Math.min(max, Math.max(min, Number(arg))) || 0;
}

/** A page number read from a custom ID's argument: an integer from 1 to {@link MAX_PAGE}, 1 for anything else. */
export function pageArg(arg: string | undefined): number {
  return wholeArg(arg, PAGE_ARG);
}

/**
 * The length of a key that state too long for a custom ID is kept under in the store (STYLE.md principle 2): URL-safe
 * base64 characters, which the codec carries as they are. src/store/back-targets.ts makes them.
 */
export const STORE_KEY_LENGTH = 10;

/**
 * A store key read from a custom ID's argument, the one way a handler reads one: exactly {@link STORE_KEY_LENGTH} of
 * `A-Z a-z 0-9 - _`, null for anything else (nothing, an old ID without one, a crafted one), which then reads nothing.
 */
export function storeKeyArg(arg: string | undefined): string | null {
  return arg !== undefined && arg.length === STORE_KEY_LENGTH && /^[\w-]+$/.test(arg) ? arg : null;
}
