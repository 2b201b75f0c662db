-- Simulation never touches real equipment (docs/devices.md, "Simulator"): only gateways
-- marked simulated (the seeded demo ones) are played by the simulator and labelled so on
-- every screen; a gateway a farm registers is real (false).
ALTER TABLE device_gateways ADD COLUMN simulated boolean NOT NULL DEFAULT false;
UPDATE device_gateways SET simulated = true WHERE secret LIKE 'demo-secret-%';
