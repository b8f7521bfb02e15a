/**
 * The acknowledgement policy, transport-free (STYLE.md principle 1): Discord wants an answer within 3 s ("Receiving and Responding"); a View
 * ready by {@link DEFAULT_ACK_DEADLINE_MS} is the reply, else the interaction is deferred and the reply edited. Runtime and playground share it.
 */
import { MessageFlags, type APIApplicationCommandOptionChoice } from 'discord-api-types/v10';
import { AUTOCOMPLETE_DEADLINE_MS, interactionBudget, SEND_RESERVE_MS, settleWithin, type InteractionBudget } from '../core/deadline.js';
import { errorMessageView, toMessagePayload, type MessagePayload, type View } from '../render/view.js';
import { t } from '../render/strings.js';
import type { ComponentResult } from './router.js';

/** A View ready within this many ms of the interaction's creation is sent directly; later ones are deferred first. Well inside 3 s. */
export const DEFAULT_ACK_DEADLINE_MS = 1_500;

/** Newer versions of an answer are edited in for this long from the interaction's creation, ms: inside the token's 15 minutes. */
export const UPDATES_WITHIN_MS = 10 * 60_000;

/** The responses Discord allows to a slash command (types 4 and 5, then the token's webhook routes); `flags` 64 is ephemeral. */
export interface CommandResponder {
  /** CHANNEL_MESSAGE_WITH_SOURCE (type 4). */
  reply(payload: MessagePayload): Promise<void>;
  /** DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (type 5): the "thinking" placeholder, ephemeral or not. */
  defer(ephemeral: boolean): Promise<void>;
  /** PATCH the original response (replaces the placeholder; its visibility stays as deferred, so `flags` is ignored). */
  edit(payload: MessagePayload): Promise<void>;
  deleteReply(): Promise<void>;
  followUp(payload: MessagePayload): Promise<void>;
}

/** The responses Discord allows to a component interaction (types 4, 6 and 7, then the webhook routes). */
export interface ComponentResponder {
  /** UPDATE_MESSAGE (type 7): edit the message the component is on (`flags` is ignored). */
  update(payload: MessagePayload): Promise<void>;
  /** CHANNEL_MESSAGE_WITH_SOURCE (type 4): a new message (ephemeral when the payload says so). */
  reply(payload: MessagePayload): Promise<void>;
  /** DEFERRED_UPDATE_MESSAGE (type 6). */
  deferUpdate(): Promise<void>;
  /** DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (type 5), ephemeral: a private "thinking" placeholder. */
  deferEphemeralReply(): Promise<void>;
  /** PATCH the original response: the component's message after deferUpdate, the placeholder after deferEphemeralReply. */
  edit(payload: MessagePayload): Promise<void>;
  followUp(payload: MessagePayload): Promise<void>;
}

type Outcome<T> = { value: T } | { late: true };

const LATE: Outcome<never> = { late: true };

function within<T>(work: Promise<T>, ms: number): Promise<Outcome<T>> {
  return settleWithin(
    work.then((value): Outcome<T> => ({ value })),
    ms,
    () => LATE,
  );
}

/** When to acknowledge and when to give the final answer; see {@link answerCommand}. */
export interface AnswerTiming {
  /** The interaction's budget from its snowflake (src/core/deadline.ts); default: one created now (the playground, tests). */
  budget?: InteractionBudget;
  /** A View ready within this many ms of the interaction's creation is sent as the reply (default {@link DEFAULT_ACK_DEADLINE_MS}). */
  deadlineMs?: number;
  /** Sent instead when the work has no View by `budget.answerBy` (default: "the API took too long"). */
  late?: () => View;
  /** Told of an edit of a newer version that Discord refused (they stop there). */
  onUpdateError?: (err: unknown) => void;
  now?: () => number;
}

/** The final answer when the budget ran out before the handler's View: an ephemeral "too slow" message. */
export function lateView(): View {
  return errorMessageView(t.apiTimeout());
}

/** Times of one answer: when to stop waiting for a direct reply, and for the final answer (ms from now). */
function timesOf(timing: AnswerTiming): { replyIn: number; ackIn: number; answerIn: number; updatesIn: number; late: () => View } {
  const now = (timing.now ?? Date.now)();
  const budget = timing.budget ?? interactionBudget('', now);
  const replyBy = Math.min(budget.createdAt + (timing.deadlineMs ?? DEFAULT_ACK_DEADLINE_MS), budget.ackBy);
  return {
    replyIn: replyBy - now,
    ackIn: budget.ackBy - now,
    answerIn: budget.answerBy - SEND_RESERVE_MS - now,
    updatesIn: budget.createdAt + UPDATES_WITHIN_MS - now,
    late: timing.late ?? lateView,
  };
}

/** The work of an interaction: running already, or to start once the interaction is acknowledged. */
export type Work<T> = Promise<T> | (() => Promise<T>);

