import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountLinksRepository, MAX_LINKED_ACCOUNTS, TooManyLinksError } from '../../src/store/account-links.js';
import { DEFAULT_SETTINGS, GuildSettingsRepository } from '../../src/store/guild-settings.js';
import { createStateStore } from '../../src/store/state-store.js';

let dir: string;
let store: Keyv;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rivals-repo-'));
  store = createStateStore({ dataDir: dir });
});
afterAll(async () => {
  await store.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

describe('account links', () => {
  it('links accounts, the first is the default, makeDefault moves it', async () => {
    const links = new AccountLinksRepository(store);
    expect(await links.defaultUid('u1')).toBeNull();
    await links.link('u1', { uid: '1403392756', name: 'Card1gan' }, false);
    await links.link('u1', { uid: '1117455441', name: 'Sir Final' }, false);
    expect(await links.defaultUid('u1')).toBe('1403392756');
    await links.link('u1', { uid: '1117455441', name: 'Sir Final' }, true);
    expect(await links.defaultUid('u1')).toBe('1117455441');
    expect((await links.get('u1')).accounts.map((a) => a.name)).toEqual(['Card1gan', 'Sir Final']);
  });
  it('refuses more than the limit, but relinking one is fine', async () => {
    const links = new AccountLinksRepository(store);
    for (let i = 0; i < MAX_LINKED_ACCOUNTS; i++) await links.link('u2', { uid: String(i), name: `p${i}` }, false);
    await expect(links.link('u2', { uid: 'extra', name: 'x' }, false)).rejects.toBeInstanceOf(TooManyLinksError);
    await expect(links.link('u2', { uid: '0', name: 'renamed' }, false)).resolves.toBeDefined();
  });
  it('unlinks by name or uid, moves the default, and forgets the user with none left', async () => {
    const links = new AccountLinksRepository(store);
    await links.link('u3', { uid: '1', name: 'Alpha' }, false);
    await links.link('u3', { uid: '2', name: 'Beta' }, false);
    expect((await links.unlink('u3', 'ALPHA')).map((a) => a.uid)).toEqual(['1']);
    expect(await links.defaultUid('u3')).toBe('2');
    expect(await links.unlink('u3', 'nope')).toEqual([]);
    expect((await links.unlink('u3')).map((a) => a.uid)).toEqual(['2']);
    expect(await store.get('links:u3')).toBeUndefined();
  });
});

describe('guild settings', () => {
  it('defaults, updates and resets', async () => {
    const settings = new GuildSettingsRepository(store);
    expect(await settings.get('g1')).toEqual(DEFAULT_SETTINGS);
    await settings.update('g1', (s) => {
      s.leaderboardPlatform = 'xbox';
      s.feeds.balances = { channelId: 'c1', roleId: 'r1', since: 5, publish: true, backfill: 0, broken: null, lastDelivered: null };
    });
    const s = await settings.get('g1');
    expect(s.leaderboardPlatform).toBe('xbox');
    expect(s.feeds.balances).toMatchObject({ channelId: 'c1', roleId: 'r1', publish: true });
    await settings.reset('g1');
    expect(await settings.get('g1')).toEqual(DEFAULT_SETTINGS);
  });
  it('treats an unreadable record as defaults rather than crashing', async () => {
    await store.set('guild:g2', { v: 99, nonsense: true });
    expect(await new GuildSettingsRepository(store).get('g2')).toEqual(DEFAULT_SETTINGS);
  });
  it('refuses to store an invalid change', async () => {
    const settings = new GuildSettingsRepository(store);
    await expect(settings.update('g3', (s) => ({ ...s, leaderboardPlatform: 'switch' as never }))).rejects.toThrow();
    expect(await settings.get('g3')).toEqual(DEFAULT_SETTINGS);
  });
});
