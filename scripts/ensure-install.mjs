/**
 * `pretest`: `npm test` on a fresh clone installs the dependencies once (`npm ci`), and on an installed one does
 * nothing, so that neither README command repeats the other's slow install. "Installed" means npm's own record of the
 * tree (`node_modules/.package-lock.json`) is newer than `package-lock.json`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const record = 'node_modules/.package-lock.json';
if (!existsSync(record) || statSync(record).mtimeMs < statSync('package-lock.json').mtimeMs) {
  process.stderr.write('pretest: the dependencies are not installed (or package-lock.json changed): npm ci first\n');
  const run = spawnSync('npm', ['ci'], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
