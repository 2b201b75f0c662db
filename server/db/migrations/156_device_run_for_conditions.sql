-- Run for N minutes and rules of several conditions (issue 26 item 4; docs/devices.md,
-- "Run for a while" and "Scenarios and alarms").

-- The server's own off command after a run-for duration is stored like any command, with
-- the source `timer`.
ALTER TABLE device_commands DROP CONSTRAINT device_commands_source_check;
ALTER TABLE device_commands ADD CONSTRAINT device_commands_source_check CHECK (source IN ('user', 'scenario', 'timer'));

-- A pending stop: the device is switched off at `stop_at` (the on command `command_id` said
-- `runForS`). At most one per device: a later command to the device deletes it (a manual
-- off or on cancels it; an on with its own run-for replaces it). The sweep's
-- `DELETE … WHERE id = … RETURNING` inside the off command's transaction is the claim, so
-- of several API instances exactly one sends the off; a stop whose time passed while no
-- instance ran is sent at the next start.
CREATE TABLE device_timed_stops (
  id serial PRIMARY KEY,
  device_id integer NOT NULL UNIQUE REFERENCES devices(id) ON DELETE CASCADE,
  farm_id integer NOT NULL,
  command_id integer NOT NULL,
  scenario_id integer,
  run_for_s integer NOT NULL CHECK (run_for_s BETWEEN 10 AND 86400),
  stop_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_timed_stops_due_idx ON device_timed_stops(stop_at);

-- A rule of several conditions keeps each condition's last value here ({"0": {"v": 31.2,
-- "ts": "…"}, …}), written by the instance that heard the reading, so that a reading of
-- one condition is judged with the others' last values whichever instance heard them.
ALTER TABLE device_scenarios ADD COLUMN condition_values jsonb NOT NULL DEFAULT '{}';
