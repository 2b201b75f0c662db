/**
 * Images through sharp (libvips, prebuilt binaries installed from npm as @img/sharp-*): the
 * dimensions of an upload (an image sharp cannot decode is refused, whatever its first bytes
 * say) and its thumbnail, a JPEG of at most THUMB_SIZE px on its longer side, turned upright
 * by its EXIF orientation and stripped of its metadata (GPS position included).
 */
import sharp from 'sharp';

export const THUMB_SIZE = 320;
/** A decompression bomb (a tiny PNG of 50,000 × 50,000 px) is refused rather than decoded. */
export const MAX_PIXELS = 40_000_000;

export interface ImageFacts {
  width: number;
  height: number;
  thumbnail: Buffer;
}

/** The image's size and thumbnail; null when the bytes are no image sharp can read within the limits. */
export async function imageFacts(data: Buffer): Promise<ImageFacts | null> {
  try {
    const image = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    if (!meta.width || !meta.height) return null;
    const thumbnail = await sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 78, mozjpeg: false })
      .toBuffer();
    const swap = (meta.orientation ?? 1) >= 5;
    return { width: swap ? meta.height : meta.width, height: swap ? meta.width : meta.height, thumbnail };
  } catch {
    return null;
  }
}
