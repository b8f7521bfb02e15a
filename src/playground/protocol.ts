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

/** A member's roles changed (Discord: "Guild Member Update"); `roles` every role id they hold now, highest first. */
export interface MemberRolesEvent {
  type: 'member-roles';
  memberId: string;
  roles: string[];
}

/** What `GET /api/events` streams. */
export type PageEvent = MessageEvent | MemberRolesEvent;

/** A member's direct messages with the bot are the channel `dm-<member id>` (Discord: a DM channel, type 1), seen by that member alone. */
export const DM_CHANNEL_PREFIX = 'dm-';

/** `memberId`'s direct messages with the bot: commands there run with no server, as in a DM on Discord. */
export const dmChannelOf = (memberId: string): string => `${DM_CHANNEL_PREFIX}${memberId}`;

/** `GET /api/bootstrap`: everything the page needs to draw the server. */
export interface Bootstrap {
  /** `preferredLocale`: guild `preferred_locale`, one of {@link Bootstrap.languages}' codes. */
  guild: { id: string; name: string; preferredLocale: string };
  bot: { id: string; name: string };
  /**
   * The three people, then the seeded ladder's members. `locale`: the member's client's (interaction `locale`), one of
   * {@link Bootstrap.languages}' codes; `roles` the role ids they hold, highest first.
   */
  members: { id: string; name: string; admin: boolean; colour: string; locale: string; roles: string[] }[];
  /** English first. */
  languages: PlaygroundLanguage[];
  channels: { id: string; name: string; type: number; topic: string }[];
  /** The topic line of a member's DM channel with the bot ({@link DM_CHANNEL_PREFIX}). */
  directMessages: { topic: string };
  /** Highest first; `colour` `#000000` for none, as Discord. */
  roles: { id: string; name: string; colour: string; position: number; hoist: boolean; managed: boolean }[];
  /** Discord: "Bulk Overwrite Global Application Commands" body. */
  commands: Definition[];
  /** Oldest first. */
  messages: PlaygroundMessage[];
  /** Data from the in-process replica, where the page can add posts and play the game. */
  replica: boolean;
  /** The playground's web dashboard (src/web/), signed in as the acting member at `<dashboardUrl>/login?member=<id>`; absent: not started. */
  dashboardUrl?: string;
  /** What the replica holds to try (the welcome lists it); absent over the real API. */
  samples?: ReplicaSamples;
}

/** The players and matches the replica holds, as the welcome and docs/playground.md list them. */
export interface ReplicaSamples {
  /** In name order. `member`: the seeded ladder member linked to the player (null: free to link). */
  players: { uid: string; name: string; member: string | null }[];
  /** Match ids, in order. */
  matches: string[];
}

/** `GET /api/replica/game/players`: each replica player as the game and the API show them, for the page's "In game" panel. */
export interface GamePlayer {
  uid: string;
  name: string;
  /** The icon the API's profile shows now; `equipped` the one worn in game (the same, or one the API shows after its next update). */
  shown: { id: string; url: string } | null;
  equipped: { id: string; url: string } | null;
  /** The latest ranked season's division (1 … 23) and tier. */
  rank: { level: number; tier: string | null } | null;
  /** Ms until the API accepts an update of this player (0: now). */
  updateInMs: number;
}

/** `GET /api/replica/game`: the players, the icons a player may equip, the ranks a player may reach, and whose accounts the acting member linked. */
export interface GameState {
  players: GamePlayer[];
  icons: { id: string; url: string }[];
  /** Division levels 1 … 23 by name, lowest first. */
  ranks: { level: number; name: string }[];
  /** The UIDs the member asked about linked, their default first. */
  linked: string[];
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
