/**
 * Public reads of resource documents (docs/resources.md, "Public reads"): the records
 * matching a declared filter, with a declared list of fields, readable without a token
 * (pages before login, a mobile app's update check). Pure: the document checks and the
 * server's engine share it.
 */
import type { ResourceDocument } from './resource.ts';

export interface PublicRead {
  /** Where the two public routes live: GET {basePath}/:id and GET {basePath}/search. */
  basePath: string;
  /** Only records whose properties equal these values are public. */
  where: Record<string, string | number | boolean>;
  /** The properties of each public row (after `id`); an absent value is null. */
  fields: string[];
  /** Further properties of the one-record reply (an article's body). */
  detailFields?: string[];
  /** `keyword`: case-insensitive text contained in any of `fields`. */
  keyword?: { fields: string[]; maxLength: number };
  /** Equality filters, one query parameter each, typed like the property. */
  filters?: string[];
  /** Order of the search, as a page query's sort ("-publishedAt"); ties by id in the same direction. */
  sort: string;
}

const kindOf = (type: string | undefined) => (type === 'integer' || type === 'number' ? 'number' : type === 'string' ? 'string' : type === 'boolean' ? 'boolean' : null);

/** Problems of a document's public read, beyond what the meta-schema checks. */
export function checkPublicRead(d: ResourceDocument): { pointer: string; message: string }[] {
  const pub = d.publicRead;
  if (!pub) return [];
  const problems: { pointer: string; message: string }[] = [];
  const props = d.record.properties;
  const scalar = (field: string, pointer: string, need?: 'string') => {
    const kind = kindOf(props[field]?.type);
    if (!props[field]) problems.push({ pointer, message: `names "${field}", which is not a property of the record` });
    else if (!kind) problems.push({ pointer, message: `"${field}" is not a string, number or boolean property` });
    else if (need && kind !== need) problems.push({ pointer, message: `"${field}" must be a string property` });
    return kind;
  };
  if (pub.basePath.toLowerCase() === d.basePath.toLowerCase()) problems.push({ pointer: '/publicRead/basePath', message: 'must differ from the resource’s own base path' });
  for (const [field, value] of Object.entries(pub.where)) {
    const kind = scalar(field, `/publicRead/where/${field}`);
    if (kind && typeof value !== kind) problems.push({ pointer: `/publicRead/where/${field}`, message: `is a ${typeof value}, but "${field}" holds ${kind}s` });
  }
  pub.fields.forEach((f, i) => {
    if (!props[f]) problems.push({ pointer: `/publicRead/fields/${i}`, message: `names "${f}", which is not a property of the record` });
  });
  (pub.detailFields ?? []).forEach((f, i) => {
    if (!props[f]) problems.push({ pointer: `/publicRead/detailFields/${i}`, message: `names "${f}", which is not a property of the record` });
    else if (pub.fields.includes(f)) problems.push({ pointer: `/publicRead/detailFields/${i}`, message: `"${f}" is already among "fields"` });
  });
  pub.keyword?.fields.forEach((f, i) => scalar(f, `/publicRead/keyword/fields/${i}`, 'string'));
  (pub.filters ?? []).forEach((f, i) => {
    scalar(f, `/publicRead/filters/${i}`);
    if (f === 'keyword' || f === 'pageIndex' || f === 'pageSize') problems.push({ pointer: `/publicRead/filters/${i}`, message: `"${f}" clashes with a parameter of the search` });
  });
  for (const part of pub.sort.split(',')) {
    const field = part.replace(/^-/, '');
    if (field !== 'id') scalar(field, '/publicRead/sort');
  }
  return problems;
}
