/**
 * The playground's "In game" panel over the replica's game (src/replica/in-game.ts): what a member does in Marvel Rivals
 * that the bot can only see through the API. Equipping another icon is the proof of ownership's step; reaching another
 * rank is seen at the tracker's next read, which the panel asks for at once, and then in the server's rank roles.
 */
import { createImageResolver } from '../api/images.js';
import { tierOfLevel } from '../game/ranks.js';
import { TOP_LEVEL } from '../replica/in-game.js';
import type { InGameStatus, Replica } from '../replica/server.js';
import type { State } from '../store/state.js';
import type { GamePlayer, GameState } from './protocol.js';

/** What the page's "In game" panel does. Each method that names a player throws {@link RangeError} for one the replica does not have. */
export interface PlaygroundGame {
  /** Every replica player, the icons and ranks on offer, and the accounts `memberId` linked (their default first). */
  state(memberId: string): Promise<GameState>;
  equipIcon(uid: string, iconId: string): Promise<GamePlayer>;
  /** Resolves once the tracker has read the player and the rank roles are in step. */
  setRank(uid: string, level: number): Promise<GamePlayer>;
  skipUpdateCooldown(uid: string): Promise<GamePlayer>;
}

export interface PlaygroundGameOptions {
  replica: Replica;
  state: State;
  imageBaseUrl: string;
  /** Reads `uid` now, as the tracker would at its next turn, records what changed, and brings the rank roles in step. */
  readNow: (uid: string) => Promise<void>;
}

/** The panel over `o.replica`. */
export function playgroundGame(o: PlaygroundGameOptions): PlaygroundGame {
  const resolve = createImageResolver(o.imageBaseUrl);
  const icon = (i: { id: string; path: string } | null) => (i ? { id: i.id, url: resolve(i.path) ?? i.path } : null);
  const shown = (s: InGameStatus): GamePlayer => ({ ...s, shown: icon(s.shown), equipped: icon(s.equipped) });
  const statusOf = (uid: string) => {
    const status = o.replica.game.status(uid);
    if (!status) throw new RangeError(`the replica has no player ${uid}`);
    return status;
  };
  return {
    async state(memberId) {
      const links = await o.state.links.get(memberId);
      const linked = links.accounts.map((a) => a.uid).sort((a, b) => Number(b === links.defaultUid) - Number(a === links.defaultUid));
      const players = [...o.replica.dataset.players.keys()].map((uid) => shown(statusOf(uid))).sort((a, b) => a.name.localeCompare(b.name));
      return {
        players,
        icons: o.replica.game.icons().map((i) => icon(i)!),
        ranks: Array.from({ length: TOP_LEVEL }, (_, i) => ({ level: i + 1, name: tierOfLevel(i + 1)! })),
        linked,
      };
    },
    async equipIcon(uid, iconId) {
      return shown(o.replica.game.equipIcon(uid, iconId));
    },
    async setRank(uid, level) {
      const status = o.replica.game.setRank(uid, level);
      await o.readNow(status.uid);
      return shown(statusOf(status.uid));
    },
    async skipUpdateCooldown(uid) {
      return shown(o.replica.game.skipUpdateCooldown(uid));
    },
  };
}
