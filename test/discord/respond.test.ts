import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerAutocomplete, answerCommand, answerComponent, type CommandResponder, type ComponentResponder } from '../../src/discord/respond.js';
import type { View } from '../../src/render/view.js';
import { DISCORD_EPOCH_MS, interactionBudget, MAX_TRUSTED_AGE_MS, snowflakeTime } from '../../src/core/deadline.js';

/** A snowflake minted at `at` (ms since the epoch), as Discord mints interaction ids. */
const snowflakeAt = (at: number) => String((BigInt(at - DISCORD_EPOCH_MS) << 22n) | 12345n);

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const view = (text: string, ephemeral = false): View => ({ content: text, ephemeral });

/** A responder that records each call as `name(content|flags)`. */
function recorder() {
  const calls: string[] = [];
  const record = (name: string) => async (arg?: unknown) => {
    calls.push(
      arg === undefined
        ? name
        : typeof arg === 'boolean'
          ? `${name}(${arg})`
          : `${name}(${(arg as { content: string; flags: number }).content}|${(arg as { flags: number }).flags})`,
    );
  };
  const command: CommandResponder = {
    reply: record('reply'),
    defer: record('defer'),
    edit: record('edit'),
    deleteReply: record('deleteReply'),
    followUp: record('followUp'),
  };
  const component: ComponentResponder = {
    update: record('update'),
    reply: record('reply'),
    deferUpdate: record('deferUpdate'),
    deferEphemeralReply: record('deferEphemeralReply'),
    edit: record('edit'),
    followUp: record('followUp'),
  };
  return { calls, command, component };
}

