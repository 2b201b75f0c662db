-- Coverfield business (spec 7.3) and notices with per-recipient receipts.

-- A service between a technician, a customer agent and a farm. The farm authorises it
-- by answering the notice that announced it (responseAuth).
-- status: 0 awaiting the farm's authorisation, 1 authorised, 2 refused, 3 finished.
CREATE TABLE business (
  id serial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  techman_id integer REFERENCES users(id) ON DELETE SET NULL,
  agent_id integer REFERENCES users(id) ON DELETE SET NULL,
  type text NOT NULL CHECK (type IN ('soilTest', 'fertilization', 'plantProtection', 'consultation', 'dataAccess')),
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  content text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX business_techman_idx ON business(techman_id, created_at DESC);
CREATE INDEX business_agent_idx ON business(agent_id, created_at DESC);
CREATE INDEX business_farm_idx ON business(farm_id);

-- kind: 'message' (plain), 'authRequest' (asks the recipient to answer for business_id),
-- 'authResult' (tells the requester how the farm answered).
CREATE TABLE notices (
  id serial PRIMARY KEY,
  title text NOT NULL,
  content text NOT NULL DEFAULT '',
  kind text NOT NULL DEFAULT 'message' CHECK (kind IN ('message', 'authRequest', 'authResult')),
  sender_id integer REFERENCES users(id) ON DELETE SET NULL,
  business_id integer REFERENCES business(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notices_business_idx ON notices(business_id);

-- One row per recipient; read_at NULL means unread (the badge counts these).
CREATE TABLE notice_receipts (
  notice_id integer NOT NULL REFERENCES notices(id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  read_at timestamptz,
  responded_at timestamptz,
  PRIMARY KEY (notice_id, user_id)
);
CREATE INDEX notice_receipts_user_idx ON notice_receipts(user_id, notice_id DESC);
CREATE INDEX notice_receipts_unread_idx ON notice_receipts(user_id) WHERE read_at IS NULL;
