-- The registration review is served by the resource engine from this table
-- (schemas/resources/registrations.json, docs/resources.md "Table-backed storage").
--
-- `payload` stays what it was: the applicant's submission as the public registration call
-- received it, written once, with the password hash that nobody maps or shows. The fields
-- the review shows become real columns generated from it, so the engine filters, sorts and
-- indexes them like any column, every writer of `payload` (the public call, the seed, old
-- rows) keeps working unchanged, and the two can never disagree. The engine never writes
-- them: only the review's own columns (status, reason, reviewer, organisation, account) change.
ALTER TABLE registration_requests ADD COLUMN username text GENERATED ALWAYS AS (payload->>'username') STORED;
ALTER TABLE registration_requests ADD COLUMN name text GENERATED ALWAYS AS (payload->>'name') STORED;
ALTER TABLE registration_requests ADD COLUMN phone text GENERATED ALWAYS AS (payload->>'phone') STORED;
ALTER TABLE registration_requests ADD COLUMN org_name text GENERATED ALWAYS AS (payload->>'orgName') STORED;
ALTER TABLE registration_requests ADD COLUMN org_type integer GENERATED ALWAYS AS ((payload->>'orgType')::integer) STORED;
ALTER TABLE registration_requests ADD COLUMN city text GENERATED ALWAYS AS (payload->>'city') STORED;
ALTER TABLE registration_requests ADD COLUMN address text GENERATED ALWAYS AS (payload->>'address') STORED;
ALTER TABLE registration_requests ADD COLUMN contact text GENERATED ALWAYS AS (payload->>'contact') STORED;
ALTER TABLE registration_requests ADD COLUMN description text GENERATED ALWAYS AS (payload->>'description') STORED;
-- The engine's meta columns; existing requests start at version 1.
ALTER TABLE registration_requests ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE registration_requests ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE registration_requests ADD COLUMN created_by integer REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE registration_requests ADD COLUMN updated_by integer REFERENCES users(id) ON DELETE SET NULL;
