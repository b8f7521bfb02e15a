/**
 * End to end: a View with files (a chart) reaches the fake Discord as Discord takes uploads: the
 * JSON in `payload_json` with `attachments`, each file in a part `files[n]`, in the reply, the edit
 * after a deferral, a component's update and a follow-up; and when Discord refuses the upload, the
 * same answer arrives without the file.
 */
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CommandModule } from '../../src/discord/command.js';
import type { Replica } from '../../src/replica/server.js';
import type { View } from '../../src/render/view.js';
import { MEMBER, OTHER_MEMBER } from '../helpers/bot.js';
import { replica } from '../helpers/replica.js';
import { commandInteraction, componentInteraction, startFakeDiscord, type FakeDiscord, type RestCall } from './fake-discord.js';
import { bootBot } from './helpers.js';

const png = createCanvas(8, 4).encode('png');
let image: Buffer;

/** A view with one chart, shown in its embed. */
const chartView = (): View => ({
  embeds: [{ title: 'Rank history', image: { url: 'attachment://rank-history.png' } }],
  files: [{ name: 'rank-history.png', data: image, contentType: 'image/png', description: 'Rank score over time' }],
});

const testCommand: CommandModule = {
  definition: { name: 'chart', description: 'a chart' },
  execute: async (input) => {
    if (input.options.slow) await new Promise((r) => setTimeout(r, 1_800));
    return { ...chartView(), ephemeral: input.options.private === true };
  },
  components: {
    'chart.p': async (input) => ({ ...chartView(), ephemeral: input.args[0] === 'private' }),
  },
};

let r: Replica;
let discord: FakeDiscord;
let bot: Awaited<ReturnType<typeof bootBot>>;

beforeAll(async () => {
  image = await png;
  r = await replica();
  discord = await startFakeDiscord();
  bot = await bootBot(discord, r, [testCommand]);
});
afterEach(() => discord.refuseUploads(undefined));
afterAll(async () => {
  await bot.close();
  await discord.close();
  await r.close();
});

type Body = { type?: number; data?: Record<string, unknown> } & Record<string, unknown>;

/** Asserts that `call` carries the chart as Discord takes it, with `json` its message JSON. */
function expectChart(call: RestCall, json: Record<string, unknown>) {
  expect(call.files).toHaveLength(1);
  expect(call.files![0]).toMatchObject({ field: 'files[0]', filename: 'rank-history.png', contentType: 'image/png' });
  expect(call.files![0]!.data.equals(image)).toBe(true);
  expect(json.attachments).toEqual([{ id: 0, filename: 'rank-history.png', description: 'Rank score over time' }]);
  expect((json.embeds as { image?: { url: string } }[])[0]!.image).toEqual({ url: 'attachment://rank-history.png' });
}

describe('files through Discord', () => {
  it('a reply uploads the chart with the callback', async () => {
    const i = commandInteraction(MEMBER.userId, 'chart');
    discord.dispatchInteraction(i);
    const call = await discord.waitFor((c) => c.path.startsWith(`/interactions/${i.id}/`));
    const body = call.body as Body;
    expect(body.type).toBe(4);
    expectChart(call, body.data!);
  });

  it('a slow answer defers, then uploads the chart with the edit of the original response', async () => {
    const i = commandInteraction(MEMBER.userId, 'chart', { slow: true });
    discord.dispatchInteraction(i);
    const ack = await discord.waitFor((c) => c.path.startsWith(`/interactions/${i.id}/`));
    expect((ack.body as Body).type).toBe(5);
    expect(ack.files).toBeUndefined();
    const edit = await discord.waitFor((c) => c.method === 'PATCH' && c.path === `/webhooks/${i.application_id}/${i.token}/messages/@original`);
    expectChart(edit, edit.body as Body);
  });

  it('a private answer after a public deferral is a follow-up that uploads the chart', async () => {
    const i = commandInteraction(MEMBER.userId, 'chart', { slow: true, private: true });
    discord.dispatchInteraction(i);
    const followUp = await discord.waitFor((c) => c.method === 'POST' && c.path === `/webhooks/${i.application_id}/${i.token}`);
    expect((followUp.body as Body).flags).toBe(64);
    expectChart(followUp, followUp.body as Body);
    expect(discord.calls.some((c) => c.method === 'DELETE' && c.path.includes(i.token))).toBe(true);
  });

  it("a component's update uploads the chart, and another member's press gets it privately", async () => {
    const own = componentInteraction(MEMBER.userId, MEMBER.userId, 'chart.p:public');
    discord.dispatchInteraction(own);
    const update = await discord.waitFor((c) => c.path.startsWith(`/interactions/${own.id}/`));
    expect((update.body as Body).type).toBe(7);
    expectChart(update, (update.body as Body).data!);
    const other = componentInteraction(OTHER_MEMBER.userId, MEMBER.userId, 'chart.p:public');
    discord.dispatchInteraction(other);
    const reply = await discord.waitFor((c) => c.path.startsWith(`/interactions/${other.id}/`));
    expect(reply.body as Body).toMatchObject({ type: 4, data: { flags: 64 } });
    expectChart(reply, (reply.body as Body).data!);
  });

  it('when Discord refuses the upload, the answer arrives without the chart, and the log says why', async () => {
    discord.refuseUploads({ status: 413, code: 40005, message: 'Request entity too large' });
    const i = commandInteraction(MEMBER.userId, 'chart');
    discord.dispatchInteraction(i);
    const refused = await discord.waitFor((c) => c.path.startsWith(`/interactions/${i.id}/`) && c.files !== undefined);
    expect(refused.files).toHaveLength(1);
    const retry = await discord.waitFor((c) => c.path.startsWith(`/interactions/${i.id}/`) && c.files === undefined);
    const data = (retry.body as Body).data!;
    expect((retry.body as Body).type).toBe(4);
    expect(data.attachments).toBeUndefined();
    expect((data.embeds as { title: string; image?: unknown }[])[0]).toEqual({ title: 'Rank history' });
    expect(bot.logLines.some((l) => l.includes('Discord refused the attachments') && l.includes(i.id))).toBe(true);
  });

  it('a refused upload after a deferral edits the placeholder without the chart', async () => {
    discord.refuseUploads({ status: 400, code: 50035, message: 'Invalid Form Body' });
    const i = commandInteraction(MEMBER.userId, 'chart', { slow: true });
    discord.dispatchInteraction(i);
    const edit = await discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(i.token) && c.files === undefined, 8_000);
    // The edit without the file also clears any attachment the message had.
    expect((edit.body as Body).attachments).toEqual([]);
    expect((edit.body as { embeds: unknown[] }).embeds).toEqual([{ title: 'Rank history' }]);
  });
});
