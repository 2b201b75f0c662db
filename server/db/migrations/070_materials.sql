-- The farm materials ledger (server/materials, docs/materials.md). Stock is the sum of
-- confirmed movements; the balance rows hold that sum per (store, material, batch) so a
-- draw is one conditional update of one row, and CHECK (quantity >= 0) makes a negative
-- balance impossible whatever the code above does. Stores and materials are records of
-- the resource engine (farmStores, farmMaterials): their ids are kept here without a
-- foreign key, because the module refuses to delete a store or material that has
-- movements (server/materials/extensions.ts) and the records' storage is the engine's.
-- Quantities and money are exact decimals (numeric), never floats.

CREATE TABLE material_movements (
  id bigserial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  store_id bigint NOT NULL,
  moved_on date NOT NULL,
  supplier_id bigint,
  purpose text,
  reference text,
  group_id bigint,
  task_id bigint,
  note text,
  -- A correction names the movement it reverses; UNIQUE: a movement is reversed once only.
  reverses_id bigint UNIQUE REFERENCES material_movements(id),
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX material_movements_farm_idx ON material_movements(farm_id, moved_on DESC, id DESC);
CREATE INDEX material_movements_store_idx ON material_movements(store_id, moved_on, id);

CREATE TABLE material_movement_lines (
  id bigserial PRIMARY KEY,
  movement_id bigint NOT NULL REFERENCES material_movements(id) ON DELETE CASCADE,
  line_no integer NOT NULL,
  material_id bigint NOT NULL,
  batch text NOT NULL DEFAULT '',
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  unit_price numeric(14, 4) NOT NULL CHECK (unit_price >= 0),
  amount numeric(16, 2) NOT NULL CHECK (amount >= 0),
  produced_on date,
  expires_on date,
  UNIQUE (movement_id, line_no)
);
CREATE INDEX material_movement_lines_material_idx ON material_movement_lines(material_id, movement_id);

CREATE TABLE material_balances (
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  store_id bigint NOT NULL,
  material_id bigint NOT NULL,
  batch text NOT NULL DEFAULT '',
  quantity numeric(14, 3) NOT NULL CHECK (quantity >= 0),
  value numeric(16, 2) NOT NULL CHECK (value >= 0),
  produced_on date,
  expires_on date,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, material_id, batch)
);
CREATE INDEX material_balances_farm_idx ON material_balances(farm_id, store_id);

-- A goods code names one material of a farm (the catalogue's business key).
CREATE UNIQUE INDEX farm_materials_goods_code_idx ON resource_records(farm_id, (data->>'goodsCode'))
  WHERE resource = 'farmMaterials' AND data->>'goodsCode' IS NOT NULL;
