/** Expected outcomes a member is told about; the router maps each to a short ephemeral message (src/discord/respond-errors.ts). */

/** Base class: `message` is for logs; the router builds the member's text from the fields. */
export class UserFacingError extends Error {}

/** `suggestions` are close names, best first. */
export class UnknownHeroError extends UserFacingError {
  override name = 'UnknownHeroError';
  constructor(
    readonly query: string,
    readonly suggestions: string[],
  ) {
    super(`unknown hero "${query}"`);
  }
}

export class PrivateProfileError extends UserFacingError {
  override name = 'PrivateProfileError';
  constructor(readonly playerName: string) {
    super(`private profile "${playerName}"`);
  }
}

/** A custom ID that no route handles (another version, corrupted). */
export class ExpiredComponentError extends UserFacingError {
  override name = 'ExpiredComponentError';
  constructor(readonly customId: string) {
    super(`unknown or expired custom ID "${customId}"`);
  }
}

/** Nobody linked for `/player` with no query (or a member target): `userId` is whose link is missing. */
export class NotLinkedError extends UserFacingError {
  override name = 'NotLinkedError';
  constructor(
    readonly userId: string,
    readonly self: boolean,
    /** The command that needed the account, when the message differs from /player's: it names that command and its option. */
    readonly command?: 'compare' | 'last' | 'scout' | 'session',
  ) {
    super(`no linked account for ${userId}`);
  }
}

/** A player or match the API does not have; `fromMenu`: a button or select asked, so the message does not blame the spelling. */
export class NotFoundError extends UserFacingError {
  override name = 'NotFoundError';
  constructor(
    readonly what: 'player' | 'match',
    readonly query: string,
    readonly fromMenu: boolean,
    /** Names the bot has seen that are close to `query` (src/catalog/players.ts `playerSuggestions`). */
    readonly suggestions: readonly string[] = [],
  ) {
    super(`${what} "${query}" not found`);
  }
}

/** A `season` option that names no season (0.5, 1.25): seasons are 0, 1, 1.5, 2, 2.5, … */
export class SeasonError extends UserFacingError {
  override name = 'SeasonError';
  /** `latest`: the newest season the API lists ("3.5"), when the refusal came from its listing. */
  constructor(
    readonly value: string,
    readonly latest?: string,
  ) {
    super(`no season "${value}"`);
  }
}
