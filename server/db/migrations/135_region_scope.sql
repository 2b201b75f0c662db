-- The region of a regional management center (organisation type 3): the farms and seedling
-- bases it oversees name it in center_id. A center reads their records; writes stay with
-- each organisation (docs/resources.md, "Scope"). That center_id names a type-3
-- organisation is checked by the server where organisations are written (a CHECK cannot
-- look at another row).
ALTER TABLE organisations ADD COLUMN center_id integer REFERENCES organisations(id) ON DELETE SET NULL;
CREATE INDEX organisations_center_idx ON organisations(center_id) WHERE center_id IS NOT NULL;

-- Databases seeded before this migration: the demo farms and seedling base join the demo
-- center's region (a fresh seed links them itself; elsewhere the names match nothing).
UPDATE organisations f
   SET center_id = c.id
  FROM organisations c
 WHERE c.type = 3 AND c.name = '松嫩平原区域管理中心'
   AND f.type IN (0, 4) AND f.name IN ('禾丰生态农场', '嫩江源合作农场', '绿源育苗基地')
   AND f.center_id IS NULL;
