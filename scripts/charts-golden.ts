/**
 * `tsx scripts/charts-golden.ts` (npm run charts:golden): redraws the golden images the chart tests
 * compare against, test/fixtures/charts/<name>.png, one per spec of `goldenSpecs()`
 * (test/charts/sample-specs.ts), through the real worker pool. Run it after a deliberate change to
 * the charts' look, look at the images, and commit them. The English ones that docs/data.md shows are copied to docs/charts/,
 * so the documentation always shows the charts as the bot draws them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChartRenderer } from '../src/charts/renderer.js';
import { goldenSpecs } from '../test/charts/sample-specs.js';

/** Where the golden images live. */
const GOLDEN_DIR = fileURLToPath(new URL('../test/fixtures/charts/', import.meta.url));
/** The documentation's images: docs/charts/<file> of golden <name>. */
const DOCS_DIR = fileURLToPath(new URL('../docs/charts/', import.meta.url));
const DOCS: Record<string, string> = {
  'compare-rank': 'compare.png',
  'hero-performance': 'hero-performance.png',
  'ladder-card': 'ladder-card.png',
  'ladder-card-season': 'ladder-card-season.png',
  'match-card': 'match-card.png',
  'meta-scatter': 'meta.png',
  'profile-card': 'profile-card.png',
  'rank-history-real': 'rank-history.png',
};

const renderer = createChartRenderer();
try {
  mkdirSync(GOLDEN_DIR, { recursive: true });
  for (const [name, spec] of Object.entries(goldenSpecs())) {
    const png = await renderer.render(spec);
    writeFileSync(join(GOLDEN_DIR, `${name}.png`), png);
    const doc = DOCS[name];
    if (doc) writeFileSync(join(DOCS_DIR, doc), png);
    process.stdout.write(`${name}.png  ${png.byteLength} bytes\n`);
  }
} finally {
  await renderer.close();
}
