import dayjs from 'dayjs';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDecimal, formatMoney, formatMonth, formatQuantity, formatTime, setDayjsLocale } from '../../runtime/format/locale.ts';
import { DEFAULT_RENDERS } from '../../runtime/screens/format.tsx';

// A local time (no zone): the same wall clock wherever the tests run.
const MOMENT = '2026-11-28T12:00:03';
const DAY = '2026-03-05';

describe('one format: dates and times in the user language (issue 29, item 5)', () => {
  it.each([
    ['zh', '2026-03-05', '2026-11-28 12:00:03', '12:00:03', '2026年11月'],
    ['en', 'Mar 5, 2026', 'Nov 28, 2026 12:00:03', '12:00:03', 'Nov 2026'],
    ['es', '05/03/2026', '28/11/2026 12:00:03', '12:00:03', '11/2026'],
  ] as const)('%s: a day, a moment, a time and a month', (lang, day, moment, time, month) => {
    expect(formatDate(DAY, lang)).toBe(day);
    expect(formatDateTime(MOMENT, lang)).toBe(moment);
    expect(formatTime(MOMENT, lang)).toBe(time);
    expect(formatMonth(MOMENT, lang)).toBe(month);
  });

  it('never the browser default «11/28/2026, 12:00:03 PM»: 24-hour in every language, afternoon too', () => {
    for (const lang of ['zh', 'en', 'es'] as const) {
      const text = formatDateTime('2026-11-28T15:04:05', lang);
      expect(text).toContain('15:04:05');
      expect(text).not.toMatch(/AM|PM|上午|下午/);
    }
  });

  it('the month name of en does not follow dayjs’s global locale', () => {
    setDayjsLocale('zh');
    try {
      expect(formatDate(DAY, 'en')).toBe('Mar 5, 2026');
    } finally {
      setDayjsLocale('en');
    }
  });

  it('empty stays empty; a text that is no date comes back as it is', () => {
    expect(formatDate(null, 'zh')).toBe('');
    expect(formatDateTime(undefined, 'en')).toBe('');
    expect(formatDate('soon', 'es')).toBe('soon');
  });
});

describe('one format: numbers, quantities and money', () => {
  it.each([
    ['zh', '1,234.5', '3', '1,234.568', '1,234.50', '0.50', '12.00'],
    ['en', '1,234.5', '3', '1,234.568', '1,234.50', '0.50', '12.00'],
    // Spanish groups with a dot (from four digits too: one rule for every column) and writes the decimal comma.
    ['es', '1.234,5', '3', '1.234,568', '1.234,50', '0,50', '12,00'],
  ] as const)('%s', (lang, grouped, whole, rounded, money, half, twelve) => {
    expect(formatDecimal(1234.5, lang)).toBe(grouped);
    expect(formatDecimal('3.000', lang)).toBe(whole);
    expect(formatDecimal('1234.5678', lang)).toBe(rounded);
    expect(formatMoney(1234.5, lang)).toBe(money);
    expect(formatMoney('0.5', lang)).toBe(half);
    expect(formatMoney('12.0000', lang)).toBe(twelve);
  });

  it('Spanish groups large numbers with dots', () => {
    expect(formatDecimal(1234567.25, 'es')).toBe('1.234.567,25');
    expect(formatMoney(1234567.25, 'es')).toBe('1.234.567,25');
  });

  it('quantities: to the precision declared, trailing zeros dropped, with their unit', () => {
    expect(formatQuantity('3.500', 'zh', '千克')).toBe('3.5 千克');
    expect(formatQuantity(2.25, 'en', 'kg', 1)).toBe('2.3 kg');
    expect(formatQuantity('10.000', 'es', 'kg')).toBe('10 kg');
    expect(formatDecimal(7.96, 'zh', 0)).toBe('8');
  });

  it('money keeps the decimals a unit price carries, up to its precision', () => {
    expect(formatMoney('0.1234', 'zh', 4)).toBe('0.1234');
    expect(formatMoney('0.1000', 'zh', 4)).toBe('0.10');
    expect(formatMoney('-0.001', 'en')).toBe('0.00');
  });

  it('not a number: the value as text', () => {
    expect(formatDecimal('n/a', 'zh')).toBe('n/a');
    expect(formatMoney(undefined, 'zh')).toBe('');
  });

  it('the number, money and date renders of columns use it', () => {
    expect(DEFAULT_RENDERS.number.text?.('3.4000', { precision: 4, lang: 'zh' }, ['是', '否'])).toBe('3.4');
    expect(DEFAULT_RENDERS.money.text?.('1234.5', { lang: 'en' }, ['Yes', 'No'])).toBe('1,234.50');
    expect(DEFAULT_RENDERS.date.text?.(DAY, { lang: 'es' }, ['Sí', 'No'])).toBe('05/03/2026');
  });
});

afterAll(() => {
  dayjs.locale('en');
});
