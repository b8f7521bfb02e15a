import { OverwriteType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { channelPermissions, type PermissionInputs } from '../../src/discord/permissions.js';

const GUILD = '100';
const BOT = '200';
const base = (over: Partial<PermissionInputs> = {}): PermissionInputs => ({
  guildId: GUILD,
  ownerId: '999',
  roles: [
    { id: GUILD, permissions: String(P.ViewChannel | P.SendMessages) },
    { id: 'mods', permissions: String(P.EmbedLinks) },
    { id: 'admins', permissions: String(P.Administrator) },
  ],
  userId: BOT,
  memberRoleIds: [],
  overwrites: [],
  ...over,
});
const has = (bits: bigint, flag: bigint) => (bits & flag) === flag;

describe('channelPermissions (Discord: Permissions, Permission Overwrites)', () => {
  it('starts from @everyone and adds the member roles', () => {
    expect(has(channelPermissions(base()), P.EmbedLinks)).toBe(false);
    expect(has(channelPermissions(base({ memberRoleIds: ['mods'] })), P.EmbedLinks)).toBe(true);
  });

  it('gives the owner and an administrator everything, whatever the overwrites', () => {
    const deny = [{ id: GUILD, type: OverwriteType.Role, allow: '0', deny: String(P.ViewChannel) }];
    expect(has(channelPermissions(base({ ownerId: BOT, overwrites: deny })), P.ViewChannel)).toBe(true);
    expect(has(channelPermissions(base({ memberRoleIds: ['admins'], overwrites: deny })), P.ViewChannel)).toBe(true);
  });

  it('applies @everyone, then the roles (denies before allows), then the member overwrite', () => {
    const overwrites = [
      { id: GUILD, type: OverwriteType.Role, allow: '0', deny: String(P.SendMessages) },
      { id: 'mods', type: OverwriteType.Role, allow: String(P.SendMessages), deny: '0' },
      { id: 'other', type: OverwriteType.Role, allow: '0', deny: String(P.SendMessages) },
    ];
    expect(has(channelPermissions(base({ overwrites })), P.SendMessages)).toBe(false);
    // A role allow beats another role's deny: allows are applied after all denies.
    expect(has(channelPermissions(base({ overwrites, memberRoleIds: ['mods', 'other'] })), P.SendMessages)).toBe(true);
    // The member's own overwrite has the last word.
    const own = { id: BOT, type: OverwriteType.Member, allow: '0', deny: String(P.SendMessages) };
    expect(has(channelPermissions(base({ overwrites: [...overwrites, own], memberRoleIds: ['mods'] })), P.SendMessages)).toBe(false);
  });

  it('ignores a member overwrite for someone else and a role overwrite for a role the member lacks', () => {
    const overwrites = [
      { id: '777', type: OverwriteType.Member, allow: '0', deny: String(P.ViewChannel) },
      { id: 'mods', type: OverwriteType.Role, allow: '0', deny: String(P.ViewChannel) },
    ];
    expect(has(channelPermissions(base({ overwrites })), P.ViewChannel)).toBe(true);
  });
});
