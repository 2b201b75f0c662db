-- The platform material libraries (docs/materials.md, "Platform libraries") are resource
-- records; a registration number names one entry of a kind (the engine's hook refuses a
-- second one with a sentence, this index is the last guard).
CREATE UNIQUE INDEX tank_materials_registration_idx ON resource_records((data->>'mainType'), (data->>'registrationNo'))
  WHERE resource = 'tankMaterials' AND data->>'registrationNo' IS NOT NULL;
