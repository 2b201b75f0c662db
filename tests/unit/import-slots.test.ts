/**
 * The import slots (server/resources/import-slots.ts): a file read in a worker thread, its
 * refusals carried back as ImportFileError, a read past the time-out refused on `content`,
 * and 42901 past the slots.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../server/http/envelope.ts';
import { ImportFileError } from '../../server/resources/import-file.ts';
import { ImportSlots } from '../../server/resources/import-slots.ts';
import { deflatedRepeat, workbookParts, zipOf } from '../support/zip-build.ts';

describe('ImportSlots', () => {
  const slots = new ImportSlots(1, 60_000);
  afterAll(() => slots.close());

  it('reads a file in its worker, and carries a refusal back', async () => {
    const slot = slots.acquire();
    try {
      expect(await slot.read(Buffer.from('a,b\n1,2\n'))).toEqual([
        ['a', 'b'],
        ['1', '2'],
      ]);
      const bomb = zipOf(workbookParts({ name: 'xl/worksheets/sheet1.xml', deflated: await deflatedRepeat(20) }));
      const e = await slot.read(bomb).catch((x) => x);
      expect(e).toBeInstanceOf(ImportFileError);
      expect(e.reason).toBe('zipRatio');
    } finally {
      slot.release();
    }
  }, 60_000);

  it('answers 42901 past its slots, and frees a slot on release', () => {
    const held = slots.acquire();
    const e = (() => {
      try {
        slots.acquire();
      } catch (x) {
        return x as ApiError;
      }
    })();
    expect(e?.status).toBe(42901);
    expect(e?.params).toEqual({ limit: 1 });
    held.release();
    held.release(); // twice frees once
    slots.acquire().release();
  });

  it('refuses a read past the time-out, on content', async () => {
    const quick = new ImportSlots(1, 1);
    try {
      await quick.warm().catch(() => undefined);
      // Long enough to read (some 5 MB of cells under the row limit) that the 1-ms timer fires
      // first even when a loaded machine runs this thread's timers late.
      const wide = Array.from({ length: 60 }, (_, j) => `column value ${j}`).join(',');
      const lines = ['code,name', ...Array.from({ length: 5000 }, (_, i) => `C-${i},${wide}`)].join('\n');
      const slot = quick.acquire();
      const e = (await slot.read(Buffer.from(lines)).catch((x) => x)) as ApiError;
      slot.release();
      expect(e.status).toBe(40001);
      expect(e.params).toEqual({ seconds: 0 });
      const details = typeof e.details === 'function' ? e.details('en') : e.details;
      expect(details?.[0].field).toBe('content');
      expect(details?.[0].message).toMatch(/^Reading the file took more than 0 seconds/);
    } finally {
      await quick.close();
    }
  }, 60_000);
});
