/**
 * The devices' wire types, one copy for both sides: what `deviceUnits` answers, what the
 * `deviceEvents` stream sends, the actions a device takes and the states a command goes
 * through. The server builds its replies with these types and the equipment-control and
 * map widgets read them, so a renamed field fails the typecheck on both sides at once.
 */

/** The actions of a command, and which one each kind of device takes. */
export const DEVICE_ACTIONS = ['switch', 'valve', 'airConditioner', 'fertigation'] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];
export const ACTION_OF_KIND: Record<string, DeviceAction | undefined> = {
  switch: 'switch',
  pump: 'switch',
  valve: 'valve',
  airConditioner: 'airConditioner',
  fertigation: 'fertigation',
};

/** A command is stored pending and ends in one of the others (docs/devices.md, "Commands"). */
export const COMMAND_STATUSES = ['pending', 'acknowledged', 'failed', 'timedOut', 'superseded'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

export interface CommandRef {
  id: number;
  action: string;
  params: Record<string, unknown>;
}

/** A device as `deviceUnits` shows it. */
export interface DeviceView {
  id: number;
  farmId: number;
  code: string;
  name: string;
  kind: string;
  model: string;
  place: string;
  channels: string[];
  state: Record<string, unknown>;
  online: boolean;
  lastSeen: string | null;
  firmware: string;
  gateway: string | null;
  /** Played by the simulator (a demo gateway's device): labelled on screen. */
  simulated: boolean;
  /** The latest value of each reading kind (the last day only). */
  readings: Record<string, { value: number; ts: string }>;
  pendingCommand: CommandRef | null;
}

export interface UnitAlarm {
  id: number;
  message: string;
  raisedAt: string;
}

/** A place of one farm with its devices (a viewer of several farms sees each farm's places apart). */
export interface UnitView {
  unit: string;
  farmId: number;
  farmName: string;
  placeType: string;
  /** Some of its devices are simulated. */
  simulated: boolean;
  devices: DeviceView[];
  alarms: UnitAlarm[];
}

/** The reply of `deviceUnits`. */
export interface DeviceUnitsReply {
  units: UnitView[];
  alarms: (UnitAlarm & { place: string })[];
}

/** One event of the `deviceEvents` stream (its SSE event name is `type`), for one farm. */
export type DeviceStreamEvent =
  | { type: 'state'; farmId: number; deviceId: number; online: boolean; state: Record<string, unknown>; lastSeen: string | null }
  | { type: 'reading'; farmId: number; deviceId: number; place: string; ts: string; values: Record<string, number> }
  | { type: 'command'; farmId: number; deviceId: number; commandId: number; status: CommandStatus; message: string }
  | {
      type: 'alarm';
      farmId: number;
      alarmId: number;
      /** False once cleared. */
      raised: boolean;
      message: string;
      state?: 'open' | 'acknowledged' | 'cleared';
      severity?: string;
      condition?: string;
      escalationLevel?: number;
    }
  | { type: 'gateway'; farmId: number; gatewayId: number; online: boolean };
