import type { Options } from 'ajv';

/**
 * The ajv options each meta-schema is compiled with, ahead of time by
 * tools/meta-validators.ts into runtime/schema/generated/. Changing one regenerates the
 * modules (`npm run schemas:compile`); schemas:check fails until then.
 */
export const META_VALIDATOR_OPTIONS = {
  // verbose: the failing subschema's description becomes the message of an anyOf
  // (validate.ts). Refs stay functions so that the generated module stays small.
  screen: {
    allErrors: true,
    discriminator: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    verbose: true,
    inlineRefs: false,
  },
  // The options of createAjv() (ajv.ts), which the server and the forms share.
  resource: {
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    messages: true,
  },
  menus: { allErrors: true, strict: false },
} satisfies Record<string, Options>;
