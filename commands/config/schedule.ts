/** The schedule options `/config feed` and `/config ladder` share: quiet hours, a time zone, a digest and its time. */
import { UserFacingError } from '../../src/core/errors.js';
import { DIGEST_EVERY, type DigestSchedule } from '../../src/feeds/digest.js';
import { canonicalTimeZone, parseClock, parseQuietHours, type QuietHours } from '../../src/feeds/schedule.js';
import { typedWord } from '../../src/i18n/index.js';
import { escapeText } from '../../src/render/limits.js';
import { t } from '../../src/render/strings.js';

/** What one run of `/config feed` asks to change; a field absent (option not given) keeps what the subscription had. */
export interface FeedRequest {
  channelId: string;
  roleId?: string;
  publish?: boolean;
  backfill?: number;
  /** Hero ids; null for `off` (every balance post). */
  heroes?: string[] | null;
  /** null for `off` (no quiet hours). */
  quiet?: QuietHours | null;
  /** An IANA zone; null for UTC. */
  timeZone?: string | null;
  digest?: 'off' | DigestSchedule['every'];
  /** The digest's local time, minutes since midnight. */
  at?: number;
  threads?: boolean;
}

/**
 * The schedule options as typed: `quiet` (`off` for none), `timezone`, `digest` and `at`, each absent when not given.
 * @throws {UserFacingError} naming what to type when one cannot be read.
 */
export function scheduleOf(
  quietText: unknown,
  zoneText: unknown,
  digestText: unknown,
  atText: unknown,
): Pick<FeedRequest, 'quiet' | 'timeZone' | 'digest' | 'at'> {
  const out: Pick<FeedRequest, 'quiet' | 'timeZone' | 'digest' | 'at'> = {};
  if (typeof zoneText === 'string' && zoneText.trim() !== '') {
    const zone = canonicalTimeZone(zoneText);
    if (!zone) throw new UserFacingError(t.unknownTimeZone(escapeText(zoneText.trim(), 64)));
    out.timeZone = zone === 'UTC' ? null : zone;
  }
  if (typeof quietText === 'string' && quietText.trim() !== '') {
    if (typedWord(quietText, ['off', 'none', 'no'], 'config:quietOff')) out.quiet = null;
    else {
      const quiet = parseQuietHours(quietText);
      if (!quiet) throw new UserFacingError(t.badQuietHours(escapeText(quietText.trim(), 40)));
      out.quiet = quiet;
    }
  }
  if (digestText === 'off') out.digest = 'off';
  const every = DIGEST_EVERY.find((d) => d === digestText);
  if (every) out.digest = every;
  if (typeof atText === 'string' && atText.trim() !== '') {
    const at = parseClock(atText.trim());
    if (at === null) throw new UserFacingError(t.badDigestTime(escapeText(atText.trim(), 10)));
    out.at = at;
  }
  return out;
}
