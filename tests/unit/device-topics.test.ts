/**
 * The MQTT contract of server/devices/topics.ts (docs/devices.md, "Topics and payloads"):
 * topics parse only in their one shape, payloads name their own device, readings are
 * finite numbers of known kinds, timestamps not far in the future; and the scenario
 * window's arithmetic (across midnight).
 */
import { describe, expect, it } from 'vitest';
import { BadPayload, deviceTopic, parsePayload, parseTopic } from '../../server/devices/topics.ts';
import { inWindow } from '../../server/devices/scenarios.ts';

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
    const m = parsePayload(parts, JSON.stringify({ deviceId: 'D1', ts: 1_700_000_000_000, values: { airTemperature: 21.5, co2: 600 } }));
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
