-- Devices, readings, commands, scenarios and alarms (docs/devices.md, DOMAIN.md area 4).

-- A gateway is the MQTT client of the devices wired to it; its code is its MQTT username.
CREATE TABLE device_gateways (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Za-z0-9_-]{1,48}$'),
  name text NOT NULL,
  -- The password the gateway connects with (the embedded broker checks it).
  secret text NOT NULL,
  place text NOT NULL DEFAULT '',
  firmware text NOT NULL DEFAULT '',
  online boolean NOT NULL DEFAULT false,
  last_seen timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_gateways_farm_idx ON device_gateways(farm_id);

-- unit: the tile the console groups a device under (a greenhouse, a plot's irrigation, the
-- fertigation machine); place: where it stands (plot, greenhouse, facility) by name.
CREATE TABLE devices (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  gateway_id integer REFERENCES device_gateways(id) ON DELETE SET NULL,
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Za-z0-9_-]{1,48}$'),
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('sensor', 'switch', 'valve', 'pump', 'airConditioner', 'fertigation', 'camera')),
  model text NOT NULL DEFAULT '',
  place_type text NOT NULL DEFAULT 'greenhouse' CHECK (place_type IN ('plot', 'greenhouse', 'facility')),
  place text NOT NULL DEFAULT '',
  unit text NOT NULL DEFAULT '',
  -- What a sensor measures: reading kinds, e.g. {airTemperature, airHumidity}.
  channels text[] NOT NULL DEFAULT '{}',
  firmware text NOT NULL DEFAULT '',
  state jsonb NOT NULL DEFAULT '{}',
  online boolean NOT NULL DEFAULT false,
  last_seen timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_farm_idx ON devices(farm_id, unit);

-- The time series: one row per value. Place (the device's unit) is copied in so that a
-- chart of one place and kind over a year is one index range scan (farm, kind, place, ts)
-- whose leaf pages carry the value (INCLUDE): no heap visit for an aggregate.
CREATE TABLE device_readings (
  farm_id integer NOT NULL,
  device_id integer NOT NULL,
  place text NOT NULL,
  kind text NOT NULL,
  ts timestamptz NOT NULL,
  value double precision NOT NULL
);
CREATE INDEX device_readings_chart_idx ON device_readings(farm_id, kind, place, ts) INCLUDE (value);
CREATE INDEX device_readings_ts_idx ON device_readings(ts);

-- Hourly rollup of the readings, kept by the same statement that stores them: a chart by
-- hour, day, week or month reads at most 8,760 rows a year per place and kind instead of
-- every reading. Exact: the average is total / n, min and max of the hour.
CREATE TABLE device_readings_hourly (
  farm_id integer NOT NULL,
  kind text NOT NULL,
  place text NOT NULL,
  hour timestamptz NOT NULL,
  n integer NOT NULL,
  total double precision NOT NULL,
  min double precision NOT NULL,
  max double precision NOT NULL,
  PRIMARY KEY (farm_id, kind, place, hour)
);

-- status: pending → acknowledged | failed | timedOut | superseded (a later command on the
-- same device replaces a pending one: the later wins, docs/devices.md).
CREATE TABLE device_commands (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL,
  device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  action text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'acknowledged', 'failed', 'timedOut', 'superseded')),
  message text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT 'user' CHECK (source IN ('user', 'scenario')),
  scenario_id integer,
  requested_by integer REFERENCES users(id) ON DELETE SET NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX device_commands_device_idx ON device_commands(device_id, id DESC);
CREATE INDEX device_commands_pending_idx ON device_commands(expires_at) WHERE status = 'pending';

-- trigger: {type:'threshold', place, kind, op:'above'|'below', value} or {type:'schedule', at:'HH:MM'};
-- window: the hours of the day it may act in; action: {deviceId, action, params}.
-- armed (threshold): true until it fires, back to true when the reading crosses back; the
-- UPDATE … WHERE armed that fires it is the claim across API instances.
-- last_slot (schedule): the day and time it last fired, claimed the same way.
CREATE TABLE device_scenarios (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  name text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  trigger jsonb NOT NULL,
  window_from time NOT NULL DEFAULT '00:00',
  window_to time NOT NULL DEFAULT '23:59:59',
  action jsonb NOT NULL,
  alarm boolean NOT NULL DEFAULT false,
  armed boolean NOT NULL DEFAULT true,
  last_slot text,
  last_fired_at timestamptz,
  runs integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_scenarios_farm_idx ON device_scenarios(farm_id) WHERE enabled;

CREATE TABLE device_alarms (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL,
  scenario_id integer REFERENCES device_scenarios(id) ON DELETE SET NULL,
  device_id integer REFERENCES devices(id) ON DELETE SET NULL,
  place text NOT NULL DEFAULT '',
  kind text NOT NULL,
  message text NOT NULL,
  raised_at timestamptz NOT NULL DEFAULT now(),
  cleared_at timestamptz
);
CREATE INDEX device_alarms_open_idx ON device_alarms(farm_id) WHERE cleared_at IS NULL;
-- One open alarm per scenario: raising twice is a no-op (ON CONFLICT) across instances.
CREATE UNIQUE INDEX device_alarms_one_open_idx ON device_alarms(scenario_id) WHERE cleared_at IS NULL;
