/**
 * Discord's JSON error codes a delivery (a feed post, an alert, a correction) can end with: which no
 * retry fixes, and how each reads for admins (Discord: "JSON Error Codes").
 */
/** Discord's JSON error code for a message that already has a thread (Discord: "JSON Error Codes"). */
export const THREAD_ALREADY_CREATED = 160004;

/** Discord JSON error codes that no retry fixes (Discord: "JSON Error Codes"), each with the reason kept for the log. */
export const PERMANENT_ERRORS: Readonly<Record<number, string>> = {
  10003: 'Unknown Channel: the channel was deleted',
  10013: 'Unknown User: the user no longer exists',
  50007: 'Cannot send messages to this user: they do not accept direct messages from the bot',
  50001: 'Missing Access: the bot cannot see the channel',
  50013: 'Missing Permissions: the bot cannot post embeds in the channel',
} satisfies Record<PermanentCode, string>;
/** The codes of {@link PERMANENT_ERRORS}: each must have a message for admins in {@link PROBLEM_KEYS} (the type says so). */
type PermanentCode = Exclude<DiscordProblemCode, 10008>;

/** What a 404 means, by the thing looked for: a send's channel, an edit's message. */
const NOT_FOUND: Record<10003 | 10008, string> = { 10003: PERMANENT_ERRORS[10003]!, 10008: 'Unknown Message: the message was deleted' };

/** The message (`config.deliveryProblem.<key>`) of each Discord JSON error code of {@link PERMANENT_ERRORS} and {@link NOT_FOUND}. */
const PROBLEM_KEYS = {
  10003: 'unknownChannel',
  10008: 'unknownMessage',
  10013: 'unknownUser',
  50001: 'missingAccess',
  50007: 'dmClosed',
  50013: 'missingPermissions',
} as const;
/** The Discord JSON error codes a delivery can end with, each with its message key. */
export type DiscordProblemCode = keyof typeof PROBLEM_KEYS;

/** The reason kept for a correction given up after `attempts` temporary failures, the last one's reason being `detail`. */
export const gaveUpReason = (attempts: number, detail: string): string => `gave up after ${attempts} attempts: ${detail}`;

/**
 * A delivery problem as a sentence for admins needs it, from what the store keeps (English, for the
 * log): `discord` for a Discord JSON error code this module knows (10003, 10008, 10013, 50001, 50007,
 * 50013), by `code` or by its reason's text, with `key`, its message under `config.deliveryProblem`;
 * `gaveUp` for {@link gaveUpReason}'s; `other` for the rest (a message Discord or the network gave,
 * kept as it is).
 */
export type DeliveryProblem =
  | { kind: 'discord'; code: DiscordProblemCode; key: (typeof PROBLEM_KEYS)[DiscordProblemCode] }
  | { kind: 'gaveUp'; attempts: number; detail: string }
  | { kind: 'other'; detail: string };

/** Reads a stored reason (and its Discord error code when kept) as a {@link DeliveryProblem}. */
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

/**
 * How a failed send (or edit) is treated: `broken` marks the subscription, or records the edit as failed;
 * `retry` tries again on a later poll. A 404 without a known code means `notFound`: the channel for a
 * send, the message (10008) for an edit.
 */
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
