-- Foundation: organisations, accounts, roles, menus, sessions, SMS codes, audit.

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- A bloc is a group of farms, served by a service provider.
CREATE TABLE blocs (
  id serial PRIMARY KEY,
  name text NOT NULL,
  city text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- type: 0 farm, 1 manufacturer, 3 regional management center, 4 seedling base (spec section 1).
CREATE TABLE organisations (
  id serial PRIMARY KEY,
  name text NOT NULL,
  type smallint NOT NULL CHECK (type IN (0, 1, 3, 4)),
  bloc_id integer REFERENCES blocs(id) ON DELETE SET NULL,
  city text,
  address text,
  contact text,
  phone text,
  logo_url text,
  status smallint NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX organisations_bloc_idx ON organisations(bloc_id);

-- kind: the person's role in the business (admin, operator, agent, tech, device, provider, member).
-- status: 1 enabled, 0 disabled.
CREATE TABLE users (
  id serial PRIMARY KEY,
  username text NOT NULL UNIQUE,
  name text NOT NULL,
  mobile_phone text UNIQUE,
  password_hash text NOT NULL,
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  kind text NOT NULL DEFAULT 'member',
  org_id integer REFERENCES organisations(id) ON DELETE SET NULL,
  bloc_id integer REFERENCES blocs(id) ON DELETE SET NULL,
  description text,
  city text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_org_idx ON users(org_id);
CREATE INDEX users_bloc_idx ON users(bloc_id);

-- platform: holders are platform administrators (every scope).
CREATE TABLE roles (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name jsonb NOT NULL,
  description text,
  menus text[] NOT NULL DEFAULT '{}',
  elements text[] NOT NULL DEFAULT '{}',
  platform boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_roles (
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_id integer NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, role_id)
);

-- The menu tree; title is {zh, en, es}; elements lists the element codes under an entry.
CREATE TABLE menus (
  id serial PRIMARY KEY,
  parent_id integer REFERENCES menus(id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE,
  path text NOT NULL,
  title jsonb NOT NULL,
  icon text,
  sort integer NOT NULL DEFAULT 0,
  hidden boolean NOT NULL DEFAULT false,
  default_child text,
  elements jsonb NOT NULL DEFAULT '[]',
  version integer NOT NULL DEFAULT 1
);
CREATE INDEX menus_parent_idx ON menus(parent_id);

CREATE TABLE revoked_tokens (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- purpose: 'register' (sms/send) or 'password' (sms/sendChangePassword).
CREATE TABLE sms_codes (
  id serial PRIMARY KEY,
  phone text NOT NULL,
  purpose text NOT NULL,
  code text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX sms_codes_phone_idx ON sms_codes(phone, purpose, created_at DESC);

-- Failed logins, by username and by address, for throttling across server instances.
CREATE TABLE login_failures (
  id serial PRIMARY KEY,
  key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_key_idx ON login_failures(key, at);

-- status: pending, approved, rejected.
CREATE TABLE registration_requests (
  id serial PRIMARY KEY,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  reason text,
  reviewed_by integer REFERENCES users(id) ON DELETE SET NULL,
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Operation log: every write, login, logout, password and permission change.
CREATE TABLE operation_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  user_id integer,
  username text,
  action text NOT NULL,
  resource text,
  record_id text,
  changes jsonb,
  ip text
);
CREATE INDEX operation_log_at_idx ON operation_log(at DESC);
CREATE INDEX operation_log_user_idx ON operation_log(user_id, at DESC);
CREATE INDEX operation_log_resource_idx ON operation_log(resource, at DESC);
