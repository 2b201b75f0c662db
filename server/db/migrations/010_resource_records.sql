-- Records of every resource document (schemas/resources/*.json), one table for all.
-- data holds the record's own properties as validated against the document's schema.
-- farm_id: the owner farm of a farm-scoped record; bloc_id: the owner group of a
-- group-scoped record (for a farm-scoped one, the farm's group when it was written).
-- Both are NULL for platform records. Expression indexes for each document's searchable
-- and sortable fields are created at server start (server/resources/indexes.ts).

CREATE TABLE resource_records (
  id bigserial PRIMARY KEY,
  resource text NOT NULL,
  farm_id integer REFERENCES organisations(id) ON DELETE CASCADE,
  bloc_id integer REFERENCES blocs(id) ON DELETE SET NULL,
  data jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_by integer REFERENCES users(id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX resource_records_resource_idx ON resource_records(resource, id);
CREATE INDEX resource_records_farm_idx ON resource_records(resource, farm_id, id);
CREATE INDEX resource_records_bloc_idx ON resource_records(resource, bloc_id, id);
CREATE INDEX resource_records_updated_idx ON resource_records(resource, updated_at);
