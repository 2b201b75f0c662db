-- The seedling bases are served by the resource engine from this table
-- (schemas/resources/nurseries.json, docs/resources.md "Table-backed storage"):
-- it needs the engine's meta columns. Existing rows start at version 1.
ALTER TABLE organisations ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE organisations ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE organisations ADD COLUMN created_by integer REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE organisations ADD COLUMN updated_by integer REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX organisations_type_idx ON organisations(type, id);
