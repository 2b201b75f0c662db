-- Shared materials between the farms of a group (docs/materials.md, "Shared materials"):
-- a farm offers a material of its stock to the other farms of its bloc; another farm
-- requests a quantity; the offering farm hands it over (a hand-over of the ledger,
-- material_handovers) or refuses; the requester may cancel while it waits.
CREATE TABLE share_offers (
  id bigserial PRIMARY KEY,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  store_id bigint NOT NULL,
  material_id bigint NOT NULL,
  batch text NOT NULL DEFAULT '',
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  unit_price numeric(14, 4) NOT NULL CHECK (unit_price >= 0),
  valid_until date NOT NULL,
  note text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'withdrawn')),
  version integer NOT NULL DEFAULT 1,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX share_offers_farm_idx ON share_offers(farm_id, status);

CREATE TABLE share_requests (
  id bigserial PRIMARY KEY,
  offer_id bigint NOT NULL REFERENCES share_offers(id) ON DELETE CASCADE,
  farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  to_store_id bigint NOT NULL,
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  note text,
  status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'handedOver', 'refused', 'cancelled')),
  reason text,
  handover_id bigint UNIQUE REFERENCES material_handovers(id),
  version integer NOT NULL DEFAULT 1,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz
);
CREATE INDEX share_requests_offer_idx ON share_requests(offer_id, status);
CREATE INDEX share_requests_farm_idx ON share_requests(farm_id, status);
