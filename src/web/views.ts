/**
 * The dashboard's pages: Eta templates, which escape every value they print (`<%= %>`); the only unescaped output
 * (`<%~ %>`) is a page's body and the answers of {@link answerHtml}, which escapes its text before it adds markup.
 * The style sheet is served from /assets/web.css: the content security policy allows no inline style or script.
 */
import { Eta } from 'eta';
import type { APIEmbed } from 'discord-api-types/v10';

const LAYOUT = `<!doctype html>
<html lang="<%= it.lang %>">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.title %></title>
<% if (it.noindex) { %><meta name="robots" content="noindex"><% } %>
<link rel="stylesheet" href="/assets/web.css">
</head>
<body>
<a class="skip" href="#main"><%= it.t.skip %></a>
<header class="top">
  <a class="brand" href="/"><%= it.t.title %></a>
  <nav class="languages" aria-label="<%= it.t.language %>">
    <ul><% it.languages.forEach(function (l) { %><li><a href="?lang=<%= l.code %>" lang="<%= l.code %>"<% if (l.current) { %> aria-current="true"<% } %>><%= l.name %></a></li><% }) %></ul>
  </nav>
  <% if (it.user) { %>
  <form class="signout" method="post" action="/logout">
    <span><%= it.user %></span>
    <input type="hidden" name="_csrf" value="<%= it.csrf %>">
    <button type="submit"><%= it.t.signOut %></button>
  </form>
  <% } %>
</header>
<main id="main">
<%~ it.body %>
</main>
</body>
</html>`;

const LANDING = `<% layout('@layout', it) %>
<h1><%= it.t.title %></h1>
<p><%= it.t.landing %></p>
<p><a class="button" href="<%= it.loginUrl %>"><%= it.t.signIn %></a></p>`;

const SERVERS = `<% layout('@layout', it) %>
<h1><%= it.t.servers %></h1>
<p><%= it.t.serversIntro %></p>
<% if (it.guilds.length === 0) { %>
<p class="note"><%= it.t.noServers %></p>
<% } else { %>
<ul class="servers">
<% it.guilds.forEach(function (g) { %>
  <li><a href="/guilds/<%= g.id %>"><% if (g.iconUrl) { %><img src="<%= g.iconUrl %>" alt="" width="40" height="40"><% } else { %><span class="initial" aria-hidden="true"><%= g.initial %></span><% } %><span><%= g.name %></span></a></li>
<% }) %>
</ul>
<% } %>`;

