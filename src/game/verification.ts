/**
 * Proof that a member owns a game account: they change the account's player icon in game, which only the owner can do,
 * and a later read of the profile shows it (`player.icon.player_icon_id`, in every real profile). The API's item list
 * names no player icons, so the bot cannot ask for a specific one: any icon other than the one equipped when the proof
 * began counts.
 */

/** How long a proof waits for the change (ms). */
export const VERIFICATION_TTL_MS = 60 * 60_000;
/** Between two checks of one proof (ms), unless the API's update cooldown says later. */
export const VERIFICATION_CHECK_MS = 2 * 60_000;

export type VerificationCheck = 'verified' | 'waiting' | 'expired';

/**
 * Where a proof stands after a read showing `iconNow`: verified once the icon differs from `iconFrom` (a profile read
 * without an icon proves nothing), expired past `expiresAt` (ms, as `now`).
 */
export function checkVerification(iconFrom: string | null, iconNow: string | null, expiresAt: number, now: number): VerificationCheck {
  if (iconNow !== null && iconFrom !== null && iconNow !== iconFrom) return 'verified';
  return now >= expiresAt ? 'expired' : 'waiting';
}
