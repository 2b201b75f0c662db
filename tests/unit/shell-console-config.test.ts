import { describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp } from '../support/app.ts';

describe.each(engines())('GET /api/console/config on $name', (engine) => {
  it('is public and returns the three console settings from the server configuration', async () => {
    const t = await createTestApp(engine, { instructionVideoUrl: 'https://videos.example/guide.mp4', tileUrl: 'https://tiles.example/{z}/{x}/{y}.png' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/console/config' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.status).toBe(200);
      expect(body.data).toEqual({
        instructionVideoUrl: t.config.instructionVideoUrl,
        headerTitleCity: t.config.headerTitleCity,
        tileUrl: t.config.tileUrl,
      });
      expect(body.data.headerTitleCity).toBe('齐齐哈尔市');
      expect(body.data.instructionVideoUrl).toBe('https://videos.example/guide.mp4');
      expect(body.data.tileUrl).toBe('https://tiles.example/{z}/{x}/{y}.png');
    } finally {
      await t.close();
    }
  }, 60_000);
});
