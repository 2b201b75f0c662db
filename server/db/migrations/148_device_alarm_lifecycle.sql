-- Alarms with a lifecycle and interlocks (issue 26 items 4 and 5; docs/devices.md, "Alarms" and "Interlocks").

-- An alarm is of one source (a rule `scenario:<id>`, a device `device:<id>`, a gateway
-- `gateway:<id>`) and one condition (threshold, offline, stale, commandFailed,
-- commandTimedOut, interlock). Raised, then acknowledged (who, when, a note), cleared
-- (automatically when the condition ends: cleared_by NULL; by hand with a reason), and
-- escalated (level, when) while nobody acknowledges it. One open alarm per farm, source
-- and condition: raising it again counts an occurrence instead of a new row.
ALTER TABLE device_alarms
  ADD COLUMN source text NOT NULL DEFAULT '',
  ADD COLUMN condition text NOT NULL DEFAULT 'threshold'
    CHECK (condition IN ('threshold', 'offline', 'stale', 'commandFailed', 'commandTimedOut', 'interlock')),
  ADD COLUMN severity text NOT NULL DEFAULT 'major' CHECK (severity IN ('critical', 'major', 'minor')),
  -- What the sentence of each language is made of (device, rule, value…), so the list speaks the reader's language.
  ADD COLUMN params jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN occurrences integer NOT NULL DEFAULT 1,
  ADD COLUMN last_raised_at timestamptz,
  ADD COLUMN acknowledged_at timestamptz,
  ADD COLUMN acknowledged_by integer REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN ack_note text NOT NULL DEFAULT '',
  ADD COLUMN cleared_by integer REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN clear_reason text NOT NULL DEFAULT '',
  ADD COLUMN escalation_level integer NOT NULL DEFAULT 0,
  ADD COLUMN escalated_at timestamptz;

UPDATE device_alarms SET source = CASE WHEN scenario_id IS NOT NULL THEN 'scenario:' || scenario_id ELSE 'place:' || place END,
  params = jsonb_build_object('text', message), last_raised_at = raised_at;

DROP INDEX device_alarms_one_open_idx;
CREATE UNIQUE INDEX device_alarms_one_open_idx ON device_alarms(farm_id, source, condition) WHERE cleared_at IS NULL;
CREATE INDEX device_alarms_farm_raised_idx ON device_alarms(farm_id, raised_at DESC);
CREATE INDEX device_alarms_device_idx ON device_alarms(device_id) WHERE device_id IS NOT NULL;

-- A sensor's last reading (a sensor that says it is online but sends nothing is stale).
ALTER TABLE devices ADD COLUMN last_reading_at timestamptz;

-- Per farm, the devices area's settings: who is on duty for alarms (their phone gets the
-- SMS), who an unacknowledged alarm escalates to, after how long, when a sensor is stale,
-- and the farm's own time zone (rules' windows and schedules). A farm without a row has
-- the defaults and no on-duty contact (no SMS; said in the server log).
CREATE TABLE device_farm_settings (
  farm_id integer PRIMARY KEY REFERENCES organisations(id) ON DELETE CASCADE,
  duty_name text NOT NULL DEFAULT '',
  duty_phone text NOT NULL DEFAULT '' CHECK (duty_phone ~ '^(\+?[0-9]{6,20})?$'),
  escalation_name text NOT NULL DEFAULT '',
  escalation_phone text NOT NULL DEFAULT '' CHECK (escalation_phone ~ '^(\+?[0-9]{6,20})?$'),
  escalate_after_s integer NOT NULL DEFAULT 900 CHECK (escalate_after_s BETWEEN 10 AND 86400),
  stale_after_s integer NOT NULL DEFAULT 900 CHECK (stale_after_s BETWEEN 10 AND 604800),
  -- The language of the texts sent to the contacts.
  lang text NOT NULL DEFAULT 'zh' CHECK (lang IN ('zh', 'en', 'es')),
  time_zone text NOT NULL DEFAULT 'Asia/Shanghai'
);

-- Interlocks declared per unit: a command to `device_id` whose parameters match `guard.when`
-- (e.g. {"on": true}) may leave the device so only while the devices of `guard.of` are in the
-- stated state (`guard.requires`: any or all of them; each {deviceId, key, equals}); a command
-- to one of those that would break it while the guarded device runs is refused too.
CREATE TABLE device_interlocks (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  unit text NOT NULL DEFAULT '',
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  device_id integer NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  guard jsonb NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_interlocks_farm_idx ON device_interlocks(farm_id) WHERE enabled;

-- A rule may only raise an alarm (the scenario form allows no action when `alarm` is set).
ALTER TABLE device_scenarios ALTER COLUMN action DROP NOT NULL;

-- A rule's action when the value comes back (it re-arms): {deviceId, action, params}, or none.
ALTER TABLE device_scenarios ADD COLUMN back_action jsonb;
