-- Devices' placement on the map (docs/devices.md, "System build"): optional WGS-84
-- coordinates, set from the system-build screens; the map's device layer reads them.
ALTER TABLE devices ADD COLUMN lng double precision CHECK (lng BETWEEN -180 AND 180);
ALTER TABLE devices ADD COLUMN lat double precision CHECK (lat BETWEEN -90 AND 90);
