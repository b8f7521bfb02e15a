/** The bot's entry point (`npm start`) with a token: logs in through DISCORD_API_URL, serves, and shuts down gracefully. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MEMBER } from '../helpers/bot.js';
import { APP_ID, commandInteraction, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { BOT_ARGS, ROOT } from '../helpers/bot-process.js';
import { commands } from '../../commands/index.js';
import { deployCommands } from '../../src/discord/deploy.js';

/** A 1×1 transparent PNG. */
const PNG_PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let discord: FakeDiscord;
let bot: ChildProcess;
let output = '';
/** Where the bot keeps V8's compiled code (NODE_COMPILE_CACHE). */
const compileCache = mkdtempSync(join(tmpdir(), 'start-compile-cache-'));

beforeAll(async () => {
  discord = await startFakeDiscord();
  // The commands as `npm run deploy` registers them: the bot reads their ids at READY, for mentions.
  await deployCommands({ token: 'start-token-abc123', clientId: APP_ID, apiUrl: discord.apiUrl, modules: commands });
  // An emoji as `npm run deploy` uploads it: the bot reads the application's emojis at READY.
  await fetch(`${discord.apiUrl}/v10/applications/${APP_ID}/emojis`, {
    method: 'POST',
    headers: { authorization: 'Bot start-token-abc123', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'role_duelist_abc123', image: `data:image/png;base64,${PNG_PIXEL}` }),
  });
  // What `npm start` runs, as a single process a supervisor would signal (npm itself dies by a forwarded signal).
  bot = spawn(process.execPath, [...BOT_ARGS], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      DISCORD_TOKEN: 'start-token-abc123',
      DISCORD_API_URL: discord.apiUrl,
      LOG_LEVEL: 'info',
      // Player lookups on the in-process replica take 5 s, to have a reply in flight at shutdown, well after its deferral.
      REPLICA_LATENCY_MS: '5000',
      REPLICA_FAULT_PATH: '/api/v1/player',
      NODE_COMPILE_CACHE: compileCache,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  bot.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  bot.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await discord.ready();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bot did not log in: ${output}`)), 20_000);
    const check = setInterval(() => {
      if (output.includes('logged in to Discord')) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      }
    }, 50);
  });
}, 30_000);

afterAll(async () => {
  if (bot.exitCode === null) bot.kill('SIGKILL');
  await discord.close();
  rmSync(compileCache, { recursive: true, force: true });
});

describe('npm start with DISCORD_TOKEN', () => {
  it('mentions commands by the ids Discord gave them, read at READY (each member’s client names them in their language)', async () => {
    const read = await discord.waitFor((c) => c.method === 'GET' && c.path === `/applications/${APP_ID}/commands`);
    expect(read.authorization).toBe('Bot start-token-abc123');
    const registered = (await (
      await fetch(`${discord.apiUrl}/v10/applications/${APP_ID}/commands`, { headers: { authorization: 'Bot start-token-abc123' } })
    ).json()) as { id: string; name: string }[];
    const link = registered.find((c) => c.name === 'link')!;
    // The READY handler takes the ids once the fake has answered its read: ask until an answer mentions them.
    let text = '';
    await vi.waitFor(
      async () => {
        const i = commandInteraction('777777777777777777', 'player', {});
        discord.dispatchInteraction(i);
        const reply = await discord.waitFor((c) => c.method === 'POST' && c.path.includes(`/interactions/${i.id}/`), 10_000);
        text = JSON.stringify((reply.body as { data: unknown }).data);
        expect(text).toContain('</link:');
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(text).toContain(`</link:${link.id}>`);
    expect(text).toContain(`</player:${registered.find((c) => c.name === 'player')!.id}>`);
    // The self-hoster's start: how to invite the bot, and that its commands are registered.
    const lines = output
      .split('\n')
      .flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as { msg: string; invite?: string; userInstall?: string; commands?: number }] : []));
    const links = lines.find((l) => l.invite);
    expect(links?.invite).toMatch(
      new RegExp(`^https://discord\\.com/oauth2/authorize\\?client_id=${APP_ID}&integration_type=0&scope=bot\\+applications\\.commands&permissions=\\d+$`),
    );
    expect(links?.userInstall).toBe(`https://discord.com/oauth2/authorize?client_id=${APP_ID}&integration_type=1&scope=applications.commands`);
    const slash = (registered as { type?: number }[]).filter((c) => (c.type ?? 1) === 1);
    expect(lines.find((l) => l.msg === 'slash commands registered globally')?.commands).toBe(slash.length);
  }, 20_000);

  it('writes the application’s emojis, read at READY, before the names they stand for', async () => {
    const duelist = discord.appEmojis.find((e) => e.name === 'role_duelist_abc123')!;
    await discord.waitFor((c) => c.method === 'GET' && c.path === `/applications/${APP_ID}/emojis`);
    let role = '';
    await vi.waitFor(
      async () => {
        const i = commandInteraction('777777777777777778', 'hero', { name: 'storm' });
        discord.dispatchInteraction(i);
        const reply = await discord.waitFor((c) => c.method === 'POST' && c.path.includes(`/interactions/${i.id}/`), 10_000);
        const embeds = (reply.body as { data: { embeds: { fields?: { name: string; value: string }[] }[] } }).data.embeds;
        role = embeds[0]!.fields!.find((f) => f.name === 'Role')!.value;
        expect(role).toContain('<:');
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(role).toBe(`<:role_duelist_abc123:${duelist.id}> Duelist`);
  }, 20_000);

  it('keeps the code its start compiled in the compile cache, while it runs, so that a restart compiles less', async () => {
    // Written once the start is done (src/index.ts); the bot is still running, so nothing waited for its exit.
    const cached = () => readdirSync(compileCache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    await vi.waitFor(() => expect(cached().length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(bot.exitCode).toBeNull();
  });

  it('finishes the reply in flight on SIGTERM, then exits cleanly', async () => {
    const i = commandInteraction(MEMBER.userId, 'player', { query: '1403392756' });
    discord.dispatchInteraction(i);
    // In flight: acknowledged (deferred), its answer still to come.
    await discord.waitFor((c) => c.method === 'POST' && c.path.includes(`/interactions/${i.id}/`), 10_000);
    expect(discord.calls.some((c) => c.method === 'PATCH' && c.path.includes(`/${i.token}/`))).toBe(false);
    const exited = new Promise<number | null>((resolve) => bot.once('exit', (code) => resolve(code)));
    bot.kill('SIGTERM');
    const edit = await discord.waitFor((c) => c.method === 'PATCH' && c.path.includes(`/${i.token}/messages/@original`), 15_000);
    expect((edit.body as { embeds: { title: string }[] }).embeds[0]!.title).toBe('Grandmaster III');
    expect(await exited).toBe(0);
    expect(output).toMatch(/shutting down: finishing replies in flight/);
    expect(output).not.toContain('start-token-abc123');
  }, 30_000);
});

describe('npm start when Discord cannot be reached', () => {
  it('says so in one line of advice, without a stack, and does not blame the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-dns-'));
    try {
      const child = spawn(process.execPath, [...BOT_ARGS], {
        cwd: dir,
        env: { PATH: process.env.PATH!, HOME: dir, DATA_DIR: join(dir, 'data'), DISCORD_TOKEN: 'dns-token-xyz', DISCORD_API_URL: 'http://discord.invalid/api' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      const fatal = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown })
        .filter((l) => l.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.msg).toMatch(/^cannot reach discord\.invalid \((ENOTFOUND|EAI_AGAIN)\): check this machine's network and DNS/);
      expect(fatal[0]!.err).toBeUndefined();
      expect(out).not.toContain('dns-token-xyz');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('npm start and .env', () => {
  it('reads .env from where it starts: a bad value there is named, with its range, in one line and no stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-env-'));
    try {
      writeFileSync(join(dir, '.env'), 'PORT=99999\n');
      const child = spawn(process.execPath, [...BOT_ARGS], { cwd: dir, env: { PATH: process.env.PATH!, HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toBe(
        'Invalid configuration:\n  - PORT: must be a whole number from 0 to 65,535 (0: any free port) (got "99999")\nSee .env.example for every variable.\n',
      );

      // A good file: the first log line names it, never its values.
      writeFileSync(join(dir, '.env'), `PORT=0\nLOG_LEVEL=info\nDATA_DIR=${join(dir, 'data')}\nRIVALS_API_KEY=\n`);
      const good = spawn(process.execPath, [...BOT_ARGS], { cwd: dir, env: { PATH: process.env.PATH!, HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const firstLine = new Promise<string>((resolve) => {
        good.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
      });
      const line = JSON.parse(await firstLine) as { msg: string; file: string };
      good.kill('SIGKILL');
      expect(line.msg).toBe('read the environment from .env (variables set in the process environment win)');
      expect(line.file).toBe(join(dir, '.env'));
      expect(JSON.stringify(line)).not.toMatch(/PORT|LOG_LEVEL|DATA_DIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('npm start from README step 3: a .env made from .env.example', () => {
  const EXAMPLE = readFileSync(join(ROOT, '.env.example'), 'utf8');
  /** The example with the two values step 3 fills in (the game API key is optional). */
  const filled = (example: string) =>
    example.replace(/^DISCORD_TOKEN=$/m, 'DISCORD_TOKEN=example-token-abc123').replace(/^DISCORD_CLIENT_ID=$/m, `DISCORD_CLIENT_ID=${APP_ID}`);
  /** Starts the built bot in a directory holding `.env`, with DISCORD_API_URL (set in the shell, which wins) at `apiUrl`. */
  function startIn(envText: string, apiUrl: string, extra: Record<string, string> = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'start-example-'));
    writeFileSync(join(dir, '.env'), envText);
    const child = spawn(process.execPath, [...BOT_ARGS], {
      cwd: dir,
      env: { PATH: process.env.PATH!, HOME: dir, DISCORD_API_URL: apiUrl, PORT: '0', ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { dir, child, output: () => out, exited };
  }
  /** Resolves once `output()` has `text`; rejects if the process exits first. */
  async function logged(p: ReturnType<typeof startIn>, text: string): Promise<void> {
    await vi.waitFor(
      () => {
        if (p.child.exitCode !== null) throw new Error(`the bot exited with ${p.child.exitCode} before logging "${text}":\n${p.output()}`);
        expect(p.output()).toContain(text);
      },
      { timeout: 25_000, interval: 50 },
    );
  }
  /** A line of a stack trace, as Node and pino print them. */
  const STACK = /\n\s+at |\\n\s+at /;

  it.each([
    ['as written, with only the required values filled in', (e: string) => filled(e)],
    ['with every value left empty but the required ones', (e: string) => filled(e.replace(/^([A-Z][A-Z0-9_]+)=.*$/gm, '$1='))],
  ])(
    'logs in to Discord from the example %s, and prints no stack',
    async (_, make) => {
      const fake = await startFakeDiscord();
      const p = startIn(make(EXAMPLE), fake.apiUrl);
      try {
        await logged(p, 'logged in to Discord');
        expect(p.output()).not.toMatch(STACK);
        expect(p.output()).not.toContain('example-token-abc123');
        p.child.kill('SIGTERM');
        expect(await p.exited).toBe(0);
      } finally {
        p.child.kill('SIGKILL');
        await fake.close();
        rmSync(p.dir, { recursive: true, force: true });
      }
    },
    40_000,
  );

  it('answers /status with the game API down, in every language: privately, saying the API does not answer (how fast: npm run bench:status)', async () => {
    const fake = await startFakeDiscord();
    // Every API request hangs, as when the API's host is down without refusing connections.
    const p = startIn(filled(EXAMPLE), fake.apiUrl, { REPLICA_HANG: '1' });
    try {
      await logged(p, 'logged in to Discord');
      const said = new Map<string, string>();
      for (const locale of ['en-US', 'es-ES', 'pt-BR', 'fr', 'de', 'ja']) {
        const i = { ...commandInteraction(MEMBER.userId, 'status', {}), locale };
        fake.dispatchInteraction(i);
        const callback = await fake.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${i.id}/`), 15_000);
        type Answer = { flags?: number; embeds: { fields: { value: string }[] }[] };
        const { type, data } = callback.body as { type: number; data: Answer };
        // 4: the answer itself; 5: a private deferral, then the answer as its edit.
        expect([4, 5], locale).toContain(type);
        expect((data.flags ?? 0) & 64, locale).toBe(64);
        const answer =
          type === 4 ? data : ((await fake.waitFor((c) => c.method === 'PATCH' && c.path.includes(`/${i.token}/messages/@original`), 15_000)).body as Answer);
        const api = answer.embeds[0]!.fields[1]!.value;
        expect(api, locale).toMatch(/^❌ /);
        said.set(locale, api);
        expect(answer.embeds[0]!.fields[0]!.value, locale).toMatch(/0\D+1|1\D+0/);
      }
      // Six languages, six sentences.
      expect(new Set(said.values()).size).toBe(6);
    } finally {
      p.child.kill('SIGKILL');
      await fake.close();
      rmSync(p.dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('says what an unexpected start-up failure is in one line, with the stack only at LOG_LEVEL=debug', async () => {
    // discord.js parses SHARDS itself: a value it cannot read fails the start in a way the bot has no advice for.
    const info = startIn(filled(EXAMPLE), 'http://127.0.0.1:9/api', { SHARDS: 'not-json' });
    try {
      expect(await info.exited).toBe(1);
      const fatal = info
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown })
        .filter((l) => l.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.msg).toMatch(/^the bot could not start: .*JSON.*\. LOG_LEVEL=debug shows where it failed$/);
      expect(info.output()).not.toMatch(STACK);
    } finally {
      rmSync(info.dir, { recursive: true, force: true });
    }
    const debug = startIn(filled(EXAMPLE), 'http://127.0.0.1:9/api', { SHARDS: 'not-json', LOG_LEVEL: 'debug' });
    try {
      expect(await debug.exited).toBe(1);
      expect(debug.output()).toMatch(STACK);
      expect(debug.output()).toContain('the start-up error');
    } finally {
      rmSync(debug.dir, { recursive: true, force: true });
    }
  }, 40_000);
});
