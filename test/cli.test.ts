/** The command-line preview, run as members and scripts run it: `npm run cli -- ...`. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readLocaleFile } from '../src/i18n/index.js';
import type { MessagePayload } from '../src/render/view.js';
import { payloadToText } from '../src/render/text.js';
import { bot } from './helpers/bot.js';
import { replica } from './helpers/replica.js';

/** Runs `command args` with only `env` (and `cwd`), and collects what it printed and its exit code. */
function run(command: string, args: string[], env: Record<string, string>, cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      ...(cwd ? { cwd } : {}),
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm run cli -- args`, with npm's own -s: its script banner would go to stdout before the answer. */
const cli = (args: string[], env: Record<string, string> = {}) => run('npm', ['run', '-s', 'cli', '--', ...args], { LOG_LEVEL: 'info', ...env });

describe('npm run cli', () => {
  it('--json prints only the exact message payload on stdout, logs on stderr', async () => {
    const { code, stdout, stderr } = await cli(['hero', 'name:spider man', '--json']);
    expect(code).toBe(0);
    const payload = JSON.parse(stdout) as MessagePayload;
    expect(Object.keys(payload).sort()).toEqual(['allowed_mentions', 'components', 'content', 'embeds', 'flags']);
    expect(payload.embeds[0]!.title).toBe('Spider-Man');
    expect(payload.flags).toBe(0);
    expect(stderr).toMatch(/in-process API replica/);
  }, 30_000);

  it('prints readable text and follows presses', async () => {
    const { code, stdout } = await cli(['hero', 'name:hulk', '--press', 'abilities', '--press', 'hero.p:1011:abilities:2:n']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Hulk · Abilities$/m);
    expect(stdout).toMatch(/\[Shift\] Indestructible Guard/);
    expect(stdout).toMatch(/\[Page 2 of 2 \(disabled\)\] hero\.p:1011:abilities:2:i/);
  }, 30_000);

  it('answers a real sample player and match, and prints every sample match as text', async () => {
    const { loadDataset } = await import('../src/replica/data/dataset.js');
    const data = loadDataset();
    // One process each: the command line's own path. Every sample through the router is
    // test/commands/player-match.test.ts's; each spawn here costs a second or two of both cores.
    const [player] = data.players.keys();
    const [match] = data.matches.keys();
    const answered = await cli(['player', `query:${player!}`, '--json']);
    expect(answered.code, player).toBe(0);
    expect((JSON.parse(answered.stdout) as MessagePayload).embeds[0]!.description).toContain(` · UID ${player!} · `);
    const printed = await cli(['match', `match:${match!}`]);
    expect(printed.code, match).toBe(0);
    expect(printed.stdout).toMatch(/^# Team A · (Victory|Defeat)$/m);
    // Every sample match as the command line prints it, in this process.
    const r = await replica();
    const b = bot(r);
    try {
      for (const uid of data.matches.keys()) {
        const { payload, view } = await b.run('match', { match: uid });
        expect(view.isError, uid).toBeFalsy();
        expect(payloadToText(payload), uid).toMatch(/^# Team A · (Victory|Defeat)$/m);
      }
    } finally {
      await b.close();
      await r.close();
    }
  }, 60_000);

  it('--locale answers in the member’s Discord language, as the router does on Discord', async () => {
    const overview = (locale: 'en' | 'fr' | 'es-ES') => (readLocaleFile(locale, 'hero').overview as { realName: string }).realName;
    const fieldNames = async (args: string[]) => {
      const { code, stdout } = await cli(['hero', 'name:hulk', '--json', ...args]);
      expect(code, args.join(' ')).toBe(0);
      return (JSON.parse(stdout) as MessagePayload).embeds[0]!.fields!.map((f) => f.name);
    };
    expect(overview('fr')).not.toBe(overview('en'));
    const french = await fieldNames(['--locale', 'fr']);
    expect(french).toContain(overview('fr'));
    expect(french).not.toContain(overview('en'));
    // A Discord code that is not ours by name (Latin American Spanish) is served by ours (es-ES).
    expect(await fieldNames(['--locale', 'es-419'])).toContain(overview('es-ES'));
    // English without the flag.
    expect(await fieldNames([])).toContain(overview('en'));
  }, 60_000);

  it('exits 1 when the bot answers with an error message', async () => {
    const { code, stdout } = await cli(['hero', 'name:zzqqxx']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/No hero is called “zzqqxx”/);
  }, 30_000);

  it.each([
    [['heros'], /unknown command "heros"/],
    [['hero'], /option "name" is required/],
    [['hero', 'nam:x'], /has no option "nam"/],
    [['hero', 'name:hulk', '--press', 'nope'], /nothing to press for "nope"/],
    [['hero', 'name:hulk', '--loud'], /unknown flag --loud/],
    [
      ['hero', 'name:hulk', '--locale', 'xx'],
      /unknown locale "xx"; the bot speaks en-US\/en-GB \(English\), es-ES\/es-419 \(Español\), pt-BR \(Português \(Brasil\)\), fr \(Français\), de \(Deutsch\), ja \(日本語\)[^]*\nusage: .*--locale <code>/,
    ],
    [['hero', 'name:hulk', '--locale'], /--locale needs a value/],
  ])(
    'exits 2 with a clear message on bad input: %j',
    async (args, message) => {
      const { code, stderr, stdout } = await cli(args);
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(stdout).toBe('');
    },
    30_000,
  );
});

/** The CLI run by Node from `cwd` (not through npm, which always runs from the checkout), with only `env`. */
function cliIn(cwd: string, args: string[], env: Record<string, string> = {}) {
  const tsx = pathToFileURL(fileURLToPath(import.meta.resolve('tsx'))).href;
  return run(process.execPath, ['--import', tsx, fileURLToPath(new URL('../src/cli.ts', import.meta.url)), ...args], env, cwd);
}

describe('the CLI’s first hour', () => {
  it('--help prints the usage, every command and examples, and exits 0', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run cli -- <command>/);
    for (const name of ['player', 'hero', 'match', 'leaderboard', 'patch-notes', 'ladder']) expect(stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(stdout).toContain('  npm run cli -- player query:Card1gan');
  }, 30_000);

  it('reads .env from where it runs, says which file (never its values), and the process environment wins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-env-'));
    try {
      writeFileSync(join(dir, '.env'), 'RIVALS_API_RPM=fast\nLOG_LEVEL=loud\n');
      const read = await cliIn(dir, ['hero', 'name:hulk']);
      expect(read.code).toBe(2);
      expect(read.stderr).toContain(`cli: read the environment from ${join(dir, '.env')}`);
      expect(read.stderr).toContain('RIVALS_API_RPM: must be a whole number from 1 (got "fast")');
      // Set in the process: the file's value is not used.
      const overridden = await cliIn(dir, ['hero', 'name:hulk'], { RIVALS_API_RPM: '30', LOG_LEVEL: 'warn' });
      expect(overridden.stderr).not.toContain('RIVALS_API_RPM');
      expect(overridden.code).toBe(0);
      expect(overridden.stdout).toMatch(/^# Hulk$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** One `$ npm run cli …` line of a fenced block in the README or a docs page, and the output lines shown under it. */
interface DocumentedRun {
  file: string;
  command: string;
  shown: string[];
}

/** Every documented run: a `$ ` line starting `npm run cli`, then what it prints (`...` stands for lines left out). */
function documentedRuns(): DocumentedRun[] {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const runs: DocumentedRun[] = [];
  for (const file of files) {
    let fenced = false;
    let current: DocumentedRun | undefined;
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (line.startsWith('```')) {
        fenced = !fenced;
        current = undefined;
      } else if (fenced && line.startsWith('$ ')) {
        current = line.startsWith('$ npm run cli') ? { file, command: line.slice(2), shown: [] } : undefined;
        if (current) runs.push(current);
      } else if (current && line.trim() !== '' && line.trim() !== '...') current.shown.push(line.trimEnd());
    }
  }
  return runs;
}

describe('the CLI examples of the README and docs/', () => {
  const runs = documentedRuns();

  it('finds the README’s examples', () => {
    expect(runs.filter((r) => r.file === 'README.md').length).toBeGreaterThanOrEqual(5);
    expect(runs.every((r) => r.shown.length > 0)).toBe(true);
  });

  // Run as typed, by a shell in the checkout, offline; each prints what the page shows (exit 1: an answered error).
  it.concurrent.each(runs.map((r) => [`${r.file}: ${r.command}`, r] as const))(
    '%s',
    async (_name, { command, shown }) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'cli-docs-'));
      try {
        const { code, stdout, stderr } = await run(
          'bash',
          ['-c', command],
          { DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
          fileURLToPath(new URL('..', import.meta.url)),
        );
        expect([0, 1], stderr).toContain(code);
        const printed = new Set(stdout.split('\n').map((l) => l.trimEnd()));
        expect(shown.filter((line) => !printed.has(line))).toEqual([]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
