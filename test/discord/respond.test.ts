import { describe, expect, it } from 'vitest';
import { answerAutocomplete, answerCommand, answerComponent, type CommandResponder, type ComponentResponder } from '../../src/discord/respond.js';
import type { View } from '../../src/render/view.js';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const view = (text: string, ephemeral = false): View => ({ content: text, ephemeral });

/** A responder that records each call as `name(content|flags)`. */
function recorder() {
  const calls: string[] = [];
  const record = (name: string) => async (arg?: unknown) => {
    calls.push(arg === undefined ? name : typeof arg === 'boolean' ? `${name}(${arg})` : `${name}(${(arg as { content: string; flags: number }).content}|${(arg as { flags: number }).flags})`);
  };
  const command: CommandResponder = { reply: record('reply'), defer: record('defer'), edit: record('edit'), deleteReply: record('deleteReply'), followUp: record('followUp') };
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
    await answerComponent(later({ view: view('page 2'), mode: 'update' as const }, 5), true, fast.component, 200);
    expect(fast.calls).toEqual(['update(page 2|0)']);

    const own = recorder();
    await answerComponent(later({ view: view('page 2'), mode: 'update' as const }, 80), true, own.component, 20);
    expect(own.calls).toEqual(['deferUpdate', 'edit(page 2|0)']);

    const other = recorder();
    await answerComponent(later({ view: view('copy', true), mode: 'reply' as const }, 80), false, other.component, 20);
    expect(other.calls).toEqual(['deferEphemeralReply', 'edit(copy|64)']);

    const ownPrivate = recorder();
    await answerComponent(later({ view: view('read it', true), mode: 'reply' as const }, 80), true, ownPrivate.component, 20);
    expect(ownPrivate.calls).toEqual(['deferUpdate', 'followUp(read it|64)']);
  });

  it('sends no autocomplete choices past the deadline', async () => {
    expect(await answerAutocomplete(later([{ name: 'Hulk', value: '1011' }], 5), 200)).toEqual([{ name: 'Hulk', value: '1011' }]);
    expect(await answerAutocomplete(later([{ name: 'Hulk', value: '1011' }], 100), 20)).toEqual([]);
  });
});
