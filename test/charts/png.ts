/**
 * PNG helpers for the chart tests: the size a PNG declares, and a pixel diff of two PNGs decoded
 * with @napi-rs/canvas (no image-diff package).
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Width and height in pixels from a PNG's IHDR chunk (the first chunk, right after the signature).
 * @throws Error when `png` is not a PNG.
 */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 24 || !buf.subarray(0, 8).equals(SIGNATURE) || buf.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** What {@link diffPngs} found. */
export interface PixelDiff {
  /** False when the two images differ in size (the counts are then of the whole image). */
  sameSize: boolean;
  width: number;
  height: number;
  /** Pixels where some channel (R, G, B or A) differs by more than the threshold. */
  differing: number;
  /** `differing` over all pixels, 0..1. */
  ratio: number;
  /** A PNG of the differences: differing pixels red over a faded copy of `expected`. */
  image: () => Promise<Buffer>;
}

async function pixels(png: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const image = await loadImage(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: ctx.getImageData(0, 0, image.width, image.height).data };
}

/**
 * Compares two PNGs pixel by pixel: a pixel differs when any of its RGBA channels differs by more
 * than `threshold` (0..255). The default, 3, lets through the off-by-one edge pixels Skia can give on
 * another CPU, and catches a background shifted from #2b2d31 to Discord's lighter #313338.
 */
export async function diffPngs(actual: Uint8Array, expected: Uint8Array, threshold = 3): Promise<PixelDiff> {
  const a = await pixels(actual);
  const e = await pixels(expected);
  const total = e.width * e.height;
  if (a.width !== e.width || a.height !== e.height) {
    return { sameSize: false, width: a.width, height: a.height, differing: total, ratio: 1, image: async () => Buffer.from(actual) };
  }
  const mask = new Uint8Array(total);
  let differing = 0;
  for (let i = 0; i < total; i++) {
    const o = i * 4;
    for (let c = 0; c < 4; c++) {
      if (Math.abs(a.data[o + c]! - e.data[o + c]!) > threshold) {
        mask[i] = 1;
        differing++;
        break;
      }
    }
  }
  const image = async () => {
    const canvas = createCanvas(e.width, e.height);
    const ctx = canvas.getContext('2d');
    const out = ctx.createImageData(e.width, e.height);
    for (let i = 0; i < total; i++) {
      const o = i * 4;
      if (mask[i]) out.data.set([255, 0, 0, 255], o);
      else out.data.set([e.data[o]! * 0.3, e.data[o + 1]! * 0.3, e.data[o + 2]! * 0.3, 255], o);
    }
    ctx.putImageData(out, 0, 0);
    return canvas.encode('png');
  };
  return { sameSize: true, width: e.width, height: e.height, differing, ratio: differing / total, image };
}
