/**
 * The images of the application's emojis: the API's icons fitted to a square, and the role badges, which the API has no
 * icon for, drawn here. Discord takes an emoji of at most 256 KiB and shows it at 48 px at most ("Emoji Resource").
 */
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { ROLE_COLORS, type ROLE_ORDER } from './theme.js';

/** Side of an emoji image, px: twice Discord's largest display, for sharp high-density screens. */
export const EMOJI_SIZE = 96;
/** Discord's bound on an emoji image, bytes. */
export const EMOJI_MAX_BYTES = 256 * 1024;

/**
 * `icon` (PNG, JPEG or WebP bytes) centred in an {@link EMOJI_SIZE} square with its aspect kept, as PNG bytes.
 * @throws Error when the bytes are not an image @napi-rs/canvas decodes.
 */
export async function emojiFromIcon(icon: Uint8Array): Promise<Uint8Array> {
  const image = await loadImage(Buffer.from(icon.buffer, icon.byteOffset, icon.byteLength));
  if (!image.width || !image.height) throw new Error('the icon has no pixels');
  const canvas = createCanvas(EMOJI_SIZE, EMOJI_SIZE);
  const ctx = canvas.getContext('2d');
  const scale = Math.min(EMOJI_SIZE / image.width, EMOJI_SIZE / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  ctx.drawImage(image, (EMOJI_SIZE - w) / 2, (EMOJI_SIZE - h) / 2, w, h);
  return new Uint8Array(await canvas.encode('png'));
}

export type EmojiRole = (typeof ROLE_ORDER)[number];

/** A role's badge as PNG bytes: a disc in the role's colour (as on the cards) with its sign in white, clear on light and dark themes. */
export async function roleEmoji(role: EmojiRole): Promise<Uint8Array> {
  const canvas = createCanvas(EMOJI_SIZE, EMOJI_SIZE);
  const ctx = canvas.getContext('2d');
  const c = EMOJI_SIZE / 2;
  ctx.fillStyle = ROLE_COLORS[role]!;
  ctx.beginPath();
  ctx.arc(c, c, c - 2, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  ctx.strokeStyle = '#ffffff';
  ctx.lineCap = 'round';
  SIGNS[role](ctx, EMOJI_SIZE);
  return new Uint8Array(await canvas.encode('png'));
}

/** Each role's sign, in a square of side `s`: a shield for Vanguard, a crosshair for Duelist, a cross for Strategist. */
const SIGNS: Record<EmojiRole, (ctx: SKRSContext2D, s: number) => void> = {
  Vanguard: (ctx, s) => {
    ctx.beginPath();
    ctx.moveTo(s * 0.5, s * 0.2);
    ctx.lineTo(s * 0.75, s * 0.3);
    ctx.quadraticCurveTo(s * 0.74, s * 0.66, s * 0.5, s * 0.8);
    ctx.quadraticCurveTo(s * 0.26, s * 0.66, s * 0.25, s * 0.3);
    ctx.closePath();
    ctx.fill();
  },
  Duelist: (ctx, s) => {
    ctx.lineWidth = s * 0.07;
    ctx.beginPath();
    ctx.arc(s / 2, s / 2, s * 0.2, 0, Math.PI * 2);
    ctx.stroke();
    for (const [x1, y1, x2, y2] of [
      [0.5, 0.16, 0.5, 0.34],
      [0.5, 0.66, 0.5, 0.84],
      [0.16, 0.5, 0.34, 0.5],
      [0.66, 0.5, 0.84, 0.5],
    ] as const) {
      ctx.beginPath();
      ctx.moveTo(s * x1, s * y1);
      ctx.lineTo(s * x2, s * y2);
      ctx.stroke();
    }
  },
  Strategist: (ctx, s) => {
    const arm = s * 0.16;
    const len = s * 0.3;
    ctx.fillRect(s / 2 - arm / 2, s / 2 - len, arm, len * 2);
    ctx.fillRect(s / 2 - len, s / 2 - arm / 2, len * 2, arm);
  },
};
