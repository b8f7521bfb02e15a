/**
 * Configuration of @skyra/discord-components-core, which the library reads from
 * `globalThis.$discordMessage` once, when it is first imported: so this module is imported before it.
 * Its default avatars live on Discord's CDN; the playground serves its own, so the page loads nothing
 * from the internet.
 */
const local = '/avatar/0.svg';
(globalThis as { $discordMessage?: unknown }).$discordMessage = {
  avatars: { default: local, blue: local, gray: local, green: local, orange: local, red: local, pink: local },
  defaultTheme: 'dark',
  defaultMode: 'cozy',
  defaultBackground: 'discord',
};
