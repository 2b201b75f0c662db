-- Issue 28: the session user is cached per server process (server/auth/session-cache.ts).
-- Any change to what a session user is made of (users, their roles, the roles' codes,
-- organisations, blocs) raises this one counter, in the same transaction as the change;
-- every request reads it with its token check (one query) and a cached user of an older
-- generation is loaded again. Several servers on one database see the same counter.
CREATE TABLE session_generation (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  n bigint NOT NULL DEFAULT 0
);
INSERT INTO session_generation (id, n) VALUES (true, 0);

-- The body on one line: the migrator splits statements at a `;` that ends a line.
CREATE FUNCTION session_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE session_generation SET n = n + 1 WHERE id; RETURN NULL; END $$;

CREATE TRIGGER users_session_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION session_generation_bump();
CREATE TRIGGER user_roles_session_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_roles
  FOR EACH STATEMENT EXECUTE FUNCTION session_generation_bump();
CREATE TRIGGER roles_session_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION session_generation_bump();
CREATE TRIGGER organisations_session_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organisations
  FOR EACH STATEMENT EXECUTE FUNCTION session_generation_bump();
CREATE TRIGGER blocs_session_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON blocs
  FOR EACH STATEMENT EXECUTE FUNCTION session_generation_bump();
