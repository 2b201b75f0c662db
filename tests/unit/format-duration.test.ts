import { describe, expect, it } from 'vitest';
import { formatDuration, formatSize } from '../../runtime/format/duration.ts';

describe('durations in words', () => {
  it('shows the two largest parts in each language', () => {
    expect(formatDuration(11_520, 'zh')).toBe('3 小时 12 分');
    expect(formatDuration(11_520, 'en')).toBe('3 hours 12 minutes');
    expect(formatDuration(11_520, 'es')).toBe('3 horas 12 minutos');
    expect(formatDuration(1_936, 'zh')).toBe('32 分 16 秒');
    expect(formatDuration(90_061, 'en')).toBe('1 day 1 hour');
    expect(formatDuration(3_661, 'en', 's', 3)).toBe('1 hour 1 minute 1 second');
    expect(formatDuration(1, 'es')).toBe('1 segundo');
  });

  it('stops at a zero part and rounds to whole seconds', () => {
    expect(formatDuration(2 * 86_400 + 5 * 60, 'en')).toBe('2 days');
    expect(formatDuration(59.6, 'en')).toBe('1 minute');
    expect(formatDuration(7200, 'zh')).toBe('2 小时');
  });

  it('reads other units, milliseconds under a second, zero and signs', () => {
    expect(formatDuration(350, 'zh', 'ms')).toBe('350 毫秒');
    expect(formatDuration(0.25, 'en')).toBe('250 ms');
    expect(formatDuration(90, 'en', 'min')).toBe('1 hour 30 minutes');
    expect(formatDuration(1.5, 'es', 'd')).toBe('1 día 12 horas');
    expect(formatDuration(0, 'zh')).toBe('0 秒');
    expect(formatDuration(0, 'en', 'ms')).toBe('0 ms');
    expect(formatDuration(-65, 'en')).toBe('-1 minute 5 seconds');
    expect(formatDuration(Number.NaN, 'en')).toBe('NaN');
  });
});

describe('sizes in words', () => {
  it('picks the largest binary unit, with the language’s decimal mark', () => {
    expect(formatSize(1_572_864, 'en')).toBe('1.5 MB');
    expect(formatSize(1_572_864, 'es')).toBe('1,5 MB');
    expect(formatSize(512, 'zh')).toBe('512 字节');
    expect(formatSize(512, 'en')).toBe('512 B');
    expect(formatSize(2048, 'en', 'MB')).toBe('2 GB');
    expect(formatSize(123.4, 'en', 'MB')).toBe('123 MB');
    expect(formatSize(Infinity, 'en')).toBe('Infinity');
  });
});
