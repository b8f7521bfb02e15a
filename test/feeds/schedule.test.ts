/** Quiet hours: reading what admins type, time zones, and local time across daylight saving changes (src/feeds/schedule.ts). */
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, formatClock, inWindow, localTime, parseClock, parseQuietHours, quietNow, suggestTimeZones } from '../../src/feeds/schedule.js';

describe('quiet hours as admins type them', () => {
  it('reads times of day in 24-hour form, and nothing else', () => {
    expect(['22:00', '8:05', '08.30', '23:59', '0:00', ' 7h15 '].map(parseClock)).toEqual([1320, 485, 510, 1439, 0, 435]);
    expect(['24:00', '12:60', '7', 'noon', '', '1:2', '-1:00'].map(parseClock)).toEqual([null, null, null, null, null, null, null]);
  });
  it('reads a window with a dash (any dash) or "to"; a window of no length is refused', () => {
    expect(parseQuietHours('22:00-08:00')).toEqual({ start: 1320, end: 480 });
    expect(parseQuietHours('22:00 – 8:00')).toEqual({ start: 1320, end: 480 });
    expect(parseQuietHours('1:00 to 6:30')).toEqual({ start: 60, end: 390 });
    expect(parseQuietHours('22:00-22:00')).toBeNull();
    expect(parseQuietHours('22:00')).toBeNull();
    expect(parseQuietHours('late-early')).toBeNull();
    expect(formatClock(480)).toBe('08:00');
  });
  it('names time zones canonically in any case, including UTC and aliases', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('America/New_York')).toBe('America/New_York');
    expect(canonicalTimeZone('Mars/Olympus')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });
  it('suggests time zones from a city, with spaces, or a typo', () => {
    expect(suggestTimeZones('paris')).toContain('Europe/Paris');
    expect(suggestTimeZones('new york')).toContain('America/New_York');
    expect(suggestTimeZones('berln')).toContain('Europe/Berlin');
    expect(suggestTimeZones('')).toContain('UTC');
    expect(suggestTimeZones('a').length).toBeLessThanOrEqual(25);
  });
});

describe('local time', () => {
  it('follows daylight saving time: 20:30 UTC is 22:30 in Paris in July and 21:30 in January', () => {
    expect(localTime(Date.parse('2026-07-10T20:30:00Z'), 'Europe/Paris')).toEqual({ date: '2026-07-10', minutes: 22 * 60 + 30, weekday: 5 });
    expect(localTime(Date.parse('2026-01-10T20:30:00Z'), 'Europe/Paris')).toEqual({ date: '2026-01-10', minutes: 21 * 60 + 30, weekday: 6 });
    expect(localTime(Date.parse('2026-01-10T23:30:00Z'), 'America/Los_Angeles').date).toBe('2026-01-10');
    expect(localTime(Date.parse('2026-01-11T00:00:00Z'), 'UTC').minutes).toBe(0);
  });
  it('a window crossing midnight holds the late evening and the early morning, not the day; its start is in, its end is out', () => {
    const night = { start: 22 * 60, end: 8 * 60 };
    expect([22 * 60, 23 * 60 + 59, 0, 7 * 60 + 59].map((m) => inWindow(night, m))).toEqual([true, true, true, true]);
    expect([8 * 60, 12 * 60, 21 * 60 + 59].map((m) => inWindow(night, m))).toEqual([false, false, false]);
    const day = { start: 9 * 60, end: 17 * 60 };
    expect([9 * 60, 16 * 60 + 59, 17 * 60, 8 * 60].map((m) => inWindow(day, m))).toEqual([true, true, false, false]);
  });
  it('says how long until the window ends, in the zone', () => {
    const night = { start: 22 * 60, end: 8 * 60 };
    // 05:30 in Paris in July (03:30 UTC): 2.5 hours to go.
    expect(quietNow(night, 'Europe/Paris', Date.parse('2026-07-10T03:30:00Z'))).toEqual({ quiet: true, endsInMs: 150 * 60_000 });
    // The same instant is 03:30 in UTC, inside too, 4.5 hours to go; 12:00 is outside.
    expect(quietNow(night, 'UTC', Date.parse('2026-07-10T03:30:00Z'))).toEqual({ quiet: true, endsInMs: 270 * 60_000 });
    expect(quietNow(night, 'UTC', Date.parse('2026-07-10T12:00:00Z'))).toEqual({ quiet: false });
  });
});
