// @skyra/discord-components-core reads `globalThis.$discordMessage` once, when first imported, so this module comes first.
// Its default avatars live on Discord's CDN; the playground serves its own.
const local = '/avatar/0.svg';
(globalThis as { $discordMessage?: unknown }).$discordMessage = {
  avatars: { default: local, blue: local, gray: local, green: local, orange: local, red: local, pink: local },
  defaultTheme: 'dark',
  defaultMode: 'cozy',
  defaultBackground: 'discord',
};