const GUILD = `<% layout('@layout', it) %>
<p class="crumbs"><a href="/"><%= it.t.back %></a></p>
<h1><%= it.guild.name %></h1>
<% if (it.result) { %>
<section class="result<% if (it.result.error) { %> error<% } %>" id="result" aria-labelledby="result-title" role="status">
  <h2 id="result-title"><%= it.t.result %></h2>
  <%~ it.result.html %>
</section>
<% } %>
<div class="panels">
<section aria-labelledby="settings-title">
  <h2 id="settings-title"><%= it.t.settings %></h2>
  <%~ it.show %>
</section>
<section aria-labelledby="status-title">
  <h2 id="status-title"><%= it.t.status %></h2>
  <%~ it.status %>
</section>
</div>
<section aria-labelledby="forms-title">
<h2 id="forms-title"><%= it.t.forms %></h2>
<% it.forms.forEach(function (f) { %>
<details class="form" id="form-<%= f.name %>"<% if (f.open) { %> open<% } %>>
  <summary><%= f.title %></summary>
  <form method="post" action="/guilds/<%= it.guild.id %>/config/<%= f.name %>">
    <input type="hidden" name="_csrf" value="<%= it.csrf %>">
    <% f.fields.forEach(function (x) { %>
    <div class="field">
      <label for="<%= f.name %>-<%= x.name %>"><%= x.label %><% if (x.required) { %> <span class="required">(<%= it.t.required %>)</span><% } %></label>
      <% if (x.kind === 'select') { %>
      <select id="<%= f.name %>-<%= x.name %>" name="<%= x.name %>"<% if (x.required) { %> required<% } %> aria-describedby="<%= f.name %>-<%= x.name %>-help">
        <% if (!x.required) { %><option value=""><%= x.empty %></option><% } %>
        <% x.choices.forEach(function (c) { %><option value="<%= c.value %>"><%= c.name %></option><% }) %>
      </select>
      <% } else { %>
      <input id="<%= f.name %>-<%= x.name %>" name="<%= x.name %>" type="<%= x.kind %>"<% if (x.list) { %> list="<%= x.list %>" autocomplete="off"<% } %><% if (x.min !== undefined) { %> min="<%= x.min %>"<% } %><% if (x.max !== undefined) { %> max="<%= x.max %>"<% } %><% if (x.maxLength !== undefined) { %> maxlength="<%= x.maxLength %>"<% } %><% if (x.required) { %> required<% } %> aria-describedby="<%= f.name %>-<%= x.name %>-help">
      <% } %>
      <p class="help" id="<%= f.name %>-<%= x.name %>-help"><%= x.help %></p>
    </div>
    <% }) %>
    <div class="actions">
      <button type="submit"><%= f.button %></button>
      <% if (f.preview) { %><button type="submit" name="preview" value="1" class="secondary"><%= it.t.preview %></button><% } %>
    </div>
  </form>
</details>
<% }) %>
</section>
<datalist id="zones"><% it.zones.forEach(function (z) { %><option value="<%= z %>"></option><% }) %></datalist>
<section aria-labelledby="public-title">
<h2 id="public-title"><%= it.t.public.section %></h2>
<% if (it.publicPage) { %>
<p><%= it.t.public.on %></p>
<p class="address"><a href="<%= it.publicPage.url %>"><%= it.publicPage.url %></a></p>
<% } else { %>
<p class="note"><%= it.t.public.off %></p>
<% } %>
<form class="actions" method="post" action="/guilds/<%= it.guild.id %>/public">
  <input type="hidden" name="_csrf" value="<%= it.csrf %>">
  <% if (it.publicPage) { %>
  <button type="submit" name="action" value="revoke" aria-describedby="revoke-help"><%= it.t.public.revoke %></button>
  <button type="submit" name="action" value="off" class="secondary"><%= it.t.public.unpublish %></button>
  <p class="help" id="revoke-help"><%= it.t.public.revokeHelp %></p>
  <% } else { %>
  <button type="submit" name="action" value="publish"><%= it.t.public.publish %></button>
  <% } %>
</form>
</section>
<section aria-labelledby="audit-title">
<h2 id="audit-title"><%= it.t.audit %></h2>
<% if (it.audit.length === 0) { %>
<p class="note"><%= it.t.auditEmpty %></p>
<% } else { %>
<div class="table"><table>
<thead><tr><th scope="col"><%= it.t.auditWhen %></th><th scope="col"><%= it.t.auditWho %></th><th scope="col"><%= it.t.auditWhat %></th><th scope="col"><%= it.t.auditWhere %></th></tr></thead>
<tbody>
<% it.audit.forEach(function (a) { %><tr><td><time datetime="<%= a.iso %>"><%= a.when %></time></td><td><%= a.who %></td><td><code><%= a.what %></code></td><td><%= a.where %></td></tr><% }) %>
</tbody>
</table></div>
<% } %>
</section>`;

