-- Harvest, sales, fund accounting and traceability (server/harvest, docs/harvest-sales-trace.md).
-- A harvest batch keeps how much of it was sold: a sale draws with a conditional update
-- (sold + wanted <= quantity) after locking the batch rows in id order, and the CHECK makes
-- overselling impossible whatever the code above does. Money and quantities are numeric.
-- Planting groups, products and quality records are records of the resource engine:
-- their ids are kept here without a foreign key, as in 070_materials.sql.

CREATE TABLE harvests (
  id bigserial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  batch_no text NOT NULL UNIQUE,
  group_id bigint NOT NULL,
  harvested_on date NOT NULL,
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  unit text NOT NULL,
  grade text NOT NULL CHECK (grade IN ('premium', 'first', 'second', 'offGrade')),
  sold numeric(14, 3) NOT NULL DEFAULT 0,
  note text,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (sold >= 0 AND sold <= quantity)
);
CREATE INDEX harvests_farm_idx ON harvests(farm_id, harvested_on DESC, id DESC);
CREATE INDEX harvests_group_idx ON harvests(group_id);

CREATE TABLE sales_orders (
  id bigserial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  customer text NOT NULL,
  customer_phone text,
  ordered_on date NOT NULL,
  status text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'cancelled')),
  total numeric(16, 2) NOT NULL CHECK (total >= 0),
  note text,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  cancelled_at timestamptz
);
CREATE INDEX sales_orders_farm_idx ON sales_orders(farm_id, ordered_on DESC, id DESC);

CREATE TABLE sales_order_lines (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES sales_orders(id) ON DELETE CASCADE,
  line_no integer NOT NULL,
  harvest_id bigint NOT NULL REFERENCES harvests(id),
  product_id bigint,
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  unit_price numeric(14, 2) NOT NULL CHECK (unit_price >= 0),
  amount numeric(16, 2) NOT NULL CHECK (amount >= 0),
  UNIQUE (order_id, line_no)
);
CREATE INDEX sales_order_lines_harvest_idx ON sales_order_lines(harvest_id);

-- Income and expense entries. Sales post their own (source 'sale'), a cancelled sale its
-- reversal (a negative amount of the same category); entries by hand have source 'manual'.
-- Purchases are not copied here: the reports read the materials ledger's stock-ins.
CREATE TABLE account_entries (
  id bigserial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  entry_on date NOT NULL,
  direction text NOT NULL CHECK (direction IN ('income', 'expense')),
  category text NOT NULL,
  amount numeric(16, 2) NOT NULL CHECK (amount <> 0),
  crop text,
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'sale')),
  source_id bigint,
  note text,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_entries_farm_idx ON account_entries(farm_id, entry_on DESC, id DESC);

CREATE TABLE trace_codes (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{12}$'),
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  harvest_id bigint NOT NULL UNIQUE REFERENCES harvests(id) ON DELETE CASCADE,
  scans integer NOT NULL DEFAULT 0,
  last_scanned_at timestamptz,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trace_codes_farm_idx ON trace_codes(farm_id, created_at DESC);

-- Reviews and suggestions left on the public page; the farm answers them.
-- client_key: a hash of the sender's address, for the rate limit only (never shown).
CREATE TABLE trace_reviews (
  id bigserial PRIMARY KEY,
  code text NOT NULL REFERENCES trace_codes(code) ON DELETE CASCADE,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('review', 'suggestion')),
  rating smallint CHECK (rating BETWEEN 1 AND 5),
  content text NOT NULL,
  nickname text,
  client_key text NOT NULL,
  answer text,
  answered_at timestamptz,
  answered_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trace_reviews_farm_idx ON trace_reviews(farm_id, created_at DESC);
CREATE INDEX trace_reviews_client_idx ON trace_reviews(client_key, created_at);
