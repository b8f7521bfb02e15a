/** The playground page: a Discord-like server view over the playground's HTTP API, kept in step by server-sent events. */
import './component-config.js';
import '@skyra/discord-components-core';
import { commandLabel, localizeDefinition, type Definition, type RegisteredCommand } from '../command-line.js';
import {
  DM_CHANNEL_PREFIX,
  dmChannelOf,
  type Bootstrap,
  type EditablePost,
  type MessageEvent,
  type NewPost,
  type PlaygroundMessage,
  type PostEdit,
} from '../protocol.js';
import { Composer } from './composer.js';
import { isFrameKey, isPageLocale, pageMessages, type PageLocale } from './messages.js';
import type { MentionNames } from './markdown.js';
import { avatarOf, renderMessage, type RenderEnv } from './render.js';

/** English until the bootstrap says otherwise. */
let t = pageMessages('en');

/** Stands for `{{command}}` while its message is cut around it; no message holds this character. */
const SLOT = '\u0000';

const EDITABLE = ['title', 'overview', 'fullContent'] as const;

/** As the server compares it: trimmed, with a textarea's `\n` line breaks. */
const comparable = (text: string) => text.replace(/\r\n?/g, '\n').trim();

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

async function api<T>(path: string, body?: unknown, method = 'POST'): Promise<{ status: number; body: T }> {
  const res = await fetch(path, body === undefined ? {} : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

/** Discord's channel glyphs as inline SVG, so no icon or emoji font is needed. */
function channelIcon(announcement: boolean): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'channel-icon');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute(
    'd',
    announcement
      ? 'M3 10v4a1 1 0 0 0 1 1h2l4 4V5L6 9H4a1 1 0 0 0-1 1Zm9-4.5v13l8 3.5V2l-8 3.5Z'
      : 'M10.9 3 9.6 9H5.4l-.4 2h4.2l-.9 4H4.1l-.4 2h4.2l-1.3 6h2.1l1.3-6h4l-1.3 6h2.1l1.3-6h4.2l.4-2h-4.2l.9-4h4.2l.4-2h-4.2l1.3-6h-2.1l-1.3 6h-4l1.3-6h-2.1Zm.3 8h4l-.9 4h-4l.9-4Z',
  );
  svg.append(path);
  return svg;
}

/** A DM's icon: the other side's avatar, round, where a server channel has its glyph. */
function dmIcon(userId: string): HTMLImageElement {
  const img = document.createElement('img');
  img.className = 'channel-icon dm-avatar';
  img.src = avatarOf(userId);
  img.alt = '';
  return img;
}

class App {
  data!: Bootstrap;
  readonly messages = new Map<string, PlaygroundMessage>();
  readonly dismissed = new Set<string>();
  readonly unread = new Set<string>();
  /** Per Discord locale the acting member has had. */
  readonly #localizedCommands = new Map<string, Definition[]>();
  channelId = '';
  memberId = '';
  composer!: Composer;

  get names(): MentionNames {
    return {
      user: (id) => this.data.members.find((m) => m.id === id)?.name ?? (id === this.data.bot.id ? this.data.bot.name : undefined),
      channel: (id) => this.data.channels.find((c) => c.id === id)?.name,
      role: (id) => this.data.roles.find((r) => r.id === id),
    };
  }

  get member() {
    return this.data.members.find((m) => m.id === this.memberId)!;
  }

  async start(): Promise<void> {
    this.data = (await api<Bootstrap>('/api/bootstrap')).body;
    for (const m of this.data.messages) this.messages.set(m.id, m);
    this.memberId = this.data.members[0]!.id;
    this.channelId = this.data.channels[0]!.id;
    this.#localize();
    this.#setUpSwitchers();
    this.#drawSidebar();
    this.#drawMembers();
    this.#setUpPostDialog();
    this.#setUpEditDialog();
    this.composer = new Composer($('.composer'), {
      data: this.data,
      messages: () => t,
      member: () => this.memberId,
      channelName: () => this.#channel().name,
      dmName: () => (this.#inDm ? this.data.bot.name : undefined),
      definitions: () => this.#definitions(),
      send: (command) => this.#sendCommand(command),
      autocomplete: async (command, focused) =>
        (await api<{ choices: { name: string; value: string | number }[] }>('/api/interactions/autocomplete', { memberId: this.memberId, ...command, focused }))
          .body.choices,
    });
    this.#openChannel(this.channelId);
    this.#listen();
  }

  /** The open channel: a server channel, or the acting member's DM with the bot (Discord channel type 1, named after the bot). */
  #channel(): Bootstrap['channels'][number] {
    if (this.#inDm) return { id: this.channelId, name: this.data.bot.name, type: 1, topic: this.data.directMessages.topic };
    return this.data.channels.find((c) => c.id === this.channelId)!;
  }

  get #inDm(): boolean {
    return this.channelId.startsWith(DM_CHANNEL_PREFIX);
  }

