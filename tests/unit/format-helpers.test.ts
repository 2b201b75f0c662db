import { describe, expect, it } from 'vitest';
import { formatNumber, toThousands } from '../../runtime/format/number.ts';
import { relativeTime, timeAgo } from '../../runtime/format/relative-time.ts';

const NOW = new Date('2026-03-10T12:00:00Z').getTime();
const ago = (ms: number) => NOW - ms;
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('relative time (spec 9)', () => {
  it.each([
    [0, 'justNow', 0],
    [29 * S, 'justNow', 0],
    [30 * S, 'minutes', 1],
    [59 * M + 59 * S, 'minutes', 59],
    [H, 'hours', 1],
    [23 * H + 59 * M, 'hours', 23],
    [24 * H, 'days', 1],
    [47 * H + 59 * M, 'days', 1],
    [48 * H, 'days', 2],
    [10 * D + 5 * H, 'days', 10],
  ] as const)('%i ms ago is %s %i', (elapsed, unit, count) => {
    expect(relativeTime(ago(elapsed), NOW)).toEqual({ unit, count });
  });

  it('a time in the future or an unreadable time counts as just now', () => {
    expect(relativeTime(NOW + 5 * M, NOW).unit).toBe('justNow');
    expect(relativeTime('not a date', NOW).unit).toBe('justNow');
  });

  it('accepts Date, ISO strings, and Unix times in seconds or milliseconds', () => {
    expect(relativeTime(new Date(ago(2 * H)), NOW)).toEqual({ unit: 'hours', count: 2 });
    expect(relativeTime(new Date(ago(3 * M)).toISOString(), NOW)).toEqual({ unit: 'minutes', count: 3 });
    expect(relativeTime(Math.floor(ago(5 * H) / 1000), NOW)).toEqual({ unit: 'hours', count: 5 });
    expect(relativeTime(String(ago(3 * D)), NOW)).toEqual({ unit: 'days', count: 3 });
  });

  it('speaks zh, en and es', () => {
    expect([0, 5 * M, 3 * H, 30 * H, 4 * D].map((e) => timeAgo(ago(e), 'zh', NOW))).toEqual(['刚刚', '5分钟前', '3小时前', '1天前', '4天前']);
    expect([0, M, 5 * M, H, 3 * H, 30 * H, 4 * D].map((e) => timeAgo(ago(e), 'en', NOW))).toEqual([
      'just now',
      '1 minute ago',
      '5 minutes ago',
      '1 hour ago',
      '3 hours ago',
      '1 day ago',
      '4 days ago',
    ]);
    expect([0, M, 5 * M, H, 3 * H, 30 * H, 4 * D].map((e) => timeAgo(ago(e), 'es', NOW))).toEqual([
      'justo ahora',
      'hace 1 minuto',
      'hace 5 minutos',
      'hace 1 hora',
      'hace 3 horas',
      'hace 1 día',
      'hace 4 días',
    ]);
  });
});

describe('number formatter (spec 9: k, M, G, T, P, E)', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1k'],
    [1234, '1.2k'],
    [1250, '1.3k'],
    [999_999, '1000k'],
    [1_000_000, '1M'],
    [5_430_000, '5.4M'],
    [2e9, '2G'],
    [3.25e12, '3.3T'],
    [7e15, '7P'],
    [1.5e18, '1.5E'],
    [-12_345, '-12.3k'],
  ])('%d → %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it('takes the number of digits and drops trailing zeros', () => {
    expect(formatNumber(1234, 2)).toBe('1.23k');
    expect(formatNumber(1200, 2)).toBe('1.2k');
    expect(formatNumber(1_000_000, 3)).toBe('1M');
    expect(formatNumber(1234, 0)).toBe('1k');
  });

  it('leaves non-finite numbers as they are', () => {
    expect(formatNumber(Number.NaN)).toBe('NaN');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });

  it('groups thousands', () => {
    expect(toThousands(0)).toBe('0');
    expect(toThousands(1234567)).toBe('1,234,567');
    expect(toThousands(-1234.5)).toBe('-1,234.5');
    expect(toThousands(999)).toBe('999');
  });
});
