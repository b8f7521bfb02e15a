/** Small rendering pieces shared by commands. */
import type { APIEmbedFooter } from 'discord-api-types/v10';
import type { Fetched } from '../cache/response-cache.js';
import { t } from '../strings.js';

/** Embed colours of the three roles (Vanguard blue, Duelist red, Strategist green); blurple otherwise. */
export function roleColour(role: string | null | undefined): number {
  switch (role?.toLowerCase()) {
    case 'vanguard':
      return 0x3b82f6;
    case 'duelist':
      return 0xef4444;
    case 'strategist':
      return 0x22c55e;
    default:
      return 0x5865f2;
  }
}

/** "12 minutes", "3 hours", "2 days": how old stale data is. */
export function humanAge(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'}`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/** A footer saying the data is stale and how old it is; undefined for fresh data. */
export function staleFooter(fetched: Pick<Fetched<unknown>, 'stale' | 'ageMs'> | undefined): APIEmbedFooter | undefined {
  return fetched?.stale ? { text: t.staleNote(humanAge(fetched.ageMs)) } : undefined;
}
