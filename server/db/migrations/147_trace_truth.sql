-- Traceability an inspector can trust (issue 25, docs/harvest-sales-trace.md).
-- A harvest inside a pesticide's safety interval is refused unless a holder of
-- farmHarvestIndex:safetyOverride records why: the reason and who stay on the batch (and the
-- operation log). A recall marks a batch with its reason; sales of it are then refused.
ALTER TABLE harvests
  ADD COLUMN safety_override_reason text,
  ADD COLUMN safety_override_by integer REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN recalled_at timestamptz,
  ADD COLUMN recall_reason text,
  ADD COLUMN recalled_by integer REFERENCES users(id) ON DELETE SET NULL,
  ADD CHECK ((recalled_at IS NULL) = (recall_reason IS NULL));

-- One scan per visitor, code and day: the visitor is a keyed hash of the address and the
-- browser (never the address itself), kept only to count once; rows older than the day are
-- no longer read and are deleted as pages are served.
CREATE TABLE trace_scans (
  code text NOT NULL REFERENCES trace_codes(code) ON DELETE CASCADE,
  day date NOT NULL,
  visitor text NOT NULL,
  PRIMARY KEY (code, day, visitor)
);
CREATE INDEX trace_scans_day_idx ON trace_scans(day);

-- Page views per address per minute, for the public page's rate limit.
CREATE TABLE trace_page_hits (
  client_key text NOT NULL,
  minute timestamptz NOT NULL,
  hits integer NOT NULL DEFAULT 1,
  PRIMARY KEY (client_key, minute)
);
CREATE INDEX trace_page_hits_minute_idx ON trace_page_hits(minute);
