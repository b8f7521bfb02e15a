/**
 * `tsx scripts/charts-golden.ts` (npm run charts:golden): redraws the golden images the chart tests
 * compare against, test/fixtures/charts/<name>.png, one per spec of `goldenSpecs()`
 * (test/charts/sample-specs.ts), through the real worker pool. Run it after a deliberate change to
 * the charts' look, look at the images, and commit them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChartRenderer } from '../src/charts/renderer.js';
import { goldenSpecs } from '../test/charts/sample-specs.js';

/** Where the golden images live. */
const GOLDEN_DIR = fileURLToPath(new URL('../test/fixtures/charts/', import.meta.url));

const renderer = createChartRenderer();
try {
  mkdirSync(GOLDEN_DIR, { recursive: true });
  for (const [name, spec] of Object.entries(goldenSpecs())) {
    const png = await renderer.render(spec);
    writeFileSync(join(GOLDEN_DIR, `${name}.png`), png);
    process.stdout.write(`${name}.png  ${png.byteLength} bytes\n`);
  }
} finally {
  await renderer.close();
}
