import sharp from 'sharp';
import svgCaptcha from 'svg-captcha';
import { CAPTCHA_IMAGE } from '@portal/shared';

/**
 * A four-character code drawn as a JPEG (the spec's /account/jpgcode). svg-captcha draws the
 * glyphs as paths, so no font is needed to rasterise it; look-alike characters are left out.
 * Its default 56 px glyphs in a 40 px image lost their tops and tails (issue 16): 44 px glyphs
 * in 50 px fit whole. Dark grey glyphs on the light ground (svg-captcha's colours for a light
 * ground are pale, some hard to read); two noise lines rather than three.
 */
export async function drawCaptcha(): Promise<{ text: string; image: Buffer }> {
  const { text, svg } = captchaSvg();
  const image = await sharp(Buffer.from(svg)).flatten({ background: '#eef3fb' }).jpeg({ quality: 85 }).toBuffer();
  return { text, image };
}

/** The code and its drawing, as SVG. */
export function captchaSvg(): { text: string; svg: string } {
  const { text, data } = svgCaptcha.create({
    size: 4,
    noise: 2,
    ignoreChars: '0oO1iIlL',
    color: false,
    width: CAPTCHA_IMAGE.width,
    height: CAPTCHA_IMAGE.height,
    fontSize: 44,
  });
  return { text, svg: data };
}
