/** Proof of account ownership: change the player icon in game, and the bot sees it through the update endpoint. */
import { describe, expect, it } from 'vitest';
import { VERIFICATION_TTL_MS } from '../../src/game/verification.js';
import { LinkVerifier } from '../../src/jobs/link-verifier.js';
import { DEFAULT_UPDATE_COOLDOWN_MS } from '../../src/replica/server.js';
import { customIds, MEMBER, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const UID = '1786151874';
const text = (p: { embeds: { description?: string }[] }) => p.embeds.map((e) => e.description ?? '').join('\n');

/** From now on the API shows `UID` with player icon `iconId` (the member changed it in game). */
function iconChangedTo(iconId: string): () => void {
  const api = env.b.ctx.api;
  const real = api.player.bind(api);
  api.player = async (...args: Parameters<typeof api.player>) => {
    const fetched = await real(...args);
    return String(args[0]) === UID ? { ...fetched, data: { ...fetched.data, icon_id: iconId } } : fetched;
  };
  return () => {
    api.player = real;
  };
}

describe('proving a linked account is yours', () => {
  let iconFrom: string | null = null;

  it('/link offers the proof for an account not yet verified', async () => {
    const { payload } = await env.b.run('link', { player: UID });
    expect(customIds(payload)).toEqual([`lk.v:${UID}`]);
  });

  it('starting it records the icon equipped now and explains the steps, with the icon and a Check now button', async () => {
    const { payload } = await env.b.press(`lk.v:${UID}`);
    expect(payload.flags).toBe(64);
    expect(text(payload)).toContain('equip any player icon other than the one shown here');
    expect(payload.embeds[0]!.thumbnail?.url).toMatch(/^https:\/\/img\.test\/rivals\//);
    expect(customIds(payload)).toEqual([`lk.c:${UID}`]);
    const pending = await env.b.state.verifications.get(MEMBER.userId, UID);
    iconFrom = (await env.b.ctx.api.player(UID)).data.icon_id;
    expect(pending).toMatchObject({ uid: UID, iconFrom });
    expect(iconFrom).not.toBeNull();
  });

  it('checking before the icon changed asks the API to update the profile and says when it looks again', async () => {
    const updates = () => env.r.requests.byPath.get(`/api/v1/player/${UID}/update`) ?? 0;
    const before = updates();
    const { payload } = await env.b.press(`lk.c:${UID}`);
    expect(updates()).toBe(before + 1);
    expect(text(payload)).toMatch(/^Not yet: the profile still shows the icon you had\. The bot looks again <t:(\d+):R>\.$/);
    // The API's cooldown now holds the next update: the next look waits for it.
    await env.b.press(`lk.c:${UID}`);
    const next = (await env.b.state.verifications.get(MEMBER.userId, UID))!.nextCheckAt;
    expect(next).toBeGreaterThanOrEqual(env.b.ctx.now() + DEFAULT_UPDATE_COOLDOWN_MS - 60_000);
  });

  it('only the member who linked the account can prove it', async () => {
    const { payload } = await env.b.press(`lk.v:${UID}`, [], OTHER_MEMBER);
    expect(text(payload)).toBe('That account is not linked to you any more.');
    expect(await env.b.state.verifications.get(OTHER_MEMBER.userId, UID)).toBeNull();
  });

  it('the background check verifies the link once the profile shows another icon; /link then shows it verified', async () => {
    const restore = iconChangedTo(`${iconFrom}-new`);
    try {
      const verifier = new LinkVerifier({ api: env.b.ctx.api, verifications: env.b.state.verifications, logger: env.b.ctx.logger, now: () => env.b.clock.now });
      // Not due yet (the cooldown): the tick leaves it.
      await verifier.tick();
      expect(await env.b.state.verifications.get(MEMBER.userId, UID)).not.toBeNull();
      env.b.clock.now += DEFAULT_UPDATE_COOLDOWN_MS;
      await verifier.tick();
      expect(await env.b.state.verifications.get(MEMBER.userId, UID)).toBeNull();
      const links = await env.b.ctx.links.get(MEMBER.userId);
      expect(links.accounts.find((a) => a.uid === UID)!.verifiedAt).toBe(env.b.clock.now);
      const again = await env.b.run('link', { player: UID });
      expect(text(again.payload)).toContain(`(UID ${UID}) ✓`);
      expect(customIds(again.payload)).toEqual([]);
      const verified = await env.b.press(`lk.c:${UID}`);
      expect(text(verified.payload)).toContain('is verified as yours');
      // In place of the steps, without their Check now button.
      expect(verified).toMatchObject({ mode: 'update', payload: { components: [] } });
    } finally {
      restore();
    }
  });

  it('a proof ends after an hour without the change', async () => {
    await env.b.run('link', { player: '1403392756' });
    await env.b.press('lk.v:1403392756');
    env.b.clock.now += VERIFICATION_TTL_MS;
    const { payload } = await env.b.press('lk.c:1403392756');
    expect(text(payload)).toContain('The hour to change the icon is over.');
    expect(customIds(payload)).toEqual(['lk.v:1403392756']);
    expect(await env.b.state.verifications.get(MEMBER.userId, '1403392756')).toBeNull();
    const links = await env.b.ctx.links.get(MEMBER.userId);
    expect(links.accounts.find((a) => a.uid === '1403392756')!.verifiedAt).toBeNull();
  });
});
