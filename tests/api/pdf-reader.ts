/**
 * Reads a PDF back as a reader would, for tests: each page's size, its text (pdf.js, through the
 * fonts' Unicode maps) and its images decoded to RGBA pixels (for a QR decoder). pdf.js is a
 * development dependency only.
 */
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfImage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

export interface PdfPage {
  width: number;
  height: number;
  text: string;
  images: PdfImage[];
}

interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** pdf.js image kinds: 1 one bit a pixel, 2 RGB, 3 RGBA. */
function toRgba(img: DecodedImage): Uint8ClampedArray {
  const { width, height, kind, data } = img;
  const out = new Uint8ClampedArray(width * height * 4);
  if (kind === 3) {
    out.set(data);
    return out;
  }
  for (let i = 0; i < width * height; i += 1) {
    let v: [number, number, number];
    if (kind === 2) v = [data[i * 3], data[i * 3 + 1], data[i * 3 + 2]];
    else {
      const rowBytes = (width + 7) >> 3;
      const y = Math.floor(i / width);
      const x = i % width;
      const bit = (data[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1;
      const g = bit ? 255 : 0;
      v = [g, g, g];
    }
    out.set([...v, 255], i * 4);
  }
  return out;
}

export async function readPdf(bytes: Buffer | Uint8Array): Promise<{ pages: PdfPage[] }> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isOffscreenCanvasSupported: false, isImageDecoderSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  const pages: PdfPage[] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const page = await doc.getPage(n);
    const [, , width, height] = page.view;
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join('');
    const ops = await page.getOperatorList();
    const images: PdfImage[] = [];
    for (let i = 0; i < ops.fnArray.length; i += 1) {
      if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
      const name = ops.argsArray[i][0] as string;
      const img = (await new Promise((resolve) => page.objs.get(name, resolve))) as DecodedImage;
      images.push({ width: img.width, height: img.height, rgba: toRgba(img) });
    }
    pages.push({ width, height, text, images });
  }
  await doc.destroy();
  return { pages };
}
