import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fetched, RivalsApi } from '../../src/api/client.js';
import { ApiError } from '../../src/core/api-errors.js';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas, type GameMap, type Page } from '../../src/api/schemas.js';
import { runInLocale } from '../../src/i18n/index.js';
import { MapDirectory } from '../../src/catalog/map-directory.js';
import { mapLabel } from '../../src/render/map-names.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { bot, customIds, useReplicaBot } from '../helpers/bot.js';
import { capturingLogger, clientFor } from '../helpers/replica.js';

const env = useReplicaBot();

/** Every page of /maps: the embeds in order. */
async function allPages(b = env.b) {
  const first = await b.run('maps', {});
  const last = customIds(first.payload).find((id) => id.endsWith(':l'));
  const pages = [first.payload.embeds[0]!];
  const count = last ? Number(last.split(':').at(-2)) : 1;
  for (let p = 2; p <= count; p++) pages.push((await b.press(`maps.p:${p}:n`)).payload.embeds[0]!);
  return { pages, last };
}

/** The map lines of a page (location headings are `__...__`, maps start with `**`). */
const mapLines = (description: string) => description.split('\n').filter((l) => l.startsWith('**'));

describe('/maps', () => {
  it('lists each of the 35 maps of the 38-record capture once, grouped by location, ten a page', async () => {
    const ids = env.r.dataset.maps.map((m) => String(m.id));
    expect(ids).toHaveLength(38);
    expect(new Set(ids).size).toBe(35);
    const { pages, last } = await allPages();
    expect(last).toBe('maps.p:4:l');
    const lines = pages.flatMap((e) => mapLines(e.description!));
    expect(lines).toHaveLength(35);
    expect(new Set(lines).size).toBe(35);
    expect(pages.map((e) => mapLines(e.description!).length)).toEqual([10, 10, 10, 5]);
    expect(pages[0]!.footer?.text).toBe('35 maps');
    expect(pages[0]!.thumbnail?.url).toBe('https://img.test/rivals/maps/map_1292.png');
    expect(pages[0]!.description).toBe(
      [
        '__Empire of Eternal Night__',
        '**Central Park** · Convergence · [video](https://youtu.be/fs_pMBXSr9Y)',
        '**Central Park** · Convergence · Competitive · [video](https://youtu.be/fs_pMBXSr9Y)',
        '**Midtown** · Convoy · [video](https://youtu.be/DmtMVOcHr-8)',
        '**Midtown** · Convoy · Competitive · [video](https://youtu.be/DmtMVOcHr-8)',
        '**Sanctum Sanctorum** · Doom Match · [video](https://youtu.be/pVlerpIo3Pk)',
        '',
        '__Hellfire Gala__',
        '**Krakoa** · Domination · [video](https://youtu.be/xIo0RxLYkQU)',
        '**Krakoa** · Domination · Competitive · [video](https://youtu.be/xIo0RxLYkQU)',
        '**Unnamed map 1304 (Hellfire Gala)** · Domination',
        '',
        '__Hydra Charteris Base__',
        '**Frozen Airfield** · Domination · [video](https://youtu.be/vSQ3D9-dWbA)',
        "**Hell's Heaven** · Domination · [video](https://youtu.be/vSQ3D9-dWbA)",
      ].join('\n'),
    );
    // Location headings in order; a location split across pages is named again on the next page.
    const headings = pages.flatMap((e) => e.description!.split('\n').filter((l) => l.startsWith('__')));
    expect(headings).toEqual([
      '__Empire of Eternal Night__',
      '__Hellfire Gala__',
      '__Hydra Charteris Base__',
      '__Hydra Charteris Base__',
      '__Intergalactic Empire of Wakanda__',
      '__Intergalactic Empire of Wakanda__',
      '__Klyntar__',
      '__Tokyo 2099__',
      '__Yggsgard__',
      '__Yggsgard__',
    ]);
  });

  it('tells apart maps sharing a name: sub-map, mode, competitive', async () => {
    const lines = (await allPages()).pages.flatMap((e) => mapLines(e.description!));
    const named = (name: string) => lines.filter((l) => l.startsWith(`**${name}`));
    // Parts of Royal Palace (its sub-maps, named by `full_name` "Bifrost Garden - Royal Palace") carry its name.
    expect(named('Royal Palace')).toEqual([
      '**Royal Palace: Bifrost Garden** · Domination · [video](https://youtu.be/8nYwiVjhBWQ)',
      '**Royal Palace: Throne Room** · Domination · [video](https://youtu.be/8nYwiVjhBWQ)',
      "**Royal Palace: Odin's Archive** · Domination · [video](https://youtu.be/8nYwiVjhBWQ)",
      '**Royal Palace** · Domination · Competitive · [video](https://youtu.be/8nYwiVjhBWQ)',
      "**Royal Palace** · Jeff's Winter Splash Festival · [video](https://youtu.be/8nYwiVjhBWQ)",
    ]);
    expect(named('Shin-Shibuya')).toEqual([
      '**Shin-Shibuya** · Convergence · [video](https://youtu.be/8NUtV1CkyKs)',
      '**Shin-Shibuya** · Convergence · Competitive · [video](https://youtu.be/8NUtV1CkyKs)',
    ]);
    expect(named("Birnin T'Challa").map((l) => l.split(' · ').slice(0, -1).join(' · '))).toEqual([
      "**Birnin T'Challa** · Clone Rumble",
      "**Birnin T'Challa: Stellar Spaceport** · Domination",
      "**Birnin T'Challa: Imperial Institute of Science** · Domination",
      "**Birnin T'Challa: Warrior Falls** · Domination",
      "**Birnin T'Challa** · Domination",
      "**Birnin T'Challa** · Domination · Competitive",
    ]);
    expect(await env.b.ctx.maps.label(1161)).toBe("Birnin T'Challa: Stellar Spaceport");
    expect(lines).toContain('**Dancing Stage** · Clash of Dancing Lions');
    for (const l of lines) expect(l).not.toMatch(/Doom match|JEFF'S|winter splash|competitive/);
  });
});

describe('MapDirectory', () => {
  it("labels: sub-map, mode where the name has several, the id for twins (never the list's competitive flag); Unknown map (<id>) for an unknown id", async () => {
    const maps = env.b.ctx.maps;
    expect(await maps.label(1170)).toBe("Royal Palace: Odin's Archive");
    expect(await maps.label('1236')).toBe('Royal Palace (Domination)');
    expect(await maps.label(1254)).toBe("Royal Palace (Jeff's Winter Splash Festival)");
    expect(await maps.label(1034)).toBe('Shin-Shibuya (map 1034)');
    expect(await maps.label(1230)).toBe('Shin-Shibuya (map 1230)');
    // The list flags 1217 competitive and 1292 not, the reverse of what the rows played on them say.
    expect(await maps.label(1217)).toBe('Central Park (map 1217)');
    expect(await maps.label(1292)).toBe('Central Park (map 1292)');
    expect(await maps.label(1302)).toBe("Birnin T'Challa (Clone Rumble)");
    expect(await maps.label(1304)).toBe('Unnamed map 1304 (Hellfire Gala)');
    expect(await maps.label(1155)).toBe('Royal Palace: Bifrost Garden');
    expect(await maps.label(1243)).toBe('Super-Soldier Factory');
    expect(await maps.label(1161)).toBe("Birnin T'Challa: Stellar Spaceport");
    expect(await maps.label(1032)).toBe('Yggdrasill Path (map 1032)');
    expect(await maps.label(9999)).toBe('Unknown map (9999)');
    const list = await maps.list();
    expect(list).toHaveLength(35);
    expect(new Set(list.map(mapLabel)).size).toBe(35);
    expect(list.every((m) => mapLabel(m).trim() !== '' && m.name?.trim() !== '')).toBe(true);
    expect(await maps.get(1170)).toEqual({
      id: '1170',
      name: 'Royal Palace',
      subMap: "Odin's Archive",
      tellApart: { mode: false, id: false },
      location: 'Yggsgard',
      mode: 'Domination',
      competitive: false,
      image: 'https://img.test/rivals/maps/map_1170.png',
      video: 'https://youtu.be/8nYwiVjhBWQ',
    });
    expect(await maps.get('9999')).toBeUndefined();
  });

  it('labels in the member’s language: the words the bot adds are translated, the API’s names and modes kept', async () => {
    const maps = env.b.ctx.maps;
    const fr = (id: number) => runInLocale('fr', () => maps.label(id));
    expect(await fr(1230)).toBe('Shin-Shibuya (carte 1230)');
    expect(await fr(1236)).toBe('Royal Palace (Domination)');
    expect(await fr(1302)).toBe("Birnin T'Challa (Clone Rumble)");
    expect(await fr(1304)).toBe('Carte sans nom 1304 (Hellfire Gala)');
    expect(await fr(9999)).toBe('Carte inconnue (9999)');
    expect(await runInLocale('de', () => maps.label(1230))).toBe('Shin-Shibuya (Karte 1230)');
    expect(await runInLocale('ja', () => maps.label(1236))).toBe('Royal Palace（Domination）');
    expect(await runInLocale('ja', () => maps.label(1230))).toBe('Shin-Shibuya（マップ1230）');
    expect(await runInLocale('ja', () => maps.label(1304))).toBe('名前のないマップ1304（Hellfire Gala）');
    // The directory is shared: a French answer leaves the English one as it was.
    expect(await maps.label(1230)).toBe('Shin-Shibuya (map 1230)');
    const page = await runInLocale('fr', () => env.b.run('maps', {}));
    expect(page.payload.embeds[0]!.description).toContain('**Carte sans nom 1304 (Hellfire Gala)** · Domination');
  });

  it('merges records listed twice, keeping the one with more information and filling its gaps', async () => {
    const maps = env.b.ctx.maps;
    // 1267: the second record adds a sub_map thumbnail; 1246: the first has a video, the second a description.
    expect(await maps.get(1267)).toMatchObject({
      tellApart: { mode: false, id: true },
      mode: 'Convergence',
      competitive: true,
      video: 'https://youtu.be/8nYwiVjhBWQ',
    });
    expect(mapLabel((await maps.get(1267))!)).toBe('Hall of Djalia (map 1267)');
    expect(await maps.get(1246)).toMatchObject({ name: 'Ninomaru', mode: 'Conquest', video: 'https://youtu.be/jqnZzywDfTs' });
    expect(await maps.get(1254)).toMatchObject({ mode: "Jeff's Winter Splash Festival", subMap: null });
  });

  it('walks every page when the API pages at 10', async () => {
    const api = clientFor(env.r);
    try {
      const before = env.r.requests.byPath.get('/api/v1/maps') ?? 0;
      const list = await new MapDirectory(api, { pageSize: 10 }).list();
      expect((env.r.requests.byPath.get('/api/v1/maps') ?? 0) - before).toBe(4);
      expect(list.map((m) => m.id).sort()).toEqual([...new Set(env.r.dataset.maps.map((m) => String(m.id)))].sort());
      // Pages of 19: two pages reach total_maps (38), so no third request.
      const before19 = env.r.requests.byPath.get('/api/v1/maps') ?? 0;
      expect(await new MapDirectory(api, { pageSize: 19 }).list()).toHaveLength(35);
      expect((env.r.requests.byPath.get('/api/v1/maps') ?? 0) - before19).toBe(2);
    } finally {
      await api.close();
    }
  });

  it('label() never throws when the API fails; list() does', async () => {
    const fresh = bot(env.r);
    const { logger, lines } = capturingLogger();
    env.r.setFaults({ forceStatus: 503 });
    try {
      await expect(fresh.ctx.maps.label(1170, logger)).resolves.toBe('Map 1170');
      expect(lines.join('')).toMatch(/map list unavailable/);
      await expect(fresh.ctx.maps.list()).rejects.toBeInstanceOf(ApiError);
      const view = await fresh.run('maps', {});
      expect(view.payload.flags).toBe(64);
      env.r.setFaults({});
      // Once the API answers again, the same directory labels the map.
      expect(await fresh.ctx.maps.label(1170)).toBe("Royal Palace: Odin's Archive");
    } finally {
      env.r.setFaults({});
      await fresh.close();
    }
  });

  describe('over an API that ignores limit and pages at 10 (the real first-page capture: total_maps 32, 10 maps)', () => {
    // A stand-in for the client's maps() alone: the replica honours limit, the real API may not.
    const schemas = createSchemas(createImageResolver('https://img.test/rivals'));
    const sample = (file: string) => schemas.maps.parse(JSON.parse(readFileSync(join(SAMPLES_DIR, 'maps', file), 'utf8')));
    function pagedApi(all: GameMap[], total: number, fetchedAt = 1) {
      const asked: { page: number; limit: number }[] = [];
      const api = {
        maps: async ({ page = 1, limit = 10 }: { page?: number; limit?: number } = {}): Promise<Fetched<Page<GameMap>>> => {
          asked.push({ page, limit });
          const entries = all.slice((page - 1) * 10, page * 10);
          if (entries.length === 0) throw new ApiError({ kind: 'not_found', endpoint: 'maps', status: 404 });
          return { data: { total, entries }, fetchedAt, ageMs: 0, stale: false, source: 'upstream' };
        },
      };
      return { api: api as unknown as RivalsApi, asked };
    }

    it('keeps asking until total is reached', async () => {
      const full = sample('spiderbyte-maps-38-2025-04-25.json');
      const { api, asked } = pagedApi(full.entries, full.total);
      const directory = new MapDirectory(api);
      const list = await directory.list();
      expect(asked).toEqual([1, 2, 3, 4].map((page) => ({ page, limit: 100 })));
      expect(list).toHaveLength(35);
      // The index is rebuilt only when a page's fetch time changes.
      expect(await directory.list()).toBe(list);
    });

    it('ends at a 404 past the end, keeping what it has', async () => {
      const first = sample('spiderbyte-maps-p1-of-32-2025-02-16.json');
      expect(first).toMatchObject({ total: 32 });
      expect(first.entries).toHaveLength(10);
      const { api, asked } = pagedApi(first.entries, first.total);
      const list = await new MapDirectory(api).list();
      expect(asked.map((a) => a.page)).toEqual([1, 2]);
      expect(list).toHaveLength(10);
    });

    it('stops at the page cap, and when a page brings no new map', async () => {
      const full = sample('spiderbyte-maps-38-2025-04-25.json');
      const capped = pagedApi(full.entries, 10_000);
      expect(await new MapDirectory(capped.api, { maxPages: 2 }).list()).toHaveLength(20);
      expect(capped.asked).toHaveLength(2);
      // An API that ignores `page` (always the first ten): the second page adds nothing, so the walk ends.
      const repeating = {
        maps: async () => ({ data: { total: 38, entries: full.entries.slice(0, 10) }, fetchedAt: 1, ageMs: 0, stale: false, source: 'upstream' as const }),
      };
      expect(await new MapDirectory(repeating as unknown as RivalsApi).list()).toHaveLength(10);
    });
  });
});
