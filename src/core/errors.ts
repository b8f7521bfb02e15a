/**
 * Expected outcomes that a member should be told about (STYLE.md principle 4). The router maps each
 * to a short, ephemeral message (src/discord/respond-errors.ts).
 */

/** Base class: `message` is for logs; the router builds the member's text from the fields. */
export class UserFacingError extends Error {}

/** A hero name or id matched nothing; `suggestions` are close names, best first. */
export class UnknownHeroError extends UserFacingError {
  override name = 'UnknownHeroError';
  constructor(
    readonly query: string,
    readonly suggestions: string[],
  ) {
    super(`unknown hero "${query}"`);
  }
}

/** The player exists but hides their profile (`isPrivate` in the profile). */
export class PrivateProfileError extends UserFacingError {
  override name = 'PrivateProfileError';
  constructor(readonly playerName: string) {
    super(`private profile "${playerName}"`);
  }
}

/** A component's custom ID that no route handles (another version, corrupted). */
export class ExpiredComponentError extends UserFacingError {
  override name = 'ExpiredComponentError';
  constructor(readonly customId: string) {
    super(`unknown or expired custom ID "${customId}"`);
  }
}

/** `/player` with no query (or a member target) but nobody linked: `userId` is whose link is missing. */
export class NotLinkedError extends UserFacingError {
  override name = 'NotLinkedError';
  constructor(
    readonly userId: string,
    readonly self: boolean,
    /** The command that needed the account, when its message differs from /player's ("compare"). */
    readonly command?: 'compare',
  ) {
    super(`no linked account for ${userId}`);
  }
}

/**
 * A player or match the API does not have. `fromMenu` is true when a button or select asked for it (the
 * member typed nothing, so the message names the thing instead of blaming the spelling).
 */
export class NotFoundError extends UserFacingError {
  override name = 'NotFoundError';
  constructor(
    readonly what: 'player' | 'match',
    readonly query: string,
    readonly fromMenu: boolean,
    /** Names the member may have meant, from what the bot already knows (their links and recent lookups). */
    readonly suggestions: readonly string[] = [],
  ) {
    super(`${what} "${query}" not found`);
  }
}

/** A `season` option that names no season (0.5, 1.25): seasons are 0, 1, 1.5, 2, 2.5, … */
export class SeasonError extends UserFacingError {
  override name = 'SeasonError';
  constructor(readonly value: string) {
    super(`no season "${value}"`);
  }
}
