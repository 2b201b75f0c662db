-- Uploaded files (issue 27 item 5; docs/resources.md "Files"). A row per file: its bytes live
-- in the configured storage under storage_key (and its thumbnail under thumb_key); the
-- record that holds it is (resource, record_id, field), set when a write attaches it. An
-- upload on no record belongs to its uploader only and is removed after a day; a file taken
-- off its record (or whose record was deleted) gets removed_at, and the sweeper deletes its
-- bytes and then the row.
CREATE TABLE files (
  id serial PRIMARY KEY,
  name text NOT NULL,
  mime text NOT NULL,
  size integer NOT NULL CHECK (size > 0),
  width integer,
  height integer,
  sha256 text NOT NULL,
  storage_key text NOT NULL UNIQUE,
  thumb_key text UNIQUE,
  uploaded_by integer REFERENCES users(id) ON DELETE SET NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  resource text NOT NULL,
  field text NOT NULL,
  record_id integer,
  attached_at timestamptz,
  removed_at timestamptz,
  CHECK ((record_id IS NULL) = (attached_at IS NULL))
);
CREATE INDEX files_record_idx ON files(resource, record_id) WHERE record_id IS NOT NULL;
CREATE INDEX files_pending_idx ON files(uploaded_by, uploaded_at) WHERE record_id IS NULL;
CREATE INDEX files_removed_idx ON files(removed_at) WHERE removed_at IS NOT NULL;
