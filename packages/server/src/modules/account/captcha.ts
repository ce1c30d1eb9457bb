import sharp from 'sharp';
import svgCaptcha from 'svg-captcha';

/**
 * A four-character code drawn as a JPEG (the spec's /account/jpgcode). svg-captcha draws the
 * glyphs as paths, so no font is needed to rasterise it; look-alike characters are left out.
 */
export async function drawCaptcha(): Promise<{ text: string; image: Buffer }> {
  const { text, data } = svgCaptcha.create({
    size: 4,
    noise: 3,
    ignoreChars: '0oO1iIlL',
    color: true,
    background: '#eef3fb',
    width: 120,
    height: 40,
  });
  const image = await sharp(Buffer.from(data)).jpeg({ quality: 80 }).toBuffer();
  return { text, image };
}
