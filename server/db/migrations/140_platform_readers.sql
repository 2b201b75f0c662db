-- A role whose members read the records of every organisation and write none of them: the
-- configurer, whose studio previews every screen with real data (docs/studio.md, "The config
-- account"). Writes keep the caller's own scope (none for a configurer, who belongs to no
-- organisation); only reads widen (server/auth/region-scope.ts).
ALTER TABLE roles ADD COLUMN reads_platform boolean NOT NULL DEFAULT false;
UPDATE roles SET reads_platform = true WHERE code = 'configurer';

-- The farms' shared market (offers between the farms of a group) is no manufacturer's business:
-- a manufacturer has no farm and saw an empty market. Databases seeded before this migration
-- drop the section from the manufacturer role (a fresh seed no longer grants it).
UPDATE roles
   SET menus = ARRAY(SELECT m FROM unnest(menus) m WHERE m NOT IN ('shareMaterial', 'shareMaterialIndex', 'shareMaterialAddEditShow')),
       elements = ARRAY(SELECT e FROM unnest(elements) e WHERE e NOT LIKE 'shareMaterialIndex:%')
 WHERE code = 'manufacturer';

-- A customer agent belongs to no organisation and no bloc: it reads no farm's records, and the
-- provider home, the map and the farms' products and sales it held showed it nothing.
UPDATE roles
   SET menus = ARRAY(SELECT m FROM unnest(menus) m WHERE m NOT IN ('yxhome', 'yxhomeIndex', 'showMap', 'showMapIndex', 'marketing', 'introduce', 'sale')),
       elements = ARRAY(SELECT e FROM unnest(elements) e WHERE split_part(e, ':', 1) NOT IN ('yxhomeIndex', 'showMapIndex', 'introduce', 'sale'))
 WHERE code = 'customerAgent';
