/**
 * Headless Chromium for browser tests: the build in the `@sparticuz/chromium` package (a
 * chrome-headless-shell, decompressed to os.tmpdir() on first use), driven by playwright-core with the
 * flags this machine needs and a fresh user-data dir per launch. `CHROMIUM_PATH` names another Chromium.
 * Screenshots go to test-artifacts/ (kept by CI, ignored by git).
 */
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { chmod, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';
import Chromium from '@sparticuz/chromium';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'playground');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/**
 * The libraries the @sparticuz/chromium binary links beyond glibc (NSS, NSPR, expat), which a stock
 * Debian lacks. The package ships them for Amazon Linux 2023 (al2023.tar.br) and unpacks them only
 * there; they are unpacked here the same way, to <tmpdir>/al2023/lib, through a staging directory so
 * that concurrent callers never see half an archive.
 */
async function bundledLibraries(): Promise<string> {
  const target = join(tmpdir(), 'al2023');
  const lib = join(target, 'lib');
  if (existsSync(join(lib, 'libnss3.so'))) return lib;
  const archive = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', '..', 'bin', 'al2023.tar.br');
  const staging = await mkdtemp(join(tmpdir(), 'al2023-'));
  try {
    // Through a file, not a pipe: tar stops reading at the archive's end marker, before the padding
    // after it, and a writer still writing into its stdin then fails.
    const tarball = join(staging, 'al2023.tar');
    await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(tarball));
    await promisify(execFile)('tar', ['-x', '-f', tarball, '-C', staging]);
    await rm(tarball);
    await chmod(staging, 0o755); // mkdtemp's 0700 would hide the libraries from other users of the machine
    await rename(staging, target).catch((error: unknown) => {
      if (!existsSync(join(lib, 'libnss3.so'))) throw error; // lost the race to another caller, who finished
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return lib;
}

/**
 * The Chromium to launch and the environment it needs: `CHROMIUM_PATH` as it is, or the
 * @sparticuz/chromium build with its bundled libraries (LD_LIBRARY_PATH) and fonts (FONTCONFIG_PATH,
 * Open Sans: the same text rendering on every machine, which may have no fonts at all). The global
 * setup calls this once before the tests, so that parallel test files never unpack it at once.
 */
export async function chromiumExecutable(): Promise<{ executablePath: string; env: Record<string, string> }> {
  if (process.env.CHROMIUM_PATH) return { executablePath: process.env.CHROMIUM_PATH, env: {} };
  const executablePath = await Chromium.executablePath(); // also unpacks the fonts to <tmpdir>/fonts
  const lib = await bundledLibraries();
  return {
    executablePath,
    env: {
      LD_LIBRARY_PATH: [lib, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: join(tmpdir(), 'fonts'),
    },
  };
}

/** A browser context on a fresh profile; `close()` also deletes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const { executablePath, env } = await chromiumExecutable();
  const profile = mkdtempSync(join(tmpdir(), 'rivals-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    env: { ...process.env, ...env },
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: FLAGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-window screenshot as test-artifacts/playground/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * The first message `act` adds to the playground's open channel, as a locator by its id; rejects after `timeoutMs` when
 * none comes.
 */
export async function newMessage(page: Page, act: () => Promise<void>, timeoutMs = 15_000): Promise<Locator> {
  const before = await page.locator('#messages > discord-message').evaluateAll((ms) => ms.map((m) => m.getAttribute('data-message-id')));
  await act();
  const id = await page.waitForFunction(
    `[...document.querySelectorAll('#messages > discord-message')].map((m) => m.dataset.messageId).find((id) => !${JSON.stringify(before)}.includes(id))`,
    undefined,
    { timeout: timeoutMs },
  );
  return page.locator(`#messages > discord-message[data-message-id="${String(await id.jsonValue())}"]`);
}

/** Switches the playground's "Acting as" to the member `name` (Alex is the admin) and waits for the page to show it. */
export async function actAs(page: Page, name: string): Promise<void> {
  await page.selectOption('#member-switch', { label: name === 'Alex' ? 'Alex (admin)' : name });
  await page.locator('#me-name', { hasText: name }).waitFor();
}
