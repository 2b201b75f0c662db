-- Areas on the WGS 84 ellipsoid (issue 30 item 2, docs/land-and-maps.md "Areas"). Until now a
-- shape's area was computed on a sphere (turf, 0.2 % under the ellipsoid at 45° N). The areas
-- stored with every drawn shape are recomputed once, by the land module when the server
-- starts (server/land/area-recompute.ts: SQL has no geodesic area without PostGIS), and each
-- change is written to the operation log (action `land.areaRecomputed`, before and after).
-- This table holds the request and its outcome: how many records changed, the total before
-- and after, when.
CREATE TABLE land_area_recomputations (
  id integer PRIMARY KEY,
  reason text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  checked integer,
  changed integer,
  mu_before numeric,
  mu_after numeric
);
INSERT INTO land_area_recomputations(id, reason) VALUES (1, 'WGS 84 ellipsoid (GeographicLib) instead of the sphere');
