/**
 * The baseline of `npm run bench` (scripts/bench.ts): a bare discord.js 14 bot, in plain JavaScript, run
 * with plain `node` (no tsx). `new Client({ intents: [Guilds], rest: { api: DISCORD_API_URL } })` with
 * discord.js's DEFAULT caches (every guild's channels, roles, members, emojis... as Discord sends them),
 * which answers every interaction at once with one constant embed the size of a small player card.
 * No router, no store, no API, no feeds: what discord.js itself costs.
 *
 * Also the baseline of `npm run bench:burst` (scripts/bench-burst.ts), with BENCH_BARE_REPLY=ok: the
 * reply is then the text "ok".
 *
 * Environment: DISCORD_TOKEN, DISCORD_API_URL (the fake Discord's REST base; discord.js appends /v10),
 * BENCH_BARE_REPLY (`card`, the default, or `ok`).
 * Logs one JSON line on stdout when the client is ready: `{"level":30,"msg":"logged in","guilds":<n>}`;
 * a failed reply logs `{"level":50,"msg":"reply failed"}` once. SIGINT or SIGTERM destroys the client
 * and exits 0.
 */
import { Client, GatewayIntentBits } from 'discord.js';

/** One constant answer: a title and a few fields, like a player card without its images. */
const CARD = {
  embeds: [
    {
      title: 'Card1gan — Gold II',
      description: 'Level 212 · last seen 2 hours ago',
      color: 0xe8b53b,
      fields: [
        { name: 'Rank', value: 'Gold II (peak Platinum III)', inline: true },
        { name: 'Matches', value: '412 played · 53.4 % won', inline: true },
        { name: 'KDA', value: '3.12', inline: true },
        { name: 'Top heroes', value: 'Spider-Man · 88 matches\nStorm · 41 matches\nHulk · 30 matches' },
      ],
      footer: { text: 'Season 2' },
    },
  ],
};

const REPLY = process.env.BENCH_BARE_REPLY === 'ok' ? { content: 'ok' } : CARD;

const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: process.env.DISCORD_API_URL ?? 'https://discord.com/api' } });
let failed = 0;
client.on('interactionCreate', (interaction) => {
  if (!interaction.isRepliable()) return;
  interaction.reply(REPLY).catch(() => {
    // Counted, not logged per interaction: 10,000 stack traces would cost more than the replies.
    if (failed++ === 0) process.stdout.write(`${JSON.stringify({ level: 50, msg: 'reply failed' })}\n`);
  });
});
client.once('clientReady', (c) => process.stdout.write(`${JSON.stringify({ level: 30, msg: 'logged in', guilds: c.guilds.cache.size })}\n`));
const stop = () => void client.destroy().finally(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
await client.login(process.env.DISCORD_TOKEN);
