import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeDiscord } from '../test/e2e/fake-discord.js';
const entries = process.argv.slice(2);
const res: Record<string, number[]> = {};
for (let run = 0; run < 5; run++) {
  for (const entry of entries) {
    const fake = await startFakeDiscord();
    const t0 = performance.now();
    const child = spawn(process.execPath, [entry], { env: { PATH: process.env.PATH!, DISCORD_TOKEN: 'x', DISCORD_API_URL: fake.apiUrl, RIVALS_API_KEY: 'k', RIVALS_API_BASE_URL: 'http://127.0.0.1:9', DATA_DIR: mkdtempSync(join(tmpdir(), 'cold-')), LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((r) => { child.stdout!.on('data', (c) => { out += c; if (out.includes('logged in to Discord')) r(); }); child.stderr!.on('data', (c) => (out += c)); setTimeout(r, 20000); });
    (res[entry] ??= []).push(Math.round(performance.now() - t0));
    child.kill('SIGKILL');
    await fake.close();
  }
}
for (const [k, v] of Object.entries(res)) console.log(k, v.sort((a, b) => a - b).join(' '));
