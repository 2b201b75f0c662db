-- Platform administration (issue 6): role categories, registration review, and the
-- uniqueness that the administration resources need.

-- The role category (code of a roleCategories record) a role is listed under in the
-- console's role screens; NULL for roles not yet categorised.
ALTER TABLE roles ADD COLUMN category text;
ALTER TABLE roles ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX roles_category_idx ON roles(category);

-- What approving a registration request created.
ALTER TABLE registration_requests ADD COLUMN org_id integer REFERENCES organisations(id) ON DELETE SET NULL;
ALTER TABLE registration_requests ADD COLUMN user_id integer REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX registration_requests_status_idx ON registration_requests(status, created_at DESC);

-- Codes that other records name must stay unique; the routes check first and answer
-- with a field error, these indexes hold when two writers race.
CREATE UNIQUE INDEX resource_records_dicts_code_uq ON resource_records ((lower(data->>'code'))) WHERE resource = 'dicts';
CREATE UNIQUE INDEX resource_records_role_categories_code_uq ON resource_records ((lower(data->>'code'))) WHERE resource = 'roleCategories';
CREATE UNIQUE INDEX resource_records_app_versions_uq ON resource_records ((data->>'platform'), ((data->>'versionCode')::numeric)) WHERE resource = 'appVersions';