const start = <T>(work: Work<T>): Promise<T> => (typeof work === 'function' ? work() : work);

/**
 * Answers a slash command with `work`'s View, timed from the interaction's creation: a reply if ready within `deadlineMs`, else a deferral
 * (private if `prefersPrivate()` says so by `ackBy`) and an edit, or an ephemeral follow-up for a private answer after a public deferral.
 * Past `answerBy`, `late()` answers. With `deferFirst` (a burst) the deferral goes first and `work` after. Rejects only if the responder does.
 */
export async function answerCommand(
  work: Work<View>,
  responder: CommandResponder,
  options: { prefersPrivate: () => Promise<boolean>; deferFirst?: boolean } & AnswerTiming,
): Promise<void> {
  const times = timesOf(options);
  const now = options.now ?? Date.now;
  const started = now();
  let running: Promise<View> | undefined;
  if (!options.deferFirst) {
    running = start(work);
    const first = await within(running, times.replyIn);
    if ('value' in first) {
      await responder.reply(toMessagePayload(first.value));
      return followNext(first.value, responder, options, times.updatesIn - (now() - started));
    }
  }
  const asked = await within(options.prefersPrivate(), options.deferFirst ? 0 : times.ackIn - (now() - started));
  const privately = 'value' in asked && asked.value;
  await responder.defer(privately);
  running ??= start(work);
  const final = await within(running, times.answerIn - (now() - started));
  const view = 'value' in final ? final.value : times.late();
  const payload = toMessagePayload(view);
  if (view.ephemeral && !privately) {
    // A follow-up is not the original response: its newer versions could not be edited in.
    await responder.deleteReply();
    await responder.followUp(payload);
  } else {
    await responder.edit(payload);
    await followNext(view, responder, options, times.updatesIn - (now() - started));
  }
}

/**
 * Edits the original response with each newer version of `view` ({@link View.next}) as it comes, for at most `ms`. An edit
 * Discord refuses (the answer was deleted) ends them, and is logged, not thrown: the answer was given.
 */
async function followNext(view: View, responder: { edit(payload: MessagePayload): Promise<void> }, timing: AnswerTiming, ms: number): Promise<void> {
  const now = timing.now ?? Date.now;
  const until = now() + ms;
  let current = view;
  while (current.next) {
    const got = await within(current.next(), until - now());
    if (!('value' in got) || !got.value) return;
    current = got.value;
    try {
      await responder.edit(toMessagePayload(current));
    } catch (err) {
      timing.onUpdateError?.(err);
      return;
    }
  }
}

/**
 * Answers a component with the router's {@link ComponentResult}: within `deadlineMs` an update or ephemeral reply; later a deferral (an update
 * for the invoker's own press, a private placeholder for anyone else's) then an edit or a private follow-up. Past `answerBy`, `late()`.
 * Newer versions of the View ({@link View.next}) are then edited into the original response, as {@link answerCommand} does.
 */
export async function answerComponent(
  work: Work<ComponentResult>,
  own: boolean,
  responder: ComponentResponder,
  timing: AnswerTiming & { deferFirst?: boolean } = {},
): Promise<void> {
  const times = timesOf(timing);
  const now = timing.now ?? Date.now;
  const started = now();
  let running: Promise<ComponentResult> | undefined;
  if (!timing.deferFirst) {
    running = start(work);
    const first = await within(running, times.replyIn);
    if ('value' in first) {
      const payload = toMessagePayload(first.value.view);
      await (first.value.mode === 'update' ? responder.update(payload) : responder.reply(payload));
      // Either way the message just sent is the interaction's original response: its newer versions are edited into it.
      return followNext(first.value.view, responder, timing, times.updatesIn - (now() - started));
    }
  }
  if (own) await responder.deferUpdate();
  else await responder.deferEphemeralReply();
  running ??= start(work);
  const final = await within(running, times.answerIn - (now() - started));
  const result: ComponentResult = 'value' in final ? final.value : { view: times.late(), mode: 'reply' };
  const payload = toMessagePayload(result.view);
  // A follow-up is not the original response: its newer versions could not be edited in.
  if (own && result.mode === 'reply') await responder.followUp({ ...payload, flags: MessageFlags.Ephemeral });
  else {
    await responder.edit(payload);
    await followNext(result.view, responder, timing, times.updatesIn - (now() - started));
  }
}

/** Autocomplete choices from `work`, or [] once {@link AUTOCOMPLETE_DEADLINE_MS} from creation has passed: autocomplete cannot be deferred. */
export async function answerAutocomplete(
  work: Promise<APIApplicationCommandOptionChoice[]>,
  deadlineMs = AUTOCOMPLETE_DEADLINE_MS,
  budget?: InteractionBudget,
): Promise<APIApplicationCommandOptionChoice[]> {
  const now = Date.now();
  const createdAt = budget?.createdAt ?? now;
  const first = await within(work, createdAt + deadlineMs - now);
  return 'value' in first ? first.value : [];
}
