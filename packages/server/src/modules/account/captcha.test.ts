import { describe, expect, it } from 'vitest';
import { CAPTCHA_IMAGE } from '@portal/shared';
import { captchaSvg } from './captcha.js';

/** The box of a glyph's outline: every coordinate pair of its path (svg-captcha writes absolute M, L, Q, C). */
function outlineBox(d: string) {
  const numbers = (d.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  const xs = numbers.filter((_, index) => index % 2 === 0);
  const ys = numbers.filter((_, index) => index % 2 === 1);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

describe('the captcha drawing', () => {
  it('draws every glyph whole inside the image (issue 16: tops and tails were cut off)', () => {
    for (let run = 0; run < 50; run++) {
      const { text, svg } = captchaSvg();
      // The glyphs are the filled paths; the noise lines are stroked with fill="none".
      const glyphs = [...svg.matchAll(/<path fill="(?!none)[^"]*" d="([^"]+)"/g)].map((match) => outlineBox(match[1]!));
      expect(glyphs).toHaveLength(text.length);
      for (const box of glyphs) {
        expect(box.top, `${text} ${JSON.stringify(box)}`).toBeGreaterThanOrEqual(1);
        expect(box.bottom, `${text} ${JSON.stringify(box)}`).toBeLessThanOrEqual(CAPTCHA_IMAGE.height - 1);
        expect(box.left).toBeGreaterThanOrEqual(1);
        expect(box.right).toBeLessThanOrEqual(CAPTCHA_IMAGE.width - 1);
      }
    }
  });
});
