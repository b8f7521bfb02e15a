import { describe, expect, it } from 'vitest';
import { asPosted, MessageStore } from '../../src/playground/messages.js';
import { toMessagePayload } from '../../src/render/view.js';

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2]);

describe('messages with attached files', () => {
  it('show each file as an attachment with a data: URL, and the embed image of attachment:// as that URL', () => {
    const payload = toMessagePayload({
      embeds: [{ title: 'Chart', image: { url: 'attachment://chart.png' } }, { image: { url: 'https://cdn.example/x.png' } }],
      files: [{ name: 'chart.png', data: png, contentType: 'image/png' }],
    });
    const posted = asPosted(payload);
    const url = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    expect(posted).not.toHaveProperty('files');
    expect(posted.attachments).toEqual([{ id: 0, filename: 'chart.png', url, size: png.byteLength, content_type: 'image/png' }]);
    expect(posted.embeds[0]!.image).toEqual({ url });
    expect(posted.embeds[1]!.image).toEqual({ url: 'https://cdn.example/x.png' });
    // What the page receives is plain JSON.
    expect(JSON.parse(JSON.stringify(posted))).toEqual(posted);
  });

  it('are stored as posted, on create and on update', () => {
    const store = new MessageStore();
    const withFile = toMessagePayload({ embeds: [{ image: { url: 'attachment://c.png' } }], files: [{ name: 'c.png', data: png, contentType: 'image/png' }] });
    const created = store.create({ channelId: '1', state: 'done', payload: toMessagePayload({ content: 'plain' }), ephemeral: false });
    expect(created.payload).toEqual(toMessagePayload({ content: 'plain' }));
    const updated = store.update(created.id, { state: 'done', payload: withFile });
    expect(updated.payload).not.toHaveProperty('files');
    expect(updated.payload!.embeds[0]!.image!.url).toMatch(/^data:image\/png;base64,/);
  });
});
