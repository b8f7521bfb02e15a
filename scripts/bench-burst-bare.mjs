/**
 * The baseline of `npm run bench:burst`: a bare discord.js bot that replies "ok" to every interaction
 * the moment it arrives. No router, no store, no API: what discord.js itself costs per interaction.
 * Reads DISCORD_TOKEN and DISCORD_API_URL (the fake Discord's REST base) like the bot does, and logs
 * one JSON line `{"msg":"logged in"}` on stdout when the client is ready.
 */
import { Client, GatewayIntentBits } from 'discord.js';

const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: process.env.DISCORD_API_URL ?? 'https://discord.com/api' } });
let failed = 0;
client.on('interactionCreate', (interaction) => {
  if (!interaction.isRepliable()) return;
  interaction.reply({ content: 'ok' }).catch(() => {
    // Counted, not logged per interaction: 10,000 stack traces would cost more than the replies.
    if (failed++ === 0) process.stdout.write(`${JSON.stringify({ level: 50, msg: 'reply failed' })}\n`);
  });
});
client.once('clientReady', (c) => process.stdout.write(`${JSON.stringify({ level: 30, msg: 'logged in', guilds: c.guilds.cache.size })}\n`));
const stop = () => void client.destroy().finally(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
await client.login(process.env.DISCORD_TOKEN);
