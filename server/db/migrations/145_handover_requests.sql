-- A hand-over into another farm's store is a request that farm accepts (docs/materials.md,
-- "Hand-over between the farms of a group"): nothing moves until the receiving farm accepts;
-- then the stock-out at the giving farm and the stock-in at the receiving farm are posted in
-- the acceptance's transaction (material_handovers links them), one on each farm's ledger.
CREATE TABLE material_handover_requests (
  id bigserial PRIMARY KEY,
  from_farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  to_farm_id integer NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  from_store_id bigint NOT NULL,
  to_store_id bigint NOT NULL,
  moved_on date NOT NULL,
  reference text,
  note text,
  lines jsonb NOT NULL,
  status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'accepted', 'declined', 'cancelled')),
  reason text,
  handover_id bigint UNIQUE REFERENCES material_handovers(id),
  version integer NOT NULL DEFAULT 1,
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_by integer REFERENCES users(id) ON DELETE SET NULL,
  decided_at timestamptz
);
CREATE INDEX material_handover_requests_to ON material_handover_requests (to_farm_id, status, id);
CREATE INDEX material_handover_requests_from ON material_handover_requests (from_farm_id, status, id);
