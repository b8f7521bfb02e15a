/** Types of scripts/build.mjs (plain JavaScript so that `npm start` runs it straight after `npm ci`). */
/** The repository root, and where the build goes (ROOT/dist). */
export const ROOT: string;
export const DIST: string;
/** The playground page's script, built into `outdir` for the browser. */
export const PLAYGROUND_PAGE: string;
/** The newest modification time under the build's inputs (src/, package.json, the lock file, the build script), ms since the epoch. */
export function inputsChangedAt(): number;
/** True when the build in `outdir` (default dist/) is missing or older than its inputs. */
export function isStale(outdir?: string): boolean;
/**
 * Builds `outdir` (default dist/; emptied first); resolves with esbuild's warnings count and the files
 * with code in the output, relative to the repository (`node_modules/zod/v4/core/core.js`).
 * @throws esbuild's error when the code does not compile.
 */
export function build(options?: { outdir?: string; log?: (line: string) => void }): Promise<{ warnings: number; inputs: string[] }>;
