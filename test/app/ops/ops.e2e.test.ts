/**
 * End to end: the production build (`node dist/index.js`) with METRICS_PORT set, logged in
 * to the local fake Discord and running offline on its in-process API replica. After one /player,
 * `GET /healthz` and `GET /metrics` are scraped as a probe and Prometheus would. Without METRICS_PORT,
 * not a line of prom-client is loaded (the idle memory stays that of the bot without metrics).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER } from '../../helpers/bot.js';
import { startRecordingBot, type RecordedBot } from '../../helpers/bot-process.js';
import { freePort } from '../../helpers/free-port.js';
import { commandInteraction, startFakeDiscord, type FakeDiscord } from '../../e2e/fake-discord.js';
import { eventually, expectFixedTypes, parseSamples, sampleValue } from './samples.js';

const TOKEN = 'ops-e2e-token-7c1d';
const scratch = mkdtempSync(join(tmpdir(), 'rivals-ops-e2e-'));
const running: ChildProcess[] = [];
const fakes: FakeDiscord[] = [];

/** Starts the built bot against `discord` with `env` on a bare environment, recording its imports, and waits until it has logged in. */
function startBot(discord: FakeDiscord, name: string, env: Record<string, string> = {}): Promise<RecordedBot> {
  return startRecordingBot({ scratch, name, env: { DISCORD_TOKEN: TOKEN, DISCORD_API_URL: discord.apiUrl, ...env }, ready: /logged in to Discord/, running });
}

/** Of the build's own files among `modules`, those whose code contains `text` (prom-client is bundled: its names are in a chunk of dist/). */
const loadedWith = (modules: string[], text: string) =>
  modules.filter((url) => url.startsWith('file:') && url.includes('/dist/')).filter((url) => readFileSync(fileURLToPath(url), 'utf8').includes(text));

let discord: FakeDiscord;
let bot: RecordedBot;
let port: number;

beforeAll(async () => {
  discord = await startFakeDiscord();
  fakes.push(discord);
  port = await freePort();
  bot = await startBot(discord, 'metrics', { METRICS_PORT: String(port) });
}, 40_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  for (const fake of fakes) await fake.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the bot with METRICS_PORT', () => {
  it('logs one line with the ops URL, answers /player, then is healthy and counts it in /metrics', async () => {
    const base = `http://127.0.0.1:${port}`;
    const urlLines = bot
      .output()
      .split('\n')
      .filter((l) => l.includes(`${base}/healthz`));
    expect(urlLines).toHaveLength(1);
    expect(JSON.parse(urlLines[0]!)).toMatchObject({ component: 'ops', url: base });

    const i = commandInteraction(MEMBER.userId, 'player', { query: '1403392756' });
    discord.dispatchInteraction(i);
    // A reply, or on a cold process a deferral and an edit.
    const call = await discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${i.id}/`), 15_000);
    if ((call.body as { type: number }).type === 5)
      await discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(`/${i.token}/messages/@original`), 15_000);
    else expect((call.body as { type: number }).type).toBe(4);

    // Counted once Discord's answer is back in the bot, a moment after the fake saw the request.
    const samples = await eventually(async () => {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      const all = parseSamples(await res.text());
      expect(sampleValue(all, 'rivals_interactions_total', { command: 'player' })).toBeGreaterThanOrEqual(1);
      return all;
    });
    const res = await fetch(`${base}/metrics`);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expectFixedTypes(text);
    expect(sampleValue(samples, 'rivals_interactions_total', { command: 'player', outcome: 'answered' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'rivals_interaction_ack_seconds_count', { kind: 'command' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'rivals_interaction_answer_seconds_count', { kind: 'command' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'rivals_cache_misses_total')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'rivals_gateway_ready', { shard: '0' })).toBe(1);
    expect(sampleValue(samples, 'rivals_gateway_status', { shard: '0' })).toBe(0);
    // The login's GET /gateway/bot went through the REST budget.
    expect(sampleValue(samples, 'rivals_rate_limiter_wait_seconds_count', { limiter: 'discord' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(samples.filter((s) => s.labels.cluster !== '0')).toEqual([]);
    expect(text).not.toContain(TOKEN);

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'ok', shards: [{ id: 0, status: 'Ready' }] });
    expect(bot.output()).not.toContain(TOKEN);
  });

  it('loaded prom-client, and closes the ops server with the rest on SIGTERM', async () => {
    expect(loadedWith(bot.modules(), 'collectDefaultMetrics')).not.toEqual([]);
    const exited = new Promise<number | null>((resolve) => bot.child.once('exit', (code) => resolve(code)));
    bot.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});

describe('the bot without METRICS_PORT', () => {
  it('serves nothing and loads no line of prom-client', async () => {
    const other = await startFakeDiscord();
    fakes.push(other);
    const plain = await startBot(other, 'plain');
    expect(plain.output()).not.toMatch(/health and metrics/);
    expect(loadedWith(plain.modules(), 'collectDefaultMetrics')).toEqual([]);
    expect(loadedWith(plain.modules(), 'rivals_interactions_total')).toEqual([]);
    expect(plain.modules().filter((url) => url.includes('/node_modules/prom-client/'))).toEqual([]);
    plain.child.kill('SIGTERM');
  });
});
