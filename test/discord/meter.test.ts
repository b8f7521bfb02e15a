import { describe, expect, it } from 'vitest';
import { InteractionResponseType } from 'discord-api-types/v10';
import { NO_METRICS, type Metrics } from '../../src/core/metrics.js';
import { InteractionMeter } from '../../src/discord/meter.js';
import { toMessagePayload, type MessagePayload } from '../../src/render/view.js';

/** Metrics that record the ack and answer calls. */
function recording(): Metrics & { acks: number[]; answers: number[] } {
  const acks: number[] = [];
  const answers: number[] = [];
  return { ...NO_METRICS, enabled: true, acks, answers, ack: (_k, s) => acks.push(s), answer: (_k, s) => answers.push(s) };
}

const PAYLOAD = toMessagePayload({ content: 'answer' });
const webhook = () => ({ edit: async (_payload: MessagePayload) => undefined, followUp: async (_payload: MessagePayload) => undefined });

describe('InteractionMeter', () => {
  it('counts the final answer once: newer versions edited in after it are not more answers', async () => {
    const metrics = recording();
    const meter = new InteractionMeter(metrics, 'command', 'scout', Date.now());
    const respond = meter.callback(async () => undefined);
    const hook = meter.webhook(webhook());
    await respond({ type: InteractionResponseType.DeferredChannelMessageWithSource });
    expect(metrics.answers).toHaveLength(0);
    await hook.edit(PAYLOAD);
    await hook.edit(PAYLOAD);
    await hook.edit(PAYLOAD);
    expect(metrics.acks).toHaveLength(1);
    expect(metrics.answers).toHaveLength(1);
  });

  it('counts a direct reply as the answer, and its later edits not again', async () => {
    const metrics = recording();
    const meter = new InteractionMeter(metrics, 'command', 'scout', Date.now());
    await meter.callback(async () => undefined)({ type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'x' } });
    await meter.webhook(webhook()).edit(PAYLOAD);
    expect(metrics.acks).toHaveLength(1);
    expect(metrics.answers).toHaveLength(1);
  });
});