describe('the acknowledgement policy', () => {
  it('replies directly with a View ready before the deadline', async () => {
    const r = recorder();
    await answerCommand(later(view('fast'), 5), r.command, { prefersPrivate: async () => false, deadlineMs: 200 });
    expect(r.calls).toEqual(['reply(fast|0)']);
  });

  it('defers a slow View (publicly, or privately when the server asks) and edits the placeholder', async () => {
    const pub = recorder();
    await answerCommand(later(view('slow'), 80), pub.command, { prefersPrivate: async () => false, deadlineMs: 20 });
    expect(pub.calls).toEqual(['defer(false)', 'edit(slow|0)']);
    const priv = recorder();
    await answerCommand(later(view('slow', true), 80), priv.command, { prefersPrivate: async () => true, deadlineMs: 20 });
    expect(priv.calls).toEqual(['defer(true)', 'edit(slow|64)']);
  });

  it('replaces a public placeholder with an ephemeral follow-up when the late answer is private (an error)', async () => {
    const r = recorder();
    await answerCommand(later(view('error', true), 80), r.command, { prefersPrivate: async () => false, deadlineMs: 20 });
    expect(r.calls).toEqual(['defer(false)', 'deleteReply', 'followUp(error|64)']);
  });

  it('updates or replies at once for a fast component; defers by whose press it is for a slow one', async () => {
    const fast = recorder();
    await answerComponent(later({ view: view('page 2'), mode: 'update' as const }, 5), true, fast.component, { deadlineMs: 200 });
    expect(fast.calls).toEqual(['update(page 2|0)']);

    const own = recorder();
    await answerComponent(later({ view: view('page 2'), mode: 'update' as const }, 80), true, own.component, { deadlineMs: 20 });
    expect(own.calls).toEqual(['deferUpdate', 'edit(page 2|0)']);

    const other = recorder();
    await answerComponent(later({ view: view('copy', true), mode: 'reply' as const }, 80), false, other.component, { deadlineMs: 20 });
    expect(other.calls).toEqual(['deferEphemeralReply', 'edit(copy|64)']);

    const ownPrivate = recorder();
    await answerComponent(later({ view: view('read it', true), mode: 'reply' as const }, 80), true, ownPrivate.component, { deadlineMs: 20 });
    expect(ownPrivate.calls).toEqual(['deferUpdate', 'followUp(read it|64)']);
  });

  it('edits in each newer version of an answer as it comes, after a reply or after a deferral, and stops at the last', async () => {
    // Each version comes when the test says, so the order is the answer's, not the clock's.
    const gate = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };
    const gates = [gate(), gate()];
    const chained = (n: number): View => ({
      content: `v${n}`,
      ...(n < 2 ? { next: () => gates[n]!.promise.then(() => chained(n + 1)) } : {}),
    });
    const r = recorder();
    const done = answerCommand(Promise.resolve(chained(0)), r.command, { prefersPrivate: async () => false, deadlineMs: 200 });
    await vi.waitFor(() => expect(r.calls).toEqual(['reply(v0|0)']));
    gates[0]!.resolve();
    await vi.waitFor(() => expect(r.calls).toEqual(['reply(v0|0)', 'edit(v1|0)']));
    gates[1]!.resolve();
    await done;
    expect(r.calls).toEqual(['reply(v0|0)', 'edit(v1|0)', 'edit(v2|0)']);
    const deferred = recorder();
    await answerCommand(later(chained(1), 60), deferred.command, { prefersPrivate: async () => false, deadlineMs: 10 });
    expect(deferred.calls).toEqual(['defer(false)', 'edit(v1|0)', 'edit(v2|0)']);
  });

  it('edits newer versions of a component’s answer into its original response: the updated message, or the private reply', async () => {
    const versions = (): View => ({ content: 'v0', next: async () => ({ content: 'v1', next: async () => ({ content: 'v2' }) }) });
    const updated = recorder();
    await answerComponent(Promise.resolve({ view: versions(), mode: 'update' as const }), true, updated.component, { deadlineMs: 200 });
    expect(updated.calls).toEqual(['update(v0|0)', 'edit(v1|0)', 'edit(v2|0)']);
    const replied = recorder();
    await answerComponent(Promise.resolve({ view: { ...versions(), ephemeral: true }, mode: 'reply' as const }), false, replied.component, {
      deadlineMs: 200,
    });
    expect(replied.calls).toEqual(['reply(v0|64)', 'edit(v1|0)', 'edit(v2|0)']);
    const deferred = recorder();
    await answerComponent(later({ view: versions(), mode: 'update' as const }, 60), true, deferred.component, { deadlineMs: 10 });
    expect(deferred.calls).toEqual(['deferUpdate', 'edit(v0|0)', 'edit(v1|0)', 'edit(v2|0)']);
    // A private follow-up to the invoker's own press is not the original response: no newer version is edited anywhere.
    const followed = recorder();
    await answerComponent(later({ view: { ...versions(), ephemeral: true }, mode: 'reply' as const }, 60), true, followed.component, { deadlineMs: 10 });
    expect(followed.calls).toEqual(['deferUpdate', 'followUp(v0|64)']);
  });

  it('ends the newer versions at null, and at an edit Discord refuses (told, not thrown: the answer was given)', async () => {
    const r = recorder();
    await answerCommand(Promise.resolve({ content: 'first', next: async () => null }), r.command, { prefersPrivate: async () => false, deadlineMs: 200 });
    expect(r.calls).toEqual(['reply(first|0)']);
    const refused: unknown[] = [];
    const asked: string[] = [];
    const edits = recorder();
    const deleted = { ...edits.command, edit: async () => Promise.reject(new Error('Unknown Message')) };
    const third = async () => (asked.push('third'), { content: 'third' });
    const answer: View = { content: 'first', next: async () => (asked.push('second'), { content: 'second', next: third }) };
    await answerCommand(Promise.resolve(answer), deleted, { prefersPrivate: async () => false, deadlineMs: 200, onUpdateError: (err) => refused.push(err) });
    expect(edits.calls).toEqual(['reply(first|0)']);
    expect(asked).toEqual(['second']);
    expect(refused).toEqual([new Error('Unknown Message')]);
  });

  it('sends no autocomplete choices past the deadline', async () => {
    expect(await answerAutocomplete(later([{ name: 'Hulk', value: '1011' }], 5), 200)).toEqual([{ name: 'Hulk', value: '1011' }]);
    expect(await answerAutocomplete(later([{ name: 'Hulk', value: '1011' }], 100), 20)).toEqual([]);
  });
});

