/** The e2e tier's setup: the production build (dist/, scripts/build.mjs), which the end-to-end tests run as production does. */
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stderr}`);
}