const PUBLIC = `<% layout('@layout', it) %>
<h1><%= it.heading %></h1>
<% if (!it.content.ladderOn) { %>
<p class="note"><%= it.t.public.ladderOff %></p>
<% } else { %>
<section aria-labelledby="ladder-title">
<h2 id="ladder-title"><%= it.t.public.ladder %></h2>
<p class="note"><%= it.listed %></p>
<% if (it.content.rows.length === 0) { %>
<p class="note"><%= it.t.public.empty %></p>
<% } else { %>
<div class="table"><table>
<thead><tr><th scope="col"><%= it.t.public.place %></th><th scope="col"><%= it.t.public.player %></th><th scope="col"><%= it.t.public.tier %></th><th scope="col" class="num"><%= it.t.public.score %></th><th scope="col" class="num"><%= it.t.public.week %></th></tr></thead>
<tbody>
<% it.content.rows.forEach(function (r) { %><tr><td><%= r.position %></td><td><%= r.name %></td><td><%= r.tier %></td><td class="num"><%= r.score %></td><td class="num"><%= r.week %></td></tr><% }) %>
</tbody>
</table></div>
<% if (it.content.pages > 1) { %>
<nav class="pager" aria-label="<%= it.t.public.ladder %>">
  <% if (it.content.page > 1) { %><a href="?page=<%= it.content.page - 1 %>" rel="prev"><%= it.t.public.previous %></a><% } %>
  <span><%= it.pageOf %></span>
  <% if (it.content.page < it.content.pages) { %><a href="?page=<%= it.content.page + 1 %>" rel="next"><%= it.t.public.next %></a><% } %>
</nav>
<% } %>
<% } %>
</section>
<section aria-labelledby="heroes-title">
<h2 id="heroes-title"><%= it.t.public.heroes %></h2>
<% if (it.content.heroes.length === 0) { %>
<p class="note"><%= it.t.public.noHeroes %></p>
<% } else { %>
<div class="table"><table>
<thead><tr><th scope="col"><%= it.t.public.hero %></th><th scope="col" class="num"><%= it.t.public.matches %></th><th scope="col" class="num"><%= it.t.public.winRate %></th></tr></thead>
<tbody>
<% it.content.heroes.forEach(function (h) { %><tr><td><%= h.name %></td><td class="num"><%= h.matches %></td><td class="num"><%= h.winRate %></td></tr><% }) %>
</tbody>
</table></div>
<% } %>
</section>
<% if (it.content.duos.length > 0) { %>
<section aria-labelledby="duos-title">
<h2 id="duos-title"><%= it.t.public.duos %></h2>
<div class="table"><table>
<thead><tr><th scope="col"><%= it.t.public.duo %></th><th scope="col" class="num"><%= it.t.public.record %></th><th scope="col" class="num"><%= it.t.public.winRate %></th></tr></thead>
<tbody>
<% it.content.duos.forEach(function (d) { %><tr><td><%= d.names %></td><td class="num"><%= d.record %></td><td class="num"><%= d.winRate %></td></tr><% }) %>
</tbody>
</table></div>
</section>
<% } %>
<% } %>
<p class="note"><%= it.t.public.note %></p>`;

const ERROR = `<% layout('@layout', it) %>
<h1><%= it.t.error.title %></h1>
<p class="note"><%= it.message %></p>
<p><a class="button" href="<%= it.next.href %>"><%= it.next.label %></a></p>`;

/** The dashboard's templates, each taking the data its page needs plus the layout's (`lang`, `t`, `languages`, `user`, `csrf`). */
export const TEMPLATES = { landing: LANDING, servers: SERVERS, guild: GUILD, public: PUBLIC, error: ERROR } as const;
export type PageName = keyof typeof TEMPLATES;

/** An Eta engine with the dashboard's templates loaded (escaping on, as Eta's default). */
export function pageEngine(): Eta {
  const eta = new Eta({ autoEscape: true, cache: true });
  eta.loadTemplate('@layout', LAYOUT);
  for (const [name, text] of Object.entries(TEMPLATES)) eta.loadTemplate(`@${name}`, text);
  return eta;
}

/** HTML's five special characters as entities: what Eta's `<%= %>` does, for the markup this module writes itself. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Names for the mentions an answer holds: channels and roles by id. */
export interface MentionNames {
  channels: ReadonlyMap<string, string>;
  roles: ReadonlyMap<string, string>;
  /** Members by id, where known; others show by id. */
  users?: ReadonlyMap<string, string>;
}

/**
 * A line of Discord markdown as safe HTML: escaped first, then channel and role mentions as their names (`#general`,
 * `@Diamond`), custom emojis as their names, `**bold**` and `` `code` `` as markup. Other markdown shows as typed.
 */
