-- The schema store of the studio (server/studio, docs/studio.md): revisions published
-- from the console over the bundled schemas/, and each configurer's private drafts.
-- A document is keyed by its repository path (`file`). Revision 0 of a file is the
-- bundled document (never stored); every publish stores revision = previous + 1.

-- One row: the generation, raised by every publish. Publishing updates it first, so the
-- row lock orders every publish (two concurrent publishes of one file cannot both read
-- the same current revision) and generations commit in the order they are handed out
-- (an instance polling max(generation) never misses one that commits late).
CREATE TABLE schema_generation (
  id integer PRIMARY KEY CHECK (id = 1),
  generation bigint NOT NULL
);
INSERT INTO schema_generation(id, generation) VALUES (1, 0);

CREATE TABLE schema_revisions (
  id bigserial PRIMARY KEY,
  file text NOT NULL,
  type text NOT NULL CHECK (type IN ('screen', 'resource', 'menus')),
  revision integer NOT NULL CHECK (revision > 0),
  generation bigint NOT NULL UNIQUE,
  -- The document as published (jsonb, for queries) and as written (its key order, for the editor).
  content jsonb NOT NULL,
  content_text text NOT NULL,
  format_version integer NOT NULL,
  author_id integer REFERENCES users(id) ON DELETE SET NULL,
  author_username text,
  at timestamptz NOT NULL DEFAULT now(),
  comment text NOT NULL DEFAULT '',
  -- A rollback names the revision whose content it republished (0 = the bundled one).
  restores integer,
  -- The backstop of the row lock above: one revision number per file, whatever happens.
  UNIQUE (file, revision)
);
CREATE INDEX schema_revisions_generation_idx ON schema_revisions(generation);

-- A draft is its author's alone until published; one per author and file.
CREATE TABLE schema_drafts (
  file text NOT NULL,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  content text NOT NULL,
  base_revision integer NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, file)
);
