/** The browser tier's setup: @sparticuz/chromium's build unpacked once, so that test files never unpack it at once. */
import { chromiumExecutable } from '../helpers/browser.js';

export default async function setup(): Promise<void> {
  await chromiumExecutable();
}
