/**
 * The MQTT contract of server/devices/topics.ts (docs/devices.md, "Topics and payloads"):
 * topics parse only in their one shape, payloads name their own device, readings are
 * finite numbers of known kinds, timestamps not far in the future; and the scenario
 * window's arithmetic (across midnight).
 */
import { describe, expect, it } from 'vitest';
import { BadPayload, checkState, deviceTopic, parsePayload, parseTopic } from '../../server/devices/topics.ts';
import { inWindow, thresholdSide } from '../../server/devices/scenarios.ts';
import { isLoopback, LoginThrottle } from '../../server/devices/login-throttle.ts';

describe('device topics and payloads', () => {
  it('parses the topic shape and nothing else', () => {
    expect(parseTopic('farm', deviceTopic('farm', 3, 'F3-GH1-TH', 'reading'))).toEqual({ farmId: 3, deviceCode: 'F3-GH1-TH', kind: 'reading' });
    expect(parseTopic('a/b', 'a/b/3/device/X/ack')).toEqual({ farmId: 3, deviceCode: 'X', kind: 'ack' });
    for (const bad of ['farm/3/device/X', 'farm/x/device/X/reading', 'farm/3/sensor/X/reading', 'other/3/device/X/reading', 'farm/3/device/X Y/reading', 'farm/03/device/X/reading']) {
      expect(parseTopic('farm', bad), bad).toBeNull();
    }
  });

  const parts = { farmId: 1, deviceCode: 'D1', kind: 'reading' };
  const refused = (payload: string, kind = 'reading') => {
    try {
      parsePayload({ ...parts, kind }, payload);
    } catch (e) {
      expect(e).toBeInstanceOf(BadPayload);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it('accepts a reading of its own device', () => {
    // The clock is fixed: a minute after the reading.
    const m = parsePayload(parts, JSON.stringify({ deviceId: 'D1', ts: 1_700_000_000_000, values: { airTemperature: 21.5, co2: 600 } }), 1_700_000_060_000);
    expect(m).toMatchObject({ kind: 'reading', deviceCode: 'D1', values: { airTemperature: 21.5, co2: 600 } });
  });

  it('refuses, saying why', () => {
    expect(refuse('not json')).toBe('payload is not JSON');
    expect(refuse('[1]')).toBe('payload is not a JSON object');
    expect(refuse(JSON.stringify({ deviceId: 'D2', values: { co2: 1 } }))).toContain('names device "D2" on the topic of "D1"');
    expect(refuse(JSON.stringify({ deviceId: 'D1', values: { sugar: 1 } }))).toBe('unknown reading kind "sugar"');
    expect(refuse(JSON.stringify({ deviceId: 'D1', values: { co2: '1' } }))).toBe('reading "co2" is not a finite number');
    expect(refuse(JSON.stringify({ deviceId: 'D1', values: {} }))).toBe('reading without values');
    expect(refuse(JSON.stringify({ deviceId: 'D1', ts: Date.now() + 3_600_000, values: { co2: 1 } }))).toContain('future');
    expect(refuse(JSON.stringify({ deviceId: 'D1', commandId: 'x', ok: true }), 'ack')).toBe('ack without integer "commandId"');
    expect(refuse(JSON.stringify({ deviceId: 'D1', online: 'yes' }), 'status')).toBe('status without boolean "online"');
    expect(refuse(JSON.stringify({ deviceId: 'D1' }), 'command')).toContain('not a device message');
  });

  it('refuses a time outside [now − retention, now + 10 min], on a fixed clock', () => {
    const now = Date.UTC(2026, 10, 28, 8);
    const at = (ts: unknown, retentionDays = 400) => () => parsePayload(parts, JSON.stringify({ deviceId: 'D1', ts, values: { co2: 1 } }), now, retentionDays);
    expect(at(0)).toThrow(/1970-01-01T00:00:00.000Z is older than the 400-day retention/);
    expect(at(now - 401 * 86_400_000)).toThrow(BadPayload);
    expect(at(now - 399 * 86_400_000)()).toMatchObject({ kind: 'reading' });
    expect(at(now + 9 * 60_000)()).toMatchObject({ kind: 'reading' });
    expect(at(now + 11 * 60_000)).toThrow(/in the future/);
    // Retention 0 keeps everything, but 1970 is still a lost clock.
    expect(at(now - 5 * 365 * 86_400_000, 0)()).toMatchObject({ kind: 'reading' });
    expect(at(0, 0)).toThrow(/older than/);
  });

  it('a state holds only its kind’s declared keys, well typed, at most 1 KiB', () => {
    expect(() => checkState('pump', { on: true, fault: null })).not.toThrow();
    expect(() => checkState('valve', { open: true, until: '2026-11-28T08:00:00Z' })).not.toThrow();
    expect(() => checkState('airConditioner', { power: true, mode: 'heat', setPoint: 20, fan: 'auto', fault: 'E4 高压保护' })).not.toThrow();
    expect(() => checkState('fertigation', { running: true, recipe: { name: '果期', ec: 2.2, ph: 6.2, minutes: 30 } })).not.toThrow();
    expect(() => checkState('pump', { on: true, open: true })).toThrow(/"open" is not declared for a pump/);
    expect(() => checkState('airConditioner', { mode: 'turbo' })).toThrow(/wrong type or value/);
    expect(() => checkState('fertigation', { recipe: { name: 'x', ec: 1, ph: 6, minutes: 1, extra: 1 } })).toThrow(/wrong type/);
    expect(() => checkState('switch', { fault: 'x'.repeat(2000) })).toThrow(/larger than 1024/);
  });

  it('a threshold with a deadband: beyond fires, back re-arms, the band does neither', () => {
    const above = { op: 'above' as const, value: 30, deadband: 0.5 };
    expect([30.1, 30, 29.6, 29.5, 29].map((v) => thresholdSide(above, v))).toEqual(['beyond', 'band', 'band', 'back', 'back']);
    const below = { op: 'below' as const, value: 22, deadband: 2 };
    expect([21.9, 22, 23.9, 24].map((v) => thresholdSide(below, v))).toEqual(['beyond', 'band', 'band', 'back']);
    // No deadband: the other side of the threshold re-arms at once (the first version's rule).
    expect([30, 30.1].map((v) => thresholdSide({ op: 'above', value: 30 }, v))).toEqual(['back', 'beyond']);
  });

  it('the broker’s login throttle counts failures per address within a minute; loopback is the machine', () => {
    let now = 0;
    const t = new LoginThrottle(() => now);
    for (let i = 0; i < 5; i++) {
      expect(t.blocked('192.0.2.7')).toBe(false);
      t.failed('192.0.2.7');
    }
    expect(t.blocked('192.0.2.7')).toBe(true);
    expect(t.blocked('192.0.2.8')).toBe(false);
    now = 60_001;
    expect(t.blocked('192.0.2.7')).toBe(false);
    expect(t.throttled).toBe(1);
    expect([undefined, '127.0.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['192.0.2.2', '::ffff:10.0.0.1', 'fd00::2'].some(isLoopback)).toBe(false);
  });

  function refuse(payload: string, kind = 'reading') {
    return refused(payload, kind);
  }

  it('windows of hours, across midnight too', () => {
    expect(inWindow('07:00:00', '06:00', '19:00')).toBe(true);
    expect(inWindow('20:00:00', '06:00', '19:00')).toBe(false);
    expect(inWindow('23:30:00', '22:00', '05:00')).toBe(true);
    expect(inWindow('04:59:00', '22:00', '05:00')).toBe(true);
    expect(inWindow('12:00:00', '22:00', '05:00')).toBe(false);
  });
});
