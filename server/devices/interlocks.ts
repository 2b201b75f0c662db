/**
 * Interlocks declared per unit (docs/devices.md, "Interlocks"): rows of device_interlocks,
 * e.g. «the pump never runs with every valve closed»: the guarded device (the pump), the
 * state it is guarded in (`when`: {on: true}) and what must then hold of other devices
 * (`requires` any or all `of` [{deviceId, key: open, equals: true}, …]). Checked by
 * Commands.send, the one place commands are sent, against the devices' reported states
 * with the command's effect applied: a command that would leave the farm in a state the
 * interlock forbids is refused with a sentence in the caller's language, whether a person
 * or a rule sent it. A command to one of the other devices is refused too when it would
 * break the interlock while the guarded device runs (closing the last open valve).
 */
import type { Queryable } from '../db/database.ts';
import { ApiError, business } from '../http/envelope.ts';
import { defineMessages } from '../i18n/catalog.ts';
import type { Action } from './commands.ts';

export const STATE_KEYS = ['on', 'open', 'power', 'running'] as const;
export type StateKey = (typeof STATE_KEYS)[number];

export interface InterlockGuard {
  when: Partial<Record<StateKey, boolean>>;
  requires: 'any' | 'all';
  of: { deviceId: number; key: StateKey; equals: boolean }[];
}

const WORDS: Record<`${StateKey}.${'true' | 'false'}`, { zh: string; en: string; es: string }> = {
  'open.true': { zh: '打开', en: 'open', es: 'abierto' },
  'open.false': { zh: '关闭', en: 'closed', es: 'cerrado' },
  'on.true': { zh: '开启', en: 'on', es: 'encendido' },
  'on.false': { zh: '关闭', en: 'off', es: 'apagado' },
  'power.true': { zh: '开机', en: 'powered on', es: 'encendido' },
  'power.false': { zh: '关机', en: 'powered off', es: 'apagado' },
  'running.true': { zh: '运行', en: 'running', es: 'en marcha' },
  'running.false': { zh: '停止', en: 'stopped', es: 'parado' },
};

/** One sentence per (any | all, key, value), in zh / en / es. */
const sentences: Record<string, { zh: string; en: string; es: string }> = {};
for (const [kv, w] of Object.entries(WORDS)) {
  sentences[`devices.interlock.any.${kv}`] = {
    zh: `联锁「{name}」：{others}中至少一个${w.zh}时，{device}才能运行；命令未发送`,
    en: `Interlock “{name}”: {device} may run only while at least one of {others} is ${w.en}; the command was not sent`,
    es: `Enclavamiento «{name}»: {device} solo puede funcionar mientras al menos uno de {others} esté ${w.es}; no se envió la orden`,
  };
  sentences[`devices.interlock.all.${kv}`] = {
    zh: `联锁「{name}」：{others}全部${w.zh}时，{device}才能运行；命令未发送`,
    en: `Interlock “{name}”: {device} may run only while all of {others} are ${w.en}; the command was not sent`,
    es: `Enclavamiento «{name}»: {device} solo puede funcionar mientras todos ({others}) estén ${w.es}; no se envió la orden`,
  };
}
defineMessages(sentences);

/** The state keys a command sets on its device (what the interlocks look at). */
export function commandEffect(action: Action, params: Record<string, unknown>): Partial<Record<StateKey, boolean>> {
  switch (action) {
    case 'switch':
      return { on: params.on === true };
    case 'valve':
      return { open: params.open === true };
    case 'airConditioner':
      return { power: params.power === true };
    case 'fertigation':
      return { running: params.run === true };
  }
}

/** An interlock's refusal: a business refusal (40001) whose params also name the interlock. */
export function isInterlockRefusal(e: unknown): e is ApiError {
  return e instanceof ApiError && e.key.startsWith('devices.interlock.');
}

interface InterlockRow {
  id: number;
  name: string;
  device_id: number;
  guard: InterlockGuard;
}

/** Checks the command against the farm's enabled interlocks; throws the refusal. */
export async function checkInterlocks(tx: Queryable, device: { id: number; farmId: number }, action: Action, params: Record<string, unknown>): Promise<void> {
  const { rows } = await tx.query<InterlockRow>(
    `SELECT id, name, device_id, guard FROM device_interlocks
      WHERE farm_id = $1 AND enabled AND (device_id = $2 OR guard->'of' @> $3::jsonb) ORDER BY id`,
    [device.farmId, device.id, JSON.stringify([{ deviceId: device.id }])],
  );
  if (!rows.length) return;
  const ids = new Set<number>([device.id]);
  for (const il of rows) {
    ids.add(il.device_id);
    for (const o of il.guard.of) ids.add(o.deviceId);
  }
  const states = await tx.query<{ id: number; name: string; state: Record<string, unknown> }>('SELECT id, name, state FROM devices WHERE id = ANY($1::int[])', [[...ids]]);
  const before = new Map(states.rows.map((r) => [r.id, r.state ?? {}]));
  const names = new Map(states.rows.map((r) => [r.id, r.name]));
  const after = new Map(before);
  after.set(device.id, { ...(before.get(device.id) ?? {}), ...commandEffect(action, params) });
  for (const il of rows) {
    const brokenAfter = broken(il.guard, il.device_id, after);
    // A command to the guarded device is refused whenever it would run against the interlock;
    // a command to another device only when it is the one that breaks it.
    if (!brokenAfter || (il.device_id !== device.id && broken(il.guard, il.device_id, before))) continue;
    const any = il.guard.requires === 'any' && il.guard.of.length > 1;
    const first = il.guard.of[0];
    throw business(`devices.interlock.${any ? 'any' : 'all'}.${first.key}.${first.equals}`, {
      name: il.name,
      device: names.get(il.device_id) ?? String(il.device_id),
      others: il.guard.of.map((o) => `「${names.get(o.deviceId) ?? o.deviceId}」`).join(any ? ' / ' : ', '),
    });
  }
}

function broken(guard: InterlockGuard, guardedId: number, states: Map<number, Record<string, unknown>>): boolean {
  const guarded = states.get(guardedId) ?? {};
  const runs = Object.entries(guard.when).every(([k, v]) => guarded[k] === v);
  if (!runs) return false;
  const holds = (o: InterlockGuard['of'][number]) => (states.get(o.deviceId) ?? {})[o.key] === o.equals;
  const ok = guard.requires === 'all' ? guard.of.every(holds) : guard.of.some(holds);
  return !ok;
}
