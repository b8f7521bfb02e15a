/** What a self-hoster reads at start: the invite link with the features' permissions, and why a login failed. */
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { inviteUrl, loginFailure, userInstallUrl } from '../../src/discord/startup.js';

describe('the invite link', () => {
  it('asks for the bot and its commands, with the permissions the features need and nothing more', () => {
    const url = new URL(inviteUrl('900000000000000001'));
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe('900000000000000001');
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('integration_type')).toBe('0');
    const bits = BigInt(url.searchParams.get('permissions')!);
    const granted = Object.entries(PermissionFlagsBits)
      .filter(([, bit]) => (bits & bit) === bit)
      .map(([name]) => name)
      .sort();
    expect(granted).toEqual(
      ['AttachFiles', 'CreatePublicThreads', 'EmbedLinks', 'ManageRoles', 'ReadMessageHistory', 'SendMessages', 'SendMessagesInThreads', 'ViewChannel'].sort(),
    );
  });
});

describe('the user-install link', () => {
  it('adds the commands to a member’s own account: user install, the commands scope only, no permissions', () => {
    const url = new URL(userInstallUrl('900000000000000001'));
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: '900000000000000001', integration_type: '1', scope: 'applications.commands' });
  });
});

describe('a failed login', () => {
  it('tells a refused token (reset it) from an unreachable Discord (the network), each in one line', () => {
    const refused = loginFailure(Object.assign(new Error('An invalid token was provided.'), { code: 'TokenInvalid' }), 'discord.com');
    expect(refused.refused).toBe(true);
    expect(refused.message).toMatch(/^Discord refused DISCORD_TOKEN \(401\): reset it in the Developer Portal/);
    const dns = loginFailure(
      new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND discord.com'), { code: 'ENOTFOUND' }) }),
      'discord.com',
    );
    expect(dns).toEqual({
      message: "cannot reach discord.com (ENOTFOUND): check this machine's network and DNS, or DISCORD_API_URL; DISCORD_TOKEN was not tried",
      refused: false,
    });
    expect(loginFailure(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }), '127.0.0.1:9').message).toMatch(
      /^cannot reach 127\.0\.0\.1:9 \(ECONNREFUSED\)/,
    );
    expect(loginFailure(new Error('something else'), 'discord.com')).toEqual({ message: 'could not log in to Discord: something else', refused: false });
    for (const f of [refused, dns]) expect(f.message).not.toContain('\n');
  });
});
