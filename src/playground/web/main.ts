/** The playground page: a Discord-like server view over the playground's HTTP API, kept in step by server-sent events. */
import './component-config.js';
import '@skyra/discord-components-core';
import { commandLabel, localizeDefinition, type Definition, type RegisteredCommand } from '../command-line.js';
import {
  DM_CHANNEL_PREFIX,
  dmChannelOf,
  type Bootstrap,
  type EditablePost,
  type GamePlayer,
  type GameState,
  type NewPost,
  type PageEvent,
  type PlaygroundMessage,
  type PostEdit,
} from '../protocol.js';
import { Composer } from './composer.js';
import { isFrameKey, isPageLocale, pageMessages, type PageLocale } from './messages.js';
import type { MentionNames } from './markdown.js';
import { avatarOf, NAME_COLOUR, nameColour, NO_COLOUR, proxied, renderMessage, type RenderEnv } from './render.js';
import { el } from './dom.js';

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
    this.#setUpMembers();
    this.#drawMembers();
    this.#drawApps();
    this.#setUpPostDialog();
    this.#setUpEditDialog();
    this.#setUpGameDialog();
    this.#setUpDashboardLink();
    this.#setUpLightbox();
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
    this.#drawMembers();
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
      onImage: (url, name) => this.#openImage(url, name),
      onInGame: (uid) => void this.#openGame(uid),
    };
  }

  #visible(m: PlaygroundMessage): boolean {
    return m.channelId === this.channelId && (!m.ephemeral || m.visibleTo === this.memberId) && !this.dismissed.has(m.id);
  }

  #drawMessages(): void {
    const list = $('#messages');
    const atBottom = this.#nearBottom();
    list.replaceChildren(this.#channelStart(), ...[...this.messages.values()].filter((m) => this.#visible(m)).map((m) => renderMessage(m, this.#renderEnv)));
    if (atBottom) this.#scrollDown();
  }

  /**
   * The top of a channel's history, as Discord draws it ("Welcome to #general!"); in the first channel, on the replica,
   * what the replica holds to try: its players (the free one marked) and its matches, from the server's data.
   */
  #channelStart(): HTMLElement {
    const channel = this.#channel();
    const div = el('div', { class: 'empty channel-start' }, [
      el('h2', {}, [t.playgroundWelcome(channel.name)]),
      el('p', {}, [this.#inDm ? t.channelTopic(channel.name, channel.topic) : t.frame('channelStart', { channel: channel.name })]),
    ]);
    const samples = this.data.samples;
    if (!samples || channel.id !== this.data.channels[0]!.id) return div;
    const code = (text: string) => el('code', {}, [text]);
    const players = samples.players.map((p) =>
      el('li', { 'data-uid': p.uid }, [
        el('strong', {}, [p.name]),
        ' ',
        code(`UID ${p.uid}`),
        ...(p.member === null ? [' ', el('span', { class: 'sample-free' }, [t.frame('samplesFree')])] : []),
      ]),
    );
    const label = (command: string) => this.#commandLabel(command, 'slash');
    const how = t.frame('samplesHow', { player: SLOT, match: SLOT, link: SLOT, join: SLOT }).split(SLOT);
    const commands = [label('player'), label('match'), label('link'), label('ladder join')];
    div.append(
      el('section', { class: 'samples' }, [
        el('h3', {}, [t.frame('samplesTitle')]),
        el(
          'p',
          {},
          how.flatMap((part, i) => (i < commands.length ? [part, code(commands[i]!)] : [part])),
        ),
        el('h4', {}, [t.frame('samplesPlayers')]),
        el('ul', { class: 'sample-players' }, players),
        el('h4', {}, [t.frame('samplesMatches')]),
        el(
          'p',
          { class: 'sample-matches' },
          samples.matches.flatMap((m, i) => [...(i > 0 ? [' '] : []), code(m)]),
        ),
      ]),
    );
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

  #apply(event: PageEvent): void {
    if (event.type === 'member-roles') {
      const member = this.data.members.find((m) => m.id === event.memberId);
      if (member) member.roles = event.roles;
      this.#drawMembers();
      return;
    }
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
      else list.append(renderMessage(m, this.#renderEnv));
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
    source.onmessage = (e) => this.#apply(JSON.parse(e.data as string) as PageEvent);
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
      for (const m of this.data.members) m.roles = fresh.members.find((f) => f.id === m.id)?.roles ?? m.roles;
      this.#drawMessages();
      this.#drawMembers();
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

  /** The member menu closes on a click elsewhere. */
  #setUpMembers(): void {
    const menu = $('#member-menu');
    document.addEventListener('click', (e) => {
      if (!menu.contains(e.target as Node) && !(e.target as HTMLElement).closest('.member')) menu.hidden = true;
    });
  }

  /**
   * The member list as Discord draws it: a group per hoisted role (highest first) holding the members whose highest
   * hoisted role it is, then everyone else with the bot; each name in the colour of their highest coloured role.
   */
  #drawMembers(): void {
    const roles = this.data.roles;
    const colourOf = (m: Bootstrap['members'][number]) => nameColour(m, roles);
    const groupOf = (m: Bootstrap['members'][number]) => roles.find((r) => r.hoist && m.roles.includes(r.id))?.id ?? '';
    const rows = [
      ...this.data.members.map((m) => ({ id: m.id, name: m.name, colour: colourOf(m), bot: false, group: groupOf(m) })),
      { id: this.data.bot.id, name: this.data.bot.name, colour: NAME_COLOUR, bot: true, group: '' },
    ];
    const groups = [...roles.filter((r) => r.hoist).map((r) => ({ id: r.id, name: r.name })), { id: '', name: t.frame('members') }];
    $('#members').replaceChildren(
      ...groups.flatMap((g) => {
        const members = rows.filter((m) => m.group === g.id);
        if (members.length === 0) return [];
        const header = el('div', { class: 'member-group', 'data-group': g.id === '' ? 'members' : g.name }, [
          t.frame('membersGroup', { group: g.name, count: String(members.length) }),
        ]);
        return [header, ...members.map((m) => this.#memberRow(m))];
      }),
    );
  }

  #memberRow(m: { id: string; name: string; colour: string; bot: boolean }): HTMLElement {
    const row = el('button', { class: 'member', 'data-member': m.name, type: 'button' });
    const img = el<HTMLImageElement>('img', { src: avatarOf(m.id), alt: '' });
    const name = el('span', { class: 'member-name' }, [m.name]);
    name.style.color = m.colour;
    row.append(img, name);
    if (m.bot) {
      // Redrawn by #localize when the acting member's language changes.
      row.append(el('span', { class: 'bot-tag', 'data-text': 'appTag' }, [t.frame('appTag')]));
      return row;
    }
    const open = (e: MouseEvent) => {
      e.preventDefault();
      this.#openMemberMenu(m.id, row);
    };
    row.addEventListener('click', open);
    row.addEventListener('contextmenu', open);
    return row;
  }

  /** A member's card: their name, the roles they hold (as Discord's profile shows them), and the bot's user commands. */
  #openMemberMenu(memberId: string, row: HTMLElement): void {
    const menu = $('#member-menu');
    const member = this.data.members.find((m) => m.id === memberId)!;
    menu.dataset.target = memberId;
    $('#member-menu-title').textContent = member.name;
    const held = this.data.roles.filter((r) => member.roles.includes(r.id));
    $('#member-roles').replaceChildren(
      ...(held.length === 0
        ? [el('span', { class: 'role-none' }, [t.frame('noRoles')])]
        : held.map((r) => {
            const dot = el('span', { class: 'role-dot' });
            dot.style.background = r.colour === NO_COLOUR ? NAME_COLOUR : r.colour;
            return el('span', { class: 'role-pill', 'data-role': r.name }, [dot, r.name]);
          })),
    );
    const rect = row.getBoundingClientRect();
    menu.style.top = `${Math.min(rect.top, window.innerHeight - 260)}px`;
    menu.hidden = false;
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

  /** Opens `url` full size over the page, as Discord's image viewer: Escape or a click closes it. */
  #openImage(url: string, name: string): void {
    const box = $<HTMLDialogElement>('#lightbox');
    $<HTMLImageElement>('#lightbox-image').src = url;
    const save = $<HTMLAnchorElement>('#lightbox-download');
    save.href = url;
    save.download = name;
    box.showModal();
  }

  #setUpLightbox(): void {
    const box = $<HTMLDialogElement>('#lightbox');
    // Anywhere but the download link: the image, the dark around it.
    box.addEventListener('click', (e) => {
      if (!(e.target as HTMLElement).closest('#lightbox-download')) box.close();
    });
    box.addEventListener('close', () => $<HTMLImageElement>('#lightbox-image').removeAttribute('src'));
  }

  /** The header's Dashboard link: the playground's dashboard in a new tab, signed in as whoever acts when it is pressed. */
  #setUpDashboardLink(): void {
    const link = $<HTMLAnchorElement>('#dashboard');
    const base = this.data.dashboardUrl;
    if (!base) return;
    link.hidden = false;
    const point = () => (link.href = `${base}/login?member=${encodeURIComponent(this.memberId)}`);
    point();
    // Before the browser follows it, so a member chosen since counts.
    link.addEventListener('click', point);
  }

  /** The "In game" panel, on the replica only: the header button opens it on the acting member's own player. */
  #setUpGameDialog(): void {
    const open = $<HTMLButtonElement>('#in-game');
    const dialog = $<HTMLDialogElement>('#game-dialog');
    if (!this.data.replica) {
      open.hidden = true;
      return;
    }
    open.addEventListener('click', () => void this.#openGame());
    $('#game-close').addEventListener('click', () => dialog.close());
    $<HTMLSelectElement>('#game-player').addEventListener('change', () => this.#drawGame());
    $('#game-play').addEventListener('click', async () => {
      const player = this.#gamePlayer();
      if (!player) return;
      const level = Number($<HTMLSelectElement>('#game-rank').value);
      const button = $<HTMLButtonElement>('#game-play');
      button.disabled = true;
      const res = await api<GamePlayer & { error?: string }>('/api/replica/game/rank', { uid: player.uid, level });
      button.disabled = false;
      if (this.#gameAnswer(res))
        $('#game-status').append(
          el('p', { class: 'game-done' }, [t.frame('inGameRanked', { name: player.name, rank: res.body.rank?.tier ?? t.frame('inGameUnranked') })]),
        );
    });
    $('#game-skip').addEventListener('click', async () => {
      const player = this.#gamePlayer();
      if (player) this.#gameAnswer(await api<GamePlayer & { error?: string }>('/api/replica/game/update-cooldown', { uid: player.uid }));
    });
  }

  #game: GameState | undefined;

  /** Loads the game's state and opens the panel on `uid`, else the acting member's default linked player, else the first. */
  async #openGame(uid?: string): Promise<void> {
    const res = await api<GameState & { error?: string }>(`/api/replica/game?memberId=${encodeURIComponent(this.memberId)}`);
    if (res.status !== 200) {
      this.#toast(res.body.error ?? t.playgroundRefused(res.status));
      return;
    }
    this.#game = res.body;
    const linked = new Set(res.body.linked);
    // The member's linked players first, as they are the ones a member plays.
    const players = [...res.body.players].sort((a, b) => Number(linked.has(b.uid)) - Number(linked.has(a.uid)));
    const select = $<HTMLSelectElement>('#game-player');
    select.replaceChildren(
      ...players.map((p) => new Option(t.frame(linked.has(p.uid) ? 'inGameLinkedOption' : 'inGameOption', { name: p.name, uid: p.uid }), p.uid)),
    );
    select.value = uid ?? res.body.linked[0] ?? players[0]?.uid ?? '';
    $<HTMLSelectElement>('#game-rank').replaceChildren(...res.body.ranks.map((r) => new Option(r.name, String(r.level))));
    $('#game-error').textContent = '';
    this.#drawGame();
    const dialog = $<HTMLDialogElement>('#game-dialog');
    if (!dialog.open) dialog.showModal();
  }

  #gamePlayer(): GamePlayer | undefined {
    const uid = $<HTMLSelectElement>('#game-player').value;
    return this.#game?.players.find((p) => p.uid === uid);
  }

  /** Takes the replica's answer into the panel; false (and the reason shown) when it refused. */
  #gameAnswer(res: { status: number; body: GamePlayer & { error?: string } }): boolean {
    if (res.status !== 200) {
      $('#game-error').textContent = res.body.error ?? t.playgroundRefused(res.status);
      return false;
    }
    $('#game-error').textContent = '';
    if (this.#game) this.#game.players = this.#game.players.map((p) => (p.uid === res.body.uid ? res.body : p));
    this.#drawGame();
    return true;
  }

  /** The chosen player: what the API shows, what is equipped in game, the icons to equip and the rank to reach. */
  #drawGame(): void {
    const player = this.#gamePlayer();
    const game = this.#game;
    if (!player || !game) return;
    const rank = player.rank?.tier ?? t.frame('inGameUnranked');
    const lines = [t.frame('inGameShown', { icon: player.shown?.id ?? '—', rank })];
    const pending = player.equipped && player.equipped.id !== player.shown?.id ? player.equipped : null;
    if (pending) {
      const minutes = Math.ceil(player.updateInMs / 60_000);
      lines.push(
        minutes > 0 ? t.frame('inGamePendingLater', { icon: pending.id, minutes: String(minutes) }) : t.frame('inGamePendingNow', { icon: pending.id }),
      );
    }
    $('#game-status').replaceChildren(...lines.map((l) => el('p', {}, [l])));
    $('#game-skip').hidden = !pending || player.updateInMs <= 0;
    $('#game-icons').replaceChildren(
      ...game.icons.map((i) => {
        const worn = i.id === player.equipped?.id;
        const button = el<HTMLButtonElement>('button', { type: 'button', class: `game-icon${worn ? ' worn' : ''}`, 'data-icon': i.id, title: i.id }, [
          el('img', { src: proxied(i.url, 'icon'), alt: '' }),
          el('span', {}, [i.id]),
        ]);
        button.setAttribute('aria-pressed', String(worn));
        // The worn icon's frame and the status line say what changed.
        button.addEventListener(
          'click',
          async () => void this.#gameAnswer(await api<GamePlayer & { error?: string }>('/api/replica/game/icon', { uid: player.uid, iconId: i.id })),
        );
        return button;
      }),
    );
    $<HTMLSelectElement>('#game-rank').value = String(player.rank?.level ?? 1);
  }
}

void new App().start().catch((err: unknown) => {
  document.body.textContent = t.playgroundStartFailed(String(err));
});
