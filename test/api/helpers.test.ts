import { describe, expect, it } from 'vitest';
import { isErrorEnvelope, kindFromStatus, parseRetryAfter, upstreamMessageOf } from '../../src/core/api-errors.js';
import { createImageResolver } from '../../src/api/images.js';
import { toBoolean, toLeadingNumber, toNumber, toSeconds, toText } from '../../src/api/lenient.js';
import { readFileSync } from 'node:fs';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';

describe('image paths become absolute URLs', () => {
  const img = createImageResolver('https://marvelrivalsapi.com/rivals/');
  it('gives one URL for paths with and without the /rivals prefix', () => {
    expect(img('/rivals/maps/map_1032.png')).toBe('https://marvelrivalsapi.com/rivals/maps/map_1032.png');
    expect(img('/maps/map_1032.png')).toBe('https://marvelrivalsapi.com/rivals/maps/map_1032.png');
    expect(img('heroes/card/hulk.png')).toBe('https://marvelrivalsapi.com/rivals/heroes/card/hulk.png');
    expect(img('/rivalsx/a.png')).toBe('https://marvelrivalsapi.com/rivals/rivalsx/a.png');
  });
  it('keeps a signed query string byte for byte', () => {
    const signed = '/premium/nameplates/31025203_banner.webp?expires=1748458049&signature=73a85eb9%2B1d33d9fe60d7f';
    expect(img(signed)).toBe(`https://marvelrivalsapi.com/rivals${signed}`);
  });
  it('keeps absolute URLs, completes protocol-relative ones, and drops empty values', () => {
    expect(img('https://cdn.example/x.png?a=1')).toBe('https://cdn.example/x.png?a=1');
    expect(img('//cdn.example/x.png')).toBe('https://cdn.example/x.png');
    for (const v of [null, undefined, '', '  ', 31016202, {}]) expect(img(v)).toBeNull();
  });
});

describe('lenient conversions', () => {
  it('numbers from numeric text', () => {
    expect(toNumber('16.67')).toBe(16.67);
    expect(toNumber(' 42 ')).toBe(42);
    expect(toNumber('1,234')).toBe(1234);
    expect(toNumber('63.4 %')).toBe(63.4);
    for (const v of ['', 'abc', null, undefined, Number.NaN, Number.POSITIVE_INFINITY, {}, '6m/s']) expect(toNumber(v)).toBeNull();
    expect(toLeadingNumber('6m/s')).toBe(6);
    expect(toLeadingNumber('0 m/s')).toBe(0);
    expect(toLeadingNumber('m/s')).toBeNull();
    expect(toLeadingNumber('1,200 HP')).toBe(1200);
    expect(toLeadingNumber('12,5 m')).toBe(12);
  });
  it('durations in seconds from every form', () => {
    expect(toSeconds('10m 43s')).toBe(643);
    expect(toSeconds('5h 10m 11s')).toBe(18_611);
    expect(toSeconds('1d 2h')).toBe(93_600);
    expect(toSeconds('12:34')).toBe(754);
    expect(toSeconds('1:02:03')).toBe(3_723);
    expect(toSeconds({ raw: 601.5, formatted: '10m 1s' })).toBe(601.5);
    expect(toSeconds({ formatted: '2m 0s' })).toBe(120);
    expect(toSeconds(380.84)).toBe(380.84);
    expect(toSeconds('soon')).toBeNull();
  });
  it('booleans from 0/1, text and {is_win}', () => {
    expect(toBoolean(1)).toBe(true);
    expect(toBoolean(0)).toBe(false);
    expect(toBoolean('false')).toBe(false);
    expect(toBoolean({ score: 1, is_win: true })).toBe(true);
    expect(toBoolean(2)).toBeNull();
    expect(toBoolean(null)).toBeNull();
  });
  it('text from strings and numbers', () => {
    expect(toText(1403392756)).toBe('1403392756');
    expect(toText('  ')).toBeNull();
    expect(toText(false)).toBeNull();
  });
});

describe('error helpers', () => {
  it('reads the real 429 body', () => {
    const body = JSON.parse(readFileSync(`${SAMPLES_DIR}/errors/linkyy-player-update-429.json`, 'utf8')) as unknown;
    expect(isErrorEnvelope(body)).toBe(true);
    const message = upstreamMessageOf(body);
    expect(kindFromStatus(429, message)).toBe('rate_limited');
    expect(parseRetryAfter(undefined, message, 0)).toBe(16 * 60_000);
  });
  it('Retry-After as seconds or an HTTP date, the header before the message', () => {
    expect(parseRetryAfter('30', 'in 16 minutes', 0)).toBe(30_000);
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:01:00 GMT', undefined, now)).toBe(60_000);
    expect(parseRetryAfter('garbage', undefined, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, 'try again in 45 seconds', now)).toBe(45_000);
  });
  it('kinds from statuses and the spec messages', () => {
    expect(kindFromStatus(400, 'Invalid hero name or ID. The provided name or ID does not match any known hero.')).toBe('not_found');
    expect(kindFromStatus(400, 'Invalid pagination parameters.')).toBe('bad_request');
    expect(kindFromStatus(401)).toBe('unauthorized');
    expect(kindFromStatus(404)).toBe('not_found');
    expect(kindFromStatus(502)).toBe('unavailable');
  });
  it('reads messages out of all three body shapes', () => {
    expect(upstreamMessageOf({ error: true, message: 'a', status: 500 })).toBe('a');
    expect(upstreamMessageOf({ error: 'b' })).toBe('b');
    expect(upstreamMessageOf({ status: 'error', message: 'c' })).toBe('c');
    expect(isErrorEnvelope({ uid: 1, name: 'x', error: 'not really' })).toBe(false);
    expect(isErrorEnvelope([1])).toBe(false);
  });
});
