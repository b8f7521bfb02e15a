/** The channels' messages, in memory, with change events for the page. Only the bot posts: a command shows as its answer's header. */
import { EventEmitter } from 'node:events';
import { splitFiles, type MessagePayload } from '../render/view.js';
import type { MessageEvent, PlaygroundMessage } from './protocol.js';

export type { MessageEvent, MessageInteraction, PlaygroundMessage } from './protocol.js';

/** Older ones are dropped. */
export const MESSAGES_PER_CHANNEL = 200;

/** 2015-01-01, for snowflake ids (Discord: "Snowflakes"). */
const DISCORD_EPOCH = 1_420_070_400_000n;

/**
 * A payload as Discord shows it posted: files become `attachments` with a URL (a `data:` URL: no CDN here), their size and
 * type (Discord: "Attachment Object"), which `attachment://` images show.
 */
export function asPosted(payload: MessagePayload): MessagePayload {
  const { json, files } = splitFiles(payload);
  if (files.length === 0) return json;
  const byName = new Map(files.map((f) => [f.name, f]));
  const urls = new Map(files.map((f) => [f.name, `data:${f.contentType};base64,${Buffer.from(f.data).toString('base64')}`]));
  const shown = (url: string) => (url.startsWith('attachment://') ? (urls.get(url.slice('attachment://'.length)) ?? url) : url);
  return {
    ...json,
    attachments: json.attachments?.map((a) => {
      const file = byName.get(a.filename);
      return { ...a, url: urls.get(a.filename), ...(file ? { size: file.data.byteLength, content_type: file.contentType } : {}) };
    }),
    embeds: json.embeds.map((e) => (e.image ? { ...e, image: { ...e.image, url: shown(e.image.url) } } : e)),
  };
}

/** The messages of every playground channel. */
export class MessageStore {
  readonly #byChannel = new Map<string, PlaygroundMessage[]>();
  readonly #events = new EventEmitter();
  readonly #now: () => number;
  #sequence = 0n;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#events.setMaxListeners(0);
  }

  /** A new snowflake id, increasing. */
  #nextId(): string {
    this.#sequence = (this.#sequence + 1n) % 4096n;
    return (((BigInt(this.#now()) - DISCORD_EPOCH) << 22n) | this.#sequence).toString();
  }

  /** Adds a message (id and time assigned) and announces it. */
  create(message: Omit<PlaygroundMessage, 'id' | 'createdAt'>): PlaygroundMessage {
    const created: PlaygroundMessage = {
      ...message,
      ...(message.payload ? { payload: asPosted(message.payload) } : {}),
      id: this.#nextId(),
      createdAt: this.#now(),
    };
    const list = this.#byChannel.get(created.channelId) ?? [];
    list.push(created);
    if (list.length > MESSAGES_PER_CHANNEL) list.splice(0, list.length - MESSAGES_PER_CHANNEL);
    this.#byChannel.set(created.channelId, list);
    this.#emit({ type: 'message', message: created });
    return created;
  }

  /** Replaces fields of a message and announces it. @throws {Error} when the message does not exist (deleted, or dropped as too old). */
  update(id: string, patch: Partial<Pick<PlaygroundMessage, 'state' | 'payload' | 'published' | 'editedAt'>>): PlaygroundMessage {
    const found = this.get(id);
    if (!found) throw new Error(`Unknown Message ${id}`);
    Object.assign(found, patch.payload ? { ...patch, payload: asPosted(patch.payload) } : patch);
    this.#emit({ type: 'message', message: found });
    return found;
  }

  /** Deletes a message; a no-op when it does not exist. */
  delete(id: string): void {
    for (const [channelId, list] of this.#byChannel) {
      const index = list.findIndex((m) => m.id === id);
      if (index >= 0) {
        list.splice(index, 1);
        this.#emit({ type: 'delete', id, channelId });
        return;
      }
    }
  }

  /** A message by id, in any channel; undefined once deleted or dropped. */
  get(id: string): PlaygroundMessage | undefined {
    for (const list of this.#byChannel.values()) {
      const found = list.find((m) => m.id === id);
      if (found) return found;
    }
    return undefined;
  }

  /** A channel's messages, oldest first, ephemeral ones included (the page shows each to its member only). */
  list(channelId: string): PlaygroundMessage[] {
    return [...(this.#byChannel.get(channelId) ?? [])];
  }

  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: (event: MessageEvent) => void): () => void {
    this.#events.on('change', listener);
    return () => this.#events.off('change', listener);
  }

  #emit(event: MessageEvent): void {
    this.#events.emit('change', event);
  }
}
