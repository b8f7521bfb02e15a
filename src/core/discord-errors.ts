/** Discord JSON error codes a delivery (feed post, alert, correction) can end with (Discord: "JSON Error Codes"). */
export const THREAD_ALREADY_CREATED = 160004;

/** Codes no retry fixes, each with the reason kept for the log. */
export const PERMANENT_ERRORS: Readonly<Record<number, string>> = {
  10003: 'Unknown Channel: the channel was deleted',
  10013: 'Unknown User: the user no longer exists',
  50007: 'Cannot send messages to this user: they do not accept direct messages from the bot',
  50001: 'Missing Access: the bot cannot see the channel',
  50013: 'Missing Permissions: the bot cannot post embeds in the channel',
} satisfies Record<PermanentCode, string>;
/** Each permanent code must have an admin message in {@link PROBLEM_KEYS}; the type enforces it. */
type PermanentCode = Exclude<DiscordProblemCode, 10008>;

const NOT_FOUND: Record<10003 | 10008, string> = { 10003: PERMANENT_ERRORS[10003]!, 10008: 'Unknown Message: the message was deleted' };

/** The message key under `config.deliveryProblem` of each code. */
const PROBLEM_KEYS = {
  10003: 'unknownChannel',
  10008: 'unknownMessage',
  10013: 'unknownUser',
  50001: 'missingAccess',
  50007: 'dmClosed',
  50013: 'missingPermissions',
} as const;
export type DiscordProblemCode = keyof typeof PROBLEM_KEYS;

export const gaveUpReason = (attempts: number, detail: string): string => `gave up after ${attempts} attempts: ${detail}`;

/** A stored delivery problem for admins: `discord` (a known code, by code or reason text, with its key), `gaveUp` ({@link gaveUpReason}), or `other`. */
export type DeliveryProblem =
  | { kind: 'discord'; code: DiscordProblemCode; key: (typeof PROBLEM_KEYS)[DiscordProblemCode] }
  | { kind: 'gaveUp'; attempts: number; detail: string }
  | { kind: 'other'; detail: string };

export function deliveryProblem(reason: string, code?: number | null): DeliveryProblem {
  const known: Record<number, string> = { ...PERMANENT_ERRORS, ...NOT_FOUND };
  const discord = (c: number): DeliveryProblem => ({ kind: 'discord', code: c as DiscordProblemCode, key: PROBLEM_KEYS[c as DiscordProblemCode] });
  if (code !== undefined && code !== null && known[code] !== undefined) return discord(code);
  const byText = Object.keys(known).find((c) => known[Number(c)] === reason);
  if (byText !== undefined) return discord(Number(byText));
  const gaveUp = /^gave up after (\d+) attempts: ([\s\S]*)$/.exec(reason);
  if (gaveUp) return { kind: 'gaveUp', attempts: Number(gaveUp[1]), detail: gaveUp[2]! };
  return { kind: 'other', detail: reason };
}

/** A failed send or edit: `broken` (no retry fixes it) or `retry`; a 404 without a code is `notFound` (channel for a send, message for an edit). */
export function classifyError(
  err: unknown,
  notFound: 10003 | 10008 = 10003,
): { kind: 'broken'; code: number; reason: string } | { kind: 'retry'; reason: string } {
  const e = err as { code?: unknown; status?: unknown; message?: unknown };
  const code = typeof e.code === 'number' ? e.code : null;
  if (code !== null && PERMANENT_ERRORS[code]) return { kind: 'broken', code, reason: PERMANENT_ERRORS[code] };
  if (code === notFound || e.status === 404) return { kind: 'broken', code: code ?? notFound, reason: NOT_FOUND[notFound] };
  if (e.status === 403) return { kind: 'broken', code: code ?? 50013, reason: PERMANENT_ERRORS[50013]! };
  return { kind: 'retry', reason: typeof e.message === 'string' ? e.message : String(err) };
}
