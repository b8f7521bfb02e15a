/**
 * What the playground server and its page exchange (JSON over HTTP and server-sent events). Types
 * only, with no Node imports, so the page's bundle can share them.
 */
import type { MessagePayload } from '../render/view.js';
import type { Definition } from './command-line.js';

/** Who ran the interaction a message answers (Discord: `message.interaction_metadata`). */
export interface MessageInteraction {
  userId: string;
  /** What they ran, as members see it: `/hero`, `/config feed`, or a context-menu command's name. */
  command: string;
  kind: 'slash' | 'user' | 'component';
}

/** A message in a playground channel. */
export interface PlaygroundMessage {
  id: string;
  channelId: string;
  interaction?: MessageInteraction;
  /**
   * `thinking`: a deferred reply's placeholder ("Rivals Bot is thinking..."); `updating`: a deferred
   * component update in progress (the message shows its old content); `done`: showing `payload`.
   */
  state: 'thinking' | 'updating' | 'done';
  /** The message as Discord would receive it (Discord: "Create Message" JSON); absent while thinking. */
  payload?: MessagePayload;
  ephemeral: boolean;
  /** The only member who sees an ephemeral message. */
  visibleTo?: string;
  /** Epoch ms. */
  createdAt: number;
  /** Published to following servers (announcement channels, Discord: "Crosspost Message"). */
  published?: boolean;
  /** When the bot last edited the message outside an interaction (a corrected feed post, Discord: "Edit Message"), epoch ms; the page shows "(edited)". */
  editedAt?: number;
}

/** A change the page applies: a message created or replaced, or deleted. */
export type MessageEvent = { type: 'message'; message: PlaygroundMessage } | { type: 'delete'; id: string; channelId: string };

/** `GET /api/bootstrap`: everything the page needs to draw the server. */
export interface Bootstrap {
  /** `preferredLocale`: the server's Discord locale (guild `preferred_locale`), one of {@link Bootstrap.languages}' codes. */
  guild: { id: string; name: string; preferredLocale: string };
  bot: { id: string; name: string };
  /** `locale`: the Discord locale of the member's client (interaction `locale`), one of {@link Bootstrap.languages}' codes. */
  members: { id: string; name: string; admin: boolean; colour: string; locale: string }[];
  /** The languages the switchers offer, English first. */
  languages: PlaygroundLanguage[];
  channels: { id: string; name: string; type: number; topic: string }[];
  roles: { id: string; name: string; colour: string }[];
  /** The bot's registration payload (Discord: "Bulk Overwrite Global Application Commands" body). */
  commands: Definition[];
  /** Every channel's messages, oldest first. */
  messages: PlaygroundMessage[];
  /** Whether the game data comes from the in-process replica, where the page can add posts. */
  replica: boolean;
}

/** A language the playground offers: a Discord locale the bot speaks. */
export interface PlaygroundLanguage {
  /** The Discord locale code (`en-US`, `fr`). */
  code: string;
  /**
   * The bot's locale serving it, which the page's own texts use: one of src/i18n's `LOCALES`, spelt
   * out here because the page's code cannot import src/i18n (node:fs); src/playground/guild.ts's
   * `LANGUAGES` stops compiling if the two drift apart.
   */
  locale: 'en' | 'es-ES' | 'pt-BR' | 'fr' | 'de' | 'ja';
  /** Its name in its own language (src/i18n `LOCALE_NAMES`). */
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

/** A feed of posts the replica can add to and change. */
export type PostFeed = NewPost['feed'];

/** `GET /api/replica/posts?feed=`: one of a feed's latest posts, as the edit dialog shows it (its current values). */
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
