/** What the playground server and page exchange (JSON over HTTP, server-sent events): types and constants only, so the page's bundle can share them. */
import type { MessagePayload } from '../render/view.js';
import type { Definition } from './command-line.js';

/** Who ran the interaction a message answers (Discord: `message.interaction_metadata`). */
export interface MessageInteraction {
  userId: string;
  /** As members see it: `/hero`, `/config feed`, or a context-menu command's name. */
  command: string;
  kind: 'slash' | 'user' | 'component';
}

export interface PlaygroundMessage {
  id: string;
  channelId: string;
  interaction?: MessageInteraction;
  /** `thinking`: a deferred reply's placeholder; `updating`: a deferred component update (old content shown); `done`: showing `payload`. */
  state: 'thinking' | 'updating' | 'done';
  /** Discord: "Create Message" JSON; absent while thinking. */
  payload?: MessagePayload;
  ephemeral: boolean;
  /** The only member who sees an ephemeral message. */
  visibleTo?: string;
  /** Epoch ms. */
  createdAt: number;
  /** Published to following servers (Discord: "Crosspost Message"). */
  published?: boolean;
  /** Epoch ms of the bot's last edit outside an interaction (a corrected feed post); the page shows "(edited)". */
  editedAt?: number;
}

export type MessageEvent = { type: 'message'; message: PlaygroundMessage } | { type: 'delete'; id: string; channelId: string };

/** A member's direct messages with the bot are the channel `dm-<member id>` (Discord: a DM channel, type 1), seen by that member alone. */
export const DM_CHANNEL_PREFIX = 'dm-';

/** `memberId`'s direct messages with the bot: commands there run with no server, as in a DM on Discord. */
export const dmChannelOf = (memberId: string): string => `${DM_CHANNEL_PREFIX}${memberId}`;

/** `GET /api/bootstrap`: everything the page needs to draw the server. */
export interface Bootstrap {
  /** `preferredLocale`: guild `preferred_locale`, one of {@link Bootstrap.languages}' codes. */
  guild: { id: string; name: string; preferredLocale: string };
  bot: { id: string; name: string };
  /** `locale`: the member's client's (interaction `locale`), one of {@link Bootstrap.languages}' codes. */
  members: { id: string; name: string; admin: boolean; colour: string; locale: string }[];
  /** English first. */
  languages: PlaygroundLanguage[];
  channels: { id: string; name: string; type: number; topic: string }[];
  /** The topic line of a member's DM channel with the bot ({@link DM_CHANNEL_PREFIX}). */
  directMessages: { topic: string };
  roles: { id: string; name: string; colour: string }[];
  /** Discord: "Bulk Overwrite Global Application Commands" body. */
  commands: Definition[];
  /** Oldest first. */
  messages: PlaygroundMessage[];
  /** Data from the in-process replica, where the page can add posts. */
  replica: boolean;
}

export interface PlaygroundLanguage {
  /** The Discord locale code (`en-US`, `fr`). */
  code: string;
  /** Spelt out, as the page cannot import src/i18n (node:fs); guild.ts's `LANGUAGES` stops compiling if the two drift apart. */
  locale: 'en' | 'es-ES' | 'pt-BR' | 'fr' | 'de' | 'ja';
  /** In its own language. */
  name: string;
}

/** `POST /api/locales/member`: the Discord language of a member's client. */
export interface MemberLocale {
  memberId: string;
  /** One of {@link Bootstrap.languages}' codes. */
  locale: string;
}

/** `POST /api/locales/guild`: the server's Discord language (guild `preferred_locale`). */
export interface GuildLocale {
  /** One of {@link Bootstrap.languages}' codes. */
  locale: string;
}

/** `POST /api/replica/posts`: a post to add to the replica's feed. */
export interface NewPost {
  feed: 'patchNotes' | 'balances' | 'devDiaries';
  title: string;
  overview: string;
}

export type PostFeed = NewPost['feed'];

/** `GET /api/replica/posts?feed=`: one of a feed's latest posts, with its current values. */
export interface EditablePost {
  id: string;
  /** Empty when the API has none. */
  title: string;
  /** `YYYY-MM-DD` when the API's date reads as one; null when it has none. */
  date: string | null;
  overview: string;
  fullContent: string;
}

/** `PATCH /api/replica/posts/{feed}/{id}`: the fields of a post to replace (at least one). */
export interface PostEdit {
  title?: string;
  overview?: string;
  fullContent?: string;
}