describe('the interaction budget, timed from the snowflake', () => {
  it('reads the creation time from the snowflake, and trusts it only so far back (clock skew)', () => {
    const now = Date.now();
    expect(snowflakeTime(snowflakeAt(now - 1234))).toBe(now - 1234);
    expect(snowflakeTime('not a snowflake')).toBeUndefined();
    const queued = interactionBudget(snowflakeAt(now - 1_200), now, 10_000);
    expect(queued).toEqual({ createdAt: now - 1_200, receivedAt: now, ackBy: now + 800, answerBy: now + 8_800 });
    // A snowflake from the future (the bot's clock is behind Discord's) counts as created now.
    expect(interactionBudget(snowflakeAt(now + 5_000), now).createdAt).toBe(now);
    // One from an hour ago is skew, or hopeless: either way it must be acknowledged at once.
    expect(interactionBudget(snowflakeAt(now - 3_600_000), now).createdAt).toBe(now - MAX_TRUSTED_AGE_MS);
  });

  // Timed on vi's fake clock: Date.now(), the snowflake's budget and the policy's timers all read it, so
  // "at once" and "when the acknowledgement is due" are exact instants, whatever the machine's load.
  afterEach(() => void vi.useRealTimers());

  it('defers at once an interaction that arrived older than the reply window, whatever the work', async () => {
    vi.useFakeTimers({ now: 1_760_000_000_000 });
    const r = recorder();
    const receivedAt = Date.now();
    const budget = interactionBudget(snowflakeAt(receivedAt - 1_600), receivedAt);
    let deferredAt: number | undefined;
    let viewReady = false;
    const work = later(view('slow'), 200).finally(() => (viewReady = true));
    const command = { ...r.command, defer: async (e: boolean) => ((deferredAt = Date.now()), r.command.defer(e)) };
    const answered = answerCommand(work, command, { prefersPrivate: async () => false, budget });
    // The reply window closed before the interaction arrived: the deferral goes on the next timer tick, no time after arrival.
    await vi.advanceTimersByTimeAsync(0);
    expect(deferredAt).toBe(receivedAt);
    expect(viewReady).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    await answered;
    expect(r.calls).toEqual(['defer(false)', 'edit(slow|0)']);
  });

  it('waits for the settings read only until the acknowledgement is due, then defers publicly', async () => {
    vi.useFakeTimers({ now: 1_760_000_000_000 });
    const r = recorder();
    const receivedAt = Date.now();
    // Created 1.9 s ago: 100 ms left before ackBy (2 s after creation).
    const budget = interactionBudget(snowflakeAt(receivedAt - 1_900), receivedAt);
    let deferredAt: number | undefined;
    const command = { ...r.command, defer: async (e: boolean) => ((deferredAt = Date.now()), r.command.defer(e)) };
    const answered = answerCommand(later(view('slow'), 300), command, { prefersPrivate: () => later(true, 5_000), budget });
    await vi.advanceTimersByTimeAsync(budget.ackBy - receivedAt - 1);
    expect(deferredAt).toBeUndefined(); // the settings read is still awaited, within the acknowledgement's time
    await vi.advanceTimersByTimeAsync(1);
    expect(deferredAt).toBe(budget.ackBy); // and no longer: the deferral goes out when it is due, without the 5 s read
    await vi.advanceTimersByTimeAsync(300);
    await answered;
    expect(r.calls).toEqual(['defer(false)', 'edit(slow|0)']);
  });

  it('ends with the "took too long" answer when the View is not ready by the end of the budget', async () => {
    const r = recorder();
    const budget = interactionBudget(snowflakeAt(Date.now()), Date.now(), 2_300);
    await answerCommand(new Promise<View>(() => undefined), r.command, { prefersPrivate: async () => false, budget, deadlineMs: 20 });
    expect(r.calls[0]).toBe('defer(false)');
    expect(r.calls.slice(1)).toEqual(['deleteReply', expect.stringMatching(/^followUp\(.*\|64\)$/)]);

    const c = recorder();
    const pressBudget = interactionBudget(snowflakeAt(Date.now()), Date.now(), 2_100);
    await answerComponent(new Promise(() => undefined), true, c.component, { budget: pressBudget, deadlineMs: 20 });
    expect(c.calls).toEqual(['deferUpdate', expect.stringMatching(/^followUp\(.*\|64\)$/)]);
  });

  it('in a burst (deferFirst) defers before the work starts, with the privacy the cache knows at once', async () => {
    const r = recorder();
    let startedAfterDefer = false;
    const work = () => ((startedAfterDefer = r.calls.includes('defer(true)')), later(view('answer'), 5));
    await answerCommand(work, r.command, { prefersPrivate: async () => true, deferFirst: true, deadlineMs: 1_000 });
    expect(r.calls).toEqual(['defer(true)', 'edit(answer|0)']);
    expect(startedAfterDefer).toBe(true);
    // A privacy answer that is not there at once (a store read) is not waited for: the deferral is public.
    const slow = recorder();
    await answerCommand(() => later(view('answer'), 5), slow.command, { prefersPrivate: () => later(true, 1_000), deferFirst: true });
    expect(slow.calls).toEqual(['defer(false)', 'edit(answer|0)']);
    const press = recorder();
    await answerComponent(() => later({ view: view('page 2'), mode: 'update' as const }, 5), true, press.component, { deferFirst: true });
    expect(press.calls).toEqual(['deferUpdate', 'edit(page 2|0)']);
  });
});
