/** Measuring one interaction for the metrics: its outcome, and the times of its acknowledgement and final answer from its creation. */
import { InteractionResponseType } from 'discord-api-types/v10';
import type { InteractionKind, InteractionOutcome, Metrics } from '../core/metrics.js';
import type { MessagePayload, View } from '../render/view.js';
import { lateView } from './respond.js';
import type { Callback } from './responders.js';

/** What the metrics hear of one interaction; the runtime wraps its callback and webhook routes with it, and taps the handler's result. */
export interface Meter {
  /** `respond`, which on success also records the acknowledgement, and the final answer unless it was a deferral (types 5 and 6). */
  callback(respond: Callback): Callback;
  /** The webhook routes, whose edit and follow-up record the final answer after a deferral. */
  webhook<W extends { edit(payload: MessagePayload): Promise<void>; followUp(payload: MessagePayload): Promise<void> }>(webhook: W): W;
  /** `work`, noting when it settles and whether its View (`viewOf`) is an error message. */
  result<T>(work: Promise<T>, viewOf?: (value: T) => View): Promise<T>;
  /** Whether the work given to {@link result} has settled (always true for {@link NO_METER}). */
  readonly settled: boolean;
  /** The answer policy's `late` (./respond.ts): notes that the final answer is the "took too long" message, and returns it. */
  late: () => View;
  /** Counts the interaction with `outcome`; default: `late`, `error` or `answered` from what was noted. */
  end(outcome?: InteractionOutcome): void;
}

/** The meter when metrics are off: passes everything through, records nothing. */
export const NO_METER: Meter = {
  callback: (respond) => respond,
  webhook: (webhook) => webhook,
  result: (work) => work,
  settled: true,
  late: lateView,
  end: () => undefined,
};

/** The {@link Meter} of one interaction created at `createdAt` (ms since the epoch: its budget's, from the snowflake, src/core/deadline.ts). */
export class InteractionMeter implements Meter {
  settled = false;
  #late = false;
  #error = false;
  #answered = false;

  constructor(
    private readonly metrics: Metrics,
    private readonly kind: InteractionKind,
    private readonly name: string,
    private readonly createdAt: number,
  ) {}

  callback(respond: Callback): Callback {
    return async (body, files) => {
      await respond(body, files);
      const seconds = this.#seconds();
      this.metrics.ack(this.kind, seconds);
      if (body.type !== InteractionResponseType.DeferredChannelMessageWithSource && body.type !== InteractionResponseType.DeferredMessageUpdate)
        this.#answer(seconds);
    };
  }

  webhook<W extends { edit(payload: MessagePayload): Promise<void>; followUp(payload: MessagePayload): Promise<void> }>(webhook: W): W {
    return {
      ...webhook,
      edit: async (payload: MessagePayload) => {
        await webhook.edit(payload);
        this.#answer(this.#seconds());
      },
      followUp: async (payload: MessagePayload) => {
        await webhook.followUp(payload);
        this.#answer(this.#seconds());
      },
    };
  }

  result<T>(work: Promise<T>, viewOf?: (value: T) => View): Promise<T> {
    return work.then((value) => {
      this.settled = true;
      if (viewOf?.(value).isError) this.#error = true;
      return value;
    });
  }

  late = (): View => {
    this.#late = true;
    return lateView();
  };

  end(outcome?: InteractionOutcome): void {
    this.metrics.interaction(this.kind, this.name, outcome ?? (this.#late ? 'late' : this.#error ? 'error' : 'answered'));
  }

  // The first final answer is the answer time: a newer version edited in later (a scout's profiles arriving) is not another answer.
  #answer(seconds: number): void {
    if (this.#answered) return;
    this.#answered = true;
    this.metrics.answer(this.kind, seconds);
  }

  #seconds(): number {
    return (Date.now() - this.createdAt) / 1000;
  }
}
