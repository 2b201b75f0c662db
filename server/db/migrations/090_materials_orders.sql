-- Purchase orders between a farm and a manufacturer (or one of the farm's own suppliers),
-- their shipments and receipts, hand-overs between the farms of a group, and the link of a
-- stock-out to the farming record it was drawn for (server/materials, docs/materials.md).
-- Money and quantities are exact decimals. The state machine lives in
-- server/materials/orders.ts; the CHECKs here are the last guard of its invariants: a line
-- never ships more than ordered nor receives more than shipped, a shipment is received
-- once (its stock-in movement is UNIQUE).

CREATE TABLE purchase_orders (
  id bigserial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  -- The seller: a manufacturer organisation, or a supplier record of the farm (off the platform).
  seller_org_id integer REFERENCES organisations(id) ON DELETE RESTRICT,
  supplier_id bigint,
  CHECK ((seller_org_id IS NULL) <> (supplier_id IS NULL)),
  store_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted', 'accepted', 'refused', 'shipped', 'received', 'closed')),
  ordered_on date NOT NULL,
  expected_on date,
  contact text,
  note text,
  refuse_reason text,
  version integer NOT NULL DEFAULT 1,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchase_orders_farm_idx ON purchase_orders(farm_id, ordered_on DESC, id DESC);
CREATE INDEX purchase_orders_seller_idx ON purchase_orders(seller_org_id, ordered_on DESC, id DESC) WHERE status <> 'draft';

CREATE TABLE purchase_order_lines (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES purchase_orders(id) ON DELETE CASCADE,
  line_no integer NOT NULL,
  material_id bigint NOT NULL,
  -- What the seller reads: the farm's catalogue is the farm's, so the line keeps its words.
  name text NOT NULL,
  specification text,
  unit text NOT NULL,
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  unit_price numeric(14, 4) NOT NULL CHECK (unit_price >= 0),
  amount numeric(16, 2) NOT NULL CHECK (amount >= 0),
  shipped numeric(14, 3) NOT NULL DEFAULT 0 CHECK (shipped >= 0 AND shipped <= quantity),
  received numeric(14, 3) NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= shipped),
  UNIQUE (order_id, line_no)
);

CREATE TABLE purchase_shipments (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES purchase_orders(id) ON DELETE CASCADE,
  shipped_on date NOT NULL,
  waybill text,
  note text,
  -- Set once, by the receipt: the stock-in it posted (UNIQUE: a shipment is received once).
  received_movement_id bigint UNIQUE REFERENCES material_movements(id),
  received_on date,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchase_shipments_order_idx ON purchase_shipments(order_id, id);

CREATE TABLE purchase_shipment_lines (
  id bigserial PRIMARY KEY,
  shipment_id bigint NOT NULL REFERENCES purchase_shipments(id) ON DELETE CASCADE,
  order_line_id bigint NOT NULL REFERENCES purchase_order_lines(id) ON DELETE CASCADE,
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  batch text NOT NULL DEFAULT '',
  produced_on date,
  expires_on date
);

-- A hand-over between two farms of a group: the stock-out at one and the stock-in at the
-- other, posted by one transaction; each movement belongs to one hand-over at most.
CREATE TABLE material_handovers (
  id bigserial PRIMARY KEY,
  from_farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  to_farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  out_movement_id bigint NOT NULL UNIQUE REFERENCES material_movements(id),
  in_movement_id bigint NOT NULL UNIQUE REFERENCES material_movements(id),
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The stock-out a farming record drew (one per record).
CREATE TABLE farming_record_movements (
  record_id bigint PRIMARY KEY,
  movement_id bigint NOT NULL UNIQUE REFERENCES material_movements(id)
);
