/**
 * Checks the proofs of account ownership under way (src/game/verification.ts): asks the API to refresh the profile
 * (its update endpoint, within its cooldown), reads it, and verifies the link once the player icon changed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RivalsApi } from '../api/client.js';
import type { Priority } from '../api/rate-limiter.js';
import { ApiError } from '../core/api-errors.js';
import type { Logger } from '../core/logger.js';
import { checkVerification, VERIFICATION_CHECK_MS, type VerificationCheck } from '../game/verification.js';
import type { PendingVerification, VerificationsRepository } from '../store/verifications.js';

/** Between two looks for due proofs (ms). */
const POLL_MS = 30_000;

/** The API's update cooldown for this player, ms, when `err` is it ("You can request an update in 16 minutes."). */
export function updateCooldownMs(err: unknown): number | null {
  return err instanceof ApiError &&
    err.kind === 'rate_limited' &&
    !err.retryAfterFromHeader &&
    err.retryAfterMs !== undefined &&
    /request an update in/i.test(err.upstreamMessage ?? '')
    ? err.retryAfterMs
    : null;
}

/**
 * One check of a proof: the update asked (a cooldown only delays the next check), the profile read fresh, then the proof
 * verified, expired or rescheduled. `nextCheckAt` (ms) when still waiting.
 * @throws the API's error when the profile cannot be read (the proof stays due), the store's when it cannot be written.
 */
export async function checkOwnership(
  v: PendingVerification,
  deps: {
    api: Pick<RivalsApi, 'player' | 'playerUpdate'>;
    verifications: VerificationsRepository;
    now: () => number;
    priority: Priority;
    signal?: AbortSignal;
  },
): Promise<{ outcome: VerificationCheck; nextCheckAt?: number }> {
  const options = { priority: deps.priority, ...(deps.signal ? { signal: deps.signal } : {}) };
  let cooldown = 0;
  try {
    await deps.api.playerUpdate(v.uid, options);
  } catch (err) {
    const wait = updateCooldownMs(err);
    // Only the cooldown matters here: a refused update still leaves the profile to read.
    if (wait === null && !(err instanceof ApiError)) throw err;
    cooldown = wait ?? 0;
  }
  const profile = (await deps.api.player(v.uid, {}, { ...options, fresh: true })).data;
  const now = deps.now();
  const outcome = checkVerification(v.iconFrom, profile.icon_id, v.expiresAt, now);
  if (outcome !== 'waiting') {
    await deps.verifications.finish(v.userId, v.uid, outcome === 'verified', now);
    return { outcome };
  }
  const nextCheckAt = Math.min(v.expiresAt, now + Math.max(VERIFICATION_CHECK_MS, cooldown));
  await deps.verifications.reschedule(v.userId, v.uid, nextCheckAt, now);
  return { outcome, nextCheckAt };
}

export interface LinkVerifierOptions {
  api: Pick<RivalsApi, 'player' | 'playerUpdate'>;
  verifications: VerificationsRepository;
  logger: Logger;
  now?: () => number;
  /** Between two looks for due proofs (ms); tests shorten it. */
  pollMs?: number;
}

/** `start()` checks due proofs until `stop()`; `tick()` checks once (tests). */
export class LinkVerifier {
  readonly #o: LinkVerifierOptions;
  readonly #now: () => number;
  readonly #stopping = new AbortController();
  #loop: Promise<void> | undefined;

  constructor(options: LinkVerifierOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    this.#loop ??= (async () => {
      const signal = this.#stopping.signal;
      while (!signal.aborted) {
        await this.tick();
        await sleep(this.#o.pollMs ?? POLL_MS, undefined, { signal }).catch(() => undefined);
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stopping.abort(new Error('the link verifier was stopped'));
    await this.#loop;
  }

  /** Checks every proof due now, one after another; never rejects (a failure is logged, the proof stays due). */
  async tick(): Promise<void> {
    let due: PendingVerification[];
    try {
      due = await this.#o.verifications.due(this.#now(), 20);
    } catch (err) {
      this.#o.logger.warn({ err }, 'could not read the proofs of ownership under way');
      return;
    }
    for (const v of due) {
      if (this.#stopping.signal.aborted) return;
      try {
        const { outcome } = await checkOwnership(v, { ...this.#o, now: this.#now, priority: 'background', signal: this.#stopping.signal });
        if (outcome !== 'waiting') this.#o.logger.info({ uid: v.uid, outcome }, 'a proof of account ownership ended');
      } catch (err) {
        if (this.#stopping.signal.aborted) return;
        this.#o.logger.warn({ err, uid: v.uid }, 'could not check a proof of account ownership; tried again later');
        // An expired proof ends even when its last read failed, so none waits forever.
        if (this.#now() >= v.expiresAt) await this.#o.verifications.finish(v.userId, v.uid, false, this.#now()).catch(() => undefined);
      }
    }
  }
}
