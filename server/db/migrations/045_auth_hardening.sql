-- Login throttle counters (issue 11): one row per key, counted atomically with
-- INSERT ... ON CONFLICT DO UPDATE, so concurrent attempts on any number of server
-- instances are limited exactly. Keys: 'p:<address> <username>' (pair), 'u:<username>',
-- 'ip:<address>'. `n` counts attempts in the window that began at `since`.
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  n integer NOT NULL,
  since timestamptz NOT NULL DEFAULT now()
);
DROP TABLE login_failures;

-- Tokens carry the user's epoch; raising it ends every token issued before (disabling,
-- a password change, a role change that removes codes). Re-enabling does not lower it.
ALTER TABLE users ADD COLUMN token_epoch integer NOT NULL DEFAULT 0;
