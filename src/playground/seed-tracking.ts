/**
 * Offline, the playground's store starts with the history of the sample players captured more than once, recorded as the
 * tracker would have read each capture in date order, so /player shows a tracked player's timeline at once.
 */
import { createImageResolver } from '../api/images.js';
import { createSchemas } from '../api/schemas.js';
import type { Logger } from '../core/logger.js';
import { readForTracking } from '../game/tracking.js';
import type { ProfileCapture } from '../replica/data/dataset.js';
import type { State } from '../store/state.js';

/** The member whose links keep the seeded players tracked: nobody who can use the playground. */
export const SEED_MEMBER_ID = '100000000000000000';

/**
 * Links each player with several captures to {@link SEED_MEMBER_ID} and records its captures oldest first, each read a
 * minute after its newest match. Does nothing for a player the store already holds snapshots of (a playground restarted).
 * @returns the players seeded.
 */
export async function seedTracking(state: State, captures: readonly ProfileCapture[], imageBaseUrl: string, logger: Logger): Promise<string[]> {
  const schemas = createSchemas(createImageResolver(imageBaseUrl));
  const byUid = new Map<string, ProfileCapture[]>();
  for (const c of captures) byUid.set(c.uid, [...(byUid.get(c.uid) ?? []), c]);
  const seeded: string[] = [];
  for (const [uid, list] of byUid) {
    if (list.length < 2 || (await state.tracking.snapshots(uid)).length > 0) continue;
    const reads = list
      .map((c) => ({ file: c.file, read: readForTracking(schemas.player.parse(c.body)) }))
      .flatMap((x) => (x.read.kind === 'read' && x.read.lastMatchAt !== null ? [{ ...x, read: x.read, at: x.read.lastMatchAt * 1000 + 60_000 }] : []))
      .sort((a, b) => a.at - b.at);
    if (reads.length < 2) continue;
    const name = schemas.player.parse(list[0]!.body).name;
    await state.links.link(SEED_MEMBER_ID, { uid, name }, false, reads[0]!.at);
    await state.tracking.follow(uid, reads[0]!.at);
    for (const { read, at } of reads) {
      const claim = (await state.tracking.claim(at, 1_000, 60_000)).find((c) => c.uid === uid);
      if (claim) await state.tracking.recordRead(claim, { ...read, changed: true }, { intervalMs: 1 }, at);
    }
    seeded.push(uid);
  }
  if (seeded.length > 0) logger.info({ players: seeded }, 'the playground starts with the tracked history of the players captured several times');
  return seeded;
}