export function markdownLine(text: string, names: MentionNames): string {
  // Discord's escapes (`\:`, `\<`), written for its client, are shown as the character they escape.
  return escapeHtml(text.replace(/\\([\\*_`~|<>:#\-[\]()])/g, '$1'))
    .replace(/&#60;@!?(\d{1,20})&#62;/g, (_, id: string) => `<span class="mention">@${escapeHtml(names.users?.get(id) ?? id)}</span>`)
    .replace(/&#60;#(\d{1,20})&#62;/g, (_, id: string) => `<span class="mention">#${escapeHtml(names.channels.get(id) ?? id)}</span>`)
    .replace(/&#60;@&#38;(\d{1,20})&#62;/g, (_, id: string) => `<span class="mention">@${escapeHtml(names.roles.get(id) ?? id)}</span>`)
    .replace(/&#60;a?:(\w{2,32}):\d{1,20}&#62;/g, (_, name: string) => `:${name}:`)
    .replace(/&#60;\/([\w -]+):\d{1,20}&#62;/g, (_, name: string) => `<code>/${name}</code>`)
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
}

const paragraphs = (text: string, names: MentionNames) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `<p>${markdownLine(line, names)}</p>`)
    .join('');

/** An answer of /config (its text and embeds) as HTML, the way Discord would show it, with mentions named. */
export function answerHtml(answer: { content?: string; embeds?: APIEmbed[] }, names: MentionNames): string {
  const parts: string[] = [];
  if (answer.content) parts.push(paragraphs(answer.content, names));
  for (const embed of answer.embeds ?? []) {
    if (embed.title) parts.push(`<h3>${markdownLine(embed.title, names)}</h3>`);
    if (embed.description) parts.push(paragraphs(embed.description, names));
    if (embed.fields?.length) {
      parts.push('<dl class="fields">');
      for (const f of embed.fields) parts.push(`<div><dt>${markdownLine(f.name, names)}</dt><dd>${paragraphs(f.value, names)}</dd></div>`);
      parts.push('</dl>');
    }
    if (embed.footer?.text) parts.push(`<p class="footer">${markdownLine(embed.footer.text, names)}</p>`);
  }
  return parts.join('\n');
}

/** The style sheet: readable from a phone's width up, Discord's dark colours, visible focus. */
export const STYLE_SHEET = `:root{color-scheme:dark;--bg:#313338;--panel:#2b2d31;--text:#f2f3f5;--muted:#c4c9ce;--link:#8ab4ff;--accent:#5865f2;--error:#f38f91}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans JP",sans-serif;background:var(--bg);color:var(--text)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible,summary:focus-visible{outline:3px solid #fff;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;color:#000;padding:4px 8px}
.top{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;padding:12px 16px;background:var(--panel)}
.brand{font-weight:700;color:var(--text);text-decoration:none;margin-right:auto}
.languages ul{display:flex;flex-wrap:wrap;gap:4px 10px;list-style:none;margin:0;padding:0}
.languages a[aria-current]{font-weight:700;color:var(--text)}
.signout{display:flex;gap:8px;align-items:center;margin:0}
main{max-width:1000px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.25rem}h3{font-size:1.05rem;margin:.25rem 0}
.button,button{display:inline-block;background:var(--accent);color:#fff;border:0;border-radius:4px;padding:10px 16px;font:inherit;text-decoration:none;cursor:pointer;min-height:44px}
.servers{list-style:none;padding:0;display:grid;gap:8px}
.servers a{display:flex;gap:12px;align-items:center;background:var(--panel);padding:10px;border-radius:8px;color:var(--text);text-decoration:none;min-height:44px}
.servers img,.initial{width:40px;height:40px;border-radius:50%}
.initial{display:inline-flex;align-items:center;justify-content:center;background:var(--accent);color:#fff;font-weight:700}
.panels{display:grid;gap:16px;grid-template-columns:repeat(auto-fit,minmax(280px,1fr))}
section{margin-bottom:24px}
.panels section,.result,.form{background:var(--panel);border-radius:8px;padding:12px 16px}
.result{border-left:4px solid var(--accent)}.result.error{border-left-color:var(--error)}
.fields{margin:0}.fields div{margin:0 0 8px}.fields dt{font-weight:700}.fields dd{margin:0}.fields p{margin:0}
.mention{background:#3c4270;border-radius:3px;padding:0 2px}
.form{margin-bottom:8px}.form summary{cursor:pointer;font-weight:600;min-height:44px;display:flex;align-items:center}
.field{margin:12px 0}.field label{display:block;font-weight:600}
.field select,.field input{width:100%;max-width:28rem;font:inherit;padding:8px;border-radius:4px;border:1px solid #6d6f78;background:#1e1f22;color:var(--text);min-height:44px}
.help{margin:4px 0 0;color:var(--muted);font-size:.9rem}
.required{font-weight:400;color:var(--muted)}
.note{color:var(--muted)}
.table{overflow-x:auto}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #4e5058;vertical-align:top}
.num{text-align:right;font-variant-numeric:tabular-nums}
.pager{display:flex;gap:16px;align-items:center;flex-wrap:wrap;margin:12px 0}.pager a{min-height:44px;display:inline-flex;align-items:center}
.actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center}.actions .help{flex-basis:100%}
button.secondary{background:#4e5058}
.address{overflow-wrap:anywhere}
@media (max-width:480px){main{padding:12px 8px}th,td{padding:4px 5px;font-size:.9rem}.top{padding:8px}}
code{background:#1e1f22;border-radius:3px;padding:0 4px;overflow-wrap:anywhere}
`;
