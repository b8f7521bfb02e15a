/**
 * What the replica holds to try, as the playground's welcome lists it: its players (and which seeded ladder member is
 * listed by each) and its matches. docs/playground.md carries the same list ({@link samplesMarkdown}); a test keeps the two equal.
 */
import type { Dataset } from '../replica/data/dataset.js';
import type { ReplicaSamples } from './protocol.js';
import type { LadderSeat } from './seed-ladder.js';

/** From the dataset the replica serves; `seats` the seeded ladder's members. */
export function replicaSamples(dataset: Pick<Dataset, 'players' | 'matches'>, seats: readonly LadderSeat[]): ReplicaSamples {
  const players = [...dataset.players].map(([uid, body]) => {
    const player = body.player as { name?: unknown } | undefined;
    return { uid, name: String(body.name ?? player?.name ?? uid), member: seats.find((s) => s.uid === uid)?.name ?? null };
  });
  return {
    players: players.sort((a, b) => a.name.localeCompare(b.name, 'en')),
    matches: [...dataset.matches.keys()].sort(),
  };
}

/** The list as docs/playground.md writes it: a line per player (on the seeded ladder, or free to link), then a line of match ids. */
export function samplesMarkdown(samples: ReplicaSamples): string {
  return [
    ...samples.players.map((p) => `- **${p.name}** (UID \`${p.uid}\`): ${p.member === null ? 'free to link and prove' : 'on the seeded ladder'}`),
    `- Matches: ${samples.matches.map((m) => `\`${m}\``).join(', ')}`,
  ].join('\n');
}
