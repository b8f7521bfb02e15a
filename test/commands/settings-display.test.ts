/**
 * `/settings display`: image cards with their embeds (the default), or the embeds alone, kept with the member's settings;
 * `/config display`: the server's choice for members who chose nothing.
 */
import { describe, expect, it } from 'vitest';
import { toMessagePayload } from '../../src/render/view.js';
import { recordingCharts } from '../helpers/charts.js';
import { ADMIN, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const UID = '1786151874';

async function profile(user = MEMBER) {
  const charts = recordingCharts();
  const view = await env.b.router.command('player', { options: { query: UID }, user }, { ...env.b.ctx, charts });
  return { payload: toMessagePayload(view), kinds: charts.specs.map((s) => s.kind) };
}

describe('/settings display', () => {
  it('shows profiles as an image card by default, the embed beside it', async () => {
    const { payload, kinds } = await profile();
    expect(kinds).toEqual(['profile-card']);
    expect(payload.embeds[0]!.image).toEqual({ url: 'attachment://profile.png' });
    expect(payload.files?.map((f) => f.name)).toEqual(['profile.png']);
  });

  it('style:embeds leaves the card out for that member alone, keeps the embed whole, and /privacy shows the choice', async () => {
    const set = await env.b.run('settings', { style: 'embeds' }, 'display');
    expect(set.view.ephemeral).toBe(true);
    expect(set.payload.embeds[0]!.description).toBe('Done: profiles, matches and the ladder show as **text** alone, without image cards.');
    const mine = await profile();
    // The card was never drawn: no render asked for it.
    expect(mine.kinds).toEqual([]);
    expect(mine.payload.embeds[0]!.image).toBeUndefined();
    expect(mine.payload.files ?? []).toEqual([]);
    expect(mine.payload.embeds[0]!.thumbnail?.url).toMatch(/gold\.png$/);
    expect(mine.payload.embeds[0]!.fields!.some((f) => f.name.startsWith('Top heroes'))).toBe(true);
    // Another member still gets the card.
    expect((await profile(OTHER_MEMBER)).kinds).toEqual(['profile-card']);
    const privacy = await env.b.run('privacy', {}, 'show');
    expect(JSON.stringify(privacy.payload.embeds)).toContain('Profiles, matches and the ladder shown as text, without image cards');
  });

  it('style:cards brings the card back; a style that is none is named', async () => {
    await env.b.run('settings', { style: 'cards' }, 'display');
    expect((await profile()).kinds).toEqual(['profile-card']);
    const bad = await env.b.run('settings', { style: 'posters' }, 'display');
    expect(bad.view.isError).toBe(true);
    expect(bad.payload.embeds[0]!.description).toContain('“posters” is not a display style');
  });

  it('/config display: the server’s choice applies to members who chose nothing, never over a member’s own', async () => {
    const set = await env.b.run('config', { style: 'embeds' }, 'display', ADMIN);
    expect(set.view.isError).toBeFalsy();
    expect(set.payload.embeds[0]!.fields!.find((f) => f.name === 'Answers as')?.value).toBe('text only');
    // OTHER_MEMBER chose nothing: the server's text. MEMBER chose cards (above): still cards.
    const other = await profile(OTHER_MEMBER);
    expect(other.kinds).toEqual([]);
    expect(other.payload.embeds[0]!.fields!.some((f) => f.name.startsWith('Top heroes'))).toBe(true);
    expect((await profile()).kinds).toEqual(['profile-card']);
    // style:server forgets the member's own choice: the server's applies to them again.
    const back = await env.b.run('settings', { style: 'server' }, 'display');
    expect(back.payload.embeds[0]!.description).toBe('Done: you follow your server’s choice again (image cards unless it chose text).');
    expect((await profile()).kinds).toEqual([]);
    await env.b.run('settings', { style: 'cards' }, 'display');
    expect((await profile()).kinds).toEqual(['profile-card']);
    // Outside the server (a DM), the server's choice does not follow the member.
    expect((await profile({ userId: OTHER_MEMBER.userId, locale: 'en-US' } as typeof MEMBER)).kinds).toEqual(['profile-card']);
    await env.b.run('config', { style: 'cards' }, 'display', ADMIN);
    expect((await profile(OTHER_MEMBER)).kinds).toEqual(['profile-card']);
  });

  it('/config display needs Manage Server, and names a style that is none', async () => {
    const member = await env.b.run('config', { style: 'embeds' }, 'display', MEMBER);
    expect(member.view.isError).toBe(true);
    expect(JSON.stringify(member.payload.embeds)).toMatch(/Manage Server/);
    expect((await profile(OTHER_MEMBER)).kinds).toEqual(['profile-card']);
    const bad = await env.b.run('config', { style: 'posters' }, 'display', ADMIN);
    expect(bad.payload.embeds[0]!.description).toContain('“posters” is not a display style');
  });
});
