/** `.env` and the rule that a variable left empty is unset, for the bot and for the libraries that read the environment. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, GatewayIntentBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.js';
import { dropEmptyVariables, loadEnvFile } from '../../src/app/env-file.js';

const EXAMPLE = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
/** Every variable `.env.example` lists, set (`NAME=`) or commented out (`# NAME=`). */
const LISTED = [...EXAMPLE.matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);

const saved = { ...process.env };
const dirs: string[] = [];
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, saved);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function envFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'env-file-'));
  dirs.push(dir);
  writeFileSync(join(dir, '.env'), text);
  return join(dir, '.env');
}

describe('a variable left empty is unset', () => {
  it('reads the example’s variables: the list the tests below walk is the whole file', () => {
    expect(LISTED.length).toBeGreaterThan(30);
    expect(LISTED).toEqual(expect.arrayContaining(['DISCORD_TOKEN', 'SHARD_COUNT', 'SHARD_IDS', 'METRICS_PORT', 'REDIS_URL', 'REPLICA_HANG']));
  });

  it('deletes empty and blank variables from the environment, and only those', () => {
    const env: NodeJS.ProcessEnv = { A: '', B: '   ', C: 'x', D: ' y ' };
    expect(dropEmptyVariables(env).sort()).toEqual(['A', 'B']);
    expect(env).toEqual({ C: 'x', D: ' y ' });
  });

  it('leaves none of the example’s variables in process.env when `.env` is the example with every value blanked', () => {
    for (const name of LISTED) Reflect.deleteProperty(process.env, name);
    const blank = EXAMPLE.replace(/^([A-Z][A-Z0-9_]+)=.*$/gm, '$1=');
    expect(blank).toMatch(/^SHARD_COUNT=$/m);
    loadEnvFile(envFile(blank));
    expect(LISTED.filter((name) => name in process.env)).toEqual([]);
  });

  it('gives the same configuration for each of the example’s variables left empty as for it unset', () => {
    const base = { DISCORD_TOKEN: 'tok', DISCORD_CLIENT_ID: '123' };
    const unset = loadConfig(base);
    for (const name of LISTED.filter((n) => !(n in base))) {
      expect(loadConfig({ ...base, [name]: '' }), name).toEqual(unset);
      expect(loadConfig({ ...base, [name]: '  ' }), name).toEqual(unset);
    }
  });

  it('lets discord.js build its client from the example with only the required values filled in (an empty SHARD_COUNT used to throw)', () => {
    for (const name of LISTED) Reflect.deleteProperty(process.env, name);
    const filled = EXAMPLE.replace(/^DISCORD_TOKEN=$/m, 'DISCORD_TOKEN=example-token').replace(/^DISCORD_CLIENT_ID=$/m, 'DISCORD_CLIENT_ID=123');
    loadEnvFile(envFile(filled));
    expect(process.env.DISCORD_TOKEN).toBe('example-token');
    // The cause: discord.js reads SHARD_COUNT from the environment itself, and Number('') is 0.
    process.env.SHARD_COUNT = '';
    expect(() => new Client({ intents: [GatewayIntentBits.Guilds] })).toThrow(/shardCount/);
    dropEmptyVariables();
    const client = new Client({ intents: [GatewayIntentBits.Guilds] });
    expect(client.options.shardCount).toBe(1);
    void client.destroy();
  });

  it('lets the file’s value stand when the shell has the variable empty', () => {
    process.env.RIVALS_API_RPM = '';
    loadEnvFile(envFile('RIVALS_API_RPM=120\n'));
    expect(process.env.RIVALS_API_RPM).toBe('120');
  });

  it('keeps a value set in the shell over the file’s', () => {
    process.env.RIVALS_API_RPM = '90';
    loadEnvFile(envFile('RIVALS_API_RPM=120\n'));
    expect(process.env.RIVALS_API_RPM).toBe('90');
  });
});
