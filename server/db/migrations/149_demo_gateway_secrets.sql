-- The demo gateways' secrets were a constant written in the code and the docs
-- ('demo-secret-<farm>-<n>'); every installation gets its own now (issue 26 item 6).
UPDATE device_gateways SET secret = replace(gen_random_uuid()::text, '-', '') WHERE secret LIKE 'demo-secret-%';
