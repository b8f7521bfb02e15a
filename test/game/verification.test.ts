import { describe, expect, it } from 'vitest';
import { checkVerification } from '../../src/game/verification.js';

describe('checkVerification', () => {
  it('verifies once the icon differs from the one at the start, whatever the time; a read without an icon proves nothing', () => {
    expect(checkVerification('30000001', '30000002', 1_000, 999)).toBe('verified');
    expect(checkVerification('30000001', '30000002', 1_000, 5_000)).toBe('verified');
    expect(checkVerification('30000001', '30000001', 1_000, 999)).toBe('waiting');
    expect(checkVerification('30000001', null, 1_000, 999)).toBe('waiting');
    // A profile that had no icon when the proof began cannot show a change.
    expect(checkVerification(null, '30000002', 1_000, 999)).toBe('waiting');
  });

  it('expires at its end when the icon has not changed', () => {
    expect(checkVerification('30000001', '30000001', 1_000, 1_000)).toBe('expired');
  });
});
