/**
 * The API's images (player icons, rank badges, hero portraits) for image cards: fetched once, kept on disk under a size
 * bound (least recently used out first) and in memory, so a card does not wait on the image host twice. A failure never
 * throws: the card draws a placeholder, and the URL is not tried again for {@link RETRY_AFTER_MS}.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { request, type Dispatcher } from 'undici';
import type { Logger } from '../core/logger.js';
import { settleUntilAborted } from '../core/deadline.js';

/** Image bytes by absolute URL; null when there is none to be had. Never rejects. */
export interface ImageSource {
  get(url: string, signal?: AbortSignal): Promise<Uint8Array | null>;
}

export interface ImageStoreOptions {
  /** Where the files go; null keeps images in memory only (tests, the CLI). */
  dir: string | null;
  /** Bound of the files on disk, bytes. */
  maxDiskBytes: number;
  /** Bound of the images kept in memory, bytes. Default 16 MiB. */
  maxMemoryBytes?: number;
  /** One image's download, ms. Default 2,000. */
  timeoutMs?: number;
  /** Larger answers are refused, bytes. Default 2 MiB. */
  maxImageBytes?: number;
  logger: Logger;
  dispatcher?: Dispatcher;
}

/** A failed URL waits this long before it is asked again, ms. */
export const RETRY_AFTER_MS = 10 * 60_000;
const SUFFIX = '.img';

const fileOf = (url: string) => `${createHash('sha256').update(url).digest('hex')}${SUFFIX}`;

export class ImageStore implements ImageSource {
  readonly #options: Required<Omit<ImageStoreOptions, 'dir' | 'dispatcher'>> & Pick<ImageStoreOptions, 'dir' | 'dispatcher'>;
  readonly #memory: LRUCache<string, Uint8Array>;
  /** File name → bytes on disk; dropping one deletes its file. */
  readonly #disk: LRUCache<string, number>;
  readonly #failed = new LRUCache<string, true>({ max: 2_000, ttl: RETRY_AFTER_MS });
  readonly #flights = new Map<string, Promise<Uint8Array | null>>();
  #ready?: Promise<void>;
  /** Counters for tests and benchmarks. */
  readonly stats = { downloads: 0, diskHits: 0, memoryHits: 0, failures: 0 };

  constructor(options: ImageStoreOptions) {
    this.#options = { maxMemoryBytes: 16 * 1024 * 1024, timeoutMs: 2_000, maxImageBytes: 2 * 1024 * 1024, ...options };
    this.#memory = new LRUCache({ maxSize: this.#options.maxMemoryBytes, sizeCalculation: (b) => Math.max(1, b.byteLength) });
    this.#disk = new LRUCache({
      maxSize: Math.max(1, this.#options.maxDiskBytes),
      sizeCalculation: (n) => Math.max(1, n),
      dispose: (_size, file, reason) => {
        if (reason === 'set') return;
        void unlink(join(this.#options.dir!, file)).catch((err: unknown) => this.#options.logger.debug({ err, file }, 'image file already gone'));
      },
    });
  }

  async get(url: string, signal?: AbortSignal): Promise<Uint8Array | null> {
    const kept = this.#memory.get(url);
    if (kept) {
      this.stats.memoryHits++;
      return kept;
    }
    if (this.#failed.has(url)) return null;
    let flight = this.#flights.get(url);
    if (!flight) {
      flight = this.#load(url).finally(() => this.#flights.delete(url));
      this.#flights.set(url, flight);
    }
    if (!signal) return flight;
    // A caller out of time goes on without the image; the download still fills the store for the next card.
    return settleUntilAborted(
      flight.catch(() => null),
      signal,
      () => null,
    );
  }

  async #load(url: string): Promise<Uint8Array | null> {
    try {
      const fromDisk = await this.#readDisk(url);
      if (fromDisk) {
        this.stats.diskHits++;
        this.#memory.set(url, fromDisk);
        return fromDisk;
      }
      const bytes = await this.#download(url);
      this.#memory.set(url, bytes);
      await this.#writeDisk(url, bytes);
      return bytes;
    } catch (err) {
      this.stats.failures++;
      this.#failed.set(url, true);
      this.#options.logger.debug({ err, url }, 'image not loaded: the card draws a placeholder');
      return null;
    }
  }

  /** Lists the files once, oldest use first, so the bound holds across restarts. */
  #index(): Promise<void> {
    const dir = this.#options.dir;
    if (!dir) return Promise.resolve();
    this.#ready ??= (async () => {
      await mkdir(dir, { recursive: true });
      const names = (await readdir(dir)).filter((n) => n.endsWith(SUFFIX));
      const files = await Promise.all(names.map(async (name) => ({ name, s: await stat(join(dir, name)).catch(() => null) })));
      for (const f of files.filter((x) => x.s !== null).sort((a, b) => a.s!.mtimeMs - b.s!.mtimeMs)) this.#disk.set(f.name, f.s!.size);
    })().catch((err: unknown) => {
      this.#options.logger.warn({ err, dir }, 'image folder unusable: images are kept in memory only');
      this.#options.dir = null;
    });
    return this.#ready;
  }

  async #readDisk(url: string): Promise<Uint8Array | null> {
    await this.#index();
    const dir = this.#options.dir;
    const file = fileOf(url);
    if (!dir || !this.#disk.has(file)) return null;
    try {
      const bytes = await readFile(join(dir, file));
      this.#disk.get(file);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch {
      this.#disk.delete(file);
      return null;
    }
  }

  async #writeDisk(url: string, bytes: Uint8Array): Promise<void> {
    const dir = this.#options.dir;
    if (!dir || bytes.byteLength > this.#options.maxDiskBytes) return;
    const file = fileOf(url);
    const temp = join(dir, `${file}.${process.pid}.tmp`);
    try {
      await writeFile(temp, bytes);
      await rename(temp, join(dir, file));
      this.#disk.set(file, bytes.byteLength);
    } catch (err) {
      this.#options.logger.warn({ err, dir }, 'image not written to disk: kept in memory only');
      await unlink(temp).catch(() => undefined);
    }
  }

  /** @throws Error for a non-2xx answer, a non-image type, a body over the limit, or the timeout. */
  async #download(url: string): Promise<Uint8Array> {
    const { timeoutMs, maxImageBytes, dispatcher } = this.#options;
    const signal = AbortSignal.timeout(timeoutMs);
    const res = await request(url, { signal, ...(dispatcher ? { dispatcher } : {}) });
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode < 200 || res.statusCode >= 300 || !type.startsWith('image/')) {
      await res.body.dump();
      throw new Error(`image answer ${res.statusCode} (${type || 'no type'})`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).byteLength;
      if (size > maxImageBytes) {
        res.body.destroy();
        throw new Error(`image over ${maxImageBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    this.stats.downloads++;
    const all = Buffer.concat(chunks);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  }
}
