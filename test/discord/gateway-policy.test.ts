/**
 * The gateway policy (src/discord/gateway-policy.ts): Discord's close-code table, the fatal line, and
 * the handlers `watchGateway` puts on a real (not logged in) discord.js client. The end-to-end
 * behaviour against the fake gateway is in test/e2e/gateway.e2e.test.ts.
 * Source: Discord developer documentation, "Opcodes and Status Codes" > "Gateway Close Event Codes".
 */
import { Client, GatewayCloseCodes } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyCloseCode, fatalCloseMessage, watchGateway } from '../../src/discord/gateway-policy.js';
import { capturingLogger } from '../helpers/replica.js';

describe('classifyCloseCode', () => {
  it("marks fatal exactly the codes Discord's table says are not reconnectable", () => {
    const all = Object.values(GatewayCloseCodes).filter((v): v is number => typeof v === 'number');
    const fatal = all.filter((code) => classifyCloseCode(code).kind === 'fatal').sort();
    expect(fatal).toEqual([4004, 4010, 4011, 4012, 4013, 4014]);
    // Every code discord-api-types knows has a name of its own in the table.
    for (const code of all) expect(classifyCloseCode(code).name, String(code)).not.toBe('unknown close code');
  });

  it('asks for a new session after 4007 and 4009, resumes after the others, and treats unknown codes as resumable', () => {
    expect(classifyCloseCode(4007).kind).toBe('new-session');
    expect(classifyCloseCode(4009).kind).toBe('new-session');
    for (const code of [1001, 4000, 4001, 4002, 4003, 4005, 4008]) expect(classifyCloseCode(code).kind, String(code)).toBe('resume');
    expect(classifyCloseCode(4999)).toEqual({ code: 4999, name: 'unknown close code', kind: 'resume' });
  });
});

describe('fatalCloseMessage', () => {
  it('names the code, what it means and what to change, and the exit code', () => {
    expect(fatalCloseMessage(4004)).toBe(
      'Discord closed the gateway with 4004 (authentication failed): the DISCORD_TOKEN was rejected (reset or revoked); reset the token on the Bot page of the Discord Developer Portal and set the new one in DISCORD_TOKEN. Exiting with code 78.',
    );
    expect(fatalCloseMessage(4014)).toMatch(
      /^Discord closed the gateway with 4014 \(disallowed intents\): .*Privileged Gateway Intents on the Bot page of the Discord Developer Portal.*\. Exiting with code 78\.$/,
    );
    for (const code of [4010, 4011, 4012, 4013])
      expect(fatalCloseMessage(code)).toMatch(
        new RegExp(`^Discord closed the gateway with ${code} \\(${classifyCloseCode(code).name}\\): .+\\. Exiting with code 78\\.$`),
      );
  });
});

describe('watchGateway', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.destroy();
  });

  function setup() {
    const client = new Client({ intents: [] });
    clients.push(client);
    const { logger, lines } = capturingLogger();
    const terminations: [number, string][] = [];
    const context = new Map<string, () => unknown>();
    const policy = {
      terminating: false,
      terminate(code: number, reason: string) {
        terminations.push([code, reason]);
        this.terminating = true;
        return Promise.resolve();
      },
      addContext: (name: string, source: () => unknown) => void context.set(name, source),
    };
    let clock = 1_000;
    const watch = watchGateway(client, { logger, policy, now: () => clock });
    const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    return { client, watch, policy, terminations, context, lines: parsed, tick: (ms: number) => (clock += ms) };
  }

  it('a fatal shardDisconnect logs one fatal line and stops with 78; the shardError that follows is not a second line', () => {
    const s = setup();
    s.client.emit('shardDisconnect', { code: 4004, reason: '', wasClean: true } as never, 0);
    s.client.emit('shardError', new Error('Authentication failed'), 0);
    s.client.emit('shardDisconnect', { code: 4004, reason: '', wasClean: true } as never, 0);
    expect(s.terminations).toEqual([[78, 'gateway closed with 4004']]);
    const atWarnOrAbove = s.lines().filter((l) => (l.level as number) >= 40);
    expect(atWarnOrAbove).toEqual([expect.objectContaining({ level: 60, closeCode: 4004, shard: 0, exitCode: 78, msg: fatalCloseMessage(4004) })]);
  });

  it('logs a shardError, a client error and a warning when nothing is stopping', () => {
    const s = setup();
    s.client.emit('shardError', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 0);
    s.client.emit('error', new Error('sharding manager lost'));
    s.client.emit('warn', 'something odd');
    expect(s.lines()).toMatchObject([
      { level: 50, shard: 0, err: { message: 'read ECONNRESET' }, msg: 'Discord gateway error (discord.js reconnects when the close code allows it)' },
      { level: 50, err: { message: 'sharding manager lost' }, msg: 'Discord client error' },
      { level: 40, discord: 'something odd', msg: 'discord.js warning' },
    ]);
    expect(s.terminations).toEqual([]);
  });

  it('logs resumes and new sessions, and a reconnection whose close it did not see', () => {
    const s = setup();
    s.client.emit('shardReady', 0, undefined);
    s.client.emit('shardReconnecting', 0);
    s.client.emit('shardResume', 0, 3);
    s.client.emit('shardReady', 0, undefined);
    expect(s.lines().map((l) => [l.level, l.msg])).toEqual([
      [40, 'the Discord gateway connection closed: reconnecting'],
      [30, 'resumed the Discord gateway session'],
      [30, 'started a new Discord gateway session (dispatches sent while disconnected are not replayed)'],
    ]);
    expect(s.lines()[1]).toMatchObject({ replayedEvents: 3 });
  });

  it('remembers the last dispatch as error context: event, sequence, snowflake id and age, never the payload', () => {
    const s = setup();
    expect(s.context.get('lastDispatch')!()).toBeUndefined();
    s.client.emit('raw', { op: 0, t: 'INTERACTION_CREATE', s: 41, d: { id: '1234567890123456789', token: 'interaction-secret' } }, 0);
    s.tick(250);
    expect(s.context.get('lastDispatch')!()).toEqual({ t: 'INTERACTION_CREATE', s: 41, id: '1234567890123456789', shard: 0, ageMs: 250 });
    s.client.emit('raw', { op: 0, t: 'CHANNEL_CREATE', s: 42, d: null }, 0);
    s.client.emit('raw', { op: 0, t: 'WEIRD', s: 43, d: { id: 'not a snowflake' } }, 0);
    expect(s.watch.lastDispatch()).toEqual({ t: 'WEIRD', s: 43, shard: 0, ageMs: 0 });
    expect(JSON.stringify(s.watch.lastDispatch())).not.toContain('secret');
  });

  it('logs closes and errors during a stop at debug only', () => {
    const s = setup();
    s.policy.terminating = true;
    s.client.emit('shardError', new Error('x'), 0);
    s.client.emit('shardReconnecting', 0);
    s.client.emit('shardDisconnect', { code: 4014, reason: '', wasClean: true } as never, 0);
    expect(s.lines().every((l) => l.level === 20)).toBe(true);
    expect(s.terminations).toEqual([]);
  });

  it('dispose removes its listeners (and only its own: discord.js listens to shardDisconnect itself)', () => {
    const events = ['shardDisconnect', 'shardError', 'error', 'warn', 'shardReady', 'shardReconnecting', 'shardResume', 'raw'];
    const bare = new Client({ intents: [] });
    clients.push(bare);
    const s = setup();
    s.watch.dispose();
    for (const event of events) expect(s.client.listenerCount(event), event).toBe(bare.listenerCount(event));
  });
});
