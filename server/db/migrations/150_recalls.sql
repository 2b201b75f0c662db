-- The release gate and recalls (issue 25 items 2 and 4, docs/harvest-sales-trace.md).
--
-- A batch harvested inside a safety interval is held until a passing residue test of the
-- batch after its harvest (computed when read), or until a holder of
-- farmHarvestIndex:release clears it with a reason: that reason and who are kept here.
ALTER TABLE harvests
  ADD COLUMN release_reason text,
  ADD COLUMN released_by integer REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN released_at timestamptz,
  ADD CHECK ((released_at IS NULL) = (release_reason IS NULL));

-- A recall of one batch or of a material lot (every batch it reached). RC + id on six digits.
CREATE TABLE recalls (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('batch', 'materialLot')),
  harvest_id bigint REFERENCES harvests(id),
  material_id bigint,
  lot text,
  reason text NOT NULL CHECK (length(reason) BETWEEN 4 AND 200),
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'batch') = (harvest_id IS NOT NULL)),
  CHECK ((kind = 'materialLot') = (material_id IS NOT NULL AND lot IS NOT NULL))
);
CREATE UNIQUE INDEX recalls_batch_idx ON recalls(harvest_id) WHERE kind = 'batch';
CREATE UNIQUE INDEX recalls_lot_idx ON recalls(farm_id, material_id, lot) WHERE kind = 'materialLot';
CREATE INDEX recalls_farm_idx ON recalls(farm_id, created_at DESC);

-- The batches a recall reached; `marked`: this recall marked it (false: it was recalled before).
CREATE TABLE recall_batches (
  recall_id integer NOT NULL REFERENCES recalls(id) ON DELETE CASCADE,
  harvest_id bigint NOT NULL REFERENCES harvests(id),
  marked boolean NOT NULL,
  PRIMARY KEY (recall_id, harvest_id)
);
CREATE INDEX recall_batches_harvest_idx ON recall_batches(harvest_id);

-- One customer of one recalled batch: what was sold to them (confirmed sales, at the recall),
-- the notices sent, and the progress; returned + destroyed never exceeds what was sold.
CREATE TABLE recall_contacts (
  id serial PRIMARY KEY,
  recall_id integer NOT NULL REFERENCES recalls(id) ON DELETE CASCADE,
  harvest_id bigint NOT NULL REFERENCES harvests(id),
  customer text NOT NULL,
  phone text NOT NULL DEFAULT '',
  sold numeric(14, 3) NOT NULL CHECK (sold > 0),
  unit text NOT NULL,
  orders text NOT NULL DEFAULT '',
  notice_id integer REFERENCES notices(id) ON DELETE SET NULL,
  sms_status text NOT NULL DEFAULT 'none' CHECK (sms_status IN ('none', 'sent', 'failed')),
  contacted_at timestamptz,
  returned numeric(14, 3) NOT NULL DEFAULT 0 CHECK (returned >= 0),
  destroyed numeric(14, 3) NOT NULL DEFAULT 0 CHECK (destroyed >= 0),
  note text,
  updated_by integer REFERENCES users(id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (recall_id, harvest_id, customer, phone),
  CHECK (returned + destroyed <= sold)
);
