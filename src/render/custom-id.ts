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

/** Decodes a custom ID; null for anything this codec did not make (another bot's, a corrupted one). */
export function decodeCustomId(customId: string): CustomId | null {
  if (typeof customId !== 'string' || customId.length === 0 || customId.length > MAX_CUSTOM_ID_LENGTH) return null;
  const [route, ...args] = customId.split(':');
  if (!route || !/^[\w.-]+$/.test(route)) return null;
  return { route, args: args.map(unescapeArg) };
}