  get #dmId(): string {
    return dmChannelOf(this.memberId);
  }

  /** The one serving the acting member's Discord locale; English when none does. */
  get #pageLocale(): PageLocale {
    const locale = this.data.languages.find((l) => l.code === this.member.locale)?.locale;
    return locale && isPageLocale(locale) ? locale : 'en';
  }

  /** Writes the page's frame in the acting member's language from its `data-text`, `data-title` and `data-aria-label` keys. */
  #localize(): void {
    const locale = this.#pageLocale;
    t = pageMessages(locale);
    document.documentElement.lang = locale;
    for (const el of document.querySelectorAll<HTMLElement>('[data-text]')) {
      const key = el.dataset.text!;
      if (!isFrameKey(key)) continue;
      const command = el.dataset.command;
      if (command === undefined) {
        el.textContent = t.frame(key);
        continue;
      }
      const [before = '', after = ''] = t.frame(key, { command: SLOT }).split(SLOT);
      const code = document.createElement('code');
      code.textContent = this.#commandLabel(command, 'slash');
      el.replaceChildren(before, code, after);
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-title]')) {
      const key = el.dataset.title!;
      if (isFrameKey(key)) el.title = t.frame(key);
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-aria-label]')) {
      const key = el.dataset.ariaLabel!;
      if (isFrameKey(key)) el.setAttribute('aria-label', t.frame(key));
    }
    // The open channel's topic, which the page writes for its own channels.
    if (this.channelId) {
      const channel = this.#channel();
      $('#channel-topic').textContent = t.channelTopic(channel.name, channel.topic);
    }
  }

  /** The six languages the bot speaks, by their own names. */
  #setUpSwitchers(): void {
    const memberLocale = $<HTMLSelectElement>('#member-locale');
    const guildLocale = $<HTMLSelectElement>('#guild-locale');
    for (const select of [memberLocale, guildLocale]) for (const l of this.data.languages) select.append(new Option(l.name, l.code));
    guildLocale.value = this.data.guild.preferredLocale;
    memberLocale.addEventListener('change', async () => {
      const member = this.member;
      const res = await api<{ ok: boolean; error?: string }>('/api/locales/member', { memberId: member.id, locale: memberLocale.value });
      if (!res.body.ok) {
        memberLocale.value = member.locale;
        this.#toast(res.body.error ?? t.playgroundRefused(res.status));
        return;
      }
      member.locale = memberLocale.value;
      this.#relocalize();
    });
    guildLocale.addEventListener('change', async () => {
      const res = await api<{ ok: boolean; error?: string }>('/api/locales/guild', { locale: guildLocale.value });
      if (!res.body.ok) {
        guildLocale.value = this.data.guild.preferredLocale;
        this.#toast(res.body.error ?? t.playgroundRefused(res.status));
        return;
      }
      this.data.guild.preferredLocale = guildLocale.value;
    });
  }

  /** The frame, sidebar, messages (Discord's own texts in them) and command bar follow the acting member and their language. */
  #relocalize(): void {
    this.#localize();
    this.#drawSidebar();
    this.#drawApps();
    this.#drawMessages();
    this.composer.reset();
  }

  /** Made once per locale. */
  #localized(): Definition[] {
    const locale = this.member.locale;
    let definitions = this.#localizedCommands.get(locale);
    if (!definitions) this.#localizedCommands.set(locale, (definitions = this.data.commands.map((d) => localizeDefinition(d, locale))));
    return definitions;
  }

  /** Discord hides commands whose default permissions the member lacks, and in a DM those not declared for DMs (context 1). */
  #definitions(): Definition[] {
    const dm = this.#inDm;
    return this.#localized().filter((d) => (dm ? (d.contexts?.includes(1) ?? false) : d.default_member_permissions == null || this.member.admin));
  }

  #commandLabel(command: string, kind: 'slash' | 'user'): string {
    return commandLabel(command, this.#localized(), kind);
  }

  async #sendCommand(command: RegisteredCommand): Promise<string | undefined> {
    const res = await api<{ ok: boolean; error?: string }>('/api/interactions/command', { memberId: this.memberId, channelId: this.channelId, ...command });
    return res.body.ok ? undefined : (res.body.error ?? t.playgroundRefused(res.status));
  }

  #toast(text: string): void {
    const toast = $('#toast');
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(Number(toast.dataset.timer));
    toast.dataset.timer = String(setTimeout(() => (toast.hidden = true), 4000));
  }

  async #component(messageId: string, customId: string, values: string[]): Promise<void> {
    const res = await api<{ ok: boolean; error?: string }>('/api/interactions/component', { memberId: this.memberId, messageId, customId, values });
    if (!res.body.ok) this.#toast(res.body.error ?? t.playgroundRefused(res.status));
  }

  get #renderEnv(): RenderEnv {
    return {
      data: this.data,
      names: this.names,
      messages: t,
      commandLabel: (command, kind) => this.#commandLabel(command, kind),
      onButton: (id, customId) => void this.#component(id, customId, []),
      onSelect: (id, customId, values) => void this.#component(id, customId, values),
      onDismiss: (id) => {
        this.dismissed.add(id);
        this.#drawMessages();
      },
    };
  }

  #visible(m: PlaygroundMessage): boolean {
    return m.channelId === this.channelId && (!m.ephemeral || m.visibleTo === this.memberId) && !this.dismissed.has(m.id);
  }

  #drawMessages(): void {
    const list = $('#messages');
    const atBottom = this.#nearBottom();
    list.replaceChildren(...[...this.messages.values()].filter((m) => this.#visible(m)).map((m) => renderMessage(m, this.#renderEnv)));
    if (list.children.length === 0) list.append(this.#emptyState());
    if (atBottom) this.#scrollDown();
  }

  #emptyState(): HTMLElement {
    const div = document.createElement('div');
    div.className = 'empty';
    const channel = this.#channel();
    const h = document.createElement('h2');
    h.textContent = t.playgroundWelcome(channel.name);
    const p = document.createElement('p');
    p.textContent = t.channelTopic(channel.name, channel.topic);
    div.append(h, p);
    return div;
  }

  #nearBottom(): boolean {
    const s = $('.scroller');
    return s.scrollHeight - s.scrollTop - s.clientHeight < 120;
  }

  #scrollDown(): void {
    requestAnimationFrame(() => {
      const s = $('.scroller');
      s.scrollTop = s.scrollHeight;
    });
  }

  #apply(event: MessageEvent): void {
    if (event.type === 'delete') {
      this.messages.delete(event.id);
      if (event.channelId === this.channelId) this.#drawMessages();
      return;
    }
    const m = event.message;
    const known = this.messages.has(m.id);
    this.messages.set(m.id, m);
    if (m.channelId === this.channelId) {
      const list = $('#messages');
      const old = list.querySelector(`[data-message-id="${m.id}"]`);
      const atBottom = this.#nearBottom();
      if (!this.#visible(m)) old?.remove();
      else if (old) old.replaceWith(renderMessage(m, this.#renderEnv));
      else {
        list.querySelector('.empty')?.remove();
        list.append(renderMessage(m, this.#renderEnv));
      }
      if (atBottom) this.#scrollDown();
    } else if (!known && (!m.ephemeral || m.visibleTo === this.memberId)) {
      // A new message marks its channel unread; an edit or an answer replacing "thinking" does not, as in Discord.
      this.unread.add(m.channelId);
      this.#drawSidebar();
    }
  }

  #listen(): void {
    const source = new EventSource('/api/events');
    let dropped = false;
    source.onmessage = (e) => this.#apply(JSON.parse(e.data as string) as MessageEvent);
    source.onerror = () => {
      dropped = true;
      $('#offline').hidden = false;
    };
    source.onopen = async () => {
      $('#offline').hidden = true;
      if (!dropped) return;
      // Missed events while away: take the server's list again.
      const fresh = (await api<Bootstrap>('/api/bootstrap')).body;
      this.messages.clear();
      for (const m of fresh.messages) this.messages.set(m.id, m);
      this.#drawMessages();
    };
  }

  #openChannel(id: string): void {
    this.channelId = id;
    this.unread.delete(id);
    const channel = this.#channel();
    $('#channel-name').textContent = channel.name;
    $('#channel-hash').replaceChildren(channel.type === 1 ? dmIcon(this.data.bot.id) : channelIcon(channel.type === 5));
    $('#channel-topic').textContent = t.channelTopic(channel.name, channel.topic);
    $('#messages').setAttribute('data-channel', channel.name);
    this.#drawSidebar();
    this.#drawMessages();
    this.composer.reset();
    this.#scrollDown();
  }

  #drawSidebar(): void {
    $('#guild-name').textContent = this.data.guild.name;
    const list = $('#channels');
    list.replaceChildren(
      ...this.data.channels.map((c) => {
        const item = document.createElement('button');
        item.className = `channel${c.id === this.channelId ? ' active' : ''}${this.unread.has(c.id) ? ' unread' : ''}`;
        item.dataset.channel = c.name;
        item.append(channelIcon(c.type === 5), c.name);
        item.addEventListener('click', () => this.#openChannel(c.id));
        return item;
      }),
      this.#dmItem(),
    );
    const select = $<HTMLSelectElement>('#member-switch');
    if (select.options.length === 0) {
      for (const m of this.data.members) select.append(new Option(m.name, m.id));
      select.addEventListener('change', () => {
        this.memberId = select.value;
        // A DM is its member's own: the new member's opens in its place.
        if (this.#inDm) this.#openChannel(this.#dmId);
        this.#relocalize();
      });
    }
    for (const option of select.options) {
      const m = this.data.members.find((x) => x.id === option.value)!;
      option.text = m.admin ? t.frame('adminName', { name: m.name }) : m.name;
    }
    select.value = this.memberId;
    const memberLocale = $<HTMLSelectElement>('#member-locale');
    memberLocale.value = this.member.locale;
    memberLocale.title = t.frame('languageTitle', { name: this.member.name });
    $<HTMLImageElement>('#me-avatar').src = avatarOf(this.memberId);
    $('#me-name').textContent = this.member.name;
    $('#me-role').textContent = t.frame(this.member.admin ? 'roleAdmin' : 'roleMember');
  }

  /** The acting member's DM with the bot, below the server's channels, as Discord lists a DM: the bot's avatar and name. */
  #dmItem(): HTMLElement {
    const id = this.#dmId;
    const item = document.createElement('button');
    item.className = `channel dm${id === this.channelId ? ' active' : ''}${this.unread.has(id) ? ' unread' : ''}`;
    item.dataset.channel = 'dm';
    item.append(dmIcon(this.data.bot.id), this.data.bot.name);
    item.addEventListener('click', () => this.#openChannel(id));
    return item;
  }

  #drawMembers(): void {
    const list = $('#members');
    const menu = $('#member-menu');
    list.replaceChildren(
      ...[
        ...this.data.members.map((m) => ({ id: m.id, name: m.name, colour: m.colour, bot: false })),
        { id: this.data.bot.id, name: this.data.bot.name, colour: '#dbdee1', bot: true },
      ].map((m) => {
        const row = document.createElement('button');
        row.className = 'member';
        row.dataset.member = m.name;
        const img = document.createElement('img');
        img.src = avatarOf(m.id);
        img.alt = '';
        const name = document.createElement('span');
        name.textContent = m.name;
        name.style.color = m.colour;
        row.append(img, name);
        if (m.bot) {
          const tag = document.createElement('span');
          tag.className = 'bot-tag';
          // Redrawn by #localize when the acting member's language changes.
          tag.dataset.text = 'appTag';
          tag.textContent = t.frame('appTag');
          row.append(tag);
        } else {
          const open = (e: MouseEvent) => {
            e.preventDefault();
            menu.dataset.target = m.id;
            $('#member-menu-title').textContent = m.name;
            const rect = row.getBoundingClientRect();
            menu.style.top = `${rect.top}px`;
            menu.hidden = false;
          };
          row.addEventListener('click', open);
          row.addEventListener('contextmenu', open);
        }
        return row;
      }),
    );
    document.addEventListener('click', (e) => {
      if (!menu.contains(e.target as Node) && !(e.target as HTMLElement).closest('.member')) menu.hidden = true;
    });
    this.#drawApps();
  }

  /** The member menu's Apps: the bot's user commands, named in the acting member's language. */
  #drawApps(): void {
    const menu = $('#member-menu');
    const apps = this.data.commands.filter((d) => d.type === 2);
    $('#member-apps').replaceChildren(
      ...apps.map((d) => {
        const item = document.createElement('button');
        item.textContent = this.#commandLabel(d.name, 'user');
        item.addEventListener('click', async () => {
          menu.hidden = true;
          const res = await api<{ ok: boolean; error?: string }>('/api/interactions/user-command', {
            memberId: this.memberId,
            channelId: this.channelId,
            name: d.name,
            targetId: menu.dataset.target,
          });
          if (!res.body.ok) this.#toast(res.body.error ?? t.playgroundRefused(res.status));
        });
        return item;
      }),
    );
  }

  #setUpPostDialog(): void {
    const open = $<HTMLButtonElement>('#add-post');
    const dialog = $<HTMLDialogElement>('#post-dialog');
    if (!this.data.replica) {
      open.hidden = true;
      return;
    }
    open.addEventListener('click', () => dialog.showModal());
    $('#post-cancel').addEventListener('click', () => dialog.close());
    $<HTMLFormElement>('#post-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const form = e.target as HTMLFormElement;
      const post = Object.fromEntries(new FormData(form)) as unknown as NewPost;
      const res = await api<{ id?: string; error?: string }>('/api/replica/posts', post);
      if (res.status !== 201) {
        $('#post-error').textContent = res.body.error ?? t.playgroundPostRefused(res.status);
        return;
      }
      $('#post-error').textContent = '';
      form.reset();
      dialog.close();
      this.#toast(t.playgroundPostAdded());
    });
  }

  /** The "Edit a post at the API" dialog: Save sends only the changed fields; the server answers once the poller has edited the messages. */
  #setUpEditDialog(): void {
    const open = $<HTMLButtonElement>('#edit-post');
    const dialog = $<HTMLDialogElement>('#edit-dialog');
    if (!this.data.replica) {
      open.hidden = true;
      return;
    }
    const form = $<HTMLFormElement>('#edit-form');
    const feed = $<HTMLSelectElement>('#edit-feed');
    const id = $<HTMLSelectElement>('#edit-id');
    const error = $('#edit-error');
    const submit = $<HTMLButtonElement>('#edit-submit');
    const field = (name: (typeof EDITABLE)[number]) => form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement;
    let posts: EditablePost[] = [];
    let loads = 0;
    const chosen = () => posts.find((p) => p.id === id.value);
    const fill = () => {
      const post = chosen();
      for (const name of EDITABLE) field(name).value = post?.[name] ?? '';
      submit.disabled = !post;
    };
    const load = async (keep?: string) => {
      const ticket = ++loads;
      error.textContent = '';
      posts = [];
      id.replaceChildren(new Option(t.frame('editLoading'), ''));
      fill();
      const res = await api<{ posts?: EditablePost[]; error?: string }>(`/api/replica/posts?feed=${encodeURIComponent(feed.value)}`);
      if (ticket !== loads) return; // another feed was picked meanwhile
      if (res.status !== 200 || !res.body.posts) {
        id.replaceChildren();
        error.textContent = res.body.error ?? t.playgroundPostRefused(res.status);
        return;
      }
      posts = res.body.posts;
      id.replaceChildren(
        ...(posts.length > 0
          ? posts.map((p) => new Option(p.date ? `${p.title || p.id} · ${p.date}` : p.title || p.id, p.id))
          : [new Option(t.frame('editEmpty'), '')]),
      );
      if (keep && posts.some((p) => p.id === keep)) id.value = keep;
      fill();
    };
    open.addEventListener('click', () => {
      dialog.showModal();
      void load(id.value);
    });
    feed.addEventListener('change', () => void load());
    id.addEventListener('change', fill);
    form.addEventListener('input', () => (error.textContent = ''));
    $('#edit-cancel').addEventListener('click', () => dialog.close());
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const post = chosen();
      if (!post) return;
      const edit: PostEdit = {};
      for (const name of EDITABLE) if (comparable(field(name).value) !== comparable(post[name])) edit[name] = field(name).value;
      if (Object.keys(edit).length === 0) {
        error.textContent = t.frame('editUnchanged');
        return;
      }
      submit.disabled = true;
      const res = await api<EditablePost & { error?: string }>(`/api/replica/posts/${feed.value}/${encodeURIComponent(post.id)}`, edit, 'PATCH');
      submit.disabled = false;
      if (res.status !== 200) {
        error.textContent = res.body.error ?? t.playgroundPostRefused(res.status);
        return;
      }
      error.textContent = '';
      posts = posts.map((p) => (p.id === post.id ? res.body : p));
      dialog.close();
      this.#toast(t.frame('editSaved'));
    });
  }
}

void new App().start().catch((err: unknown) => {
  document.body.textContent = t.playgroundStartFailed(String(err));
});
